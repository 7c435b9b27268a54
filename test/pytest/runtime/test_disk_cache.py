"""The persistent compilation cache: a new process loads what an earlier one compiled; bad
entries and unusable directories cost only a compile; the key follows options and CPU."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import textwrap
import threading
import warnings
import time

import numpy as np
import pytest

import mlc
import mlc.numpy as mnp
from mlc.options import CompileOptions
from mlc.runtime import disk_cache, fingerprint, native_library

# A process that jit-compiles one function, checks its result and reports whether the
# persistent cache served it.
SCRIPT = textwrap.dedent("""
    import sys, numpy as np, mlc, mlc.numpy as mnp
    f = mlc.jit(lambda x, y: mnp.sum(mnp.tanh(x) * y, axis=1))
    x = np.linspace(-2, 2, 96 * 64, dtype=np.float32).reshape(96, 64)
    y = np.full((96, 64), 0.5, np.float32)
    np.testing.assert_allclose(f(x, y), np.sum(np.tanh(x) * y, axis=1), rtol=2e-5, atol=1e-5)
    print("HIT" if next(iter(f._cache.values())).cache_hit else "MISS")
""")


def _run(cache_dir, *extra_env, script=SCRIPT, wait=True):
    env = {**os.environ, "MLC_CACHE": "1", "MLC_CACHE_DIR": str(cache_dir), "MLC_LOG_COMPILES": "1"}
    env.update(dict(e.split("=", 1) for e in extra_env))
    proc = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    return proc.communicate() + (proc.returncode,) if wait else proc


def _entries(cache_dir):
    root = cache_dir / f"v{disk_cache.FORMAT}"
    return sorted(p for p in root.iterdir() if p.suffix == ".json" and not p.name.startswith("last-"))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """This process's cache in a temporary directory."""
    monkeypatch.setenv("MLC_CACHE", "1")
    monkeypatch.setenv("MLC_CACHE_DIR", str(tmp_path))
    return tmp_path


def test_new_processes_share_the_cache(tmp_path):
    """Two processes compile the same function at once (both store it), then a third loads it."""
    writers = [_run(tmp_path, wait=False) for _ in range(2)]
    logs = ""
    for p in writers:
        out, err = p.communicate()
        assert p.returncode == 0, err
        logs += err
    assert "mlc cache: miss" in logs and "mlc cache: stored" in logs
    assert len(_entries(tmp_path)) == 1
    out, err, code = _run(tmp_path)
    assert code == 0 and out.strip() == "HIT", err
    assert "mlc cache: hit" in err


def _compile_here():
    f = mlc.jit(lambda a: mnp.exp(a) + 1.0)
    x = np.linspace(-1, 1, 256, dtype=np.float32)
    compiled = f.lower(x).compile(keep_stages=False)
    np.testing.assert_allclose(compiled(x), np.exp(x) + 1, rtol=1e-6)
    disk_cache.flush_all()
    return compiled


@pytest.mark.parametrize("damage", ["truncate library", "garbage metadata", "remove library", "wrong fields"])
def test_a_corrupt_entry_is_rebuilt(cache, damage, caplog, monkeypatch):
    assert not _compile_here().cache_hit
    (meta_path,) = _entries(cache)
    meta = json.loads(meta_path.read_text())
    library = meta_path.parent / meta["library"]
    if damage == "truncate library":
        library.write_bytes(library.read_bytes()[:100])
    elif damage == "garbage metadata":
        meta_path.write_bytes(b"\x00{not json")
    elif damage == "remove library":
        library.unlink()
    else:
        meta["fields"]["cpu"] = "another"
        meta_path.write_text(json.dumps(meta))
    monkeypatch.setenv("MLC_LOG_COMPILES", "1")
    with caplog.at_level(logging.WARNING, logger="mlc"):
        assert not _compile_here().cache_hit  # rebuilt, and right
    assert "corrupt entry" in caplog.text
    assert _compile_here().cache_hit


@pytest.mark.parametrize("where", ["a file", "a file inside"])
def test_an_unusable_directory_warns_once_and_compiles(tmp_path, monkeypatch, where):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv("MLC_CACHE", "1")
    monkeypatch.setenv("MLC_CACHE_DIR", str(blocker if where == "a file" else blocker / "cache"))
    disk_cache._WARNED.clear()
    with pytest.warns(RuntimeWarning, match="compilation cache .* compiling in memory"):
        _compile_here()
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _compile_here()  # no second warning


def test_a_directory_removed_while_running_is_made_again(cache):
    """`rm -rf` of the cache while a process uses it: the next store makes it again, no warning."""
    import shutil
    _compile_here()
    shutil.rmtree(cache)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not _compile_here().cache_hit
    assert len(_entries(cache)) == 1 and _compile_here().cache_hit


def test_a_store_that_fails_warns_once(cache, monkeypatch):
    from mlc.runtime import native_library

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(native_library, "link_shared", fail)
    disk_cache._WARNED.clear()
    with pytest.warns(RuntimeWarning, match="No space left"):
        _compile_here()
    assert _entries(cache) == [] and not _compile_here().cache_hit


