// Weights as llama.cpp prepares them, through the public API: aclnnWeightQuantBatchMatmulV2/V3
// with int8 and int4 weights, per group, per channel and per tensor (transposed views of
// [N, K] buffers, the scales a transposed view too), the errors; TransMatmulWeight's
// FRACTAL_NZ weights in Mm; and the storage rules of views a framework passes (a span that
// leaves out the offset, an empty view).
#include <cmath>
#include <cstdint>
#include <vector>

#include "aclnn_test.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"

namespace {

using aclnntest::AclnnTest;
using aclnntest::DeviceArray;
using aclnntest::FromF16;
using aclnntest::HasMessage;
using aclnntest::ToF16;

// A small quantized problem: x [M, K], weights w[n][k] in [-8, 7], scales per group of K.
struct QuantProblem {
  static constexpr int64_t kM = 2, kK = 64, kN = 3, kGroup = 32, kGroups = 2;
  std::vector<float> x = std::vector<float>(kM * kK);
  std::vector<int> w = std::vector<int>(kN * kK);               // [N, K]
  std::vector<float> scale = std::vector<float>(kN * kGroups);  // [N, G]
  QuantProblem() {
    for (int64_t i = 0; i < kM * kK; ++i) x[i] = 0.5f * static_cast<float>((i * 7) % 5 - 2);
    for (int64_t i = 0; i < kN * kK; ++i) w[i] = static_cast<int>((i * 5) % 16) - 8;
    const float scales[] = {0.5f, 0.25f, 1.0f, 2.0f, 0.125f, 1.5f};
    for (int64_t i = 0; i < kN * kGroups; ++i) scale[i] = scales[i];
  }
  // y[m][n] with scale per group (or `channel_scale` per channel when not empty).
  std::vector<float> Reference(const std::vector<float>& channel_scale = {},
                               const std::vector<float>& offset = {},
                               const std::vector<float>& bias = {}) const {
    std::vector<float> y(kM * kN);
    for (int64_t m = 0; m < kM; ++m) {
      for (int64_t n = 0; n < kN; ++n) {
        double s = 0;
        for (int64_t k = 0; k < kK; ++k) {
          const float sc =
              channel_scale.empty() ? scale[n * kGroups + k / kGroup] : channel_scale[n];
          const float off = offset.empty() ? 0.0f : offset[n];
          s += double{x[m * kK + k]} * ((static_cast<float>(w[n * kK + k]) + off) * sc);
        }
        y[m * kN + n] = static_cast<float>(s + (bias.empty() ? 0.0 : bias[n]));
      }
    }
    return y;
  }
};

void ExpectClose(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], 0.002 * std::fabs(want[i]) + 0.01) << "element " << i;
  }
}

