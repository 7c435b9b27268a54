"""A call's arguments checked against the compiled signature natively, their data pointers
stored once they all match: the jit fast path of every call (and the pointer store alone
of a call with many arrays that was checked in Python).

    check(descriptors, argument_items, n, nds, dims, type_nums, ndarray_type,
          result_items, n_results) -> -1, or the index of the first argument that is not
          an exact, C-contiguous, native-endian ndarray of the expected rank, sizes and
          dtype (then nothing was stored or called, and the caller takes the Python path)
    store(descriptors, items, n)   the data pointers alone (checked arrays), the same
                                   loop the check runs on its arguments and results

An optimizer step over 100 parameters passes 201 arrays: in Python the signature key (shape
and dtype of each) and the layout checks cost ~0.45 us an array, ~90 us of a call whose
kernels take ~56 us (numpy's eager loop: ~180 us). Natively the same checks are a few
nanoseconds an array, reading numpy's array struct (PyArrayObject: nd, dimensions, descr,
flags; the descr's type_num and byteorder) and CPython's tuple and list items directly.
A call with two arrays gains too: ~8 us through the key and the Python checks, ~4 us
through the native check (a matrix-vector product of 3 MB, ~25 us in BLAS, was then 0.8x
numpy's speed).

Those offsets are numpy's and CPython's stable C layouts; they are probed once per process
against what Python reports for arrays of several ranks, dtypes and layouts, and the check
is off (None) unless every probe agrees, on a big-endian host, or when LLVM fails. A dtype
is compared by its type number, which can only say "different" for two equal dtypes (int64
and longlong: then the Python path runs, equally right); only dtypes whose type number
names them whole are checked (booleans, integers, floats, complex numbers).
"""

from __future__ import annotations

import ctypes
import functools
import sys

import numpy as np

from .memref import _DATA_OFFSET

_POINTER = ctypes.sizeof(ctypes.c_void_p)
# CPython: PyObject_VAR_HEAD (refcount, type, size), then a tuple's items inline, a list's
# pointer to its items.
_TYPE_OFFSET = _POINTER
_ITEMS_OFFSET = 3 * _POINTER
# numpy's PyArrayObject after PyObject_HEAD: data, nd (int), dimensions, strides, base,
# descr, flags (int); PyArray_Descr: typeobj, kind, type, byteorder, flags, type_num (int).
_OFFSETS = {"data": _DATA_OFFSET, "nd": 3 * _POINTER, "dims": 4 * _POINTER, "descr": 7 * _POINTER,
            "flags": 8 * _POINTER, "byteorder": 3 * _POINTER + 2, "type_num": 3 * _POINTER + 4}
C_CONTIGUOUS = 0x1  # NPY_ARRAY_C_CONTIGUOUS
CHECKED_KINDS = "biufc"

