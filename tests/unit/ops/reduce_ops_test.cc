// Reductions and arg-reductions of the sim op library: axes, keep_dims, empty axes, dtypes,
// NaN, errors.
#include <cmath>
#include <limits>

#include "tests/unit/ops/op_test_util.h"

namespace aclsim::ops::testing {
namespace {

using Ints = std::vector<int64_t>;

TensorDesc Axes(const std::vector<int64_t>& axes) {
  if (axes.empty()) {  // ConstDesc would memcpy from a null pointer
    auto desc = Desc(DataType::kInt64, {0});
    desc.value = std::vector<uint8_t>{};
    return desc;
  }
  return ConstDesc<int64_t>(DataType::kInt64, {static_cast<int64_t>(axes.size())}, axes);
}

TensorDesc Axes32(const std::vector<int32_t>& axes) {
  return ConstDesc<int32_t>(DataType::kInt32, {static_cast<int64_t>(axes.size())}, axes);
}

// x = [[1, 2, 3], [4, 5, 6]]
const std::vector<float> kX23 = {1, 2, 3, 4, 5, 6};

RunResult Reduce(const std::string& type, const std::vector<int64_t>& axes, bool keep_dims,
                 const std::vector<float>& x = kX23, Ints dims = {2, 3}) {
  OpCall call = MakeCall(type, {Desc(DataType::kFloat, dims), Axes(axes)});
  call.attrs["keep_dims"] = keep_dims;
  return RunOp(call, {x.empty() ? Bytes{} : Bytes::Of(x)});
}

RunResult ReduceD(const std::string& type, const std::vector<int64_t>& axes, bool keep_dims,
                  const std::vector<float>& x = kX23, Ints dims = {2, 3}) {
  OpCall call = MakeCall(type, {Desc(DataType::kFloat, dims)});
  call.attrs["axes"] = axes;
  call.attrs["keep_dims"] = keep_dims;
  return RunOp(call, {x.empty() ? Bytes{} : Bytes::Of(x)});
}

TEST(ReduceOps, SumAlongEachAxis) {
  auto r = Reduce("ReduceSum", {1}, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{2}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{6, 15}));
  r = Reduce("ReduceSum", {0}, true);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{1, 3}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{5, 7, 9}));
}

TEST(ReduceOps, NegativeAndMultipleAxes) {
  auto r = Reduce("ReduceSum", {-1, 0}, true);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{1, 1}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{21}));
  // Middle axis of a 3-D tensor, int32 axes.
  std::vector<float> x(24);
  for (int i = 0; i < 24; ++i) x[i] = static_cast<float>(i);
  OpCall call = MakeCall("ReduceMax", {Desc(DataType::kFloat, {2, 3, 4}), Axes32({-2})});
  r = RunOp(call, {Bytes::Of(x)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{2, 4}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{8, 9, 10, 11, 20, 21, 22, 23}));
}

TEST(ReduceOps, MeanMaxMinProd) {
  auto r = Reduce("ReduceMean", {1}, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{2, 5}));
  r = Reduce("ReduceMin", {0}, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 2, 3}));
  r = Reduce("ReduceProd", {1}, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{6, 120}));
  r = ReduceD("ReduceMaxD", {1}, true);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{2, 1}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{3, 6}));
  r = ReduceD("ReduceMinD", {-1}, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 4}));
  r = ReduceD("ReduceProdD", {0}, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{4, 10, 18}));
  r = ReduceD("ReduceSumD", {0, 1}, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{21}));
  r = ReduceD("ReduceMeanD", {0}, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{2.5f, 3.5f, 4.5f}));
}

TEST(ReduceOps, EmptyAxesNonDIsNoopByDefault) {
  auto r = Reduce("ReduceSum", {}, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{2, 3}));
  EXPECT_EQ(r.outputs[0].As<float>(), kX23);
  r = Reduce("ReduceMean", {}, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), kX23);
}

TEST(ReduceOps, EmptyAxesWithNoopFalseReducesAll) {
  OpCall call = MakeCall("ReduceSum", {Desc(DataType::kFloat, {2, 3}), Axes({})});
  call.attrs["noop_with_empty_axes"] = false;
  call.attrs["keep_dims"] = true;
  auto r = RunOp(call, {Bytes::Of(kX23)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{1, 1}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{21}));
}

TEST(ReduceOps, EmptyAxesDVariantReducesAll) {
  auto r = ReduceD("ReduceSumD", {}, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{21}));
  r = ReduceD("ReduceMeanD", {}, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{3.5f}));
  // ReduceMeanD honours noop_with_empty_axes = true.
  OpCall call = MakeCall("ReduceMeanD", {Desc(DataType::kFloat, {2, 3})});
  call.attrs["axes"] = Ints{};
  call.attrs["noop_with_empty_axes"] = true;
  r = RunOp(call, {Bytes::Of(kX23)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), kX23);
}

