// Gather / one-hot / sorting / selection ops of the sim op library.
#include <cmath>
#include <limits>

#include "tests/unit/ops/op_test_util.h"

namespace aclsim::ops::testing {
namespace {

using Ints = std::vector<int64_t>;

TensorDesc Scalar32(int32_t v) { return ConstDesc<int32_t>(DataType::kInt32, {}, {v}); }

// --- Gather family -----------------------------------------------------------------------

TEST(GatherOps, GatherV2Axis0IsEmbeddingLookup) {
  OpCall call = MakeCall(
      "GatherV2", {Desc(DataType::kFloat, {3, 2}), Desc(DataType::kInt32, {2, 2}), Scalar32(0)});
  auto r =
      RunOp(call, {Bytes::Of<float>({0, 1, 10, 11, 20, 21}), Bytes::Of<int32_t>({2, 0, 1, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{2, 2, 2}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{20, 21, 0, 1, 10, 11, 10, 11}));
}

TEST(GatherOps, EmbeddingLookupWorkReadsOnlyGatheredRows) {
  // 1 Mi x 64 fp32 table (256 MiB), 8 looked-up rows.
  OpCall call = MakeCall("GatherV2", {Desc(DataType::kFloat, {1 << 20, 64}),
                                      Desc(DataType::kInt32, {8}), Scalar32(0)});
  auto kernel = OpLibrary::Builtin().Compile(call, TestProps());
  ASSERT_TRUE(kernel.ok()) << kernel.status().message();
  EXPECT_EQ(kernel.value()->engine(), driver::Engine::kAiVector);
  EXPECT_EQ(kernel.value()->work().gm_read_bytes, 8u * 64 * 4 + 8 * 4 + 4);
  EXPECT_EQ(kernel.value()->work().gm_write_bytes, 8u * 64 * 4);
}

TEST(GatherOps, GatherV2NegativeAxisScalarIndex) {
  OpCall call = MakeCall(
      "GatherV2", {Desc(DataType::kInt32, {2, 3}), Desc(DataType::kInt64, {}), Scalar32(-1)});
  auto r = RunOp(call, {Bytes::Of<int32_t>({1, 2, 3, 4, 5, 6}), Bytes::Of<int64_t>({2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{2}));
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{3, 6}));
}

TEST(GatherOps, GatherV2NegativeIndicesNeedSupportFlag) {
  auto make = [] {
    return MakeCall("GatherV2",
                    {Desc(DataType::kFloat, {3}), Desc(DataType::kInt32, {2}), Scalar32(0)});
  };
  auto call = make();
  auto r = RunOp(call, {Bytes::Of<float>({1, 2, 3}), Bytes::Of<int32_t>({0, -1})});
  EXPECT_EQ(r.status.code(), StatusCode::kInvalidParam);
  EXPECT_NE(r.status.message().find("indices[1] = -1"), std::string::npos) << r.status.message();
  call = make();
  call.attrs["negative_index_support"] = true;
  r = RunOp(call, {Bytes::Of<float>({1, 2, 3}), Bytes::Of<int32_t>({0, -1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 3}));
}

TEST(GatherOps, GatherV2OutOfRangeFailsRun) {
  OpCall call =
      MakeCall("GatherV2", {Desc(DataType::kFloat, {3}), Desc(DataType::kInt32, {2}), Scalar32(0)});
  auto r = RunOp(call, {Bytes::Of<float>({1, 2, 3}), Bytes::Of<int32_t>({1, 3})});
  EXPECT_EQ(r.status.code(), StatusCode::kInvalidParam);
  EXPECT_NE(r.status.message().find("indices[1] = 3"), std::string::npos) << r.status.message();
}

TEST(GatherOps, GatherV2BatchDims) {
  // x [2, 3], indices [2, 2], batch_dims 1, axis 1: y[b, j] = x[b, idx[b, j]].
  OpCall call = MakeCall(
      "GatherV2", {Desc(DataType::kFloat, {2, 3}), Desc(DataType::kInt32, {2, 2}), Scalar32(1)});
  call.attrs["batch_dims"] = int64_t{1};
  auto r = RunOp(call, {Bytes::Of<float>({1, 2, 3, 4, 5, 6}), Bytes::Of<int32_t>({2, 0, 1, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{2, 2}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{3, 1, 5, 5}));
}

TEST(GatherOps, GatherV2DAndGather) {
  OpCall call =
      MakeCall("GatherV2D", {Desc(DataType::kFloat16, {2, 2}), Desc(DataType::kInt32, {1})});
  call.attrs["axis"] = int64_t{1};
  auto r = RunOp(call, {Bytes::Of(ToHalf({1, 2, 3, 4})), Bytes::Of<int32_t>({1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{2, 1}));
  EXPECT_EQ(FromHalf(r.outputs[0].As<uint16_t>()), (std::vector<float>{2, 4}));

  call = MakeCall("Gather", {Desc(DataType::kInt64, {3}), Desc(DataType::kInt64, {2})});
  r = RunOp(call, {Bytes::Of<int64_t>({7, 8, 9}), Bytes::Of<int64_t>({2, 2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int64_t>(), (std::vector<int64_t>{9, 9}));
}

TEST(GatherOps, GatherErrors) {
  OpCall call = MakeCall(
      "GatherV2", {Desc(DataType::kFloat, {2, 3}), Desc(DataType::kInt32, {2}), Scalar32(2)});
  auto r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("input 2 (axis)"), std::string::npos) << r.status.message();

  call = MakeCall("GatherV2",
                  {Desc(DataType::kFloat, {2, 3}), Desc(DataType::kFloat, {2}), Scalar32(0)});
  r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("input 1 (indices)"), std::string::npos) << r.status.message();

  call = MakeCall("GatherV2D", {Desc(DataType::kFloat, {2, 3}), Desc(DataType::kInt32, {2})});
  call.attrs["axis"] = int64_t{-3};
  r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch);
  EXPECT_NE(r.status.message().find("'axis'"), std::string::npos) << r.status.message();
}

TEST(GatherOps, GatherElements) {
  // torch.gather(x, 1, [[0, 0], [1, 0]]) on [[1, 2], [3, 4]] = [[1, 1], [4, 3]].
  OpCall call =
      MakeCall("GatherElements", {Desc(DataType::kFloat, {2, 2}), Desc(DataType::kInt64, {2, 2})});
  call.attrs["dim"] = int64_t{1};
  auto r = RunOp(call, {Bytes::Of<float>({1, 2, 3, 4}), Bytes::Of<int64_t>({0, 0, 1, 0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 1, 4, 3}));
  // dim 0 with a negative index (ONNX allows them) and a smaller index tensor.
  call =
      MakeCall("GatherElements", {Desc(DataType::kFloat, {3, 2}), Desc(DataType::kInt32, {1, 2})});
  r = RunOp(call, {Bytes::Of<float>({1, 2, 3, 4, 5, 6}), Bytes::Of<int32_t>({-1, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{5, 4}));
  r = RunOp(call, {Bytes::Of<float>({1, 2, 3, 4, 5, 6}), Bytes::Of<int32_t>({3, 1})});
  EXPECT_EQ(r.status.code(), StatusCode::kInvalidParam);
  EXPECT_NE(r.status.message().find("index[0] = 3"), std::string::npos) << r.status.message();

  call = MakeCall("GatherElements", {Desc(DataType::kFloat, {3, 2}), Desc(DataType::kInt32, {2})});
  EXPECT_EQ(RunOp(call, {}).status.code(), StatusCode::kOpInputNotMatch);
}

TEST(GatherOps, GatherNd) {
  // x [2, 2, 2]; indices [[0, 1], [1, 0]] -> rows x[0, 1] and x[1, 0].
  std::vector<float> x = {0, 1, 2, 3, 4, 5, 6, 7};
  OpCall call =
      MakeCall("GatherNd", {Desc(DataType::kFloat, {2, 2, 2}), Desc(DataType::kInt32, {2, 2})});
  auto r = RunOp(call, {Bytes::Of(x), Bytes::Of<int32_t>({0, 1, 1, 0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{2, 2}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{2, 3, 4, 5}));
  // Full index tuples: scalars.
  call = MakeCall("GatherNd", {Desc(DataType::kFloat, {2, 2, 2}), Desc(DataType::kInt64, {1, 3})});
  r = RunOp(call, {Bytes::Of(x), Bytes::Of<int64_t>({1, 1, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{7}));
  r = RunOp(call, {Bytes::Of(x), Bytes::Of<int64_t>({1, 2, 1})});
  EXPECT_EQ(r.status.code(), StatusCode::kInvalidParam);
  EXPECT_NE(r.status.message().find("indices[1] = 2"), std::string::npos) << r.status.message();

  call = MakeCall("GatherNd", {Desc(DataType::kFloat, {2, 2}), Desc(DataType::kInt64, {1, 3})});
  r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("input 1 (indices)"), std::string::npos) << r.status.message();
}

TEST(GatherOps, OneHotLastAxis) {
  OpCall call = MakeCall(
      "OneHot", {Desc(DataType::kInt32, {3}), ConstDesc<int32_t>(DataType::kInt32, {}, {3}),
                 Desc(DataType::kFloat, {}), Desc(DataType::kFloat, {})});
  auto r = RunOp(call, {Bytes::Of<int32_t>({0, 2, 5}), Bytes::Of<int32_t>({3}),
                        Bytes::Of<float>({5}), Bytes::Of<float>({-1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{3, 3}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{5, -1, -1, -1, -1, 5, -1, -1, -1}));
}

TEST(GatherOps, OneHotDAxis0) {
  OpCall call = MakeCall("OneHotD", {Desc(DataType::kInt32, {2}), Desc(DataType::kInt32, {}),
                                     Desc(DataType::kInt32, {})});
  call.attrs["depth"] = int64_t{3};
  call.attrs["axis"] = int64_t{0};
  auto r =
      RunOp(call, {Bytes::Of<int32_t>({1, 2}), Bytes::Of<int32_t>({1}), Bytes::Of<int32_t>({0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{3, 2}));
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{0, 0, 1, 0, 0, 1}));
}

TEST(GatherOps, OneHotErrors) {
  OpCall call = MakeCall("OneHotD", {Desc(DataType::kInt32, {2}), Desc(DataType::kInt32, {}),
                                     Desc(DataType::kInt32, {})});
  call.attrs["depth"] = int64_t{3};
  call.attrs["axis"] = int64_t{2};
  auto r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch);
  EXPECT_NE(r.status.message().find("'axis'"), std::string::npos) << r.status.message();
  call = MakeCall("OneHot",
                  {Desc(DataType::kInt32, {2}), ConstDesc<int32_t>(DataType::kInt32, {}, {-2}),
                   Desc(DataType::kFloat, {}), Desc(DataType::kFloat, {})});
  r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("input 1 (depth)"), std::string::npos) << r.status.message();
}

// --- TopK / Sort ---------------------------------------------------------------------------

TEST(SortOps, TopKLargestStableTies) {
  OpCall call = MakeCall("TopK", {Desc(DataType::kFloat, {2, 4}), Scalar32(2)});
  auto r = RunOp(call, {Bytes::Of<float>({1, 3, 3, 2, 5, 4, 6, 6})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->engine(), driver::Engine::kAiCpu);
  EXPECT_EQ(r.kernel->work().aicpu_elements, 8u);
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{2, 2}));
  EXPECT_EQ(r.kernel->call().outputs[1].dtype, DataType::kInt32);
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{3, 3, 6, 6}));
  EXPECT_EQ(r.outputs[1].As<int32_t>(), (std::vector<int32_t>{1, 2, 2, 3}));
}

TEST(SortOps, TopKSmallestAlongDim0Fp16) {
  OpCall call = MakeCall("TopK", {Desc(DataType::kFloat16, {3, 2}), Scalar32(1)});
  call.attrs["largest"] = false;
  call.attrs["dim"] = int64_t{0};
  auto r = RunOp(call, {Bytes::Of(ToHalf({3, 1, 2, 1, 5, 0}))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{1, 2}));
  EXPECT_EQ(FromHalf(r.outputs[0].As<uint16_t>()), (std::vector<float>{2, 0}));
  EXPECT_EQ(r.outputs[1].As<int32_t>(), (std::vector<int32_t>{1, 2}));
}

TEST(SortOps, TopKV2IndicesDtypeAndTopKD) {
  OpCall call = MakeCall("TopKV2", {Desc(DataType::kInt32, {4}), Scalar32(3)});
  call.attrs["indices_dtype"] = int64_t{9};
  auto r = RunOp(call, {Bytes::Of<int32_t>({4, 1, 7, 4})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{7, 4, 4}));
  EXPECT_EQ(r.outputs[1].As<int64_t>(), (std::vector<int64_t>{2, 0, 3}));

  call = MakeCall("TopKD", {Desc(DataType::kFloat, {4})});
  call.attrs["k"] = int64_t{2};
  r = RunOp(call, {Bytes::Of<float>({4, 1, 7, 4})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{7, 4}));
  EXPECT_EQ(r.outputs[1].As<int32_t>(), (std::vector<int32_t>{2, 0}));
}

TEST(SortOps, TopKErrors) {
  OpCall call = MakeCall("TopK", {Desc(DataType::kFloat, {2, 3}), Scalar32(4)});
  auto r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("input 1 (k)"), std::string::npos) << r.status.message();
  call = MakeCall("TopK", {Desc(DataType::kFloat, {2, 3}), Scalar32(1)});
  call.attrs["dim"] = int64_t{2};
  r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch);
  EXPECT_NE(r.status.message().find("'dim'"), std::string::npos) << r.status.message();
  call = MakeCall("TopKD", {Desc(DataType::kFloat, {3})});
  call.attrs["k"] = int64_t{4};
  r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch);
  EXPECT_NE(r.status.message().find("'k'"), std::string::npos) << r.status.message();
  call =
      MakeCall("TopK", {Desc(DataType::kFloat, {3}), ConstDesc<float>(DataType::kFloat, {}, {1})});
  r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("input 1 (k)"), std::string::npos) << r.status.message();
}

TEST(SortOps, SortAscendingDescendingNan) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  OpCall call = MakeCall("Sort", {Desc(DataType::kFloat, {5})});
  auto r = RunOp(call, {Bytes::Of<float>({3, nan, 1, 3, 0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  auto y = r.outputs[0].As<float>();
  EXPECT_EQ((std::vector<float>{y[0], y[1], y[2], y[3]}), (std::vector<float>{0, 1, 3, 3}));
  EXPECT_TRUE(std::isnan(y[4]));
  EXPECT_EQ(r.outputs[1].As<int32_t>(), (std::vector<int32_t>{4, 2, 0, 3, 1}));

  call = MakeCall("Sort", {Desc(DataType::kInt32, {2, 3})});
  call.attrs["descending"] = true;
  call.attrs["axis"] = int64_t{0};
  r = RunOp(call, {Bytes::Of<int32_t>({1, 5, 2, 4, 5, 0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{4, 5, 2, 1, 5, 0}));
  EXPECT_EQ(r.outputs[1].As<int32_t>(), (std::vector<int32_t>{1, 0, 0, 0, 1, 1}));

  call = MakeCall("Sort", {Desc(DataType::kFloat, {5})});
  call.attrs["axis"] = int64_t{1};
  EXPECT_EQ(RunOp(call, {}).status.code(), StatusCode::kOpAttrNotMatch);
}

// --- Where / NonZero -----------------------------------------------------------------------

TEST(SelectOps, WhereGivesCoordinatesAndRealShape) {
  OpCall call = MakeCall("Where", {Desc(DataType::kFloat, {2, 3})});
  auto r = RunOp(call, {Bytes::Of<float>({0, 1, 0, 2, 0, 3})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_TRUE(r.kernel->dynamic_output_shape());
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (Ints{6, 2}));  // the largest shape
  ASSERT_EQ(r.output_dims.size(), 1u);
  EXPECT_EQ(r.output_dims[0], (Ints{3, 2}));
  auto y = r.outputs[0].As<int64_t>();
  EXPECT_EQ(std::vector<int64_t>(y.begin(), y.begin() + 6), (Ints{0, 1, 1, 0, 1, 2}));
}

TEST(SelectOps, NonZeroTransposeInt32) {
  OpCall call = MakeCall("NonZero", {Desc(DataType::kBool, {2, 2})});
  call.attrs["transpose"] = true;
  call.attrs["dtype"] = DataType::kInt32;
  auto r = RunOp(call, {Bytes::Of<uint8_t>({1, 0, 1, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->engine(), driver::Engine::kAiCpu);
  EXPECT_EQ(r.output_dims[0], (Ints{2, 3}));
  auto y = r.outputs[0].As<int32_t>();
  EXPECT_EQ(std::vector<int32_t>(y.begin(), y.begin() + 6),
            (std::vector<int32_t>{0, 1, 1, 0, 0, 1}));
  // Nothing non-zero.
  call = MakeCall("NonZero", {Desc(DataType::kFloat16, {3})});
  r = RunOp(call, {Bytes::Of(ToHalf({0, -0.0f, 0}))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.output_dims[0], (Ints{0, 1}));

  call = MakeCall("NonZero", {Desc(DataType::kBool, {2})});
  call.attrs["dtype"] = DataType::kFloat;
  EXPECT_EQ(RunOp(call, {}).status.code(), StatusCode::kOpAttrNotMatch);
}

// --- Cumsum --------------------------------------------------------------------------------

TEST(SelectOps, CumsumVariants) {
  auto run = [](bool exclusive, bool reverse) {
    OpCall call = MakeCall("Cumsum", {Desc(DataType::kFloat, {2, 3}), Scalar32(-1)});
    call.attrs["exclusive"] = exclusive;
    call.attrs["reverse"] = reverse;
    return RunOp(call, {Bytes::Of<float>({1, 2, 3, 4, 5, 6})});
  };
  auto r = run(false, false);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->engine(), driver::Engine::kAiCpu);
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 3, 6, 4, 9, 15}));
  r = run(true, false);
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{0, 1, 3, 0, 4, 9}));
  r = run(false, true);
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{6, 5, 3, 15, 11, 6}));
  r = run(true, true);
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{5, 3, 0, 11, 6, 0}));
}

TEST(SelectOps, CumsumDInt32Axis0) {
  OpCall call = MakeCall("CumsumD", {Desc(DataType::kInt32, {2, 2})});
  call.attrs["axis"] = int64_t{0};
  auto r = RunOp(call, {Bytes::Of<int32_t>({1, 2, 3, 4})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{1, 2, 4, 6}));

  call = MakeCall("Cumsum", {Desc(DataType::kInt32, {2, 2}), Scalar32(2)});
  r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("input 1 (axis)"), std::string::npos) << r.status.message();
}

}  // namespace
}  // namespace aclsim::ops::testing
