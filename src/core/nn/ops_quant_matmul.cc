// aclnn's matrix product with quantized weights (WeightQuantBatchMatmulV2/V3) over the op
// library's fused WeightQuantBatchMatmulV2 kernel: y = x @ ((weight + offset) * scale) + bias,
// int8 or int4 weights dequantized per tensor, per channel or per group of K (aclnn_api.md).
// A weight given as the transposed view of its contiguous buffer (how frameworks pass it)
// reaches the kernel as that buffer with transpose_weight set, so int4 stays packed.
#include <fmt/ranges.h>

#include "core/nn/builder.h"
#include "core/nn/ops.h"

namespace aclsim::core::nn {
namespace {
namespace quant_matmul {

using DT = ops::DataType;

bool IsHalfType(DT dtype) { return dtype == DT::kFloat16 || dtype == DT::kBf16; }

// The weight's bytes as the kernel takes them: [K, N] or, with `transposed` set, [N, K], an
// int4 weight packed along the last of these. An int8 weight in another layout is made
// contiguous; an int4 one must come so (`packed_dim` is the dim its bytes pair along).
Result<Value> WeightOperand(Builder& b, const Value& bytes, bool int4, size_t packed_dim,
                            bool* transposed) {
  Value swapped =
      b.View(bytes, {bytes.dims[1], bytes.dims[0]}, {bytes.strides[1], bytes.strides[0]}, 0);
  if (int4) {
    *transposed = packed_dim == 0;
    const Value& operand = *transposed ? swapped : bytes;
    if (operand.contiguous()) return operand;
    return Err(StatusCode::kInvalidParam,
               "{}: an int4 weight must be contiguous or the transpose of a contiguous buffer",
               b.name());
  }
  *transposed = !bytes.contiguous() && swapped.contiguous();
  if (*transposed) return swapped;
  return b.Contiguous(bytes);
}

// antiquantScale / antiquantOffset as the kernel's [G, N] (or [1, 1] per tensor).
Result<Value> GroupTable(Builder& b, const Value& value, const char* what, int64_t groups,
                         int64_t n, int64_t group_size) {
  const std::vector<int64_t>& d = value.dims;
  const bool per_tensor = value.numel() == 1 && d.size() <= 2;
  const bool per_channel = group_size == 0 && ((d.size() == 1 && d[0] == n) ||
                                               (d.size() == 2 && d[0] == 1 && d[1] == n));
  const bool per_group = group_size > 0 && d.size() == 2 && d[0] == groups && d[1] == n;
  if (!per_tensor && !per_channel && !per_group) {
    return Err(StatusCode::kInvalidParam,
               "{}: {} has shape {}; with antiquantGroupSize {} it must be (1), (1, 1){}", b.name(),
               what, ShapeString(d), group_size,
               group_size == 0 ? fmt::format(", ({}) or (1, {})", n, n)
                               : fmt::format(" or ({}, {})", groups, n));
  }
  ACLSIM_ASSIGN_OR_RETURN(Value dense, b.Contiguous(value));
  return b.Reshape(dense,
                   per_tensor ? std::vector<int64_t>{1, 1} : std::vector<int64_t>{groups, n});
}

}  // namespace quant_matmul
}  // namespace

Result<ExecutorPtr> WeightQuantMatmul(const char* name, const WeightQuantArgs& args) {
  using namespace quant_matmul;  // NOLINT(google-build-using-namespace)
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(args.x, "x"));
  size_t packed_dim = 1;
  ACLSIM_ASSIGN_OR_RETURN(Value w, b.InputInt4(args.weight, "weight", &packed_dim));
  ACLSIM_ASSIGN_OR_RETURN(Value scale, b.Input(args.antiquant_scale, "antiquantScale"));
  ACLSIM_ASSIGN_OR_RETURN(Value offset,
                          b.Input(args.antiquant_offset, "antiquantOffsetOptional", true));
  ACLSIM_ASSIGN_OR_RETURN(Value bias, b.Input(args.bias, "biasOptional", true));
  ACLSIM_ASSIGN_OR_RETURN(Value y, b.Output(args.y, "y"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (args.quant_scale != nullptr || args.quant_offset != nullptr) {
    return Err(StatusCode::kInvalidParam,
               "{}: quantScaleOptional / quantOffsetOptional (an int8 y) are not supported by "
               "aclsim yet; pass NULL for a float16 or bfloat16 y",
               b.name());
  }
  if (!IsHalfType(x.dtype)) {
    return Err(StatusCode::kInvalidParam, "{}: x is {}; it must be float16 or bfloat16", b.name(),
               ops::DataTypeName(x.dtype));
  }
  const bool int4 = args.weight->dtype == DT::kInt4;
  if (args.weight->dtype != DT::kInt8 && !int4) {
    return Err(StatusCode::kInvalidParam, "{}: weight is {}; it must be int8 or int4{}", b.name(),
               ops::DataTypeName(args.weight->dtype),
               args.weight->dtype == DT::kInt32 ? " (int32-packed int4 is not supported yet)" : "");
  }
  if (args.weight->format != ops::Format::kNd) {
    return Err(StatusCode::kInvalidParam,
               "{}: weight has format {}; aclsim supports ND weights here (FRACTAL_NZ not yet)",
               b.name(), ops::FormatName(args.weight->format));
  }
  if (x.rank() != 2 || args.weight->dims.size() != 2) {
    return Err(StatusCode::kInvalidParam, "{}: x {} and weight {} must be 2-D", b.name(),
               ShapeString(x.dims), ShapeString(args.weight->dims));
  }
  const int64_t m = x.dims[0];
  const int64_t k = x.dims[1];
  const int64_t n = args.weight->dims[1];
  if (args.weight->dims[0] != k) {
    return Err(StatusCode::kInvalidParam, "{}: x {} and weight {} have different K", b.name(),
               ShapeString(x.dims), ShapeString(args.weight->dims));
  }
  const int64_t group = args.group_size;
  if (group != 0 && (group % 32 != 0 || group < 32 || group > k - 1)) {
    return Err(StatusCode::kInvalidParam,
               "{}: antiquantGroupSize is {}; it must be 0 or a multiple of 32 in [32, K - 1 = {}]",
               b.name(), group, k - 1);
  }
  if (y.dtype != x.dtype || y.dims != std::vector<int64_t>{m, n}) {
    return Err(StatusCode::kInvalidParam, "{}: y is {} {} but must be {} {}", b.name(),
               ops::DataTypeName(y.dtype), ShapeString(y.dims), ops::DataTypeName(x.dtype),
               ShapeString({m, n}));
  }
  if (scale.dtype != x.dtype) {
    return Err(StatusCode::kInvalidParam, "{}: antiquantScale is {} but x is {}; they must match{}",
               b.name(), ops::DataTypeName(scale.dtype), ops::DataTypeName(x.dtype),
               scale.dtype == DT::kUint64 || scale.dtype == DT::kInt64
                   ? " (uint64/int64 scales for an int8 y are not supported yet)"
                   : "");
  }
  if (offset.present() && offset.dtype != x.dtype) {
    return Err(StatusCode::kInvalidParam, "{}: antiquantOffsetOptional is {} but x is {}", b.name(),
               ops::DataTypeName(offset.dtype), ops::DataTypeName(x.dtype));
  }
  if (bias.present()) {
    if (bias.dtype != DT::kFloat16 && bias.dtype != DT::kFloat) {
      return Err(StatusCode::kInvalidParam, "{}: biasOptional is {}; it must be float16 or float32",
                 b.name(), ops::DataTypeName(bias.dtype));
    }
    if (bias.numel() != n || bias.rank() > 2 || (bias.rank() == 2 && bias.dims[0] != 1)) {
      return Err(StatusCode::kInvalidParam,
                 "{}: biasOptional has shape {}; it must be ({}) or (1, {})", b.name(),
                 ShapeString(bias.dims), n, n);
    }
  }
  if (m == 0 || n == 0) return b.Finish();
  if (k == 0) return Err(StatusCode::kInvalidParam, "{}: K is 0", b.name());
  const int64_t groups = group == 0 ? 1 : (k + group - 1) / group;
  ACLSIM_ASSIGN_OR_RETURN(scale, GroupTable(b, scale, "antiquantScale", groups, n, group));
  if (offset.present()) {
    ACLSIM_ASSIGN_OR_RETURN(offset,
                            GroupTable(b, offset, "antiquantOffsetOptional", groups, n, group));
    if (offset.dims != scale.dims) {
      return Err(StatusCode::kInvalidParam,
                 "{}: antiquantOffsetOptional and antiquantScale must have the same shape",
                 b.name());
    }
  }
  if (bias.present()) {
    ACLSIM_ASSIGN_OR_RETURN(bias, b.Contiguous(bias));
    ACLSIM_ASSIGN_OR_RETURN(bias, b.Reshape(bias, {n}));
  }
  bool transposed = false;
  ACLSIM_ASSIGN_OR_RETURN(Value weight, WeightOperand(b, w, int4, packed_dim, &transposed));
  ACLSIM_ASSIGN_OR_RETURN(Value product,
                          b.Op1("WeightQuantBatchMatmulV2", {x, weight, scale, offset, bias},
                                {{"transpose_weight", transposed},
                                 {"antiquant_group_size", group},
                                 {"weight_bits", int64_t{int4 ? 4 : 8}}}));
  ACLSIM_RETURN_IF_ERROR(b.Store(product, y));
  return b.Finish();
}

}  // namespace aclsim::core::nn
