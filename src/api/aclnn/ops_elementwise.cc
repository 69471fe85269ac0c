// First phases of the elementwise aclnn operators (core/nn/ops.h builds them).
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_addcdiv.h"
#include "aclnnop/aclnn_addcmul.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_ceil.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_erf.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_fast_gelu.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_isfinite.h"
#include "aclnnop/aclnn_lerp_tensor.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_logical_xor.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_tanh.h"
#include "aclnnop/aclnn_zero.h"
#include "api/aclnn/executor_cache.h"
#include "api/aclnn/nn_call.h"
#include "core/nn/ops.h"

using aclsim::Result;
using aclsim::Status;
namespace nn = aclsim::core::nn;
namespace api = aclsim::api;

namespace {

// self (op) alpha * other: tensor or scalar other, out or in place (out == nullptr).
aclnnStatus Arith(const char* api_name, nn::Arith arith, const aclTensor* self,
                  const aclTensor* other, const aclScalar* other_scalar, bool scalar_form,
                  const aclScalar* alpha, bool has_alpha, const aclTensor* out, bool in_place,
                  uint64_t* workspace_size, aclOpExecutor** executor) {
  api::NnCallKey key(api_name);
  key.Plain(arith).Plain(scalar_form).Plain(has_alpha).Plain(in_place).Tensor(self);
  if (scalar_form) {
    key.Scalar(other_scalar);
  } else {
    key.Tensor(other);
  }
  if (has_alpha) key.Scalar(alpha);
  if (!in_place) key.Tensor(out);
  return api::CachedFirstPhase(
      api_name, key, workspace_size, executor, [&]() -> Result<nn::ExecutorPtr> {
        api::NnArgs args;
        ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, in_place ? "selfRef" : "self"));
        const nn::NnTensor* y = nullptr;
        const nn::NnScalar* y_scalar = nullptr;
        if (scalar_form) {
          ACLSIM_ASSIGN_OR_RETURN(y_scalar, args.Scalar(other_scalar, "other"));
        } else {
          ACLSIM_ASSIGN_OR_RETURN(y, args.Tensor(other, "other"));
        }
        const nn::NnScalar* a = nullptr;
        if (has_alpha) {
          ACLSIM_ASSIGN_OR_RETURN(a, args.Scalar(alpha, "alpha"));
        }
        const nn::NnTensor* z = nullptr;
        if (!in_place) {
          ACLSIM_ASSIGN_OR_RETURN(z, args.Tensor(out, "out"));
        }
        return nn::BinaryArith(api_name, arith, x, y, y_scalar, a, z);
      });
}

// `attrs` must follow from api_name and `attrs_key` (the entry's own parameter they come
// from), which the executor cache keys on.
aclnnStatus UnaryCall(const char* api_name, const char* kernel, const aclsim::ops::AttrMap& attrs,
                      nn::UnaryRule rule, const aclTensor* self, const aclTensor* out,
                      bool in_place, uint64_t* workspace_size, aclOpExecutor** executor,
                      int64_t attrs_key = 0) {
  api::NnCallKey key(api_name);
  key.Plain(rule).Plain(in_place).Plain(attrs_key).Tensor(self);
  if (!in_place) key.Tensor(out);
  return api::CachedFirstPhase(
      api_name, key, workspace_size, executor, [&]() -> Result<nn::ExecutorPtr> {
        api::NnArgs args;
        ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, in_place ? "selfRef" : "self"));
        const nn::NnTensor* z = nullptr;
        if (!in_place) {
          ACLSIM_ASSIGN_OR_RETURN(z, args.Tensor(out, "out"));
        }
        return nn::Unary(api_name, kernel, attrs, rule, x, z);
      });
}

aclnnStatus TernaryCall(const char* api_name, nn::TernaryKind kind, const aclTensor* self,
                        const aclTensor* t1, const aclTensor* t2, const aclScalar* value,
                        const aclTensor* out, bool in_place, uint64_t* workspace_size,
                        aclOpExecutor** executor) {
  return api::FirstPhase(api_name, workspace_size, executor, [&]() -> Result<nn::ExecutorPtr> {
    const bool lerp = kind == nn::TernaryKind::kLerp;
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, in_place ? "selfRef" : "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto a, args.Tensor(t1, lerp ? "end" : "tensor1"));
    ACLSIM_ASSIGN_OR_RETURN(auto c, args.Tensor(t2, lerp ? "weight" : "tensor2"));
    const nn::NnScalar* v = nullptr;
    if (!lerp) {
      ACLSIM_ASSIGN_OR_RETURN(v, args.Scalar(value, "value"));
    }
    const nn::NnTensor* z = nullptr;
    if (!in_place) {
      ACLSIM_ASSIGN_OR_RETURN(z, args.Tensor(out, "out"));
    }
    return nn::PointwiseTernary(api_name, kind, x, a, c, v, z);
  });
}

