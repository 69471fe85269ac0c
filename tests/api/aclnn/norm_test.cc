// aclnn LayerNorm, LayerNormWithImplMode and GroupNorm through the public API, against the
// host's math in double: one and two normalised dims, optional weight / bias / statistics,
// float16 input with float32 parameters, and the errors.
#include <cmath>
#include <cstdint>
#include <vector>

#include "aclnn_test.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_layer_norm.h"

namespace {

using aclnntest::AclnnTest;
using aclnntest::DeviceArray;
using aclnntest::FromF16;
using aclnntest::HasMessage;
using aclnntest::ToF16;

std::vector<float> Wave(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(0.7f * static_cast<float>(i)) * 3 + 0.5f;
  return v;
}

struct Stats {
  std::vector<float> y, mean, rstd;
};

// Rows of `inner` elements normalised; weight / bias (empty: 1 / 0) per position in a row.
Stats HostLayerNorm(const std::vector<float>& x, size_t inner, const std::vector<float>& w,
                    const std::vector<float>& b, double eps) {
  Stats s;
  for (size_t row = 0; row * inner < x.size(); ++row) {
    double mean = 0, var = 0;
    for (size_t i = 0; i < inner; ++i) mean += x[row * inner + i];
    mean /= static_cast<double>(inner);
    for (size_t i = 0; i < inner; ++i) var += std::pow(x[row * inner + i] - mean, 2);
    var /= static_cast<double>(inner);
    const double rstd = 1 / std::sqrt(var + eps);
    for (size_t i = 0; i < inner; ++i) {
      const double g = w.empty() ? 1.0 : w[i];
      const double o = b.empty() ? 0.0 : b[i];
      s.y.push_back(static_cast<float>((x[row * inner + i] - mean) * rstd * g + o));
    }
    s.mean.push_back(static_cast<float>(mean));
    s.rstd.push_back(static_cast<float>(rstd));
  }
  return s;
}

void ExpectClose(const std::vector<float>& got, const std::vector<float>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], tol * std::max(1.0, std::fabs(double{want[i]}))) << i;
  }
}

