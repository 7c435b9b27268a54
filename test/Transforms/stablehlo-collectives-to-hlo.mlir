// StableHLO collectives over one group of all processes, as JAX lowers psum/pmax/
// all_gather/psum_scatter inside shard_map over 2 devices, import to hlo's collectives
// (which run as MPI calls in a job of 2 processes). MLC_COLLECTIVES=mpi stands for such
// a job here; without it, this one-process run rejects the 2-process groups.
// RUN: env MLC_COLLECTIVES=mpi mlc-opt %s --stablehlo-to-hlo | FileCheck %s
// RUN: not mlc-opt %s --stablehlo-to-hlo 2>&1 | FileCheck %s --check-prefix=ONE

// CHECK-LABEL: func.func @main
// CHECK-NOT: stablehlo
// CHECK: %[[SUM:.*]] = "hlo.all_reduce"(%arg0) {kind = "add"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: "hlo.all_reduce"(%arg1) {kind = "max"} : (tensor<4xi32>) -> tensor<4xi32>
// CHECK: "hlo.all_gather"(%arg0) {all_gather_dim = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x6xf32>
// CHECK: "hlo.reduce_scatter"(%arg1) {kind = "add", scatter_dimension = 0 : i64} : (tensor<4xi32>) -> tensor<2xi32>
// CHECK: "hlo.collective_broadcast"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// ONE: error: replica_groups has 2 processes, this job has 1
module @jit_f attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<4xi32>, tensor<2x6xf32>, tensor<2xi32>, tensor<2x3xf32>) {
    %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.maximum %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) : (tensor<4xi32>) -> tensor<4xi32>
    %2 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<2x3xf32>) -> tensor<2x6xf32>
    %3 = "stablehlo.reduce_scatter"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) : (tensor<4xi32>) -> tensor<2xi32>
    %4 = "stablehlo.collective_broadcast"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %0, %1, %2, %3, %4 : tensor<2x3xf32>, tensor<4xi32>, tensor<2x6xf32>, tensor<2xi32>, tensor<2x3xf32>
  }
}
