// The hlo dialect in IRDL. Generated from python/mlc/dialects/hlo/ops.py by
// `python tools/gen_dialect.py`; do not edit by hand.
irdl.dialect @hlo {
  irdl.operation @constant {
    %T = irdl.base "!builtin.tensor"
    %value = irdl.base "#builtin.dense_int_or_fp_elements"
    irdl.results(output: %T)
    irdl.attributes {"value" = %value}
  }
  irdl.operation @iota {
    %T = irdl.base "!builtin.tensor"
    %iota_dimension = irdl.base "#builtin.integer"
    irdl.results(output: %T)
    irdl.attributes {"iota_dimension" = %iota_dimension}
  }
  irdl.operation @add {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %T, rhs: %T)
    irdl.results(result: %T)
  }
  irdl.operation @subtract {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %T, rhs: %T)
    irdl.results(result: %T)
  }
  irdl.operation @multiply {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %T, rhs: %T)
    irdl.results(result: %T)
  }
  irdl.operation @divide {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %T, rhs: %T)
    irdl.results(result: %T)
  }
  irdl.operation @remainder {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %T, rhs: %T)
    irdl.results(result: %T)
  }
  irdl.operation @power {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %T, rhs: %T)
    irdl.results(result: %T)
  }
  irdl.operation @maximum {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %T, rhs: %T)
    irdl.results(result: %T)
  }
  irdl.operation @minimum {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %T, rhs: %T)
    irdl.results(result: %T)
  }
  irdl.operation @atan2 {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %T, rhs: %T)
    irdl.results(result: %T)
  }
  irdl.operation @and {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %T, rhs: %T)
    irdl.results(result: %T)
  }
  irdl.operation @or {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %T, rhs: %T)
    irdl.results(result: %T)
  }
  irdl.operation @xor {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %T, rhs: %T)
    irdl.results(result: %T)
  }
  irdl.operation @shift_left {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %T, rhs: %T)
    irdl.results(result: %T)
  }
  irdl.operation @shift_right_arithmetic {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %T, rhs: %T)
    irdl.results(result: %T)
  }
  irdl.operation @shift_right_logical {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %T, rhs: %T)
    irdl.results(result: %T)
  }
  irdl.operation @negate {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @abs {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @sign {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @floor {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @ceil {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @round_nearest_even {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @round_nearest_afz {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @exponential {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @exponential_minus_one {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @log {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @log_plus_one {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @logistic {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @tanh {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @sqrt {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @rsqrt {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @cbrt {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @sine {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @cosine {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @tan {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @not {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @popcnt {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @count_leading_zeros {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
  irdl.operation @is_finite {
    %T = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    irdl.operands(x: %T)
    irdl.results(y: %R)
  }
  irdl.operation @compare {
    %T = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    %comparison_direction = irdl.base "#builtin.string"
    irdl.operands(lhs: %T, rhs: %T)
    irdl.results(result: %R)
    irdl.attributes {"comparison_direction" = %comparison_direction}
  }
  irdl.operation @clamp {
    %A = irdl.base "!builtin.tensor"
    %T = irdl.base "!builtin.tensor"
    %B = irdl.base "!builtin.tensor"
    irdl.operands(min: %A, operand: %T, max: %B)
    irdl.results(result: %T)
  }
  irdl.operation @select {
    %P = irdl.base "!builtin.tensor"
    %T = irdl.base "!builtin.tensor"
    irdl.operands(pred: %P, on_true: %T, on_false: %T)
    irdl.results(result: %T)
  }
  irdl.operation @convert {
    %T = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %R)
  }
  irdl.operation @broadcast_in_dim {
    %T = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    %broadcast_dimensions = irdl.base "#builtin.dense_array"
    irdl.operands(operand: %T)
    irdl.results(result: %R)
    irdl.attributes {"broadcast_dimensions" = %broadcast_dimensions}
  }
  irdl.operation @bitcast_convert {
    %T = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %R)
  }
  irdl.operation @reverse {
    %T = irdl.base "!builtin.tensor"
    %dimensions = irdl.base "#builtin.dense_array"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
    irdl.attributes {"dimensions" = %dimensions}
  }
  irdl.operation @slice {
    %T = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    %start_indices = irdl.base "#builtin.dense_array"
    %limit_indices = irdl.base "#builtin.dense_array"
    %strides = irdl.base "#builtin.dense_array"
    irdl.operands(operand: %T)
    irdl.results(result: %R)
    irdl.attributes {"start_indices" = %start_indices, "limit_indices" = %limit_indices, "strides" = %strides}
  }
  irdl.operation @dynamic_slice {
    %T = irdl.base "!builtin.tensor"
    %S = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    %slice_sizes = irdl.base "#builtin.dense_array"
    irdl.operands(operand: %T, start_indices: variadic %S)
    irdl.results(result: %R)
    irdl.attributes {"slice_sizes" = %slice_sizes}
  }
  irdl.operation @dynamic_update_slice {
    %T = irdl.base "!builtin.tensor"
    %U = irdl.base "!builtin.tensor"
    %S = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T, update: %U, start_indices: variadic %S)
    irdl.results(result: %T)
  }
  irdl.operation @pad {
    %T = irdl.base "!builtin.tensor"
    %P = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    %edge_padding_low = irdl.base "#builtin.dense_array"
    %edge_padding_high = irdl.base "#builtin.dense_array"
    %interior_padding = irdl.base "#builtin.dense_array"
    irdl.operands(operand: %T, padding_value: %P)
    irdl.results(result: %R)
    irdl.attributes {"edge_padding_low" = %edge_padding_low, "edge_padding_high" = %edge_padding_high, "interior_padding" = %interior_padding}
  }
  irdl.operation @reshape {
    %T = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %R)
  }
  irdl.operation @transpose {
    %T = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    %permutation = irdl.base "#builtin.dense_array"
    irdl.operands(operand: %T)
    irdl.results(result: %R)
    irdl.attributes {"permutation" = %permutation}
  }
  irdl.operation @reduce {
    %T = irdl.base "!builtin.tensor"
    %I = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    %dimensions = irdl.base "#builtin.dense_array"
    %kind = irdl.base "#builtin.string"
    irdl.operands(inputs: %T, init_values: %I)
    irdl.results(result: %R)
    irdl.attributes {"dimensions" = %dimensions, "kind" = %kind}
  }
  irdl.operation @argmax {
    %T = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    %dimension = irdl.base "#builtin.integer"
    irdl.operands(input: %T)
    irdl.results(result: %R)
    irdl.attributes {"dimension" = %dimension}
  }
  irdl.operation @argmin {
    %T = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    %dimension = irdl.base "#builtin.integer"
    irdl.operands(input: %T)
    irdl.results(result: %R)
    irdl.attributes {"dimension" = %dimension}
  }
  irdl.operation @reduce_window {
    %T = irdl.base "!builtin.tensor"
    %I = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    %window_dimensions = irdl.base "#builtin.dense_array"
    %kind = irdl.base "#builtin.string"
    irdl.operands(inputs: %T, init_values: %I)
    irdl.results(result: %R)
    irdl.attributes {"window_dimensions" = %window_dimensions, "kind" = %kind}
  }
  irdl.operation @convolution {
    %L = irdl.base "!builtin.tensor"
    %H = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    %input_batch_dimension = irdl.base "#builtin.integer"
    %input_feature_dimension = irdl.base "#builtin.integer"
    %input_spatial_dimensions = irdl.base "#builtin.dense_array"
    %kernel_input_feature_dimension = irdl.base "#builtin.integer"
    %kernel_output_feature_dimension = irdl.base "#builtin.integer"
    %kernel_spatial_dimensions = irdl.base "#builtin.dense_array"
    %output_batch_dimension = irdl.base "#builtin.integer"
    %output_feature_dimension = irdl.base "#builtin.integer"
    %output_spatial_dimensions = irdl.base "#builtin.dense_array"
    %feature_group_count = irdl.base "#builtin.integer"
    %batch_group_count = irdl.base "#builtin.integer"
    irdl.operands(lhs: %L, rhs: %H)
    irdl.results(result: %R)
    irdl.attributes {"input_batch_dimension" = %input_batch_dimension, "input_feature_dimension" = %input_feature_dimension, "input_spatial_dimensions" = %input_spatial_dimensions, "kernel_input_feature_dimension" = %kernel_input_feature_dimension, "kernel_output_feature_dimension" = %kernel_output_feature_dimension, "kernel_spatial_dimensions" = %kernel_spatial_dimensions, "output_batch_dimension" = %output_batch_dimension, "output_feature_dimension" = %output_feature_dimension, "output_spatial_dimensions" = %output_spatial_dimensions, "feature_group_count" = %feature_group_count, "batch_group_count" = %batch_group_count}
  }
  irdl.operation @gather {
    %T = irdl.base "!builtin.tensor"
    %S = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    %offset_dims = irdl.base "#builtin.dense_array"
    %collapsed_slice_dims = irdl.base "#builtin.dense_array"
    %start_index_map = irdl.base "#builtin.dense_array"
    %index_vector_dim = irdl.base "#builtin.integer"
    %slice_sizes = irdl.base "#builtin.dense_array"
    irdl.operands(operand: %T, start_indices: %S)
    irdl.results(result: %R)
    irdl.attributes {"offset_dims" = %offset_dims, "collapsed_slice_dims" = %collapsed_slice_dims, "start_index_map" = %start_index_map, "index_vector_dim" = %index_vector_dim, "slice_sizes" = %slice_sizes}
  }
  irdl.operation @scatter {
    %T = irdl.base "!builtin.tensor"
    %S = irdl.base "!builtin.tensor"
    %U = irdl.base "!builtin.tensor"
    %update_window_dims = irdl.base "#builtin.dense_array"
    %inserted_window_dims = irdl.base "#builtin.dense_array"
    %scatter_dims_to_operand_dims = irdl.base "#builtin.dense_array"
    %index_vector_dim = irdl.base "#builtin.integer"
    %kind = irdl.base "#builtin.string"
    irdl.operands(inputs: %T, scatter_indices: %S, updates: %U)
    irdl.results(result: %T)
    irdl.attributes {"update_window_dims" = %update_window_dims, "inserted_window_dims" = %inserted_window_dims, "scatter_dims_to_operand_dims" = %scatter_dims_to_operand_dims, "index_vector_dim" = %index_vector_dim, "kind" = %kind}
  }
  irdl.operation @sort {
    %T = irdl.base "!builtin.tensor"
    %dimension = irdl.base "#builtin.integer"
    irdl.operands(inputs: %T)
    irdl.results(result: %T)
    irdl.attributes {"dimension" = %dimension}
  }
  irdl.operation @argsort {
    %T = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    %dimension = irdl.base "#builtin.integer"
    irdl.operands(operand: %T)
    irdl.results(result: %R)
    irdl.attributes {"dimension" = %dimension}
  }
  irdl.operation @dot_general {
    %L = irdl.base "!builtin.tensor"
    %H = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    %lhs_batching_dimensions = irdl.base "#builtin.dense_array"
    %rhs_batching_dimensions = irdl.base "#builtin.dense_array"
    %lhs_contracting_dimensions = irdl.base "#builtin.dense_array"
    %rhs_contracting_dimensions = irdl.base "#builtin.dense_array"
    irdl.operands(lhs: %L, rhs: %H)
    irdl.results(result: %R)
    irdl.attributes {"lhs_batching_dimensions" = %lhs_batching_dimensions, "rhs_batching_dimensions" = %rhs_batching_dimensions, "lhs_contracting_dimensions" = %lhs_contracting_dimensions, "rhs_contracting_dimensions" = %rhs_contracting_dimensions}
  }
  irdl.operation @all_reduce {
    %T = irdl.base "!builtin.tensor"
    %kind = irdl.base "#builtin.string"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
    irdl.attributes {"kind" = %kind}
  }
  irdl.operation @all_gather {
    %T = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    %all_gather_dim = irdl.base "#builtin.integer"
    irdl.operands(operand: %T)
    irdl.results(result: %R)
    irdl.attributes {"all_gather_dim" = %all_gather_dim}
  }
  irdl.operation @reduce_scatter {
    %T = irdl.base "!builtin.tensor"
    %R = irdl.base "!builtin.tensor"
    %scatter_dimension = irdl.base "#builtin.integer"
    %kind = irdl.base "#builtin.string"
    irdl.operands(operand: %T)
    irdl.results(result: %R)
    irdl.attributes {"scatter_dimension" = %scatter_dimension, "kind" = %kind}
  }
  irdl.operation @collective_broadcast {
    %T = irdl.base "!builtin.tensor"
    irdl.operands(operand: %T)
    irdl.results(result: %T)
  }
}
