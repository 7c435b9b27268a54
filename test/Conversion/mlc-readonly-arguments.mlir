// RUN: mlc-opt %s --mlc-readonly-arguments | FileCheck %s

// Public functions' tensor arguments become read-only for bufferization; other argument
// attributes are kept; private functions and scalars are left alone.
// CHECK-LABEL: func @public
// CHECK-SAME: (%{{.*}}: tensor<4xf32> {bufferization.writable = false, my.attr = 1 : i64}, %{{.*}}: i32)
func.func @public(%a: tensor<4xf32> {my.attr = 1}, %b: i32) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// CHECK-LABEL: func private @helper
// CHECK-SAME: (%{{.*}}: tensor<4xf32>) -> tensor<4xf32>
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