TEST(ReduceOps, Fp16SumAccumulatesInFloat) {
  // 2048 + 1 x 4 in fp16 steps would stay 2048 (spacing 2); in float it is 2052.
  OpCall call = MakeCall("ReduceSum", {Desc(DataType::kFloat16, {5}), Axes({0})});
  auto r = RunOp(call, {Bytes::Of(ToHalf({2048, 1, 1, 1, 1}))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FromHalf(r.outputs[0].As<uint16_t>()), (std::vector<float>{2052}));
}

TEST(ReduceOps, Int32SumAndMeanTruncate) {
  OpCall call = MakeCall("ReduceMean", {Desc(DataType::kInt32, {2, 2}), Axes({1})});
  auto r = RunOp(call, {Bytes::Of<int32_t>({1, 2, -7, 2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{1, -2}));
  call = MakeCall("ReduceSum", {Desc(DataType::kInt32, {2, 2}), Axes({0})});
  r = RunOp(call, {Bytes::Of<int32_t>({1, 2, -7, 2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{-6, 4}));
}

TEST(ReduceOps, IntegerSumWraps) {
  OpCall call = MakeCall("ReduceSum", {Desc(DataType::kInt64, {2}), Axes({0})});
  auto r = RunOp(call, {Bytes::Of<int64_t>({std::numeric_limits<int64_t>::max(), 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int64_t>()[0], std::numeric_limits<int64_t>::min());
}

TEST(ReduceOps, MaxPropagatesNan) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto r = Reduce("ReduceMax", {1}, false, {1, nan, 3, 4, 5, 6});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  auto y = r.outputs[0].As<float>();
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_EQ(y[1], 6);
}

TEST(ReduceOps, EmptyReductionIdentities) {
  auto r = Reduce("ReduceSum", {1}, false, {}, {2, 0});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{0, 0}));
  r = Reduce("ReduceMax", {1}, false, {}, {1, 0});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>()[0], -std::numeric_limits<float>::infinity());
  r = Reduce("ReduceProd", {0}, false, {}, {0, 2});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 1}));
}

TEST(ReduceOps, AllAny) {
  OpCall call = MakeCall("ReduceAll", {Desc(DataType::kBool, {2, 2}), Axes({1})});
  auto r = RunOp(call, {Bytes::Of<uint8_t>({1, 2, 1, 0})});  // any non-zero byte is true
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<uint8_t>(), (std::vector<uint8_t>{1, 0}));
  call = MakeCall("ReduceAny", {Desc(DataType::kBool, {2, 2}), Axes({0})});
  call.attrs["keep_dims"] = true;
  r = RunOp(call, {Bytes::Of<uint8_t>({0, 0, 1, 0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{1, 2}));
  EXPECT_EQ(r.outputs[0].As<uint8_t>(), (std::vector<uint8_t>{1, 0}));
}

TEST(ReduceOps, LogSumExp) {
  auto r = Reduce("ReduceLogSumExp", {1}, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  auto y = r.outputs[0].As<float>();
  EXPECT_NEAR(y[0], std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0)), 1e-5);
  EXPECT_NEAR(y[1], std::log(std::exp(4.0) + std::exp(5.0) + std::exp(6.0)), 1e-5);
}

TEST(ReduceOps, AxisOutOfRangeNamesAxes) {
  auto r = Reduce("ReduceSum", {2}, false);
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("input 1 (axes)"), std::string::npos) << r.status.message();
  r = ReduceD("ReduceSumD", {-3}, false);
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch);
  EXPECT_NE(r.status.message().find("'axes'"), std::string::npos) << r.status.message();
}

TEST(ReduceOps, MissingRequiredAxesAttr) {
  OpCall call = MakeCall("ReduceSumD", {Desc(DataType::kFloat, {2})});
  auto r = RunOp(call, {Bytes::Of<float>({1, 2})});
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch);
  EXPECT_NE(r.status.message().find("axes"), std::string::npos);
}

TEST(ReduceOps, BadAxesDtype) {
  OpCall call = MakeCall(
      "ReduceSum", {Desc(DataType::kFloat, {2}), ConstDesc<float>(DataType::kFloat, {1}, {0})});
  auto r = RunOp(call, {Bytes::Of<float>({1, 2})});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("axes"), std::string::npos);
}

