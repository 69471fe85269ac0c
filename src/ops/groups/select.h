// Helpers of the index and selection op groups (gather_ops.cc, select_ops.cc): scalar value
// inputs and axes taken from an input or an attribute.
//
// Thread-safety: pure functions.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ops/op_def.h"

namespace aclsim::ops::select {

// Reads the first value of a value input (scalar or one-element tensor); kOpInputNotMatch
// naming it otherwise.
inline Result<int64_t> ScalarInput(const OpContext& ctx, size_t i) {
  ACLSIM_ASSIGN_OR_RETURN(auto values, ctx.InputInts(i));
  if (values.size() != 1) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} must hold one value but holds {}",
                    ctx.InputName(i), values.size());
  }
  return values[0];
}

inline int64_t RunScalar(const RunContext& ctx, size_t i) {
  auto values = ctx.InputInts(i);
  return values.empty() ? 0 : values[0];
}

// Normalises an axis taken from input `i` (kOpInputNotMatch naming it) or from attribute
// `attr` (kOpAttrNotMatch naming it).
inline Result<int64_t> CheckAxis(const OpContext& ctx, int64_t axis, int64_t rank, bool from_input,
                                 size_t input, const char* attr) {
  const int64_t bound = std::max<int64_t>(rank, 1);
  if (axis < -bound || axis >= bound) {
    if (from_input) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} value {} is out of range for {} of rank {}",
                      ctx.InputName(input), axis, ctx.InputName(0), rank);
    }
    return ctx.Fail(StatusCode::kOpAttrNotMatch,
                    "attribute '{}' value {} is out of range for {} of rank {}", attr, axis,
                    ctx.InputName(0), rank);
  }
  return axis < 0 ? axis + bound : axis;
}

inline int64_t NormAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + std::max<int64_t>(rank, 1) : axis;
}

}  // namespace aclsim::ops::select
