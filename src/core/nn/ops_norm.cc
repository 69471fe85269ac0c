// Layer and group normalisation of aclnn over the op library's LayerNormV3 (y, mean and rstd
// in f32): LayerNorm normalises the trailing dims normalizedShape names; GroupNorm
// normalises each group of C / group channels of every sample, as a LayerNorm over a
// (N, group, C / group * HxW) view, then scales and shifts per channel in f32.
#include <fmt/ranges.h>

#include <algorithm>

#include "core/nn/builder.h"
#include "core/nn/checks.h"
#include "core/nn/ops.h"

namespace aclsim::core::nn {
namespace {
namespace norm_ops {

using DT = ops::DataType;

// A statistics output (mean / rstd): float32 or the input's dtype, of shape `dims`.
Status CheckStat(const Builder& b, const Value& stat, const char* what, DT input,
                 const std::vector<int64_t>& dims) {
  if (!stat.present()) return Status::Ok();
  if ((stat.dtype != DT::kFloat && stat.dtype != input) || stat.dims != dims) {
    return Err(StatusCode::kInvalidParam,
               "{}: {} is {} of shape {}; it must be {} or float32 of "
               "shape {}",
               b.name(), what, ops::DataTypeName(stat.dtype), ShapeString(stat.dims),
               ops::DataTypeName(input), ShapeString(dims));
  }
  return Status::Ok();
}

// A per-channel parameter (weight / bias / gamma / beta): the input's dtype or float32, of
// shape `dims`.
Status CheckParam(const Builder& b, const Value& p, const char* what, DT input,
                  const std::vector<int64_t>& dims) {
  if (!p.present()) return Status::Ok();
  if ((p.dtype != DT::kFloat && p.dtype != input) || p.dims != dims) {
    return Err(StatusCode::kInvalidParam,
               "{}: {} is {} of shape {}; it must be {} or float32 of "
               "shape {}",
               b.name(), what, ops::DataTypeName(p.dtype), ShapeString(p.dims),
               ops::DataTypeName(input), ShapeString(dims));
  }
  return Status::Ok();
}

}  // namespace norm_ops
}  // namespace

Result<ExecutorPtr> LayerNorm(const char* name, const NnTensor* input,
                              const std::vector<int64_t>& normalized_shape, const NnTensor* weight,
                              const NnTensor* bias, double eps, const NnTensor* out,
                              const NnTensor* mean_out, const NnTensor* rstd_out,
                              int32_t impl_mode) {
  using norm_ops::DT;
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(input, "input"));
  ACLSIM_ASSIGN_OR_RETURN(Value w, b.Input(weight, "weightOptional", true));
  ACLSIM_ASSIGN_OR_RETURN(Value bi, b.Input(bias, "biasOptional", true));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_ASSIGN_OR_RETURN(Value mean, b.Output(mean_out, "meanOutOptional", true));
  ACLSIM_ASSIGN_OR_RETURN(Value rstd, b.Output(rstd_out, "rstdOutOptional", true));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_RETURN_IF_ERROR(checks::RequireNnFloat(b, x, "input"));
  ACLSIM_RETURN_IF_ERROR(checks::RequireSameShape(b, x, z, "input", "out"));
  ACLSIM_RETURN_IF_ERROR(checks::RequireSameDtype(b, x, z, "input", "out"));
  if (impl_mode < 0 || impl_mode > 2) {
    return Err(StatusCode::kInvalidParam,
               "{}: implMode is {}; it must be 0 (high precision), 1 (high performance) or 2 "
               "(keep float16)",
               b.name(), impl_mode);
  }
  const size_t r = normalized_shape.size();
  if (x.rank() < 1 || x.rank() > 8 || r == 0 || r > x.rank() ||
      !std::equal(normalized_shape.begin(), normalized_shape.end(),
                  x.dims.end() - static_cast<long>(r))) {
    return Err(StatusCode::kInvalidParam,
               "{}: normalizedShape {} must be 1 to {} trailing dims of input {} (1 to 8 dims)",
               b.name(), ShapeString(normalized_shape), x.rank(), ShapeString(x.dims));
  }
  ACLSIM_RETURN_IF_ERROR(norm_ops::CheckParam(b, w, "weightOptional", x.dtype, normalized_shape));
  ACLSIM_RETURN_IF_ERROR(norm_ops::CheckParam(b, bi, "biasOptional", x.dtype, normalized_shape));
  if (impl_mode == 2) {
    for (const auto& [v, what] : {std::pair{&x, "input"}, std::pair{&w, "weightOptional"},
                                  std::pair{&bi, "biasOptional"}}) {
      if (v->present() && v->dtype != DT::kFloat16) {
        return Err(StatusCode::kInvalidParam, "{}: implMode 2 keeps float16, but {} is {}",
                   b.name(), what, ops::DataTypeName(v->dtype));
      }
    }
  }
  std::vector<int64_t> stat_dims = x.dims;
  const auto axis = static_cast<int64_t>(x.rank() - r);
  for (size_t k = x.rank() - r; k < x.rank(); ++k) stat_dims[k] = 1;
  ACLSIM_RETURN_IF_ERROR(norm_ops::CheckStat(b, mean, "meanOutOptional", x.dtype, stat_dims));
  ACLSIM_RETURN_IF_ERROR(norm_ops::CheckStat(b, rstd, "rstdOutOptional", x.dtype, stat_dims));
  if (z.numel() == 0) return b.Finish();
  // The kernel takes parameters in the input's dtype or f32, both the same.
  const DT param =
      (w.present() && w.dtype == DT::kFloat) || (bi.present() && bi.dtype == DT::kFloat)
          ? DT::kFloat
          : x.dtype;
  ACLSIM_ASSIGN_OR_RETURN(w, b.Cast(w, param));
  ACLSIM_ASSIGN_OR_RETURN(bi, b.Cast(bi, param));
  const size_t outputs = mean.present() || rstd.present() ? 3 : 1;
  ACLSIM_ASSIGN_OR_RETURN(std::vector<Value> results, b.Op("LayerNormV3", {x, w, bi},
                                                           {{"begin_norm_axis", axis},
                                                            {"begin_params_axis", axis},
                                                            {"epsilon", static_cast<float>(eps)}},
                                                           outputs));
  ACLSIM_RETURN_IF_ERROR(b.Store(results[0], z));
  if (mean.present()) ACLSIM_RETURN_IF_ERROR(b.Store(results[1], mean));
  if (rstd.present()) ACLSIM_RETURN_IF_ERROR(b.Store(results[2], rstd));
  return b.Finish();
}

