// aclnn's fused inference attention (FusedInferAttentionScore / V2) over the op library's
// BNSD kernel: the layouts (BSH, BSND, BNSD) become strided BNSD views of the caller's
// tensors, the result is written back through attentionOut's view.
#include <fmt/ranges.h>

#include <string>

#include "core/nn/builder.h"
#include "core/nn/ops.h"

namespace aclsim::core::nn {
namespace {
namespace attention {

using DT = ops::DataType;

// `value` (in `layout`, with `heads` heads) as a [B, N, S, D] view.
Result<Value> AsBnsd(const Builder& b, const Value& value, const std::string& layout, int64_t heads,
                     const char* what) {
  const auto& d = value.dims;
  const auto& s = value.strides;
  if (layout == "BSH") {
    if (d.size() != 3 || heads <= 0 || d[2] % heads != 0) {
      return Err(StatusCode::kInvalidParam, "{}: {} has shape {}; BSH needs [B, S, {} * D]",
                 b.name(), what, ShapeString(d), heads);
    }
    const int64_t dim = d[2] / heads;
    return b.View(value, {d[0], heads, d[1], dim}, {s[0], dim * s[2], s[1], s[2]}, 0);
  }
  if (d.size() != 4) {
    return Err(StatusCode::kInvalidParam, "{}: {} has shape {}; {} needs 4 dims", b.name(), what,
               ShapeString(d), layout);
  }
  if (layout == "BSND") return b.View(value, {d[0], d[2], d[1], d[3]}, {s[0], s[2], s[1], s[3]}, 0);
  return value;  // BNSD
}

// The per-batch lengths `lengths` (name `what`), one value or `batch`, each in [0, limit].
Result<std::vector<int64_t>> PerBatch(const Builder& b, const std::vector<int64_t>& lengths,
                                      const char* what, int64_t batch, int64_t limit) {
  if (lengths.empty()) return std::vector<int64_t>(static_cast<size_t>(batch), limit);
  if (lengths.size() != 1 && static_cast<int64_t>(lengths.size()) != batch) {
    return Err(StatusCode::kInvalidParam, "{}: {} has {} values; it needs 1 or the batch {}",
               b.name(), what, lengths.size(), batch);
  }
  std::vector<int64_t> per_batch(static_cast<size_t>(batch));
  for (int64_t i = 0; i < batch; ++i) {
    const int64_t n = lengths[lengths.size() == 1 ? 0 : static_cast<size_t>(i)];
    if (n < 0 || n > limit) {
      return Err(StatusCode::kInvalidParam, "{}: {}[{}] is {}; it must be in [0, {}]", b.name(),
                 what, i, n, limit);
    }
    per_batch[static_cast<size_t>(i)] = n;
  }
  return per_batch;
}

// A bool [B, 1, S, Skv] mask of what the actual lengths leave out.
Result<Value> LengthsMask(const Builder& b, const AttentionArgs& args, int64_t batch, int64_t s,
                          int64_t skv) {
  ACLSIM_ASSIGN_OR_RETURN(auto q_len,
                          PerBatch(b, args.actual_seq_lengths, "actualSeqLengths", batch, s));
  ACLSIM_ASSIGN_OR_RETURN(
      auto kv_len, PerBatch(b, args.actual_seq_lengths_kv, "actualSeqLengthsKv", batch, skv));
  std::vector<uint8_t> bytes(static_cast<size_t>(batch * s * skv));
  size_t at = 0;
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t i = 0; i < s; ++i) {
      for (int64_t j = 0; j < skv; ++j) {
        bytes[at++] =
            (i >= q_len[static_cast<size_t>(n)] || j >= kv_len[static_cast<size_t>(n)]) ? 1 : 0;
      }
    }
  }
  return b.ConstantBytes(std::move(bytes), DT::kBool, {batch, 1, s, skv});
}

}  // namespace attention
}  // namespace

