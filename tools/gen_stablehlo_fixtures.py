#!/usr/bin/env python3
"""Regenerates test/pytest/data/stablehlo/: small programs exported from JAX as StableHLO.

For each program it stores `<name>.pretty.mlir` (what `lowered.as_text()` prints),
`<name>.generic.mlir` (the same module in MLIR's generic op form) and `<name>.npz` (inputs
`in0..`, JAX's outputs `out0..`). Programs are jitted JAX functions, JAX functions exported
for TPU (TpuExport: ops JAX's CPU lowering replaces by LAPACK calls), and hand-written
StableHLO (gen_stablehlo_handwritten.py) that XLA's CPU compiler runs for the outputs.
Run it in its own process: jax carries its own MLIR bindings, which cannot be loaded next
to MLC's.

    python tools/gen_stablehlo_fixtures.py [--out DIR] [NAME ...]
"""

from __future__ import annotations

import argparse
import itertools
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
    yield from more_programs(jax, jnp, lax, f32, i32, rng)


# Inputs where float rounding is decided: ties, subnormals, overflow, signed zeros, NaNs.
EDGE_F32 = np.array([0.0, -0.0, 1.0, 1.0009765625, 1.00048828125, 1.00146484375, 65504.0,
                     65520.0, 7e4, -7e4, 6.1e-5, 6.0e-5, 3e-8, np.inf, -np.inf, np.nan, -np.nan,
                     1e-40, 3.14159, -2.71828, 1e38, -1e-39], np.float32)


