// First phases of the random aclnn operators (core/nn/ops.h builds them): normal, uniform,
// integer and Bernoulli draws, dropout, multinomial and randperm, deterministic by (seed,
// offset).
#include "aclnnop/aclnn_bernoulli.h"
#include "aclnnop/aclnn_dropout.h"
#include "aclnnop/aclnn_multinomial.h"
#include "aclnnop/aclnn_normal.h"
#include "aclnnop/aclnn_normal_out.h"
#include "aclnnop/aclnn_uniform.h"
#include "api/aclnn/nn_call.h"
#include "core/nn/ops.h"

using aclsim::Result;
namespace nn = aclsim::core::nn;
namespace api = aclsim::api;

namespace {

// out ~ N(mean, std), each a tensor (when its handle is used) or the float beside it.
aclnnStatus NormalCall(const char* api_name, const aclTensor* mean, bool mean_tensor,
                       float mean_value, const aclTensor* std, bool std_tensor, float std_value,
                       int64_t seed, int64_t offset, const aclTensor* out, uint64_t* workspace_size,
                       aclOpExecutor** executor) {
  return api::FirstPhase(api_name, workspace_size, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    const nn::NnTensor* m = nullptr;
    const nn::NnTensor* s = nullptr;
    if (mean_tensor) {
      ACLSIM_ASSIGN_OR_RETURN(m, args.Tensor(mean, "mean"));
    }
    if (std_tensor) {
      ACLSIM_ASSIGN_OR_RETURN(s, args.Tensor(std, "std"));
    }
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::Normal(api_name, nullptr, m, mean_value, s, std_value, seed, offset, z);
  });
}

aclnnStatus BernoulliCall(const char* api_name, const aclTensor* self, bool in_place,
                          const aclScalar* prob_scalar, const aclTensor* prob, bool prob_tensor,
                          int64_t seed, int64_t offset, const aclTensor* out,
                          uint64_t* workspace_size, aclOpExecutor** executor) {
  return api::FirstPhase(api_name, workspace_size, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, in_place ? "selfRef" : "self"));
    const nn::NnScalar* ps = nullptr;
    const nn::NnTensor* pt = nullptr;
    if (prob_tensor) {
      ACLSIM_ASSIGN_OR_RETURN(pt, args.Tensor(prob, "prob"));
    } else {
      ACLSIM_ASSIGN_OR_RETURN(ps, args.Scalar(prob_scalar, "prob"));
    }
    const nn::NnTensor* z = nullptr;
    if (!in_place) {
      ACLSIM_ASSIGN_OR_RETURN(z, args.Tensor(out, "out"));
    }
    return nn::Bernoulli(api_name, x, ps, pt, seed, offset, z);
  });
}

}  // namespace

extern "C" {

// ---- normal ----
aclnnStatus aclnnInplaceNormalGetWorkspaceSize(const aclTensor* selfRef, float mean, float std,
                                               int64_t seed, int64_t offset,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(selfRef, "selfRef"));
    return nn::Normal(api_name, z, nullptr, mean, nullptr, std, seed, offset, nullptr);
  });
}
aclnnStatus aclnnNormalTensorTensorGetWorkspaceSize(const aclTensor* mean, const aclTensor* std,
                                                    int64_t seed, int64_t offset, aclTensor* out,
                                                    uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return NormalCall(__func__, mean, true, 0, std, true, 0, seed, offset, out, workspaceSize,
                    executor);
}
aclnnStatus aclnnNormalTensorFloatGetWorkspaceSize(const aclTensor* mean, float std, int64_t seed,
                                                   int64_t offset, aclTensor* out,
                                                   uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return NormalCall(__func__, mean, true, 0, nullptr, false, std, seed, offset, out, workspaceSize,
                    executor);
}
aclnnStatus aclnnNormalFloatTensorGetWorkspaceSize(float mean, const aclTensor* std, int64_t seed,
                                                   int64_t offset, aclTensor* out,
                                                   uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return NormalCall(__func__, nullptr, false, mean, std, true, 0, seed, offset, out, workspaceSize,
                    executor);
}
aclnnStatus aclnnNormalFloatFloatGetWorkspaceSize(float mean, float std, int64_t seed,
                                                  int64_t offset, aclTensor* out,
                                                  uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return NormalCall(__func__, nullptr, false, mean, nullptr, false, std, seed, offset, out,
                    workspaceSize, executor);
}

// ---- uniform ----
aclnnStatus aclnnInplaceUniformGetWorkspaceSize(const aclTensor* selfRef, double from, double to,
                                                uint64_t seed, uint64_t offset,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(selfRef, "selfRef"));
    return nn::Uniform(api_name, z, from, to, seed, offset);
  });
}
aclnnStatus aclnnInplaceRandomGetWorkspaceSize(const aclTensor* selfRef, int64_t from, int64_t to,
                                               int64_t seed, int64_t offset,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(selfRef, "selfRef"));
    return nn::RandomInt(api_name, z, from, to, seed, offset);
  });
}

// ---- Bernoulli ----
aclnnStatus aclnnBernoulliGetWorkspaceSize(const aclTensor* self, const aclScalar* prob,
                                           int64_t seed, int64_t offset, aclTensor* out,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return BernoulliCall(__func__, self, false, prob, nullptr, false, seed, offset, out,
                       workspaceSize, executor);
}
aclnnStatus aclnnBernoulliTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* prob,
                                                 int64_t seed, int64_t offset, aclTensor* out,
                                                 uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  return BernoulliCall(__func__, self, false, nullptr, prob, true, seed, offset, out, workspaceSize,
                       executor);
}
aclnnStatus aclnnInplaceBernoulliGetWorkspaceSize(const aclTensor* selfRef, const aclScalar* prob,
                                                  int64_t seed, int64_t offset,
                                                  uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return BernoulliCall(__func__, selfRef, true, prob, nullptr, false, seed, offset, nullptr,
                       workspaceSize, executor);
}
aclnnStatus aclnnInplaceBernoulliTensorGetWorkspaceSize(const aclTensor* selfRef,
                                                        const aclTensor* prob, int64_t seed,
                                                        int64_t offset, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return BernoulliCall(__func__, selfRef, true, nullptr, prob, true, seed, offset, nullptr,
                       workspaceSize, executor);
}

// ---- dropout ----
aclnnStatus aclnnDropoutGetWorkspaceSize(const aclTensor* input, double p, bool train, int64_t seed,
                                         int64_t offset, aclTensor* out, aclTensor* maskOut,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(input, "input"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    ACLSIM_ASSIGN_OR_RETURN(auto mask, args.Tensor(maskOut, "maskOut"));
    return nn::Dropout(api_name, x, p, train, seed, offset, z, mask);
  });
}

// ---- multinomial, randperm ----
aclnnStatus aclnnMultinomialGetWorkspaceSize(const aclTensor* self, int64_t numsamples,
                                             bool replacement, int64_t seed, int64_t offset,
                                             aclTensor* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::Multinomial(api_name, x, numsamples, replacement, seed, offset, z);
  });
}
aclnnStatus aclnnRandpermGetWorkspaceSize(int64_t n, int64_t seed, int64_t offset, aclTensor* out,
                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::Randperm(api_name, n, seed, offset, z);
  });
}

}  // extern "C"
