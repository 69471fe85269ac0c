// First phases of the aclnn matrix products (core/nn/ops.h builds them): Mm, BatchMatMul,
// Matmul, Mv.
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mv.h"
#include "api/aclnn/nn_call.h"
#include "core/nn/ops.h"

using aclsim::Result;
namespace nn = aclsim::core::nn;
namespace api = aclsim::api;

namespace {

aclnnStatus MatMulCall(const char* api_name, nn::MatmulKind kind, const aclTensor* self,
                       const aclTensor* mat2, const aclTensor* out, int8_t cube_math_type,
                       uint64_t* workspace_size, aclOpExecutor** executor) {
  return api::FirstPhase(api_name, workspace_size, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto y,
                            args.Tensor(mat2, kind == nn::MatmulKind::kMv ? "vec" : "mat2"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::MatMul(api_name, kind, x, y, z, cube_math_type);
  });
}

}  // namespace

extern "C" {

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
