// aclnn comparisons, Maximum / Minimum, Pow, Clamp and the activations with parameters
// (LeakyRelu, Elu, Threshold, Softplus, SwiGlu) through the public API, with the promotion of
// a tensor with a scalar, broadcasting, in-place forms and the errors.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "aclnn_test.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_floor_divide.h"
#include "aclnnop/aclnn_fmod_tensor.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_remainder.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "aclnnop/aclnn_threshold.h"

namespace {

using aclnntest::AclnnTest;
using aclnntest::DeviceArray;
using aclnntest::HasMessage;
using aclnntest::Iota;
using aclnntest::Scalar;

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want, float tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

TEST_F(AclnnTest, ComparisonsPromoteBroadcastAndCastTheirBools) {
  // f16 tensor > f32 scalar compares in f16 (a scalar never widens its tensor's category).
  DeviceArray<uint16_t> h(
      {aclFloatToFloat16(0.5F), aclFloatToFloat16(1.5F), aclFloatToFloat16(1.0F)});
  Scalar<float> one(1.0F, ACL_FLOAT);
  DeviceArray<uint8_t> mask(std::vector<uint8_t>(3, 7));
  ASSERT_EQ(
      ACLNN_RUN(stream_, GtScalar, h.View({3}, ACL_FLOAT16), one.handle, mask.View({3}, ACL_BOOL)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(mask.Read(), (std::vector<uint8_t>{0, 1, 0}));
  // int32 [2, 1] == int64 [3] broadcast to [2, 3], written as floats.
  DeviceArray<int32_t> a({1, 2});
  DeviceArray<int64_t> b({0, 1, 2});
  DeviceArray<float> eq(std::vector<float>(6, -1));
  ASSERT_EQ(ACLNN_RUN(stream_, EqTensor, a.View({2, 1}, ACL_INT32), b.View({3}, ACL_INT64),
                      eq.View({2, 3}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(eq.Read(), (std::vector<float>{0, 1, 0, 0, 0, 1}));
  // In place: selfRef = (selfRef == 2) in selfRef's dtype.
  DeviceArray<float> v({2, 3, 2});
  Scalar<int64_t> two(2, ACL_INT64);
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceEqScalar, v.View({3}, ACL_FLOAT), two.handle), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(v.Read(), (std::vector<float>{1, 0, 1}));
  EXPECT_EQ(ACLNN_RUN(stream_, EqTensor, a.View({2}, ACL_INT32), b.View({3}, ACL_INT64),
                      eq.View({3}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("do not broadcast")) << aclGetRecentErrMsg();
}

TEST_F(AclnnTest, MaximumMinimumPropagateNaNAndRunInt16Exactly) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  DeviceArray<float> a({1, nan, 3});
  DeviceArray<float> b({2, 0, 2});
  DeviceArray<float> out(std::vector<float>(3, -1));
  ASSERT_EQ(ACLNN_RUN(stream_, Maximum, a.View({3}, ACL_FLOAT), b.View({3}, ACL_FLOAT),
                      out.View({3}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const auto got = out.Read();
  EXPECT_EQ(got[0], 2);
  EXPECT_TRUE(std::isnan(got[1]));
  EXPECT_EQ(got[2], 3);
  DeviceArray<int16_t> i({-300, 7});
  DeviceArray<int16_t> j({5, -32768});
  DeviceArray<int16_t> m(std::vector<int16_t>(2, 0));
  ASSERT_EQ(ACLNN_RUN(stream_, Minimum, i.View({2}, ACL_INT16), j.View({2}, ACL_INT16),
                      m.View({2}, ACL_INT16)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(m.Read(), (std::vector<int16_t>{-300, -32768}));
}

TEST_F(AclnnTest, PowTensorScalarScalarTensorAndIntegerRules) {
  DeviceArray<float> x({1, 2, 3});
  Scalar<float> sq(2.0F, ACL_FLOAT);
  DeviceArray<float> out(std::vector<float>(3, -1));
  ASSERT_EQ(ACLNN_RUN(stream_, PowTensorScalar, x.View({3}, ACL_FLOAT), sq.handle,
                      out.View({3}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{1, 4, 9}));
  // ALiBi's slopes as llama.cpp computes them: base ** arange.
  Scalar<float> base(0.5F, ACL_FLOAT);
  DeviceArray<float> e({0, 1, 2});
  ASSERT_EQ(ACLNN_RUN(stream_, PowScalarTensor, base.handle, e.View({3}, ACL_FLOAT),
                      out.View({3}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{1, 0.5F, 0.25F}));
  ASSERT_EQ(ACLNN_RUN(stream_, InplacePowTensorScalar, x.View({3}, ACL_FLOAT), sq.handle),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(x.Read(), (std::vector<float>{1, 4, 9}));
  DeviceArray<int32_t> n({2, 3});
  Scalar<int64_t> minus(-1, ACL_INT64);
  DeviceArray<int32_t> nout(std::vector<int32_t>(2, 0));
  EXPECT_EQ(ACLNN_RUN(stream_, PowTensorScalar, n.View({2}, ACL_INT32), minus.handle,
                      nout.View({2}, ACL_INT32)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("negative integer powers")) << aclGetRecentErrMsg();
  // An int tensor to a float power computes in float: the int32 out refuses nothing (cast).
  Scalar<float> half(0.5F, ACL_FLOAT);
  DeviceArray<float> root(std::vector<float>(2, 0));
  ASSERT_EQ(ACLNN_RUN(stream_, PowTensorScalar, n.View({2}, ACL_INT32), half.handle,
                      root.View({2}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ExpectNear(root.Read(), {std::sqrt(2.0F), std::sqrt(3.0F)}, 1e-6F);
}

TEST_F(AclnnTest, ClampScalarTensorAndInPlaceForms) {
  DeviceArray<float> x({-3, -0.5F, 0.5F, 3});
  Scalar<float> lo(-1, ACL_FLOAT);
  Scalar<float> hi(1, ACL_FLOAT);
  DeviceArray<float> out(std::vector<float>(4, 9));
  ASSERT_EQ(ACLNN_RUN(stream_, Clamp, x.View({4}, ACL_FLOAT), lo.handle, hi.handle,
                      out.View({4}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{-1, -0.5F, 0.5F, 1}));
  ASSERT_EQ(ACLNN_RUN(stream_, Clamp, x.View({4}, ACL_FLOAT), nullptr, hi.handle,
                      out.View({4}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{-3, -0.5F, 0.5F, 1}));
  ASSERT_EQ(
      ACLNN_RUN(stream_, ClampMin, x.View({4}, ACL_FLOAT), lo.handle, out.View({4}, ACL_FLOAT)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<float>{-1, -0.5F, 0.5F, 3}));
  EXPECT_EQ(
      ACLNN_RUN(stream_, Clamp, x.View({4}, ACL_FLOAT), nullptr, nullptr, out.View({4}, ACL_FLOAT)),
      ACLNN_ERR_PARAM_NULLPTR);
  // Tensor bounds broadcast: rows [2, 1] of lower bounds against [2, 2].
  DeviceArray<float> m({-5, 5, -5, 5});
  DeviceArray<float> lows({0, -10});
  DeviceArray<float> mo(std::vector<float>(4, 9));
  ASSERT_EQ(ACLNN_RUN(stream_, ClampMinTensor, m.View({2, 2}, ACL_FLOAT),
                      lows.View({2, 1}, ACL_FLOAT), mo.View({2, 2}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(mo.Read(), (std::vector<float>{0, 5, -5, 5}));
  // YaRN's ramp in llama.cpp: InplaceClampMax on f32.
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceClampMax, x.View({4}, ACL_FLOAT), hi.handle), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(x.Read(), (std::vector<float>{-3, -0.5F, 0.5F, 1}));
}

TEST_F(AclnnTest, ActivationsWithParameters) {
  const std::vector<float> in{-2, -0.5F, 0, 0.5F, 2, 4};
  DeviceArray<float> x(in);
  DeviceArray<float> out(std::vector<float>(6, 9));
  Scalar<float> slope(0.1F, ACL_FLOAT);
  ASSERT_EQ(
      ACLNN_RUN(stream_, LeakyRelu, x.View({6}, ACL_FLOAT), slope.handle, out.View({6}, ACL_FLOAT)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ExpectNear(out.Read(), {-0.2F, -0.05F, 0, 0.5F, 2, 4}, 1e-6F);
  Scalar<float> alpha(1.5F, ACL_FLOAT);
  Scalar<float> scale(2.0F, ACL_FLOAT);
  Scalar<float> input_scale(0.5F, ACL_FLOAT);
  ASSERT_EQ(ACLNN_RUN(stream_, Elu, x.View({6}, ACL_FLOAT), alpha.handle, scale.handle,
                      input_scale.handle, out.View({6}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> elu;
  for (float v : in) elu.push_back(2.0F * (v > 0 ? v : 1.5F * std::expm1(0.5F * v)));
  ExpectNear(out.Read(), elu, 1e-5F);
  Scalar<float> beta(2.0F, ACL_FLOAT);
  Scalar<float> limit(3.0F, ACL_FLOAT);
  ASSERT_EQ(ACLNN_RUN(stream_, Softplus, x.View({6}, ACL_FLOAT), beta.handle, limit.handle,
                      out.View({6}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> soft;
  for (float v : in) soft.push_back(2 * v > 3 ? v : std::log1p(std::exp(2 * v)) / 2);
  ExpectNear(out.Read(), soft, 1e-5F);
  // In place: x <= 0.5 becomes -1.
  Scalar<float> th(0.5F, ACL_FLOAT);
  Scalar<float> value(-1.0F, ACL_FLOAT);
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceThreshold, x.View({6}, ACL_FLOAT), th.handle, value.handle),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(x.Read(), (std::vector<float>{-1, -1, -1, -1, 2, 4}));
  DeviceArray<int32_t> ints({1, 2});
  DeviceArray<int32_t> iout(std::vector<int32_t>(2));
  EXPECT_EQ(ACLNN_RUN(stream_, LeakyRelu, ints.View({2}, ACL_INT32), slope.handle,
                      iout.View({2}, ACL_INT32)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("floating")) << aclGetRecentErrMsg();
}

TEST_F(AclnnTest, SwiGluSplitsAlongDim) {
  // [2, 4]: a = columns 0-1, b = columns 2-3; out = silu(a) * b.
  const std::vector<float> in{-1, 0.5F, 2, 3, 1, 2, -1, 0.5F};
  DeviceArray<float> x(in);
  DeviceArray<float> out(std::vector<float>(4, 9));
  ASSERT_EQ(ACLNN_RUN(stream_, SwiGlu, x.View({2, 4}, ACL_FLOAT), -1, out.View({2, 2}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  auto silu = [](float v) { return v / (1 + std::exp(-v)); };
  ExpectNear(out.Read(), {silu(-1) * 2, silu(0.5F) * 3, silu(1) * -1, silu(2) * 0.5F}, 1e-6F);
  // Along dim 0 of the same data: a = row 0, b = row 1.
  DeviceArray<float> rows(std::vector<float>(4, 9));
  ASSERT_EQ(ACLNN_RUN(stream_, SwiGlu, x.View({2, 4}, ACL_FLOAT), 0, rows.View({1, 4}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ExpectNear(rows.Read(), {silu(-1) * 1, silu(0.5F) * 2, silu(2) * -1, silu(3) * 0.5F}, 1e-6F);
  EXPECT_EQ(ACLNN_RUN(stream_, SwiGlu, x.View({8}, ACL_FLOAT), 0, out.View({3}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(ACLNN_RUN(stream_, SwiGlu, x.View({1, 8}, ACL_FLOAT), 0, out.View({1, 4}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("odd size")) << aclGetRecentErrMsg();
}

TEST_F(AclnnTest, FloorDivideRemainderAndFmodKeepTheirSigns) {
  DeviceArray<int32_t> a({-7, 7, -7, 7}), b({2, -2, 3, -3}), out(std::vector<int32_t>(4));
  ASSERT_EQ(ACLNN_RUN(stream_, FloorDivide, a.View({4}, ACL_INT32), b.View({4}, ACL_INT32),
                      out.View({4}, ACL_INT32)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(out.Read(), (std::vector<int32_t>{-4, -4, -3, -3}));
  ASSERT_EQ(ACLNN_RUN(stream_, RemainderTensorTensor, a.View({4}, ACL_INT32),
                      b.View({4}, ACL_INT32), out.View({4}, ACL_INT32)),
            ACLNN_SUCCESS);
  EXPECT_EQ(out.Read(), (std::vector<int32_t>{1, -1, 2, -2}));  // the sign of other
  ASSERT_EQ(ACLNN_RUN(stream_, FmodTensor, a.View({4}, ACL_INT32), b.View({4}, ACL_INT32),
                      out.View({4}, ACL_INT32)),
            ACLNN_SUCCESS);
  EXPECT_EQ(out.Read(), (std::vector<int32_t>{-1, 1, -1, 1}));  // the sign of self
  // Scalar forms in float: an f32 tensor with a scalar stays f32.
  DeviceArray<float> x({-7.5f, 7.5f}), y(std::vector<float>(2));
  Scalar<float> two(2, ACL_FLOAT);
  ASSERT_EQ(
      ACLNN_RUN(stream_, FloorDivides, x.View({2}, ACL_FLOAT), two.handle, y.View({2}, ACL_FLOAT)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(y.Read(), (std::vector<float>{-4, 3}));
  Scalar<float> minus_two(-2, ACL_FLOAT);
  ASSERT_EQ(ACLNN_RUN(stream_, RemainderTensorScalar, x.View({2}, ACL_FLOAT), minus_two.handle,
                      y.View({2}, ACL_FLOAT)),
            ACLNN_SUCCESS);
  EXPECT_EQ(y.Read(), (std::vector<float>{-1.5f, -0.5f}));
  // Shapes that do not broadcast.
  EXPECT_EQ(ACLNN_RUN(stream_, FmodTensor, a.View({4}, ACL_INT32), b.View({2}, ACL_INT32, {}, 0),
                      out.View({4}, ACL_INT32)),
            ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
