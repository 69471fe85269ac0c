// Argument checks the aclnn operator builders share: each returns kInvalidParam with a
// message naming the operator (the Builder's name) and the argument.
#pragma once

#include <fmt/ranges.h>

#include "core/nn/builder.h"

namespace aclsim::core::nn::checks {

// float32, float16 or bfloat16: the dtypes of the norms, matrix products and activations.
inline bool IsNnFloat(ops::DataType dtype) {
  return dtype == ops::DataType::kFloat || dtype == ops::DataType::kFloat16 ||
         dtype == ops::DataType::kBf16;
}

inline Status RequireNnFloat(const Builder& b, const Value& v, const char* what) {
  if (IsNnFloat(v.dtype)) return Status::Ok();
  return Err(StatusCode::kInvalidParam, "{}: {} is {}; it must be float32, float16 or bfloat16",
             b.name(), what, ops::DataTypeName(v.dtype));
}

inline Status RequireSameShape(const Builder& b, const Value& a, const Value& out,
                               const char* a_what, const char* out_what) {
  if (a.dims == out.dims) return Status::Ok();
  return Err(StatusCode::kInvalidParam, "{}: {} has shape [{}] but {} has [{}]", b.name(), a_what,
             fmt::join(a.dims, ", "), out_what, fmt::join(out.dims, ", "));
}

inline Status RequireSameDtype(const Builder& b, const Value& a, const Value& out,
                               const char* a_what, const char* out_what) {
  if (a.dtype == out.dtype) return Status::Ok();
  return Err(StatusCode::kInvalidParam, "{}: {} is {} but {} is {}; they must match", b.name(),
             out_what, ops::DataTypeName(out.dtype), a_what, ops::DataTypeName(a.dtype));
}

}  // namespace aclsim::core::nn::checks
