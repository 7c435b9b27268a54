"""The persistent compilation cache: compiled functions as shared libraries on disk, so a
new process calls a function it compiled before without compiling it again.

Key: a hash of the fields `key_fields` gives: the hlo module without locations (its
bytecode, `module_key`: ten times faster to make than its text), the entry, the
CompileOptions (resolved: threads and vector width as this host fills them in), MLC's
version and source hash, the MLIR/LLVM wheels, the runtime libraries found, and the host
CPU's model and features (fingerprint.py). Value: `<key>.json` (the fields, the
signature, the scratch size, whether it runs parallel loops, the runtime libraries it needs
and its library's name, size and sha256) and `<key>.<sha256>.so`, linked from the
position-independent object code the compile linked in memory (Executable.object_code:
the program's and the precompiled GEMM kernels' it calls). The cache also keeps those
kernels themselves (`<key>.kernel`: a JSON line, then the object code; codegen/kernel_library.py),
keyed the same way by the kernel's name, the host and the toolchain, and evicted like entries.

Robustness: every file is written to a temporary name and renamed into place, library
first, so a reader sees a whole entry or none; a library's name carries its hash, so two
processes storing one key never mix their files. An entry that fails any check (JSON,
fields, size, hash, dlopen) is a miss, removed and rebuilt. The cache never fails a call:
any error reading or writing it (read-only, full, corrupt directory) costs only the compile,
with one warning per process. Size: when the directory's size (scanned at a process's
first store, then counted up by its own stores) passes MLC_CACHE_MAX_MB, least recently
used entries (a hit touches its JSON file) are removed until it is under 90% of it.

Stores run on one writer thread per cache, at most MAX_PENDING_STORES waiting: a program
that compiles faster than the linker keeps up (the fuzzer: thousands of small functions)
skips storing the excess instead of starting a thread and a linker per compile. (It did:
486 threads, dozens of linkers and a full directory scan after every store, with the
load average at 16 and each round of the fuzzer 4x slower than the first.)
"""

from __future__ import annotations

import atexit
import hashlib
import io
import json
import logging
import os
import queue
import tempfile
import threading
import time
import warnings
from pathlib import Path

import numpy as np
from mlir import ir, passmanager

from .. import config
from ..abi import argument_count, called_symbol
from ..options import CompileOptions
from . import native_library
from .executable import Executable
from .fingerprint import environment_fields
from .memref import TensorSpec

FORMAT = 2  # 2: libraries export the C interface (1: the ExecutionEngine's packed wrapper)
log = logging.getLogger("mlc")
_WARNED = set()
_STALE_TMP_SECONDS = 3600
MAX_PENDING_STORES = 4  # stores waiting for the writer thread; past it a compile is not stored


def _warn_once(what: str, error: BaseException | str) -> None:
    if what not in _WARNED:
        _WARNED.add(what)
        warnings.warn(f"mlc: compilation cache {what} ({error}); compiling in memory", RuntimeWarning,
                      stacklevel=3)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def module_key(module: ir.Module) -> bytes:
    """The module without its locations, as MLIR bytecode: equal for equal modules whatever
    lines they were traced from. (Printing the module as text cost 2.3 ms for 140 ops, the
    bytecode of a location-free copy 0.4 ms.) Call it on the thread that uses the module."""
    copy = module.operation.clone()
    try:
        pm = passmanager.PassManager.parse("builtin.module(strip-debuginfo)", context=module.context)
        pm.enable_verifier(False)
        pm.run(copy)
        buffer = io.BytesIO()
        copy.write_bytecode(buffer)
        return buffer.getvalue()
    finally:
        copy.erase()


def key_fields(program: str | bytes, entry: str, options: CompileOptions, memo_dir: str | None) -> dict[str, str]:
    """Every input that decides the machine code, one string each (see the module docstring).
    `program`: module_key's bytes (or any text that identifies the module)."""
    return {"hlo": _digest(program if isinstance(program, bytes) else program.encode()), "entry": entry,
            "options": json.dumps(options.as_dict(), sort_keys=True),
            **environment_fields(memo_dir)}


def _spec_json(specs) -> list:
    return [[list(s.shape), s.dtype.str] for s in specs]


def _specs(data) -> tuple[TensorSpec, ...]:
    return tuple(TensorSpec(tuple(int(n) for n in shape), np.dtype(dtype)) for shape, dtype in data)


