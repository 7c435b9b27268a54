#!/usr/bin/env python3
"""Regenerates test/pytest/data/stablehlo/: small programs exported from JAX as StableHLO.

For each program it stores `<name>.pretty.mlir` (what `lowered.as_text()` prints),
`<name>.generic.mlir` (the same module in MLIR's generic op form) and `<name>.npz` (inputs
`in0..`, JAX's outputs `out0..`). Run it in its own process: jax carries its own MLIR
bindings, which cannot be loaded next to MLC's.

    python tools/gen_stablehlo_fixtures.py [--out DIR] [NAME ...]
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "test", "pytest", "data", "stablehlo")


def programs():
    import jax
    import jax.numpy as jnp
    from jax import lax

    rng = np.random.default_rng(0)

    def f32(*shape, lo=-2.0, hi=2.0):
        return rng.uniform(lo, hi, shape).astype(np.float32)

    def i32(*shape, lo=-20, hi=20):
        return rng.integers(lo, hi, shape).astype(np.int32)

    def mlp(params, x):
        w1, b1, w2, b2 = params
        h = jnp.tanh(x @ w1 + b1)
        return h @ w2 + b2

    def mlp_loss(params, x, y):
        return jnp.mean((mlp(params, x) - y) ** 2)

    def sgd_step(w1, b1, w2, b2, x, y):
        params = (w1, b1, w2, b2)
        loss, grads = jax.value_and_grad(mlp_loss)(params, x, y)
        return (loss, *[p - 0.1 * g for p, g in zip(params, grads)])

    def attention(q, k, v):
        s = q @ k.T / np.sqrt(q.shape[-1]).astype(np.float32)
        return jax.nn.softmax(s, axis=-1) @ v

    def layer_norm(x, g, b):
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        return (x - m) * lax.rsqrt(v + 1e-5) * g + b

    mlp_params = (f32(4, 8), f32(8), f32(8, 2), f32(2))
    x48, y42 = f32(5, 4), f32(5, 2)
    dn = lax.conv_dimension_numbers

    yield "add_mul", lambda a, b: a * b + a, (f32(4), f32(4))
    yield "sub_div", lambda a, b: (a - b) / (b * b + 1.0), (f32(3, 4), f32(3, 4))
    yield "exp_log", lambda a: jnp.exp(a) + jnp.log(jnp.abs(a) + 1.0), (f32(6),)
    yield "tanh_sigmoid", lambda a: jnp.tanh(a) * jax.nn.sigmoid(a), (f32(2, 5),)
    yield "sin_cos", lambda a: jnp.sin(a) - jnp.cos(2 * a), (f32(7),)
    yield "sqrt_rsqrt", lambda a: jnp.sqrt(a) + lax.rsqrt(a), (f32(5, lo=0.5, hi=3.0),)
    yield "abs_neg_sign", lambda a: jnp.abs(a) - a + jnp.sign(a), (f32(8),)
    yield "power", lambda a, b: jnp.power(a, b), (f32(5, lo=0.5, hi=2.0), f32(5))
    yield "max_min", lambda a, b: jnp.maximum(a, b) - jnp.minimum(a, 0.5), (f32(6), f32(6))
    yield "where_gt", lambda a, b: jnp.where(a > b, a, b * 2), (f32(2, 3), f32(2, 3))
    yield "floor_ceil_round", lambda a: jnp.floor(a) + jnp.ceil(a) * 2 + jnp.round(a) * 3, (f32(9),)
    yield "int_arith", lambda a, b: (a + b) * 3 - a // (jnp.abs(b) + 1) + a % 7, (i32(6), i32(6))
    yield "erf", lambda a: jax.scipy.special.erf(a), (f32(8),)
    yield "tan", lambda a: jnp.tan(a), (f32(6, lo=-1.0, hi=1.0),)
    yield "square_cbrt", lambda a: jnp.square(a) + jnp.cbrt(a), (f32(6),)
    yield "sinh_cosh", lambda a: jnp.sinh(a) + jnp.cosh(a), (f32(6),)
    yield "log1p_expm1", lambda a: jnp.log1p(jnp.abs(a)) + jnp.expm1(a), (f32(6),)
    yield "clip", lambda a: jnp.clip(a, -0.5, 0.7), (f32(10),)
    yield "convert", lambda a: (a * 3).astype(jnp.int32).astype(jnp.float32) + a, (f32(6),)
    yield "atan2", lambda a, b: jnp.arctan2(a, b), (f32(6), f32(6))
    yield "logical", lambda a, b: jnp.logical_and(a > 0, b < 0) | (a > b), (f32(7), f32(7))
    yield "integer_pow", lambda a: a ** 3 + a ** 2, (f32(5),)
    yield "broadcast_add", lambda a, b: a + b, (f32(4, 1), f32(1, 3))
    yield "outer", lambda a, b: a[:, None] * b[None, :] + 1.0, (f32(3), f32(4))
    yield "slice_strided", lambda a: a[1:7:2, ::-1], (f32(8, 3),)
    yield "dynamic_slice", lambda a, i: lax.dynamic_slice(a, (i, 1), (2, 2)), (f32(5, 4), np.int32(2))
    yield "dynamic_update_slice", lambda a, u, i: lax.dynamic_update_slice(a, u, (i, 0)), (f32(5, 4), f32(2, 4), np.int32(1))
    yield "concat_pad", lambda a, b: jnp.pad(jnp.concatenate([a, b, a], axis=1), ((1, 0), (0, 2))), (f32(2, 3), f32(2, 1))
    yield "reshape_transpose", lambda a: a.reshape(3, 4).T.reshape(2, 6), (f32(12),)
    yield "gather_take", lambda a, i: a[i], (f32(6, 3), np.array([0, 5, 2, 2], np.int32))
    yield "take_along_axis", lambda a, i: jnp.take_along_axis(a, i, axis=1), (f32(3, 5), rng.integers(0, 5, (3, 2)).astype(np.int32))
    yield "scatter_add", lambda a, i, u: a.at[i].add(u), (f32(6, 2), np.array([1, 3, 1], np.int32), f32(3, 2))
    yield "scatter_set", lambda a, i, u: a.at[i].set(u), (f32(6), np.array([4, 0], np.int32), f32(2))
    yield "reduce_sum", lambda a: a.sum(axis=1), (f32(3, 5),)
    yield "reduce_mean_max", lambda a: (a.mean(), a.max(axis=0), a.min(axis=1)), (f32(4, 3),)
    yield "reduce_prod", lambda a: jnp.prod(a, axis=0), (f32(3, 4, lo=0.5, hi=1.5),)
    yield "reduce_any_all", lambda a: (jnp.any(a > 1.0, axis=1), jnp.all(a > -1.5, axis=1)), (f32(4, 5),)
    yield "argmax", lambda a: jnp.argmax(a, axis=1), (f32(4, 6),)
    yield "argmin", lambda a: jnp.argmin(a, axis=0), (f32(4, 6),)
    yield "cumsum", lambda a: jnp.cumsum(a, axis=0), (f32(6, 2),)
    yield "logsumexp", lambda a: jax.nn.logsumexp(a, axis=-1), (f32(3, 5),)
    yield "matmul", lambda a, b: a @ b, (f32(3, 4), f32(4, 5))
    yield "matvec", lambda a, b: a @ b, (f32(3, 4), f32(4))
    yield "batched_matmul", lambda a, b: jnp.einsum("bij,bjk->bik", a, b), (f32(2, 3, 4), f32(2, 4, 2))
    yield "einsum_two_contract", lambda a, b: jnp.einsum("ijk,jkl->il", a, b), (f32(2, 3, 4), f32(3, 4, 5))
    yield "conv_nhwc", lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=dn(x.shape, w.shape, ("NHWC", "HWIO", "NHWC"))), (f32(1, 5, 5, 2), f32(3, 3, 2, 3))
    yield "conv_nchw_strided", lambda x, w: lax.conv_general_dilated(x, w, (2, 2), ((1, 1), (0, 1))), (f32(2, 2, 6, 6), f32(4, 2, 3, 3))
    yield "conv_depthwise", lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "VALID", feature_group_count=2, dimension_numbers=dn(x.shape, w.shape, ("NHWC", "HWIO", "NHWC"))), (f32(1, 4, 4, 2), f32(2, 2, 1, 2))
    yield "max_pool", lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID"), (f32(1, 4, 4, 2),)
    yield "avg_pool", lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 1, 1, 1), "SAME") / 9.0, (f32(1, 4, 4, 1),)
    yield "max_pool_grad", jax.grad(lambda x: (lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") ** 2).sum()), (f32(1, 4, 6, 2),)
    yield "max_pool_grad_overlap", jax.grad(lambda x: (lax.reduce_window(x, -jnp.inf, lax.max, (3, 3), (2, 1), ((1, 1), (0, 1))) * 1.5).sum()), (f32(5, 5),)
    yield "softmax", lambda a: jax.nn.softmax(a, axis=-1), (f32(3, 6),)
    yield "layer_norm", layer_norm, (f32(4, 6), f32(6), f32(6))
    yield "attention", attention, (f32(4, 8), f32(5, 8), f32(5, 3))
    yield "relu_gelu", lambda a: jax.nn.relu(a) + jax.nn.gelu(a, approximate=False), (f32(8),)
    yield "mlp_forward", mlp, (mlp_params, x48)
    yield "mlp_value_and_grad", jax.value_and_grad(mlp_loss), (mlp_params, x48, y42)
    yield "sgd_step", sgd_step, (*mlp_params, x48, y42)
    yield "fori_loop", lambda a: lax.fori_loop(0, 5, lambda i, x: x * 1.5 + i, a), (f32(3),)
    yield "while_loop", lambda a: lax.while_loop(lambda s: s[1] < 100.0, lambda s: (s[0] + 1, s[1] * 2.0), (0, a)), (np.float32(1.5),)
    yield "cond", lambda p, a: lax.cond(p > 0, lambda x: x * 2.0, lambda x: x - 1.0, a), (np.float32(0.5), f32(4))
    yield "switch", lambda i, a: lax.switch(i, [lambda x: x + 1.0, lambda x: x * x, jnp.sin], a), (np.int32(1), f32(4))
    yield "sort", lambda a: jnp.sort(a, axis=-1), (f32(3, 5),)
    yield "argsort", lambda a: jnp.argsort(a), (f32(7),)
    yield "top_k", lambda a: lax.top_k(a, 3), (f32(2, 6),)
    yield "erf_inv", lambda a: jax.scipy.special.erfinv(a), (f32(9, lo=-0.999, hi=0.999),)
    yield "random_normal", lambda k: jax.random.normal(jax.random.wrap_key_data(k), (3, 4)), (np.array([0, 42], np.uint32),)
    yield "iota_onehot", lambda i: jax.nn.one_hot(i, 5), (np.array([0, 3, 4], np.int32),)
    # With debug info: `loc(#loc3)` after each op and `#loc3 = loc("file.py":12:3)` at the end.
    yield "layer_norm_locs", layer_norm, (f32(2, 5), f32(5), f32(5))
    yield "while_loop_locs", lambda a: lax.while_loop(lambda s: s < 50.0, lambda s: s * 3.0, a), (np.float32(1.5),)
    yield "select_nan", lambda a: jnp.where(jnp.isfinite(a), a, 0.0), (np.array([1.0, np.inf, -np.inf, np.nan, 2.0], np.float32),)


def export(name, fn, args, out_dir):
    import jax
    lowered = jax.jit(fn).lower(*args)
    debug_info = name.endswith("_locs")
    pretty = lowered.as_text(debug_info=debug_info)
    generic = lowered.compiler_ir("stablehlo").operation.get_asm(print_generic_op_form=True,
                                                                 enable_debug_info=debug_info)
    outs = jax.tree_util.tree_leaves(jax.jit(fn)(*args))
    ins = jax.tree_util.tree_leaves(args)
    with open(os.path.join(out_dir, f"{name}.pretty.mlir"), "w") as f:
        f.write(pretty)
    with open(os.path.join(out_dir, f"{name}.generic.mlir"), "w") as f:
        f.write(generic)
    arrays = {f"in{i}": np.asarray(a) for i, a in enumerate(ins)}
    arrays.update({f"out{i}": np.asarray(a) for i, a in enumerate(outs)})
    np.savez(os.path.join(out_dir, f"{name}.npz"), **arrays)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=OUT)
    parser.add_argument("names", nargs="*")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    count = 0
    for name, fn, inputs in programs():
        if args.names and name not in args.names:
            continue
        export(name, fn, inputs, args.out)
        count += 1
    print(f"wrote {count} fixtures to {os.path.normpath(args.out)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
