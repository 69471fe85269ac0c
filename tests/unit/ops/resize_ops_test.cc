// Resize (ONNX semantics) and ResizeNearestNeighborV2 (TensorFlow semantics) of the sim op
// library: values against hand computations for each mode and coordinate transformation,
// extrapolation, formats, errors.
#include "tests/unit/ops/op_test_util.h"

namespace aclsim::ops::testing {
namespace {

using Ints = std::vector<int64_t>;

TensorDesc Absent() { return TensorDesc{}; }

RunResult Resize(const Ints& dims, const std::vector<float>& x, const std::vector<float>& scales,
                 const Ints& sizes, AttrMap attrs, const std::vector<float>& roi = {}) {
  const auto rank = static_cast<int64_t>(dims.size());
  std::vector<TensorDesc> inputs = {Desc(DataType::kFloat, dims)};
  std::vector<Bytes> data = {Bytes::Of(x)};
  inputs.push_back(roi.empty() ? Absent() : ConstDesc<float>(DataType::kFloat, {2 * rank}, roi));
  data.push_back(roi.empty() ? Bytes{} : Bytes::Of(roi));
  inputs.push_back(scales.empty() ? Absent() : ConstDesc<float>(DataType::kFloat, {rank}, scales));
  data.push_back(scales.empty() ? Bytes{} : Bytes::Of(scales));
  if (!sizes.empty()) {
    inputs.push_back(ConstDesc<int64_t>(DataType::kInt64, {rank}, sizes));
    data.push_back(Bytes::Of(sizes));
  }
  return RunOp(MakeCall("Resize", inputs, {}, std::move(attrs)), data);
}

TEST(ResizeOps, LinearAndNearest) {
  auto r = Resize({1, 1, 1, 2}, {0, 10}, {1, 1, 1, 2}, {},
                  {{"mode", std::string("linear")},
                   {"coordinate_transformation_mode", std::string("asymmetric")}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{1, 1, 1, 4}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{0, 5, 10, 10}));
  // Nearest, half_pixel, round_prefer_floor (the defaults), output from sizes.
  r = Resize({1, 1, 1, 2}, {0, 10}, {}, {1, 1, 1, 4}, {});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{0, 0, 10, 10}));
}

TEST(ResizeOps, CubicInterior) {
  // src 1.5 between 2 and 4: weights -0.09375, 0.59375, 0.59375, -0.09375 (A = -0.75).
  auto r = Resize({4}, {1, 2, 4, 8}, {2}, {},
                  {{"mode", std::string("cubic")},
                   {"coordinate_transformation_mode", std::string("asymmetric")}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const auto y = r.outputs[0].As<float>();
  ASSERT_EQ(y.size(), 8u);
  EXPECT_FLOAT_EQ(y[2], 2.0f);  // src 1: x[1] exactly
  EXPECT_FLOAT_EQ(y[3], 2.71875f);
}

TEST(ResizeOps, CropAndResizeExtrapolates) {
  auto r = Resize({4}, {1, 2, 3, 4}, {}, {3},
                  {{"coordinate_transformation_mode", std::string("tf_crop_and_resize")},
                   {"extrapolation_value", 7.0f}},
                  {0.5f, 1.5f});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{2, 4, 7}));
}

TEST(ResizeOps, Errors) {
  auto r = Resize({2}, {1, 2}, {}, {}, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch) << r.status.message();
  r = Resize({2}, {1, 2}, {2}, {}, {{"mode", std::string("area")}});
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch) << r.status.message();
  r = Resize({2}, {1, 2}, {-1}, {}, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch) << r.status.message();
  r = Resize({2}, {1, 2}, {2}, {},
             {{"coordinate_transformation_mode", std::string("tf_crop_and_resize")}});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch) << r.status.message();  // no roi
}

RunResult NearestV2(const Ints& dims, Format format, const std::vector<int32_t>& size, bool align,
                    bool half) {
  OpCall call =
      MakeCall("ResizeNearestNeighborV2",
               {Desc(DataType::kFloat, dims, format),
                ConstDesc<int32_t>(DataType::kInt32, {static_cast<int64_t>(size.size())}, size)});
  call.attrs["align_corners"] = align;
  call.attrs["half_pixel_centers"] = half;
  return RunOp(call, {Bytes::Of(std::vector<float>{1, 2, 3, 4}), Bytes::Of(size)});
}

TEST(ResizeOps, NearestNeighborV2) {
  auto r = NearestV2({1, 2, 2, 1}, Format::kNhwc, {3, 3}, false, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{1, 3, 3, 1}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 1, 2, 1, 1, 2, 3, 3, 4}));
  r = NearestV2({1, 1, 2, 2}, Format::kNchw, {3, 3}, false, true);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{1, 1, 3, 3}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 2, 2, 3, 4, 4, 3, 4, 4}));
  r = NearestV2({1, 2, 2, 1}, Format::kNhwc, {3, 3}, true, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 2, 2, 3, 4, 4, 3, 4, 4}));
  // Errors: three sizes, both flags, a 3-D x.
  r = NearestV2({1, 2, 2, 1}, Format::kNhwc, {3, 3, 3}, false, false);
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch) << r.status.message();
  r = NearestV2({1, 2, 2, 1}, Format::kNhwc, {3, 3}, true, true);
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch) << r.status.message();
  r = NearestV2({2, 2, 1}, Format::kNd, {3, 3}, false, false);
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch) << r.status.message();
}

}  // namespace
}  // namespace aclsim::ops::testing
