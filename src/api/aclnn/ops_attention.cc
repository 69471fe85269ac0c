// First phases of aclnn's inference attention (core/nn/ops.h builds them): FusedInferAttention-
// Score and V2, PromptFlashAttention and V3 (prefill), IncreFlashAttention, V3 and V4 (decode):
// the float16/bfloat16 path with actual sequence lengths, without quantization, paging or
// shared prefixes (those arguments must be NULL; each is named when it is not).
#include <initializer_list>
#include <string>
#include <utility>

#include "aclnnop/aclnn_fused_infer_attention_score.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"
#include "aclnnop/aclnn_incre_flash_attention.h"
#include "aclnnop/aclnn_incre_flash_attention_v4.h"
#include "aclnnop/aclnn_prompt_flash_attention.h"
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

// The arguments every version shares, resolved. Prompt attention passes one key and value
// tensor (key_tensor / value_tensor), the others lists.
struct Common {
  const aclTensor* query;
  const aclTensorList* key;
  const aclTensorList* value;
  const aclTensor* key_tensor;
  const aclTensor* value_tensor;
  const aclIntArray* q_lengths;
  const aclIntArray* kv_lengths;
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
  if (c.key_tensor != nullptr || c.value_tensor != nullptr || c.key == nullptr) {
    ACLSIM_ASSIGN_OR_RETURN(const nn::NnTensor* k, args.Tensor(c.key_tensor, "key"));
    ACLSIM_ASSIGN_OR_RETURN(const nn::NnTensor* v, args.Tensor(c.value_tensor, "value"));
    call.key = {k};
    call.value = {v};
  } else {
    ACLSIM_ASSIGN_OR_RETURN(call.key, args.Tensors(c.key, "key"));
    ACLSIM_ASSIGN_OR_RETURN(call.value, args.Tensors(c.value, "value"));
  }
  if (c.q_lengths != nullptr) {
    ACLSIM_ASSIGN_OR_RETURN(call.actual_seq_lengths, args.Ints(c.q_lengths, "actualSeqLengths"));
  }
  if (c.kv_lengths != nullptr) {
    ACLSIM_ASSIGN_OR_RETURN(call.actual_seq_lengths_kv,
                            args.Ints(c.kv_lengths, "actualSeqLengthsKv"));
  }
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

// The arguments of a prefill (prompt) call: one key and one value tensor, defaults for the
// rest.
Common Prefill(const aclTensor* query, const aclTensor* key, const aclTensor* value,
               const aclTensor* pse, const aclTensor* mask, int64_t heads, double scale,
               const char* layout, int64_t kv_heads, const aclTensor* out) {
  Common c{};
  c.query = query;
  c.key_tensor = key;
  c.value_tensor = value;
  c.pse = pse;
  c.mask = mask;
  c.num_heads = heads;
  c.scale = scale;
  c.pre_tokens = 2147483647;
  c.next_tokens = 2147483647;
  c.layout = layout;
  c.kv_heads = kv_heads;
  c.inner_precise = 1;
  c.out = out;
  return c;
}

// The arguments of a decode (incremental) call: key/value lists and their lengths, no band.
Common Decode(const aclTensor* query, const aclTensorList* key, const aclTensorList* value,
              const aclTensor* pse, const aclTensor* mask, const aclIntArray* kv_lengths,
              int64_t heads, double scale, const char* layout, int64_t kv_heads,
              int64_t inner_precise, int64_t block_size, const aclTensor* out) {
  Common c{};
  c.query = query;
  c.key = key;
  c.value = value;
  c.kv_lengths = kv_lengths;
  c.pse = pse;
  c.mask = mask;
  c.num_heads = heads;
  c.scale = scale;
  c.pre_tokens = 2147483647;
  c.next_tokens = 2147483647;
  c.layout = layout;
  c.kv_heads = kv_heads;
  c.inner_precise = inner_precise;
  c.block_size = block_size;
  c.out = out;
  return c;
}

// The first phase of `c`, refusing every argument of `refused` that is not NULL.
aclnnStatus BuildWithout(const char* api_name, const Common& c,
                         std::initializer_list<std::pair<const void*, const char*>> refused,
                         uint64_t* workspace_size, aclOpExecutor** executor) {
  return api::FirstPhase(api_name, workspace_size, executor, [&]() -> Result<nn::ExecutorPtr> {
    ACLSIM_RETURN_IF_ERROR(RequireAbsent(api_name, refused));
    return Build(api_name, c);
  });
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
    ACLSIM_RETURN_IF_ERROR(RequireAbsent(api_name, {{deqScale1, "deqScale1"},
                                                    {quantScale1, "quantScale1"},
                                                    {deqScale2, "deqScale2"},
                                                    {quantScale2, "quantScale2"},
                                                    {quantOffset2, "quantOffset2"},
                                                    {antiquantScale, "antiquantScale"},
                                                    {antiquantOffset, "antiquantOffset"},
                                                    {blockTable, "blockTable"},
                                                    {queryPaddingSize, "queryPaddingSize"},
                                                    {kvPaddingSize, "kvPaddingSize"}}));
    Common c =
        Decode(query, key, value, pseShift, attenMask, actualSeqLengthsKv, numHeads, scaleValue,
               inputLayout, numKeyValueHeads, innerPrecise, blockSize, attentionOut);
    c.q_lengths = actualSeqLengths;
    c.pre_tokens = preTokens;
    c.next_tokens = nextTokens;
    c.sparse_mode = sparseMode;
    c.lse_flag = softmaxLseFlag;
    c.lse = softmaxLse;
    return Build(api_name, c);
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
        api_name, {{deqScale1Optional, "deqScale1Optional"},
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
    Common c = Decode(query, key, value, pseShiftOptional, attenMaskOptional,
                      actualSeqLengthsKvOptional, numHeads, scaleValue, inputLayout,
                      numKeyValueHeads, innerPrecise, blockSize, attentionOut);
    c.q_lengths = actualSeqLengthsOptional;
    c.pre_tokens = preTokens;
    c.next_tokens = nextTokens;
    c.sparse_mode = sparseMode;
    c.lse_flag = softmaxLseFlag;
    c.lse = softmaxLse;
    return Build(api_name, c);
  });
}