_IR = """
define void @mlc_store_pointers(ptr %descriptors, ptr %items, i64 %n) {{
entry:
  %any = icmp sgt i64 %n, 0
  br i1 %any, label %array, label %done
array:
  %i = phi i64 [ 0, %entry ], [ %i_next, %array ]
  %slot = getelementptr ptr, ptr %items, i64 %i
  %object = load ptr, ptr %slot
  %data_field = getelementptr i8, ptr %object, i64 {data}
  %data = load ptr, ptr %data_field
  %descriptor_slot = getelementptr ptr, ptr %descriptors, i64 %i
  %descriptor = load ptr, ptr %descriptor_slot
  store ptr %data, ptr %descriptor
  %aligned = getelementptr ptr, ptr %descriptor, i64 1
  store ptr %data, ptr %aligned
  %i_next = add i64 %i, 1
  %more = icmp slt i64 %i_next, %n
  br i1 %more, label %array, label %done
done:
  ret void
}}

define i64 @mlc_check_arguments(ptr %descriptors, ptr %items, i64 %n, ptr %nds, ptr %dims, ptr %types,
                                ptr %ndarray, ptr %results, i64 %n_results) {{
entry:
  %any = icmp sgt i64 %n, 0
  br i1 %any, label %argument, label %checked
argument:
  %i = phi i64 [ 0, %entry ], [ %i_next, %next ]
  %dim0 = phi i64 [ 0, %entry ], [ %dim_next, %next ]
  %slot = getelementptr ptr, ptr %items, i64 %i
  %object = load ptr, ptr %slot
  %type_field = getelementptr i8, ptr %object, i64 {type}
  %type = load ptr, ptr %type_field
  %exact = icmp eq ptr %type, %ndarray
  br i1 %exact, label %layout, label %bad
layout:
  %flags_field = getelementptr i8, ptr %object, i64 {flags}
  %flags = load i32, ptr %flags_field
  %contiguous_bit = and i32 %flags, {c_contiguous}
  %contiguous = icmp ne i32 %contiguous_bit, 0
  br i1 %contiguous, label %rank, label %bad
rank:
  %nd_field = getelementptr i8, ptr %object, i64 {nd}
  %nd32 = load i32, ptr %nd_field
  %nd = sext i32 %nd32 to i64
  %expected_nd_slot = getelementptr i64, ptr %nds, i64 %i
  %expected_nd = load i64, ptr %expected_nd_slot
  %rank_ok = icmp eq i64 %nd, %expected_nd
  br i1 %rank_ok, label %dtype, label %bad
dtype:
  %descr_field = getelementptr i8, ptr %object, i64 {descr}
  %descr = load ptr, ptr %descr_field
  %type_num_field = getelementptr i8, ptr %descr, i64 {type_num}
  %type_num32 = load i32, ptr %type_num_field
  %type_num = sext i32 %type_num32 to i64
  %expected_type_slot = getelementptr i64, ptr %types, i64 %i
  %expected_type = load i64, ptr %expected_type_slot
  %type_ok = icmp eq i64 %type_num, %expected_type
  br i1 %type_ok, label %byteorder, label %bad
byteorder:
  %byteorder_field = getelementptr i8, ptr %descr, i64 {byteorder}
  %order = load i8, ptr %byteorder_field
  %swapped = icmp eq i8 %order, 62
  br i1 %swapped, label %bad, label %sizes
sizes:
  %dims_field = getelementptr i8, ptr %object, i64 {dims}
  %shape = load ptr, ptr %dims_field
  %has_dims = icmp sgt i64 %expected_nd, 0
  br i1 %has_dims, label %size, label %next
size:
  %k = phi i64 [ 0, %sizes ], [ %k_next, %size_next ]
  %size_slot = getelementptr i64, ptr %shape, i64 %k
  %size_value = load i64, ptr %size_slot
  %expected_at = add i64 %dim0, %k
  %expected_size_slot = getelementptr i64, ptr %dims, i64 %expected_at
  %expected_size = load i64, ptr %expected_size_slot
  %size_ok = icmp eq i64 %size_value, %expected_size
  br i1 %size_ok, label %size_next, label %bad
size_next:
  %k_next = add i64 %k, 1
  %more_sizes = icmp slt i64 %k_next, %expected_nd
  br i1 %more_sizes, label %size, label %next
next:
  %dim_next = add i64 %dim0, %expected_nd
  %i_next = add i64 %i, 1
  %more = icmp slt i64 %i_next, %n
  br i1 %more, label %argument, label %checked
bad:
  ret i64 %i
checked:
  call void @mlc_store_pointers(ptr %descriptors, ptr %items, i64 %n)
  %result_descriptors = getelementptr ptr, ptr %descriptors, i64 %n
  call void @mlc_store_pointers(ptr %result_descriptors, ptr %results, i64 %n_results)
  ret i64 -1
}}
"""
CHECK = ctypes.CFUNCTYPE(ctypes.c_int64, *[ctypes.c_void_p] * 2, ctypes.c_int64, *[ctypes.c_void_p] * 5,
                         ctypes.c_int64)
STORE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)


def _read(address: int, ctype=ctypes.c_void_p):
    return ctype.from_address(address).value