constexpr auto kSame = nn::UnaryRule::kSame;
constexpr auto kFloat = nn::UnaryRule::kFloatOut;
constexpr auto kFloatOnly = nn::UnaryRule::kFloatOnly;
constexpr auto kIntsCopied = nn::UnaryRule::kIntsCopied;
constexpr auto kPredicate = nn::UnaryRule::kPredicate;
constexpr auto kLogical = nn::UnaryRule::kLogical;

}  // namespace

extern "C" {

// ---- arithmetic ----
aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                     const aclScalar* alpha, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Arith(__func__, nn::Arith::kAdd, self, other, nullptr, false, alpha, true, out, false,
               workspaceSize, executor);
}
aclnnStatus aclnnAddsGetWorkspaceSize(const aclTensor* self, const aclScalar* other,
                                      const aclScalar* alpha, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Arith(__func__, nn::Arith::kAdd, self, nullptr, other, true, alpha, true, out, false,
               workspaceSize, executor);
}
aclnnStatus aclnnInplaceAddGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* other,
                                            const aclScalar* alpha, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return Arith(__func__, nn::Arith::kAdd, selfRef, other, nullptr, false, alpha, true, nullptr,
               true, workspaceSize, executor);
}
aclnnStatus aclnnInplaceAddsGetWorkspaceSize(const aclTensor* selfRef, const aclScalar* other,
                                             const aclScalar* alpha, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return Arith(__func__, nn::Arith::kAdd, selfRef, nullptr, other, true, alpha, true, nullptr, true,
               workspaceSize, executor);
}
aclnnStatus aclnnSubGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                     const aclScalar* alpha, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Arith(__func__, nn::Arith::kSub, self, other, nullptr, false, alpha, true, out, false,
               workspaceSize, executor);
}
aclnnStatus aclnnSubsGetWorkspaceSize(const aclTensor* self, const aclScalar* other,
                                      const aclScalar* alpha, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Arith(__func__, nn::Arith::kSub, self, nullptr, other, true, alpha, true, out, false,
               workspaceSize, executor);
}
aclnnStatus aclnnInplaceSubGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                            const aclScalar* alpha, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return Arith(__func__, nn::Arith::kSub, selfRef, other, nullptr, false, alpha, true, nullptr,
               true, workspaceSize, executor);
}
aclnnStatus aclnnInplaceSubsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
                                             const aclScalar* alpha, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return Arith(__func__, nn::Arith::kSub, selfRef, nullptr, other, true, alpha, true, nullptr, true,
               workspaceSize, executor);
}
aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Arith(__func__, nn::Arith::kMul, self, other, nullptr, false, nullptr, false, out, false,
               workspaceSize, executor);
}
aclnnStatus aclnnMulsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Arith(__func__, nn::Arith::kMul, self, nullptr, other, true, nullptr, false, out, false,
               workspaceSize, executor);
}
aclnnStatus aclnnInplaceMulGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Arith(__func__, nn::Arith::kMul, selfRef, other, nullptr, false, nullptr, false, nullptr,
               true, workspaceSize, executor);
}
aclnnStatus aclnnInplaceMulsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Arith(__func__, nn::Arith::kMul, selfRef, nullptr, other, true, nullptr, false, nullptr,
               true, workspaceSize, executor);
}
aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Arith(__func__, nn::Arith::kDiv, self, other, nullptr, false, nullptr, false, out, false,
               workspaceSize, executor);
}
aclnnStatus aclnnDivsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Arith(__func__, nn::Arith::kDiv, self, nullptr, other, true, nullptr, false, out, false,
               workspaceSize, executor);
}
aclnnStatus aclnnInplaceDivGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Arith(__func__, nn::Arith::kDiv, selfRef, other, nullptr, false, nullptr, false, nullptr,
               true, workspaceSize, executor);
}
aclnnStatus aclnnInplaceDivsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return Arith(__func__, nn::Arith::kDiv, selfRef, nullptr, other, true, nullptr, false, nullptr,
               true, workspaceSize, executor);
}

