// First phases of aclnn's convolutions (core/nn/ops.h builds them): Convolution (1-D to 3-D,
// direct or transposed) and ConvDepthwise2d.
#include <fmt/ranges.h>

#include "aclnnop/aclnn_convolution.h"
#include "api/aclnn/nn_call.h"
#include "core/nn/ops.h"

using aclsim::Result;
namespace nn = aclsim::core::nn;
namespace api = aclsim::api;

extern "C" {

aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
                                             const aclTensor* bias, const aclIntArray* stride,
                                             const aclIntArray* padding,
                                             const aclIntArray* dilation, bool transposed,
                                             const aclIntArray* outputPadding, const int64_t groups,
                                             aclTensor* output, int8_t cubeMathType,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    nn::ConvArgs call;
    ACLSIM_ASSIGN_OR_RETURN(call.input, args.Tensor(input, "input"));
    ACLSIM_ASSIGN_OR_RETURN(call.weight, args.Tensor(weight, "weight"));
    ACLSIM_ASSIGN_OR_RETURN(call.bias, args.Tensor(bias, "bias", true));
    ACLSIM_ASSIGN_OR_RETURN(call.stride, args.Ints(stride, "stride"));
    ACLSIM_ASSIGN_OR_RETURN(call.padding, args.Ints(padding, "padding"));
    ACLSIM_ASSIGN_OR_RETURN(call.dilation, args.Ints(dilation, "dilation"));
    if (transposed) {
      ACLSIM_ASSIGN_OR_RETURN(call.output_padding, args.Ints(outputPadding, "outputPadding"));
    }
    ACLSIM_ASSIGN_OR_RETURN(call.output, args.Tensor(output, "output"));
    call.transposed = transposed;
    call.groups = groups;
    call.cube_math_type = cubeMathType;
    return nn::Convolution(api_name, call);
  });
}

// Depthwise: groups = the input channels; weight [Cout, 1, kH, kW] with kernelSize (kH, kW).
aclnnStatus aclnnConvDepthwise2dGetWorkspaceSize(const aclTensor* self, const aclTensor* weight,
                                                 const aclIntArray* kernelSize,
                                                 const aclTensor* bias, const aclIntArray* stride,
                                                 const aclIntArray* padding,
                                                 const aclIntArray* dilation, aclTensor* out,
                                                 int8_t cubeMathType, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    nn::ConvArgs call;
    call.input_what = "self";
    call.output_what = "out";
    ACLSIM_ASSIGN_OR_RETURN(call.input, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(call.weight, args.Tensor(weight, "weight"));
    ACLSIM_ASSIGN_OR_RETURN(auto kernel, args.Ints(kernelSize, "kernelSize"));
    ACLSIM_ASSIGN_OR_RETURN(call.bias, args.Tensor(bias, "bias", true));
    ACLSIM_ASSIGN_OR_RETURN(call.stride, args.Ints(stride, "stride"));
    ACLSIM_ASSIGN_OR_RETURN(call.padding, args.Ints(padding, "padding"));
    ACLSIM_ASSIGN_OR_RETURN(call.dilation, args.Ints(dilation, "dilation"));
    ACLSIM_ASSIGN_OR_RETURN(call.output, args.Tensor(out, "out"));
    const auto& x = call.input->dims;
    const auto& w = call.weight->dims;
    if (x.size() != 4 || w.size() != 4 || kernel.size() != 2 || w[2] != kernel[0] ||
        w[3] != kernel[1]) {
      return aclsim::Err(aclsim::StatusCode::kInvalidParam,
                         "{}: self [{}] and weight [{}] must be 4-D (NCHW) with weight's kernel "
                         "dims equal to kernelSize [{}]",
                         api_name, fmt::join(x, ", "), fmt::join(w, ", "), fmt::join(kernel, ", "));
    }
    call.groups = x[1];
    call.cube_math_type = cubeMathType;
    return nn::Convolution(api_name, call);
  });
}

}  // extern "C"