def test_the_key_follows_options_and_the_cpu(cache, monkeypatch, caplog):
    store = disk_cache.DiskCache(str(cache), 1 << 30)
    text = mlc.jit(lambda a: a * 2.0).trace(np.ones(4, np.float32)).as_text()
    base = store.fields(text, "main", CompileOptions(threads=2, vector_bits=256))
    assert store.key(base) == store.key(store.fields(text, "main", CompileOptions(threads=2, vector_bits=256)))
    for other in (store.fields(text, "main", CompileOptions(threads=1, vector_bits=256)),
                  store.fields(text, "main", CompileOptions(threads=2, vector_bits=512)),
                  store.fields(text.replace("2.0", "3.0"), "main", CompileOptions(threads=2, vector_bits=256))):
        assert store.key(other) != store.key(base)
    # A cache entry built for AVX-512 never loads on a host without it.
    assert not _compile_here().cache_hit
    monkeypatch.setattr(fingerprint, "cpu_identity", lambda: "x86_64|other cpu|avx2 fma")
    monkeypatch.setenv("MLC_LOG_COMPILES", "1")
    with caplog.at_level(logging.WARNING, logger="mlc"):
        assert not _compile_here().cache_hit
    assert "changed since the last entry for this module: cpu" in caplog.text
    monkeypatch.setenv("MLC_BLAS", "0")
    with caplog.at_level(logging.WARNING, logger="mlc"):
        assert not _compile_here().cache_hit
    assert "options (blas True -> False)" in caplog.text


def test_the_size_cap_evicts_least_recently_used(cache, monkeypatch):
    monkeypatch.setenv("MLC_CACHE_MAX_MB", "0.03")  # about one library
    for scale in (2.0, 3.0, 4.0):
        mlc.jit(lambda a, s=scale: a * s)(np.ones(8, np.float32))
        disk_cache.flush_all()
    assert len(_entries(cache)) == 1


def test_cache_off_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("MLC_CACHE", "0")
    monkeypatch.setenv("MLC_CACHE_DIR", str(tmp_path))
    _compile_here()
    assert list(tmp_path.iterdir()) == []


def test_the_key_ignores_where_the_function_was_traced_and_staged_compiles_share_it(tmp_path):
    """The key is the traced module without locations (module_key), taken before the
    module is verified or printed: the same function written elsewhere hits, and the staged
    API (a parsed copy of the trace) finds the call path's entry."""
    out, err, code = _run(tmp_path)
    assert code == 0 and out.strip() == "MISS", err
    moved = "\n\n# moved down and split over lines\n" + SCRIPT.replace(
        "f = mlc.jit(lambda x, y:", "f = mlc.jit(\n    lambda x, y:")
    out, err, code = _run(tmp_path, script=moved)
    assert code == 0 and out.strip() == "HIT", err
    staged = SCRIPT.replace("np.testing.assert_allclose(f(x, y)", "c = f.lower(x, y).compile()\n"
                            "np.testing.assert_allclose(c(x, y)").replace(
        "next(iter(f._cache.values())).cache_hit", "c.cache_hit")
    out, err, code = _run(tmp_path, script=staged)
    assert code == 0 and out.strip() == "HIT", err
    assert len(_entries(tmp_path)) == 1


def test_compiles_faster_than_the_linker_do_not_pile_up(cache, monkeypatch, caplog):
    """One writer thread per cache and at most MAX_PENDING_STORES waiting: with a linker that
    takes 0.5 s, twelve quick compiles start no thread each and store what the queue held
    (the fuzzer's load once made 486 threads and dozens of linkers)."""
    real_link = native_library.link_shared
    DELAY = 0.5  # noqa: N806

    def slow_link(*args, **kwargs):
        time.sleep(DELAY)
        return real_link(*args, **kwargs)

    monkeypatch.setattr(native_library, "link_shared", slow_link)
    monkeypatch.setenv("MLC_LOG_COMPILES", "1")
    before = threading.active_count()
    x = np.ones(8, np.float32)
    start = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="mlc"):
        for scale in range(12):
            np.testing.assert_allclose(mlc.jit(lambda a, s=scale: a * float(s + 2))(x), x * (scale + 2))
        assert threading.active_count() <= before + 1
        finished = int((time.monotonic() - start) / DELAY)  # stores the writer can have done meanwhile
        disk_cache.flush_all()
    stored = len(_entries(cache))
    assert 1 <= stored <= disk_cache.MAX_PENDING_STORES + 1 + finished < 12
    assert "not stored" in caplog.text
    # The ones left out are stored by a later compile once the queue has room.
    mlc.jit(lambda a: a * 20.0)(x)
    disk_cache.flush_all()
    assert len(_entries(cache)) == stored + 1


def test_a_store_that_raises_leaves_the_writer_running(cache, monkeypatch):
    """An unexpected error in one store is a warning: the writer thread serves the next
    store, and flush (also run at exit) returns instead of waiting forever."""
    calls = {"n": 0}
    real_link = native_library.link_shared

    def link_once_broken(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 1:
            raise ValueError("an unexpected linker failure")
        return real_link(*args, **kwargs)

    def flushed() -> bool:  # flush_all, given 30 s (a dead writer would make it wait forever)
        waiter = threading.Thread(target=disk_cache.flush_all, daemon=True)
        waiter.start()
        waiter.join(30)
        return not waiter.is_alive()

    monkeypatch.setattr(native_library, "link_shared", link_once_broken)
    x = np.ones(8, np.float32)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        mlc.jit(lambda a: a * 31.0)(x)
        assert flushed()
        mlc.jit(lambda a: a * 37.0)(x)
        assert flushed()
    assert calls["n"] == 2 and len(_entries(cache)) == 1
