// Conv2DTranspose of the sim op library: values against hand-computed transposed
// convolutions (stride, pads, groups + bias, NHWC with an HWCN filter), errors.
#include "tests/unit/ops/op_test_util.h"

namespace aclsim::ops::testing {
namespace {

using Ints = std::vector<int64_t>;

RunResult Deconv(const Ints& size, const Ints& x_dims, const std::vector<float>& x,
                 const Ints& f_dims, const std::vector<float>& f, int64_t stride, const Ints& pads,
                 const std::string& format = "NCHW", int64_t groups = 1,
                 const std::vector<float>& bias = {}, Format f_format = Format::kNchw) {
  std::vector<TensorDesc> inputs = {ConstDesc<int64_t>(DataType::kInt64, {4}, size),
                                    Desc(DataType::kFloat, x_dims),
                                    Desc(DataType::kFloat, f_dims, f_format)};
  std::vector<Bytes> data = {Bytes::Of(size), Bytes::Of(x), Bytes::Of(f)};
  if (!bias.empty()) {
    inputs.push_back(Desc(DataType::kFloat, {static_cast<int64_t>(bias.size())}));
    data.push_back(Bytes::Of(bias));
  }
  OpCall call = MakeCall("Conv2DTranspose", inputs);
  call.attrs["strides"] =
      format == "NCHW" ? Ints{1, 1, stride, stride} : Ints{1, stride, stride, 1};
  call.attrs["pads"] = pads;
  call.attrs["data_format"] = format;
  call.attrs["groups"] = groups;
  return RunOp(call, data);
}

const std::vector<float> kX = {1, 2, 3, 4};
const std::vector<float> kOnes = {1, 1, 1, 1};

TEST(ConvTransposeOps, StrideOneIsFullCorrelation) {
  auto r = Deconv({1, 1, 3, 3}, {1, 1, 2, 2}, kX, {1, 1, 2, 2}, kOnes, 1, {0, 0, 0, 0});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{1, 1, 3, 3}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 3, 2, 4, 10, 6, 3, 7, 4}));
  EXPECT_EQ(r.kernel->engine(), driver::Engine::kAiCore);
  // Pads crop the border: top/left 1 leaves the bottom-right 2x2.
  r = Deconv({1, 1, 2, 2}, {1, 1, 2, 2}, kX, {1, 1, 2, 2}, kOnes, 1, {1, 0, 1, 0});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{10, 6, 7, 4}));
}

TEST(ConvTransposeOps, StrideTwoGroupsBiasAndOutputPadding) {
  // Two groups of one channel each; filter [2, 1, 2, 2]: group 0 ones, group 1 twos; the
  // 5x5 output's last row and column (output padding) only hold the bias.
  const std::vector<float> x = {1, 2, 3, 4, 1, 1, 1, 1};
  const std::vector<float> f = {1, 1, 1, 1, 2, 2, 2, 2};
  auto r = Deconv({1, 2, 5, 5}, {1, 2, 2, 2}, x, {2, 1, 2, 2}, f, 2, {0, 0, 0, 0}, "NCHW", 2,
                  {0.5f, -1});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  const auto y = r.outputs[0].As<float>();
  const std::vector<float> c0 = {1.5f, 1.5f, 2.5f, 2.5f, 0.5f, 1.5f, 1.5f, 2.5f, 2.5f,
                                 0.5f, 3.5f, 3.5f, 4.5f, 4.5f, 0.5f, 3.5f, 3.5f, 4.5f,
                                 4.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
  EXPECT_EQ(std::vector<float>(y.begin(), y.begin() + 25), c0);
  EXPECT_EQ(y[25], 1.0f);
  EXPECT_EQ(y[29], -1.0f);
  EXPECT_EQ(y[49], -1.0f);
}

TEST(ConvTransposeOps, NhwcWithHwcnFilter) {
  auto r = Deconv({1, 3, 3, 1}, {1, 2, 2, 1}, kX, {2, 2, 1, 1}, kOnes, 1, {0, 0, 0, 0}, "NHWC", 1,
                  {}, Format::kHwcn);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 3, 2, 4, 10, 6, 3, 7, 4}));
}

TEST(ConvTransposeOps, Errors) {
  // Output channels do not match the filter.
  auto r = Deconv({1, 2, 3, 3}, {1, 1, 2, 2}, kX, {1, 1, 2, 2}, kOnes, 1, {0, 0, 0, 0});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch) << r.status.message();
  // Bias of the wrong length.
  r = Deconv({1, 1, 3, 3}, {1, 1, 2, 2}, kX, {1, 1, 2, 2}, kOnes, 1, {0, 0, 0, 0}, "NCHW", 1,
             {1, 2});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch) << r.status.message();
  // Three pads.
  r = Deconv({1, 1, 3, 3}, {1, 1, 2, 2}, kX, {1, 1, 2, 2}, kOnes, 1, {0, 0, 0});
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch) << r.status.message();
  r = Deconv({1, 1, 3, 3}, {1, 1, 2, 2}, kX, {1, 1, 2, 2}, kOnes, 1, {0, 0, 0, 0}, "NCDHW");
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch) << r.status.message();
}

}  // namespace
}  // namespace aclsim::ops::testing