TEST_F(AclnnTest, WeightQuantMatmulInt8PerGroupAsLlamaCppPassesIt) {
  using P = QuantProblem;
  const P p;
  DeviceArray<uint16_t> x(ToF16(p.x));
  std::vector<int8_t> w8(p.w.begin(), p.w.end());
  DeviceArray<int8_t> w(w8);
  DeviceArray<uint16_t> scale(ToF16(p.scale));
  DeviceArray<uint16_t> y(std::vector<uint16_t>(P::kM * P::kN));
  // weight [K, N] as a view of the [N, K] buffer; scale [G, N] as a view of [N, G].
  ASSERT_EQ(
      ACLNN_RUN(stream_, WeightQuantBatchMatmulV2, x.View({P::kM, P::kK}, ACL_FLOAT16),
                w.View({P::kK, P::kN}, ACL_INT8, {1, P::kK}),
                scale.View({P::kGroups, P::kN}, ACL_FLOAT16, {1, P::kGroups}), nullptr, nullptr,
                nullptr, nullptr, static_cast<int>(P::kGroup), y.View({P::kM, P::kN}, ACL_FLOAT16)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ExpectClose(FromF16(y.Read()), p.Reference());
}

// Packs int4 values two to a byte, the lower nibble first.
std::vector<uint8_t> PackInt4(const std::vector<int>& values) {
  std::vector<uint8_t> bytes((values.size() + 1) / 2);
  for (size_t i = 0; i < values.size(); ++i) {
    const auto nibble = static_cast<uint8_t>(values[i] & 0x0f);
    bytes[i / 2] |= static_cast<uint8_t>(i % 2 == 0 ? nibble : nibble << 4);
  }
  return bytes;
}

// An int4 view: dims, strides and storage in int4 elements over `bytes`.
aclTensor* Int4View(const DeviceArray<uint8_t>& bytes, std::vector<int64_t> dims,
                    std::vector<int64_t> strides) {
  const int64_t storage = 2 * static_cast<int64_t>(bytes.Read().size());
  return aclCreateTensor(dims.data(), dims.size(), ACL_INT4, strides.data(), 0, ACL_FORMAT_ND,
                         &storage, 1, bytes.data());
}

TEST_F(AclnnTest, WeightQuantMatmulInt4TransposedAndContiguous) {
  using P = QuantProblem;
  const P p;
  DeviceArray<uint16_t> x(ToF16(p.x));
  DeviceArray<uint16_t> scale(ToF16(p.scale));
  DeviceArray<uint16_t> y(std::vector<uint16_t>(P::kM * P::kN));
  // [N, K] packed, passed as a [K, N] view (llama.cpp's Q4_0 weights).
  DeviceArray<uint8_t> packed(PackInt4(p.w));
  aclTensor* wt = Int4View(packed, {P::kK, P::kN}, {1, P::kK});
  ASSERT_EQ(
      ACLNN_RUN(stream_, WeightQuantBatchMatmulV2, x.View({P::kM, P::kK}, ACL_FLOAT16), wt,
                scale.View({P::kGroups, P::kN}, ACL_FLOAT16, {1, P::kGroups}), nullptr, nullptr,
                nullptr, nullptr, static_cast<int>(P::kGroup), y.View({P::kM, P::kN}, ACL_FLOAT16)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  aclDestroyTensor(wt);
  ExpectClose(FromF16(y.Read()), p.Reference());

  // A contiguous [K, N] int4 weight (N even), per channel with an offset and an f32 bias,
  // through V3.
  constexpr int64_t kN = 4;
  std::vector<int> w_kn(P::kK * kN);
  for (int64_t k = 0; k < P::kK; ++k) {
    for (int64_t n = 0; n < kN; ++n) w_kn[k * kN + n] = static_cast<int>((k + 3 * n) % 16) - 8;
  }
  std::vector<int> w_nk(kN * P::kK);  // the reference's [N, K]
  for (int64_t k = 0; k < P::kK; ++k) {
    for (int64_t n = 0; n < kN; ++n) w_nk[n * P::kK + k] = w_kn[k * kN + n];
  }
  const std::vector<float> channel = {0.5f, 0.25f, 1.0f, 0.125f};
  const std::vector<float> offset = {1.0f, -2.0f, 0.0f, 3.0f};
  const std::vector<float> bias = {0.5f, -1.0f, 2.0f, 0.0f};
  DeviceArray<uint8_t> packed_kn(PackInt4(w_kn));
  DeviceArray<uint16_t> dscale(ToF16(channel));
  DeviceArray<uint16_t> doffset(ToF16(offset));
  DeviceArray<float> dbias(bias);
  DeviceArray<uint16_t> y4(std::vector<uint16_t>(P::kM * kN));
  aclTensor* wc = Int4View(packed_kn, {P::kK, kN}, {kN, 1});
  ASSERT_EQ(
      ACLNN_RUN(stream_, WeightQuantBatchMatmulV3, x.View({P::kM, P::kK}, ACL_FLOAT16), wc,
                dscale.View({kN}, ACL_FLOAT16), doffset.View({kN}, ACL_FLOAT16), nullptr, nullptr,
                dbias.View({kN}, ACL_FLOAT), 0, 1, y4.View({P::kM, kN}, ACL_FLOAT16)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  aclDestroyTensor(wc);
  // Reference() is for kN = 3; this one is computed here.
  std::vector<float> want(P::kM * kN);
  for (int64_t m = 0; m < P::kM; ++m) {
    for (int64_t n = 0; n < kN; ++n) {
      double s = bias[n];
      for (int64_t k = 0; k < P::kK; ++k) {
        s += double{p.x[m * P::kK + k]} *
             ((static_cast<float>(w_nk[n * P::kK + k]) + offset[n]) * channel[n]);
      }
      want[m * kN + n] = static_cast<float>(s);
    }
  }
  ExpectClose(FromF16(y4.Read()), want);
}

TEST_F(AclnnTest, WeightQuantMatmulErrors) {
  using P = QuantProblem;
  const P p;
  DeviceArray<uint16_t> x(ToF16(p.x));
  DeviceArray<int8_t> w(std::vector<int8_t>(P::kK * P::kN));
  DeviceArray<uint16_t> scale(ToF16(p.scale));
  DeviceArray<uint16_t> y(std::vector<uint16_t>(P::kM * P::kN));
  DeviceArray<float> xf(p.x);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto call = [&](aclTensor* xt, aclTensor* qs, int group) {
    return aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
        xt, w.View({P::kK, P::kN}, ACL_INT8, {1, P::kK}),
        scale.View({P::kGroups, P::kN}, ACL_FLOAT16, {1, P::kGroups}), nullptr, qs, nullptr,
        nullptr, group, y.View({P::kM, P::kN}, ACL_FLOAT16), &ws, &ex);
  };
  EXPECT_EQ(call(x.View({P::kM, P::kK}, ACL_FLOAT16), nullptr, 16), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("multiple of 32")) << aclGetRecentErrMsg();
  EXPECT_EQ(call(xf.View({P::kM, P::kK}, ACL_FLOAT), nullptr, 32), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("float16 or bfloat16")) << aclGetRecentErrMsg();
  EXPECT_EQ(call(x.View({P::kM, P::kK}, ACL_FLOAT16), scale.View({P::kN}, ACL_FLOAT16), 32),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("not supported")) << aclGetRecentErrMsg();
  // Per-group scales whose group count does not match K / groupSize.
  EXPECT_EQ(aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
                x.View({P::kM, P::kK}, ACL_FLOAT16), w.View({P::kK, P::kN}, ACL_INT8, {1, P::kK}),
                scale.View({1, P::kN}, ACL_FLOAT16), nullptr, nullptr, nullptr, nullptr, 32,
                y.View({P::kM, P::kN}, ACL_FLOAT16), &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("antiquantScale")) << aclGetRecentErrMsg();
  // An int4 weight whose packed dim has an odd length.
  DeviceArray<uint8_t> packed(std::vector<uint8_t>(P::kK * P::kN));
  aclTensor* odd = Int4View(packed, {P::kK, P::kN}, {P::kN, 1});
  EXPECT_EQ(aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
                x.View({P::kM, P::kK}, ACL_FLOAT16), odd, scale.View({P::kN}, ACL_FLOAT16), nullptr,
                nullptr, nullptr, nullptr, 0, y.View({P::kM, P::kN}, ACL_FLOAT16), &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("even")) << aclGetRecentErrMsg();
  aclDestroyTensor(odd);
  EXPECT_EQ(aclnnWeightQuantBatchMatmulV3GetWorkspaceSize(
                x.View({P::kM, P::kK}, ACL_FLOAT16), w.View({P::kK, P::kN}, ACL_INT8, {1, P::kK}),
                scale.View({P::kGroups, P::kN}, ACL_FLOAT16, {1, P::kGroups}), nullptr, nullptr,
                nullptr, nullptr, 32, 7, y.View({P::kM, P::kN}, ACL_FLOAT16), &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("innerPrecise")) << aclGetRecentErrMsg();
}

// llama.cpp's default for its matmul weights (GGML_CANN_WEIGHT_NZ): the buffer sized by
// aclnnCalculateMatmulWeightSizeV2, the [N, K] weight converted in place by
// TransMatmulWeight, then passed to Mm as a [K, N] transposed view with format FRACTAL_NZ.
TEST_F(AclnnTest, TransMatmulWeightToFractalNzThenMm) {
  constexpr int64_t kM = 3, kK = 24, kN = 20;  // neither a multiple of 16: padded blocks
  const int64_t shape[] = {kN, kK};
  aclIntArray* dims = aclCreateIntArray(shape, 2);
  uint64_t elements = 0;
  ASSERT_EQ(aclnnCalculateMatmulWeightSizeV2(dims, ACL_FLOAT16, &elements), ACLNN_SUCCESS);
  EXPECT_EQ(elements, 32u * 32u);  // [ceil(K/16), ceil(N/16), 16, 16]
  uint64_t v1 = 0;
  ASSERT_EQ(aclnnCalculateMatmulWeightSize(dims, &v1), ACLNN_SUCCESS);
  EXPECT_EQ(v1, elements);
  aclDestroyIntArray(dims);
  // int8 blocks are 16 x 32, and CANN sizes every dtype but f16/bf16 so; V2 refuses zero dims,
  // V1 more than 3 dims.
  const int64_t wide[] = {20, 40};
  aclIntArray* wide_dims = aclCreateIntArray(wide, 2);
  ASSERT_EQ(aclnnCalculateMatmulWeightSizeV2(wide_dims, ACL_FLOAT16, &v1), ACLNN_SUCCESS);
  EXPECT_EQ(v1, 32u * 48u);
  ASSERT_EQ(aclnnCalculateMatmulWeightSizeV2(wide_dims, ACL_INT8, &v1), ACLNN_SUCCESS);
  EXPECT_EQ(v1, 32u * 64u);
  ASSERT_EQ(aclnnCalculateMatmulWeightSizeV2(wide_dims, ACL_FLOAT, &v1), ACLNN_SUCCESS);
  EXPECT_EQ(v1, 32u * 64u);
  aclDestroyIntArray(wide_dims);
  const int64_t zero[] = {0, 16};
  const int64_t four[] = {2, 2, 16, 16};
  aclIntArray* zero_dims = aclCreateIntArray(zero, 2);
  aclIntArray* four_dims = aclCreateIntArray(four, 4);
  EXPECT_EQ(aclnnCalculateMatmulWeightSizeV2(zero_dims, ACL_FLOAT16, &v1), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnCalculateMatmulWeightSize(four_dims, &v1), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnCalculateMatmulWeightSize(four_dims, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  aclDestroyIntArray(zero_dims);
  aclDestroyIntArray(four_dims);

  std::vector<float> x(kM * kK), w(kN * kK);  // w [N, K]
  for (int64_t i = 0; i < kM * kK; ++i) x[i] = static_cast<float>(i % 5 - 2);
  for (int64_t n = 0; n < kN; ++n) {
    for (int64_t k = 0; k < kK; ++k) w[n * kK + k] = static_cast<float>((n * 7 + k * 3) % 9 - 4);
  }
  std::vector<uint16_t> padded = ToF16(w);
  padded.resize(elements);
  DeviceArray<uint16_t> dw(padded);
  const int64_t nd_dims[] = {kN, kK};
  const int64_t storage = kN * kK;
  aclTensor* nd =
      aclCreateTensor(nd_dims, 2, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND, &storage, 1, dw.data());
  ASSERT_EQ(ACLNN_RUN(stream_, TransMatmulWeight, nd), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  aclDestroyTensor(nd);
  // The fractal blocks: element (n, k) at [k / 16][n / 16][n % 16][k % 16], zero padding.
  const std::vector<float> blocks = FromF16(dw.Read());
  const int64_t n1 = (kN + 15) / 16;
  for (int64_t n = 0; n < kN; ++n) {
    for (int64_t k = 0; k < kK; ++k) {
      const int64_t at = ((k / 16) * n1 + n / 16) * 256 + (n % 16) * 16 + k % 16;
      ASSERT_EQ(blocks[at], w[n * kK + k]) << n << ", " << k;
    }
  }
  EXPECT_EQ(blocks[kN * 16], 0.0f);  // row kN of the first block column is padding

  DeviceArray<uint16_t> dx(ToF16(x));
  DeviceArray<uint16_t> out(std::vector<uint16_t>(kM * kN));
  const int64_t view_dims[] = {kK, kN};
  const int64_t view_strides[] = {1, kK};
  aclTensor* nz = aclCreateTensor(view_dims, 2, ACL_FLOAT16, view_strides, 0, ACL_FORMAT_FRACTAL_NZ,
                                  &storage, 1, dw.data());
  ASSERT_EQ(ACLNN_RUN(stream_, Mm, dx.View({kM, kK}, ACL_FLOAT16), nz,
                      out.View({kM, kN}, ACL_FLOAT16), 2),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  // Elsewhere a private format is refused, not read as ND.
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnAbsGetWorkspaceSize(nz, out.View({kM, kN}, ACL_FLOAT16), &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("private format FRACTAL_NZ")) << aclGetRecentErrMsg();
  aclDestroyTensor(nz);
  const std::vector<float> got = FromF16(out.Read());
  for (int64_t m = 0; m < kM; ++m) {
    for (int64_t n = 0; n < kN; ++n) {
      float want = 0;
      for (int64_t k = 0; k < kK; ++k) want += x[m * kK + k] * w[n * kK + k];
      EXPECT_EQ(got[m * kN + n], want) << m << ", " << n;
    }
  }
}

// llama.cpp gives storage dims that cover a view's span from its offset on (not the offset
// itself), and empty views with a storage length below zero: CANN accepts both.
TEST_F(AclnnTest, StorageCoversTheSpanFromTheOffset) {
  DeviceArray<float> a(std::vector<float>{0, 0, 0, 0, -1, 2, -3, 4});
  DeviceArray<float> out(std::vector<float>(4));
  const int64_t dims[] = {4};
  const int64_t strides[] = {1};
  const int64_t span = 4;
  aclTensor* tail =
      aclCreateTensor(dims, 1, ACL_FLOAT, strides, 4, ACL_FORMAT_ND, &span, 1, a.data());
  ASSERT_EQ(ACLNN_RUN(stream_, Abs, tail, out.View({4}, ACL_FLOAT)), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{1, 2, 3, 4}));
  aclDestroyTensor(tail);
  // The span is still checked.
  const int64_t short_span = 3;
  aclTensor* over =
      aclCreateTensor(dims, 1, ACL_FLOAT, strides, 4, ACL_FORMAT_ND, &short_span, 1, a.data());
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnAbsGetWorkspaceSize(over, out.View({4}, ACL_FLOAT), &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("spans 4 elements")) << aclGetRecentErrMsg();
  aclDestroyTensor(over);
  // An empty view: 1 + (0 - 1) * 128 = -127 storage elements, as llama.cpp computes it.
  const int64_t empty_dims[] = {0};
  const int64_t wide[] = {128};
  const int64_t negative = -127;
  aclTensor* empty =
      aclCreateTensor(empty_dims, 1, ACL_FLOAT, wide, 0, ACL_FORMAT_ND, &negative, 1, a.data());
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(ACLNN_RUN(stream_, Abs, empty, out.View({0}, ACL_FLOAT)), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  aclDestroyTensor(empty);
}

}  // namespace
