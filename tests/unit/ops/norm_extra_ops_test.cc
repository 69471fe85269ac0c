// LpNorm / LpNormV2, SquareSumV1 and ReduceLogSum of the sim op library: values against hand
// computations, axes and keep_dims, errors.
#include <cmath>

#include "tests/unit/ops/op_test_util.h"

namespace aclsim::ops::testing {
namespace {

using Ints = std::vector<int64_t>;

// x = [[1, -2, 3], [-4, 5, -6]]
const std::vector<float> kX = {1, -2, 3, -4, 5, -6};

RunResult Lp(float p, const Ints& axes, bool keepdim) {
  OpCall call = MakeCall("LpNormV2", {Desc(DataType::kFloat, {2, 3})});
  call.attrs["p"] = p;
  call.attrs["axes"] = axes;
  call.attrs["keepdim"] = keepdim;
  return RunOp(call, {Bytes::Of(kX)});
}

TEST(NormExtraOps, LpNormV2L1AndL2) {
  auto r = Lp(1.0f, {1}, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{2}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{6, 15}));
  r = Lp(2.0f, {0}, true);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{1, 3}));
  const auto y = r.outputs[0].As<float>();
  EXPECT_FLOAT_EQ(y[0], std::sqrt(17.0f));
  EXPECT_FLOAT_EQ(y[1], std::sqrt(29.0f));
  EXPECT_FLOAT_EQ(y[2], std::sqrt(45.0f));
}

TEST(NormExtraOps, LpNormV2AllAxesInfAndEpsilon) {
  auto r = Lp(INFINITY, {}, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{6}));
  r = Lp(3.0f, {-1}, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_NEAR(r.outputs[0].As<float>()[0], std::cbrt(36.0f), 1e-5);
  // The norm of zeros is epsilon.
  OpCall call = MakeCall("LpNormV2", {Desc(DataType::kFloat, {2})});
  call.attrs["epsilon"] = 0.25f;
  r = RunOp(call, {Bytes::Of(std::vector<float>{0, 0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{0.25f}));
}

TEST(NormExtraOps, LpNormIntP) {
  OpCall call = MakeCall("LpNorm", {Desc(DataType::kFloat, {2, 3})});
  call.attrs["p"] = int64_t{1};
  call.attrs["axes"] = Ints{0, 1};
  auto r = RunOp(call, {Bytes::Of(kX)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{21}));
}

TEST(NormExtraOps, SquareSumV1) {
  OpCall call = MakeCall("SquareSumV1", {Desc(DataType::kFloat, {2, 3})});
  call.attrs["axis"] = Ints{1};
  call.attrs["keep_dims"] = true;
  auto r = RunOp(call, {Bytes::Of(kX)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{2, 1}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{14, 77}));
  // fp16 in, fp16 out.
  call = MakeCall("SquareSumV1", {Desc(DataType::kFloat16, {2, 3})});
  call.attrs["axis"] = Ints{0};
  r = RunOp(call, {Bytes::Of(ToHalf(kX))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FromHalf(r.outputs[0].As<uint16_t>()), (std::vector<float>{17, 29, 45}));
}

TEST(NormExtraOps, ReduceLogSum) {
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};
  const std::vector<int64_t> axes = {1};
  OpCall call = MakeCall("ReduceLogSum", {Desc(DataType::kFloat, {2, 3}),
                                          ConstDesc<int64_t>(DataType::kInt64, {1}, axes)});
  auto r = RunOp(call, {Bytes::Of(x)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{2}));
  const auto y = r.outputs[0].As<float>();
  EXPECT_FLOAT_EQ(y[0], std::log(6.0f));
  EXPECT_FLOAT_EQ(y[1], std::log(15.0f));
}

TEST(NormExtraOps, Errors) {
  // Axis out of range (attribute and input).
  auto r = Lp(2.0f, {2}, false);
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch) << r.status.message();
  EXPECT_NE(r.status.message().find("out of range"), std::string::npos);
  const std::vector<int64_t> axes = {-3};
  OpCall call = MakeCall("ReduceLogSum", {Desc(DataType::kFloat, {2, 3}),
                                          ConstDesc<int64_t>(DataType::kInt64, {1}, axes)});
  r = RunOp(call, {Bytes::Of(kX)});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch) << r.status.message();
  // SquareSumV1 needs its axis attribute; LpNormV2 takes no int32 input.
  r = RunOp(MakeCall("SquareSumV1", {Desc(DataType::kFloat, {2, 3})}), {Bytes::Of(kX)});
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch) << r.status.message();
  r = RunOp(MakeCall("LpNormV2", {Desc(DataType::kInt32, {2})}),
            {Bytes::Of(std::vector<int32_t>{1, 2})});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch) << r.status.message();
}

}  // namespace
}  // namespace aclsim::ops::testing
