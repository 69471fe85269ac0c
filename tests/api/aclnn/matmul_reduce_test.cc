// aclnn matrix products (Mm, BatchMatMul, Matmul, Mv, Addmm, Baddbmm, Addbmm) and softmax /
// reductions / scans (Softmax, ReduceSum, Mean, ArgMax, Cumsum) through the public API, on strided
// views, with cubeMathType's rules and the errors.
#include <cmath>
#include <cstdint>
#include <string>

#include "aclnn_test.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_all.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_any.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argmin.h"
#include "aclnnop/aclnn_argsort.h"
#include "aclnnop/aclnn_baddbmm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_max_dim.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mv.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_sort.h"
#include "aclnnop/aclnn_topk.h"

namespace {

using aclnntest::AclnnTest;
using aclnntest::DeviceArray;
using aclnntest::HasMessage;
using aclnntest::Iota;

// Row-major [m, k] @ [k, n] on the host.
std::vector<float> HostMm(const std::vector<float>& a, const std::vector<float>& b, int64_t m,
                          int64_t k, int64_t n) {
  std::vector<float> c(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p) s += double{a[i * k + p]} * b[p * n + j];
      c[i * n + j] = static_cast<float>(s);
    }
  }
  return c;
}

aclIntArray* Ints(std::vector<int64_t> v) { return aclCreateIntArray(v.data(), v.size()); }

TEST_F(AclnnTest, MmContiguousAndTransposedWeight) {
  const std::vector<float> a = Iota(6, 1);         // [2, 3]
  const std::vector<float> w = Iota(12, -3, 0.5);  // [3, 4]
  DeviceArray<float> da(a);
  DeviceArray<float> dw(w);
  DeviceArray<float> out(std::vector<float>(8));
  ASSERT_EQ(ACLNN_RUN(stream_, Mm, da.View({2, 3}, ACL_FLOAT), dw.View({3, 4}, ACL_FLOAT),
                      out.View({2, 4}, ACL_FLOAT), 0),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), HostMm(a, w, 2, 3, 4));
  // The weight stored as [4, 3] (its transpose), passed as a [3, 4] view with strides {1, 3}:
  // as llama.cpp passes weights.
  std::vector<float> wt(12);
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 4; ++c) wt[c * 3 + r] = w[r * 4 + c];
  }
  DeviceArray<float> dwt(wt);
  // The kernel reads the stored buffer with its transpose flag: no copy into the workspace.
  uint64_t ws = 1;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnMmGetWorkspaceSize(da.View({2, 3}, ACL_FLOAT), dwt.View({3, 4}, ACL_FLOAT, {1, 3}),
                                    out.View({2, 4}, ACL_FLOAT), 0, &ws, &ex),
            ACLNN_SUCCESS);
  EXPECT_EQ(ws, 0u);
  ASSERT_EQ(aclnnMm(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(ACLNN_RUN(stream_, Mm, da.View({2, 3}, ACL_FLOAT), dwt.View({3, 4}, ACL_FLOAT, {1, 3}),
                      out.View({2, 4}, ACL_FLOAT), 0),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), HostMm(a, w, 2, 3, 4));
  // A transposed (non-contiguous) output.
  DeviceArray<float> outt(std::vector<float>(8));
  ASSERT_EQ(ACLNN_RUN(stream_, Mm, da.View({2, 3}, ACL_FLOAT), dw.View({3, 4}, ACL_FLOAT),
                      outt.View({2, 4}, ACL_FLOAT, {1, 2}), 0),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const std::vector<float> want = HostMm(a, w, 2, 3, 4);
  const std::vector<float> got = outt.Read();
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 4; ++j) EXPECT_EQ(got[j * 2 + i], want[i * 4 + j]);
  }
}

