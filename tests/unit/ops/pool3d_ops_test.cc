// MaxPool3D and AvgPool3D of the sim op library: a cube by hand, dilated taps, the divisor with
// and without the padding, the 2-D ops' results on a unit depth, NDHWC, errors and hostile
// attributes.
#include <cmath>
#include <random>

#include "tests/unit/ops/op_test_util.h"

namespace aclsim::ops::testing {
namespace {

using Ints = std::vector<int64_t>;

std::vector<float> Seq1(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i + 1);
  return v;
}

OpCall Pool(const std::string& type, const Ints& x, const Ints& ksize, const Ints& strides,
            const Ints& pads = {0, 0, 0, 0, 0, 0}) {
  auto call = MakeCall(type, {Desc(DataType::kFloat, x)});
  call.attrs["ksize"] = ksize;
  call.attrs["strides"] = strides;
  call.attrs["pads"] = pads;
  call.attrs["data_format"] = std::string("NCDHW");
  if (type == "MaxPool3D") call.attrs["padding"] = std::string("CALCULATED");
  return call;
}

TEST(Pool3DOps, CubeMaxAndMean) {
  auto r = RunOp(Pool("MaxPool3D", {1, 1, 2, 2, 2}, {1, 1, 2, 2, 2}, {1, 1, 1, 1, 1}),
                 {Bytes::Of(Seq1(8))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{1, 1, 1, 1, 1}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{8}));
  r = RunOp(Pool("AvgPool3D", {1, 1, 2, 2, 2}, {2, 2, 2}, {1}), {Bytes::Of(Seq1(8))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{4.5f}));
  // NDHWC, two channels: x[.., c] = c ? 10 * v : v.
  std::vector<float> x;
  for (float v : Seq1(8)) x.insert(x.end(), {v, 10 * v});
  auto call = Pool("MaxPool3D", {1, 2, 2, 2, 2}, {1, 2, 2, 2, 1}, {1, 1, 1, 1, 1});
  call.attrs["data_format"] = std::string("NDHWC");
  r = RunOp(call, {Bytes::Of(x)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{1, 1, 1, 1, 2}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{8, 80}));
}

TEST(Pool3DOps, MaxPoolDilationSkipsTaps) {
  auto call = Pool("MaxPool3D", {1, 1, 1, 1, 5}, {1, 1, 2}, {1});
  call.attrs["dilation"] = Ints{1, 1, 2};
  auto r = RunOp(call, {Bytes::Of(std::vector<float>{1, 5, 2, 4, 3})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{2, 5, 3}));
  // A NaN in a window wins.
  r = RunOp(call, {Bytes::Of(std::vector<float>{1, 5, NAN, 4, 3})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_TRUE(std::isnan(r.outputs[0].As<float>()[0]));
  EXPECT_EQ(r.outputs[0].As<float>()[1], 5.0f);
}

TEST(Pool3DOps, AvgPoolDivisorCountsPaddingOnRequest) {
  // W = [2, 4], k 2, s 2, pads left/right 1: windows [pad, 2] and [4, pad].
  auto call = Pool("AvgPool3D", {1, 1, 1, 1, 2}, {1, 1, 2}, {1, 1, 2}, {0, 0, 0, 0, 1, 1});
  auto r = RunOp(call, {Bytes::Of(std::vector<float>{2, 4})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 2}));  // count_include_pad
  call.attrs["count_include_pad"] = false;
  r = RunOp(call, {Bytes::Of(std::vector<float>{2, 4})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{2, 4}));
  call.attrs["divisor_override"] = int64_t{4};
  r = RunOp(call, {Bytes::Of(std::vector<float>{2, 4})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{0.5f, 1}));
}

TEST(Pool3DOps, UnitDepthMatchesThe2DOps) {
  struct Case {
    Ints ksize, strides, pads;  // pads [top, bottom, left, right]
    bool ceil_mode;
  };
  const std::vector<Case> cases = {{{3, 3}, {2, 2}, {1, 1, 1, 1}, false},
                                   {{2, 3}, {2, 1}, {0, 1, 1, 0}, true},
                                   {{2, 2}, {3, 3}, {0, 0, 0, 0}, true}};
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> dist(-5.0f, 5.0f);
  std::vector<float> x(2 * 3 * 7 * 8);
  for (auto& v : x) v = dist(gen);
  for (const Case& c : cases) {
    for (bool is_max : {true, false}) {
      auto call2d =
          MakeCall(is_max ? "MaxPoolV3" : "AvgPoolV2", {Desc(DataType::kFloat, {2, 3, 7, 8})});
      call2d.attrs["ksize"] = Ints{1, 1, c.ksize[0], c.ksize[1]};
      call2d.attrs["strides"] = Ints{1, 1, c.strides[0], c.strides[1]};
      call2d.attrs["pads"] = c.pads;
      call2d.attrs["ceil_mode"] = c.ceil_mode;
      if (!is_max) call2d.attrs["exclusive"] = false;
      auto want = RunOp(call2d, {Bytes::Of(x)});
      ASSERT_TRUE(want.status.ok()) << want.status.message();
      auto call3d =
          Pool(is_max ? "MaxPool3D" : "AvgPool3D", {2, 3, 1, 7, 8}, {1, c.ksize[0], c.ksize[1]},
               {1, c.strides[0], c.strides[1]}, {0, 0, c.pads[0], c.pads[1], c.pads[2], c.pads[3]});
      if (is_max) {
        call3d.attrs["ceil_mode"] = int64_t{c.ceil_mode ? 1 : 0};
      } else {
        call3d.attrs["ceil_mode"] = c.ceil_mode;
      }
      auto got = RunOp(call3d, {Bytes::Of(x)});
      ASSERT_TRUE(got.status.ok()) << got.status.message();
      EXPECT_EQ(got.kernel->call().outputs[0].dims[3], want.kernel->call().outputs[0].dims[2]);
      EXPECT_EQ(got.kernel->call().outputs[0].dims[4], want.kernel->call().outputs[0].dims[3]);
      const auto w = want.outputs[0].As<float>();
      const auto g = got.outputs[0].As<float>();
      ASSERT_EQ(w.size(), g.size());
      for (size_t i = 0; i < w.size(); ++i) EXPECT_NEAR(w[i], g[i], 1e-5f) << i;
    }
  }
}

TEST(Pool3DOps, SameAndValidPadding) {
  auto call = Pool("MaxPool3D", {1, 1, 1, 1, 5}, {1, 1, 2}, {1, 1, 2});
  call.attrs["padding"] = std::string("SAME");
  auto r = RunOp(call, {Bytes::Of(Seq1(5))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{2, 4, 5}));
  call.attrs["padding"] = std::string("VALID");
  r = RunOp(call, {Bytes::Of(Seq1(5))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{2, 4}));
}

TEST(Pool3DOps, BadShapesAndAttributesAreRefused) {
  auto expect = [](OpCall call, StatusCode code) {
    auto r = RunOp(std::move(call), {Bytes::Of(Seq1(8))});
    EXPECT_EQ(r.status.code(), code) << r.status.message();
  };
  const Ints x = {1, 1, 2, 2, 2};
  auto call = Pool("MaxPool3D", x, {2}, {1});
  call.attrs["padding"] = std::string("FULL");
  expect(call, StatusCode::kOpAttrNotMatch);
  expect(Pool("MaxPool3D", x, {0}, {1}), StatusCode::kOpAttrNotMatch);
  expect(Pool("MaxPool3D", x, {2, 2}, {1}), StatusCode::kOpAttrNotMatch);  // two values
  expect(Pool("AvgPool3D", x, {2}, {int64_t{1} << 50}), StatusCode::kOpAttrNotMatch);
  expect(Pool("AvgPool3D", x, {3}, {1}), StatusCode::kOpAttrNotMatch);  // window > input
  expect(Pool("AvgPool3D", x, {2}, {1}, {2, 0, 0, 0, 0, 0}),
         StatusCode::kOpAttrNotMatch);  // pad >= window
  expect(Pool("AvgPool3D", x, {2}, {1}, {0, 0, 0, 0, 0}), StatusCode::kOpAttrNotMatch);
  expect(Pool("AvgPool3D", {1, 8, 1}, {1}, {1}), StatusCode::kOpInputNotMatch);  // 3-D x
  call = Pool("MaxPool3D", x, {2}, {1});
  call.attrs["dilation"] = Ints{1, 1, int64_t{1} << 40, 1, 1};
  expect(call, StatusCode::kOpAttrNotMatch);
  call = Pool("AvgPool3D", x, {2}, {1});
  call.attrs["divisor_override"] = int64_t{-1};
  expect(call, StatusCode::kOpAttrNotMatch);
}

}  // namespace
}  // namespace aclsim::ops::testing
