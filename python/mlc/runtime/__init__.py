"""Running compiled code: runtime libraries, memref descriptors, the Executable."""
