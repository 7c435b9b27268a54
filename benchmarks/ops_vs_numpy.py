"""Common array ops nobody's benchmark row names, MLC (jit, warm) against numpy eager: the
defect list (an op slower than numpy's is a defect to find and fix).

    python benchmarks/ops_vs_numpy.py            # prints the table, writes results/ops_vs_numpy.md

Each op's result is checked against numpy's first; times are the 25th percentile of as many
calls as fit in about half a second (at least 5), MLC and numpy measured back to back.
"""
import sys, time
from pathlib import Path

import numpy as np
import mlc, mlc.numpy as mnp, mlc.lax as lax, mlc.nn as nn
rng = np.random.default_rng(0)
f32 = np.float32
x = rng.standard_normal((1000, 777)).astype(f32)
v = rng.standard_normal(100_000).astype(f32)
idx = rng.integers(0, 1000, 20000).astype(np.int32)
cols = rng.integers(0, 777, (1000, 5)).astype(np.int32)
sq = rng.standard_normal((256, 256)).astype(f32)
progs = [
 ('sort rows', lambda a: mnp.sort(a, axis=1), lambda a: np.sort(a, axis=1), (x,)),
 ('sort 1d 1e5', lambda a: mnp.sort(a), lambda a: np.sort(a), (v,)),
 ('argsort rows', lambda a: mnp.argsort(a, axis=1), lambda a: np.argsort(a, axis=1, kind='stable'), (x,)),
 ('cumsum rows', lambda a: mnp.cumsum(a, axis=1), lambda a: np.cumsum(a, axis=1), (x,)),
 ('cumprod rows', lambda a: mnp.cumprod(a * 0.001 + 1, axis=1), lambda a: np.cumprod(a * f32(0.001) + 1, axis=1), (x,)),
 ('cummax rows', lambda a: lax.cummax(a, axis=1), lambda a: np.maximum.accumulate(a, axis=1), (x,)),
 ('take rows', lambda a, i: mnp.take(a, i, axis=0), lambda a, i: np.take(a, i, axis=0), (x, idx)),
 ('take_along_axis', lambda a, c: mnp.take_along_axis(a, c, axis=1), lambda a, c: np.take_along_axis(a, c, axis=1), (x, cols)),
 ('scatter add', lambda a, i: mnp.zeros(1000, mnp.float32).at[i].add(1.0), lambda a, i: np.bincount(i, minlength=1000).astype(f32), (x, idx)),
 ('argmax rows', lambda a: mnp.argmax(a, axis=1), lambda a: np.argmax(a, axis=1), (x,)),
 ('max axis0', lambda a: mnp.max(a, axis=0), lambda a: np.max(a, axis=0), (x,)),
 ('var rows', lambda a: mnp.var(a, axis=1), lambda a: np.var(a, axis=1), (x,)),
 ('transpose copy', lambda a: a.T, lambda a: np.ascontiguousarray(a.T), (x,)),  # a C-order result, as MLC's
 ('where', lambda a: mnp.where(a > 0, a, 0.0), lambda a: np.where(a > 0, a, f32(0)), (x,)),
 ('clip', lambda a: mnp.clip(a, -0.5, 0.5), lambda a: np.clip(a, -0.5, 0.5), (x,)),
 ('matmul 256', lambda a, b: a @ b, lambda a, b: a @ b, (sq, sq)),
 ('outer', lambda a: mnp.outer(a[:1000], a[:777]), lambda a: np.outer(a[:1000], a[:777]), (v,)),
 ('top_k 10 rows', lambda a: lax.top_k(a, 10)[0], lambda a: -np.sort(-a, axis=1)[:, :10], (x,)),
 ('searchsorted', lambda s, q: mnp.searchsorted(s, q), lambda s, q: np.searchsorted(s, q), (np.sort(v), v[:10000])),
 ('abs diff rows', lambda a: mnp.diff(a, axis=1), lambda a: np.diff(a, axis=1), (x,)),
 ('norm rows', lambda a: mnp.linalg.norm(a, axis=1), lambda a: np.linalg.norm(a, axis=1), (x,)),
 ('logsumexp', lambda a: nn.logsumexp(a, axis=1), lambda a: np.log(np.sum(np.exp(a - a.max(1, keepdims=True)), 1)) + a.max(1), (x,)),
 ('concat', lambda a: mnp.concatenate([a, a], axis=1), lambda a: np.concatenate([a, a], axis=1), (x,)),
 ('pad', lambda a: mnp.pad(a, 3), lambda a: np.pad(a, 3), (x,)),
 ('repeat', lambda a: mnp.repeat(a, 2, axis=0), lambda a: np.repeat(a, 2, axis=0), (x,)),
 ('tile', lambda a: mnp.tile(a, (2, 1)), lambda a: np.tile(a, (2, 1)), (x,)),
 ('flip', lambda a: mnp.flip(a, axis=1), lambda a: np.ascontiguousarray(np.flip(a, axis=1)), (x,)),
 ('roll', lambda a: mnp.roll(a, 5, axis=1), lambda a: np.roll(a, 5, axis=1), (x,)),
 ('triu', lambda a: mnp.triu(a), lambda a: np.triu(a), (x,)),
 ('one_hot', lambda i: nn.one_hot(i, 1000), lambda i: np.eye(1000, dtype=f32)[i], (idx[:2000],)),
 ('median rows', lambda a: mnp.median(a, axis=1), lambda a: np.median(a, axis=1), (x,)),
 ('quantile 1d', lambda a: mnp.quantile(a, 0.9), lambda a: np.quantile(a, 0.9), (v,)),
 ('unique ints', lambda i: mnp.unique(i, size=1000), lambda i: np.unique(i), (idx,)),
 ('bincount', lambda i: mnp.bincount(i, length=1000), lambda i: np.bincount(i, minlength=1000), (idx,)),
 ('histogram', lambda a: mnp.histogram(a, bins=50, range=(-4, 4))[0], lambda a: np.histogram(a, bins=50, range=(-4, 4))[0], (v,)),
 ('digitize', lambda a, b: mnp.digitize(a, b), lambda a, b: np.digitize(a, b), (v, np.linspace(-3, 3, 64).astype(f32))),
 ('interp', lambda a, xp, fp: mnp.interp(a, xp, fp), lambda a, xp, fp: np.interp(a, xp, fp).astype(f32),
  (v, np.linspace(-3, 3, 64).astype(f32), np.sin(np.linspace(-3, 3, 64)).astype(f32))),
 ('einsum bij,bjk', lambda a, b: mnp.einsum('bij,bjk->bik', a, b), lambda a, b: np.einsum('bij,bjk->bik', a, b),
  (rng.standard_normal((64, 32, 48)).astype(f32), rng.standard_normal((64, 48, 16)).astype(f32))),
 ('cumsum axis0', lambda a: mnp.cumsum(a, axis=0), lambda a: np.cumsum(a, axis=0), (x,)),
 ('std rows', lambda a: mnp.std(a, axis=1), lambda a: np.std(a, axis=1), (x,)),
 ('prod rows', lambda a: mnp.prod(a * 0.001 + 1, axis=1), lambda a: np.prod(a * f32(0.001) + 1, axis=1), (x,)),
 ('count_nonzero', lambda a: mnp.count_nonzero(a > 0.5), lambda a: np.count_nonzero(a > 0.5), (x,)),
 ('nansum rows', lambda a: mnp.nansum(a, axis=1), lambda a: np.nansum(a, axis=1), (x,)),
 ('cov', lambda a: mnp.cov(a[:64]), lambda a: np.cov(a[:64]).astype(f32), (x,)),
 ('kron', lambda a, b: mnp.kron(a, b), lambda a, b: np.kron(a, b), (sq[:32, :32], sq[:24, :24])),
 ('cross', lambda a, b: mnp.cross(a, b), lambda a, b: np.cross(a, b),
  (rng.standard_normal((100000, 3)).astype(f32), rng.standard_normal((100000, 3)).astype(f32))),
 ('arctan2', lambda a, b: mnp.arctan2(a, b), lambda a, b: np.arctan2(a, b), (x, x.T.copy()[:1000, :777] if False else x[::-1].copy())),
 ('power', lambda a: mnp.power(mnp.abs(a), 1.7), lambda a: np.power(np.abs(a), f32(1.7)), (x,)),
 ('mod', lambda a: mnp.mod(a, 0.7), lambda a: np.mod(a, f32(0.7)), (x,)),
 ('round', lambda a: mnp.round(a, 2), lambda a: np.round(a, 2), (x,)),
 ('int sum', lambda i: mnp.sum(i), lambda i: np.sum(i), (rng.integers(0, 100, 1_000_000).astype(np.int32),)),
 ('f64 matmul 256', lambda a, b: a @ b, lambda a, b: a @ b, (sq.astype(np.float64), sq.astype(np.float64))),
 ('fancy 2d gather', lambda a, i, j: a[i, j], lambda a, i, j: a[i, j], (x, idx, (idx % 777).astype(np.int32))),
 ('mask mean', lambda a: mnp.mean(mnp.where(a > 0, a, 0.0)), lambda a: np.mean(np.where(a > 0, a, f32(0))), (x,)),
 ('sum all 2d', lambda a: mnp.sum(a), lambda a: np.sum(a), (x,)),
 ('any rows', lambda a: mnp.any(a > 3, axis=1), lambda a: np.any(a > 3, axis=1), (x,)),
 ('all', lambda a: mnp.all(a > -10), lambda a: np.all(a > -10), (x,)),
 ('cumsum 1d 1e6', lambda a: mnp.cumsum(a), lambda a: np.cumsum(a), (rng.standard_normal(1_000_000).astype(f32),)),
 ('NCHW mean(0,2,3)', lambda a: mnp.mean(a, axis=(0, 2, 3)), lambda a: np.mean(a, axis=(0, 2, 3)), (x4 := rng.standard_normal((8, 64, 56, 56)).astype(f32),)),
 ('NHWC mean(1,2)', lambda a: mnp.mean(a, axis=(1, 2)), lambda a: np.mean(a, axis=(1, 2)), (np.ascontiguousarray(x4.transpose(0, 2, 3, 1)),)),
 ('max axis(0,2)', lambda a: mnp.max(a, axis=(0, 2)), lambda a: np.max(a, axis=(0, 2)), (rng.standard_normal((64, 128, 96)).astype(f32),)),
 ('partition rows', lambda a: mnp.partition(a, 5, axis=1), lambda a: np.partition(a, 5, axis=1), (x,),
  lambda got, want: np.array_equal(np.sort(got, axis=1), np.sort(want, axis=1)) and np.array_equal(got[:, 5], want[:, 5])),
 ('isin', lambda a, b: mnp.isin(a, b), lambda a, b: np.isin(a, b), (idx, idx[:500] * 2)),
 ('transpose 1024', lambda a: a.T, lambda a: np.ascontiguousarray(a.T), (rng.standard_normal((1024, 1024)).astype(f32),)),
 ('transpose NCHW->NHWC', lambda a: mnp.transpose(a, (0, 2, 3, 1)), lambda a: np.ascontiguousarray(a.transpose(0, 2, 3, 1)), (x4,)),
 ('cumsum rows int64', lambda a: mnp.cumsum(a, axis=1), lambda a: np.cumsum(a, axis=1), (rng.integers(-9, 9, (1000, 777)),)),
 ('take_along_axis full', lambda a, i: mnp.take_along_axis(a, i, axis=1), lambda a, i: np.take_along_axis(a, i, axis=1),
  (x, np.argsort(x, axis=1).astype(np.int32))),
 ('sort rows int32', lambda a: mnp.sort(a, axis=1), lambda a: np.sort(a, axis=1), (rng.integers(0, 1000, (1000, 777)).astype(np.int32),)),
 ('argsort 1d 1e5', lambda a: mnp.argsort(a), lambda a: np.argsort(a, kind='stable'), (v,)),
 ('sort 1d f64 1e5', lambda a: mnp.sort(a), lambda a: np.sort(a), (v.astype(np.float64),)),
 ('column tanh', lambda a: mnp.tanh(a) * 2 + 1, lambda a: np.tanh(a) * f32(2) + f32(1), (v.reshape(-1, 1),)),
 ('scatter add rows', lambda i, u: mnp.zeros((1000, 16), mnp.float32).at[i].add(u),
  lambda i, u: (lambda o: (np.add.at(o, i, u), o)[1])(np.zeros((1000, 16), f32)), (idx, rng.standard_normal((20000, 16)).astype(f32))),
 ('softmax rows', lambda a: nn.softmax(a, axis=1), lambda a: (lambda e: e / e.sum(1, keepdims=True))(np.exp(a - a.max(1, keepdims=True))), (x,)),
 ('matvec', lambda a, b: a @ b, lambda a, b: a @ b, (x, v[:777])),
]
def p25(fn, args, n):
    ts = []
    for _ in range(n):
        t = time.perf_counter(); fn(*args); ts.append(time.perf_counter() - t)
    return sorted(ts)[n // 4]
rows = []
for name, mf, nf, args, *compare in progs:  # compare(got, want): when the layouts may differ (partition)
    try:
        f = mlc.jit(mf); out = f(*args)
        ref = nf(*args)
        o = np.asarray(out[0] if isinstance(out, tuple) else out)
        ok = compare[0](o, np.asarray(ref)) if compare else \
            np.allclose(o.astype(np.float64), np.asarray(ref, np.float64), rtol=1e-4, atol=1e-4)
    except Exception as e:
        print(f'{name:18s} FAILED {type(e).__name__}: {str(e)[:120]}')
        rows.append(f"| {name} | failed: {type(e).__name__} | - | - | - |")
        continue
    one = p25(lambda *a: f(*a), args, 3)
    n = max(5, min(200, int(0.5 / max(one, 1e-6))))
    tm, tn = p25(f, args, n), p25(nf, args, n)
    flag = '  <-- slower' if tm > tn * 1.1 else ''
    print(f'{name:18s} mlc {tm*1e3:8.3f} ms  numpy {tn*1e3:8.3f} ms  x{tn/tm:6.2f}  ok={ok}{flag}', flush=True)
    rows.append(f"| {name} | {tm * 1e3:.3f} | {tn * 1e3:.3f} | {tn / tm:.2f}x | {'yes' if ok else 'NO'} |")

from mlc.codegen.target import num_threads, vector_register_bits  # noqa: E402
out = Path(__file__).resolve().parent / "results" / "ops_vs_numpy.md"
notes = out.read_text().partition("## Notes")[2] if out.exists() else ""
out.write_text(
    f"Ops vs numpy eager, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {num_threads()} threads, "
    f"{vector_register_bits()}-bit vectors, numpy {np.__version__}. ms = p25 of repeated calls; "
    f"speed-up = numpy's time over MLC's (below 1: MLC is slower, a defect).\n\n"
    "| op | MLC ms | numpy ms | speed-up | same result |\n|---|---:|---:|---:|---|\n" + "\n".join(rows) + "\n"
    + (f"\n## Notes{notes}" if notes else ""))
print("wrote", out)
