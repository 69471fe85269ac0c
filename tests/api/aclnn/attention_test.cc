// aclnnFusedInferAttentionScoreV2 (and V1) through the public API: BSND with grouped key/value
// heads and an f16 pseShift broadcast over the heads by a zero stride (llama.cpp's flash
// attention), BNSD with a causal boolean mask and innerPrecise's row-invalid correction, BSH,
// PromptFlashAttention / IncreFlashAttention with actual sequence lengths, and the errors.
#include <cmath>
#include <cstdint>
#include <vector>

#include "aclnn_test.h"
#include "aclnnop/aclnn_fused_infer_attention_score.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"
#include "aclnnop/aclnn_incre_flash_attention.h"
#include "aclnnop/aclnn_incre_flash_attention_v4.h"
#include "aclnnop/aclnn_prompt_flash_attention.h"

namespace {

using aclnntest::AclnnTest;
using aclnntest::DeviceArray;
using aclnntest::FromF16;
using aclnntest::HasMessage;
using aclnntest::ToF16;

float R16(float v) { return aclFloat16ToFloat(aclFloatToFloat16(v)); }

// Values in [-1, 1) from a small generator, rounded to f16.
std::vector<float> Values(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  for (auto& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = R16(static_cast<float>(seed >> 8) / static_cast<float>(1u << 23) - 1.0f);
  }
  return v;
}

struct Dims {
  int64_t b, n, s, d, nkv, skv;
};

// out[b][n][s][:] (BNSD) from q, k, v in BNSD; pse [n][s][j] or empty; mask [s][j] or empty.
std::vector<float> HostAttention(const Dims& a, const std::vector<float>& q,
                                 const std::vector<float>& k, const std::vector<float>& v,
                                 const std::vector<float>& pse, const std::vector<uint8_t>& mask,
                                 float scale) {
  std::vector<float> out(a.b * a.n * a.s * a.d, 0.0f);
  for (int64_t b = 0; b < a.b; ++b) {
    for (int64_t n = 0; n < a.n; ++n) {
      const int64_t h = n / (a.n / a.nkv);
      for (int64_t s = 0; s < a.s; ++s) {
        std::vector<double> w(a.skv, -INFINITY);
        double best = -INFINITY;
        for (int64_t j = 0; j < a.skv; ++j) {
          if (!mask.empty() && mask[s * a.skv + j] != 0) continue;
          double dot = 0;
          for (int64_t e = 0; e < a.d; ++e) {
            dot += double{q[((b * a.n + n) * a.s + s) * a.d + e]} *
                   k[((b * a.nkv + h) * a.skv + j) * a.d + e];
          }
          w[j] = dot * scale + (pse.empty() ? 0.0 : pse[(n * a.s + s) * a.skv + j]);
          best = std::max(best, w[j]);
        }
        if (best == -INFINITY) continue;  // all masked: zeros (innerPrecise 2)
        double sum = 0;
        for (auto& x : w) sum += (x = std::exp(x - best));
        for (int64_t j = 0; j < a.skv; ++j) {
          for (int64_t e = 0; e < a.d; ++e) {
            out[((b * a.n + n) * a.s + s) * a.d + e] +=
                static_cast<float>(w[j] / sum) * v[((b * a.nkv + h) * a.skv + j) * a.d + e];
          }
        }
      }
    }
  }
  return out;
}

// BNSD data [B, N, S, D] rearranged to BSND.
std::vector<float> ToBsnd(const std::vector<float>& x, int64_t b, int64_t n, int64_t s, int64_t d) {
  std::vector<float> y(x.size());
  for (int64_t i = 0; i < b; ++i)
    for (int64_t h = 0; h < n; ++h)
      for (int64_t t = 0; t < s; ++t)
        for (int64_t e = 0; e < d; ++e)
          y[((i * s + t) * n + h) * d + e] = x[((i * n + h) * s + t) * d + e];
  return y;
}

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], 4e-3 + 4e-3 * std::fabs(want[i])) << "element " << i;
  }
}

aclTensorList* ListOf(aclTensor* t) { return aclCreateTensorList(&t, 1); }

