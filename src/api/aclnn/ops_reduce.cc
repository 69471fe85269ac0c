// First phases of the aclnn softmax, reductions and scans (core/nn/ops.h builds them):
// Softmax, ReduceSum, Mean, ArgMax, Argsort, Sort, Topk, Cumsum.
#include "aclnnop/aclnn_all.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_any.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argmin.h"
#include "aclnnop/aclnn_argsort.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_max_dim.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_sort.h"
#include "aclnnop/aclnn_topk.h"
#include "api/aclnn/executor_cache.h"
#include "api/aclnn/nn_call.h"
#include "core/nn/ops.h"

using aclsim::Result;
namespace nn = aclsim::core::nn;
namespace api = aclsim::api;

namespace {

aclsim::ops::DataType DtypeOf(aclDataType dtype) {
  return static_cast<aclsim::ops::DataType>(api::EnumValue(dtype));
}

// A reduction over the dims of `dims` (null with `all_dims`: every dim), computed in `dtype`
// (kUndefined: the operator's rule).
aclnnStatus ReduceOver(const char* api_name, nn::Reduction reduction, const aclTensor* self,
                       const aclIntArray* dims, bool all_dims, std::vector<int64_t> one_dim,
                       bool keep_dims, aclsim::ops::DataType dtype, const aclTensor* out,
                       uint64_t* workspace_size, aclOpExecutor** executor) {
  return api::FirstPhase(api_name, workspace_size, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    std::vector<int64_t> axes = std::move(one_dim);
    if (!all_dims && axes.empty()) {
      ACLSIM_ASSIGN_OR_RETURN(axes, args.Ints(dims, "dim"));
    }
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::Reduce(api_name, reduction, x, axes, keep_dims, dtype, z);
  });
}

aclnnStatus ReduceCall(const char* api_name, nn::Reduction reduction, const aclTensor* self,
                       const aclIntArray* dims, bool keep_dims, aclDataType dtype,
                       const aclTensor* out, uint64_t* workspace_size, aclOpExecutor** executor) {
  return ReduceOver(api_name, reduction, self, dims, false, {}, keep_dims, DtypeOf(dtype), out,
                    workspace_size, executor);
}

constexpr auto kOwnDtype = aclsim::ops::DataType::kUndefined;

}  // namespace

extern "C" {

aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  api::NnCallKey key(api_name);
  key.Tensor(self).Plain(dim).Tensor(out);
  return api::CachedFirstPhase(api_name, key, workspaceSize, executor,
                               [&]() -> Result<nn::ExecutorPtr> {
                                 api::NnArgs args;
                                 ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
                                 ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
                                 return nn::Softmax(api_name, x, dim, z);
                               });
}

aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims,
                                           bool keepDims, aclDataType dtype, aclTensor* out,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ReduceCall(__func__, nn::Reduction::kSum, self, dims, keepDims, dtype, out, workspaceSize,
                    executor);
}

aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                      aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  return ReduceCall(__func__, nn::Reduction::kMean, self, dim, keepDim, dtype, out, workspaceSize,
                    executor);
}

aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim,
                                        aclTensor* out, uint64_t* workspaceSize,
                                        aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::ArgMax(api_name, x, dim, keepdim, z);
  });
}

aclnnStatus aclnnArgsortGetWorkspaceSize(const aclTensor* self, int64_t dim, bool descending,
                                         aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::Argsort(api_name, x, dim, descending, z);
  });
}

aclnnStatus aclnnSortGetWorkspaceSize(const aclTensor* self, bool stable, int64_t dim,
                                      bool descending, aclTensor* valuesOut, aclTensor* indicesOut,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto v, args.Tensor(valuesOut, "valuesOut"));
    ACLSIM_ASSIGN_OR_RETURN(auto i, args.Tensor(indicesOut, "indicesOut"));
    return nn::Sort(api_name, x, stable, dim, descending, v, i);
  });
}

aclnnStatus aclnnTopkGetWorkspaceSize(const aclTensor* self, int64_t k, int64_t dim, bool largest,
                                      bool sorted, aclTensor* valuesOut, aclTensor* indicesOut,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto v, args.Tensor(valuesOut, "valuesOut"));
    ACLSIM_ASSIGN_OR_RETURN(auto i, args.Tensor(indicesOut, "indicesOut"));
    return nn::Topk(api_name, x, k, dim, largest, sorted, v, i);
  });
}

aclnnStatus aclnnCumsumGetWorkspaceSize(const aclTensor* self, int64_t dim, aclDataType dtype,
                                        aclTensor* out, uint64_t* workspaceSize,
                                        aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::Cumsum(api_name, x, dim, DtypeOf(dtype), z);
  });
}

aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                      aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  return ReduceOver(__func__, nn::Reduction::kMax, self, dim, false, {}, keepDim, kOwnDtype, out,
                    workspaceSize, executor);
}
aclnnStatus aclnnAminGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                      aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  return ReduceOver(__func__, nn::Reduction::kMin, self, dim, false, {}, keepDim, kOwnDtype, out,
                    workspaceSize, executor);
}
aclnnStatus aclnnMaxGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
  return ReduceOver(__func__, nn::Reduction::kMax, self, nullptr, true, {}, false, kOwnDtype, out,
                    workspaceSize, executor);
}
aclnnStatus aclnnMinGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
  return ReduceOver(__func__, nn::Reduction::kMin, self, nullptr, true, {}, false, kOwnDtype, out,
                    workspaceSize, executor);
}
aclnnStatus aclnnAllGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepdim,
                                     aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
  return ReduceOver(__func__, nn::Reduction::kAll, self, dim, false, {}, keepdim, kOwnDtype, out,
                    workspaceSize, executor);
}
aclnnStatus aclnnAnyGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepdim,
                                     aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
  return ReduceOver(__func__, nn::Reduction::kAny, self, dim, false, {}, keepdim, kOwnDtype, out,
                    workspaceSize, executor);
}
aclnnStatus aclnnProdGetWorkspaceSize(const aclTensor* self, const aclDataType dtype,
                                      aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  return ReduceOver(__func__, nn::Reduction::kProd, self, nullptr, true, {}, false, DtypeOf(dtype),
                    out, workspaceSize, executor);
}
aclnnStatus aclnnProdDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepDim,
                                         const aclDataType dtype, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return ReduceOver(__func__, nn::Reduction::kProd, self, nullptr, false, {dim}, keepDim,
                    DtypeOf(dtype), out, workspaceSize, executor);
}
aclnnStatus aclnnLogSumExpGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim,
                                           bool keepDim, aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  return ReduceOver(__func__, nn::Reduction::kLogSumExp, self, dim, false, {}, keepDim, kOwnDtype,
                    out, workspaceSize, executor);
}
aclnnStatus aclnnArgMinGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim,
                                        aclTensor* out, uint64_t* workspaceSize,
                                        aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    api::NnArgs args;
    ACLSIM_ASSIGN_OR_RETURN(auto x, args.Tensor(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(auto z, args.Tensor(out, "out"));
    return nn::ArgMax(api_name, x, dim, keepdim, z, true);
  });
}

}  // extern "C"