// Prefill: one key and value tensor; actualSeqLengths are the query's lengths. V1 has no
// innerPrecise (high performance, 1) and no sparse mode.
aclnnStatus aclnnPromptFlashAttentionGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* pseShift,
    const aclTensor* attenMask, const aclIntArray* actualSeqLengths, int64_t numHeads,
    double scaleValue, int64_t preTokens, int64_t nextTokens, char* inputLayout,
    int64_t numKeyValueHeads, const aclTensor* attentionOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  Common c = Prefill(query, key, value, pseShift, attenMask, numHeads, scaleValue, inputLayout,
                     numKeyValueHeads, attentionOut);
  c.q_lengths = actualSeqLengths;
  c.pre_tokens = preTokens;
  c.next_tokens = nextTokens;
  return BuildWithout(__func__, c, {}, workspaceSize, executor);
}

aclnnStatus aclnnPromptFlashAttentionV3GetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* pseShift,
    const aclTensor* attenMask, const aclIntArray* actualSeqLengths,
    const aclIntArray* actualSeqLengthsKv, const aclTensor* deqScale1, const aclTensor* quantScale1,
    const aclTensor* deqScale2, const aclTensor* quantScale2, const aclTensor* quantOffset2,
    int64_t numHeads, double scaleValue, int64_t preTokens, int64_t nextTokens, char* inputLayout,
    int64_t numKeyValueHeads, int64_t sparseMode, int64_t innerPrecise,
    const aclTensor* attentionOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  Common c = Prefill(query, key, value, pseShift, attenMask, numHeads, scaleValue, inputLayout,
                     numKeyValueHeads, attentionOut);
  c.q_lengths = actualSeqLengths;
  c.kv_lengths = actualSeqLengthsKv;
  c.pre_tokens = preTokens;
  c.next_tokens = nextTokens;
  c.sparse_mode = sparseMode;
  c.inner_precise = innerPrecise;
  return BuildWithout(__func__, c,
                      {{deqScale1, "deqScale1"},
                       {quantScale1, "quantScale1"},
                       {deqScale2, "deqScale2"},
                       {quantScale2, "quantScale2"},
                       {quantOffset2, "quantOffset2"}},
                      workspaceSize, executor);
}

