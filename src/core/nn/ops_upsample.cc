// Upsampling of aclnn (UpsampleNearest1d/2d/2dV2/3d, UpsampleNearestExact2d, UpsampleLinear1d,
// UpsampleBilinear2d, UpsampleBicubic2d, UpsampleTrilinear3d) over the op library's Resize,
// with PyTorch's source coordinates: nearest floor(dst / scale) (asymmetric, floor), nearest-
// exact floor((dst + 0.5) / scale) (half_pixel, ties up), linear and cubic half_pixel (a
// negative coordinate reads the edge, as PyTorch's clamp does) or align_corners; cubic with
// a = -0.75. The scale is in / out, or the caller's scales when all are given.
#include <fmt/ranges.h>

#include <cmath>
#include <cstring>

#include "core/nn/builder.h"
#include "core/nn/ops.h"

namespace aclsim::core::nn {
namespace {
namespace upsample_ops {

using DT = ops::DataType;

bool DtypeOk(UpsampleMode mode, DT dtype) {
  const bool floats = dtype == DT::kFloat || dtype == DT::kFloat16 || dtype == DT::kBf16;
  switch (mode) {
    case UpsampleMode::kNearest:
      return floats || dtype == DT::kDouble || dtype == DT::kUint8;
    case UpsampleMode::kNearestExact:
      return floats || dtype == DT::kUint8;
    case UpsampleMode::kLinear:
      return floats || dtype == DT::kDouble;
    case UpsampleMode::kCubic:
      return floats;
  }
  return false;
}

ops::AttrMap ResizeAttrs(UpsampleMode mode, bool align_corners) {
  switch (mode) {
    case UpsampleMode::kNearest:
      return {{"mode", std::string("nearest")},
              {"coordinate_transformation_mode", std::string("asymmetric")},
              {"nearest_mode", std::string("floor")}};
    case UpsampleMode::kNearestExact:
      return {{"mode", std::string("nearest")},
              {"coordinate_transformation_mode", std::string("half_pixel")},
              {"nearest_mode", std::string("round_prefer_ceil")}};
    case UpsampleMode::kLinear:
    case UpsampleMode::kCubic:
      return {{"mode", std::string(mode == UpsampleMode::kLinear ? "linear" : "cubic")},
              {"coordinate_transformation_mode",
               std::string(align_corners ? "align_corners" : "half_pixel")},
              {"cubic_coeff_a", -0.75f}};
  }
  return {};
}

}  // namespace upsample_ops
}  // namespace

Result<ExecutorPtr> Upsample(const char* name, UpsampleMode mode, bool align_corners,
                             const NnTensor* self, const std::vector<int64_t>& output_size,
                             const std::vector<double>& scales, const NnTensor* out) {
  using upsample_ops::DT;
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  const size_t spatial = output_size.size();
  if (x.rank() != spatial + 2) {
    return Err(StatusCode::kInvalidParam, "{}: self {} must have {} dims (N, C and {} spatial)",
               b.name(), ShapeString(x.dims), spatial + 2, spatial);
  }
  if (!upsample_ops::DtypeOk(mode, x.dtype) || z.dtype != x.dtype) {
    return Err(StatusCode::kInvalidParam,
               "{}: self is {} and out {}; that dtype is not supported "
               "here or they differ",
               b.name(), ops::DataTypeName(x.dtype), ops::DataTypeName(z.dtype));
  }
  std::vector<int64_t> want = {x.dims[0], x.dims[1]};
  for (int64_t v : output_size) {
    if (v <= 0) {
      return Err(StatusCode::kInvalidParam, "{}: outputSize {} must hold positive sizes", b.name(),
                 ShapeString(output_size));
    }
    want.push_back(v);
  }
  if (z.dims != want) {
    return Err(StatusCode::kInvalidParam, "{}: out has shape {} but must be {}", b.name(),
               ShapeString(z.dims), ShapeString(want));
  }
  bool all_scales = !scales.empty();
  for (double s : scales) all_scales = all_scales && s > 0;
  if (all_scales && scales.size() != spatial) {
    return Err(StatusCode::kInvalidParam, "{}: {} scales for {} spatial dims", b.name(),
               scales.size(), spatial);
  }
  if (all_scales && !align_corners) {
    for (size_t k = 0; k < spatial; ++k) {
      const auto expected =
          static_cast<int64_t>(std::floor(static_cast<double>(x.dims[k + 2]) * scales[k]));
      if (expected != output_size[k]) {
        return Err(StatusCode::kInvalidParam,
                   "{}: outputSize {} must be floor(input size * scale) along each spatial dim "
                   "when scales are given (scale {} of input {} gives {})",
                   b.name(), ShapeString(output_size), scales[k], x.dims[k + 2], expected);
      }
    }
  }
  if (z.numel() == 0 || x.numel() == 0) return b.Finish();
  const ops::AttrMap attrs = upsample_ops::ResizeAttrs(mode, align_corners);
  Value y;
  if (all_scales && !align_corners) {
    std::vector<float> factors = {1.0f, 1.0f};
    for (double s : scales) factors.push_back(static_cast<float>(s));
    std::vector<uint8_t> bytes(factors.size() * sizeof(float));
    std::memcpy(bytes.data(), factors.data(), bytes.size());
    const Value scale_values =
        b.ConstantBytes(std::move(bytes), DT::kFloat, {static_cast<int64_t>(factors.size())});
    ACLSIM_ASSIGN_OR_RETURN(y, b.Op1("Resize", {x, Value{}, scale_values}, attrs));
  } else {
    ACLSIM_ASSIGN_OR_RETURN(y, b.Op1("Resize", {x, Value{}, Value{}}, attrs, {{3, want}}));
  }
  ACLSIM_RETURN_IF_ERROR(b.Store(y, z));
  return b.Finish();
}

}  // namespace aclsim::core::nn
