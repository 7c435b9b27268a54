// What each of 2 processes runs of JAX 0.10.2's
//   shard_map(lambda x, y: (psum(x, "p") * 2, pmax(y, "p"),
//                           all_gather(x, "p", axis=1, tiled=True),
//                           psum_scatter(y, "p", scatter_dimension=0, tiled=True)),
//             mesh=make_mesh((2,), ("p",)), in_specs=(P(), P()), out_specs=(P(), P(), P(), P()))
// lowered with XLA_FLAGS=--xla_force_host_platform_device_count=2: the body of its
// sdy.manual_computation (JAX's own ops and attributes), made the entry function.
module @jit_f attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg2: tensor<2x3xf32>, %arg3: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<4xi32>, tensor<2x6xf32>, tensor<2xi32>) {
    %1 = "stablehlo.all_reduce"(%arg2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %5 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %5 : tensor<f32>
    }) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %2 = "stablehlo.all_reduce"(%arg3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%arg4: tensor<i32>, %arg5: tensor<i32>):
      %5 = stablehlo.maximum %arg4, %arg5 : tensor<i32>
      stablehlo.return %5 : tensor<i32>
    }) : (tensor<4xi32>) -> tensor<4xi32>
    %3 = "stablehlo.all_gather"(%arg2) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<2x3xf32>) -> tensor<2x6xf32>
    %4 = "stablehlo.reduce_scatter"(%arg3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg4: tensor<i32>, %arg5: tensor<i32>):
      %5 = stablehlo.add %arg4, %arg5 : tensor<i32>
      stablehlo.return %5 : tensor<i32>
    }) : (tensor<4xi32>) -> tensor<2xi32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %8 = stablehlo.multiply %1, %7 : tensor<2x3xf32>
    return %8, %2, %3, %4 : tensor<2x3xf32>, tensor<4xi32>, tensor<2x6xf32>, tensor<2xi32>
  }
}
