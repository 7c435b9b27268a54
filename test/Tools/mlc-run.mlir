// mlc-run's input and reference files: every problem is one line naming the file and
// exit code 1, never a traceback.
// RUN: mlc-run %s --random-inputs 0 | FileCheck %s --check-prefix=RANDOM
// RUN: %PYTHON -c "import numpy as np; np.savez('%t.ok.npz', r=-np.arange(4, dtype=np.float32)); np.save('%t.x.npy', np.arange(4, dtype=np.float32))"
// RUN: mlc-run %s --input %t.x.npy --check-against %t.ok.npz | FileCheck %s --check-prefix=MATCH
// RUN: mlc-run %s --input %t.x.npy --reference --check-against %t.ok.npz | FileCheck %s --check-prefix=MATCH
// RUN: mlc-run %s --random-inputs 0 --reference | FileCheck %s --check-prefix=RANDOM
// RUN: not mlc-run %s --random-inputs 0 --check-against %t.missing.npz 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: %PYTHON -c "open('%t.garbage.npz', 'w').write('not numpy')"
// RUN: not mlc-run %s --random-inputs 0 --check-against %t.garbage.npz 2>&1 | FileCheck %s --check-prefix=GARBAGE
// RUN: %PYTHON -c "d = open('%t.ok.npz', 'rb').read(); open('%t.trunc.npz', 'wb').write(d[:100])"
// RUN: not mlc-run %s --random-inputs 0 --check-against %t.trunc.npz 2>&1 | FileCheck %s --check-prefix=TRUNC
// RUN: not mlc-run %s --random-inputs 0 --check-against %t.x.npy 2>&1 | FileCheck %s --check-prefix=NOTNPZ
// RUN: %PYTHON -c "d = open('%t.x.npy', 'rb').read(); open('%t.short.npy', 'wb').write(d[:-4])"
// RUN: not mlc-run %s --input %t.short.npy 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: %PYTHON -c "print('func.func private @main(%%x: tensor<4xf32>) -> tensor<4xf32>')" > %t.decl.mlir
// RUN: not mlc-run %t.decl.mlir --random-inputs 0 2>&1 | FileCheck %s --check-prefix=DECL

// RANDOM: array([
// MATCH: mlc-run: all 1 results match
// MISSING: mlc-run: error: cannot read --check-against file '{{.*}}missing.npz': No such file or directory
// GARBAGE: mlc-run: error: --check-against file '{{.*}}garbage.npz' is not a valid .npy/.npz file
// TRUNC: mlc-run: error: --check-against file '{{.*}}trunc.npz' is not a valid .npy/.npz file
// NOTNPZ: mlc-run: error: --check-against file '{{.*}}x.npy' must be an .npz archive, not a single array
// SHORT: mlc-run: error: --input file '{{.*}}short.npy' is not a valid .npy/.npz file
// DECL: decl.mlir:1:1: error: @main is a declaration (no body): there is nothing to compile
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.negate"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
