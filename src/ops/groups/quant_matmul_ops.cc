// Matrix products with quantized weights (cann_ops.md, ops-nn's WeightQuantBatchMatmulV2):
//
//   WeightQuantBatchMatmulV2  x, weight, antiquant_scale, antiquant_offset?, bias? -> y
//                             transpose_weight:Bool=false, antiquant_group_size:Int=0,
//                             weight_bits:Int=8
//     x [M,K] f16/bf16; weight int8 [K,N] ([N,K] when transpose_weight); with weight_bits 4
//     the weight holds int4 values two to a byte, the lower nibble first, so its last dim is
//     half the logical one; antiquant_scale (and the offset, in the scale's dtype) [G,N] with
//     G = 1 (per channel) or ceil(K / antiquant_group_size) (per group); bias [N] f16/f32.
//     y [M,N] = x @ W + bias, W[k][n] = (weight[k][n] + offset[g][n]) * scale[g][n],
//     g = k / antiquant_group_size (0 when the size is 0), in x's dtype.
//
// As on the card, the weight is dequantized into x's dtype (one rounding), the cube multiplies
// with a float accumulator, the bias is added in float and y is rounded once.
#include <Eigen/Dense>
#include <algorithm>

#include "ops/kernels.h"
#include "ops/op_group.h"
#include "ops/work_builders.h"

namespace aclsim::ops {
namespace {

struct QuantShapes {
  int64_t m = 0;
  int64_t k = 0;
  int64_t n = 0;
  int64_t groups = 1;
  int64_t group_size = 0;  // 0: one group over K
};

// The logical weight dims (int4's packed last dim doubled).
std::vector<int64_t> LogicalWeightDims(const std::vector<int64_t>& stored, int64_t bits) {
  std::vector<int64_t> dims = stored;
  if (bits == 4 && !dims.empty()) dims.back() *= 2;
  return dims;
}

Result<QuantShapes> QuantShapesOf(const OpContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  const TensorDesc& weight = ctx.input(1);
  const TensorDesc& scale = ctx.input(2);
  const int64_t bits = ctx.GetInt("weight_bits");
  if (bits != 8 && bits != 4) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch, "weight_bits is {}; it must be 8 or 4", bits);
  }
  if (x.dims.size() != 2 || weight.dims.size() != 2) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "x {} and weight {} must both be 2-D",
                    DimsStr(x.dims), DimsStr(weight.dims));
  }
  const bool trans = ctx.GetBool("transpose_weight");
  const auto w = LogicalWeightDims(weight.dims, bits);
  QuantShapes s;
  s.m = x.dims[0];
  s.k = x.dims[1];
  s.n = trans ? w[0] : w[1];
  if ((trans ? w[1] : w[0]) != s.k) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "x {} and weight {} (int{}{}) have different K",
                    DimsStr(x.dims), DimsStr(w), bits, trans ? ", transposed" : "");
  }
  s.group_size = ctx.GetInt("antiquant_group_size");
  if (s.group_size < 0) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch, "antiquant_group_size {} is negative",
                    s.group_size);
  }
  s.groups = s.group_size == 0 ? 1 : (s.k + s.group_size - 1) / s.group_size;
  const std::vector<int64_t> want = {s.groups, s.n};
  for (size_t i : {size_t{2}, size_t{3}}) {
    if (!ctx.has_input(i)) continue;
    if (ctx.input(i).dims != want) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} has shape {} but must be {}",
                      ctx.InputName(i), DimsStr(ctx.input(i).dims), DimsStr(want));
    }
    if (ctx.input(i).dtype != scale.dtype) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} is {} but antiquant_scale is {}",
                      ctx.InputName(i), DataTypeName(ctx.input(i).dtype),
                      DataTypeName(scale.dtype));
    }
  }
  if (ctx.has_input(4) && ctx.input(4).dims != std::vector<int64_t>{s.n}) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "bias has shape {} but must be [{}]",
                    DimsStr(ctx.input(4).dims), s.n);
  }
  return s;
}

Status InferWeightQuantMatmul(OpContext& ctx) {
  ACLSIM_ASSIGN_OR_RETURN(QuantShapes s, QuantShapesOf(ctx));
  ctx.SetOutput(0, ctx.input(0).dtype, {s.m, s.n});
  return Status::Ok();
}

