// First phases of the aclnn matrix products (core/nn/ops.h builds them): Mm, BatchMatMul,
// Matmul, Mv, and the products with an addend: Addmm, Baddbmm, Addbmm (and in place).
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_baddbmm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mv.h"
#include "api/aclnn/executor_cache.h"
#include "api/aclnn/nn_call.h"
#include "core/nn/ops.h"

using aclsim::Result;
namespace nn = aclsim::core::nn;
namespace api = aclsim::api;

namespace {

aclnnStatus MatMulCall(const char* api_name, nn::MatmulKind kind, const aclTensor* self,
                       const aclTensor* mat2, const aclTensor* out, int8_t cube_math_type,
                       uint64_t* workspace_size, aclOpExecutor** executor) {
  api::NnCallKey key(api_name);
  key.Plain(kind).Plain(cube_math_type).Tensor(self).Tensor(mat2).Tensor(out);
  return api::CachedFirstPhase(
      api_name, key, workspace_size, executor, [&]() -> Result<nn::ExecutorPtr> {
        api::NnArgs args;
        ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
        ACLSIM_ASSIGN_OR_RETURN(auto y,
                                args.Tensor(mat2, kind == nn::MatmulKind::kMv ? "vec" : "mat2"));
        ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
        return nn::MatMul(api_name, kind, x, y, z, cube_math_type);
      });
}

aclnnStatus AddMatMulCall(const char* api_name, nn::AddMatmulKind kind, const aclTensor* self,
                          const aclTensor* mat1, const aclTensor* mat2, const aclScalar* beta,
                          const aclScalar* alpha, const aclTensor* out, bool in_place,
                          int8_t cube_math_type, uint64_t* workspace_size,
                          aclOpExecutor** executor) {
  return api::FirstPhase(api_name, workspace_size, executor, [&]() -> Result<nn::ExecutorPtr> {
    const bool batched = kind != nn::AddMatmulKind::kAddmm;
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto c, args.Tensor(self, in_place ? "selfRef" : "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(mat1, batched ? "batch1" : "mat1"));
    ACLSIM_ASSIGN_OR_RETURN(auto y, args.Tensor(mat2, batched ? "batch2" : "mat2"));
    ACLSIM_ASSIGN_OR_RETURN(auto b, args.Scalar(beta, "beta"));
    ACLSIM_ASSIGN_OR_RETURN(auto a, args.Scalar(alpha, "alpha"));
    const nn::NnTensor* z = nullptr;
    if (!in_place) {
      ACLSIM_ASSIGN_OR_RETURN(z, args.Tensor(out, "out"));
    }
    return nn::AddMatMul(api_name, kind, c, x, y, b, a, z, cube_math_type);
  });
}

}  // namespace

extern "C" {

aclnnStatus aclnnAddmmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat1,
                                       const aclTensor* mat2, const aclScalar* beta,
                                       const aclScalar* alpha, aclTensor* out, int8_t cubeMathType,
                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  return AddMatMulCall(__func__, nn::AddMatmulKind::kAddmm, self, mat1, mat2, beta, alpha, out,
                       false, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnInplaceAddmmGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* mat1,
                                              const aclTensor* mat2, const aclScalar* beta,
                                              const aclScalar* alpha, int8_t cubeMathType,
                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
  return AddMatMulCall(__func__, nn::AddMatmulKind::kAddmm, selfRef, mat1, mat2, beta, alpha,
                       nullptr, true, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnBaddbmmGetWorkspaceSize(const aclTensor* self, const aclTensor* batch1,
                                         const aclTensor* batch2, const aclScalar* beta,
                                         const aclScalar* alpha, aclTensor* out,
                                         int8_t cubeMathType, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  return AddMatMulCall(__func__, nn::AddMatmulKind::kBaddbmm, self, batch1, batch2, beta, alpha,
                       out, false, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnInplaceBaddbmmGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* batch1,
                                                const aclTensor* batch2, const aclScalar* beta,
                                                const aclScalar* alpha, int8_t cubeMathType,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return AddMatMulCall(__func__, nn::AddMatmulKind::kBaddbmm, selfRef, batch1, batch2, beta, alpha,
                       nullptr, true, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnAddbmmGetWorkspaceSize(const aclTensor* self, const aclTensor* batch1,
                                        const aclTensor* batch2, const aclScalar* beta,
                                        const aclScalar* alpha, aclTensor* out, int8_t cubeMathType,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return AddMatMulCall(__func__, nn::AddMatmulKind::kAddbmm, self, batch1, batch2, beta, alpha, out,
                       false, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                    int8_t cubeMathType, uint64_t* workspaceSize,
                                    aclOpExecutor** executor) {
  return MatMulCall(__func__, nn::MatmulKind::kMm, self, mat2, out, cubeMathType, workspaceSize,
                    executor);
}

aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2,
                                             aclTensor* out, int8_t cubeMathType,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return MatMulCall(__func__, nn::MatmulKind::kBatch, self, mat2, out, cubeMathType, workspaceSize,
                    executor);
}

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2,
                                        aclTensor* out, int8_t cubeMathType,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return MatMulCall(__func__, nn::MatmulKind::kMatmul, self, mat2, out, cubeMathType, workspaceSize,
                    executor);
}

aclnnStatus aclnnMvGetWorkspaceSize(const aclTensor* self, const aclTensor* vec, aclTensor* out,
                                    int8_t cubeMathType, uint64_t* workspaceSize,
                                    aclOpExecutor** executor) {
  return MatMulCall(__func__, nn::MatmulKind::kMv, self, vec, out, cubeMathType, workspaceSize,
                    executor);
}

}  // extern "C"
