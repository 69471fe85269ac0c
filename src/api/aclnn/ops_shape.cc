// First phases of the shape and movement aclnn operators (core/nn/ops.h builds them): Permute,
// Slice / SliceV2, Cat, Repeat, ConstantPadNd, GatherV2, IndexSelect, Arange.
#include <cstdint>

#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_expand.h"
#include "aclnnop/aclnn_flip.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_repeat_interleave.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_split_tensor.h"
#include "aclnnop/aclnn_split_with_size.h"
#include "aclnnop/aclnn_stack.h"
#include "api/aclnn/executor_cache.h"
#include "api/aclnn/nn_call.h"
#include "core/nn/ops.h"

using aclsim::Result;
namespace nn = aclsim::core::nn;
namespace api = aclsim::api;

namespace {

aclnnStatus GatherCall(const char* api_name, nn::GatherKind kind, const aclTensor* self,
                       int64_t dim, const aclTensor* index, const aclTensor* out,
                       uint64_t* workspace_size, aclOpExecutor** executor) {
  api::NnCallKey key(api_name);
  key.Plain(kind).Tensor(self).Plain(dim).Tensor(index).Tensor(out);
  return api::CachedFirstPhase(api_name, key, workspace_size, executor,
                               [&]() -> Result<nn::ExecutorPtr> {
                                 api::NnArgs args;
                                 ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
                                 ACLSIM_ASSIGN_OR_RETURN(auto i, args.Tensor(index, "index"));
                                 ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
                                 return nn::Gather(api_name, kind, x, dim, i, z);
                               });
}

}  // namespace

extern "C" {

aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims,
                                         aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto d, args.Ints(dims, "dims"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::Permute(api_name, x, d, z);
  });
}

aclnnStatus aclnnSliceGetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t start,
                                       int64_t end, int64_t step, aclTensor* out,
                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::Slice(api_name, x, {start}, {end}, {dim}, {step}, z);
  });
}

aclnnStatus aclnnSliceV2GetWorkspaceSize(const aclTensor* self, const aclIntArray* starts,
                                         const aclIntArray* ends, const aclIntArray* axes,
                                         const aclIntArray* steps, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto s, args.Ints(starts, "starts"));
    ACLSIM_ASSIGN_OR_RETURN(auto e, args.Ints(ends, "ends"));
    ACLSIM_ASSIGN_OR_RETURN(auto a, args.Ints(axes, "axes"));
    ACLSIM_ASSIGN_OR_RETURN(auto st, args.Ints(steps, "steps"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::Slice(api_name, x, s, e, a, st, z);
  });
}

aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto xs, args.Tensors(tensors, "tensors"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::Cat(api_name, xs, dim, z);
  });
}

aclnnStatus aclnnRepeatGetWorkspaceSize(const aclTensor* self, const aclIntArray* repeats,
                                        aclTensor* out, uint64_t* workspaceSize,
                                        aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto r, args.Ints(repeats, "repeats"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::Repeat(api_name, x, r, z);
  });
}

// outputSize is a hint of out's size along dim (0: none); out's shape is checked as given.
aclnnStatus aclnnRepeatInterleaveIntGetWorkspaceSize(const aclTensor* self, int64_t repeats,
                                                     int64_t outputSize, aclTensor* out,
                                                     uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::RepeatInterleave(api_name, x, repeats, std::nullopt, z);
  });
}

aclnnStatus aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(const aclTensor* self, int64_t repeats,
                                                            int64_t dim, int64_t outputSize,
                                                            aclTensor* out, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::RepeatInterleave(api_name, x, repeats, dim, z);
  });
}

aclnnStatus aclnnConstantPadNdGetWorkspaceSize(const aclTensor* self, const aclIntArray* pad,
                                               const aclScalar* value, aclTensor* out,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto p, args.Ints(pad, "pad"));
    ACLSIM_ASSIGN_OR_RETURN(auto v, args.Scalar(value, "value"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::ConstantPad(api_name, x, p, v, z);
  });
}

aclnnStatus aclnnGatherV2GetWorkspaceSize(const aclTensor* self, int64_t dim,
                                          const aclTensor* index, aclTensor* out,
                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  return GatherCall(__func__, nn::GatherKind::kGatherV2, self, dim, index, out, workspaceSize,
                    executor);
}

aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                             const aclTensor* index, aclTensor* out,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return GatherCall(__func__, nn::GatherKind::kIndexSelect, self, dim, index, out, workspaceSize,
                    executor);
}

aclnnStatus aclnnArangeGetWorkspaceSize(const aclScalar* start, const aclScalar* end,
                                        const aclScalar* step, aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto s0, args.Scalar(start, "start"));
    ACLSIM_ASSIGN_OR_RETURN(auto s1, args.Scalar(end, "end"));
    ACLSIM_ASSIGN_OR_RETURN(auto ds, args.Scalar(step, "step"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::Arange(api_name, s0, s1, ds, z);
  });
}

aclnnStatus aclnnStackGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out,
                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto xs, args.Tensors(tensors, "tensors"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::Stack(api_name, xs, dim, z);
  });
}

aclnnStatus aclnnSplitTensorGetWorkspaceSize(const aclTensor* self, uint64_t splitSections,
                                             int64_t dim, aclTensorList* out,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto zs, args.Tensors(out, "out"));
    nn::SplitSizes sizes;
    sizes.sections = true;
    sizes.section = splitSections > static_cast<uint64_t>(INT64_MAX)
                        ? INT64_MAX
                        : static_cast<int64_t>(splitSections);
    return nn::Split(api_name, x, sizes, dim, zs);
  });
}

aclnnStatus aclnnSplitWithSizeGetWorkspaceSize(const aclTensor* self, const aclIntArray* splitSize,
                                               int64_t dim, aclTensorList* out,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    nn::SplitSizes sizes;
    ACLSIM_ASSIGN_OR_RETURN(sizes.sizes, args.Ints(splitSize, "splitSize"));
    ACLSIM_ASSIGN_OR_RETURN(auto zs, args.Tensors(out, "out"));
    return nn::Split(api_name, x, sizes, dim, zs);
  });
}

aclnnStatus aclnnFlipGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims,
                                      aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto d, args.Ints(dims, "dims"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::Flip(api_name, x, d, z);
  });
}

aclnnStatus aclnnRollGetWorkspaceSize(const aclTensor* x, const aclIntArray* shifts,
                                      const aclIntArray* dims, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto xt, args.Tensor(x, "x"));
    ACLSIM_ASSIGN_OR_RETURN(auto s, args.Ints(shifts, "shifts"));
    ACLSIM_ASSIGN_OR_RETURN(auto d, args.Ints(dims, "dims"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::Roll(api_name, xt, s, d, z);
  });
}

aclnnStatus aclnnExpandGetWorkspaceSize(const aclTensor* self, const aclIntArray* size,
                                        aclTensor* out, uint64_t* workspaceSize,
                                        aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto sz, args.Ints(size, "size"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::Expand(api_name, x, sz, z);
  });
}

}  // extern "C"
