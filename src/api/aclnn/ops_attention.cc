// First phases of aclnn's fused inference attention (core/nn/ops.h builds them):
// FusedInferAttentionScore and V2, the float16/bfloat16 path without quantization, paging or
// shared prefixes (those arguments must be NULL; each is named when it is not).
#include <initializer_list>
#include <string>
#include <utility>

#include "aclnnop/aclnn_fused_infer_attention_score.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"
#include "api/aclnn/nn_call.h"
#include "core/nn/ops.h"

using aclsim::Result;
using aclsim::Status;
namespace nn = aclsim::core::nn;
namespace api = aclsim::api;

namespace {

// kInvalidParam naming the first argument of `given` that is not NULL.
Status RequireAbsent(const char* api_name,
                     std::initializer_list<std::pair<const void*, const char*>> given) {
  for (const auto& [pointer, what] : given) {
    if (pointer != nullptr) {
      return aclsim::Err(aclsim::StatusCode::kInvalidParam,
                         "{}: {} is not supported by aclsim yet; pass NULL", api_name, what);
    }
  }
  return Status::Ok();
}

// The arguments both versions share, resolved.
struct Common {
  const aclTensor* query;
  const aclTensorList* key;
  const aclTensorList* value;
  const aclTensor* pse;
  const aclTensor* mask;
  int64_t num_heads;
  double scale;
  int64_t pre_tokens;
  int64_t next_tokens;
  const char* layout;
  int64_t kv_heads;
  int64_t sparse_mode;
  int64_t inner_precise;
  int64_t block_size;
  bool lse_flag;
  const aclTensor* out;
  const aclTensor* lse;
};

Result<nn::ExecutorPtr> Build(const char* api_name, const Common& c) {
  if (c.block_size != 0) {
    return aclsim::Err(aclsim::StatusCode::kInvalidParam,
                       "{}: blockSize {} (paged attention) is not supported yet; pass 0", api_name,
                       c.block_size);
  }
  if (c.lse != nullptr && !c.lse_flag) {
    return aclsim::Err(aclsim::StatusCode::kInvalidParam,
                       "{}: softmaxLse is given but softmaxLseFlag is false", api_name);
  }
  api::NnArgs args;
  nn::AttentionArgs call;
  ACLSIM_ASSIGN_OR_RETURN(call.query, args.Tensor(c.query, "query"));
  ACLSIM_ASSIGN_OR_RETURN(call.key, args.Tensors(c.key, "key"));
  ACLSIM_ASSIGN_OR_RETURN(call.value, args.Tensors(c.value, "value"));
  ACLSIM_ASSIGN_OR_RETURN(call.pse_shift, args.Tensor(c.pse, "pseShift", true));
  ACLSIM_ASSIGN_OR_RETURN(call.atten_mask, args.Tensor(c.mask, "attenMask", true));
  ACLSIM_ASSIGN_OR_RETURN(call.attention_out, args.Tensor(c.out, "attentionOut"));
  call.num_heads = c.num_heads;
  call.scale_value = c.scale;
  call.pre_tokens = c.pre_tokens;
  call.next_tokens = c.next_tokens;
  call.input_layout = c.layout == nullptr ? "BSH" : c.layout;
  call.num_key_value_heads = c.kv_heads;
  call.sparse_mode = c.sparse_mode;
  call.inner_precise = c.inner_precise;
  call.softmax_lse_flag = c.lse_flag;
  return nn::FusedInferAttention(api_name, call);
}

}  // namespace

extern "C" {

aclnnStatus aclnnFusedInferAttentionScoreGetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value,
    const aclTensor* pseShift, const aclTensor* attenMask, const aclIntArray* actualSeqLengths,
    const aclIntArray* actualSeqLengthsKv, const aclTensor* deqScale1, const aclTensor* quantScale1,
    const aclTensor* deqScale2, const aclTensor* quantScale2, const aclTensor* quantOffset2,
    const aclTensor* antiquantScale, const aclTensor* antiquantOffset, const aclTensor* blockTable,
    const aclTensor* queryPaddingSize, const aclTensor* kvPaddingSize, int64_t numHeads,
    double scaleValue, int64_t preTokens, int64_t nextTokens, char* inputLayout,
    int64_t numKeyValueHeads, int64_t sparseMode, int64_t innerPrecise, int64_t blockSize,
    int64_t /*antiquantMode*/, bool softmaxLseFlag, const aclTensor* attentionOut,
    const aclTensor* softmaxLse, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    ACLSIM_RETURN_IF_ERROR(RequireAbsent(api_name, {{actualSeqLengths, "actualSeqLengths"},
                                                    {actualSeqLengthsKv, "actualSeqLengthsKv"},
                                                    {deqScale1, "deqScale1"},
                                                    {quantScale1, "quantScale1"},
                                                    {deqScale2, "deqScale2"},
                                                    {quantScale2, "quantScale2"},
                                                    {quantOffset2, "quantOffset2"},
                                                    {antiquantScale, "antiquantScale"},
                                                    {antiquantOffset, "antiquantOffset"},
                                                    {blockTable, "blockTable"},
                                                    {queryPaddingSize, "queryPaddingSize"},
                                                    {kvPaddingSize, "kvPaddingSize"}}));
    return Build(api_name, {query, key, value, pseShift, attenMask, numHeads, scaleValue, preTokens,
                            nextTokens, inputLayout, numKeyValueHeads, sparseMode, innerPrecise,
                            blockSize, softmaxLseFlag, attentionOut, softmaxLse});
  });
}