TEST_F(AclnnTest, LayerNormOverTrailingDimsWithStatistics) {
  const auto x = Wave(24);  // [2, 3, 4]
  const std::vector<float> w = {1, 2, 0.5f, -1};
  const std::vector<float> b = {0, 1, -1, 0.25f};
  const auto want = HostLayerNorm(x, 4, w, b, 1e-5);
  DeviceArray<float> dx(x), dw(w), db(b), out(std::vector<float>(24)), mean(std::vector<float>(6)),
      rstd(std::vector<float>(6));
  const int64_t last[] = {4};
  aclIntArray* shape = aclCreateIntArray(last, 1);
  ASSERT_EQ(
      ACLNN_RUN(stream_, LayerNorm, dx.View({2, 3, 4}, ACL_FLOAT), shape, dw.View({4}, ACL_FLOAT),
                db.View({4}, ACL_FLOAT), 1e-5, out.View({2, 3, 4}, ACL_FLOAT),
                mean.View({2, 3, 1}, ACL_FLOAT), rstd.View({2, 3, 1}, ACL_FLOAT)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ExpectClose(out.Read(), want.y, 1e-6);
  ExpectClose(mean.Read(), want.mean, 1e-6);
  ExpectClose(rstd.Read(), want.rstd, 1e-6);

  // Two normalised dims, no weight / bias / statistics, through WithImplMode.
  const auto want2 = HostLayerNorm(x, 12, {}, {}, 1e-6);
  const int64_t two[] = {3, 4};
  aclIntArray* shape2 = aclCreateIntArray(two, 2);
  ASSERT_EQ(ACLNN_RUN(stream_, LayerNormWithImplMode, dx.View({2, 3, 4}, ACL_FLOAT), shape2,
                      nullptr, nullptr, 1e-6, out.View({2, 3, 4}, ACL_FLOAT), nullptr, nullptr, 1),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ExpectClose(out.Read(), want2.y, 1e-6);

  // float16 input, float32 weight: y rounded once to float16, statistics in float32.
  std::vector<float> x16 = FromF16(ToF16(x));
  const auto want16 = HostLayerNorm(x16, 4, w, b, 1e-5);
  DeviceArray<uint16_t> hx(ToF16(x)), hout(std::vector<uint16_t>(24));
  ASSERT_EQ(
      ACLNN_RUN(stream_, LayerNorm, hx.View({2, 3, 4}, ACL_FLOAT16), shape, dw.View({4}, ACL_FLOAT),
                db.View({4}, ACL_FLOAT), 1e-5, hout.View({2, 3, 4}, ACL_FLOAT16),
                mean.View({2, 3, 1}, ACL_FLOAT), rstd.View({2, 3, 1}, ACL_FLOAT)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ExpectClose(FromF16(hout.Read()), want16.y, 1e-3);
  ExpectClose(mean.Read(), want16.mean, 1e-6);

  // Errors: normalizedShape not the trailing dims, a weight of the wrong shape, implMode 3,
  // implMode 2 with a float32 input, NULL input.
  const int64_t wrong[] = {3};
  aclIntArray* bad_shape = aclCreateIntArray(wrong, 1);
  EXPECT_EQ(ACLNN_RUN(stream_, LayerNorm, dx.View({2, 3, 4}, ACL_FLOAT), bad_shape, nullptr,
                      nullptr, 1e-5, out.View({2, 3, 4}, ACL_FLOAT), nullptr, nullptr),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("trailing dims")) << aclGetRecentErrMsg();
  EXPECT_EQ(ACLNN_RUN(stream_, LayerNorm, dx.View({2, 3, 4}, ACL_FLOAT), shape,
                      dw.View({2, 2}, ACL_FLOAT), nullptr, 1e-5, out.View({2, 3, 4}, ACL_FLOAT),
                      nullptr, nullptr),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("weightOptional")) << aclGetRecentErrMsg();
  EXPECT_EQ(ACLNN_RUN(stream_, LayerNormWithImplMode, dx.View({2, 3, 4}, ACL_FLOAT), shape, nullptr,
                      nullptr, 1e-5, out.View({2, 3, 4}, ACL_FLOAT), nullptr, nullptr, 3),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(ACLNN_RUN(stream_, LayerNormWithImplMode, dx.View({2, 3, 4}, ACL_FLOAT), shape, nullptr,
                      nullptr, 1e-5, out.View({2, 3, 4}, ACL_FLOAT), nullptr, nullptr, 2),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(ACLNN_RUN(stream_, LayerNorm, nullptr, shape, nullptr, nullptr, 1e-5,
                      out.View({2, 3, 4}, ACL_FLOAT), nullptr, nullptr),
            ACLNN_ERR_PARAM_NULLPTR);
  for (aclIntArray* a : {shape, shape2, bad_shape}) aclDestroyIntArray(a);
}

TEST_F(AclnnTest, GroupNormPerGroupStatisticsAndAffine) {
  // N 2, C 4, H 1, W 3; 2 groups of 2 channels.
  const int64_t n = 2, c = 4, hxw = 3, group = 2;
  const auto x = Wave(n * c * hxw);
  const std::vector<float> gamma = {1, 2, -1, 0.5f};
  const std::vector<float> beta = {0, 0.5f, 1, -2};
  const auto grouped = HostLayerNorm(x, c / group * hxw, {}, {}, 1e-5);
  std::vector<float> want(x.size());
  for (int64_t i = 0; i < n * c * hxw; ++i) {
    const int64_t ch = (i / hxw) % c;
    want[i] = grouped.y[i] * gamma[ch] + beta[ch];
  }
  DeviceArray<float> dx(x), dg(gamma), db(beta), out(std::vector<float>(x.size())),
      mean(std::vector<float>(n * group)), rstd(std::vector<float>(n * group));
  ASSERT_EQ(ACLNN_RUN(stream_, GroupNorm, dx.View({n, c, 1, hxw}, ACL_FLOAT),
                      dg.View({c}, ACL_FLOAT), db.View({c}, ACL_FLOAT), n, c, hxw, group, 1e-5,
                      out.View({n, c, 1, hxw}, ACL_FLOAT), mean.View({n, group}, ACL_FLOAT),
                      rstd.View({n, group}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ExpectClose(out.Read(), want, 1e-6);
  ExpectClose(mean.Read(), grouped.mean, 1e-6);
  ExpectClose(rstd.Read(), grouped.rstd, 1e-6);
  // float16 in and out, no statistics.
  DeviceArray<uint16_t> hx(ToF16(x)), hout(std::vector<uint16_t>(x.size()));
  ASSERT_EQ(ACLNN_RUN(stream_, GroupNorm, hx.View({n, c, hxw}, ACL_FLOAT16),
                      dg.View({c}, ACL_FLOAT), db.View({c}, ACL_FLOAT), n, c, hxw, group, 1e-5,
                      hout.View({n, c, hxw}, ACL_FLOAT16), nullptr, nullptr),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ExpectClose(FromF16(hout.Read()), want, 5e-3);
  // Errors: group does not divide C, N that is not self's, statistics of the wrong shape.
  EXPECT_EQ(ACLNN_RUN(stream_, GroupNorm, dx.View({n, c, hxw}, ACL_FLOAT), nullptr, nullptr, n, c,
                      hxw, 3, 1e-5, out.View({n, c, hxw}, ACL_FLOAT), nullptr, nullptr),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("divide C")) << aclGetRecentErrMsg();
  EXPECT_EQ(ACLNN_RUN(stream_, GroupNorm, dx.View({n, c, hxw}, ACL_FLOAT), nullptr, nullptr, 3, c,
                      hxw, group, 1e-5, out.View({n, c, hxw}, ACL_FLOAT), nullptr, nullptr),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(ACLNN_RUN(stream_, GroupNorm, dx.View({n, c, hxw}, ACL_FLOAT), nullptr, nullptr, n, c,
                      hxw, group, 1e-5, out.View({n, c, hxw}, ACL_FLOAT),
                      mean.View({n * group}, ACL_FLOAT), nullptr),
            ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