// Phase 1 of V2 with llama.cpp's arguments (every optional NULL but pse and mask).
aclnnStatus FiaV2(aclTensor* q, aclTensorList* k, aclTensorList* v, aclTensor* pse, aclTensor* mask,
                  int64_t heads, double scale, const char* layout, int64_t kv_heads,
                  int64_t inner_precise, aclTensor* out, uint64_t* ws, aclOpExecutor** ex,
                  aclIntArray* seq = nullptr) {
  char text[8] = {};
  for (int i = 0; layout[i] != 0 && i < 7; ++i) text[i] = layout[i];
  return aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
      q, k, v, pse, mask, seq, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
      nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
      nullptr, heads, scale, 65535, 65535, text, kv_heads, 0, inner_precise, 0, 0, false, 0, 0, out,
      nullptr, ws, ex);
}

aclnnStatus RunV2(aclrtStream stream, aclTensor* q, aclTensorList* k, aclTensorList* v,
                  aclTensor* pse, aclTensor* mask, int64_t heads, double scale, const char* layout,
                  int64_t kv_heads, int64_t inner_precise, aclTensor* out) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  const aclnnStatus first =
      FiaV2(q, k, v, pse, mask, heads, scale, layout, kv_heads, inner_precise, out, &ws, &ex);
  if (first != ACLNN_SUCCESS) return first;
  return aclnntest::Launch(aclnnFusedInferAttentionScoreV2, ws, ex, stream);
}