aclnnStatus aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value,
    const aclTensor* pseShiftOptional, const aclTensor* attenMaskOptional,
    const aclIntArray* actualSeqLengthsOptional, const aclIntArray* actualSeqLengthsKvOptional,
    const aclTensor* deqScale1Optional, const aclTensor* quantScale1Optional,
    const aclTensor* deqScale2Optional, const aclTensor* quantScale2Optional,
    const aclTensor* quantOffset2Optional, const aclTensor* antiquantScaleOptional,
    const aclTensor* antiquantOffsetOptional, const aclTensor* blockTableOptional,
    const aclTensor* queryPaddingSizeOptional, const aclTensor* kvPaddingSizeOptional,
    const aclTensor* keyAntiquantScaleOptional, const aclTensor* keyAntiquantOffsetOptional,
    const aclTensor* valueAntiquantScaleOptional, const aclTensor* valueAntiquantOffsetOptional,
    const aclTensor* keySharedPrefixOptional, const aclTensor* valueSharedPrefixOptional,
    const aclIntArray* actualSharedPrefixLenOptional, int64_t numHeads, double scaleValue,
    int64_t preTokens, int64_t nextTokens, char* inputLayout, int64_t numKeyValueHeads,
    int64_t sparseMode, int64_t innerPrecise, int64_t blockSize, int64_t /*antiquantMode*/,
    bool softmaxLseFlag, int64_t /*keyAntiquantMode*/, int64_t /*valueAntiquantMode*/,
    const aclTensor* attentionOut, const aclTensor* softmaxLse, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  const char* api_name = __func__;
  return api::FirstPhase(api_name, workspaceSize, executor, [&]() -> Result<nn::ExecutorPtr> {
    ACLSIM_RETURN_IF_ERROR(RequireAbsent(
        api_name, {{actualSeqLengthsOptional, "actualSeqLengthsOptional"},
                   {actualSeqLengthsKvOptional, "actualSeqLengthsKvOptional"},
                   {deqScale1Optional, "deqScale1Optional"},
                   {quantScale1Optional, "quantScale1Optional"},
                   {deqScale2Optional, "deqScale2Optional"},
                   {quantScale2Optional, "quantScale2Optional"},
                   {quantOffset2Optional, "quantOffset2Optional"},
                   {antiquantScaleOptional, "antiquantScaleOptional"},
                   {antiquantOffsetOptional, "antiquantOffsetOptional"},
                   {blockTableOptional, "blockTableOptional"},
                   {queryPaddingSizeOptional, "queryPaddingSizeOptional"},
                   {kvPaddingSizeOptional, "kvPaddingSizeOptional"},
                   {keyAntiquantScaleOptional, "keyAntiquantScaleOptional"},
                   {keyAntiquantOffsetOptional, "keyAntiquantOffsetOptional"},
                   {valueAntiquantScaleOptional, "valueAntiquantScaleOptional"},
                   {valueAntiquantOffsetOptional, "valueAntiquantOffsetOptional"},
                   {keySharedPrefixOptional, "keySharedPrefixOptional"},
                   {valueSharedPrefixOptional, "valueSharedPrefixOptional"},
                   {actualSharedPrefixLenOptional, "actualSharedPrefixLenOptional"}}));
    return Build(api_name,
                 {query, key, value, pseShiftOptional, attenMaskOptional, numHeads, scaleValue,
                  preTokens, nextTokens, inputLayout, numKeyValueHeads, sparseMode, innerPrecise,
                  blockSize, softmaxLseFlag, attentionOut, softmaxLse});
  });
}

}  // extern "C"