// ---- addcmul, addcdiv, lerp ----
aclnnStatus aclnnAddcmulGetWorkspaceSize(const aclTensor* self, const aclTensor* tensor1,
                                         const aclTensor* tensor2, const aclScalar* value,
                                         aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  return TernaryCall(__func__, nn::TernaryKind::kAddcmul, self, tensor1, tensor2, value, out, false,
                     workspaceSize, executor);
}
aclnnStatus aclnnInplaceAddcmulGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* tensor1,
                                                const aclTensor* tensor2, const aclScalar* value,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return TernaryCall(__func__, nn::TernaryKind::kAddcmul, selfRef, tensor1, tensor2, value, nullptr,
                     true, workspaceSize, executor);
}
aclnnStatus aclnnAddcdivGetWorkspaceSize(const aclTensor* self, const aclTensor* tensor1,
                                         const aclTensor* tensor2, const aclScalar* value,
                                         const aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  return TernaryCall(__func__, nn::TernaryKind::kAddcdiv, self, tensor1, tensor2, value, out, false,
                     workspaceSize, executor);
}
aclnnStatus aclnnInplaceAddcdivGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* tensor1,
                                                const aclTensor* tensor2, const aclScalar* value,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return TernaryCall(__func__, nn::TernaryKind::kAddcdiv, selfRef, tensor1, tensor2, value, nullptr,
                     true, workspaceSize, executor);
}
aclnnStatus aclnnLerpGetWorkspaceSize(const aclTensor* self, const aclTensor* end,
                                      const aclTensor* weight, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return TernaryCall(__func__, nn::TernaryKind::kLerp, self, end, weight, nullptr, out, false,
                     workspaceSize, executor);
}
aclnnStatus aclnnInplaceLerpGetWorkspaceSize(aclTensor* selfRef, const aclTensor* end,
                                             const aclTensor* weight, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return TernaryCall(__func__, nn::TernaryKind::kLerp, selfRef, end, weight, nullptr, nullptr, true,
                     workspaceSize, executor);
}

// ---- unary math and activations ----
#define ACLSIM_UNARY(Name, OutT, Kernel, Rule, ...)                                              \
  aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* self, OutT out,                     \
                                            uint64_t* workspaceSize, aclOpExecutor** executor) { \
    return UnaryCall(__func__, Kernel, {__VA_ARGS__}, Rule, self, out, false, workspaceSize,     \
                     executor);                                                                  \
  }
#define ACLSIM_INPLACE(Name, SelfT, Kernel, Rule, ...)                                             \
  aclnnStatus aclnnInplace##Name##GetWorkspaceSize(SelfT selfRef, uint64_t* workspaceSize,         \
                                                   aclOpExecutor** executor) {                     \
    return UnaryCall(__func__, Kernel, {__VA_ARGS__}, Rule, selfRef, nullptr, true, workspaceSize, \
                     executor);                                                                    \
  }