def _probe() -> bool:
    """Whether the offsets above read what Python reports, on arrays of several ranks,
    dtypes and layouts, a tuple and a list. A pointer is followed only once what it is
    read beside is confirmed: a wrong layout makes this False, never a bad read."""
    t = (np.zeros(3), 1)
    items = [np.ones(2), None]
    if _read(id(t) + _ITEMS_OFFSET) != id(t[0]) or _read(id(items) + 2 * _POINTER, ctypes.c_ssize_t) != 2:
        return False
    if _read(_read(id(items) + _ITEMS_OFFSET)) != id(items[0]):
        return False
    probes = [np.zeros((3, 4), np.float32), np.zeros((2, 3, 5), np.int8)[:, ::2], np.zeros((), np.float64),
              np.zeros(7, np.dtype(np.int32).newbyteorder()), np.zeros((4, 6), np.complex64).T, np.zeros(5, bool)]
    for a in probes:
        base, descr = id(a), id(a.dtype)  # (an array's dtype is its descr object)
        if (_read(base + _TYPE_OFFSET) != id(np.ndarray) or _read(base + _OFFSETS["data"]) != a.ctypes.data
                or _read(base + _OFFSETS["nd"], ctypes.c_int32) != a.ndim or _read(base + _OFFSETS["descr"]) != descr
                or bool(_read(base + _OFFSETS["flags"], ctypes.c_int32) & C_CONTIGUOUS) != a.flags.c_contiguous
                or _read(descr + _OFFSETS["type_num"], ctypes.c_int32) != a.dtype.num
                or chr(_read(descr + _OFFSETS["byteorder"], ctypes.c_uint8)) != a.dtype.byteorder):
            return False
        if a.ndim:  # numpy allocates the sizes and the strides as one block: strides = dims + nd
            dims, strides = _read(base + _OFFSETS["dims"]), _read(base + _OFFSETS["dims"] + _POINTER)
            if not dims or strides != dims + 8 * a.ndim:
                return False
            if tuple(_read(dims + 8 * k, ctypes.c_int64) for k in range(2 * a.ndim)) != a.shape + a.strides:
                return False
    return True


class NativeArguments:
    """The compiled check and store (module docstring), kept mapped while this lives."""

    def __init__(self, linked):
        self._linked = linked
        self._check = CHECK(linked.address("mlc_check_arguments"))
        self._store = STORE(linked.address("mlc_store_pointers"))
        self._ndarray = id(np.ndarray)

    def checker(self, descriptors, nds, dims, types):
        """check(args, results) -> -1 once `args` (a tuple) matched the signature (nds, dims,
        types) and their and `results`' (a tuple) pointers are stored in `descriptors`; else
        the first bad argument (nothing stored). The caller keeps both alive until the call
        returns. (Bound once per executable: a call passes two tuples, ~1 us.)"""
        check, ndarray = self._check, self._ndarray

        def checked(args: tuple, results: tuple) -> int:
            return check(descriptors, id(args) + _ITEMS_OFFSET, len(args), nds, dims, types, ndarray,
                         id(results) + _ITEMS_OFFSET, len(results))
        return checked

    def store(self, descriptors, arrays: list) -> None:
        """The data pointers of `arrays` (a list of ndarrays, checked by the caller) stored as
        the allocated and aligned pointers of descriptors[0:len(arrays)]."""
        self._store(descriptors, _read(id(arrays) + _ITEMS_OFFSET), len(arrays))


@functools.cache
def argument_check() -> NativeArguments | None:
    """The native argument check and pointer store, or None where the layouts were not
    confirmed or LLVM fails (then the caller's Python does both)."""
    if sys.byteorder != "little" or ctypes.sizeof(ctypes.c_void_p) != 8:
        return None
    try:
        if not _probe():
            return None
    except (ValueError, OSError):
        return None
    from .llvm_backend import JitLinked, LLVMError, object_code
    text = _IR.format(type=_TYPE_OFFSET, c_contiguous=C_CONTIGUOUS, **_OFFSETS)
    try:
        return NativeArguments(JitLinked(object_code(text, 1)))
    except LLVMError:
        return None


def signature_arrays(specs) -> tuple | None:
    """(ranks, sizes of every rank in order, type numbers) of the specs as C arrays, or None
    when a dtype is not one the check compares whole (CHECKED_KINDS, native byte order)."""
    if any(s.dtype.kind not in CHECKED_KINDS or not s.dtype.isnative for s in specs):
        return None
    dims = [d for s in specs for d in s.shape]
    return ((ctypes.c_int64 * len(specs))(*[len(s.shape) for s in specs]),
            (ctypes.c_int64 * max(1, len(dims)))(*dims),
            (ctypes.c_int64 * len(specs))(*[s.dtype.num for s in specs]))