// The int8 or int4 value of logical element `index` of the stored weight.
int32_t WeightAt(const int8_t* weight, int64_t index, int64_t bits) {
  if (bits == 8) return weight[index];
  const auto byte = static_cast<uint8_t>(weight[index / 2]);
  const int32_t nibble = (index % 2 == 0) ? (byte & 0x0f) : (byte >> 4);
  return nibble >= 8 ? nibble - 16 : nibble;
}

Status RunWeightQuantMatmul(RunContext& ctx) {
  const Tensor& x = ctx.in(0);
  const Tensor& weight = ctx.in(1);
  const int64_t bits = ctx.GetInt("weight_bits");
  const bool trans = ctx.GetBool("transpose_weight");
  const int64_t m = x.dims[0];
  const int64_t k = x.dims[1];
  const int64_t n = ctx.out(0).dims[1];
  const int64_t group_size = ctx.GetInt("antiquant_group_size");
  const std::vector<float> scale = ToFloats(ctx.in(2));
  const std::vector<float> offset = ctx.has_input(3) ? ToFloats(ctx.in(3)) : std::vector<float>{};
  const bool bf16 = x.dtype == DataType::kBf16;
  // W [K,N] in x's dtype, held as float.
  using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Mat w(k, n);
  const auto* stored = weight.ptr<int8_t>();
  for (int64_t r = 0; r < k; ++r) {
    const int64_t g = group_size == 0 ? 0 : r / group_size;
    for (int64_t c = 0; c < n; ++c) {
      const int64_t index = trans ? c * k + r : r * n + c;
      const size_t q = static_cast<size_t>(g * n + c);
      float value = static_cast<float>(WeightAt(stored, index, bits));
      if (!offset.empty()) value += offset[q];
      value *= scale[q];
      w(r, c) = bf16 ? Bf16ToFloat(FloatToBf16(value)) : HalfToFloat(FloatToHalf(value));
    }
  }
  const std::vector<float> xs = ToFloats(x);
  Eigen::Map<const Mat> a(xs.data(), m, k);
  Mat y = a * w;
  if (ctx.has_input(4)) {
    const std::vector<float> bias = ToFloats(ctx.in(4));
    for (int64_t r = 0; r < m; ++r) {
      for (int64_t c = 0; c < n; ++c) y(r, c) += bias[static_cast<size_t>(c)];
    }
  }
  FromFloats(std::vector<float>(y.data(), y.data() + y.size()), ctx.out(0));
  return Status::Ok();
}

// The cube's work for M x N x K in x's dtype, reading the weight at its own width and
// dequantizing it on the vector unit.
driver::KernelWork WeightQuantMatmulWork(const OpContext& ctx, const driver::DeviceProps&,
                                         uint32_t* blocks) {
  const auto& x = ctx.input(0).dims;
  const uint64_t m = static_cast<uint64_t>(std::max<int64_t>(x[0], 1));
  const uint64_t k = static_cast<uint64_t>(std::max<int64_t>(x[1], 1));
  const uint64_t n = static_cast<uint64_t>(std::max<int64_t>(ctx.output(0).dims[1], 1));
  const uint64_t bits = static_cast<uint64_t>(ctx.GetInt("weight_bits"));
  driver::KernelWork w = MatmulWork(m, n, k, DtypeClassOf(ctx.input(0).dtype), blocks);
  const uint64_t scale_bytes = static_cast<uint64_t>(ctx.input(2).ElementCount()) * 2;
  w.gm_read_bytes = m * k * 2 + (k * n * bits + 7) / 8 + scale_bytes;
  w.vector_flops += 2 * k * n;
  return w;
}

}  // namespace

void RegisterQuantMatmulOps(OpRegistry& registry) {
  const std::vector<DataType> x_types = {DataType::kFloat16, DataType::kBf16};
  OpDef def;
  def.type = "WeightQuantBatchMatmulV2";
  def.inputs = {In("x", x_types), In("weight", {DataType::kInt8}), In("antiquant_scale", x_types),
                OptIn("antiquant_offset", x_types),
                OptIn("bias", {DataType::kFloat16, DataType::kFloat})};
  def.outputs = {Out("y", x_types)};
  def.attrs = {OptAttr("transpose_weight", AttrType::kBool, false),
               OptAttr("antiquant_group_size", AttrType::kInt, int64_t{0}),
               OptAttr("weight_bits", AttrType::kInt, int64_t{8})};
  def.engine = driver::Engine::kAiCore;
  def.infer = InferWeightQuantMatmul;
  def.run = RunWeightQuantMatmul;
  def.work = WeightQuantMatmulWork;
  registry.Add(std::move(def));
}

}  // namespace aclsim::ops