def more_programs(jax, jnp, lax, f32, i32, rng):
    """Programs for the ops of issue 16's second part (linalg, bits, chlo, general regions)."""
    sp = jax.scipy.special
    rbg = lax.RandomAlgorithm
    key = np.array([1, 2, 0xFFFFFFFF, 0xFFFFFFF0], np.uint32)
    yield "reduce_precision", lambda a: (lax.reduce_precision(a, 5, 10), lax.reduce_precision(a, 8, 7), lax.reduce_precision(a, 2, 1), lax.reduce_precision(a, 4, 0)), (EDGE_F32,)
    yield "reduce_precision_f16", lambda a: lax.reduce_precision(a, 4, 3), (f32(2, 7, lo=-300, hi=300).astype(np.float16),)
    yield "lgamma_digamma", lambda a: (lax.lgamma(a), lax.digamma(a)), (np.concatenate([f32(10, lo=-6.0, hi=12.0), np.array([0.5, 1.0, 2.0, 3.5, 30.0, 1e-3, -2.5, 170.0], np.float32)]),)
    yield "lgamma_poles", lambda a: lax.lgamma(a), (np.array([0.0, -1.0, -4.0, np.inf, -np.inf, np.nan, 1e30], np.float32),)
    yield "inverse_trig", lambda a: (jnp.arcsin(a), jnp.arccos(a), jnp.arctan(a * 5), jnp.arctanh(a)), (np.concatenate([f32(9, lo=-1.0, hi=1.0), np.array([1.0, -1.0, 0.0, 1e-6], np.float32)]),)
    yield "inverse_hyperbolic", lambda a: (jnp.arcsinh(a), jnp.arccosh(jnp.abs(a) + 1.0)), (np.concatenate([f32(9, lo=-50.0, hi=50.0), np.array([1e-5, -1e-5, 0.0, 1e30, -1e30], np.float32)]),)
    yield "zeta_polygamma", lambda s, q, n, x: (sp.zeta(s, q), sp.polygamma(n, x)), (np.array([2.0, 3.5, 1.5, 1.0, 0.5, 4.0, 2.0, 2.0], np.float32), np.array([1.0, 0.3, 7.0, 2.0, 1.0, -0.5, 0.0, -2.0], np.float32), np.array([0, 1, 2, 3, 1, 5, 1, 4], np.int32), np.array([2.5, 0.7, 3.0, 10.0, -1.5, 1.0, 0.1, 1.2], np.float32))
    yield "bessel_i1e", lambda a: sp.i1e(a), (np.concatenate([f32(12, lo=-60.0, hi=60.0), np.array([0.0, -0.0, 1e-4, 19.9, 20.1, -35.0, np.inf, -np.inf], np.float32)]),)
    # No subnormal x: XLA's CPU code reads them as zero (nextafter(-1e-45, 0) is +0 there,
    # -0 by IEEE and numpy, and MLC).
    yield "nextafter", lambda a, b: jnp.nextafter(a, b), (np.array([1.0, 1.0, 0.0, -0.0, -2.5, np.nan, 3.0, -1.0, 1.17549435e-38, np.inf], np.float32), np.array([2.0, 0.0, 1.0, -1.0, -2.5, 1.0, np.nan, 0.0, 0.0, 0.0], np.float32))
    yield "lax_map", lambda a: lax.map(lambda r: r.sum() * r, a), (f32(5, 3),)
    yield "random_rbg", lambda k: (jax.random.normal(jax.random.wrap_key_data(k, impl="rbg"), (3, 5)), jax.random.bits(jax.random.wrap_key_data(k, impl="unsafe_rbg"), (7,))), (key,)
    yield "rng_three_fry", lambda k: (lax.rng_bit_generator(k, (5, 3), algorithm=rbg.RNG_THREE_FRY), lax.rng_bit_generator(k, (3,), dtype=np.uint8, algorithm=rbg.RNG_THREE_FRY)), (key,)
    yield "rng_philox", lambda k: (lax.rng_bit_generator(k, (3, 1, 5), algorithm=rbg.RNG_PHILOX), lax.rng_bit_generator(k, (5,), dtype=np.uint16, algorithm=rbg.RNG_PHILOX)), (key,)
    yield "sort_two_keys", lambda a, b: lax.sort((a, b), dimension=1, num_keys=2), (i32(3, 7, lo=0, hi=3), f32(3, 7))
    yield "sort_carry", lambda a, b, c: lax.sort((a, b, c), dimension=0, num_keys=1, is_stable=True), (i32(9, 2, lo=0, hi=4), f32(9, 2), i32(9, 2))
    yield "lexsort", lambda a, b: jnp.lexsort((a, b)), (i32(11, lo=0, hi=3), i32(11, lo=0, hi=3))
    yield "scatter_apply", lambda a, i: a.at[i].apply(lambda v: v * 2.0 + 1.0), (f32(6, 2), np.array([1, 4, 1], np.int32))
    yield "scatter_out_of_bounds", lambda a, i, u: a.at[i].set(u, mode="drop"), (f32(5), np.array([0, 7, -9, 3], np.int32), f32(4))
    yield "variadic_reduce_general", lambda a, b: lax.reduce((a, b), (np.float32(-np.inf), np.float32(0)), lambda x, y: (jnp.maximum(x[0], y[0]), jnp.where(x[0] >= y[0], x[1], y[1]) + 1.0), (1,)), (f32(3, 6), f32(3, 6))
    # An integer sum spelled (x ^ y) + 2 (x & y): a general region, exact in any order.
    yield "reduce_general_long", lambda a: lax.reduce(a, np.int32(0), lambda x, y: (x ^ y) + 2 * (x & y), (0,)), (i32(300, 2, lo=-1000, hi=1000),)
    # chlo-free spellings of linalg ops: JAX's CPU lowering calls LAPACK (custom calls), so
    # these are exported for another platform to get stablehlo.cholesky/triangular_solve.
    spd = f32(2, 5, 5)
    spd = spd @ spd.transpose(0, 2, 1) + 5 * np.eye(5, dtype=np.float32)
    # JAX's own CPU lowering: LAPACK custom calls (potrf with its info, trsm); the third
    # matrix is not positive definite (JAX turns it into NaNs by potrf's info).
    not_pd = np.array([[1.0, 2.0, 0.0, 0.0, 0.0], [2.0, 1.0, 0.0, 0.0, 0.0]] + [[0.0] * 5] * 3, np.float32) + np.diag([0, 0, 1, 1, 1]).astype(np.float32)
    yield "cholesky_lapack", lambda a, b: (jax.lax.linalg.cholesky(a), jax.lax.linalg.cholesky(b)), (np.concatenate([spd, not_pd[None]]), spd[1])
    yield "triangular_solve_lapack", lambda a, b, c: (
        jax.lax.linalg.triangular_solve(a, b, left_side=True, lower=False, transpose_a=True),
        jax.lax.linalg.triangular_solve(a, c, left_side=False, lower=True, unit_diagonal=True)), (spd, f32(2, 5, 3), f32(2, 3, 5))
    yield "cholesky", TpuExport(lambda a: jax.lax.linalg.cholesky(a)), (spd,)
    tri = f32(4, 4) + 4 * np.eye(4, dtype=np.float32)
    solve = jax.lax.linalg.triangular_solve
    yield "triangular_solve", TpuExport(lambda a, b, c: (
        solve(a, b, left_side=True, lower=True),
        solve(a, b, left_side=True, lower=False, transpose_a=True),
        solve(a, c, left_side=False, lower=True, unit_diagonal=True),
        solve(a, c, left_side=False, lower=False, transpose_a=True, conjugate_a=True))), (tri, f32(4, 3), f32(3, 4))