// Decode: key and value lists (one tensor each); actualSeqLengths are the key/value lengths.
aclnnStatus aclnnIncreFlashAttentionGetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value,
    const aclTensor* pseShift, const aclTensor* attenMask, const aclIntArray* actualSeqLengths,
    int64_t numHeads, double scaleValue, char* inputLayout, int64_t numKeyValueHeads,
    const aclTensor* attentionOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const Common c = Decode(query, key, value, pseShift, attenMask, actualSeqLengths, numHeads,
                          scaleValue, inputLayout, numKeyValueHeads, 1, 0, attentionOut);
  return BuildWithout(__func__, c, {}, workspaceSize, executor);
}

aclnnStatus aclnnIncreFlashAttentionV3GetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value,
    const aclTensor* pseShift, const aclTensor* attenMask, const aclIntArray* actualSeqLengths,
    const aclTensor* dequantScale1, const aclTensor* quantScale1, const aclTensor* dequantScale2,
    const aclTensor* quantScale2, const aclTensor* quantOffset2, const aclTensor* antiquantScale,
    const aclTensor* antiquantOffset, const aclTensor* blocktable, int64_t numHeads,
    double scaleValue, char* inputLayout, int64_t numKeyValueHeads, int64_t blockSize,
    int64_t innerPrecise, const aclTensor* attentionOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return aclnnIncreFlashAttentionV4GetWorkspaceSize(
      query, key, value, pseShift, attenMask, actualSeqLengths, dequantScale1, quantScale1,
      dequantScale2, quantScale2, quantOffset2, antiquantScale, antiquantOffset, blocktable,
      nullptr, numHeads, scaleValue, inputLayout, numKeyValueHeads, blockSize, innerPrecise,
      attentionOut, workspaceSize, executor);
}

// V4 is V3 with kvPaddingSize; errors name the entry the caller called.
aclnnStatus aclnnIncreFlashAttentionV4GetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value,
    const aclTensor* pseShift, const aclTensor* attenMask, const aclIntArray* actualSeqLengths,
    const aclTensor* dequantScale1, const aclTensor* quantScale1, const aclTensor* dequantScale2,
    const aclTensor* quantScale2, const aclTensor* quantOffset2, const aclTensor* antiquantScale,
    const aclTensor* antiquantOffset, const aclTensor* blocktable, const aclTensor* kvPaddingSize,
    int64_t numHeads, double scaleValue, char* inputLayout, int64_t numKeyValueHeads,
    int64_t blockSize, int64_t innerPrecise, const aclTensor* attentionOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  const Common c =
      Decode(query, key, value, pseShift, attenMask, actualSeqLengths, numHeads, scaleValue,
             inputLayout, numKeyValueHeads, innerPrecise, blockSize, attentionOut);
  return BuildWithout(__func__, c,
                      {{dequantScale1, "dequantScale1"},
                       {quantScale1, "quantScale1"},
                       {dequantScale2, "dequantScale2"},
                       {quantScale2, "quantScale2"},
                       {quantOffset2, "quantOffset2"},
                       {antiquantScale, "antiquantScale"},
                       {antiquantOffset, "antiquantOffset"},
                       {blocktable, "blocktable"},
                       {kvPaddingSize, "kvPaddingSize"}},
                      workspaceSize, executor);
}

}  // extern "C"
