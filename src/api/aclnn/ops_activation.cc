// First phases of the activations with parameters (core/nn/ops.h builds them): LeakyRelu and
// Elu (op-library kernels with attributes), Threshold, Softplus, SwiGlu.
#include <string>

#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "aclnnop/aclnn_threshold.h"
#include "api/aclnn/nn_call.h"
#include "core/nn/ops.h"

using aclsim::Result;
namespace nn = aclsim::core::nn;
namespace api = aclsim::api;

namespace {

// A kernel with float attributes read from scalars: `names[i]` = scalars[i] (null: default).
aclnnStatus ScalarAttrCall(const char* api_name, const char* kernel,
                           std::initializer_list<std::pair<const char*, const aclScalar*>> scalars,
                           const aclTensor* self, const aclTensor* out, bool in_place,
                           uint64_t* workspace_size, aclOpExecutor** executor) {
  return api::FirstPhase(api_name, workspace_size, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, in_place ? "selfRef" : "self"));
    aclsim::ops::AttrMap attrs;
    for (const auto& [name, handle] : scalars) {
      ACLSIM_ASSIGN_OR_RETURN(auto s, args.Scalar(handle, name));
      std::string attr = name;  // camelCase to the kernel's snake_case
      for (size_t i = 0; i < attr.size(); ++i) {
        if (attr[i] >= 'A' && attr[i] <= 'Z') {
          attr[i] = static_cast<char>(attr[i] - 'A' + 'a');
          attr.insert(i, 1, '_');
        }
      }
      attrs[attr] = static_cast<float>(s->ToDouble());
    }
    const nn::NnTensor* z = nullptr;
    if (!in_place) {
      ACLSIM_ASSIGN_OR_RETURN(z, args.Tensor(out, "out"));
    }
    return nn::Unary(api_name, kernel, attrs, nn::UnaryRule::kFloatOnly, x, z);
  });
}

aclnnStatus ThresholdCall(const char* api_name, const aclTensor* self, const aclScalar* threshold,
                          const aclScalar* value, const aclTensor* out, bool in_place,
                          uint64_t* workspace_size, aclOpExecutor** executor) {
  return api::FirstPhase(api_name, workspace_size, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, in_place ? "selfRef" : "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto t, args.Scalar(threshold, "threshold"));
    ACLSIM_ASSIGN_OR_RETURN(auto v, args.Scalar(value, "value"));
    const nn::NnTensor* z = nullptr;
    if (!in_place) {
      ACLSIM_ASSIGN_OR_RETURN(z, args.Tensor(out, "out"));
    }
    return nn::Threshold(api_name, x, t, v, z);
  });
}

}  // namespace

extern "C" {

aclnnStatus aclnnLeakyReluGetWorkspaceSize(const aclTensor* self, const aclScalar* negativeSlope,
                                           aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  return ScalarAttrCall(__func__, "LeakyRelu", {{"negativeSlope", negativeSlope}}, self, out, false,
                        workspaceSize, executor);
}

aclnnStatus aclnnInplaceLeakyReluGetWorkspaceSize(aclTensor* selfRef,
                                                  const aclScalar* negativeSlope,
                                                  uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return ScalarAttrCall(__func__, "LeakyRelu", {{"negativeSlope", negativeSlope}}, selfRef, nullptr,
                        true, workspaceSize, executor);
}

aclnnStatus aclnnEluGetWorkspaceSize(const aclTensor* self, const aclScalar* alpha,
                                     const aclScalar* scale, const aclScalar* inputScale,
                                     aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
  return ScalarAttrCall(__func__, "Elu",
                        {{"alpha", alpha}, {"scale", scale}, {"inputScale", inputScale}}, self, out,
                        false, workspaceSize, executor);
}

aclnnStatus aclnnInplaceEluGetWorkspaceSize(aclTensor* selfRef, const aclScalar* alpha,
                                            const aclScalar* scale, const aclScalar* inputScale,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ScalarAttrCall(__func__, "Elu",
                        {{"alpha", alpha}, {"scale", scale}, {"inputScale", inputScale}}, selfRef,
                        nullptr, true, workspaceSize, executor);
}

aclnnStatus aclnnThresholdGetWorkspaceSize(const aclTensor* self, const aclScalar* threshold,
                                           const aclScalar* value, aclTensor* out,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ThresholdCall(__func__, self, threshold, value, out, false, workspaceSize, executor);
}

aclnnStatus aclnnInplaceThresholdGetWorkspaceSize(aclTensor* selfRef, const aclScalar* threshold,
                                                  const aclScalar* value, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return ThresholdCall(__func__, selfRef, threshold, value, nullptr, true, workspaceSize, executor);
}

aclnnStatus aclnnSoftplusGetWorkspaceSize(const aclTensor* self, const aclScalar* beta,
                                          const aclScalar* threshold, aclTensor* out,
                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto b, args.Scalar(beta, "beta"));
    ACLSIM_ASSIGN_OR_RETURN(auto t, args.Scalar(threshold, "threshold"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::Softplus(api_name, x, b, t, z);
  });
}

aclnnStatus aclnnSwiGluGetWorkspaceSize(const aclTensor* x, int64_t dim, const aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto xt, args.Tensor(x, "x"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::SwiGlu(api_name, xt, dim, z);
  });
}

}  // extern "C"
