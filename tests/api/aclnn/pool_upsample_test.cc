// aclnn AvgPool2d, MaxPool and the Upsample* family through the public API, against PyTorch's
// rules written out on the host: pooling windows with padding, ceil mode, count_include_pad
// and divisor_override; nearest, nearest-exact, (bi/tri)linear and bicubic source coordinates
// with and without align_corners and scales; the errors.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "aclnn_test.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_max_pool.h"
#include "aclnnop/aclnn_upsample_bicubic_2d.h"
#include "aclnnop/aclnn_upsample_bilinear_2d.h"
#include "aclnnop/aclnn_upsample_linear_1d.h"
#include "aclnnop/aclnn_upsample_nearest_1d.h"
#include "aclnnop/aclnn_upsample_nearest_2d.h"
#include "aclnnop/aclnn_upsample_nearest_2d_v2.h"
#include "aclnnop/aclnn_upsample_nearest_3d.h"
#include "aclnnop/aclnn_upsample_nearest_exact2d.h"
#include "aclnnop/aclnn_upsample_trilinear_3d.h"

namespace {

using aclnntest::AclnnTest;
using aclnntest::DeviceArray;
using aclnntest::HasMessage;
using aclnntest::Ints;

std::vector<float> Plane(int64_t n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>((i * 5) % 13) - 6;
  return v;
}

void ExpectWithin(const std::vector<float>& got, const std::vector<float>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << i;
}

// One (H, W) plane pooled PyTorch's way.
std::vector<float> HostPool(const std::vector<float>& x, int64_t h, int64_t w, int64_t k, int64_t s,
                            int64_t p, bool ceil_mode, bool avg, bool include_pad, int64_t divisor,
                            int64_t* ho_out, int64_t* wo_out) {
  auto len = [&](int64_t in) {
    int64_t o = (ceil_mode ? (in + 2 * p - k + s - 1) / s : (in + 2 * p - k) / s) + 1;
    if (ceil_mode && (o - 1) * s >= in + p) --o;
    return o;
  };
  const int64_t ho = len(h), wo = len(w);
  std::vector<float> y;
  for (int64_t i = 0; i < ho; ++i) {
    for (int64_t j = 0; j < wo; ++j) {
      const int64_t h0 = i * s - p, w0 = j * s - p;
      const int64_t h1 = std::min(h0 + k, h + p), w1 = std::min(w0 + k, w + p);
      const int64_t pool_size = (h1 - h0) * (w1 - w0);
      double acc = avg ? 0 : -INFINITY;
      int64_t count = 0;
      for (int64_t a = std::max<int64_t>(h0, 0); a < std::min(h0 + k, h); ++a) {
        for (int64_t c = std::max<int64_t>(w0, 0); c < std::min(w0 + k, w); ++c) {
          acc = avg ? acc + x[a * w + c] : std::max<double>(acc, x[a * w + c]);
          ++count;
        }
      }
      if (avg) acc /= divisor > 0 ? divisor : include_pad ? pool_size : count;
      y.push_back(static_cast<float>(acc));
    }
  }
  *ho_out = ho;
  *wo_out = wo;
  return y;
}

TEST_F(AclnnTest, AvgPool2dPaddingCeilModeAndDivisor) {
  const int64_t c = 2, h = 5, w = 6;
  const auto x = Plane(c * h * w);
  struct Case {
    bool ceil_mode, include_pad;
    int64_t divisor;
  };
  for (const Case& cs : {Case{false, true, 0}, Case{true, false, 0}, Case{true, true, 3}}) {
    SCOPED_TRACE(cs.ceil_mode * 100 + cs.include_pad * 10 + cs.divisor);
    std::vector<float> want;
    int64_t ho = 0, wo = 0;
    for (int64_t ch = 0; ch < c; ++ch) {
      const std::vector<float> plane(x.begin() + ch * h * w, x.begin() + (ch + 1) * h * w);
      const auto y =
          HostPool(plane, h, w, 3, 2, 1, cs.ceil_mode, true, cs.include_pad, cs.divisor, &ho, &wo);
      want.insert(want.end(), y.begin(), y.end());
    }
    DeviceArray<float> dx(x), out(std::vector<float>(want.size()));
    aclIntArray* k = Ints({3});
    aclIntArray* s = Ints({2, 2});
    aclIntArray* p = Ints({1});
    // A 3-D (C, H, W) self.
    ASSERT_EQ(ACLNN_RUN(stream_, AvgPool2d, dx.View({c, h, w}, ACL_FLOAT), k, s, p, cs.ceil_mode,
                        cs.include_pad, cs.divisor, 0, out.View({c, ho, wo}, ACL_FLOAT)),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ExpectWithin(out.Read(), want, 1e-5);
    for (aclIntArray* a : {k, s, p}) aclDestroyIntArray(a);
  }
  // Errors: padding more than half the kernel; a wrong out shape.
  DeviceArray<float> dx(x), out(std::vector<float>(64));
  aclIntArray* k = Ints({2, 2});
  aclIntArray* none = Ints({});
  aclIntArray* big = Ints({2, 0});
  EXPECT_EQ(ACLNN_RUN(stream_, AvgPool2d, dx.View({1, c, h, w}, ACL_FLOAT), k, none, big, false,
                      true, 0, 0, out.View({1, c, 4, 3}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("at most half")) << aclGetRecentErrMsg();
  aclIntArray* zero = Ints({0});
  EXPECT_EQ(ACLNN_RUN(stream_, AvgPool2d, dx.View({1, c, h, w}, ACL_FLOAT), k, none, zero, false,
                      true, 0, 0, out.View({1, c, 3, 3}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("pooling gives [1, 2, 2, 3]")) << aclGetRecentErrMsg();
  for (aclIntArray* a : {k, none, big, zero}) aclDestroyIntArray(a);
}

TEST_F(AclnnTest, MaxPoolOnnxPadsAndOneDimension) {
  const int64_t h = 5, w = 5;
  const auto x = Plane(h * w);
  int64_t ho = 0, wo = 0;
  const auto want = HostPool(x, h, w, 3, 2, 1, false, false, false, 0, &ho, &wo);
  DeviceArray<float> dx(x), out(std::vector<float>(want.size()));
  aclIntArray* k = Ints({3, 3});
  aclIntArray* s = Ints({2});
  aclIntArray* p = Ints({1, 1, 1, 1});
  aclIntArray* d = Ints({1, 1});
  ASSERT_EQ(ACLNN_RUN(stream_, MaxPool, dx.View({1, 1, h, w}, ACL_FLOAT), k, s, 0, p, d, 0,
                      out.View({1, 1, ho, wo}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ExpectWithin(out.Read(), want, 0);
  // (N, C, L): kernel 2, stride 2 over the 25 values, pads 0: 12 maxima of pairs.
  aclIntArray* k1 = Ints({2});
  aclIntArray* s1 = Ints({2});
  aclIntArray* p0 = Ints({});
  DeviceArray<float> out1(std::vector<float>(12));
  ASSERT_EQ(ACLNN_RUN(stream_, MaxPool, dx.View({1, 1, 25}, ACL_FLOAT), k1, s1, 0, p0, d, 0,
                      out1.View({1, 1, 12}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const auto got = out1.Read();
  for (int64_t i = 0; i < 12; ++i) EXPECT_EQ(got[i], std::max(x[2 * i], x[2 * i + 1])) << i;
  // autoPad other than NOTSET and dilations other than 1 are refused.
  EXPECT_EQ(ACLNN_RUN(stream_, MaxPool, dx.View({1, 1, h, w}, ACL_FLOAT), k, s, 1, p, d, 0,
                      out.View({1, 1, ho, wo}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  aclIntArray* d2 = Ints({2, 2});
  EXPECT_EQ(ACLNN_RUN(stream_, MaxPool, dx.View({1, 1, h, w}, ACL_FLOAT), k, s, 0, p, d2, 0,
                      out.View({1, 1, ho, wo}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  for (aclIntArray* a : {k, s, p, d, k1, s1, p0, d2}) aclDestroyIntArray(a);
}

// Source coordinate of output index o (PyTorch's area_pixel_compute_source_index).
double Source(int64_t o, int64_t in, int64_t out, bool align, double scale, bool cubic) {
  if (align) return out > 1 ? static_cast<double>(o) * (in - 1) / (out - 1) : 0.0;
  const double ratio = scale > 0 ? 1.0 / scale : static_cast<double>(in) / out;
  const double src = (o + 0.5) * ratio - 0.5;
  return cubic ? src : std::max(0.0, src);
}

// Linear interpolation along one axis of a [rows, in] matrix to [rows, out].
std::vector<double> LerpAxis(const std::vector<double>& x, int64_t rows, int64_t in, int64_t out,
                             bool align, double scale) {
  std::vector<double> y;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t o = 0; o < out; ++o) {
      const double src = Source(o, in, out, align, scale, false);
      const auto i0 = std::min<int64_t>(static_cast<int64_t>(std::floor(src)), in - 1);
      const int64_t i1 = std::min<int64_t>(i0 + 1, in - 1);
      const double t = src - i0;
      y.push_back(x[r * in + i0] * (1 - t) + x[r * in + i1] * t);
    }
  }
  return y;
}

double CubicWeight(double t, int k) {
  const double a = -0.75;
  const double d = std::fabs(t - k);
  if (d <= 1) return ((a + 2) * d - (a + 3)) * d * d + 1;
  if (d < 2) return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a;
  return 0;
}

TEST_F(AclnnTest, UpsampleNearestAndExactFollowPyTorch) {
  const int64_t h = 3, w = 4, oh = 7, ow = 6;
  const auto x = Plane(h * w);
  DeviceArray<float> dx(x), out(std::vector<float>(oh * ow));
  aclIntArray* size = Ints({oh, ow});
  ASSERT_EQ(ACLNN_RUN(stream_, UpsampleNearest2d, dx.View({1, 1, h, w}, ACL_FLOAT), size,
                      out.View({1, 1, oh, ow}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  auto got = out.Read();
  for (int64_t i = 0; i < oh; ++i) {
    for (int64_t j = 0; j < ow; ++j) {
      const int64_t si = std::min<int64_t>(i * h / oh, h - 1);
      const int64_t sj = std::min<int64_t>(j * w / ow, w - 1);
      EXPECT_EQ(got[i * ow + j], x[si * w + sj]) << i << "," << j;
    }
  }
  ASSERT_EQ(ACLNN_RUN(stream_, UpsampleNearestExact2d, dx.View({1, 1, h, w}, ACL_FLOAT), size, 0.0,
                      0.0, out.View({1, 1, oh, ow}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  got = out.Read();
  for (int64_t i = 0; i < oh; ++i) {
    for (int64_t j = 0; j < ow; ++j) {
      const auto si = std::min<int64_t>(static_cast<int64_t>((i + 0.5) * h / oh), h - 1);
      const auto sj = std::min<int64_t>(static_cast<int64_t>((j + 0.5) * w / ow), w - 1);
      EXPECT_EQ(got[i * ow + j], x[si * w + sj]) << i << "," << j;
    }
  }
  // V2 with scales 2 x 1.5 (outputs 6 x 6): sources floor(o / scale).
  aclIntArray* size2 = Ints({6, 6});
  DeviceArray<float> out2(std::vector<float>(36));
  ASSERT_EQ(ACLNN_RUN(stream_, UpsampleNearest2dV2, dx.View({1, 1, h, w}, ACL_FLOAT), size2, 2.0f,
                      1.5f, out2.View({1, 1, 6, 6}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  got = out2.Read();
  for (int64_t i = 0; i < 6; ++i) {
    for (int64_t j = 0; j < 6; ++j) {
      const auto sj = static_cast<int64_t>(std::floor(j / 1.5));
      EXPECT_EQ(got[i * 6 + j], x[(i / 2) * w + sj]) << i << "," << j;
    }
  }
  // 1-D and 3-D nearest.
  DeviceArray<float> out1(std::vector<float>(9));
  aclIntArray* size1 = Ints({9});
  ASSERT_EQ(ACLNN_RUN(stream_, UpsampleNearest1d, dx.View({1, 3, 4}, ACL_FLOAT), size1,
                      out1.View({1, 1, 9}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);  // out's channels differ from self's
  DeviceArray<float> out1b(std::vector<float>(27));
  ASSERT_EQ(ACLNN_RUN(stream_, UpsampleNearest1d, dx.View({1, 3, 4}, ACL_FLOAT), size1,
                      out1b.View({1, 3, 9}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  got = out1b.Read();
  for (int64_t r = 0; r < 3; ++r)
    for (int64_t j = 0; j < 9; ++j) EXPECT_EQ(got[r * 9 + j], x[r * 4 + j * 4 / 9]);
  DeviceArray<float> out3(std::vector<float>(2 * 3 * 8));
  aclIntArray* size3 = Ints({2, 3, 8});
  ASSERT_EQ(ACLNN_RUN(stream_, UpsampleNearest3d, dx.View({1, 1, 1, h, w}, ACL_FLOAT), size3, 0.0,
                      0.0, 0.0, out3.View({1, 1, 2, 3, 8}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  got = out3.Read();
  for (int64_t d = 0; d < 2; ++d)
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 8; ++j) EXPECT_EQ(got[(d * 3 + i) * 8 + j], x[i * w + j / 2]);
  for (aclIntArray* a : {size, size2, size1, size3}) aclDestroyIntArray(a);
}

TEST_F(AclnnTest, UpsampleLinearFamilyAndBicubic) {
  const int64_t h = 3, w = 4, oh = 5, ow = 7;
  const auto x = Plane(h * w);
  const std::vector<double> xd(x.begin(), x.end());
  aclIntArray* size = Ints({oh, ow});
  for (bool align : {false, true}) {
    SCOPED_TRACE(align);
    // Bilinear: along W, then along H (on the transpose).
    const auto rows = LerpAxis(xd, h, w, ow, align, 0);
    std::vector<double> cols(ow * h);
    for (int64_t i = 0; i < h; ++i)
      for (int64_t j = 0; j < ow; ++j) cols[j * h + i] = rows[i * ow + j];
    const auto t = LerpAxis(cols, ow, h, oh, align, 0);
    std::vector<float> want(oh * ow);
    for (int64_t j = 0; j < ow; ++j)
      for (int64_t i = 0; i < oh; ++i) want[i * ow + j] = static_cast<float>(t[j * oh + i]);
    DeviceArray<float> dx(x), out(std::vector<float>(oh * ow));
    ASSERT_EQ(ACLNN_RUN(stream_, UpsampleBilinear2d, dx.View({1, 1, h, w}, ACL_FLOAT), size, align,
                        0.0, 0.0, out.View({1, 1, oh, ow}, ACL_FLOAT)),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ExpectWithin(out.Read(), want, 1e-5);
    // Linear 1-D: the rows alone.
    DeviceArray<float> out1(std::vector<float>(h * ow));
    aclIntArray* size1 = Ints({ow});
    ASSERT_EQ(ACLNN_RUN(stream_, UpsampleLinear1d, dx.View({1, h, w}, ACL_FLOAT), size1, align, 0.0,
                        out1.View({1, h, ow}, ACL_FLOAT)),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ExpectWithin(out1.Read(), std::vector<float>(rows.begin(), rows.end()), 1e-5);
    aclDestroyIntArray(size1);
    // Bicubic, separable, a = -0.75, clamped taps.
    auto cubic_axis = [&](const std::vector<double>& in, int64_t count, int64_t len,
                          int64_t out_len) {
      std::vector<double> y;
      for (int64_t r = 0; r < count; ++r) {
        for (int64_t o = 0; o < out_len; ++o) {
          const double src = Source(o, len, out_len, align, 0, true);
          const auto base = static_cast<int64_t>(std::floor(src));
          const double frac = src - base;
          double acc = 0;
          for (int k = -1; k <= 2; ++k) {
            const int64_t idx = std::clamp<int64_t>(base + k, 0, len - 1);
            acc += in[r * len + idx] * CubicWeight(frac, k);
          }
          y.push_back(acc);
        }
      }
      return y;
    };
    const auto crow = cubic_axis(xd, h, w, ow);
    std::vector<double> ccol(ow * h);
    for (int64_t i = 0; i < h; ++i)
      for (int64_t j = 0; j < ow; ++j) ccol[j * h + i] = crow[i * ow + j];
    const auto ct = cubic_axis(ccol, ow, h, oh);
    std::vector<float> cwant(oh * ow);
    for (int64_t j = 0; j < ow; ++j)
      for (int64_t i = 0; i < oh; ++i) cwant[i * ow + j] = static_cast<float>(ct[j * oh + i]);
    ASSERT_EQ(ACLNN_RUN(stream_, UpsampleBicubic2d, dx.View({1, 1, h, w}, ACL_FLOAT), size, align,
                        0.0, 0.0, out.View({1, 1, oh, ow}, ACL_FLOAT)),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ExpectWithin(out.Read(), cwant, 1e-4);
  }
  // Trilinear with align_corners on a linear ramp reproduces the ramp exactly.
  std::vector<float> ramp(2 * 3 * 4);
  for (int64_t d = 0; d < 2; ++d)
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 4; ++j) ramp[(d * 3 + i) * 4 + j] = 8.0f * d + 2.0f * i + j;
  DeviceArray<float> dr(ramp), out3(std::vector<float>(3 * 5 * 7));
  aclIntArray* size3 = Ints({3, 5, 7});
  ASSERT_EQ(ACLNN_RUN(stream_, UpsampleTrilinear3d, dr.View({1, 1, 2, 3, 4}, ACL_FLOAT), size3,
                      true, 0.0, 0.0, 0.0, out3.View({1, 1, 3, 5, 7}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const auto got = out3.Read();
  for (int64_t d = 0; d < 3; ++d)
    for (int64_t i = 0; i < 5; ++i)
      for (int64_t j = 0; j < 7; ++j)
        EXPECT_NEAR(got[(d * 5 + i) * 7 + j], 8.0 * d * 0.5 + 2.0 * i * 0.5 + j * 0.5, 1e-5);
  // Scales that do not give outputSize are refused; so is a rank that does not fit.
  DeviceArray<float> dx(x), out(std::vector<float>(oh * ow));
  EXPECT_EQ(ACLNN_RUN(stream_, UpsampleBilinear2d, dx.View({1, 1, h, w}, ACL_FLOAT), size, false,
                      2.0, 2.0, out.View({1, 1, oh, ow}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("floor(input size * scale)")) << aclGetRecentErrMsg();
  EXPECT_EQ(ACLNN_RUN(stream_, UpsampleBilinear2d, dx.View({h, w}, ACL_FLOAT), size, false, 0.0,
                      0.0, out.View({1, 1, oh, ow}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  aclDestroyIntArray(size);
  aclDestroyIntArray(size3);
}

}  // namespace
