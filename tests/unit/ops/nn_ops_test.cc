// NN ops of the sim op library: softmax, BiasAdd, Dropout, normalization, convolution,
// pooling.
#include <cmath>

#include "ops/work_builders.h"
#include "tests/unit/ops/op_test_util.h"

namespace aclsim::ops::testing {
namespace {

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want, float tol = 1e-5f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

void ExpectAttrError(const OpCall& call, const char* attr) {
  auto r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch) << r.status.message();
  EXPECT_NE(r.status.message().find(attr), std::string::npos) << r.status.message();
}

// --- softmax -----------------------------------------------------------------------------

TEST(NnOps, SoftmaxV2LastAxis) {
  auto call = MakeCall("SoftmaxV2", {Desc(DataType::kFloat, {2, 3})});
  auto r = RunOp(call, {Bytes::Of<float>({1, 2, 3, 0, 0, 1000})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const double s = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  ExpectNear(r.outputs[0].As<float>(), {float(std::exp(1.0) / s), float(std::exp(2.0) / s),
                                        float(std::exp(3.0) / s), 0, 0, 1});
}

TEST(NnOps, SoftmaxV2Axis0AndMultipleAxes) {
  auto call = MakeCall("SoftmaxV2", {Desc(DataType::kFloat, {2, 2})});
  call.attrs["axes"] = std::vector<int64_t>{0};
  auto r = RunOp(call, {Bytes::Of<float>({0, 1, 0, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].As<float>(), {0.5f, 0.5f, 0.5f, 0.5f});

  call.attrs["axes"] = std::vector<int64_t>{0, -1};
  r = RunOp(call, {Bytes::Of<float>({0, 0, 0, 0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].As<float>(), {0.25f, 0.25f, 0.25f, 0.25f});
}

TEST(NnOps, SoftmaxV2NeedFusionCoversTrailingAxes) {
  // ONNX Softmax opset <= 12 (axis 1, need_fusion): softmax over dims 1 and 2 together.
  auto call = MakeCall("SoftmaxV2", {Desc(DataType::kFloat, {2, 2, 2})});
  call.attrs["axes"] = std::vector<int64_t>{1};
  call.attrs["need_fusion"] = int64_t{1};
  auto r = RunOp(call, {Bytes::Of<float>({0, 0, 0, 0, 1, 1, 1, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].As<float>(), std::vector<float>(8, 0.25f));
  call.attrs.erase("need_fusion");
  r = RunOp(call, {Bytes::Of<float>({0, 0, 0, 0, 1, 1, 1, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].As<float>(), std::vector<float>(8, 0.5f));
}

TEST(NnOps, SoftmaxV2Fp16AndHalfToFloat) {
  auto call = MakeCall("SoftmaxV2", {Desc(DataType::kFloat16, {2})});
  auto r = RunOp(call, {Bytes::Of(ToHalf({0, 0}))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FromHalf(r.outputs[0].As<uint16_t>()), (std::vector<float>{0.5f, 0.5f}));
  call.attrs["half_to_float"] = true;
  r = RunOp(call, {Bytes::Of(ToHalf({0, 0}))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dtype, DataType::kFloat);
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{0.5f, 0.5f}));
}

TEST(NnOps, SoftmaxV2NanPropagatesAndBadAxis) {
  auto call = MakeCall("SoftmaxV2", {Desc(DataType::kFloat, {2})});
  auto r = RunOp(call, {Bytes::Of<float>({NAN, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_TRUE(std::isnan(r.outputs[0].As<float>()[1]));
  call.attrs["axes"] = std::vector<int64_t>{2};
  ExpectAttrError(call, "axes");
}

TEST(NnOps, LogSoftmaxV2NamesAndValues) {
  auto call = MakeCall("LogSoftmaxV2", {Desc(DataType::kFloat, {3})});
  auto r = RunOp(call, {Bytes::Of<float>({1, 2, 3})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const double lse = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0));
  ExpectNear(r.outputs[0].As<float>(), {float(1 - lse), float(2 - lse), float(3 - lse)});
  call = MakeCall("LogSoftmaxV2", {Desc(DataType::kFloat, {3})});
  call.attrs["axes"] = std::vector<int64_t>{-4};
  ExpectAttrError(call, "axes");
}

// --- BiasAdd / Dropout ---------------------------------------------------------------------

TEST(NnOps, BiasAddNhwcAndNchw) {
  auto call =
      MakeCall("BiasAdd", {Desc(DataType::kFloat, {1, 2, 1, 2}), Desc(DataType::kFloat, {2})});
  auto r = RunOp(call, {Bytes::Of<float>({1, 2, 3, 4}), Bytes::Of<float>({10, 20})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{11, 22, 13, 24}));
  call.attrs["data_format"] = std::string("NCHW");
  r = RunOp(call, {Bytes::Of<float>({1, 2, 3, 4}), Bytes::Of<float>({10, 20})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{11, 12, 23, 24}));
}

TEST(NnOps, BiasAddErrors) {
  auto call = MakeCall("BiasAdd", {Desc(DataType::kFloat, {2, 3}), Desc(DataType::kFloat, {2})});
  auto r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("bias"), std::string::npos) << r.status.message();
  call = MakeCall("BiasAdd", {Desc(DataType::kFloat, {2, 3}), Desc(DataType::kFloat, {3})});
  call.attrs["data_format"] = std::string("HWCN");
  ExpectAttrError(call, "data_format");
}

TEST(NnOps, BiasAddInt32) {
  auto call = MakeCall("BiasAdd", {Desc(DataType::kInt32, {2, 2}), Desc(DataType::kInt32, {2})});
  auto r = RunOp(call, {Bytes::Of<int32_t>({1, 2, 3, 4}), Bytes::Of<int32_t>({-1, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{0, 3, 2, 5}));
}

TEST(NnOps, DropoutIsIdentity) {
  auto call = MakeCall("Dropout", {Desc(DataType::kFloat, {3})});
  auto r = RunOp(call, {Bytes::Of<float>({1, -2, 3})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, -2, 3}));
}

// --- normalization -------------------------------------------------------------------------

TEST(NnOps, LayerNormLastAxisWithStats) {
  auto call = MakeCall("LayerNorm", {Desc(DataType::kFloat, {2, 2}), Desc(DataType::kFloat, {2}),
                                     Desc(DataType::kFloat, {2})});
  call.attrs["begin_norm_axis"] = int64_t{-1};
  call.attrs["begin_params_axis"] = int64_t{-1};
  call.attrs["epsilon"] = 0.0f;
  auto r = RunOp(
      call, {Bytes::Of<float>({1, 3, 2, 6}), Bytes::Of<float>({2, 1}), Bytes::Of<float>({0, 10})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].As<float>(), {-2, 11, -2, 11});
  EXPECT_EQ(r.kernel->call().outputs[1].dims, (std::vector<int64_t>{2, 1}));
  ExpectNear(r.outputs[1].As<float>(), {2, 4});
  ExpectNear(r.outputs[2].As<float>(), {1, 4});
}

TEST(NnOps, LayerNormFp16AllAxesAndErrors) {
  auto call = MakeCall(
      "LayerNorm",
      {Desc(DataType::kFloat16, {4}), Desc(DataType::kFloat16, {4}), Desc(DataType::kFloat16, {4})},
      {Desc(DataType::kFloat16, {4})});
  auto r = RunOp(call, {Bytes::Of(ToHalf({1, 2, 3, 4})), Bytes::Of(ToHalf({1, 1, 1, 1})),
                        Bytes::Of(ToHalf({0, 0, 0, 0}))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const float inv = 1.0f / std::sqrt(1.25f);
  ExpectNear(FromHalf(r.outputs[0].As<uint16_t>()),
             {-1.5f * inv, -0.5f * inv, 0.5f * inv, 1.5f * inv}, 2e-3f);
  // gamma of the wrong shape; axis out of range.
  call = MakeCall("LayerNorm", {Desc(DataType::kFloat, {2, 4}), Desc(DataType::kFloat, {3}),
                                Desc(DataType::kFloat, {4})});
  call.attrs["begin_norm_axis"] = int64_t{1};
  call.attrs["begin_params_axis"] = int64_t{1};
  r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("gamma"), std::string::npos) << r.status.message();
  call.inputs[1] = Desc(DataType::kFloat, {4});
  call.attrs["begin_norm_axis"] = int64_t{2};
  ExpectAttrError(call, "begin_norm_axis");
}

TEST(NnOps, LayerNormV3GivesFloatMeanAndRstdWithoutParameters) {
  // float16 x, gamma and beta absent (1 and 0): mean and rstd come out in float32.
  auto call =
      MakeCall("LayerNormV3", {Desc(DataType::kFloat16, {2, 2}), Desc(DataType::kUndefined, {}),
                               Desc(DataType::kUndefined, {})});
  call.attrs["begin_norm_axis"] = int64_t{1};
  call.attrs["begin_params_axis"] = int64_t{1};
  call.attrs["epsilon"] = 0.0f;
  auto r = RunOp(call, {Bytes::Of(ToHalf({1, 3, 2, 6})), Bytes{}, Bytes{}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(FromHalf(r.outputs[0].As<uint16_t>()), {-1, 1, -1, 1}, 1e-3f);
  EXPECT_EQ(r.kernel->call().outputs[1].dtype, DataType::kFloat);
  ExpectNear(r.outputs[1].As<float>(), {2, 4});
  ExpectNear(r.outputs[2].As<float>(), {1, 0.5f});
}

TEST(NnOps, BnInferNchw) {
  auto call = MakeCall("BNInfer", {Desc(DataType::kFloat, {1, 2, 1, 2}, Format::kNchw),
                                   Desc(DataType::kFloat, {2}), Desc(DataType::kFloat, {2}),
                                   Desc(DataType::kFloat, {2}), Desc(DataType::kFloat, {2})});
  call.attrs["epsilon"] = 0.0f;
  auto r =
      RunOp(call, {Bytes::Of<float>({1, 3, 5, 9}), Bytes::Of<float>({2, 1}),
                   Bytes::Of<float>({0, 1}), Bytes::Of<float>({1, 5}), Bytes::Of<float>({4, 16})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].As<float>(), {0, 2, 1, 2});
  call.attrs.erase("epsilon");
  ExpectAttrError(call, "epsilon");
}

TEST(NnOps, BatchNormInferenceOnnxStyle) {
  // ONNX BatchNormalization: data_format NCHW, is_training false, only y requested.
  auto call = MakeCall(
      "BatchNorm",
      {Desc(DataType::kFloat, {1, 2, 2}), Desc(DataType::kFloat, {2}), Desc(DataType::kFloat, {2}),
       Desc(DataType::kFloat, {2}), Desc(DataType::kFloat, {2})},
      {Desc(DataType::kFloat, {1, 2, 2})});
  call.attrs["data_format"] = std::string("NCHW");
  call.attrs["is_training"] = false;
  call.attrs["epsilon"] = 0.0f;
  auto r =
      RunOp(call, {Bytes::Of<float>({1, 3, 5, 9}), Bytes::Of<float>({2, 1}),
                   Bytes::Of<float>({0, 1}), Bytes::Of<float>({1, 5}), Bytes::Of<float>({4, 16})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].As<float>(), {0, 2, 1, 2});
  // Inference without mean.
  call.inputs.resize(3);
  r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("mean"), std::string::npos) << r.status.message();
}

TEST(NnOps, BatchNormTrainingComputesBatchStats) {
  auto call = MakeCall("BatchNorm", {Desc(DataType::kFloat, {2, 1}), Desc(DataType::kFloat, {1}),
                                     Desc(DataType::kFloat, {1})});
  call.attrs["epsilon"] = 0.0f;
  auto r = RunOp(call, {Bytes::Of<float>({1, 3}), Bytes::Of<float>({1}), Bytes::Of<float>({0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ASSERT_EQ(r.outputs.size(), 6u);
  ExpectNear(r.outputs[0].As<float>(), {-1, 1});
  ExpectNear(r.outputs[1].As<float>(), {2});
  ExpectNear(r.outputs[2].As<float>(), {2});  // unbiased
  call.attrs["data_format"] = std::string("HWCN");
  ExpectAttrError(call, "data_format");
}

TEST(NnOps, BnInferenceCaffeScaleFactor) {
  // mean/variance blobs are scaled by momentum (the moving-average factor) 2.
  auto call = MakeCall("BNInference", {Desc(DataType::kFloat, {1, 2}), Desc(DataType::kFloat, {2}),
                                       Desc(DataType::kFloat, {2}), Desc(DataType::kFloat, {1}),
                                       Desc(DataType::kFloat, {2}), Desc(DataType::kFloat, {2})});
  call.attrs["epsilon"] = 0.0f;
  auto r =
      RunOp(call, {Bytes::Of<float>({3, 5}), Bytes::Of<float>({2, 4}), Bytes::Of<float>({8, 2}),
                   Bytes::Of<float>({2}), Bytes::Of<float>({1, 3}), Bytes::Of<float>({0, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].As<float>(), {1, 10});
  call.inputs[3] = Desc(DataType::kFloat, {2});
  EXPECT_EQ(RunOp(call, {}).status.code(), StatusCode::kOpInputNotMatch);
}

TEST(NnOps, InstanceNormNchw) {
  auto call = MakeCall("InstanceNorm", {Desc(DataType::kFloat, {1, 2, 2}),
                                        Desc(DataType::kFloat, {2}), Desc(DataType::kFloat, {2})});
  call.attrs["data_format"] = std::string("NCHW");
  call.attrs["epsilon"] = 0.0f;
  auto r = RunOp(
      call, {Bytes::Of<float>({1, 3, 0, 10}), Bytes::Of<float>({1, 2}), Bytes::Of<float>({0, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].As<float>(), {-1, 1, -1, 3});
  EXPECT_EQ(r.kernel->call().outputs[1].dims, (std::vector<int64_t>{1, 2, 1}));
  ExpectNear(r.outputs[1].As<float>(), {2, 5});
  ExpectNear(r.outputs[2].As<float>(), {1, 25});
  call.inputs[1] = Desc(DataType::kFloat, {3});
  EXPECT_EQ(RunOp(call, {}).status.code(), StatusCode::kOpInputNotMatch);
}

TEST(NnOps, InstanceNormNhwcDefaultFormat) {
  // Default data_format NDHWC: channel last. x [1, 2, 2] = N, W, C.
  auto call = MakeCall(
      "InstanceNorm",
      {Desc(DataType::kFloat, {1, 2, 2}), Desc(DataType::kFloat, {2}), Desc(DataType::kFloat, {2})},
      {Desc(DataType::kFloat, {1, 2, 2})});
  call.attrs["epsilon"] = 0.0f;
  auto r = RunOp(
      call, {Bytes::Of<float>({1, 0, 3, 10}), Bytes::Of<float>({1, 2}), Bytes::Of<float>({0, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ExpectNear(r.outputs[0].As<float>(), {-1, -1, 1, 3});
}

// --- convolution ---------------------------------------------------------------------------

// Direct reference convolution, NCHW x and OIHW filter.
std::vector<float> RefConv(const std::vector<float>& x, const std::vector<float>& f, int n, int c,
                           int h, int w, int o, int kh, int kw, int s, int p, int d, int groups,
                           int* ho_out, int* wo_out) {
  const int ho = (h + 2 * p - d * (kh - 1) - 1) / s + 1;
  const int wo = (w + 2 * p - d * (kw - 1) - 1) / s + 1;
  const int cg = c / groups;
  const int og = o / groups;
  std::vector<float> y(static_cast<size_t>(n * o * ho * wo), 0.0f);
  for (int b = 0; b < n; ++b)
    for (int oc = 0; oc < o; ++oc)
      for (int oy = 0; oy < ho; ++oy)
        for (int ox = 0; ox < wo; ++ox) {
          float sum = 0;
          const int g = oc / og;
          for (int ic = 0; ic < cg; ++ic)
            for (int ky = 0; ky < kh; ++ky)
              for (int kx = 0; kx < kw; ++kx) {
                const int iy = oy * s - p + ky * d;
                const int ix = ox * s - p + kx * d;
                if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
                sum += x[((b * c + g * cg + ic) * h + iy) * w + ix] *
                       f[((oc * cg + ic) * kh + ky) * kw + kx];
              }
          y[((b * o + oc) * ho + oy) * wo + ox] = sum;
        }
  *ho_out = ho;
  *wo_out = wo;
  return y;
}

OpCall ConvCall(std::vector<int64_t> x, std::vector<int64_t> f, Format ff,
                std::vector<int64_t> strides, std::vector<int64_t> pads,
                std::string format = "NCHW") {
  auto call = MakeCall("Conv2D", {Desc(DataType::kFloat, std::move(x), Format::kNchw),
                                  Desc(DataType::kFloat, std::move(f), ff)});
  call.attrs["strides"] = std::move(strides);
  call.attrs["pads"] = std::move(pads);
  call.attrs["data_format"] = std::move(format);
  return call;
}

TEST(NnOps, Conv2DNchwPadsStridesDilations) {
  auto x = Iota(1 * 2 * 5 * 5, -3.0f, 0.25f);
  auto f = Iota(3 * 2 * 3 * 3, 1.0f, -0.1f);
  auto call = ConvCall({1, 2, 5, 5}, {3, 2, 3, 3}, Format::kNchw, {1, 1, 2, 2}, {1, 1, 1, 1});
  call.attrs["dilations"] = std::vector<int64_t>{1, 1, 1, 1};
  call.inputs.push_back(Desc(DataType::kFloat, {3}));
  auto r = RunOp(call, {Bytes::Of(x), Bytes::Of(f), Bytes::Of<float>({1, 2, 3})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  int ho = 0, wo = 0;
  auto want = RefConv(x, f, 1, 2, 5, 5, 3, 3, 3, 2, 1, 1, 1, &ho, &wo);
  for (size_t i = 0; i < want.size(); ++i) want[i] += 1.0f + float(i / (ho * wo));
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (std::vector<int64_t>{1, 3, ho, wo}));
  EXPECT_EQ(r.kernel->engine(), driver::Engine::kAiCore);
  ExpectNear(r.outputs[0].As<float>(), want, 1e-4f);

  // Dilation 2, no padding, stride 1.
  call = ConvCall({1, 2, 5, 5}, {3, 2, 3, 3}, Format::kNchw, {1, 1, 1, 1}, {0, 0, 0, 0});
  call.attrs["dilations"] = std::vector<int64_t>{1, 1, 2, 2};
  r = RunOp(call, {Bytes::Of(x), Bytes::Of(f)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  want = RefConv(x, f, 1, 2, 5, 5, 3, 3, 3, 1, 0, 2, 1, &ho, &wo);
  EXPECT_EQ(ho, 1);
  ExpectNear(r.outputs[0].As<float>(), want, 1e-4f);
}

TEST(NnOps, Conv2DGroups) {
  auto x = Iota(1 * 4 * 3 * 3, 0.5f, 0.5f);
  auto f = Iota(2 * 2 * 2 * 2, -1.0f, 0.25f);  // O=2, I=4/2, 2x2
  auto call = ConvCall({1, 4, 3, 3}, {2, 2, 2, 2}, Format::kNchw, {1, 1, 1, 1}, {0, 0, 0, 0});
  call.attrs["groups"] = int64_t{2};
  auto r = RunOp(call, {Bytes::Of(x), Bytes::Of(f)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  int ho = 0, wo = 0;
  ExpectNear(r.outputs[0].As<float>(), RefConv(x, f, 1, 4, 3, 3, 2, 2, 2, 1, 0, 1, 2, &ho, &wo),
             1e-4f);
}

TEST(NnOps, Conv2DNhwcWithHwcnFilter) {
  // NCHW x [1, 2, 3, 3] given as NHWC; filter OIHW [1, 2, 2, 2] given as HWCN.
  auto x = Iota(18, 1.0f, 1.0f);
  auto f = Iota(8, 0.5f, -0.25f);
  int ho = 0, wo = 0;
  auto want = RefConv(x, f, 1, 2, 3, 3, 1, 2, 2, 1, 0, 1, 1, &ho, &wo);
  std::vector<float> x_nhwc(18), f_hwcn(8);
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < 9; ++i) x_nhwc[i * 2 + c] = x[c * 9 + i];
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < 4; ++i) f_hwcn[i * 2 + c] = f[c * 4 + i];
  auto call = MakeCall("Conv2D", {Desc(DataType::kFloat, {1, 3, 3, 2}, Format::kNhwc),
                                  Desc(DataType::kFloat, {2, 2, 2, 1}, Format::kHwcn)});
  call.attrs["strides"] = std::vector<int64_t>{1, 1, 1, 1};
  call.attrs["pads"] = std::vector<int64_t>{0, 0, 0, 0};
  auto r = RunOp(call, {Bytes::Of(x_nhwc), Bytes::Of(f_hwcn)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (std::vector<int64_t>{1, 2, 2, 1}));
  ExpectNear(r.outputs[0].As<float>(), want, 1e-4f);
}

TEST(NnOps, Conv2DFp16AndWork) {
  auto call = MakeCall("Conv2D", {Desc(DataType::kFloat16, {1, 1, 2, 2}, Format::kNchw),
                                  Desc(DataType::kFloat16, {1, 1, 2, 2}, Format::kNchw)});
  call.attrs["strides"] = std::vector<int64_t>{1, 1, 1, 1};
  call.attrs["pads"] = std::vector<int64_t>{0, 0, 0, 0};
  call.attrs["data_format"] = std::string("NCHW");
  auto r = RunOp(call, {Bytes::Of(ToHalf({2048, 1, 1, 0})), Bytes::Of(ToHalf({1, 1, 1, 1}))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FromHalf(r.outputs[0].As<uint16_t>()),
            (std::vector<float>{2050}));  // fp32 accumulation
  uint32_t blocks = 0;
  auto want = MatmulWork(1, 1, 4, driver::DtypeClass::kFp16, &blocks);
  EXPECT_EQ(r.kernel->work().cube_flops, want.cube_flops);
}

TEST(NnOps, Conv2DInt8GivesInt32) {
  auto call = MakeCall(
      "Conv2D", {Desc(DataType::kInt8, {1, 1, 1, 2}, Format::kNchw),
                 Desc(DataType::kInt8, {1, 1, 1, 2}, Format::kNchw), Desc(DataType::kInt32, {1})});
  call.attrs["strides"] = std::vector<int64_t>{1, 1, 1, 1};
  call.attrs["pads"] = std::vector<int64_t>{0, 0, 0, 0};
  call.attrs["data_format"] = std::string("NCHW");
  auto r = RunOp(call, {Bytes::Of<int8_t>({100, 100}), Bytes::Of<int8_t>({100, -50}),
                        Bytes::Of<int32_t>({7})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dtype, DataType::kInt32);
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{5007}));
}

TEST(NnOps, Conv2DErrors) {
  // Channel mismatch names the filter.
  auto call = ConvCall({1, 3, 4, 4}, {2, 2, 3, 3}, Format::kNchw, {1, 1, 1, 1}, {0, 0, 0, 0});
  auto r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("filter"), std::string::npos) << r.status.message();
  call = ConvCall({1, 2, 4, 4}, {2, 2, 3, 3}, Format::kNchw, {1, 1, 1}, {0, 0, 0, 0});
  ExpectAttrError(call, "strides");
  call = ConvCall({1, 2, 4, 4}, {2, 2, 3, 3}, Format::kNchw, {1, 1, 0, 1}, {0, 0, 0, 0});
  ExpectAttrError(call, "strides");
  call = ConvCall({1, 2, 4, 4}, {2, 2, 3, 3}, Format::kNchw, {1, 1, 1, 1}, {0, -1, 0, 0});
  ExpectAttrError(call, "pads");
  call = ConvCall({1, 2, 4, 4}, {2, 2, 3, 3}, Format::kNchw, {1, 1, 1, 1}, {0, 0, 0, 0});
  call.attrs["groups"] = int64_t{3};
  ExpectAttrError(call, "groups");
  call = ConvCall({1, 2, 4, 4}, {2, 2, 3, 3}, Format::kNchw, {1, 1, 1, 1}, {0, 0, 0, 0}, "CHWN");
  ExpectAttrError(call, "data_format");
  call = ConvCall({1, 2, 4, 4}, {2, 2, 3, 3}, Format::kNchw, {1, 1, 1, 1}, {0, 0, 0, 0});
  call.attrs.erase("pads");
  ExpectAttrError(call, "pads");
  // Filter larger than the input.
  call = ConvCall({1, 2, 2, 2}, {2, 2, 3, 3}, Format::kNchw, {1, 1, 1, 1}, {0, 0, 0, 0});
  EXPECT_EQ(RunOp(call, {}).status.code(), StatusCode::kOpInputNotMatch);
}

TEST(NnOps, DepthwiseConv2DHwcn) {
  // x NHWC [1, 2, 2, 2]; filter HWCN [2, 2, 2, 1] (multiplier 1): per-channel 2x2 dot.
  auto call = MakeCall("DepthwiseConv2D", {Desc(DataType::kFloat, {1, 2, 2, 2}, Format::kNhwc),
                                           Desc(DataType::kFloat, {2, 2, 2, 1}, Format::kHwcn)});
  call.attrs["strides"] = std::vector<int64_t>{1, 1, 1, 1};
  call.attrs["pads"] = std::vector<int64_t>{0, 0, 0, 0};
  // channel 0 values 1,2,3,4; channel 1 values 10,20,30,40.
  auto r = RunOp(call, {Bytes::Of<float>({1, 10, 2, 20, 3, 30, 4, 40}),
                        Bytes::Of<float>({1, 0, 1, 1, 1, 0, 1, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (std::vector<int64_t>{1, 1, 1, 2}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{10, 60}));
}

// --- pooling -------------------------------------------------------------------------------

OpCall PoolCall(std::string type, std::vector<int64_t> x, std::vector<int64_t> ksize,
                std::vector<int64_t> strides, DataType dtype = DataType::kFloat) {
  auto call = MakeCall(std::move(type), {Desc(dtype, std::move(x))});
  call.attrs["ksize"] = std::move(ksize);
  call.attrs["strides"] = std::move(strides);
  return call;
}

TEST(NnOps, MaxPoolTfSameAndValidNhwc) {
  // x NHWC [1, 3, 3, 1] = 1..9.
  auto call = PoolCall("MaxPool", {1, 3, 3, 1}, {1, 2, 2, 1}, {1, 2, 2, 1});
  call.attrs["padding"] = std::string("SAME");
  auto r = RunOp(call, {Bytes::Of(Iota(9))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (std::vector<int64_t>{1, 2, 2, 1}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{5, 6, 8, 9}));
  call.attrs["padding"] = std::string("VALID");
  r = RunOp(call, {Bytes::Of(Iota(9))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{5}));
  call.attrs["padding"] = std::string("FULL");
  ExpectAttrError(call, "padding");
}

TEST(NnOps, AvgPoolTfSameExcludesPadding) {
  auto call = PoolCall("AvgPool", {1, 3, 3, 1}, {1, 2, 2, 1}, {1, 2, 2, 1});
  call.attrs["padding"] = std::string("SAME");
  auto r = RunOp(call, {Bytes::Of(Iota(9))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{3, 4.5f, 7.5f, 9}));
}

TEST(NnOps, MaxPoolV3CalculatedPadsAndCeilMode) {
  // NCHW [1, 1, 4, 4] = 1..16, k 3, s 2, pads 1 each: out 2x2.
  auto call = PoolCall("MaxPoolV3", {1, 1, 4, 4}, {1, 1, 3, 3}, {1, 1, 2, 2});
  call.attrs["pads"] = std::vector<int64_t>{1, 1, 1, 1};
  auto r = RunOp(call, {Bytes::Of(Iota(16))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (std::vector<int64_t>{1, 1, 2, 2}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{6, 8, 14, 16}));
  // ceil_mode: [1,1,5,5], k 2, s 2 -> 3x3 (floor would give 2x2).
  call = PoolCall("MaxPoolV3", {1, 1, 5, 5}, {1, 1, 2, 2}, {1, 1, 2, 2});
  call.attrs["ceil_mode"] = true;
  r = RunOp(call, {Bytes::Of(Iota(25))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{7, 9, 10, 17, 19, 20, 22, 24, 25}));
}

TEST(NnOps, MaxPoolV3ErrorsAndGlobal) {
  auto call = PoolCall("MaxPoolV3", {1, 1, 4, 4}, {1, 1, 3}, {1, 1, 2, 2});
  ExpectAttrError(call, "ksize");
  call = PoolCall("MaxPoolV3", {1, 1, 4, 4}, {1, 1, 3, 3}, {1, 1, 0, 2});
  ExpectAttrError(call, "strides");
  call = PoolCall("MaxPoolV3", {1, 1, 4, 4}, {1, 1, 3, 3}, {1, 1, 2, 2});
  call.attrs["pads"] = std::vector<int64_t>{1, 1, 1};
  ExpectAttrError(call, "pads");
  call.attrs["pads"] = std::vector<int64_t>{0, 0, 0, 0};
  call.attrs["padding_mode"] = std::string("FULL");
  ExpectAttrError(call, "padding_mode");
  call = PoolCall("MaxPoolV3", {1, 1, 4, 4}, {1, 1, 5, 5}, {1, 1, 1, 1});
  ExpectAttrError(call, "ksize");
  call = PoolCall("MaxPoolV3", {1, 4, 4}, {1, 1, 2, 2}, {1, 1, 1, 1});
  EXPECT_EQ(RunOp(call, {}).status.code(), StatusCode::kOpInputNotMatch);
  call = PoolCall("MaxPoolV3", {1, 1, 2, 2}, {1, 1, 1, 1}, {1, 1, 1, 1}, DataType::kInt32);
  call.attrs["global_pooling"] = true;
  auto r = RunOp(call, {Bytes::Of<int32_t>({3, -7, 9, 2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{9}));
}

TEST(NnOps, AvgPoolV2ExclusiveAndInclusive) {
  // NCHW [1, 1, 2, 2] = 1..4, k 2, s 1, pads 1 -> 3x3.
  auto call = PoolCall("AvgPoolV2", {1, 1, 2, 2}, {1, 1, 2, 2}, {1, 1, 1, 1});
  call.attrs["pads"] = std::vector<int64_t>{1, 1, 1, 1};
  auto r = RunOp(call, {Bytes::Of(Iota(4))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 1.5f, 2, 2, 2.5f, 3, 3, 3.5f, 4}));
  call.attrs["exclusive"] = false;
  r = RunOp(call, {Bytes::Of(Iota(4))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(),
            (std::vector<float>{0.25f, 0.75f, 0.5f, 1, 2.5f, 1.5f, 0.75f, 1.75f, 1}));
  call.attrs["divisor_override"] = int64_t{1};
  r = RunOp(call, {Bytes::Of(Iota(4))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>()[4], 10.0f);
}

TEST(NnOps, AvgPoolV2Fp16SamePadding) {
  auto call = PoolCall("AvgPoolV2", {1, 1, 1, 3}, {1, 1, 1, 2}, {1, 1, 1, 2}, DataType::kFloat16);
  call.attrs["padding_mode"] = std::string("SAME");
  auto r = RunOp(call, {Bytes::Of(ToHalf({1, 2, 4}))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FromHalf(r.outputs[0].As<uint16_t>()), (std::vector<float>{1.5f, 4}));
}

TEST(NnOps, GlobalAveragePool) {
  auto call = MakeCall("GlobalAveragePool", {Desc(DataType::kFloat, {1, 2, 2, 2})});
  auto r = RunOp(call, {Bytes::Of(Iota(8))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (std::vector<int64_t>{1, 2, 1, 1}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{2.5f, 6.5f}));
  call = MakeCall("GlobalAveragePool", {Desc(DataType::kFloat, {4, 2})});
  EXPECT_EQ(RunOp(call, {}).status.code(), StatusCode::kOpInputNotMatch);
}

}  // namespace
}  // namespace aclsim::ops::testing
