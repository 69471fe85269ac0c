// Conv3D and Conv3DTranspose of the sim op library: values along the depth dim by hand, the
// 2-D ops' results on a unit depth (strides, pads, dilations, groups, bias), layouts, errors
// and hostile attributes.
#include <random>

#include "tests/unit/ops/op_test_util.h"

namespace aclsim::ops::testing {
namespace {

using Ints = std::vector<int64_t>;

std::vector<float> Random(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}

size_t Count(const Ints& dims) {
  size_t n = 1;
  for (int64_t d : dims) n *= static_cast<size_t>(d);
  return n;
}

struct ConvArgs {
  Ints x_dims;
  std::vector<float> x;
  Ints f_dims;
  std::vector<float> f;
  Ints strides = {1, 1, 1, 1, 1};
  Ints pads = {0, 0, 0, 0, 0, 0};
  Ints dilations = {1, 1, 1, 1, 1};
  int64_t groups = 1;
  std::vector<float> bias;
  std::string format = "NCDHW";
  Format f_format = Format::kNcdhw;
};

RunResult Conv3D(const ConvArgs& a) {
  std::vector<TensorDesc> inputs = {Desc(DataType::kFloat, a.x_dims),
                                    Desc(DataType::kFloat, a.f_dims, a.f_format)};
  std::vector<Bytes> data = {Bytes::Of(a.x), Bytes::Of(a.f)};
  if (!a.bias.empty()) {
    inputs.push_back(Desc(DataType::kFloat, {static_cast<int64_t>(a.bias.size())}));
    data.push_back(Bytes::Of(a.bias));
  }
  OpCall call = MakeCall("Conv3D", inputs);
  call.attrs["strides"] = a.strides;
  call.attrs["pads"] = a.pads;
  call.attrs["dilations"] = a.dilations;
  call.attrs["groups"] = a.groups;
  call.attrs["data_format"] = a.format;
  return RunOp(call, data);
}

TEST(Conv3DOps, DepthTapsStridesDilationsAndPads) {
  ConvArgs a;
  a.x_dims = {1, 1, 3, 1, 1};
  a.x = {1, 2, 3};
  a.f_dims = {1, 1, 2, 1, 1};
  a.f = {1, 10};
  auto r = Conv3D(a);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{1, 1, 2, 1, 1}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{21, 32}));
  EXPECT_EQ(r.kernel->engine(), driver::Engine::kAiCore);
  a.dilations = {1, 1, 2, 1, 1};
  r = Conv3D(a);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{31}));
  a.dilations = {1, 1, 1, 1, 1};
  a.pads = {1, 0, 0, 0, 0, 0};  // head 1
  a.strides = {1, 1, 2, 1, 1};
  a.bias = {0.5f};
  r = Conv3D(a);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{10.5f, 32.5f}));
}

TEST(Conv3DOps, CubeOfOnesSumsTheCube) {
  ConvArgs a;
  a.x_dims = {1, 1, 2, 2, 2};
  a.x = {1, 2, 3, 4, 5, 6, 7, 8};
  a.f_dims = {1, 1, 2, 2, 2};
  a.f = std::vector<float>(8, 1.0f);
  auto r = Conv3D(a);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{36}));
  // NDHWC data with the DHWCN filter of ND format: the same numbers (one channel).
  a.x_dims = {1, 2, 2, 2, 1};
  a.f_dims = {2, 2, 2, 1, 1};
  a.format = "NDHWC";
  a.f_format = Format::kNd;
  r = Conv3D(a);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{1, 1, 1, 1, 1}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{36}));
}

