// aclnnTransMatmulWeight (a weight converted in place to FRACTAL_NZ for later matrix
// products) and its host helpers aclnnCalculateMatmulWeightSize / V2.
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "api/aclnn/nn_call.h"
#include "core/nn/ops.h"
#include "ops/types.h"

using aclsim::Result;
using aclsim::Status;
namespace nn = aclsim::core::nn;
namespace api = aclsim::api;

namespace {

aclnnStatus WeightSize(const char* api_name, const aclIntArray* shape, aclDataType dtype, bool v2,
                       uint64_t* size) {
  return api::NnCall(api_name, [&]() -> Status {
    if (size == nullptr) {
      return aclsim::Err(aclsim::StatusCode::kNullPointer, "{}: weightTensorSize is NULL",
                         api_name);
    }
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto dims, args.Ints(shape, "tensorShape"));
    const auto type = static_cast<aclsim::ops::DataType>(dtype);
    if (!aclsim::ops::IsKnownDataType(static_cast<int32_t>(dtype))) {
      return aclsim::Err(aclsim::StatusCode::kInvalidParam, "{}: dataType {} is not a data type",
                         api_name, static_cast<int>(dtype));
    }
    ACLSIM_ASSIGN_OR_RETURN(*size, nn::MatmulWeightElements(dims, type, v2));
    return Status::Ok();
  });
}

}  // namespace

extern "C" {

aclnnStatus aclnnTransMatmulWeightGetWorkspaceSize(aclTensor* mmWeightRef, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto w, args.Tensor(mmWeightRef, "mmWeightRef"));
    return nn::TransMatmulWeight(api_name, w);
  });
}

aclnnStatus aclnnCalculateMatmulWeightSize(const aclIntArray* tensorShape,
                                           uint64_t* weightTensorSize) {
  return WeightSize(__func__, tensorShape, ACL_FLOAT16, false, weightTensorSize);
}

aclnnStatus aclnnCalculateMatmulWeightSizeV2(const aclIntArray* tensorShape, aclDataType dataType,
                                             uint64_t* weightTensorSize) {
  return WeightSize(__func__, tensorShape, dataType, true, weightTensorSize);
}

}  // extern "C"