TEST_F(AclnnTest, MmCubeMathTypeRules) {
  // cubeMathType 2 (USE_FP16) rounds f32 inputs to f16: 1 + 2^-12 becomes 1.
  const float fine = 1.0f + 1.0f / 4096;
  DeviceArray<float> a({fine});
  DeviceArray<float> b({1.0f});
  DeviceArray<float> out(std::vector<float>(1));
  ASSERT_EQ(ACLNN_RUN(stream_, Mm, a.View({1, 1}, ACL_FLOAT), b.View({1, 1}, ACL_FLOAT),
                      out.View({1, 1}, ACL_FLOAT), 0),
            ACLNN_SUCCESS);
  EXPECT_EQ(out.Read()[0], fine);
  ASSERT_EQ(ACLNN_RUN(stream_, Mm, a.View({1, 1}, ACL_FLOAT), b.View({1, 1}, ACL_FLOAT),
                      out.View({1, 1}, ACL_FLOAT), 2),
            ACLNN_SUCCESS);
  EXPECT_EQ(out.Read()[0], 1.0f);
  // USE_HF32 needs f32; USE_FP16 refuses bf16; 5 is no cubeMathType.
  DeviceArray<uint16_t> h({aclFloatToFloat16(1.0f)});
  DeviceArray<uint16_t> ho(std::vector<uint16_t>(1));
  EXPECT_EQ(ACLNN_RUN(stream_, Mm, h.View({1, 1}, ACL_FLOAT16), h.View({1, 1}, ACL_FLOAT16),
                      ho.View({1, 1}, ACL_FLOAT16), 3),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("USE_HF32"));
  EXPECT_EQ(ACLNN_RUN(stream_, Mm, h.View({1, 1}, ACL_BF16), h.View({1, 1}, ACL_BF16),
                      ho.View({1, 1}, ACL_BF16), 2),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("USE_FP16"));
  EXPECT_EQ(ACLNN_RUN(stream_, Mm, a.View({1, 1}, ACL_FLOAT), b.View({1, 1}, ACL_FLOAT),
                      out.View({1, 1}, ACL_FLOAT), 5),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("cubeMathType is 5"));
  // f16 in, f16 out, f32 accumulation rounded once.
  ASSERT_EQ(ACLNN_RUN(stream_, Mm, h.View({1, 1}, ACL_FLOAT16), h.View({1, 1}, ACL_FLOAT16),
                      ho.View({1, 1}, ACL_FLOAT16), 1),
            ACLNN_SUCCESS);
  EXPECT_EQ(aclFloat16ToFloat(ho.Read()[0]), 1.0f);
}