TEST(Conv3DOps, UnitDepthMatchesConv2D) {
  struct Case {
    Ints strides, pads, dilations;
    int64_t groups;
  };
  const std::vector<Case> cases = {{{1, 1}, {0, 0, 0, 0}, {1, 1}, 1},
                                   {{2, 1}, {1, 0, 2, 1}, {1, 2}, 1},
                                   {{1, 2}, {1, 1, 1, 1}, {2, 1}, 2}};
  uint32_t seed = 1;
  for (const Case& c : cases) {
    const Ints x4 = {2, 4, 7, 6};
    const Ints f4 = {6, 4 / c.groups, 3, 2};
    const auto x = Random(Count(x4), seed++);
    const auto f = Random(Count(f4), seed++);
    const auto bias = Random(6, seed++);
    OpCall conv2d =
        MakeCall("Conv2D", {Desc(DataType::kFloat, x4), Desc(DataType::kFloat, f4, Format::kNchw),
                            Desc(DataType::kFloat, {6})});
    conv2d.attrs["strides"] = Ints{1, 1, c.strides[0], c.strides[1]};
    conv2d.attrs["pads"] = c.pads;
    conv2d.attrs["dilations"] = Ints{1, 1, c.dilations[0], c.dilations[1]};
    conv2d.attrs["groups"] = c.groups;
    conv2d.attrs["data_format"] = std::string("NCHW");
    auto want = RunOp(conv2d, {Bytes::Of(x), Bytes::Of(f), Bytes::Of(bias)});
    ASSERT_TRUE(want.status.ok()) << want.status.message();

    ConvArgs a;
    a.x_dims = {2, 4, 1, 7, 6};
    a.x = x;
    a.f_dims = {6, 4 / c.groups, 1, 3, 2};
    a.f = f;
    a.strides = {1, 1, 1, c.strides[0], c.strides[1]};
    a.pads = {0, 0, c.pads[0], c.pads[1], c.pads[2], c.pads[3]};
    a.dilations = {1, 1, 1, c.dilations[0], c.dilations[1]};
    a.groups = c.groups;
    a.bias = bias;
    auto got = Conv3D(a);
    ASSERT_TRUE(got.status.ok()) << got.status.message();
    const auto w = want.outputs[0].As<float>();
    const auto g = got.outputs[0].As<float>();
    ASSERT_EQ(w.size(), g.size());
    for (size_t i = 0; i < w.size(); ++i) EXPECT_NEAR(w[i], g[i], 1e-5f) << i;
  }
}

TEST(Conv3DOps, GroupsTakeTheirOwnChannels) {
  ConvArgs a;
  a.x_dims = {1, 2, 1, 1, 1};
  a.x = {1, 2};
  a.f_dims = {2, 1, 1, 1, 1};
  a.f = {3, 4};
  a.groups = 2;
  auto r = Conv3D(a);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{3, 8}));
}

TEST(Conv3DOps, BadShapesAndAttributesAreRefused) {
  ConvArgs good;
  good.x_dims = {1, 2, 3, 3, 3};
  good.x = std::vector<float>(54, 1.0f);
  good.f_dims = {2, 2, 2, 2, 2};
  good.f = std::vector<float>(32, 1.0f);
  ASSERT_TRUE(Conv3D(good).status.ok());
  auto expect = [](ConvArgs a, StatusCode code) {
    auto r = Conv3D(a);
    EXPECT_EQ(r.status.code(), code) << r.status.message();
    EXPECT_NE(r.status.message().find("Conv3D"), std::string::npos) << r.status.message();
  };
  ConvArgs a = good;
  a.x_dims = {1, 2, 9, 3};
  expect(a, StatusCode::kOpInputNotMatch);  // 4-D x
  a = good;
  a.strides = {1, 1, 1, 1};
  expect(a, StatusCode::kOpAttrNotMatch);  // four strides
  a = good;
  a.strides = {2, 1, 1, 1, 1};
  expect(a, StatusCode::kOpAttrNotMatch);  // N stride
  a = good;
  a.dilations = {1, 1, int64_t{1} << 40, 1, 1};
  expect(a, StatusCode::kOpAttrNotMatch);  // hostile dilation
  a = good;
  a.pads = {0, 0, -1, 0, 0, 0};
  expect(a, StatusCode::kOpAttrNotMatch);
  a = good;
  a.pads = {0, 0, 0, 0, 0, int64_t{1} << 62};
  expect(a, StatusCode::kOpAttrNotMatch);
  a = good;
  a.dilations = {1, 1, 3, 1, 1};
  expect(a, StatusCode::kOpInputNotMatch);  // dilated window larger than the input
  a = good;
  a.groups = 3;
  expect(a, StatusCode::kOpAttrNotMatch);
  a = good;
  a.f_dims = {2, 1, 2, 2, 2};
  a.f.resize(16);
  expect(a, StatusCode::kOpInputNotMatch);  // filter input channels
  a = good;
  a.format = "NCHW";
  expect(a, StatusCode::kOpAttrNotMatch);
}

RunResult Deconv3D(const Ints& size, const Ints& x_dims, const std::vector<float>& x,
                   const Ints& f_dims, const std::vector<float>& f, const Ints& strides,
                   const Ints& pads, int64_t groups = 1) {
  OpCall call = MakeCall("Conv3DTranspose", {ConstDesc<int64_t>(DataType::kInt64, {5}, size),
                                             Desc(DataType::kFloat, x_dims),
                                             Desc(DataType::kFloat, f_dims, Format::kNcdhw)});
  call.attrs["strides"] = strides;
  call.attrs["pads"] = pads;
  call.attrs["groups"] = groups;
  call.attrs["data_format"] = std::string("NCDHW");
  return RunOp(call, {Bytes::Of(size), Bytes::Of(x), Bytes::Of(f)});
}