TEST_F(AclnnTest, FusedInferAttentionBsndGroupedHeadsWithPse) {
  const Dims a{1, 4, 3, 16, 2, 5};
  const float scale = 0.25f;
  const auto q = Values(a.b * a.n * a.s * a.d, 1);
  const auto k = Values(a.b * a.nkv * a.skv * a.d, 2);
  const auto v = Values(a.b * a.nkv * a.skv * a.d, 3);
  const auto pse_rows = Values(a.s * a.skv, 4);  // one [S, Skv] for every head
  std::vector<float> pse(a.n * a.s * a.skv);
  for (int64_t n = 0; n < a.n; ++n)
    for (int64_t i = 0; i < a.s * a.skv; ++i) pse[n * a.s * a.skv + i] = pse_rows[i];
  const auto want = HostAttention(a, q, k, v, pse, {}, scale);

  DeviceArray<uint16_t> dq(ToF16(ToBsnd(q, a.b, a.n, a.s, a.d)));
  DeviceArray<uint16_t> dk(ToF16(ToBsnd(k, a.b, a.nkv, a.skv, a.d)));
  DeviceArray<uint16_t> dv(ToF16(ToBsnd(v, a.b, a.nkv, a.skv, a.d)));
  DeviceArray<uint16_t> dpse(ToF16(pse_rows));
  DeviceArray<uint16_t> dout(std::vector<uint16_t>(q.size()));
  aclTensorList* kl = ListOf(dk.UnownedView({a.b, a.skv, a.nkv, a.d}, ACL_FLOAT16));
  aclTensorList* vl = ListOf(dv.UnownedView({a.b, a.skv, a.nkv, a.d}, ACL_FLOAT16));
  ASSERT_EQ(
      RunV2(stream_, dq.View({a.b, a.s, a.n, a.d}, ACL_FLOAT16), kl, vl,
            dpse.View({a.b, a.n, a.s, a.skv}, ACL_FLOAT16, {a.s * a.skv, 0, a.skv, 1}), nullptr,
            a.n, scale, "BSND", a.nkv, 2, dout.View({a.b, a.s, a.n, a.d}, ACL_FLOAT16)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ExpectNear(FromF16(dout.Read()), ToBsnd(want, a.b, a.n, a.s, a.d));
  aclDestroyTensorList(kl);
  aclDestroyTensorList(vl);
}

TEST_F(AclnnTest, FusedInferAttentionBnsdCausalMaskAndBsh) {
  const Dims a{2, 2, 4, 16, 2, 4};
  const float scale = 1.0f / 4.0f;
  const auto q = Values(a.b * a.n * a.s * a.d, 5);
  const auto k = Values(a.b * a.nkv * a.skv * a.d, 6);
  const auto v = Values(a.b * a.nkv * a.skv * a.d, 7);
  // Causal, and row 0 masked entirely: innerPrecise 2 gives it zeros.
  std::vector<uint8_t> mask(a.s * a.skv);
  for (int64_t s = 0; s < a.s; ++s)
    for (int64_t j = 0; j < a.skv; ++j) mask[s * a.skv + j] = (j > s || s == 0) ? 1 : 0;
  const auto want = HostAttention(a, q, k, v, {}, mask, scale);
  DeviceArray<uint16_t> dq(ToF16(q));
  DeviceArray<uint16_t> dk(ToF16(k));
  DeviceArray<uint16_t> dv(ToF16(v));
  DeviceArray<uint8_t> dmask(mask);
  DeviceArray<uint16_t> dout(std::vector<uint16_t>(q.size()));
  aclTensorList* kl = ListOf(dk.UnownedView({a.b, a.nkv, a.skv, a.d}, ACL_FLOAT16));
  aclTensorList* vl = ListOf(dv.UnownedView({a.b, a.nkv, a.skv, a.d}, ACL_FLOAT16));
  ASSERT_EQ(RunV2(stream_, dq.View({a.b, a.n, a.s, a.d}, ACL_FLOAT16), kl, vl, nullptr,
                  dmask.View({a.s, a.skv}, ACL_BOOL), a.n, scale, "BNSD", 0, 2,
                  dout.View({a.b, a.n, a.s, a.d}, ACL_FLOAT16)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ExpectNear(FromF16(dout.Read()), want);
  aclDestroyTensorList(kl);
  aclDestroyTensorList(vl);

  // BSH through V1: [B, S, N * D], no mask.
  const auto want_all = HostAttention(a, q, k, v, {}, {}, scale);
  DeviceArray<uint16_t> bq(ToF16(ToBsnd(q, a.b, a.n, a.s, a.d)));
  DeviceArray<uint16_t> bk(ToF16(ToBsnd(k, a.b, a.nkv, a.skv, a.d)));
  DeviceArray<uint16_t> bv(ToF16(ToBsnd(v, a.b, a.nkv, a.skv, a.d)));
  DeviceArray<uint16_t> bout(std::vector<uint16_t>(q.size()));
  aclTensorList* bkl = ListOf(bk.UnownedView({a.b, a.skv, a.nkv * a.d}, ACL_FLOAT16));
  aclTensorList* bvl = ListOf(bv.UnownedView({a.b, a.skv, a.nkv * a.d}, ACL_FLOAT16));
  char bsh[] = "BSH";
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnFusedInferAttentionScoreGetWorkspaceSize(
                bq.View({a.b, a.s, a.n * a.d}, ACL_FLOAT16), bkl, bvl, nullptr, nullptr, nullptr,
                nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                nullptr, nullptr, a.n, scale, 65535, 65535, bsh, a.nkv, 0, 0, 0, 0, false,
                bout.View({a.b, a.s, a.n * a.d}, ACL_FLOAT16), nullptr, &ws, &ex),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclnntest::Launch(aclnnFusedInferAttentionScore, ws, ex, stream_), ACLNN_SUCCESS);
  ExpectNear(FromF16(bout.Read()), ToBsnd(want_all, a.b, a.n, a.s, a.d));
  aclDestroyTensorList(bkl);
  aclDestroyTensorList(bvl);
}

TEST_F(AclnnTest, FusedInferAttentionErrors) {
  DeviceArray<uint16_t> x(std::vector<uint16_t>(2 * 3 * 16));
  aclTensorList* kl = ListOf(x.UnownedView({1, 3, 2, 16}, ACL_FLOAT16));
  aclTensorList* vl = ListOf(x.UnownedView({1, 3, 2, 16}, ACL_FLOAT16));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  // 3 query heads over 2 key/value heads.
  EXPECT_EQ(FiaV2(x.View({1, 1, 3, 16}, ACL_FLOAT16), kl, vl, nullptr, nullptr, 3, 1.0, "BSND", 2,
                  0, x.View({1, 1, 3, 16}, ACL_FLOAT16), &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("multiple of numKeyValueHeads")) << aclGetRecentErrMsg();
  EXPECT_EQ(FiaV2(x.View({1, 3, 2, 16}, ACL_FLOAT16), kl, vl, nullptr, nullptr, 2, 1.0, "TND", 2, 0,
                  x.View({1, 3, 2, 16}, ACL_FLOAT16), &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("inputLayout")) << aclGetRecentErrMsg();
  const int64_t lengths[] = {4};  // past the 3 query rows
  aclIntArray* seq = aclCreateIntArray(lengths, 1);
  EXPECT_EQ(FiaV2(x.View({1, 3, 2, 16}, ACL_FLOAT16), kl, vl, nullptr, nullptr, 2, 1.0, "BSND", 2,
                  0, x.View({1, 3, 2, 16}, ACL_FLOAT16), &ws, &ex, seq),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("actualSeqLengths[0] is 4; it must be in [0, 3]")) << aclGetRecentErrMsg();
  aclDestroyIntArray(seq);
  aclDestroyTensorList(kl);
  aclDestroyTensorList(vl);
}

// HostAttention per batch with valid lengths: query rows past q_len[b] are zeros, key/value
// rows past kv_len[b] masked; `mask` [s][j] (or empty) applies to every batch.
std::vector<float> HostWithLengths(const Dims& a, const std::vector<float>& q,
                                   const std::vector<float>& k, const std::vector<float>& v,
                                   const std::vector<uint8_t>& mask, float scale,
                                   const std::vector<int64_t>& q_len,
                                   const std::vector<int64_t>& kv_len) {
  std::vector<float> out;
  const Dims one{1, a.n, a.s, a.d, a.nkv, a.skv};
  const size_t q_size = a.n * a.s * a.d;
  const size_t kv_size = a.nkv * a.skv * a.d;
  for (int64_t b = 0; b < a.b; ++b) {
    std::vector<uint8_t> m(a.s * a.skv);
    for (int64_t i = 0; i < a.s; ++i) {
      for (int64_t j = 0; j < a.skv; ++j) {
        m[i * a.skv + j] =
            (i >= q_len[b] || j >= kv_len[b] || (!mask.empty() && mask[i * a.skv + j] != 0)) ? 1
                                                                                             : 0;
      }
    }
    const std::vector<float> qb(q.begin() + b * q_size, q.begin() + (b + 1) * q_size);
    const std::vector<float> kb(k.begin() + b * kv_size, k.begin() + (b + 1) * kv_size);
    const std::vector<float> vb(v.begin() + b * kv_size, v.begin() + (b + 1) * kv_size);
    const auto ob = HostAttention(one, qb, kb, vb, {}, m, scale);
    out.insert(out.end(), ob.begin(), ob.end());
  }
  return out;
}

TEST_F(AclnnTest, PromptFlashAttentionWithActualLengthsAndCausalMask) {
  const Dims a{2, 2, 4, 16, 1, 4};
  const float scale = 0.25f;
  const auto q = Values(a.b * a.n * a.s * a.d, 11);
  const auto k = Values(a.b * a.nkv * a.skv * a.d, 12);
  const auto v = Values(a.b * a.nkv * a.skv * a.d, 13);
  std::vector<uint8_t> causal(a.s * a.skv);
  for (int64_t i = 0; i < a.s; ++i)
    for (int64_t j = 0; j < a.skv; ++j) causal[i * a.skv + j] = j > i ? 1 : 0;
  // Batch 1 has two valid query rows: rows 2 and 3 come back as zeros.
  const auto want = HostWithLengths(a, q, k, v, causal, scale, {4, 2}, {4, 4});
  DeviceArray<uint16_t> dq(ToF16(q));
  DeviceArray<uint16_t> dk(ToF16(k));
  DeviceArray<uint16_t> dv(ToF16(v));
  DeviceArray<uint8_t> dmask(causal);
  DeviceArray<uint16_t> dout(std::vector<uint16_t>(q.size(), ToF16({7})[0]));
  const int64_t lengths[] = {4, 2};
  aclIntArray* seq = aclCreateIntArray(lengths, 2);
  char bnsd[] = "BNSD";
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnPromptFlashAttentionGetWorkspaceSize(
                dq.View({a.b, a.n, a.s, a.d}, ACL_FLOAT16),
                dk.View({a.b, a.nkv, a.skv, a.d}, ACL_FLOAT16),
                dv.View({a.b, a.nkv, a.skv, a.d}, ACL_FLOAT16), nullptr,
                dmask.View({a.s, a.skv}, ACL_BOOL), seq, a.n, scale, 65535, 0, bnsd, a.nkv,
                dout.View({a.b, a.n, a.s, a.d}, ACL_FLOAT16), &ws, &ex),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclnntest::Launch(aclnnPromptFlashAttention, ws, ex, stream_), ACLNN_SUCCESS);
  ExpectNear(FromF16(dout.Read()), want);

  // V3 with key/value lengths instead (BSND): batch 0 sees 3 keys, batch 1 one.
  const auto want_kv = HostWithLengths(a, q, k, v, {}, scale, {4, 4}, {3, 1});
  DeviceArray<uint16_t> sq(ToF16(ToBsnd(q, a.b, a.n, a.s, a.d)));
  DeviceArray<uint16_t> sk(ToF16(ToBsnd(k, a.b, a.nkv, a.skv, a.d)));
  DeviceArray<uint16_t> sv(ToF16(ToBsnd(v, a.b, a.nkv, a.skv, a.d)));
  DeviceArray<uint16_t> sout(std::vector<uint16_t>(q.size()));
  const int64_t kv_lengths[] = {3, 1};
  aclIntArray* kv_seq = aclCreateIntArray(kv_lengths, 2);
  char bsnd[] = "BSND";
  ASSERT_EQ(aclnnPromptFlashAttentionV3GetWorkspaceSize(
                sq.View({a.b, a.s, a.n, a.d}, ACL_FLOAT16),
                sk.View({a.b, a.skv, a.nkv, a.d}, ACL_FLOAT16),
                sv.View({a.b, a.skv, a.nkv, a.d}, ACL_FLOAT16), nullptr, nullptr, nullptr, kv_seq,
                nullptr, nullptr, nullptr, nullptr, nullptr, a.n, scale, 65535, 65535, bsnd, a.nkv,
                0, 0, sout.View({a.b, a.s, a.n, a.d}, ACL_FLOAT16), &ws, &ex),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclnntest::Launch(aclnnPromptFlashAttentionV3, ws, ex, stream_), ACLNN_SUCCESS);
  ExpectNear(FromF16(sout.Read()), ToBsnd(want_kv, a.b, a.n, a.s, a.d));
  aclDestroyIntArray(seq);
  aclDestroyIntArray(kv_seq);
}

TEST_F(AclnnTest, IncreFlashAttentionDecodesWithKvLengthsAndMask) {
  const Dims a{2, 4, 1, 16, 2, 6};
  const float scale = 0.25f;
  const auto q = Values(a.b * a.n * a.s * a.d, 21);
  const auto k = Values(a.b * a.nkv * a.skv * a.d, 22);
  const auto v = Values(a.b * a.nkv * a.skv * a.d, 23);
  // A 2-D [B, Skv] mask hides key 0 of batch 0; batch 1 has three valid keys.
  std::vector<uint8_t> mask(a.b * a.skv, 0);
  mask[0] = 1;
  std::vector<float> want;
  {
    const auto b0 =
        HostWithLengths({1, a.n, 1, a.d, a.nkv, a.skv}, q, k, v,
                        std::vector<uint8_t>(mask.begin(), mask.begin() + a.skv), scale, {1}, {6});
    const size_t qs = a.n * a.d;
    const size_t kvs = a.nkv * a.skv * a.d;
    const auto b1 =
        HostWithLengths({1, a.n, 1, a.d, a.nkv, a.skv}, std::vector<float>(q.begin() + qs, q.end()),
                        std::vector<float>(k.begin() + kvs, k.end()),
                        std::vector<float>(v.begin() + kvs, v.end()), {}, scale, {1}, {3});
    want = b0;
    want.insert(want.end(), b1.begin(), b1.end());
  }
  DeviceArray<uint16_t> dq(ToF16(ToBsnd(q, a.b, a.n, a.s, a.d)));
  DeviceArray<uint16_t> dk(ToF16(ToBsnd(k, a.b, a.nkv, a.skv, a.d)));
  DeviceArray<uint16_t> dv(ToF16(ToBsnd(v, a.b, a.nkv, a.skv, a.d)));
  DeviceArray<uint8_t> dmask(mask);
  DeviceArray<uint16_t> dout(std::vector<uint16_t>(q.size()));
  aclTensorList* kl = ListOf(dk.UnownedView({a.b, a.skv, a.nkv * a.d}, ACL_FLOAT16));
  aclTensorList* vl = ListOf(dv.UnownedView({a.b, a.skv, a.nkv * a.d}, ACL_FLOAT16));
  const int64_t lengths[] = {6, 3};
  aclIntArray* seq = aclCreateIntArray(lengths, 2);
  char bsh[] = "BSH";
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnIncreFlashAttentionGetWorkspaceSize(
                dq.View({a.b, 1, a.n * a.d}, ACL_FLOAT16), kl, vl, nullptr,
                dmask.View({a.b, a.skv}, ACL_BOOL), seq, a.n, scale, bsh, a.nkv,
                dout.View({a.b, 1, a.n * a.d}, ACL_FLOAT16), &ws, &ex),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclnntest::Launch(aclnnIncreFlashAttention, ws, ex, stream_), ACLNN_SUCCESS);
  ExpectNear(FromF16(dout.Read()), ToBsnd(want, a.b, a.n, a.s, a.d));

  // Errors: a length past the sequence, the wrong number of lengths, paging (V3 blocktable,
  // V4 kvPaddingSize).
  const int64_t too_long[] = {7, 1};
  aclIntArray* bad = aclCreateIntArray(too_long, 2);
  EXPECT_EQ(aclnnIncreFlashAttentionGetWorkspaceSize(
                dq.View({a.b, 1, a.n * a.d}, ACL_FLOAT16), kl, vl, nullptr, nullptr, bad, a.n,
                scale, bsh, a.nkv, dout.View({a.b, 1, a.n * a.d}, ACL_FLOAT16), &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("actualSeqLengthsKv[0] is 7"));
  const int64_t three[] = {1, 1, 1};
  aclIntArray* count = aclCreateIntArray(three, 3);
  EXPECT_EQ(aclnnIncreFlashAttentionGetWorkspaceSize(
                dq.View({a.b, 1, a.n * a.d}, ACL_FLOAT16), kl, vl, nullptr, nullptr, count, a.n,
                scale, bsh, a.nkv, dout.View({a.b, 1, a.n * a.d}, ACL_FLOAT16), &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  DeviceArray<int32_t> table({0});
  EXPECT_EQ(
      aclnnIncreFlashAttentionV3GetWorkspaceSize(
          dq.View({a.b, 1, a.n * a.d}, ACL_FLOAT16), kl, vl, nullptr, nullptr, nullptr, nullptr,
          nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, table.View({1, 1}, ACL_INT32), a.n,
          scale, bsh, a.nkv, 0, 0, dout.View({a.b, 1, a.n * a.d}, ACL_FLOAT16), &ws, &ex),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("blocktable"));
  EXPECT_EQ(
      aclnnIncreFlashAttentionV4GetWorkspaceSize(
          dq.View({a.b, 1, a.n * a.d}, ACL_FLOAT16), kl, vl, nullptr, nullptr, nullptr, nullptr,
          nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, table.View({1}, ACL_INT32),
          a.n, scale, bsh, a.nkv, 0, 0, dout.View({a.b, 1, a.n * a.d}, ACL_FLOAT16), &ws, &ex),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("kvPaddingSize"));
  aclDestroyIntArray(seq);
  aclDestroyIntArray(bad);
  aclDestroyIntArray(count);
  aclDestroyTensorList(kl);
  aclDestroyTensorList(vl);
}

}  // namespace
