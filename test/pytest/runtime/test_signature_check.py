"""The native argument check of calls with many arrays (runtime/signature_check.py): the
layouts it reads are confirmed (and a wrong one is caught), a matching call runs through
it and computes what numpy does, and every argument that is not an exact C-contiguous
native-endian ndarray of the signature's rank, sizes and dtype takes the checked Python
path instead: never a wrong result, never a read of the wrong memory."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from conftest import run_threads

import mlc
import mlc.numpy as mnp
from mlc.runtime import signature_check
from mlc.runtime.memref import NATIVE_POINTERS_MIN

N = NATIVE_POINTERS_MIN  # parameters: 2N + 1 arrays in, N out (the native paths' range)


def _step(*xs):
    """SGD over n parameters: xs = params, grads, rate."""
    n = (len(xs) - 1) // 2
    return [p - xs[-1] * g for p, g in zip(xs[:n], xs[n:2 * n])]


def _arrays(rng, shape=(6, 5), dtype=np.float32):
    return [rng.standard_normal(shape).astype(dtype) for _ in range(2 * N)] + [np.asarray(0.5, dtype)]


def _assert_step(got, args):
    want = _step(*[np.asarray(a, np.float64) for a in args])
    assert len(got) == N
    for g, w, p in zip(got, want, args):
        assert g.dtype == mnp.result_type(p, args[-1]) and g.shape == w.shape  # (JAX's promotion)
        np.testing.assert_allclose(g, w, rtol=1e-6 if g.dtype == np.float32 else 1e-12)


@pytest.mark.skipif(sys.byteorder != "little", reason="the check is for little-endian hosts")
def test_layouts_are_confirmed_and_a_wrong_offset_is_caught(monkeypatch):
    assert signature_check._probe() and signature_check.argument_check() is not None
    for field in ("nd", "dims", "descr", "flags", "type_num", "byteorder"):
        with monkeypatch.context() as m:
            m.setitem(signature_check._OFFSETS, field, signature_check._OFFSETS[field] + 4)
            assert not signature_check._probe(), field


def test_a_matching_call_runs_the_native_check(rng):
    f = mlc.jit(_step)
    args = _arrays(rng)
    _assert_step(f(*args), args)
    _assert_step(f(*args), args)  # (a keyed fast-path hit marks the executable as checked)
    assert f._checked is not None and f._checked[0] == len(args)
    executable = f._checked[1].executable
    assert executable._signature is not None
    fresh = _arrays(rng)
    out = executable.call_checked(tuple(fresh))
    assert out is not None
    _assert_step(list(out), fresh)
    _assert_step(f(*fresh), fresh)


def _mismatches(rng, args):
    """(what, the arguments with one of them changed) for each kind of mismatch."""
    i = 3
    wide = np.zeros((6, 10), np.float32)
    wide[:, ::2] = args[i]

    class Sub(np.ndarray):
        pass

    cases = {
        "float64": args[i].astype(np.float64),
        "strided": wide[:, ::2],
        "transposed": np.ascontiguousarray(args[i].T).T,
        "byteswapped": args[i].astype(np.dtype(np.float32).newbyteorder()),
        "subclass": args[i].view(Sub),
        "shape": rng.standard_normal((5, 6)).astype(np.float32),
        "rank": args[i].reshape(30),
        "int32": np.arange(30, dtype=np.int32).reshape(6, 5),
        "python scalar rate": None,
    }
    for what, value in cases.items():
        changed = list(args)
        if value is None:
            changed[-1] = 0.5
        else:
            changed[i] = value
        yield what, changed


def test_every_mismatch_takes_the_checked_path(rng):
    f = mlc.jit(_step)
    args = _arrays(rng)
    f(*args)
    f(*args)
    executable = f._checked[1].executable
    for what, changed in _mismatches(rng, args):
        if all(type(a) is np.ndarray for a in changed):
            assert executable.call_checked(tuple(changed)) is None, what
        if what in ("shape", "rank"):
            with pytest.raises((TypeError, ValueError)):  # (python arithmetic: shapes do not broadcast)
                f(*changed)
            continue
        if what == "byteswapped":  # the keyed path's own answer: non-native byte order is refused
            with pytest.raises(TypeError, match="not supported"):
                f(*changed)
            continue
        _assert_step(f(*changed), changed)
    _assert_step(f(*args), args)  # the native path again afterwards
    assert f._checked[1].executable is executable


def test_other_dtypes_and_a_zero_d_rate(rng):
    for dtype in (np.float64, np.int32, np.int8, np.uint16):
        args = [(rng.standard_normal((3, 4)) * 10).astype(dtype) for _ in range(2 * N)] + [np.asarray(2, dtype)]
        f = mlc.jit(_step)
        for _ in range(3):
            got = f(*args)
        assert f._checked is not None, dtype
        for g, p, d in zip(got, args[:N], args[N:2 * N]):
            np.testing.assert_allclose(g, p - args[-1] * d, rtol=1e-5)


def test_a_different_arity_is_its_own_signature(rng):
    f = mlc.jit(_step)
    args = _arrays(rng)
    f(*args), f(*args)
    fewer = args[:N - 1] + args[N:2 * N - 1] + [args[-1]]  # N - 1 parameters: 2N - 1 arrays
    got = f(*fewer)
    assert len(got) == N - 1
    for g, p, d in zip(got, fewer[:N - 1], fewer[N - 1:2 * N - 2]):
        np.testing.assert_allclose(g, p - fewer[-1] * d, rtol=1e-6)
    _assert_step(f(*args), args)


def test_threads_share_the_checked_executable(rng):
    f = mlc.jit(_step)
    inputs = [_arrays(np.random.default_rng(k)) for k in range(4)]
    f(*inputs[0]), f(*inputs[0])
    failures = []

    def work(k):
        for _ in range(40):
            try:
                _assert_step(f(*inputs[k]), inputs[k])
            except AssertionError as e:  # (reported from the main thread)
                failures.append(e)

    run_threads(work, 4)
    assert not failures


def test_the_staged_compiled_object_checks_natively_too(rng):
    """jit(f).lower(...).compile() called directly: matching arrays take the native check,
    anything else (here a Python scalar rate, a strided parameter) its flattening path."""
    args = _arrays(rng)
    compiled = mlc.jit(_step).lower(*args).compile()
    assert compiled.checks_natively
    _assert_step(compiled(*args), args)
    fresh = _arrays(rng)
    _assert_step(compiled(*fresh), fresh)
    for what, changed in _mismatches(rng, args):
        if what in ("strided", "transposed", "python scalar rate"):
            _assert_step(compiled(*changed), changed)


def test_a_call_with_few_arrays_is_checked_natively_too(rng):
    """Two arrays in, one out: the fast path's native check runs whatever the number of
    arrays (a call's fixed cost, ~8 -> ~4 us); a call checked in Python stores few arrays'
    pointers in Python. Every mismatch still takes the keyed path, with numpy's answer."""
    def f(a, b):
        return a * b + 1

    a, b = (rng.standard_normal((6, 5)).astype(np.float32) for _ in range(2))
    staged = mlc.jit(f).lower(a, b).compile().executable
    assert staged._native is None  # made when first asked for, not with the executable
    assert staged.checks_natively and staged._native is not None
    jitted = mlc.jit(f)
    np.testing.assert_allclose(jitted(a, b), a * b + 1, rtol=1e-6)
    np.testing.assert_allclose(jitted(a, b), a * b + 1, rtol=1e-6)
    assert jitted._checked is not None and jitted._checked[0] == 2
    executable = jitted._checked[1].executable
    assert executable.checks_natively and not executable._stores_natively
    wide = np.zeros((6, 10), np.float32)
    wide[:, ::2] = b
    for what, other in {"float64": b.astype(np.float64), "strided": wide[:, ::2],
                        "transposed": np.ascontiguousarray(b.T).T, "python scalar": 2.0,
                        "row": b[:1].copy()}.items():
        if type(other) is np.ndarray:
            assert executable.call_checked((a, other)) is None, what
        want = a.astype(np.float64) * np.asarray(other, np.float64) + 1
        got = jitted(a, other)
        assert got.shape == want.shape, what
        np.testing.assert_allclose(got, want, rtol=1e-6 if got.dtype == np.float32 else 1e-12, err_msg=what)
    fresh = rng.standard_normal((6, 5)).astype(np.float32)
    np.testing.assert_allclose(jitted(fresh, b), fresh * b + 1, rtol=1e-6)  # the native path again
