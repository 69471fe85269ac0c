// First phases of aclnn's pooling and upsampling (core/nn/ops.h builds them): AvgPool2d,
// MaxPool, and the Upsample* family.
#include <vector>

#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_max_pool.h"
#include "aclnnop/aclnn_upsample_bicubic_2d.h"
#include "aclnnop/aclnn_upsample_bilinear_2d.h"
#include "aclnnop/aclnn_upsample_linear_1d.h"
#include "aclnnop/aclnn_upsample_nearest_1d.h"
#include "aclnnop/aclnn_upsample_nearest_2d.h"
#include "aclnnop/aclnn_upsample_nearest_2d_v2.h"
#include "aclnnop/aclnn_upsample_nearest_3d.h"
#include "aclnnop/aclnn_upsample_nearest_exact2d.h"
#include "aclnnop/aclnn_upsample_trilinear_3d.h"
#include "api/aclnn/nn_call.h"
#include "core/nn/ops.h"

using aclsim::Result;
namespace nn = aclsim::core::nn;
namespace api = aclsim::api;

namespace {

using Mode = nn::UpsampleMode;

aclnnStatus UpsampleCall(const char* api_name, Mode mode, bool align_corners, const aclTensor* self,
                         const aclIntArray* output_size, std::vector<double> scales,
                         const aclTensor* out, uint64_t* workspace_size, aclOpExecutor** executor) {
  return api::FirstPhase(api_name, workspace_size, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto size, args.Ints(output_size, "outputSize"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::Upsample(api_name, mode, align_corners, x, size, scales, z);
  });
}

}  // namespace

extern "C" {

aclnnStatus aclnnAvgPool2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                           const aclIntArray* strides, const aclIntArray* paddings,
                                           const bool ceilMode, const bool countIncludePad,
                                           const int64_t divisorOverride, const int8_t cubeMathType,
                                           aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    nn::PoolArgs pool;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(pool.kernel, args.Ints(kernelSize, "kernelSize"));
    ACLSIM_ASSIGN_OR_RETURN(pool.stride, args.Ints(strides, "strides"));
    ACLSIM_ASSIGN_OR_RETURN(pool.padding, args.Ints(paddings, "paddings"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    pool.ceil_mode = ceilMode;
    return nn::AvgPool2d(api_name, x, pool, countIncludePad, divisorOverride, cubeMathType, z);
  });
}

aclnnStatus aclnnMaxPoolGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelShape,
                                         const aclIntArray* strides, const int64_t autoPad,
                                         const aclIntArray* pads, const aclIntArray* dilations,
                                         const int64_t ceilMode, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    nn::PoolArgs pool;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(pool.kernel, args.Ints(kernelShape, "kernelShape"));
    ACLSIM_ASSIGN_OR_RETURN(pool.stride, args.Ints(strides, "strides"));
    ACLSIM_ASSIGN_OR_RETURN(pool.padding, args.Ints(pads, "pads"));
    ACLSIM_ASSIGN_OR_RETURN(auto dil, args.Ints(dilations, "dilations"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    pool.ceil_mode = ceilMode != 0;
    return nn::MaxPoolOnnx(api_name, x, pool, autoPad, dil, z);
  });
}

aclnnStatus aclnnUpsampleNearest1dGetWorkspaceSize(const aclTensor* self,
                                                   const aclIntArray* outputSize, aclTensor* out,
                                                   uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return UpsampleCall(__func__, Mode::kNearest, false, self, outputSize, {}, out, workspaceSize,
                      executor);
}

aclnnStatus aclnnUpsampleNearest2dGetWorkspaceSize(const aclTensor* self,
                                                   const aclIntArray* outputSize, aclTensor* out,
                                                   uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return UpsampleCall(__func__, Mode::kNearest, false, self, outputSize, {}, out, workspaceSize,
                      executor);
}

aclnnStatus aclnnUpsampleNearest2dV2GetWorkspaceSize(const aclTensor* self,
                                                     const aclIntArray* outputSize, float scalesH,
                                                     float scalesW, aclTensor* out,
                                                     uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  return UpsampleCall(__func__, Mode::kNearest, false, self, outputSize, {scalesH, scalesW}, out,
                      workspaceSize, executor);
}

aclnnStatus aclnnUpsampleNearest3dGetWorkspaceSize(const aclTensor* self,
                                                   const aclIntArray* outputSize, double scalesD,
                                                   double scalesH, double scalesW, aclTensor* out,
                                                   uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return UpsampleCall(__func__, Mode::kNearest, false, self, outputSize,
                      {scalesD, scalesH, scalesW}, out, workspaceSize, executor);
}

aclnnStatus aclnnUpsampleNearestExact2dGetWorkspaceSize(const aclTensor* self,
                                                        const aclIntArray* outputSize,
                                                        double scalesH, double scalesW,
                                                        aclTensor* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  return UpsampleCall(__func__, Mode::kNearestExact, false, self, outputSize, {scalesH, scalesW},
                      out, workspaceSize, executor);
}

aclnnStatus aclnnUpsampleLinear1dGetWorkspaceSize(const aclTensor* self,
                                                  const aclIntArray* outputSize,
                                                  const bool alignCorners, const double scales,
                                                  aclTensor* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
  return UpsampleCall(__func__, Mode::kLinear, alignCorners, self, outputSize, {scales}, out,
                      workspaceSize, executor);
}

aclnnStatus aclnnUpsampleBilinear2dGetWorkspaceSize(const aclTensor* self,
                                                    const aclIntArray* outputSize,
                                                    const bool alignCorners, const double scalesH,
                                                    const double scalesW, aclTensor* out,
                                                    uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  return UpsampleCall(__func__, Mode::kLinear, alignCorners, self, outputSize, {scalesH, scalesW},
                      out, workspaceSize, executor);
}

aclnnStatus aclnnUpsampleBicubic2dGetWorkspaceSize(const aclTensor* self,
                                                   const aclIntArray* outputSize,
                                                   const bool alignCorners, const double scalesH,
                                                   const double scalesW, aclTensor* out,
                                                   uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return UpsampleCall(__func__, Mode::kCubic, alignCorners, self, outputSize, {scalesH, scalesW},
                      out, workspaceSize, executor);
}

aclnnStatus aclnnUpsampleTrilinear3dGetWorkspaceSize(const aclTensor* self,
                                                     const aclIntArray* outputSize,
                                                     bool alignCorners, double scalesD,
                                                     double scalesH, double scalesW, aclTensor* out,
                                                     uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  return UpsampleCall(__func__, Mode::kLinear, alignCorners, self, outputSize,
                      {scalesD, scalesH, scalesW}, out, workspaceSize, executor);
}

}  // extern "C"
