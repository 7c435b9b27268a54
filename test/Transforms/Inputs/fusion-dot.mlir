// The --fusion-dot picture of a row max feeding an elementwise fusion (checked from
// hlo-fuse.mlir): arguments flow into the fused ops that read them, the reduce's node into
// the second fusion, and the last fused op into the function's result.
// DOT: subgraph cluster_fn_main
// DOT-DAG: [[ARG0:n[0-9]+]] [label="arg0: tensor<8x32xf32>", shape=ellipse]
// DOT-DAG: [[ARG1:n[0-9]+]] [label="arg1: tensor<8x32xf32>", shape=ellipse]
// DOT: subgraph cluster_main_fusion_0_{{[0-9]+}} { label="main_fusion_0 (input)"
// DOT: [[REDUCE:n[0-9]+]] [label="reduce", shape=box]
// DOT-NEXT: [[ARG0]] -> [[REDUCE]]
// DOT: subgraph cluster_main_fusion_1_{{[0-9]+}} { label="main_fusion_1 (loop)"
// DOT: [[RESHAPE:n[0-9]+]] [label="reshape", shape=box]
// DOT-NEXT: [[REDUCE]] -> [[RESHAPE]]
// DOT: [[SUB:n[0-9]+]] [label="subtract", shape=box]
// DOT-NEXT: [[ARG0]] -> [[SUB]]
// DOT: [[MUL:n[0-9]+]] [label="multiply", shape=box]
// DOT-DAG: [[ARG1]] -> [[MUL]]
// DOT: [[RESULT:n[0-9]+]] [label="result0: tensor<8x32xf32>", shape=ellipse]
// DOT-NEXT: [[MUL]] -> [[RESULT]]
func.func @main(%arg0: tensor<8x32xf32>, %arg1: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %0 = "hlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %1 = "hlo.reduce"(%arg0, %0) {dimensions = array<i64: 1>, kind = "max"} : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
  %2 = "hlo.reshape"(%1) : (tensor<8xf32>) -> tensor<8x1xf32>
  %3 = "hlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<8x1xf32>) -> tensor<8x32xf32>
  %4 = "hlo.subtract"(%arg0, %3) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  %5 = "hlo.exponential"(%4) : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %6 = "hlo.multiply"(%5, %arg1) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  return %6 : tensor<8x32xf32>
}
