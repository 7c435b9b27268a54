"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<2x7xf16>) -> tensor<2x7xf16>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<2x7xf16>):
    %0 = "stablehlo.reduce_precision"(%arg0) <{exponent_bits = 4 : i32, mantissa_bits = 3 : i32}> : (tensor<2x7xf16>) -> tensor<2x7xf16>
    "func.return"(%0) : (tensor<2x7xf16>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