TEST(Conv3DTransposeOps, DepthScatterWithStrides) {
  const Ints zero_pads = {0, 0, 0, 0, 0, 0};
  auto r = Deconv3D({1, 1, 3, 1, 1}, {1, 1, 2, 1, 1}, {1, 2}, {1, 1, 2, 1, 1}, {1, 10},
                    {1, 1, 1, 1, 1}, zero_pads);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 12, 20}));
  EXPECT_EQ(r.kernel->engine(), driver::Engine::kAiCore);
  r = Deconv3D({1, 1, 4, 1, 1}, {1, 1, 2, 1, 1}, {1, 2}, {1, 1, 2, 1, 1}, {1, 10}, {1, 1, 2, 1, 1},
               zero_pads);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 10, 2, 20}));
  // Head padding 1 crops the first plane.
  r = Deconv3D({1, 1, 2, 1, 1}, {1, 1, 2, 1, 1}, {1, 2}, {1, 1, 2, 1, 1}, {1, 10}, {1, 1, 1, 1, 1},
               {1, 0, 0, 0, 0, 0});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{12, 20}));
}

TEST(Conv3DTransposeOps, UnitDepthMatchesConv2DTranspose) {
  const Ints x4 = {1, 4, 3, 4};
  const Ints f4 = {4, 3, 3, 2};  // groups 2: Cout = 6
  const auto x = Random(Count(x4), 7);
  const auto f = Random(Count(f4), 8);
  const Ints size4 = {1, 6, 7, 8};
  OpCall call = MakeCall("Conv2DTranspose",
                         {ConstDesc<int64_t>(DataType::kInt64, {4}, size4),
                          Desc(DataType::kFloat, x4), Desc(DataType::kFloat, f4, Format::kNchw)});
  call.attrs["strides"] = Ints{1, 1, 2, 2};
  call.attrs["pads"] = Ints{1, 0, 0, 1};
  call.attrs["groups"] = int64_t{2};
  call.attrs["data_format"] = std::string("NCHW");
  auto want = RunOp(call, {Bytes::Of(size4), Bytes::Of(x), Bytes::Of(f)});
  ASSERT_TRUE(want.status.ok()) << want.status.message();
  auto got = Deconv3D({1, 6, 1, 7, 8}, {1, 4, 1, 3, 4}, x, {4, 3, 1, 3, 2}, f, {1, 1, 1, 2, 2},
                      {0, 0, 1, 0, 0, 1}, 2);
  ASSERT_TRUE(got.status.ok()) << got.status.message();
  const auto w = want.outputs[0].As<float>();
  const auto g = got.outputs[0].As<float>();
  ASSERT_EQ(w.size(), g.size());
  for (size_t i = 0; i < w.size(); ++i) EXPECT_NEAR(w[i], g[i], 1e-5f) << i;
}

TEST(Conv3DTransposeOps, BadShapesAreRefused) {
  const Ints unit = {1, 1, 1, 1, 1};
  const Ints zero_pads = {0, 0, 0, 0, 0, 0};
  // input_size of 4 values.
  OpCall call =
      MakeCall("Conv3DTranspose", {ConstDesc<int64_t>(DataType::kInt64, {4}, Ints{1, 1, 3, 1}),
                                   Desc(DataType::kFloat, {1, 1, 2, 1, 1}),
                                   Desc(DataType::kFloat, {1, 1, 2, 1, 1}, Format::kNcdhw)});
  call.attrs["strides"] = unit;
  call.attrs["pads"] = zero_pads;
  call.attrs["data_format"] = std::string("NCDHW");
  auto r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch) << r.status.message();
  // Output channels that the filter does not give.
  r = Deconv3D({1, 2, 3, 1, 1}, {1, 1, 2, 1, 1}, {1, 2}, {1, 1, 2, 1, 1}, {1, 10}, unit, zero_pads);
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch) << r.status.message();
  // An output of more elements than int64 holds.
  r = Deconv3D({1, 1, int64_t{1} << 40, int64_t{1} << 40, 1}, {1, 1, 2, 1, 1}, {1, 2},
               {1, 1, 2, 1, 1}, {1, 10}, unit, zero_pads);
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch) << r.status.message();
}

}  // namespace
}  // namespace aclsim::ops::testing
