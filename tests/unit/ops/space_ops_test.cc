// DepthToSpace, SpaceToDepth and Shrink of the sim op library: values against the ONNX /
// TensorFlow definitions (hand-written), both modes and formats, errors.
#include <numeric>

#include "tests/unit/ops/op_test_util.h"

namespace aclsim::ops::testing {
namespace {

using Ints = std::vector<int64_t>;

std::vector<float> Seq0(size_t n) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), 0.0f);
  return v;
}

RunResult Space(const std::string& type, const Ints& dims, const std::string& format,
                const std::string& mode = "") {
  OpCall call = MakeCall(type, {Desc(DataType::kFloat, dims)});
  call.attrs["block_size"] = int64_t{2};
  call.attrs["data_format"] = format;
  if (!mode.empty()) call.attrs["mode"] = mode;
  return RunOp(call, {Bytes::Of(Seq0(static_cast<size_t>(Product(dims))))});
}

TEST(SpaceOps, DepthToSpaceNchwModes) {
  // x [1, 4, 1, 1] = 0..3: DCR and CRD agree for one channel out.
  auto r = Space("DepthToSpace", {1, 4, 1, 1}, "NCHW", "DCR");
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{1, 1, 2, 2}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{0, 1, 2, 3}));
  // x [1, 8, 1, 1]: DCR takes channel (i*2+j)*2 + c, CRD c*4 + i*2 + j.
  r = Space("DepthToSpace", {1, 8, 1, 1}, "NCHW", "DCR");
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{0, 2, 4, 6, 1, 3, 5, 7}));
  r = Space("DepthToSpace", {1, 8, 1, 1}, "NCHW", "CRD");
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(SpaceOps, SpaceToDepthRoundTrips) {
  // NHWC [1, 2, 2, 2]: y[0, 0, 0, (i*2+j)*2 + c] = x[0, i, j, c], i.e. the same order.
  auto r = Space("SpaceToDepth", {1, 2, 2, 2}, "NHWC");
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{1, 1, 1, 8}));
  EXPECT_EQ(r.outputs[0].As<float>(), Seq0(8));
  // NCHW [1, 1, 2, 4]: y[0, i*2+j, 0, w] = x[0, 0, i, w*2+j].
  r = Space("SpaceToDepth", {1, 1, 2, 4}, "NCHW");
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{1, 4, 1, 2}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{0, 2, 1, 3, 4, 6, 5, 7}));
}

TEST(SpaceOps, Errors) {
  auto r = Space("DepthToSpace", {1, 6, 1, 1}, "NCHW");
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch) << r.status.message();
  r = Space("SpaceToDepth", {1, 1, 3, 2}, "NCHW");
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch) << r.status.message();
  r = Space("DepthToSpace", {1, 4, 1, 1}, "NCHW", "XYZ");
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch) << r.status.message();
  r = Space("SpaceToDepth", {4, 2, 2}, "NCHW");
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch) << r.status.message();
  r = RunOp(MakeCall("SpaceToDepth", {Desc(DataType::kFloat, {1, 2, 2, 1})}), {Bytes::Of(Seq0(4))});
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch) << r.status.message();  // block_size
}

TEST(SpaceOps, Shrink) {
  const std::vector<float> x = {-2, -1, 0, 1, 2};
  OpCall call = MakeCall("Shrink", {Desc(DataType::kFloat, {5})});
  call.attrs["lambd"] = 1.5f;
  call.attrs["bias"] = 1.5f;
  auto r = RunOp(call, {Bytes::Of(x)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{-0.5f, 0, 0, 0, 0.5f}));
  // Defaults lambd 0.5, bias 0 (hard shrink), fp16.
  r = RunOp(MakeCall("Shrink", {Desc(DataType::kFloat16, {5})}), {Bytes::Of(ToHalf(x))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FromHalf(r.outputs[0].As<uint16_t>()), (std::vector<float>{-2, -1, 0, 1, 2}));
  r = RunOp(MakeCall("Shrink", {Desc(DataType::kInt32, {1})}),
            {Bytes::Of(std::vector<int32_t>{1})});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch) << r.status.message();
}

}  // namespace
}  // namespace aclsim::ops::testing