TEST_F(AclnnTest, BatchMatMulAndMatmulBroadcast) {
  const std::vector<float> a = Iota(12, 1);  // [2, 2, 3]
  const std::vector<float> b = Iota(12, 0);  // [2, 3, 2]
  DeviceArray<float> da(a);
  DeviceArray<float> db(b);
  DeviceArray<float> out(std::vector<float>(8));
  ASSERT_EQ(ACLNN_RUN(stream_, BatchMatMul, da.View({2, 2, 3}, ACL_FLOAT),
                      db.View({2, 3, 2}, ACL_FLOAT), out.View({2, 2, 2}, ACL_FLOAT), 0),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> want;
  for (int batch = 0; batch < 2; ++batch) {
    const std::vector<float> sa(a.begin() + batch * 6, a.begin() + batch * 6 + 6);
    const std::vector<float> sb(b.begin() + batch * 6, b.begin() + batch * 6 + 6);
    for (float v : HostMm(sa, sb, 2, 3, 2)) want.push_back(v);
  }
  EXPECT_EQ(out.Read(), want);
  // Matmul: [2, 2, 3] @ [3, 2] (the first batch of b) broadcasts the 2-D operand.
  ASSERT_EQ(ACLNN_RUN(stream_, Matmul, da.View({2, 2, 3}, ACL_FLOAT), db.View({3, 2}, ACL_FLOAT),
                      out.View({2, 2, 2}, ACL_FLOAT), 1),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const std::vector<float> b0(b.begin(), b.begin() + 6);
  want.clear();
  for (int batch = 0; batch < 2; ++batch) {
    const std::vector<float> sa(a.begin() + batch * 6, a.begin() + batch * 6 + 6);
    for (float v : HostMm(sa, b0, 2, 3, 2)) want.push_back(v);
  }
  EXPECT_EQ(out.Read(), want);
  // 1-D @ 1-D is a dot product into a 0-D out.
  DeviceArray<float> dot(std::vector<float>(1));
  ASSERT_EQ(ACLNN_RUN(stream_, Matmul, da.View({3}, ACL_FLOAT), db.View({3}, ACL_FLOAT),
                      dot.View({}, ACL_FLOAT), 0),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(dot.Read()[0], 1 * 0 + 2 * 1 + 3 * 2);
  // BatchMatMul: 3-D only, same batch; the wrong out shape is named.
  EXPECT_EQ(ACLNN_RUN(stream_, BatchMatMul, da.View({4, 3}, ACL_FLOAT),
                      db.View({2, 3, 2}, ACL_FLOAT), out.View({2, 2, 2}, ACL_FLOAT), 0),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("must be 3-D"));
  EXPECT_EQ(ACLNN_RUN(stream_, BatchMatMul, da.View({2, 2, 3}, ACL_FLOAT),
                      db.View({2, 3, 2}, ACL_FLOAT), out.View({2, 4}, ACL_FLOAT), 0),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("out has [2, 4]"));
  EXPECT_EQ(ACLNN_RUN(stream_, Matmul, da.View({2, 2, 3}, ACL_FLOAT), db.View({2, 2}, ACL_FLOAT),
                      out.View({2, 2, 2}, ACL_FLOAT), 0),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("cannot be multiplied"));
}

TEST_F(AclnnTest, MvAndNullArguments) {
  DeviceArray<float> m(Iota(6, 1));  // [2, 3]
  DeviceArray<float> v({1, 0, -1});
  DeviceArray<float> out(std::vector<float>(2));
  ASSERT_EQ(ACLNN_RUN(stream_, Mv, m.View({2, 3}, ACL_FLOAT), v.View({3}, ACL_FLOAT),
                      out.View({2}, ACL_FLOAT), 0),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{-2, -2}));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnMvGetWorkspaceSize(m.View({2, 3}, ACL_FLOAT), nullptr, out.View({2}, ACL_FLOAT), 0,
                                    &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_TRUE(HasMessage("vec"));
  DeviceArray<int32_t> ints({1, 2, 3, 4});
  EXPECT_EQ(ACLNN_RUN(stream_, Mm, ints.View({2, 2}, ACL_INT32), ints.View({2, 2}, ACL_INT32),
                      ints.View({2, 2}, ACL_INT32), 0),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("float32, float16 or bfloat16"));
}

aclScalar* FloatScalar(float value) { return aclCreateScalar(&value, ACL_FLOAT); }

TEST_F(AclnnTest, AddmmBroadcastsSelfAndScales) {
  // out = 0.5 * self[n] + 2 * (mat1 @ mat2), mat2 a transposed view of an [n, k] buffer.
  const int64_t m = 3, k = 4, n = 2;
  const auto a = Iota(m * k);
  const std::vector<float> w = {1, -1, 2, 0.5f, 0, 1, -2, 3};  // [n, k]
  std::vector<float> wt(k * n);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < k; ++j) wt[j * n + i] = w[i * k + j];
  const std::vector<float> bias = {10, -4};
  const auto prod = HostMm(a, wt, m, k, n);
  DeviceArray<float> da(a), dw(w), dbias(bias), out(std::vector<float>(m * n));
  aclScalar* half = FloatScalar(0.5f);
  aclScalar* two = FloatScalar(2);
  aclScalar* zero = FloatScalar(0);
  aclScalar* one = FloatScalar(1);
  ASSERT_EQ(
      ACLNN_RUN(stream_, Addmm, dbias.View({n}, ACL_FLOAT), da.View({m, k}, ACL_FLOAT),
                dw.View({k, n}, ACL_FLOAT, {1, k}), half, two, out.View({m, n}, ACL_FLOAT), 0),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  auto got = out.Read();
  for (int64_t i = 0; i < m * n; ++i) EXPECT_FLOAT_EQ(got[i], 0.5f * bias[i % n] + 2 * prod[i]);
  // beta 0: self's NaN is not read; in place: self = self + mat1 @ mat2.
  DeviceArray<float> nan_self(std::vector<float>(m * n, std::nanf("")));
  ASSERT_EQ(
      ACLNN_RUN(stream_, Addmm, nan_self.View({m, n}, ACL_FLOAT), da.View({m, k}, ACL_FLOAT),
                dw.View({k, n}, ACL_FLOAT, {1, k}), zero, one, out.View({m, n}, ACL_FLOAT), 0),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  got = out.Read();
  for (int64_t i = 0; i < m * n; ++i) EXPECT_FLOAT_EQ(got[i], prod[i]);
  DeviceArray<float> acc(std::vector<float>(m * n, 1));
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceAddmm, acc.View({m, n}, ACL_FLOAT),
                      da.View({m, k}, ACL_FLOAT), dw.View({k, n}, ACL_FLOAT, {1, k}), one, one, 0),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  got = acc.Read();
  for (int64_t i = 0; i < m * n; ++i) EXPECT_FLOAT_EQ(got[i], 1 + prod[i]);
  // Errors: a NULL beta, a self that does not broadcast, integer operands.
  EXPECT_EQ(
      ACLNN_RUN(stream_, Addmm, dbias.View({n}, ACL_FLOAT), da.View({m, k}, ACL_FLOAT),
                dw.View({k, n}, ACL_FLOAT, {1, k}), nullptr, two, out.View({m, n}, ACL_FLOAT), 0),
      ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(
      ACLNN_RUN(stream_, Addmm, dbias.View({1, 2, 1}, ACL_FLOAT), da.View({m, k}, ACL_FLOAT),
                dw.View({k, n}, ACL_FLOAT, {1, k}), half, two, out.View({m, n}, ACL_FLOAT), 0),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("does not broadcast")) << aclGetRecentErrMsg();
  DeviceArray<int32_t> ints(std::vector<int32_t>(m * k, 1));
  EXPECT_EQ(
      ACLNN_RUN(stream_, Addmm, dbias.View({n}, ACL_FLOAT), ints.View({m, k}, ACL_INT32),
                dw.View({k, n}, ACL_FLOAT, {1, k}), half, two, out.View({m, n}, ACL_FLOAT), 0),
      ACLNN_ERR_PARAM_INVALID);
  for (aclScalar* scalar : {half, two, zero, one}) aclDestroyScalar(scalar);
}

TEST_F(AclnnTest, BaddbmmAndAddbmm) {
  const int64_t bs = 2, m = 2, k = 3, n = 2;
  const auto x = Iota(bs * m * k);
  std::vector<float> y(bs * k * n);
  for (size_t i = 0; i < y.size(); ++i) y[i] = static_cast<float>(i % 5) - 2;
  std::vector<float> prod;
  for (int64_t i = 0; i < bs; ++i) {
    const std::vector<float> xi(x.begin() + i * m * k, x.begin() + (i + 1) * m * k);
    const std::vector<float> yi(y.begin() + i * k * n, y.begin() + (i + 1) * k * n);
    const auto p = HostMm(xi, yi, m, k, n);
    prod.insert(prod.end(), p.begin(), p.end());
  }
  const std::vector<float> self = {1, 2, 3, 4};  // [m, n], broadcast over the batch
  DeviceArray<float> dx(x), dy(y), dself(self), out(std::vector<float>(bs * m * n));
  aclScalar* beta = FloatScalar(-1);
  aclScalar* alpha = FloatScalar(0.5f);
  ASSERT_EQ(
      ACLNN_RUN(stream_, Baddbmm, dself.View({m, n}, ACL_FLOAT), dx.View({bs, m, k}, ACL_FLOAT),
                dy.View({bs, k, n}, ACL_FLOAT), beta, alpha, out.View({bs, m, n}, ACL_FLOAT), 0),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  auto got = out.Read();
  for (int64_t i = 0; i < bs * m * n; ++i) {
    EXPECT_FLOAT_EQ(got[i], -self[i % (m * n)] + 0.5f * prod[i]);
  }
  DeviceArray<float> sum(std::vector<float>(m * n));
  ASSERT_EQ(
      ACLNN_RUN(stream_, Addbmm, dself.View({m, n}, ACL_FLOAT), dx.View({bs, m, k}, ACL_FLOAT),
                dy.View({bs, k, n}, ACL_FLOAT), beta, alpha, sum.View({m, n}, ACL_FLOAT), 0),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  got = sum.Read();
  for (int64_t i = 0; i < m * n; ++i) {
    EXPECT_FLOAT_EQ(got[i], -self[i] + 0.5f * (prod[i] + prod[m * n + i]));
  }
  // f16 in place: the epilogue in f32, rounded once.
  DeviceArray<uint16_t> hx(aclnntest::ToF16(x)), hy(aclnntest::ToF16(y));
  DeviceArray<uint16_t> hacc(aclnntest::ToF16(std::vector<float>(bs * m * n, 0.25f)));
  ASSERT_EQ(
      ACLNN_RUN(stream_, InplaceBaddbmm, hacc.View({bs, m, n}, ACL_FLOAT16),
                hx.View({bs, m, k}, ACL_FLOAT16), hy.View({bs, k, n}, ACL_FLOAT16), beta, alpha, 0),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const auto half_got = aclnntest::FromF16(hacc.Read());
  for (int64_t i = 0; i < bs * m * n; ++i) {
    EXPECT_EQ(half_got[i], aclFloat16ToFloat(aclFloatToFloat16(-0.25f + 0.5f * prod[i])));
  }
  // A batch mismatch is refused.
  EXPECT_EQ(
      ACLNN_RUN(stream_, Baddbmm, dself.View({m, n}, ACL_FLOAT), dx.View({bs, m, k}, ACL_FLOAT),
                dy.View({1, k, n}, ACL_FLOAT), beta, alpha, out.View({bs, m, n}, ACL_FLOAT), 0),
      ACLNN_ERR_PARAM_INVALID);
  aclDestroyScalar(beta);
  aclDestroyScalar(alpha);
}

TEST_F(AclnnTest, SoftmaxAlongADimOfAStridedView) {
  // self: the transpose of a [3, 2] buffer; softmax along dim 1 (the buffer's columns).
  DeviceArray<float> x({0, 1, 2, 3, 4, 5});
  DeviceArray<float> out(std::vector<float>(6));
  ASSERT_EQ(ACLNN_RUN(stream_, Softmax, x.View({2, 3}, ACL_FLOAT, {1, 2}), -1,
                      out.View({2, 3}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const std::vector<std::vector<double>> rows = {{0, 2, 4}, {1, 3, 5}};
  const std::vector<float> got = out.Read();
  for (size_t r = 0; r < 2; ++r) {
    double sum = 0;
    for (double v : rows[r]) sum += std::exp(v - rows[r][2]);
    for (size_t c = 0; c < 3; ++c) {
      EXPECT_NEAR(got[r * 3 + c], std::exp(rows[r][c] - rows[r][2]) / sum, 1e-6);
    }
  }
  EXPECT_EQ(ACLNN_RUN(stream_, Softmax, x.View({2, 3}, ACL_FLOAT), 2, out.View({2, 3}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("out of range"));
  DeviceArray<int32_t> ints(std::vector<int32_t>(6));
  EXPECT_EQ(ACLNN_RUN(stream_, Softmax, ints.View({6}, ACL_INT32), 0, ints.View({6}, ACL_INT32)),
            ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnTest, MaxMinProdAllAnyLogSumExpAndArgMin) {
  // x [2, 3] = {{1, -2, 3}, {0.5, 4, -1}}.
  DeviceArray<float> x({1, -2, 3, 0.5f, 4, -1});
  DeviceArray<float> rows(std::vector<float>(2)), cols(std::vector<float>(3)),
      one(std::vector<float>(1));
  aclIntArray* dim1 = aclnntest::Ints({1});
  aclIntArray* dim0 = aclnntest::Ints({0});
  aclIntArray* all = aclnntest::Ints({});
  ASSERT_EQ(
      ACLNN_RUN(stream_, Amax, x.View({2, 3}, ACL_FLOAT), dim1, false, rows.View({2}, ACL_FLOAT)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(rows.Read(), (std::vector<float>{3, 4}));
  ASSERT_EQ(
      ACLNN_RUN(stream_, Amin, x.View({2, 3}, ACL_FLOAT), dim0, true, cols.View({1, 3}, ACL_FLOAT)),
      ACLNN_SUCCESS);
  EXPECT_EQ(cols.Read(), (std::vector<float>{0.5f, -2, -1}));
  ASSERT_EQ(ACLNN_RUN(stream_, Max, x.View({2, 3}, ACL_FLOAT), one.View({}, ACL_FLOAT)),
            ACLNN_SUCCESS);
  EXPECT_EQ(one.Read()[0], 4);
  ASSERT_EQ(ACLNN_RUN(stream_, Min, x.View({2, 3}, ACL_FLOAT), one.View({}, ACL_FLOAT)),
            ACLNN_SUCCESS);
  EXPECT_EQ(one.Read()[0], -2);
  ASSERT_EQ(ACLNN_RUN(stream_, Prod, x.View({2, 3}, ACL_FLOAT), ACL_FLOAT, one.View({}, ACL_FLOAT)),
            ACLNN_SUCCESS);
  EXPECT_EQ(one.Read()[0], 12);
  ASSERT_EQ(ACLNN_RUN(stream_, ProdDim, x.View({2, 3}, ACL_FLOAT), 0, false, ACL_FLOAT,
                      cols.View({3}, ACL_FLOAT)),
            ACLNN_SUCCESS);
  EXPECT_EQ(cols.Read(), (std::vector<float>{0.5f, -8, -3}));
  ASSERT_EQ(ACLNN_RUN(stream_, LogSumExp, x.View({2, 3}, ACL_FLOAT), dim1, false,
                      rows.View({2}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const auto lse = rows.Read();
  EXPECT_NEAR(lse[0], std::log(std::exp(1.0) + std::exp(-2.0) + std::exp(3.0)), 1e-5);
  EXPECT_NEAR(lse[1], std::log(std::exp(0.5) + std::exp(4.0) + std::exp(-1.0)), 1e-5);
  DeviceArray<int64_t> index(std::vector<int64_t>(2));
  ASSERT_EQ(
      ACLNN_RUN(stream_, ArgMin, x.View({2, 3}, ACL_FLOAT), 1, false, index.View({2}, ACL_INT64)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(index.Read(), (std::vector<int64_t>{1, 2}));
  // All / Any read numbers as bool: rows of {1, 0, 2} and {0, 0, 0}.
  DeviceArray<int32_t> flags({1, 0, 2, 0, 0, 0});
  DeviceArray<uint8_t> answer(std::vector<uint8_t>(2, 7));
  ASSERT_EQ(ACLNN_RUN(stream_, Any, flags.View({2, 3}, ACL_INT32), dim1, false,
                      answer.View({2}, ACL_BOOL)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(answer.Read(), (std::vector<uint8_t>{1, 0}));
  DeviceArray<uint8_t> every(std::vector<uint8_t>(1, 7));
  ASSERT_EQ(
      ACLNN_RUN(stream_, All, flags.View({2, 3}, ACL_INT32), all, false, every.View({}, ACL_BOOL)),
      ACLNN_SUCCESS);
  EXPECT_EQ(every.Read()[0], 0);
  // Errors: a dim twice; an out of the wrong shape; ArgMin of an empty dim.
  aclIntArray* twice = aclnntest::Ints({1, -1});
  EXPECT_EQ(
      ACLNN_RUN(stream_, Amax, x.View({2, 3}, ACL_FLOAT), twice, false, rows.View({2}, ACL_FLOAT)),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(
      ACLNN_RUN(stream_, Amin, x.View({2, 3}, ACL_FLOAT), dim1, false, cols.View({3}, ACL_FLOAT)),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(
      ACLNN_RUN(stream_, ArgMin, x.View({2, 0}, ACL_FLOAT), 1, false, index.View({2}, ACL_INT64)),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("no minimum")) << aclGetRecentErrMsg();
  for (aclIntArray* a : {dim1, dim0, all, twice}) aclDestroyIntArray(a);
}

TEST_F(AclnnTest, ReduceSumAndMeanOverDims) {
  DeviceArray<float> x(Iota(24));  // [2, 3, 4]
  DeviceArray<float> out(std::vector<float>(8));
  aclIntArray* dim1 = Ints({1});
  ASSERT_EQ(ACLNN_RUN(stream_, ReduceSum, x.View({2, 3, 4}, ACL_FLOAT), dim1, false, ACL_FLOAT,
                      out.View({2, 4}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> want(8);
  for (int a = 0; a < 2; ++a) {
    for (int c = 0; c < 4; ++c) {
      for (int b = 0; b < 3; ++b) want[a * 4 + c] += static_cast<float>(a * 12 + b * 4 + c);
    }
  }
  EXPECT_EQ(out.Read(), want);
  // Mean over {0, -1} with keepDim into [1, 3, 1].
  aclIntArray* dims = Ints({0, -1});
  DeviceArray<float> mean(std::vector<float>(3));
  ASSERT_EQ(ACLNN_RUN(stream_, Mean, x.View({2, 3, 4}, ACL_FLOAT), dims, true, ACL_FLOAT,
                      mean.View({1, 3, 1}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(mean.Read(), (std::vector<float>{7.5f, 11.5f, 15.5f}));
  // Empty dims: everything; int32 input summed in int64.
  DeviceArray<int32_t> ints({1, 2, 3, 4});
  DeviceArray<int64_t> total(std::vector<int64_t>(1));
  aclIntArray* none = Ints({});
  ASSERT_EQ(ACLNN_RUN(stream_, ReduceSum, ints.View({2, 2}, ACL_INT32), none, false, ACL_INT64,
                      total.View({}, ACL_INT64)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(total.Read()[0], 10);
  // Errors: a repeated dim, a dim out of range, the wrong out shape.
  aclIntArray* twice = Ints({1, -2});
  EXPECT_EQ(ACLNN_RUN(stream_, ReduceSum, x.View({2, 3, 4}, ACL_FLOAT), twice, false, ACL_FLOAT,
                      out.View({2, 4}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("appears twice"));
  aclIntArray* far = Ints({3});
  EXPECT_EQ(ACLNN_RUN(stream_, Mean, x.View({2, 3, 4}, ACL_FLOAT), far, false, ACL_FLOAT,
                      out.View({2, 4}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("out of range"));
  EXPECT_EQ(ACLNN_RUN(stream_, ReduceSum, x.View({2, 3, 4}, ACL_FLOAT), dim1, true, ACL_FLOAT,
                      out.View({2, 4}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("out has [2, 4]"));
  for (aclIntArray* a : {dim1, dims, none, twice, far}) aclDestroyIntArray(a);
}

// Argsort along a dim, both directions; equal elements keep their order (stable).
TEST_F(AclnnTest, ArgsortIsStableInBothDirections) {
  DeviceArray<float> x({3, 9, 1, 4, 4, 8});  // [2, 3]
  DeviceArray<int64_t> idx(std::vector<int64_t>(6));
  ASSERT_EQ(ACLNN_RUN(stream_, Argsort, x.View({2, 3}, ACL_FLOAT), -1, false,
                      idx.View({2, 3}, ACL_INT64)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(idx.Read(), (std::vector<int64_t>{2, 0, 1, 0, 1, 2}));
  ASSERT_EQ(
      ACLNN_RUN(stream_, Argsort, x.View({2, 3}, ACL_FLOAT), 1, true, idx.View({2, 3}, ACL_INT64)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(idx.Read(), (std::vector<int64_t>{1, 0, 2, 2, 0, 1}));
  // Along dim 0 of the transposed view [3, 2].
  ASSERT_EQ(ACLNN_RUN(stream_, Argsort, x.View({3, 2}, ACL_FLOAT, {1, 3}), 0, false,
                      idx.View({3, 2}, ACL_INT64)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(idx.Read(), (std::vector<int64_t>{2, 0, 0, 1, 1, 2}));
  DeviceArray<int32_t> idx32(std::vector<int32_t>(6));
  EXPECT_EQ(ACLNN_RUN(stream_, Argsort, x.View({2, 3}, ACL_FLOAT), -1, false,
                      idx32.View({2, 3}, ACL_INT32)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("must be int64"));
  EXPECT_EQ(
      ACLNN_RUN(stream_, Argsort, x.View({2, 3}, ACL_FLOAT), 2, false, idx.View({2, 3}, ACL_INT64)),
      ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnTest, SortAndTopkReturnValuesAndInt64Indices) {
  DeviceArray<float> x({3, 9, 1, 4, 4, 8});  // [2, 3]
  DeviceArray<float> values(std::vector<float>(6));
  DeviceArray<int64_t> idx(std::vector<int64_t>(6));
  ASSERT_EQ(ACLNN_RUN(stream_, Sort, x.View({2, 3}, ACL_FLOAT), true, -1, true,
                      values.View({2, 3}, ACL_FLOAT), idx.View({2, 3}, ACL_INT64)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(values.Read(), (std::vector<float>{9, 3, 1, 8, 4, 4}));
  EXPECT_EQ(idx.Read(), (std::vector<int64_t>{1, 0, 2, 2, 0, 1}));
  // The 2 smallest of each column of the transposed view [3, 2], along dim 0.
  DeviceArray<float> top(std::vector<float>(4));
  DeviceArray<int64_t> top_idx(std::vector<int64_t>(4));
  ASSERT_EQ(ACLNN_RUN(stream_, Topk, x.View({3, 2}, ACL_FLOAT, {1, 3}), 2, 0, false, true,
                      top.View({2, 2}, ACL_FLOAT), top_idx.View({2, 2}, ACL_INT64)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(top.Read(), (std::vector<float>{1, 4, 3, 4}));
  EXPECT_EQ(top_idx.Read(), (std::vector<int64_t>{2, 0, 0, 1}));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  DeviceArray<float> wide(std::vector<float>(8));
  DeviceArray<int64_t> wide_idx(std::vector<int64_t>(8));
  EXPECT_EQ(aclnnTopkGetWorkspaceSize(x.View({2, 3}, ACL_FLOAT), 4, -1, true, true,
                                      wide.View({2, 4}, ACL_FLOAT),
                                      wide_idx.View({2, 4}, ACL_INT64), &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("k is 4")) << aclGetRecentErrMsg();
  EXPECT_EQ(aclnnTopkGetWorkspaceSize(x.View({2, 3}, ACL_FLOAT), 2, -1, true, false,
                                      top.View({2, 2}, ACL_FLOAT), top_idx.View({2, 2}, ACL_INT64),
                                      &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("sorted")) << aclGetRecentErrMsg();
}

TEST_F(AclnnTest, ArgMaxAndCumsum) {
  DeviceArray<float> x({3, 9, 1, 4, 4, 8});  // [2, 3]
  DeviceArray<int64_t> idx(std::vector<int64_t>(2));
  ASSERT_EQ(
      ACLNN_RUN(stream_, ArgMax, x.View({2, 3}, ACL_FLOAT), 1, false, idx.View({2}, ACL_INT64)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(idx.Read(), (std::vector<int64_t>{1, 2}));
  DeviceArray<int32_t> idx32(std::vector<int32_t>(3));
  ASSERT_EQ(
      ACLNN_RUN(stream_, ArgMax, x.View({2, 3}, ACL_FLOAT), 0, true, idx32.View({1, 3}, ACL_INT32)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(idx32.Read(), (std::vector<int32_t>{1, 0, 1}));
  EXPECT_EQ(ACLNN_RUN(stream_, ArgMax, x.View({2, 3}, ACL_FLOAT), 1, false, x.View({2}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("int32 or int64"));
  // Cumsum along dim 0 of the transposed view, in float.
  DeviceArray<float> sums(std::vector<float>(6));
  ASSERT_EQ(ACLNN_RUN(stream_, Cumsum, x.View({3, 2}, ACL_FLOAT, {1, 3}), 0, ACL_FLOAT,
                      sums.View({3, 2}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(sums.Read(), (std::vector<float>{3, 4, 12, 8, 13, 16}));
  // int32 into int64.
  DeviceArray<int32_t> ints({1, 2, 3});
  DeviceArray<int64_t> isums(std::vector<int64_t>(3));
  ASSERT_EQ(ACLNN_RUN(stream_, Cumsum, ints.View({3}, ACL_INT32), -1, ACL_INT64,
                      isums.View({3}, ACL_INT64)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(isums.Read(), (std::vector<int64_t>{1, 3, 6}));
  EXPECT_EQ(ACLNN_RUN(stream_, Cumsum, ints.View({3}, ACL_INT32), 0, ACL_FLOAT,
                      isums.View({3}, ACL_INT64)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("they must match"));
}

}  // namespace