// --- arg reductions ----------------------------------------------------------------------

TEST(ArgOps, ArgMaxV2FirstMaxWinsInt64) {
  OpCall call = MakeCall(
      "ArgMaxV2", {Desc(DataType::kFloat, {2, 3}), ConstDesc<int32_t>(DataType::kInt32, {}, {1})});
  auto r = RunOp(call, {Bytes::Of<float>({1, 5, 5, 7, 2, 7})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dtype, DataType::kInt64);
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{2}));
  EXPECT_EQ(r.outputs[0].As<int64_t>(), (std::vector<int64_t>{1, 0}));
}

TEST(ArgOps, ArgMaxV2NegativeDimensionInt32Output) {
  OpCall call = MakeCall("ArgMaxV2", {Desc(DataType::kFloat16, {2, 2}),
                                      ConstDesc<int64_t>(DataType::kInt64, {1}, {-2})});
  call.attrs["dtype"] = DataType::kInt32;
  auto r = RunOp(call, {Bytes::Of(ToHalf({1, 9, 3, 2}))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{1, 0}));
}

TEST(ArgOps, ArgMinAndDVariants) {
  OpCall call = MakeCall(
      "ArgMin", {Desc(DataType::kInt32, {3}), ConstDesc<int32_t>(DataType::kInt32, {}, {0})});
  auto r = RunOp(call, {Bytes::Of<int32_t>({4, -1, -1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int64_t>(), (std::vector<int64_t>{1}));

  call = MakeCall("ArgMaxD", {Desc(DataType::kFloat, {2, 2})});
  call.attrs["dimension"] = int64_t{0};
  r = RunOp(call, {Bytes::Of<float>({1, 9, 3, 2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int64_t>(), (std::vector<int64_t>{1, 0}));

  call = MakeCall("ArgMinD", {Desc(DataType::kFloat, {2, 2})});
  call.attrs["dimension"] = int64_t{-1};
  r = RunOp(call, {Bytes::Of<float>({1, 9, 3, 2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int64_t>(), (std::vector<int64_t>{0, 1}));
}

TEST(ArgOps, ArgMaxNanWins) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  OpCall call = MakeCall("ArgMaxD", {Desc(DataType::kFloat, {3})});
  call.attrs["dimension"] = int64_t{0};
  auto r = RunOp(call, {Bytes::Of<float>({1, nan, 9})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int64_t>(), (std::vector<int64_t>{1}));
}

TEST(ArgOps, WithValue) {
  OpCall call = MakeCall("ArgMaxWithValue", {Desc(DataType::kFloat, {2, 3})});
  call.attrs["dimension"] = int64_t{1};
  call.attrs["keep_dims"] = true;
  auto r = RunOp(call, {Bytes::Of<float>({1, 5, 5, 7, 2, 8})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{2, 1}));
  EXPECT_EQ(r.kernel->call().outputs[0].dtype, DataType::kInt32);
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(r.outputs[1].As<float>(), (std::vector<float>{5, 8}));

  call = MakeCall("ArgMinWithValue", {Desc(DataType::kFloat, {2, 3})});
  call.attrs["dimension"] = int64_t{0};
  r = RunOp(call, {Bytes::Of<float>({1, 5, 5, 7, 2, 8})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{3}));
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{0, 1, 0}));
  EXPECT_EQ(r.outputs[1].As<float>(), (std::vector<float>{1, 2, 5}));
}

TEST(ArgOps, Errors) {
  OpCall call = MakeCall(
      "ArgMaxV2", {Desc(DataType::kFloat, {2, 3}), ConstDesc<int32_t>(DataType::kInt32, {}, {2})});
  auto r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("dimension"), std::string::npos) << r.status.message();

  call = MakeCall("ArgMaxD", {Desc(DataType::kFloat, {2, 3})});
  call.attrs["dimension"] = int64_t{-3};
  r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch);
  EXPECT_NE(r.status.message().find("'dimension'"), std::string::npos) << r.status.message();

  call = MakeCall("ArgMaxD", {Desc(DataType::kFloat, {2, 0})});
  call.attrs["dimension"] = int64_t{1};
  r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("empty"), std::string::npos) << r.status.message();

  call = MakeCall("ArgMaxD", {Desc(DataType::kFloat, {2, 3})});
  call.attrs["dimension"] = int64_t{0};
  call.attrs["dtype"] = DataType::kFloat;
  r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch);
  EXPECT_NE(r.status.message().find("'dtype'"), std::string::npos) << r.status.message();
}

}  // namespace
}  // namespace aclsim::ops::testing
