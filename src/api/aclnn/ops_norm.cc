// First phases of aclnn's layer and group normalisation (core/nn/ops.h builds them):
// LayerNorm, LayerNormWithImplMode, GroupNorm.
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "api/aclnn/nn_call.h"
#include "core/nn/ops.h"

using aclsim::Result;
namespace nn = aclsim::core::nn;
namespace api = aclsim::api;

namespace {

aclnnStatus LayerNormCall(const char* api_name, const aclTensor* input,
                          const aclIntArray* normalized_shape, const aclTensor* weight,
                          const aclTensor* bias, double eps, const aclTensor* out,
                          const aclTensor* mean_out, const aclTensor* rstd_out, int32_t impl_mode,
                          uint64_t* workspace_size, aclOpExecutor** executor) {
  return api::FirstPhase(api_name, workspace_size, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(input, "input"));
    ACLSIM_ASSIGN_OR_RETURN(auto shape, args.Ints(normalized_shape, "normalizedShape"));
    ACLSIM_ASSIGN_OR_RETURN(auto w, args.Tensor(weight, "weightOptional", true));
    ACLSIM_ASSIGN_OR_RETURN(auto b, args.Tensor(bias, "biasOptional", true));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    ACLSIM_ASSIGN_OR_RETURN(auto mean, args.Tensor(mean_out, "meanOutOptional", true));
    ACLSIM_ASSIGN_OR_RETURN(auto rstd, args.Tensor(rstd_out, "rstdOutOptional", true));
    return nn::LayerNorm(api_name, x, shape, w, b, eps, z, mean, rstd, impl_mode);
  });
}

}  // namespace

extern "C" {

aclnnStatus aclnnLayerNormGetWorkspaceSize(
    const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* weightOptional,
    const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* meanOutOptional,
    aclTensor* rstdOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return LayerNormCall(__func__, input, normalizedShape, weightOptional, biasOptional, eps, out,
                       meanOutOptional, rstdOutOptional, 0, workspaceSize, executor);
}

aclnnStatus aclnnLayerNormWithImplModeGetWorkspaceSize(
    const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* weightOptional,
    const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* meanOutOptional,
    aclTensor* rstdOutOptional, int32_t implMode, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return LayerNormCall(__func__, input, normalizedShape, weightOptional, biasOptional, eps, out,
                       meanOutOptional, rstdOutOptional, implMode, workspaceSize, executor);
}

aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor* self, const aclTensor* gamma,
                                           const aclTensor* beta, int64_t N, int64_t C, int64_t HxW,
                                           int64_t group, double eps, aclTensor* out,
                                           aclTensor* meanOut, aclTensor* rstdOut,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto g, args.Tensor(gamma, "gamma", true));
    ACLSIM_ASSIGN_OR_RETURN(auto b, args.Tensor(beta, "beta", true));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    ACLSIM_ASSIGN_OR_RETURN(auto mean, args.Tensor(meanOut, "meanOut", true));
    ACLSIM_ASSIGN_OR_RETURN(auto rstd, args.Tensor(rstdOut, "rstdOut", true));
    return nn::GroupNorm(api_name, x, g, b, N, C, HxW, group, eps, z, mean, rstd);
  });
}

}  // extern "C"