Result<ExecutorPtr> FusedInferAttention(const char* name, const AttentionArgs& args) {
  using namespace attention;  // NOLINT(google-build-using-namespace)
  Builder b(name);
  if (args.key.size() != 1 || args.value.size() != 1) {
    return Err(StatusCode::kInvalidParam,
               "{}: key and value hold {} and {} tensors; aclsim supports one tensor each (a "
               "list per batch is not supported yet)",
               name, args.key.size(), args.value.size());
  }
  ACLSIM_ASSIGN_OR_RETURN(Value q, b.Input(args.query, "query"));
  ACLSIM_ASSIGN_OR_RETURN(Value k, b.Input(args.key[0], "key[0]"));
  ACLSIM_ASSIGN_OR_RETURN(Value v, b.Input(args.value[0], "value[0]"));
  ACLSIM_ASSIGN_OR_RETURN(Value pse, b.Input(args.pse_shift, "pseShift", true));
  ACLSIM_ASSIGN_OR_RETURN(Value mask, b.Input(args.atten_mask, "attenMask", true));
  ACLSIM_ASSIGN_OR_RETURN(Value out, b.Output(args.attention_out, "attentionOut"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  const std::string& layout = args.input_layout;
  if (layout != "BSH" && layout != "BSND" && layout != "BNSD") {
    return Err(StatusCode::kInvalidParam,
               "{}: inputLayout \"{}\" is not supported; aclsim takes BSH, BSND or BNSD", b.name(),
               layout);
  }
  if (q.dtype != DT::kFloat16 && q.dtype != DT::kBf16) {
    return Err(StatusCode::kInvalidParam, "{}: query is {}; it must be float16 or bfloat16{}",
               b.name(), ops::DataTypeName(q.dtype),
               q.dtype == DT::kInt8 ? " (int8 queries are not supported yet)" : "");
  }
  if (k.dtype != q.dtype || v.dtype != q.dtype || out.dtype != q.dtype) {
    return Err(
        StatusCode::kInvalidParam,
        "{}: query {}, key {}, value {} and attentionOut {} must have one dtype{}", b.name(),
        ops::DataTypeName(q.dtype), ops::DataTypeName(k.dtype), ops::DataTypeName(v.dtype),
        ops::DataTypeName(out.dtype),
        k.dtype == DT::kInt8 ? " (int8 key/value with antiquant are not supported yet)" : "");
  }
  if (args.sparse_mode != 0) {
    return Err(StatusCode::kInvalidParam,
               "{}: sparseMode {} is not supported yet; aclsim takes 0 (attenMask plus the "
               "preTokens/nextTokens band)",
               b.name(), args.sparse_mode);
  }
  if (args.inner_precise < 0 || args.inner_precise > 3) {
    return Err(StatusCode::kInvalidParam, "{}: innerPrecise is {}; it must be 0 to 3", b.name(),
               args.inner_precise);
  }
  if (args.softmax_lse_flag) {
    return Err(StatusCode::kInvalidParam,
               "{}: softmaxLseFlag (the softmaxLse output) is not supported yet", b.name());
  }
  const int64_t heads = args.num_heads;
  const int64_t kv_heads = args.num_key_value_heads == 0 ? heads : args.num_key_value_heads;
  if (heads <= 0 || kv_heads <= 0 || heads % kv_heads != 0) {
    return Err(StatusCode::kInvalidParam,
               "{}: numHeads {} must be positive and a multiple of numKeyValueHeads {}", b.name(),
               heads, args.num_key_value_heads);
  }
  ACLSIM_ASSIGN_OR_RETURN(Value q4, AsBnsd(b, q, layout, heads, "query"));
  ACLSIM_ASSIGN_OR_RETURN(Value k4, AsBnsd(b, k, layout, kv_heads, "key[0]"));
  ACLSIM_ASSIGN_OR_RETURN(Value v4, AsBnsd(b, v, layout, kv_heads, "value[0]"));
  ACLSIM_ASSIGN_OR_RETURN(Value o4, AsBnsd(b, out, layout, heads, "attentionOut"));
  const int64_t batch = q4.dims[0];
  const int64_t s = q4.dims[2];
  const int64_t skv = k4.dims[2];
  if (q4.dims[1] != heads || k4.dims[1] != kv_heads || k4.dims[0] != batch ||
      k4.dims[3] != q4.dims[3] || v4.dims[0] != batch || v4.dims[1] != kv_heads ||
      v4.dims[2] != skv) {
    return Err(StatusCode::kInvalidParam,
               "{}: query {}, key {} and value {} ({}) do not match numHeads {} and "
               "numKeyValueHeads {}",
               b.name(), ShapeString(q.dims), ShapeString(k.dims), ShapeString(v.dims), layout,
               heads, args.num_key_value_heads);
  }
  const std::vector<int64_t> want_out = {batch, heads, s, v4.dims[3]};
  if (o4.dims != want_out) {
    return Err(StatusCode::kInvalidParam, "{}: attentionOut has shape {} but must be {} in BNSD",
               b.name(), ShapeString(out.dims), ShapeString(want_out));
  }
  if (pse.present()) {
    const auto& d = pse.dims;
    if (pse.dtype != q.dtype || d.size() != 4 || (d[0] != 1 && d[0] != batch) ||
        (d[1] != 1 && d[1] != heads) || d[2] != s || d[3] != skv) {
      return Err(StatusCode::kInvalidParam,
                 "{}: pseShift is {} {}; it must be {} [1|{}, 1|{}, {}, {}]", b.name(),
                 ops::DataTypeName(pse.dtype), ShapeString(d), ops::DataTypeName(q.dtype), batch,
                 heads, s, skv);
    }
  }
  if (mask.present()) {
    const auto& d = mask.dims;
    const bool ok_type =
        mask.dtype == DT::kBool || mask.dtype == DT::kInt8 || mask.dtype == DT::kUint8;
    std::vector<int64_t> m4;
    if (d.size() == 2) m4 = {1, 1, d[0], d[1]};
    // Decode (one query row): a 2-D mask is [B, Skv] (IncreFlashAttention's form).
    if (d.size() == 2 && s == 1 && d[0] == batch && batch != 1) m4 = {batch, 1, 1, d[1]};
    if (d.size() == 3) m4 = {d[0], 1, d[1], d[2]};
    if (d.size() == 4 && d[1] == 1) m4 = d;
    if (!ok_type || m4.empty() || (m4[0] != 1 && m4[0] != batch) || m4[2] != s || m4[3] != skv) {
      return Err(StatusCode::kInvalidParam,
                 "{}: attenMask is {} {}; it must be bool/int8/uint8 [{}, {}], [1|{}, {}, {}] or "
                 "[1|{}, 1, {}, {}]",
                 b.name(), ops::DataTypeName(mask.dtype), ShapeString(d), s, skv, batch, s, skv,
                 batch, s, skv);
    }
    ACLSIM_ASSIGN_OR_RETURN(mask, b.Reshape(mask, m4));
  }
  int64_t inner_precise = args.inner_precise;
  if (!args.actual_seq_lengths.empty() || !args.actual_seq_lengths_kv.empty()) {
    ACLSIM_ASSIGN_OR_RETURN(Value lengths_mask, LengthsMask(b, args, batch, s, skv));
    if (mask.present()) {
      ACLSIM_ASSIGN_OR_RETURN(Value user_mask, b.Cast(mask, DT::kBool));
      ACLSIM_ASSIGN_OR_RETURN(mask, b.Op1("LogicalOr", {lengths_mask, user_mask}));
    } else {
      mask = lengths_mask;
    }
    // Rows past a query length are fully masked: they give zeros (the row correction of
    // innerPrecise 2 / 3, with the same precision choice).
    inner_precise |= 2;
  }
  if (out.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(Value result,
                          b.Op1("FusedInferAttentionScore", {q4, k4, v4, pse, mask},
                                {{"num_heads", heads},
                                 {"scale_value", static_cast<float>(args.scale_value)},
                                 {"num_key_value_heads", kv_heads},
                                 {"pre_tokens", args.pre_tokens},
                                 {"next_tokens", args.next_tokens},
                                 {"inner_precise", inner_precise}}));
  ACLSIM_RETURN_IF_ERROR(b.Store(result, o4));
  return b.Finish();
}

}  // namespace aclsim::core::nn
