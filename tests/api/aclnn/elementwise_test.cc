// aclnn elementwise operators through the public API: broadcasting, promotion, strided views
// (inputs and outputs), in-place forms, scalars, executors, errors.
#include <cmath>

#include "aclnn_test.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_zero.h"

namespace {

using aclnntest::AclnnTest;
using aclnntest::DeviceArray;
using aclnntest::Iota;

aclScalar* Float(float value) { return aclCreateScalar(&value, ACL_FLOAT); }

TEST_F(AclnnTest, AddBroadcastsWithAlpha) {
  DeviceArray<float> a(Iota(6));       // [2, 3]
  DeviceArray<float> b({10, 20, 30});  // [3]
  DeviceArray<float> c(std::vector<float>(6));
  aclScalar* alpha = Float(2);
  ASSERT_EQ(ACLNN_RUN(stream_, Add, a.View({2, 3}, ACL_FLOAT), b.View({3}, ACL_FLOAT), alpha,
                      c.View({2, 3}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  aclDestroyScalar(alpha);
  EXPECT_EQ(c.Read(), (std::vector<float>{20, 41, 62, 23, 44, 65}));
}

TEST_F(AclnnTest, StridedInputsAndOutputs) {
  // a: the transpose of a 3x2 matrix; out: every second element of a 12-element buffer.
  DeviceArray<float> a(Iota(6));  // storage [[0,1],[2,3],[4,5]]
  DeviceArray<float> b(std::vector<float>(6, 1));
  DeviceArray<float> c(std::vector<float>(12, -1));
  ASSERT_EQ(ACLNN_RUN(stream_, Mul, a.View({2, 3}, ACL_FLOAT, {1, 2}), b.View({2, 3}, ACL_FLOAT),
                      c.View({2, 3}, ACL_FLOAT, {6, 2}, 0)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(c.Read(), (std::vector<float>{0, -1, 2, -1, 4, -1, 1, -1, 3, -1, 5, -1}));
}

TEST_F(AclnnTest, MixedDtypesPromote) {
  // f32 + f16 -> f32 (out f32); int32 * f32 -> f32.
  std::vector<uint16_t> halves = {aclFloatToFloat16(0.5f), aclFloatToFloat16(1.5f)};
  DeviceArray<float> a({1, 2});
  DeviceArray<uint16_t> h(halves);
  DeviceArray<float> out(std::vector<float>(2));
  aclScalar* one = Float(1);
  ASSERT_EQ(ACLNN_RUN(stream_, Add, a.View({2}, ACL_FLOAT), h.View({2}, ACL_FLOAT16), one,
                      out.View({2}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{1.5f, 3.5f}));
  DeviceArray<int32_t> pos({0, 1, 2});
  DeviceArray<float> theta({0.5f});
  DeviceArray<float> prod(std::vector<float>(3));
  ASSERT_EQ(ACLNN_RUN(stream_, Mul, pos.View({3}, ACL_INT32), theta.View({1}, ACL_FLOAT),
                      prod.View({3}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(prod.Read(), (std::vector<float>{0, 0.5f, 1}));
  aclDestroyScalar(one);
}

// CANN's 910B Add (alpha 1) and Mul read f16 / bf16 beside f32 as they are: no Cast, so no
// workspace (llama.cpp's backend frees a buffer the Mul reads before the next op takes its
// place from the same pool). InplaceMul and Add with another alpha cast first.
TEST_F(AclnnTest, MixedFloatPairsNeedNoWorkspace) {
  DeviceArray<float> a({1, 2, 3, 4});                                         // [4]
  DeviceArray<uint16_t> h({aclFloatToFloat16(0.5f), aclFloatToFloat16(-2)});  // [2, 1]
  DeviceArray<float> out(std::vector<float>(8));
  uint64_t ws = 1;
  aclOpExecutor* ex = nullptr;
  aclTensor* ha = h.View({2, 1}, ACL_FLOAT16);
  aclTensor* fa = a.View({4}, ACL_FLOAT);
  aclTensor* o = out.View({2, 4}, ACL_FLOAT);
  ASSERT_EQ(aclnnMulGetWorkspaceSize(ha, fa, o, &ws, &ex), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(ws, 0u);
  ASSERT_EQ(aclnnMul(nullptr, 0, ex, stream_), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(out.Read(), (std::vector<float>{0.5f, 1, 1.5f, 2, -2, -4, -6, -8}));
  aclScalar* one = Float(1);
  aclScalar* two = Float(2);
  ASSERT_EQ(aclnnAddGetWorkspaceSize(fa, ha, one, o, &ws, &ex), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(ws, 0u);
  ASSERT_EQ(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(out.Read(), (std::vector<float>{1.5f, 2.5f, 3.5f, 4.5f, -1, 0, 1, 2}));
  ASSERT_EQ(aclnnAddGetWorkspaceSize(fa, ha, two, o, &ws, &ex), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_GT(ws, 0u);
  aclDestroyAclOpExecutor(ex);
  // In place: the f32 result is cast back into the f16 selfRef.
  DeviceArray<uint16_t> self({aclFloatToFloat16(1), aclFloatToFloat16(3)});
  DeviceArray<float> scale({0.25f, 2});
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceMul, self.View({2}, ACL_FLOAT16), scale.View({2}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(self.Read(), (std::vector<uint16_t>{aclFloatToFloat16(0.25f), aclFloatToFloat16(6)}));
  aclDestroyScalar(one);
  aclDestroyScalar(two);
}

// Repeated identical first phases reuse the executor built the first time (the executor
// cache): each call still reads and writes its own tensors, and a call that differs in any
// metadata, scalar, aliasing or device builds its own.
TEST_F(AclnnTest, RepeatedFirstPhasesUseTheirOwnTensors) {
  aclScalar* one = Float(1);
  aclScalar* two = Float(2);
  for (int round = 0; round < 3; ++round) {
    DeviceArray<float> a({1.0f + round, 2}), b({10, 20}), c(std::vector<float>(2));
    ASSERT_EQ(ACLNN_RUN(stream_, Add, a.View({2}, ACL_FLOAT), b.View({2}, ACL_FLOAT), one,
                        c.View({2}, ACL_FLOAT)),
              ACLNN_SUCCESS);
    EXPECT_EQ(c.Read(), (std::vector<float>{11.0f + round, 22}));
    // Another alpha, the same tensor twice, a strided out: each its own executor.
    ASSERT_EQ(ACLNN_RUN(stream_, Add, a.View({2}, ACL_FLOAT), b.View({2}, ACL_FLOAT), two,
                        c.View({2}, ACL_FLOAT)),
              ACLNN_SUCCESS);
    EXPECT_EQ(c.Read(), (std::vector<float>{21.0f + round, 42}));
    aclTensor* same = a.View({2}, ACL_FLOAT);
    ASSERT_EQ(ACLNN_RUN(stream_, Add, same, same, one, c.View({2}, ACL_FLOAT)), ACLNN_SUCCESS);
    EXPECT_EQ(c.Read(), (std::vector<float>{2.0f + 2 * round, 4}));
    ASSERT_EQ(ACLNN_RUN(stream_, Add, a.View({1}, ACL_FLOAT, {1}, 1), b.View({1}, ACL_FLOAT), one,
                        c.View({1}, ACL_FLOAT)),
              ACLNN_SUCCESS);
    EXPECT_EQ(c.Read()[0], 12);
  }
  // A cached executor made repeatable follows new addresses like any other.
  DeviceArray<float> a({1, 2}), b({3, 4}), c(std::vector<float>(2)), d({5, 6});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* in = a.View({2}, ACL_FLOAT);
  ASSERT_EQ(
      aclnnAddGetWorkspaceSize(in, b.View({2}, ACL_FLOAT), one, c.View({2}, ACL_FLOAT), &ws, &ex),
      ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetInputTensorAddr(ex, 0, in, d.data()), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(c.Read(), (std::vector<float>{8, 10}));
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
  aclDestroyScalar(one);
  aclDestroyScalar(two);
}

TEST_F(AclnnTest, InPlaceAndScalarForms) {
  DeviceArray<float> a({1, 2, 3, 4});
  DeviceArray<float> b({1, 1, 1, 1});
  aclScalar* one = Float(1);
  aclScalar* three = Float(3);
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceAdd, a.View({4}, ACL_FLOAT), b.View({4}, ACL_FLOAT), one),
            ACLNN_SUCCESS);
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceMuls, a.View({4}, ACL_FLOAT), three), ACLNN_SUCCESS);
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceSubs, a.View({4}, ACL_FLOAT), three, one), ACLNN_SUCCESS);
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceDivs, a.View({4}, ACL_FLOAT), three), ACLNN_SUCCESS);
  EXPECT_EQ(a.Read(), (std::vector<float>{1, 2, 3, 4}));
  aclDestroyScalar(one);
  aclDestroyScalar(three);
}

TEST_F(AclnnTest, UnaryOpsMatchTheHostMath) {
  const std::vector<float> x = {-2, -0.5f, 0, 0.5f, 2};
  DeviceArray<float> in(x);
  DeviceArray<float> out(std::vector<float>(5));
  ASSERT_EQ(ACLNN_RUN(stream_, Exp, in.View({5}, ACL_FLOAT), out.View({5}, ACL_FLOAT)),
            ACLNN_SUCCESS);
  auto got = out.Read();
  for (size_t i = 0; i < x.size(); ++i) EXPECT_FLOAT_EQ(got[i], std::exp(x[i]));
  ASSERT_EQ(ACLNN_RUN(stream_, Silu, in.View({5}, ACL_FLOAT), out.View({5}, ACL_FLOAT)),
            ACLNN_SUCCESS);
  got = out.Read();
  for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(got[i], x[i] / (1 + std::exp(-x[i])), 1e-6);
  ASSERT_EQ(ACLNN_RUN(stream_, Gelu, in.View({5}, ACL_FLOAT), out.View({5}, ACL_FLOAT)),
            ACLNN_SUCCESS);
  got = out.Read();
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_NEAR(got[i], 0.5 * x[i] * (1 + std::erf(x[i] / std::sqrt(2.0))), 1e-6);
  }
  ASSERT_EQ(ACLNN_RUN(stream_, Abs, in.View({5}, ACL_FLOAT), out.View({5}, ACL_FLOAT)),
            ACLNN_SUCCESS);
  EXPECT_EQ(out.Read(), (std::vector<float>{2, 0.5f, 0, 0.5f, 2}));
}

TEST_F(AclnnTest, CastCopyFillZero) {
  DeviceArray<float> x({1.5f, -2.25f, 3});
  DeviceArray<uint16_t> h(std::vector<uint16_t>(3));
  ASSERT_EQ(ACLNN_RUN(stream_, Cast, x.View({3}, ACL_FLOAT), ACL_FLOAT16, h.View({3}, ACL_FLOAT16)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  auto halves = h.Read();
  EXPECT_EQ(aclFloat16ToFloat(halves[1]), -2.25f);
  // Copy broadcasts a row into a 2x3 destination.
  DeviceArray<float> dst(std::vector<float>(6));
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceCopy, dst.View({2, 3}, ACL_FLOAT), x.View({3}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(dst.Read(), (std::vector<float>{1.5f, -2.25f, 3, 1.5f, -2.25f, 3}));
  aclScalar* seven = Float(7);
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceFillScalar, dst.View({3}, ACL_FLOAT, {2}), seven),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(dst.Read(), (std::vector<float>{7, -2.25f, 7, 1.5f, 7, 3}));
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceZero, dst.View({6}, ACL_FLOAT)), ACLNN_SUCCESS);
  EXPECT_EQ(dst.Read(), std::vector<float>(6));
  aclDestroyScalar(seven);
}

TEST_F(AclnnTest, ExecutorCopiesItsArgumentsAndRunsOnce) {
  DeviceArray<float> a({1, 2});
  DeviceArray<float> b({3, 4});
  DeviceArray<float> c(std::vector<float>(2));
  aclTensor* ta = a.View({2}, ACL_FLOAT);
  const int64_t dims[] = {2};
  aclTensor* tb = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, b.data());
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnMulGetWorkspaceSize(ta, tb, c.View({2}, ACL_FLOAT), &ws, &ex), ACLNN_SUCCESS);
  aclDestroyTensor(tb);  // as ggml does: right after the first phase
  ASSERT_EQ(aclnntest::Launch(aclnnMul, ws, ex, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(c.Read(), (std::vector<float>{3, 8}));
  // The executor was freed by its launch.
  EXPECT_EQ(aclnnMul(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnTest, RepeatableExecutorRunsAgainOnNewAddresses) {
  DeviceArray<float> a({1, 2});
  DeviceArray<float> b({3, 4});
  DeviceArray<float> a2({10, 20});
  DeviceArray<float> c(std::vector<float>(2));
  aclTensor* ta = a.View({2}, ACL_FLOAT);
  aclScalar* one = Float(1);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(
      aclnnAddGetWorkspaceSize(ta, b.View({2}, ACL_FLOAT), one, c.View({2}, ACL_FLOAT), &ws, &ex),
      ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
  ASSERT_EQ(aclnntest::Launch(aclnnAdd, ws, ex, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(c.Read(), (std::vector<float>{4, 6}));
  ASSERT_EQ(aclSetInputTensorAddr(ex, 0, ta, a2.data()), ACLNN_SUCCESS);
  ASSERT_EQ(aclnntest::Launch(aclnnAdd, ws, ex, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(c.Read(), (std::vector<float>{13, 24}));
  EXPECT_EQ(aclSetInputTensorAddr(ex, 5, ta, a2.data()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
  aclDestroyScalar(one);
}

TEST_F(AclnnTest, BadInputsGetCodesAndMessages) {
  DeviceArray<float> a({1, 2, 3});
  DeviceArray<float> b({1, 2});
  DeviceArray<float> c(std::vector<float>(3));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclScalar* one = Float(1);
  EXPECT_EQ(aclnnAddGetWorkspaceSize(a.View({3}, ACL_FLOAT), b.View({2}, ACL_FLOAT), one,
                                     c.View({3}, ACL_FLOAT), &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  const char* raw = aclGetRecentErrMsg();  // reading the message clears it
  ASSERT_NE(raw, nullptr);
  const std::string message = raw;
  EXPECT_NE(message.find("aclnnAdd"), std::string::npos) << message;
  EXPECT_NE(message.find("broadcast"), std::string::npos) << message;
  EXPECT_EQ(aclnnAddGetWorkspaceSize(nullptr, b.View({2}, ACL_FLOAT), one, c.View({3}, ACL_FLOAT),
                                     &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnAddGetWorkspaceSize(a.View({3}, ACL_FLOAT), a.View({3}, ACL_FLOAT), one,
                                     c.View({3}, ACL_FLOAT), nullptr, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  // A view beyond its storage, and a float result into a bool output.
  EXPECT_EQ(aclnnAbsGetWorkspaceSize(a.View({4}, ACL_FLOAT), c.View({4}, ACL_FLOAT), &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  DeviceArray<uint8_t> flags(std::vector<uint8_t>(3));
  EXPECT_EQ(aclnnExpGetWorkspaceSize(a.View({3}, ACL_FLOAT), flags.View({3}, ACL_BOOL), &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnAdd(nullptr, 0, nullptr, stream_), ACLNN_ERR_PARAM_NULLPTR);
  aclDestroyScalar(one);
}

}  // namespace