ACLSIM_UNARY(Abs, aclTensor*, "Abs", kSame)
ACLSIM_UNARY(Neg, aclTensor*, "Neg", kSame)
ACLSIM_INPLACE(Neg, aclTensor*, "Neg", kSame)
ACLSIM_UNARY(Exp, aclTensor*, "Exp", kFloat)
ACLSIM_INPLACE(Exp, aclTensor*, "Exp", kFloat)
ACLSIM_UNARY(Log, aclTensor*, "Log", kFloat)
ACLSIM_INPLACE(Log, aclTensor*, "Log", kFloat)
ACLSIM_UNARY(Sqrt, aclTensor*, "Sqrt", kFloat)
ACLSIM_INPLACE(Sqrt, aclTensor*, "Sqrt", kFloat)
ACLSIM_UNARY(Rsqrt, aclTensor*, "Rsqrt", kFloat)
ACLSIM_INPLACE(Rsqrt, aclTensor*, "Rsqrt", kFloat)
ACLSIM_UNARY(Sin, aclTensor*, "Sin", kFloat)
ACLSIM_INPLACE(Sin, aclTensor*, "Sin", kFloat)
ACLSIM_UNARY(Cos, aclTensor*, "Cos", kFloat)
ACLSIM_INPLACE(Cos, aclTensor*, "Cos", kFloat)
ACLSIM_UNARY(Tanh, aclTensor*, "Tanh", kFloat)
ACLSIM_INPLACE(Tanh, aclTensor*, "Tanh", kFloat)
ACLSIM_UNARY(Sigmoid, aclTensor*, "Sigmoid", kFloat)
ACLSIM_INPLACE(Sigmoid, aclTensor*, "Sigmoid", kFloat)
ACLSIM_UNARY(Relu, const aclTensor*, "Relu", kSame)
ACLSIM_INPLACE(Relu, aclTensor*, "Relu", kSame)
ACLSIM_UNARY(Silu, aclTensor*, "Swish", kFloat)
ACLSIM_UNARY(Gelu, aclTensor*, "GeluV2", kFloat)
ACLSIM_UNARY(Sign, aclTensor*, "Sign", kSame)
ACLSIM_UNARY(Hardswish, const aclTensor*, "HardSwish", kFloat)
ACLSIM_INPLACE(Hardswish, const aclTensor*, "HardSwish", kFloat)
ACLSIM_UNARY(Hardsigmoid, aclTensor*, "HardSigmoid", kFloat)
ACLSIM_INPLACE(Hardsigmoid, const aclTensor*, "HardSigmoid", kFloat)
ACLSIM_UNARY(Ceil, aclTensor*, "Ceil", kFloatOnly)
ACLSIM_INPLACE(Ceil, aclTensor*, "Ceil", kFloatOnly)
ACLSIM_UNARY(Floor, aclTensor*, "Floor", kIntsCopied)
ACLSIM_INPLACE(Floor, aclTensor*, "Floor", kIntsCopied)
ACLSIM_UNARY(Round, aclTensor*, "Round", kSame)
ACLSIM_INPLACE(Round, const aclTensor*, "Round", kSame)
ACLSIM_UNARY(Tan, aclTensor*, "Tan", kFloat)
ACLSIM_UNARY(Asin, aclTensor*, "Asin", kFloat)
ACLSIM_UNARY(Acos, aclTensor*, "Acos", kFloat)
ACLSIM_UNARY(Atan, aclTensor*, "Atan", kFloat)
ACLSIM_UNARY(Sinh, aclTensor*, "Sinh", kFloat)
ACLSIM_UNARY(Cosh, aclTensor*, "Cosh", kFloat)
ACLSIM_UNARY(Erf, aclTensor*, "Erf", kFloat)
ACLSIM_INPLACE(Erf, aclTensor*, "Erf", kFloat)
ACLSIM_UNARY(Square, aclTensor*, "Square", kSame)
ACLSIM_UNARY(Expm1, aclTensor*, "Expm1", kFloat)
ACLSIM_UNARY(Log1p, aclTensor*, "Log1p", kFloat)
ACLSIM_UNARY(Log2, const aclTensor*, "Log", kFloat, {"base", 2.0f})
ACLSIM_UNARY(Log10, aclTensor*, "Log", kFloat, {"base", 10.0f})
ACLSIM_UNARY(Reciprocal, aclTensor*, "Reciprocal", kFloat)
ACLSIM_INPLACE(Reciprocal, const aclTensor*, "Reciprocal", kFloat)
ACLSIM_UNARY(Selu, aclTensor*, "Selu", kFloatOnly)
ACLSIM_UNARY(Mish, aclTensor*, "Mish", kFloatOnly)
ACLSIM_UNARY(FastGelu, aclTensor*, "FastGelu", kFloatOnly)
ACLSIM_UNARY(IsFinite, aclTensor*, "IsFinite", kPredicate)
ACLSIM_UNARY(IsInf, const aclTensor*, "IsInf", kPredicate)
ACLSIM_UNARY(LogicalNot, aclTensor*, "LogicalNot", kLogical)
ACLSIM_INPLACE(LogicalNot, aclTensor*, "LogicalNot", kLogical)

#undef ACLSIM_UNARY
#undef ACLSIM_INPLACE

aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* x, int64_t approximate, aclTensor* y,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (approximate != 0 && approximate != 1) {
    return api::RecordNnFailure(
        __func__,
        Status(aclsim::StatusCode::kInvalidParam,
               fmt::format("approximate is {}; it must be 0 (none) or 1 (tanh)", approximate)));
  }
  return UnaryCall(__func__, "GeluV2",
                   {{"approximate", std::string(approximate == 1 ? "tanh" : "none")}}, kFloat, x, y,
                   false, workspaceSize, executor, approximate);
}

// ---- cast, copy, fill ----
aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor* self, const aclDataType dtype,
                                      aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  const char* api_name = __func__;
  api::NnCallKey key(api_name);
  key.Tensor(self).Plain(dtype).Tensor(out);
  return api::CachedFirstPhase(
      api_name, key, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
        api::NnArgs args;
        ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
        ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
        return nn::CastTo(api_name, x, static_cast<aclsim::ops::DataType>(api::EnumValue(dtype)),
                          z);
      });
}

aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor* selfRef, const aclTensor* src,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  api::NnCallKey key(api_name);
  key.Tensor(selfRef).Tensor(src);
  return api::CachedFirstPhase(api_name, key, workspaceSize, executor,
                               [&]() -> Result<nn::ExecutorPtr> {
                                 api::NnArgs args;
                                 ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(selfRef, "selfRef"));
                                 ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(src, "src"));
                                 return nn::CopyInto(api_name, z, x);
                               });
}

aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(aclTensor* selfRef, const aclScalar* value,
                                                   uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(selfRef, "selfRef"));
    ACLSIM_ASSIGN_OR_RETURN(auto v, args.Scalar(value, "value"));
    return nn::FillWith(api_name, z, v->ToDouble());
  });
}

aclnnStatus aclnnInplaceZeroGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(selfRef, "selfRef"));
    return nn::FillWith(api_name, z, 0.0);
  });
}

}  // extern "C"
