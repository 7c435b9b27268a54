// mlc-opt's command line: pipelines, --emit, and clear errors for bad flags and bad IR.
// RUN: mlc-opt %s --pass-pipeline='builtin.module(hlo-verify,hlo-to-linalg,func.func(canonicalize))' | FileCheck %s --check-prefix=PIPE
// RUN: mlc-opt %s -p 'hlo-to-linalg' | FileCheck %s --check-prefix=PIPE
// RUN: mlc-opt %s --emit=linalg | FileCheck %s --check-prefix=PIPE
// RUN: mlc-opt %s --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: mlc-opt %s --hlo-to-linalg -o %t.mlir && FileCheck %s --check-prefix=PIPE < %t.mlir
// RUN: mlc-opt --list-passes | FileCheck %s --check-prefix=LIST
// RUN: not mlc-opt %s --no-such-pass 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mlc-opt %s --hlo-to-linalg=bogus=1 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not mlc-opt %s --canonicalize=max-iterations=x 2>&1 | FileCheck %s --check-prefix=BADUPSTREAMOPT
// RUN: not mlc-opt %s -p 'builtin.module(hlo-to-linalg' 2>&1 | FileCheck %s --check-prefix=UNBALANCED
// RUN: not mlc-opt %s --hlo-verify -p 'hlo-to-linalg' 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not mlc-opt %S/Inputs/malformed.mlir 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not mlc-opt %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: mlc-opt --mlir-print-ir-after-all --hlo-to-linalg %s 2>&1 >/dev/null | FileCheck %s --check-prefix=PRINT
// Bad input is one line and exit code 1, never a traceback or a signal.
// RUN: %PYTHON -c "import sys; sys.stdout.buffer.write(b'func.func @f() {\xff}')" > %t.latin1.mlir
// RUN: not mlc-opt %t.latin1.mlir 2>&1 | FileCheck %s --check-prefix=NOTUTF8
// RUN: %PYTHON -c "import sys; sys.stdout.buffer.write(b'ML\xefR\x00\x01')" > %t.bytecode
// RUN: not mlc-opt < %t.bytecode 2>&1 | FileCheck %s --check-prefix=BINARY
// RUN: not mlc-opt %s --hlo-to-linalg -o %t.no-such-dir/out.mlir 2>&1 | FileCheck %s --check-prefix=NOWRITE
// RUN: not mlc-opt %s --hlo-fuse --fusion-dot %t.no-such-dir/f.dot 2>&1 | FileCheck %s --check-prefix=NODOT
// RUN: %PYTHON -c "print('func.func @f() -> tensor<1xf32> { %%0 = arith.constant dense<' + '[' * 100000 + '1.0' + ']' * 100000 + '> : tensor<1xf32>')" > %t.nested.mlir
// RUN: not mlc-opt %t.nested.mlir 2>&1 | FileCheck %s --check-prefix=NESTED

// PIPE-LABEL: func @f
// PIPE: linalg.generic
// PIPE-NOT: hlo.
// LLVM: llvm.func @f
// LLVM-NOT: linalg.
// LIST: --hlo-to-linalg
// LIST: --mlc-lower-to-llvm
// LIST: Stages (--emit):
// UNKNOWN: mlc-opt: error: unknown pass or option '--no-such-pass'
// BADOPT: mlc-opt: error: pass 'hlo-to-linalg' has no option 'bogus' (options: verify-input)
// BADUPSTREAMOPT: mlc-opt: error: invalid options 'max-iterations=x' for pass 'canonicalize'
// UNBALANCED: mlc-opt: error: unbalanced brackets or quotes in pipeline
// BOTH: mlc-opt: error: give passes either as flags or with --pass-pipeline, not both
// MALFORMED: malformed.mlir:3:3: error: custom op 'not_an_op' is unknown
// MISSING: mlc-opt: error: cannot read '{{.*}}does-not-exist.mlir': No such file or directory
// NOTUTF8: mlc-opt: error: '{{.*}}latin1.mlir' is not UTF-8 text (byte 0xff at offset 16)
// BINARY: mlc-opt: error: '<stdin>' is a binary file (a NUL byte at offset 4); MLIR input is text
// NOWRITE: mlc-opt: error: cannot write '{{.*}}no-such-dir/out.mlir': No such file or directory
// NODOT: mlc-opt: error: cannot write '{{.*}}no-such-dir/f.dot': No such file or directory
// NESTED: nested.mlir:1:1060: error: brackets nested more than 1000 levels deep
// PRINT: // -----// IR Dump After HloToLinalg (hlo-to-linalg) //----- //
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.negate"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