class TpuExport:
    """A program to export for TPU (JAX's CPU lowering of it is a LAPACK custom call); the
    stored outputs still come from running it on CPU."""

    def __init__(self, fn):
        self.fn = fn


def _both_forms(text: str) -> tuple[str, str]:
    """(pretty, generic) of StableHLO text in either form, printed by jax's MLIR bindings."""
    from jax._src.interpreters import mlir as jmlir
    from jax._src.lib.mlir import ir
    with jmlir.make_ir_context():
        module = ir.Module.parse(text)
        return (module.operation.get_asm(),
                module.operation.get_asm(print_generic_op_form=True))


def run_with_xla(text: str, args) -> list:
    """XLA's (CPU) outputs for a StableHLO module: the reference for hand-written programs."""
    import jax
    from jax._src import xla_bridge
    from jax._src.lib import xla_client
    backend = xla_bridge.get_backend("cpu")
    devices = xla_client.DeviceList(tuple(backend.local_devices()[:1]))
    executable = backend.compile_and_load(_both_forms(text)[1], devices, xla_client.CompileOptions())
    with jax.enable_x64(True):  # 64-bit inputs stay 64-bit
        outs = executable.execute([jax.device_put(a, backend.local_devices()[0]) for a in args])
    # XLA hands back rng_bit_generator's signed/float results as unsigned words: the
    # declared result types say what they are.
    declared = _result_dtypes(text)
    return [np.asarray(o).view(d) if d is not None and np.asarray(o).dtype.itemsize == d.itemsize
            else np.asarray(o) for o, d in zip(outs, declared)]


def _result_dtypes(text: str) -> list:
    from jax._src.interpreters import mlir as jmlir
    from jax._src.lib.mlir import ir
    names = {"f16": "float16", "f32": "float32", "f64": "float64", "i1": "bool", "i8": "int8",
             "i16": "int16", "i32": "int32", "i64": "int64", "ui8": "uint8", "ui16": "uint16",
             "ui32": "uint32", "ui64": "uint64"}
    with jmlir.make_ir_context():
        module = ir.Module.parse(text)
        for op in module.body.operations:
            if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == "main":
                results = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value).results
                return [np.dtype(names[str(ir.RankedTensorType(t).element_type)])
                        if str(ir.RankedTensorType(t).element_type) in names else None for t in results]
    return []


def export(name, fn, args, out_dir):
    import jax
    if isinstance(fn, (str, tuple)):  # hand-written StableHLO: XLA runs it (or its reference)
        text, reference = (fn, fn) if isinstance(fn, str) else fn
        pretty, generic = _both_forms(text)
        outs, ins = run_with_xla(reference, args), list(args)
    elif isinstance(fn, TpuExport):
        exported = jax.export.export(jax.jit(fn.fn), platforms=["tpu"])(*args)
        pretty, generic = _both_forms(exported.mlir_module())
        outs = jax.tree_util.tree_leaves(jax.jit(fn.fn)(*args))
        ins = jax.tree_util.tree_leaves(args)
    else:
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


from gen_stablehlo_handwritten import handwritten  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=OUT)
    parser.add_argument("names", nargs="*")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    count = 0
    for name, fn, inputs in itertools.chain(programs(), handwritten()):
        if args.names and name not in args.names:
            continue
        export(name, fn, inputs, args.out)
        count += 1
    print(f"wrote {count} fixtures to {os.path.normpath(args.out)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
