// The dtype rules of the aclnn operators (../shared/reference/aclnn_api.md 3.2-3.5):
// tensor-tensor promotion, the casts an output accepts, and broadcasting.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ops/types.h"

namespace aclsim::core::nn {

// The dtype two tensors compute in (PyTorch-like: bool < integers < floats; mixed f16/bf16
// is f32; u16/u32/u64 pair only with themselves); nullopt when they do not promote.
std::optional<ops::DataType> Promote(ops::DataType a, ops::DataType b);
// The dtype a tensor and a scalar compute in (aclnn_api.md 3.3): a scalar of the tensor's
// category or a lower one never widens it; a floating scalar with an integer or bool tensor is
// f32; an integer scalar with a bool tensor is the scalar's dtype.
std::optional<ops::DataType> PromoteWithScalar(ops::DataType tensor, ops::DataType scalar);
// Whether a result of dtype `from` may be written to an output of dtype `to` (anything but a
// non-bool into bool, and only dtypes aclsim computes).
bool CanCastTo(ops::DataType from, ops::DataType to);
bool IsFloating(ops::DataType dtype);
bool IsIntegral(ops::DataType dtype);  // bool excluded
// NumPy broadcasting of two shapes; nullopt when a pair of dims is neither equal nor 1.
std::optional<std::vector<int64_t>> BroadcastShape(const std::vector<int64_t>& a,
                                                   const std::vector<int64_t>& b);

}  // namespace aclsim::core::nn
