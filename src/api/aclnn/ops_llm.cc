// First phases of the language-model aclnn operators (core/nn/ops.h builds them): Tril / Triu,
// RmsNorm, RotaryPositionEmbedding, InplaceIndexCopy.
#include "aclnnop/aclnn_index_copy.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"
#include "api/aclnn/executor_cache.h"
#include "api/aclnn/nn_call.h"
#include "core/nn/ops.h"

using aclsim::Result;
namespace nn = aclsim::core::nn;
namespace api = aclsim::api;

namespace {

aclnnStatus TriangleCall(const char* api_name, bool lower, const aclTensor* self, int64_t diagonal,
                         const aclTensor* out, bool in_place, uint64_t* workspace_size,
                         aclOpExecutor** executor) {
  return api::FirstPhase(api_name, workspace_size, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, in_place ? "selfRef" : "self"));
    const nn::NnTensor* z = nullptr;
    if (!in_place) {
      ACLSIM_ASSIGN_OR_RETURN(z, args.Tensor(out, "out"));
    }
    return nn::Triangle(api_name, lower, x, diagonal, z);
  });
}

}  // namespace

extern "C" {

aclnnStatus aclnnTrilGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return TriangleCall(__func__, true, self, diagonal, out, false, workspaceSize, executor);
}

aclnnStatus aclnnInplaceTrilGetWorkspaceSize(const aclTensor* selfRef, int64_t diagonal,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return TriangleCall(__func__, true, selfRef, diagonal, nullptr, true, workspaceSize, executor);
}

aclnnStatus aclnnTriuGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return TriangleCall(__func__, false, self, diagonal, out, false, workspaceSize, executor);
}

aclnnStatus aclnnInplaceTriuGetWorkspaceSize(aclTensor* selfRef, int64_t diagonal,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return TriangleCall(__func__, false, selfRef, diagonal, nullptr, true, workspaceSize, executor);
}

aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma, double epsilon,
                                         const aclTensor* yOut, const aclTensor* rstdOut,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  api::NnCallKey key(api_name);
  key.Tensor(x).Tensor(gamma).Plain(epsilon).Tensor(yOut).Tensor(rstdOut);
  return api::CachedFirstPhase(
      api_name, key, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
        api::NnArgs args;
        ACLSIM_ASSIGN_OR_RETURN(auto xt, args.Tensor(x, "x"));
        ACLSIM_ASSIGN_OR_RETURN(auto g, args.Tensor(gamma, "gamma"));
        ACLSIM_ASSIGN_OR_RETURN(auto y, args.Tensor(yOut, "yOut"));
        ACLSIM_ASSIGN_OR_RETURN(auto rstd, args.Tensor(rstdOut, "rstdOut", true));
        return nn::RmsNorm(api_name, xt, g, epsilon, y, rstd);
      });
}

aclnnStatus aclnnRotaryPositionEmbeddingGetWorkspaceSize(const aclTensor* x, const aclTensor* cos,
                                                         const aclTensor* sin, int64_t mode,
                                                         aclTensor* out, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  const char* api_name = __func__;
  api::NnCallKey key(api_name);
  key.Tensor(x).Tensor(cos).Tensor(sin).Plain(mode).Tensor(out);
  return api::CachedFirstPhase(api_name, key, workspaceSize, executor,
                               [&]() -> Result<nn::ExecutorPtr> {
                                 api::NnArgs args;
                                 ACLSIM_ASSIGN_OR_RETURN(auto xt, args.Tensor(x, "x"));
                                 ACLSIM_ASSIGN_OR_RETURN(auto c, args.Tensor(cos, "cos"));
                                 ACLSIM_ASSIGN_OR_RETURN(auto s, args.Tensor(sin, "sin"));
                                 ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
                                 return nn::RotaryEmbedding(api_name, xt, c, s, mode, z);
                               });
}

aclnnStatus aclnnInplaceIndexCopyGetWorkspaceSize(aclTensor* selfRef, int64_t dim,
                                                  const aclTensor* index, const aclTensor* source,
                                                  uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(selfRef, "selfRef"));
    ACLSIM_ASSIGN_OR_RETURN(auto i, args.Tensor(index, "index"));
    ACLSIM_ASSIGN_OR_RETURN(auto s, args.Tensor(source, "source"));
    return nn::IndexCopy(api_name, z, dim, i, s);
  });
}

}  // extern "C"