Result<ExecutorPtr> GroupNorm(const char* name, const NnTensor* self, const NnTensor* gamma,
                              const NnTensor* beta, int64_t n, int64_t c, int64_t hxw,
                              int64_t group, double eps, const NnTensor* out,
                              const NnTensor* mean_out, const NnTensor* rstd_out) {
  using norm_ops::DT;
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value g, b.Input(gamma, "gamma", true));
  ACLSIM_ASSIGN_OR_RETURN(Value bt, b.Input(beta, "beta", true));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_ASSIGN_OR_RETURN(Value mean, b.Output(mean_out, "meanOut", true));
  ACLSIM_ASSIGN_OR_RETURN(Value rstd, b.Output(rstd_out, "rstdOut", true));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_RETURN_IF_ERROR(checks::RequireNnFloat(b, x, "self"));
  ACLSIM_RETURN_IF_ERROR(checks::RequireSameShape(b, x, z, "self", "out"));
  ACLSIM_RETURN_IF_ERROR(checks::RequireSameDtype(b, x, z, "self", "out"));
  int64_t spatial = 1;
  for (size_t k = 2; k < x.rank(); ++k) spatial *= x.dims[k];
  if (x.rank() < 2 || x.rank() > 8 || x.dims[0] != n || x.dims[1] != c || spatial != hxw) {
    return Err(StatusCode::kInvalidParam,
               "{}: self {} must be (N, C, *) with 2 to 8 dims, N = {}, C = {} and the rest "
               "holding HxW = {} elements",
               b.name(), ShapeString(x.dims), n, c, hxw);
  }
  if (group <= 0 || c % group != 0) {
    return Err(StatusCode::kInvalidParam, "{}: group is {}; it must be positive and divide C = {}",
               b.name(), group, c);
  }
  ACLSIM_RETURN_IF_ERROR(norm_ops::CheckParam(b, g, "gamma", x.dtype, {c}));
  ACLSIM_RETURN_IF_ERROR(norm_ops::CheckParam(b, bt, "beta", x.dtype, {c}));
  ACLSIM_RETURN_IF_ERROR(norm_ops::CheckStat(b, mean, "meanOut", x.dtype, {n, group}));
  ACLSIM_RETURN_IF_ERROR(norm_ops::CheckStat(b, rstd, "rstdOut", x.dtype, {n, group}));
  if (z.numel() == 0) return b.Finish();
  // Normalised in f32 over (N, group, C / group * HxW); the affine part per channel in f32.
  ACLSIM_ASSIGN_OR_RETURN(Value x32, b.Cast(x, DT::kFloat));
  ACLSIM_ASSIGN_OR_RETURN(Value grouped, b.Reshape(x32, {n, group, c / group * hxw}));
  ACLSIM_ASSIGN_OR_RETURN(std::vector<Value> results,
                          b.Op("LayerNormV3", {grouped, Value{}, Value{}},
                               {{"begin_norm_axis", int64_t{2}},
                                {"begin_params_axis", int64_t{2}},
                                {"epsilon", static_cast<float>(eps)}},
                               3));
  ACLSIM_ASSIGN_OR_RETURN(Value y, b.Reshape(results[0], {n, c, hxw}));
  if (g.present()) {
    ACLSIM_ASSIGN_OR_RETURN(Value g32, b.Cast(g, DT::kFloat));
    ACLSIM_ASSIGN_OR_RETURN(g32, b.Reshape(g32, {c, 1}));
    ACLSIM_ASSIGN_OR_RETURN(y, b.Op1("Mul", {y, g32}));
  }
  if (bt.present()) {
    ACLSIM_ASSIGN_OR_RETURN(Value b32, b.Cast(bt, DT::kFloat));
    ACLSIM_ASSIGN_OR_RETURN(b32, b.Reshape(b32, {c, 1}));
    ACLSIM_ASSIGN_OR_RETURN(y, b.Op1("Add", {y, b32}));
  }
  ACLSIM_ASSIGN_OR_RETURN(y, b.Reshape(y, z.dims));
  ACLSIM_RETURN_IF_ERROR(b.Store(y, z));
  for (const auto& [stat, index] : {std::pair{&mean, size_t{1}}, std::pair{&rstd, size_t{2}}}) {
    if (!stat->present()) continue;
    ACLSIM_ASSIGN_OR_RETURN(Value v, b.Reshape(results[index], {n, group}));
    ACLSIM_RETURN_IF_ERROR(b.Store(v, *stat));
  }
  return b.Finish();
}

}  // namespace aclsim::core::nn