class DiskCache:
    """One cache directory (a `v<FORMAT>` folder inside `directory`)."""

    def __init__(self, directory: str, max_bytes: int):
        self.root = Path(directory) / f"v{FORMAT}"
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._queue: queue.Queue | None = None  # the writer thread's stores (made per process)
        self._writer_pid: int | None = None
        self._bytes: int | None = None  # the directory's size, as the writer thread knows it
        self.usable = self._prepare()

    def _prepare(self) -> bool:
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            return True
        except OSError as e:
            _warn_once(f"directory {self.root} cannot be created", e)
            return False

    def fields(self, program: str | bytes, entry: str, options: CompileOptions) -> dict[str, str]:
        return key_fields(program, entry, options, str(self.root) if self.usable else None)

    @staticmethod
    def key(fields: dict[str, str]) -> str:
        return _digest(json.dumps(fields, sort_keys=True).encode())[:40]

    # --- lookup -----------------------------------------------------------------------------
    def load(self, fields: dict[str, str]) -> Executable | None:
        """The cached executable for `fields`, or None (a miss, logged with its reason)."""
        key = self.key(fields)
        meta_path = self.root / f"{key}.json"
        try:
            meta = json.loads(meta_path.read_bytes())
        except FileNotFoundError:
            self._log_miss(fields, "no entry")
            return None
        except (OSError, ValueError) as e:
            return self._corrupt(key, f"unreadable metadata: {e}")
        try:
            if meta.get("format") != FORMAT or meta.get("fields") != fields:
                return self._corrupt(key, "metadata does not match the key")
            library = self.root / meta["library"]
            data = library.read_bytes()
            if len(data) != meta["library_size"] or _digest(data) != meta["library_sha256"]:
                return self._corrupt(key, "the library's size or hash is wrong")
            handle = native_library.load(str(library), meta["needs"])
            executable = Executable.from_library(handle, meta["entry"], _specs(meta["inputs"]),
                                                 _specs(meta["outputs"]), meta["scratch_bytes"],
                                                 meta["parallel"])
        except FileNotFoundError:
            return self._corrupt(key, "the library is missing")
        except (OSError, KeyError, TypeError, ValueError, RuntimeError) as e:
            return self._corrupt(key, f"{type(e).__name__}: {e}")
        try:
            os.utime(meta_path)  # least recently used goes first
        except OSError:
            pass
        if config.log_compiles():
            log.warning("mlc cache: hit %s (@%s)", key[:12], fields["entry"])
        return executable

    def _corrupt(self, key: str, reason: str) -> None:
        if config.log_compiles():
            log.warning("mlc cache: miss %s: corrupt entry (%s); rebuilding it", key[:12], reason)
        self._remove_entry(key)
        return None

    def _log_miss(self, fields: dict[str, str], reason: str) -> None:
        if not config.log_compiles():
            return
        try:
            last = json.loads(self._function_file(fields).read_bytes())
        except (OSError, ValueError):
            log.warning("mlc cache: miss %s (@%s): %s for this module", self.key(fields)[:12],
                        fields["entry"], reason)
            return
        changed = [name for name in fields if last.get(name) != fields[name]]
        detail = []
        for name in changed:
            if name == "options":
                old, new = json.loads(last[name]), json.loads(fields[name])
                detail.append("options (" + ", ".join(f"{k} {old.get(k)} -> {v}" for k, v in new.items()
                                                      if old.get(k) != v) + ")")
            else:
                detail.append(name)
        log.warning("mlc cache: miss %s (@%s): changed since the last entry for this module: %s",
                    self.key(fields)[:12], fields["entry"], ", ".join(detail) or "nothing (evicted)")

    def _function_file(self, fields: dict[str, str]) -> Path:
        # The fields of the last entry stored for one module and entry: what a miss compares with.
        return self.root / f"last-{_digest((fields['hlo'] + fields['entry']).encode())[:24]}.json"

    # --- store ------------------------------------------------------------------------------
    def store(self, fields: dict[str, str], executable: Executable) -> None:
        """Writes `executable` (compiled with keep_object=True) in the background: its object
        code is written now, the link and the writes run on a thread."""
        if not self.usable or executable.object_code is None:
            return
        with self._lock:
            stores = self._writer_queue()
            if stores.qsize() >= MAX_PENDING_STORES:
                if config.log_compiles():
                    log.warning("mlc cache: not stored (%d stores waiting for the linker)", stores.qsize())
                return
        key = self.key(fields)
        object_paths = []
        try:
            self.root.mkdir(parents=True, exist_ok=True)  # again: someone may have removed it
            for code in executable.object_code:
                fd, path = tempfile.mkstemp(prefix="tmp-", suffix=".o", dir=self.root)
                object_paths.append(path)
                with os.fdopen(fd, "wb") as f:
                    f.write(code)
        except (OSError, RuntimeError) as e:
            _warn_once(f"directory {self.root} is not writable", e)
            _unlink_all(object_paths)
            return
        meta = {"format": FORMAT, "fields": fields, "entry": executable.entry,
                "inputs": _spec_json(executable.inputs), "outputs": _spec_json(executable.outputs),
                "scratch_bytes": executable.scratch_bytes, "parallel": executable.parallel,
                "needs": native_library.runtime_dependencies(getattr(executable, "externals", ()))}
        stores.put((key, fields, object_paths, meta))

    def _writer_queue(self) -> queue.Queue:
        """The writer thread's queue, started on first use and again in a forked child (which
        has no thread of its parent's)."""
        if self._writer_pid != os.getpid():
            self._queue, self._writer_pid = queue.Queue(), os.getpid()
            threading.Thread(target=self._writer, args=(self._queue,), name="mlc-cache-store",
                             daemon=True).start()
        return self._queue

    def _writer(self, stores: queue.Queue) -> None:
        while True:
            item = stores.get()
            try:
                self._write(*item)
            except Exception as e:  # noqa: BLE001 - the thread must live on: flush() waits for it
                _warn_once(f"store in {self.root} failed", e)
            finally:
                stores.task_done()

    def flush(self) -> None:
        """Waits for the stores in flight (tests, and at exit: flush_all is an atexit hook)."""
        with self._lock:
            stores = self._queue if self._writer_pid == os.getpid() else None
        if stores is not None:
            stores.join()

    def _write(self, key: str, fields: dict[str, str], object_paths: list[str], meta: dict) -> None:
        tmp_library = f"{object_paths[0][:-2]}.so"
        try:
            arguments = argument_count(meta["inputs"], meta["outputs"], meta["scratch_bytes"])
            native_library.link_shared(object_paths, tmp_library, [called_symbol(meta["entry"], arguments)])
            data = Path(tmp_library).read_bytes()
            digest = _digest(data)
            meta.update(library=f"{key}.{digest[:16]}.so", library_size=len(data), library_sha256=digest)
            os.replace(tmp_library, self.root / meta["library"])
            written = len(data)
            written += self._write_atomic(self.root / f"{key}.json", json.dumps(meta).encode())
            written += self._write_atomic(self._function_file(fields), json.dumps(fields).encode())
            if config.log_compiles():
                log.warning("mlc cache: stored %s (@%s, %d bytes)", key[:12], meta["entry"], len(data))
            if self._bytes is None or self._bytes + written > self.max_bytes:
                self._bytes = self.evict()  # a scan: at the first store, and past the cap
            else:
                self._bytes += written
        except (OSError, native_library.LinkError) as e:
            _warn_once(f"store in {self.root} failed", e)
        finally:
            _unlink_all([*object_paths, tmp_library])

    def _write_atomic(self, path: Path, data: bytes) -> int:
        """Writes `data` to `path` through a temporary file; returns its size."""
        fd, tmp = tempfile.mkstemp(prefix="tmp-", dir=self.root)
        try:
            os.fchmod(fd, 0o644)  # mkstemp's 0600 would hide entries from other users of a shared cache
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
            return len(data)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise

    # --- other files: MLC's precompiled kernels (codegen/kernel_library.py) --------------------
    def read_file(self, name: str) -> bytes | None:
        """The file `name` in the cache, or None (missing or unreadable); a read marks it used."""
        try:
            data = (self.root / name).read_bytes()
            os.utime(self.root / name)
            return data
        except OSError:
            return None

    def write_file(self, name: str, data: bytes) -> None:
        """Writes the file `name` atomically; a failure warns once and is otherwise ignored."""
        try:
            self._write_atomic(self.root / name, data)
        except OSError as e:
            _warn_once(f"store in {self.root} failed", e)

    # --- removal ----------------------------------------------------------------------------
    def _remove_entry(self, key: str) -> None:
        """Metadata first: a reader that finds no JSON never looks for the library."""
        _unlink_all([self.root / f"{key}.json", *self.root.glob(f"{key}.*.so"), self.root / f"{key}.kernel"])

    def evict(self) -> int:
        """Removes least recently used entries until the cache fits its cap, and temporary
        files that a killed process left behind; returns the size left."""
        entries, total, now = [], 0, time.time()
        by_key: dict[str, int] = {}
        with os.scandir(self.root) as it:
            for e in it:
                try:
                    st = e.stat()
                except OSError:
                    continue
                if e.name.startswith("tmp-"):
                    if now - st.st_mtime > _STALE_TMP_SECONDS:
                        try:
                            os.unlink(e.path)
                        except OSError:
                            pass
                    continue
                key = e.name.split(".")[0]
                by_key[key] = by_key.get(key, 0) + st.st_size
                total += st.st_size
                if e.name.endswith((".json", ".kernel")) and not e.name.startswith("last-"):
                    entries.append((st.st_mtime, key))
        if total <= self.max_bytes:
            return total
        for _, key in sorted(entries):
            self._remove_entry(key)
            total -= by_key.get(key, 0)
            if total <= self.max_bytes * 0.9:
                break
        return total


def _unlink_all(paths) -> None:
    for path in paths:
        try:
            os.unlink(path)
        except OSError:
            pass


_CACHES: dict[tuple[str, int], DiskCache] = {}
_CACHES_LOCK = threading.Lock()


def default_cache() -> DiskCache | None:
    """The cache config.py describes (MLC_CACHE, MLC_CACHE_DIR, MLC_CACHE_MAX_MB), or None
    when it is off or unusable."""
    if not config.cache_enabled():
        return None
    where = (os.path.abspath(config.cache_dir()), config.cache_max_bytes())
    with _CACHES_LOCK:
        cache = _CACHES.get(where)
        if cache is None:
            cache = _CACHES[where] = DiskCache(*where)
    return cache if cache.usable else None


def flush_all() -> None:
    for cache in list(_CACHES.values()):
        cache.flush()


# The writer threads are daemons (an idle one must not keep the interpreter alive): exit
# waits here for the stores they have queued.
atexit.register(flush_all)
