// Language-model aclnn operators: triangles, RMS norm, rotary embedding and index copy, each
// over one op-library kernel (groups/llm_ops.cc) with the aclnn argument rules around it.
#include <fmt/ranges.h>

#include <algorithm>

#include "core/nn/builder.h"
#include "core/nn/checks.h"
#include "core/nn/ops.h"
#include "core/nn/promote.h"

namespace aclsim::core::nn {
namespace {

using DT = ops::DataType;

using checks::RequireNnFloat;
using checks::RequireSameShape;

}  // namespace

Result<ExecutorPtr> Triangle(const char* name, bool lower, const NnTensor* self, int64_t diagonal,
                             const NnTensor* out) {
  Builder b(name);
  const bool in_place = out == nullptr;
  const char* out_what = in_place ? "selfRef" : "out";
  Value x;
  if (in_place) {
    ACLSIM_ASSIGN_OR_RETURN(x, b.InOut(self, "selfRef"));
  } else {
    ACLSIM_ASSIGN_OR_RETURN(x, b.Input(self, "self"));
  }
  Value z = x;
  if (!in_place) {
    ACLSIM_ASSIGN_OR_RETURN(z, b.Output(out, "out"));
  }
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_RETURN_IF_ERROR(RequireSameShape(b, x, z, "self", out_what));
  if (x.dtype != z.dtype) {
    return Err(StatusCode::kInvalidParam, "{}: self is {} but {} is {}", b.name(),
               ops::DataTypeName(x.dtype), out_what, ops::DataTypeName(z.dtype));
  }
  if (x.rank() < 2) {
    return Err(StatusCode::kInvalidParam, "{}: self of shape [{}] needs at least 2 dims", b.name(),
               fmt::join(x.dims, ", "));
  }
  if (z.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(Value result,
                          b.Op1(lower ? "Tril" : "Triu", {x}, {{"diagonal", diagonal}}));
  ACLSIM_RETURN_IF_ERROR(b.Store(result, z));
  return b.Finish();
}

Result<ExecutorPtr> RmsNorm(const char* name, const NnTensor* x_tensor, const NnTensor* gamma,
                            double epsilon, const NnTensor* y_tensor, const NnTensor* rstd_tensor) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(x_tensor, "x"));
  ACLSIM_ASSIGN_OR_RETURN(Value g, b.Input(gamma, "gamma"));
  ACLSIM_ASSIGN_OR_RETURN(Value y, b.Output(y_tensor, "yOut"));
  ACLSIM_ASSIGN_OR_RETURN(Value rstd, b.Output(rstd_tensor, "rstdOut", true));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_RETURN_IF_ERROR(RequireNnFloat(b, x, "x"));
  ACLSIM_RETURN_IF_ERROR(RequireNnFloat(b, g, "gamma"));
  ACLSIM_RETURN_IF_ERROR(RequireNnFloat(b, y, "yOut"));
  ACLSIM_RETURN_IF_ERROR(RequireSameShape(b, x, y, "x", "yOut"));
  if (x.rank() < 1 || x.rank() > 8) {
    return Err(StatusCode::kInvalidParam, "{}: x has {} dims; 1 to 8 are supported", b.name(),
               x.rank());
  }
  const size_t r = g.rank();
  if (r == 0 || r > x.rank() ||
      !std::equal(g.dims.begin(), g.dims.end(), x.dims.end() - static_cast<long>(r))) {
    return Err(StatusCode::kInvalidParam,
               "{}: gamma of shape [{}] must be the trailing dims of x [{}]", b.name(),
               fmt::join(g.dims, ", "), fmt::join(x.dims, ", "));
  }
  std::vector<int64_t> stat = x.dims;
  for (size_t k = x.rank() - r; k < x.rank(); ++k) stat[k] = 1;
  // rstdOut: x's dims with gamma's set to 1, or without them (as llama.cpp passes it).
  const std::vector<int64_t> reduced(x.dims.begin(), x.dims.end() - static_cast<long>(r));
  if (rstd.present()) {
    if (rstd.dtype != DT::kFloat || (rstd.dims != stat && rstd.dims != reduced)) {
      return Err(StatusCode::kInvalidParam,
                 "{}: rstdOut is {} of shape [{}]; it must be float32 of shape [{}] or [{}]",
                 b.name(), ops::DataTypeName(rstd.dtype), fmt::join(rstd.dims, ", "),
                 fmt::join(stat, ", "), fmt::join(reduced, ", "));
    }
  }
  if (y.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(Value gx, b.Cast(g, x.dtype));
  ACLSIM_ASSIGN_OR_RETURN(std::vector<Value> results,
                          b.Op("RmsNorm", {x, gx}, {{"epsilon", static_cast<float>(epsilon)}}, 2));
  ACLSIM_RETURN_IF_ERROR(b.Store(results[0], y));
  if (rstd.present()) {
    ACLSIM_ASSIGN_OR_RETURN(Value stats, b.Reshape(results[1], rstd.dims));
    ACLSIM_RETURN_IF_ERROR(b.Store(stats, rstd));
  }
  return b.Finish();
}

Result<ExecutorPtr> RotaryEmbedding(const char* name, const NnTensor* x_tensor,
                                    const NnTensor* cos_tensor, const NnTensor* sin_tensor,
                                    int64_t mode, const NnTensor* out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(x_tensor, "x"));
  ACLSIM_ASSIGN_OR_RETURN(Value c, b.Input(cos_tensor, "cos"));
  ACLSIM_ASSIGN_OR_RETURN(Value s, b.Input(sin_tensor, "sin"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (mode != 0 && mode != 1) {
    return Err(StatusCode::kInvalidParam, "{}: mode is {}; it must be 0 (half) or 1 (interleave)",
               b.name(), mode);
  }
  ACLSIM_RETURN_IF_ERROR(RequireNnFloat(b, x, "x"));
  for (const auto& [v, what] : {std::pair{&c, "cos"}, std::pair{&s, "sin"}}) {
    if (v->dtype != x.dtype) {
      return Err(StatusCode::kInvalidParam, "{}: {} is {} but x is {}", b.name(), what,
                 ops::DataTypeName(v->dtype), ops::DataTypeName(x.dtype));
    }
  }
  if (z.dtype != x.dtype) {
    return Err(StatusCode::kInvalidParam, "{}: out is {} but x is {}", b.name(),
               ops::DataTypeName(z.dtype), ops::DataTypeName(x.dtype));
  }
  ACLSIM_RETURN_IF_ERROR(RequireSameShape(b, x, z, "x", "out"));
  if (z.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(Value result,
                          b.Op1("RotaryPositionEmbedding", {x, c, s}, {{"mode", mode}}));
  ACLSIM_RETURN_IF_ERROR(b.Store(result, z));
  return b.Finish();
}

Result<ExecutorPtr> IndexCopy(const char* name, const NnTensor* self, int64_t dim,
                              const NnTensor* index, const NnTensor* source) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.InOut(self, "selfRef"));
  ACLSIM_ASSIGN_OR_RETURN(Value idx, b.Input(index, "index"));
  ACLSIM_ASSIGN_OR_RETURN(Value src, b.Input(source, "source"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (idx.dtype != DT::kInt32 && idx.dtype != DT::kInt64) {
    return Err(StatusCode::kInvalidParam, "{}: index is {}; it must be int32 or int64", b.name(),
               ops::DataTypeName(idx.dtype));
  }
  if (src.dtype != z.dtype) {
    return Err(StatusCode::kInvalidParam, "{}: source is {} but selfRef is {}", b.name(),
               ops::DataTypeName(src.dtype), ops::DataTypeName(z.dtype));
  }
  if (idx.numel() == 0 || z.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(Value result, b.Op1("InplaceIndexCopy", {z, idx, src}, {{"dim", dim}}));
  ACLSIM_RETURN_IF_ERROR(b.Store(result, z));
  return b.Finish();
}

}  // namespace aclsim::core::nn
