// First phases of the comparison, maximum / minimum, power and clamp aclnn operators
// (core/nn/ops.h builds them): Eq/Ne/Gt/Ge/Lt/Le with tensor or scalar other and in place,
// Maximum, Minimum, Pow (tensor-scalar, scalar-tensor, tensor-tensor), Clamp and its forms.
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_floor_divide.h"
#include "aclnnop/aclnn_fmod_tensor.h"
#include "aclnnop/aclnn_ge_tensor.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_logical_and.h"
#include "aclnnop/aclnn_logical_or.h"
#include "aclnnop/aclnn_logical_xor.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_remainder.h"
#include "aclnnop/aclnn_s_where.h"
#include "api/aclnn/nn_call.h"
#include "core/nn/ops.h"

using aclsim::Result;
namespace nn = aclsim::core::nn;
namespace api = aclsim::api;

namespace {

using K = nn::BinaryKind;

// One side of a binary operator as the caller gave it.
struct Side {
  const aclTensor* tensor = nullptr;
  const aclScalar* scalar = nullptr;
  bool is_scalar = false;
};
Side T(const aclTensor* t) { return {t, nullptr, false}; }
Side S(const aclScalar* s) { return {nullptr, s, true}; }

aclnnStatus BinaryCall(const char* api_name, K kind, Side self, Side other, const aclTensor* out,
                       bool in_place, uint64_t* workspace_size, aclOpExecutor** executor) {
  return api::FirstPhase(api_name, workspace_size, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    const char* self_what = in_place ? "selfRef" : "self";
    const char* other_what = kind == K::kPow ? "exponent" : "other";
    const nn::NnTensor* x = nullptr;
    const nn::NnScalar* xs = nullptr;
    const nn::NnTensor* y = nullptr;
    const nn::NnScalar* ys = nullptr;
    if (self.is_scalar) {
      ACLSIM_ASSIGN_OR_RETURN(xs, args.Scalar(self.scalar, self_what));
    } else {
      ACLSIM_ASSIGN_OR_RETURN(x, args.Tensor(self.tensor, self_what));
    }
    if (other.is_scalar) {
      ACLSIM_ASSIGN_OR_RETURN(ys, args.Scalar(other.scalar, other_what));
    } else {
      ACLSIM_ASSIGN_OR_RETURN(y, args.Tensor(other.tensor, other_what));
    }
    const nn::NnTensor* z = nullptr;
    if (!in_place) {
      ACLSIM_ASSIGN_OR_RETURN(z, args.Tensor(out, "out"));
    }
    return nn::Binary(api_name, kind, x, xs, y, ys, z);
  });
}

aclnnStatus ClampCall(const char* api_name, const aclTensor* self, Side lo, bool has_lo, Side hi,
                      bool has_hi, const aclTensor* out, bool in_place, uint64_t* workspace_size,
                      aclOpExecutor** executor) {
  return api::FirstPhase(api_name, workspace_size, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, in_place ? "selfRef" : "self"));
    const nn::NnTensor* lt = nullptr;
    const nn::NnScalar* ls = nullptr;
    const nn::NnTensor* ht = nullptr;
    const nn::NnScalar* hs = nullptr;
    // Clamp takes either bound as NULL (not both); the one-bound forms require theirs.
    const bool optional = has_lo && has_hi;
    if (has_lo && lo.is_scalar) {
      ACLSIM_ASSIGN_OR_RETURN(ls, args.Scalar(lo.scalar, "clipValueMin", optional));
    } else if (has_lo) {
      ACLSIM_ASSIGN_OR_RETURN(lt, args.Tensor(lo.tensor, "clipValueMin", optional));
    }
    if (has_hi && hi.is_scalar) {
      ACLSIM_ASSIGN_OR_RETURN(hs, args.Scalar(hi.scalar, "clipValueMax", optional));
    } else if (has_hi) {
      ACLSIM_ASSIGN_OR_RETURN(ht, args.Tensor(hi.tensor, "clipValueMax", optional));
    }
    const nn::NnTensor* z = nullptr;
    if (!in_place) {
      ACLSIM_ASSIGN_OR_RETURN(z, args.Tensor(out, "out"));
    }
    return nn::Clamp(api_name, x, lt, ls, ht, hs, z);
  });
}

