// First phases of aclnn's matrix products with quantized weights (core/nn/ops.h builds
// them): WeightQuantBatchMatmulV2 and V3.
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"
#include "api/aclnn/nn_call.h"
#include "core/nn/ops.h"

using aclsim::Result;
namespace nn = aclsim::core::nn;
namespace api = aclsim::api;

namespace {

aclnnStatus WeightQuantCall(const char* api_name, const aclTensor* x, const aclTensor* weight,
                            const aclTensor* scale, const aclTensor* offset,
                            const aclTensor* quant_scale, const aclTensor* quant_offset,
                            const aclTensor* bias, int group_size, int inner_precise,
                            const aclTensor* y, uint64_t* workspace_size,
                            aclOpExecutor** executor) {
  return api::FirstPhase(api_name, workspace_size, executor, [&]() -> Result<nn::ExecutorPtr> {
    if (inner_precise != 0 && inner_precise != 1) {
      return aclsim::Err(aclsim::StatusCode::kInvalidParam,
                         "{}: innerPrecise is {}; it must be 0 (high precision) or 1 (high "
                         "performance)",
                         api_name, inner_precise);
    }
    api::NnArgs args;
    nn::WeightQuantArgs call;
    ACLSIM_ASSIGN_OR_RETURN(call.x, args.Tensor(x, "x"));
    ACLSIM_ASSIGN_OR_RETURN(call.weight, args.Tensor(weight, "weight"));
    ACLSIM_ASSIGN_OR_RETURN(call.antiquant_scale, args.Tensor(scale, "antiquantScale"));
    ACLSIM_ASSIGN_OR_RETURN(call.antiquant_offset,
                            args.Tensor(offset, "antiquantOffsetOptional", true));
    ACLSIM_ASSIGN_OR_RETURN(call.quant_scale, args.Tensor(quant_scale, "quantScaleOptional", true));
    ACLSIM_ASSIGN_OR_RETURN(call.quant_offset,
                            args.Tensor(quant_offset, "quantOffsetOptional", true));
    ACLSIM_ASSIGN_OR_RETURN(call.bias, args.Tensor(bias, "biasOptional", true));
    ACLSIM_ASSIGN_OR_RETURN(call.y, args.Tensor(y, "y"));
    call.group_size = group_size;
    return nn::WeightQuantMatmul(api_name, call);
  });
}

}  // namespace

extern "C" {

aclnnStatus aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
    const aclTensor* x, const aclTensor* weight, const aclTensor* antiquantScale,
    const aclTensor* antiquantOffsetOptional, const aclTensor* quantScaleOptional,
    const aclTensor* quantOffsetOptional, const aclTensor* biasOptional, int antiquantGroupSize,
    const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return WeightQuantCall(__func__, x, weight, antiquantScale, antiquantOffsetOptional,
                         quantScaleOptional, quantOffsetOptional, biasOptional, antiquantGroupSize,
                         0, y, workspaceSize, executor);
}

aclnnStatus aclnnWeightQuantBatchMatmulV3GetWorkspaceSize(
    const aclTensor* x, const aclTensor* weight, const aclTensor* antiquantScale,
    const aclTensor* antiquantOffsetOptional, const aclTensor* quantScaleOptional,
    const aclTensor* quantOffsetOptional, const aclTensor* biasOptional, int antiquantGroupSize,
    int innerPrecise, const aclTensor* y, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return WeightQuantCall(__func__, x, weight, antiquantScale, antiquantOffsetOptional,
                         quantScaleOptional, quantOffsetOptional, biasOptional, antiquantGroupSize,
                         innerPrecise, y, workspaceSize, executor);
}

}  // extern "C"
