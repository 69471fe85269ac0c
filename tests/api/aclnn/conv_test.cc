// aclnn Convolution (1-D, 2-D and 3-D, direct and transposed, groups, bias, strides, padding,
// dilation) and ConvDepthwise2d through the public API, against a direct host convolution in
// double; float16 with cubeMathType; the errors.
#include <cmath>
#include <cstdint>
#include <vector>

#include "aclnn_test.h"
#include "aclnnop/aclnn_convolution.h"

namespace {

using aclnntest::AclnnTest;
using aclnntest::DeviceArray;
using aclnntest::FromF16;
using aclnntest::HasMessage;
using aclnntest::Ints;
using aclnntest::ToF16;

std::vector<float> Ramp(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = (static_cast<float>((i * 7) % 11) - 5) * scale;
  return v;
}

struct Geometry {
  std::vector<int64_t> x;  // N, C, spatial...
  std::vector<int64_t> w;  // direct: Cout, Cin/g, k...; transposed: Cin, Cout/g, k...
  std::vector<int64_t> stride, pad, dilation, out_pad;
  int64_t groups = 1;
  bool transposed = false;

  size_t spatial() const { return x.size() - 2; }
  int64_t cout() const { return transposed ? w[1] * groups : w[0]; }
  std::vector<int64_t> Out() const {
    std::vector<int64_t> o = {x[0], cout()};
    for (size_t k = 0; k < spatial(); ++k) {
      const int64_t span = dilation[k] * (w[k + 2] - 1) + 1;
      o.push_back(transposed ? (x[k + 2] - 1) * stride[k] - 2 * pad[k] + span + out_pad[k]
                             : (x[k + 2] + 2 * pad[k] - span) / stride[k] + 1);
    }
    return o;
  }
};

int64_t Count(const std::vector<int64_t>& d) {
  int64_t n = 1;
  for (int64_t v : d) n *= v;
  return n;
}

// Row-major index of `idx` in `dims`.
int64_t At(const std::vector<int64_t>& dims, const std::vector<int64_t>& idx) {
  int64_t flat = 0;
  for (size_t k = 0; k < dims.size(); ++k) flat = flat * dims[k] + idx[k];
  return flat;
}

// Every (input position, tap, output position) triple, direct or transposed, in double.
std::vector<float> HostConv(const Geometry& g, const std::vector<float>& x,
                            const std::vector<float>& w, const std::vector<float>& bias) {
  const auto od = g.Out();
  std::vector<double> out(static_cast<size_t>(Count(od)), 0.0);
  const size_t sp = g.spatial();
  const int64_t cin_g = g.x[1] / g.groups;
  const int64_t cout_g = g.cout() / g.groups;
  // Transposed: input positions; direct: output positions.
  std::vector<int64_t> in_sp(g.transposed ? g.x.begin() + 2 : od.begin() + 2,
                             g.transposed ? g.x.end() : od.end());
  std::vector<int64_t> k_sp(g.w.begin() + 2, g.w.end());
  for (int64_t n = 0; n < g.x[0]; ++n) {
    for (int64_t ci = 0; ci < g.x[1]; ++ci) {
      const int64_t grp = ci / cin_g;
      for (int64_t col = 0; col < cout_g; ++col) {
        const int64_t co = grp * cout_g + col;
        for (int64_t p = 0; p < Count(in_sp); ++p) {
          for (int64_t t = 0; t < Count(k_sp); ++t) {
            std::vector<int64_t> ip(sp), tp(sp), op(sp);
            int64_t pr = p, tr = t;
            for (size_t k = sp; k-- > 0;) {
              ip[k] = pr % in_sp[k];
              pr /= in_sp[k];
              tp[k] = tr % k_sp[k];
              tr /= k_sp[k];
            }
            bool inside = true;
            for (size_t k = 0; k < sp; ++k) {
              if (g.transposed) {
                op[k] = ip[k] * g.stride[k] - g.pad[k] + tp[k] * g.dilation[k];
                inside = inside && op[k] >= 0 && op[k] < od[k + 2];
              } else {
                // ip is an output position here: reads x at ip * stride - pad + tap * dilation.
                op[k] = ip[k] * g.stride[k] - g.pad[k] + tp[k] * g.dilation[k];
                inside = inside && ip[k] < od[k + 2] && op[k] >= 0 && op[k] < g.x[k + 2];
              }
            }
            if (!inside) continue;
            std::vector<int64_t> widx =
                g.transposed ? std::vector<int64_t>{ci, col} : std::vector<int64_t>{co, ci % cin_g};
            widx.insert(widx.end(), tp.begin(), tp.end());
            const double wv = w[At(g.w, widx)];
            std::vector<int64_t> a = {n, ci}, o = {n, co};
            if (g.transposed) {
              a.insert(a.end(), ip.begin(), ip.end());
              o.insert(o.end(), op.begin(), op.end());
            } else {
              a.insert(a.end(), op.begin(), op.end());
              o.insert(o.end(), ip.begin(), ip.end());
            }
            out[At(od, o)] += x[At(g.x, a)] * wv;
          }
        }
      }
    }
  }
  std::vector<float> result(out.size());
  const int64_t plane = Count(std::vector<int64_t>(od.begin() + 2, od.end()));
  for (size_t i = 0; i < out.size(); ++i) {
    const int64_t co = (static_cast<int64_t>(i) / plane) % od[1];
    result[i] = static_cast<float>(out[i] + (bias.empty() ? 0.0 : bias[co]));
  }
  return result;
}

// Runs Convolution for `g` in f32 and compares with HostConv.
void CheckConv(aclrtStream stream, const Geometry& g, bool with_bias) {
  const auto x = Ramp(Count(g.x), 0.25f);
  const auto w = Ramp(Count(g.w), 0.125f);
  const auto bias = with_bias ? Ramp(g.cout(), 0.5f) : std::vector<float>{};
  const auto want = HostConv(g, x, w, bias);
  DeviceArray<float> dx(x), dw(w), db(with_bias ? bias : std::vector<float>{0});
  DeviceArray<float> dout(std::vector<float>(want.size(), -9));
  aclIntArray* stride = Ints(g.stride);
  aclIntArray* pad = Ints(g.pad);
  aclIntArray* dilation = Ints(g.dilation);
  aclIntArray* out_pad = Ints(g.out_pad.empty() ? std::vector<int64_t>(g.spatial(), 0) : g.out_pad);
  ASSERT_EQ(ACLNN_RUN(stream, Convolution, dx.View(g.x, ACL_FLOAT), dw.View(g.w, ACL_FLOAT),
                      with_bias ? db.View({g.cout()}, ACL_FLOAT) : nullptr, stride, pad, dilation,
                      g.transposed, out_pad, g.groups, dout.View(g.Out(), ACL_FLOAT), 0),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const auto got = dout.Read();
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-4) << i;
  for (aclIntArray* a : {stride, pad, dilation, out_pad}) aclDestroyIntArray(a);
}

TEST_F(AclnnTest, Convolution2dStridedPaddedDilatedGrouped) {
  Geometry g;
  g.x = {2, 4, 7, 6};
  g.w = {6, 2, 3, 2};
  g.stride = {2, 1};
  g.pad = {1, 2};
  g.dilation = {1, 2};
  g.groups = 2;
  CheckConv(stream_, g, true);
}

TEST_F(AclnnTest, Convolution1dAnd3d) {
  Geometry one;
  one.x = {1, 3, 9};
  one.w = {2, 3, 3};
  one.stride = {2};
  one.pad = {1};
  one.dilation = {2};
  CheckConv(stream_, one, true);
  Geometry three;
  three.x = {1, 2, 4, 4, 3};
  three.w = {3, 2, 2, 3, 2};
  three.stride = {1, 2, 1};
  three.pad = {1, 1, 0};
  three.dilation = {1, 1, 1};
  CheckConv(stream_, three, false);
}

TEST_F(AclnnTest, ConvolutionTransposed2dAnd1d) {
  Geometry g;
  g.x = {1, 4, 3, 4};
  g.w = {4, 3, 3, 2};  // Cin 4, Cout / groups 3
  g.stride = {2, 3};
  g.pad = {1, 0};
  g.dilation = {1, 1};
  g.out_pad = {1, 2};
  g.groups = 2;
  g.transposed = true;
  CheckConv(stream_, g, true);
  Geometry one;
  one.x = {2, 2, 5};
  one.w = {2, 1, 3};
  one.stride = {2};
  one.pad = {1};
  one.dilation = {1};
  one.out_pad = {0};
  one.transposed = true;
  CheckConv(stream_, one, false);
}

TEST_F(AclnnTest, ConvDepthwise2dAndFloat16) {
  Geometry g;
  g.x = {1, 3, 5, 5};
  g.w = {3, 1, 3, 3};
  g.stride = {1, 1};
  g.pad = {1, 1};
  g.dilation = {1, 1};
  g.groups = 3;
  const auto x = Ramp(Count(g.x), 0.25f);
  const auto w = Ramp(Count(g.w), 0.125f);
  const auto want = HostConv(g, x, w, {});
  DeviceArray<uint16_t> hx(ToF16(x)), hw(ToF16(w)), hout(std::vector<uint16_t>(want.size()));
  aclIntArray* kernel = Ints({3, 3});
  aclIntArray* stride = Ints(g.stride);
  aclIntArray* pad = Ints(g.pad);
  aclIntArray* dilation = Ints(g.dilation);
  ASSERT_EQ(
      ACLNN_RUN(stream_, ConvDepthwise2d, hx.View(g.x, ACL_FLOAT16), hw.View(g.w, ACL_FLOAT16),
                kernel, nullptr, stride, pad, dilation, hout.View(g.Out(), ACL_FLOAT16), 0),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const auto got = FromF16(hout.Read());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 2e-3) << i;
  // f32 computed in f16 (cubeMathType 2) still matches at f16 precision.
  DeviceArray<float> fx(x), fw(w), fout(std::vector<float>(want.size()));
  ASSERT_EQ(ACLNN_RUN(stream_, ConvDepthwise2d, fx.View(g.x, ACL_FLOAT), fw.View(g.w, ACL_FLOAT),
                      kernel, nullptr, stride, pad, dilation, fout.View(g.Out(), ACL_FLOAT), 2),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const auto got32 = fout.Read();
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got32[i], want[i], 4e-3) << i;
  for (aclIntArray* a : {kernel, stride, pad, dilation}) aclDestroyIntArray(a);
}

TEST_F(AclnnTest, ConvolutionErrors) {
  DeviceArray<float> x(std::vector<float>(1 * 4 * 5 * 5)), w(std::vector<float>(6 * 2 * 3 * 3)),
      out(std::vector<float>(1 * 6 * 3 * 3));
  aclIntArray* one2 = Ints({1, 1});
  aclIntArray* zero2 = Ints({0, 0});
  aclIntArray* three = Ints({1, 1, 1});
  // groups 3 does not divide 4 channels; a stride of three values for 2-D; a wrong output
  // shape; a bias of the wrong length; NULL weight.
  EXPECT_EQ(ACLNN_RUN(stream_, Convolution, x.View({1, 4, 5, 5}, ACL_FLOAT),
                      w.View({6, 2, 3, 3}, ACL_FLOAT), nullptr, one2, zero2, one2, false, zero2, 3,
                      out.View({1, 6, 3, 3}, ACL_FLOAT), 0),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("groups")) << aclGetRecentErrMsg();
  EXPECT_EQ(ACLNN_RUN(stream_, Convolution, x.View({1, 4, 5, 5}, ACL_FLOAT),
                      w.View({6, 2, 3, 3}, ACL_FLOAT), nullptr, three, zero2, one2, false, zero2, 2,
                      out.View({1, 6, 3, 3}, ACL_FLOAT), 0),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("stride")) << aclGetRecentErrMsg();
  EXPECT_EQ(ACLNN_RUN(stream_, Convolution, x.View({1, 4, 5, 5}, ACL_FLOAT),
                      w.View({6, 2, 3, 3}, ACL_FLOAT), nullptr, one2, zero2, one2, false, zero2, 2,
                      out.View({1, 6, 9}, ACL_FLOAT), 0),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(ACLNN_RUN(stream_, Convolution, x.View({1, 4, 5, 5}, ACL_FLOAT),
                      w.View({6, 2, 3, 3}, ACL_FLOAT), x.View({5}, ACL_FLOAT), one2, zero2, one2,
                      false, zero2, 2, out.View({1, 6, 3, 3}, ACL_FLOAT), 0),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(HasMessage("bias")) << aclGetRecentErrMsg();
  EXPECT_EQ(ACLNN_RUN(stream_, Convolution, x.View({1, 4, 5, 5}, ACL_FLOAT), nullptr, nullptr, one2,
                      zero2, one2, false, zero2, 2, out.View({1, 6, 3, 3}, ACL_FLOAT), 0),
            ACLNN_ERR_PARAM_NULLPTR);
  for (aclIntArray* a : {one2, zero2, three}) aclDestroyIntArray(a);
}

}  // namespace