aclnnStatus LogicalCall(const char* api_name, nn::LogicalKind kind, const aclTensor* self,
                        const aclTensor* other, const aclTensor* out, bool in_place,
                        uint64_t* workspace_size, aclOpExecutor** executor) {
  return api::FirstPhase(api_name, workspace_size, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, in_place ? "selfRef" : "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto y, args.Tensor(other, "other"));
    const nn::NnTensor* z = nullptr;
    if (!in_place) {
      ACLSIM_ASSIGN_OR_RETURN(z, args.Tensor(out, "out"));
    }
    return nn::Logical(api_name, kind, x, y, z);
  });
}

}  // namespace

extern "C" {

#define ACLSIM_COMPARE(Tensor, Scalar, Kind)                                                   \
  aclnnStatus aclnn##Tensor##GetWorkspaceSize(const aclTensor* self, const aclTensor* other,   \
                                              aclTensor* out, uint64_t* workspaceSize,         \
                                              aclOpExecutor** executor) {                      \
    return BinaryCall(__func__, Kind, T(self), T(other), out, false, workspaceSize, executor); \
  }                                                                                            \
  aclnnStatus aclnn##Scalar##GetWorkspaceSize(const aclTensor* self, const aclScalar* other,   \
                                              aclTensor* out, uint64_t* workspaceSize,         \
                                              aclOpExecutor** executor) {                      \
    return BinaryCall(__func__, Kind, T(self), S(other), out, false, workspaceSize, executor); \
  }
ACLSIM_COMPARE(EqTensor, EqScalar, K::kEqual)
ACLSIM_COMPARE(NeTensor, NeScalar, K::kNotEqual)
ACLSIM_COMPARE(GtTensor, GtScalar, K::kGreater)
ACLSIM_COMPARE(GeTensor, GeScalar, K::kGreaterEqual)
ACLSIM_COMPARE(LtTensor, LtScalar, K::kLess)
ACLSIM_COMPARE(LeTensor, LeScalar, K::kLessEqual)
#undef ACLSIM_COMPARE

aclnnStatus aclnnInplaceEqTensorGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* other,
                                                 uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  return BinaryCall(__func__, K::kEqual, T(selfRef), T(other), nullptr, true, workspaceSize,
                    executor);
}

aclnnStatus aclnnInplaceEqScalarGetWorkspaceSize(const aclTensor* selfRef, const aclScalar* other,
                                                 uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  return BinaryCall(__func__, K::kEqual, T(selfRef), S(other), nullptr, true, workspaceSize,
                    executor);
}

aclnnStatus aclnnMaximumGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                         aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  return BinaryCall(__func__, K::kMaximum, T(self), T(other), out, false, workspaceSize, executor);
}

aclnnStatus aclnnMinimumGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                         aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  return BinaryCall(__func__, K::kMinimum, T(self), T(other), out, false, workspaceSize, executor);
}

aclnnStatus aclnnFloorDivideGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                             aclTensor* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return BinaryCall(__func__, K::kFloorDivide, T(self), T(other), out, false, workspaceSize,
                    executor);
}
aclnnStatus aclnnFloorDividesGetWorkspaceSize(const aclTensor* self, const aclScalar* other,
                                              aclTensor* out, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  return BinaryCall(__func__, K::kFloorDivide, T(self), S(other), out, false, workspaceSize,
                    executor);
}
aclnnStatus aclnnRemainderTensorTensorGetWorkspaceSize(const aclTensor* self,
                                                       const aclTensor* other, aclTensor* out,
                                                       uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
  return BinaryCall(__func__, K::kRemainder, T(self), T(other), out, false, workspaceSize,
                    executor);
}
aclnnStatus aclnnRemainderTensorScalarGetWorkspaceSize(const aclTensor* self,
                                                       const aclScalar* other, aclTensor* out,
                                                       uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
  return BinaryCall(__func__, K::kRemainder, T(self), S(other), out, false, workspaceSize,
                    executor);
}
aclnnStatus aclnnFmodTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                            aclTensor* out, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return BinaryCall(__func__, K::kFmod, T(self), T(other), out, false, workspaceSize, executor);
}

aclnnStatus aclnnPowTensorScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* exponent,
                                                 const aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  return BinaryCall(__func__, K::kPow, T(self), S(exponent), out, false, workspaceSize, executor);
}

aclnnStatus aclnnPowScalarTensorGetWorkspaceSize(const aclScalar* self, const aclTensor* exponent,
                                                 const aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  return BinaryCall(__func__, K::kPow, S(self), T(exponent), out, false, workspaceSize, executor);
}

aclnnStatus aclnnInplacePowTensorScalarGetWorkspaceSize(const aclTensor* self,
                                                        const aclScalar* exponent,
                                                        uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return BinaryCall(__func__, K::kPow, T(self), S(exponent), nullptr, true, workspaceSize,
                    executor);
}

aclnnStatus aclnnPowTensorTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* exponent,
                                                 aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  return BinaryCall(__func__, K::kPow, T(self), T(exponent), out, false, workspaceSize, executor);
}

aclnnStatus aclnnInplacePowTensorTensorGetWorkspaceSize(const aclTensor* self,
                                                        const aclTensor* exponent,
                                                        uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return BinaryCall(__func__, K::kPow, T(self), T(exponent), nullptr, true, workspaceSize,
                    executor);
}

aclnnStatus aclnnClampGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMin,
                                       const aclScalar* clipValueMax, aclTensor* out,
                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ClampCall(__func__, self, S(clipValueMin), true, S(clipValueMax), true, out, false,
                   workspaceSize, executor);
}

aclnnStatus aclnnClampMinGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMin,
                                          aclTensor* out, uint64_t* workspaceSize,
                                          aclOpExecutor** executor) {
  return ClampCall(__func__, self, S(clipValueMin), true, {}, false, out, false, workspaceSize,
                   executor);
}

aclnnStatus aclnnClampMaxGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMax,
                                          aclTensor* out, uint64_t* workspaceSize,
                                          aclOpExecutor** executor) {
  return ClampCall(__func__, self, {}, false, S(clipValueMax), true, out, false, workspaceSize,
                   executor);
}

aclnnStatus aclnnClampTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* clipValueMin,
                                             const aclTensor* clipValueMax, aclTensor* out,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ClampCall(__func__, self, T(clipValueMin), true, T(clipValueMax), true, out, false,
                   workspaceSize, executor);
}

aclnnStatus aclnnClampMinTensorGetWorkspaceSize(const aclTensor* self,
                                                const aclTensor* clipValueMin, aclTensor* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ClampCall(__func__, self, T(clipValueMin), true, {}, false, out, false, workspaceSize,
                   executor);
}

aclnnStatus aclnnClampMaxTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* max,
                                                aclTensor* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
  return ClampCall(__func__, self, {}, false, T(max), true, out, false, workspaceSize, executor);
}

aclnnStatus aclnnInplaceClampMaxGetWorkspaceSize(const aclTensor* selfRef,
                                                 const aclScalar* clipValueMax,
                                                 uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  return ClampCall(__func__, selfRef, {}, false, S(clipValueMax), true, nullptr, true,
                   workspaceSize, executor);
}

aclnnStatus aclnnInplaceClampMinTensorGetWorkspaceSize(aclTensor* selfRef,
                                                       const aclTensor* clipValueMin,
                                                       uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
  return ClampCall(__func__, selfRef, T(clipValueMin), true, {}, false, nullptr, true,
                   workspaceSize, executor);
}

aclnnStatus aclnnInplaceClampMaxTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* max,
                                                       uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
  return ClampCall(__func__, selfRef, {}, false, T(max), true, nullptr, true, workspaceSize,
                   executor);
}

aclnnStatus aclnnSWhereGetWorkspaceSize(const aclTensor* condition, const aclTensor* self,
                                        const aclTensor* other, aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto c, args.Tensor(condition, "condition"));
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto y, args.Tensor(other, "other"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::Where(api_name, c, x, y, z);
  });
}

// ---- logical and / or / xor ----
aclnnStatus aclnnLogicalAndGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                            aclTensor* out, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return LogicalCall(__func__, nn::LogicalKind::kAnd, self, other, out, false, workspaceSize,
                     executor);
}
aclnnStatus aclnnLogicalOrGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                           aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  return LogicalCall(__func__, nn::LogicalKind::kOr, self, other, out, false, workspaceSize,
                     executor);
}
aclnnStatus aclnnLogicalXorGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                            aclTensor* out, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return LogicalCall(__func__, nn::LogicalKind::kXor, self, other, out, false, workspaceSize,
                     executor);
}
aclnnStatus aclnnInplaceLogicalAndGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                                   uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return LogicalCall(__func__, nn::LogicalKind::kAnd, selfRef, other, nullptr, true, workspaceSize,
                     executor);
}
aclnnStatus aclnnInplaceLogicalOrGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                                  uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return LogicalCall(__func__, nn::LogicalKind::kOr, selfRef, other, nullptr, true, workspaceSize,
                     executor);
}

}  // extern "C"
