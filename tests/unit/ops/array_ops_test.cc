// Array / shape / data movement ops of the op library (array, concat, slice, pad groups):
// values against hand-computed or reference results, D-variants, dtypes, error paths.
#include <limits>
#include <numeric>

#include "tests/unit/ops/op_test_util.h"

namespace aclsim::ops::testing {
namespace {

using Dims = std::vector<int64_t>;

// A constant int64 / int32 vector input (value known at compile time) and its bytes.
TensorDesc I64(const std::vector<int64_t>& v) {
  return ConstDesc<int64_t>(DataType::kInt64, {static_cast<int64_t>(v.size())}, v);
}
TensorDesc I32(const std::vector<int32_t>& v) {
  return ConstDesc<int32_t>(DataType::kInt32, {static_cast<int64_t>(v.size())}, v);
}
template <typename T>
TensorDesc ScalarConst(DataType dtype, T v) {
  return ConstDesc<T>(dtype, {}, {v});
}
Bytes B64(const std::vector<int64_t>& v) { return Bytes::Of(v); }
Bytes B32(const std::vector<int32_t>& v) { return Bytes::Of(v); }

std::vector<float> Seq(int64_t n, float start = 0) {
  std::vector<float> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), start);
  return v;
}

Dims OutDims(const RunResult& r, size_t i = 0) { return r.kernel->call().outputs[i].dims; }

// Expects a failure with `code` whose message contains `what`.
// --- reshape family -------------------------------------------------------------------------

TEST(ArrayOps, ReshapeInfersMinusOneAndCopiesZero) {
  auto r = RunOp(MakeCall("Reshape", {Desc(DataType::kFloat, {2, 3, 4}), I64({0, -1})}),
                 {Bytes::Of(Seq(24)), B64({0, -1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{2, 12}));
  EXPECT_EQ(r.outputs[0].As<float>(), Seq(24));

  auto r2 = RunOp(MakeCall("Reshape", {Desc(DataType::kInt64, {6}), I32({3, -1})}),
                  {Bytes::Of<int64_t>({1, 2, 3, 4, 5, 6}), B32({3, -1})});
  ASSERT_TRUE(r2.status.ok()) << r2.status.message();
  EXPECT_EQ(OutDims(r2), (Dims{3, 2}));
  EXPECT_EQ(r2.outputs[0].As<int64_t>(), (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
}

TEST(ArrayOps, ReshapePartialWithAxisAndNumAxes) {
  auto call = MakeCall("Reshape", {Desc(DataType::kFloat, {2, 6, 1}), I64({2, 3})});
  call.attrs["axis"] = int64_t{1};
  call.attrs["num_axes"] = int64_t{1};
  auto r = RunOp(call, {Bytes::Of(Seq(12)), B64({2, 3})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{2, 2, 3, 1}));
}

TEST(ArrayOps, ReshapeAllowZeroKeepsLiteralZero) {
  auto call = MakeCall("Reshape", {Desc(DataType::kFloat, {0, 3, 4}), I64({3, 4, 0})});
  call.attrs["allowzero"] = int64_t{1};
  auto r = RunOp(call, {Bytes{}, B64({3, 4, 0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{3, 4, 0}));
}

TEST(ArrayOps, ReshapeErrorsNameShape) {
  ExpectError(RunOp(MakeCall("Reshape", {Desc(DataType::kFloat, {2, 3}), I64({4, 4})}), {}),
              StatusCode::kOpInputNotMatch, "(shape)");
  ExpectError(RunOp(MakeCall("Reshape", {Desc(DataType::kFloat, {2, 3}), I64({-1, -1})}), {}),
              StatusCode::kOpInputNotMatch, "more than one -1");
  ExpectError(RunOp(MakeCall("Reshape", {Desc(DataType::kFloat, {2, 3}), I64({4, -1})}), {}),
              StatusCode::kOpInputNotMatch, "(shape)");
}

TEST(ArrayOps, SqueezeAllOrListed) {
  auto r = RunOp(MakeCall("Squeeze", {Desc(DataType::kBool, {1, 3, 1})}),
                 {Bytes::Of<uint8_t>({1, 0, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{3}));
  EXPECT_EQ(r.outputs[0].As<uint8_t>(), (std::vector<uint8_t>{1, 0, 1}));

  auto call = MakeCall("Squeeze", {Desc(DataType::kFloat, {1, 3, 1})});
  call.attrs["axis"] = std::vector<int64_t>{-1};
  r = RunOp(call, {Bytes::Of(Seq(3))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{1, 3}));

  call.attrs["axis"] = std::vector<int64_t>{1};
  ExpectError(RunOp(call, {}), StatusCode::kOpAttrNotMatch, "'axis'");
  call.attrs["axis"] = std::vector<int64_t>{3};
  ExpectError(RunOp(call, {}), StatusCode::kOpAttrNotMatch, "out of range");
}

TEST(ArrayOps, SqueezeV3AxesInputOptional) {
  auto r = RunOp(MakeCall("SqueezeV3", {Desc(DataType::kFloat, {1, 3, 1}), I64({0})}),
                 {Bytes::Of(Seq(3)), B64({0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{3, 1}));
  r = RunOp(MakeCall("SqueezeV3", {Desc(DataType::kFloat, {1, 3, 1})}), {Bytes::Of(Seq(3))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{3}));
  ExpectError(RunOp(MakeCall("SqueezeV3", {Desc(DataType::kFloat, {1, 3, 1}), I64({1})}), {}),
              StatusCode::kOpInputNotMatch, "(axes)");
}

TEST(ArrayOps, UnsqueezeAndExpandDims) {
  auto call = MakeCall("Unsqueeze", {Desc(DataType::kFloat, {3})});
  call.attrs["axes"] = std::vector<int64_t>{0, -1};
  auto r = RunOp(call, {Bytes::Of(Seq(3))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{1, 3, 1}));
  EXPECT_EQ(r.outputs[0].As<float>(), Seq(3));
  call.attrs["axes"] = std::vector<int64_t>{0, 0};
  ExpectError(RunOp(call, {}), StatusCode::kOpAttrNotMatch, "repeats");

  r = RunOp(MakeCall("UnsqueezeV3", {Desc(DataType::kInt32, {2, 3}), I64({1})}),
            {Bytes::Of<int32_t>({1, 2, 3, 4, 5, 6}), B64({1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{2, 1, 3}));

  r = RunOp(MakeCall("ExpandDims",
                     {Desc(DataType::kBool, {2}), ScalarConst<int32_t>(DataType::kInt32, -1)}),
            {Bytes::Of<uint8_t>({1, 0}), B32({-1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{2, 1}));
  EXPECT_EQ(r.outputs[0].As<uint8_t>(), (std::vector<uint8_t>{1, 0}));
  ExpectError(RunOp(MakeCall("ExpandDims", {Desc(DataType::kFloat, {2}), I32({3})}), {}),
              StatusCode::kOpInputNotMatch, "(axis)");
}

TEST(ArrayOps, FlattenAxis) {
  auto call = MakeCall("Flatten", {Desc(DataType::kFloat16, {2, 3, 4})});
  auto r = RunOp(call, {Bytes::Of(ToHalf(Seq(24)))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{2, 12}));
  EXPECT_EQ(FromHalf(r.outputs[0].As<uint16_t>()), Seq(24));
  call.attrs["axis"] = int64_t{0};
  EXPECT_EQ(OutDims(RunOp(call, {Bytes::Of(ToHalf(Seq(24)))})), (Dims{1, 24}));
  call.attrs["axis"] = int64_t{-1};
  EXPECT_EQ(OutDims(RunOp(call, {Bytes::Of(ToHalf(Seq(24)))})), (Dims{6, 4}));
  call.attrs["axis"] = int64_t{4};
  ExpectError(RunOp(call, {}), StatusCode::kOpAttrNotMatch, "'axis'");
}

// --- Transpose ------------------------------------------------------------------------------

TEST(ArrayOps, TransposeMatchesReference) {
  // x [2, 3, 4], perm [2, 0, 1]: y[k][i][j] = x[i][j][k].
  auto r = RunOp(MakeCall("Transpose", {Desc(DataType::kFloat, {2, 3, 4}), I32({2, 0, 1})}),
                 {Bytes::Of(Seq(24)), B32({2, 0, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{4, 2, 3}));
  std::vector<float> expect;
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) expect.push_back(static_cast<float>(i * 12 + j * 4 + k));
  EXPECT_EQ(r.outputs[0].As<float>(), expect);
}

TEST(ArrayOps, TransposeDFp16AndInt64) {
  auto call = MakeCall("TransposeD", {Desc(DataType::kFloat16, {2, 3})});
  call.attrs["perm"] = std::vector<int64_t>{1, 0};
  auto r = RunOp(call, {Bytes::Of(ToHalf({1, 2, 3, 4, 5, 6}))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FromHalf(r.outputs[0].As<uint16_t>()), (std::vector<float>{1, 4, 2, 5, 3, 6}));

  call.inputs[0] = Desc(DataType::kInt64, {2, 2});
  r = RunOp(call, {Bytes::Of<int64_t>({1LL << 40, 2, 3, -4})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int64_t>(), (std::vector<int64_t>{1LL << 40, 3, 2, -4}));
}

TEST(ArrayOps, TransposeBadPerm) {
  ExpectError(RunOp(MakeCall("Transpose", {Desc(DataType::kFloat, {2, 3}), I32({0, 0})}), {}),
              StatusCode::kOpInputNotMatch, "(perm)");
  ExpectError(RunOp(MakeCall("Transpose", {Desc(DataType::kFloat, {2, 3}), I32({0, 2})}), {}),
              StatusCode::kOpInputNotMatch, "out of range");
  auto call = MakeCall("TransposeD", {Desc(DataType::kFloat, {2, 3})});
  call.attrs["perm"] = std::vector<int64_t>{0};
  ExpectError(RunOp(call, {}), StatusCode::kOpAttrNotMatch, "'perm'");
}

// --- Concat / Pack / Split / Unpack ---------------------------------------------------------

TEST(ArrayOps, ConcatDAlongAxis1WithoutN) {
  auto call = MakeCall("ConcatD", {Desc(DataType::kFloat, {2, 1}), Desc(DataType::kFloat, {2, 2})});
  call.attrs["concat_dim"] = int64_t{-1};
  auto r = RunOp(call, {Bytes::Of<float>({1, 2}), Bytes::Of<float>({3, 4, 5, 6})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{2, 3}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 3, 4, 2, 5, 6}));
  EXPECT_EQ(std::get<int64_t>(r.kernel->call().attrs.at("N")), 2);
}

TEST(ArrayOps, ConcatV2DWithNAndMismatch) {
  auto call = MakeCall("ConcatV2D", {Desc(DataType::kInt64, {1, 2}), Desc(DataType::kInt64, {2, 2}),
                                     Desc(DataType::kInt64, {1, 2})});
  call.attrs["concat_dim"] = int64_t{0};
  call.attrs["N"] = int64_t{3};
  auto r = RunOp(call, {Bytes::Of<int64_t>({1, 2}), Bytes::Of<int64_t>({3, 4, 5, 6}),
                        Bytes::Of<int64_t>({7, 8})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{4, 2}));
  EXPECT_EQ(r.outputs[0].As<int64_t>(), (std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8}));

  call.attrs["concat_dim"] = int64_t{1};
  ExpectError(RunOp(call, {}), StatusCode::kOpInputNotMatch, "x[1]");
  call.attrs["concat_dim"] = int64_t{2};
  ExpectError(RunOp(call, {}), StatusCode::kOpAttrNotMatch, "'concat_dim'");
}

TEST(ArrayOps, ConcatAndConcatV2TakeDimAsInput) {
  // Concat: concat_dim first.
  auto r =
      RunOp(MakeCall("Concat", {ScalarConst<int32_t>(DataType::kInt32, 1),
                                Desc(DataType::kFloat, {2, 1}), Desc(DataType::kFloat, {2, 1})}),
            {B32({1}), Bytes::Of<float>({1, 2}), Bytes::Of<float>({3, 4})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{2, 2}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 3, 2, 4}));
  // ConcatV2: concat_dim last.
  r = RunOp(MakeCall("ConcatV2", {Desc(DataType::kBool, {1, 2}), Desc(DataType::kBool, {1, 2}),
                                  ScalarConst<int64_t>(DataType::kInt64, 0)}),
            {Bytes::Of<uint8_t>({1, 0}), Bytes::Of<uint8_t>({0, 1}), B64({0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{2, 2}));
  EXPECT_EQ(r.outputs[0].As<uint8_t>(), (std::vector<uint8_t>{1, 0, 0, 1}));
  ExpectError(RunOp(MakeCall("ConcatV2", {Desc(DataType::kFloat, {1}), Desc(DataType::kFloat, {1}),
                                          ScalarConst<int64_t>(DataType::kInt64, 1)}),
                    {}),
              StatusCode::kOpInputNotMatch, "(concat_dim)");
}

TEST(ArrayOps, PackAndUnpack) {
  auto call = MakeCall("Pack", {Desc(DataType::kFloat, {2}), Desc(DataType::kFloat, {2})});
  call.attrs["axis"] = int64_t{1};
  auto r = RunOp(call, {Bytes::Of<float>({1, 2}), Bytes::Of<float>({3, 4})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{2, 2}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 3, 2, 4}));
  call.inputs[1] = Desc(DataType::kFloat, {3});
  ExpectError(RunOp(call, {}), StatusCode::kOpInputNotMatch, "x[1]");

  auto un = MakeCall("Unpack", {Desc(DataType::kInt32, {2, 3})}, std::vector<TensorDesc>(3));
  un.attrs["num"] = int64_t{3};
  un.attrs["axis"] = int64_t{-1};
  r = RunOp(un, {Bytes::Of<int32_t>({1, 2, 3, 4, 5, 6})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ASSERT_EQ(r.outputs.size(), 3u);
  EXPECT_EQ(OutDims(r, 2), (Dims{2}));
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{1, 4}));
  EXPECT_EQ(r.outputs[2].As<int32_t>(), (std::vector<int32_t>{3, 6}));
  un.attrs["axis"] = int64_t{0};
  ExpectError(RunOp(un, {}), StatusCode::kOpAttrNotMatch, "'num'");
}

TEST(ArrayOps, SplitDEqualParts) {
  auto call = MakeCall("SplitD", {Desc(DataType::kFloat16, {2, 4})}, std::vector<TensorDesc>(2));
  call.attrs["split_dim"] = int64_t{1};
  call.attrs["num_split"] = int64_t{2};
  auto r = RunOp(call, {Bytes::Of(ToHalf(Seq(8)))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r, 1), (Dims{2, 2}));
  EXPECT_EQ(FromHalf(r.outputs[0].As<uint16_t>()), (std::vector<float>{0, 1, 4, 5}));
  EXPECT_EQ(FromHalf(r.outputs[1].As<uint16_t>()), (std::vector<float>{2, 3, 6, 7}));

  call.outputs.resize(3);
  call.attrs["num_split"] = int64_t{3};
  ExpectError(RunOp(call, {}), StatusCode::kOpAttrNotMatch, "'num_split'");
}

TEST(ArrayOps, SplitVDWithMinusOne) {
  auto call = MakeCall("SplitVD", {Desc(DataType::kInt64, {5})}, std::vector<TensorDesc>(2));
  call.attrs["size_splits"] = std::vector<int64_t>{1, -1};
  call.attrs["split_dim"] = int64_t{0};
  call.attrs["num_split"] = int64_t{2};
  auto r = RunOp(call, {Bytes::Of<int64_t>({1, 2, 3, 4, 5})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int64_t>(), (std::vector<int64_t>{1}));
  EXPECT_EQ(r.outputs[1].As<int64_t>(), (std::vector<int64_t>{2, 3, 4, 5}));
  call.attrs["size_splits"] = std::vector<int64_t>{1, 2};
  ExpectError(RunOp(call, {}), StatusCode::kOpAttrNotMatch, "'size_splits'");
}

TEST(ArrayOps, SplitAndSplitVTakeValuesAsInputs) {
  auto call =
      MakeCall("Split", {ScalarConst<int32_t>(DataType::kInt32, 0), Desc(DataType::kFloat, {4, 1})},
               std::vector<TensorDesc>(2));
  call.attrs["num_split"] = int64_t{2};
  auto r = RunOp(call, {B32({0}), Bytes::Of<float>({1, 2, 3, 4})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[1].As<float>(), (std::vector<float>{3, 4}));

  auto v = MakeCall(
      "SplitV",
      {Desc(DataType::kFloat, {2, 3}), I64({2, 1}), ScalarConst<int32_t>(DataType::kInt32, -1)},
      std::vector<TensorDesc>(2));
  v.attrs["num_split"] = int64_t{2};
  r = RunOp(v, {Bytes::Of(Seq(6)), B64({2, 1}), B32({-1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r, 0), (Dims{2, 2}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{0, 1, 3, 4}));
  EXPECT_EQ(r.outputs[1].As<float>(), (std::vector<float>{2, 5}));
  v.inputs[1] = I64({2, 2});
  ExpectError(RunOp(v, {}), StatusCode::kOpInputNotMatch, "(size_splits)");
}

// --- Slice / StridedSlice -------------------------------------------------------------------

TEST(ArrayOps, SliceWithMinusOneSize) {
  auto r = RunOp(MakeCall("Slice", {Desc(DataType::kFloat, {3, 4}), I64({1, 1}), I64({2, -1})}),
                 {Bytes::Of(Seq(12)), B64({1, 1}), B64({2, -1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{2, 3}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{5, 6, 7, 9, 10, 11}));
  ExpectError(
      RunOp(MakeCall("Slice", {Desc(DataType::kFloat, {3, 4}), I64({1, 1}), I64({3, 1})}), {}),
      StatusCode::kOpInputNotMatch, "(size)");

  auto d = MakeCall("SliceD", {Desc(DataType::kInt32, {4})});
  d.attrs["offsets"] = std::vector<int64_t>{2};
  d.attrs["size"] = std::vector<int64_t>{2};
  r = RunOp(d, {Bytes::Of<int32_t>({1, 2, 3, 4})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{3, 4}));
  d.attrs["offsets"] = std::vector<int64_t>{5};
  ExpectError(RunOp(d, {}), StatusCode::kOpAttrNotMatch, "'offsets'");
}

OpCall StridedSliceCall(const Dims& begin, const Dims& end, const Dims& strides) {
  return MakeCall("StridedSlice",
                  {Desc(DataType::kFloat, {2, 3, 4}), I64(begin), I64(end), I64(strides)});
}

RunResult RunStridedSlice(OpCall call) {
  std::vector<Bytes> in = {Bytes::Of(Seq(24))};
  for (size_t i = 1; i < 4; ++i) in.push_back(Bytes{*call.inputs[i].value});
  return RunOp(std::move(call), in);
}

TEST(ArrayOps, StridedSliceBasic) {
  auto r = RunStridedSlice(StridedSliceCall({0, 1}, {2, 3}, {1, 1}));
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{2, 2, 4}));
  std::vector<float> expect;
  for (int i = 0; i < 2; ++i)
    for (int j = 1; j < 3; ++j)
      for (int k = 0; k < 4; ++k) expect.push_back(static_cast<float>(i * 12 + j * 4 + k));
  EXPECT_EQ(r.outputs[0].As<float>(), expect);
}

TEST(ArrayOps, StridedSliceMasksShrinkAndNegativeStride) {
  // x[:, -1, ::-2]
  auto call = StridedSliceCall({0, -1, 0}, {0, 0, 0}, {1, 1, -2});
  call.attrs["begin_mask"] = int64_t{5};
  call.attrs["end_mask"] = int64_t{5};
  call.attrs["shrink_axis_mask"] = int64_t{2};
  auto r = RunStridedSlice(call);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{2, 2}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{11, 9, 23, 21}));
}

TEST(ArrayOps, StridedSliceEllipsisAndNewAxis) {
  // x[..., None, 1]
  auto call = StridedSliceCall({0, 0, 1}, {0, 0, 2}, {1, 1, 1});
  call.attrs["ellipsis_mask"] = int64_t{1};
  call.attrs["new_axis_mask"] = int64_t{2};
  call.attrs["shrink_axis_mask"] = int64_t{4};
  auto r = RunStridedSlice(call);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{2, 3, 1}));
  std::vector<float> expect;
  for (int i = 0; i < 6; ++i) expect.push_back(static_cast<float>(i * 4 + 1));
  EXPECT_EQ(r.outputs[0].As<float>(), expect);
}

TEST(ArrayOps, StridedSliceDAndErrors) {
  auto call = MakeCall("StridedSliceD", {Desc(DataType::kFloat16, {5})});
  call.attrs["begin"] = std::vector<int64_t>{-1};
  call.attrs["end"] = std::vector<int64_t>{-100};
  call.attrs["strides"] = std::vector<int64_t>{-2};
  auto r = RunOp(call, {Bytes::Of(ToHalf({1, 2, 3, 4, 5}))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FromHalf(r.outputs[0].As<uint16_t>()), (std::vector<float>{5, 3, 1}));
  call.attrs["strides"] = std::vector<int64_t>{0};
  ExpectError(RunOp(call, {}), StatusCode::kOpAttrNotMatch, "'strides'");
  // Without shrinking an out-of-range begin clamps to an empty slice.
  auto r2 = RunStridedSlice(StridedSliceCall({0, 5}, {1, 6}, {1, 1}));
  ASSERT_TRUE(r2.status.ok()) << r2.status.message();
  EXPECT_EQ(OutDims(r2), (Dims{1, 0, 4}));
  auto shrink = StridedSliceCall({0, 5}, {1, 6}, {1, 1});
  shrink.attrs["shrink_axis_mask"] = int64_t{2};
  ExpectError(RunStridedSlice(shrink), StatusCode::kOpInputNotMatch, "(begin)");
}

TEST(ArrayOps, StridedSliceV2OnnxSemantics) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  // Reverse axis 1 with ends = INT64_MIN.
  auto r = RunOp(MakeCall("StridedSliceV2", {Desc(DataType::kFloat, {3, 4}), I64({-1}), I64({kMin}),
                                             I64({1}), I64({-1})}),
                 {Bytes::Of(Seq(12)), B64({-1}), B64({kMin}), B64({1}), B64({-1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{3, 4}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8}));
  // No axes / steps: starts [1], ends [INT64_MAX] on axis 0.
  r = RunOp(MakeCall("StridedSliceV2", {Desc(DataType::kInt64, {3, 2}), I64({1}), I64({kMax})}),
            {Bytes::Of<int64_t>({1, 2, 3, 4, 5, 6}), B64({1}), B64({kMax})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{2, 2}));
  EXPECT_EQ(r.outputs[0].As<int64_t>(), (std::vector<int64_t>{3, 4, 5, 6}));
  // Step 2 with a placeholder for axes.
  r = RunOp(
      MakeCall("StridedSliceV2", {Desc(DataType::kFloat, {3, 4}), I64({0, 1}), I64({1000, 1000}),
                                  Desc(DataType::kUndefined, {}), I64({2, 2})}),
      {Bytes::Of(Seq(12)), B64({0, 1}), B64({1000, 1000}), Bytes{}, B64({2, 2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{2, 2}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 3, 9, 11}));
  // Masks per entry: begin_mask on entry 0 (axis 1, step -1: from the end), shrink entry 1
  // (axis 0, row 2).
  auto masked = MakeCall("StridedSliceV2", {Desc(DataType::kFloat, {3, 4}), I64({0, 2}),
                                            I64({0, 3}), I64({1, 0}), I64({-1, 1})});
  masked.attrs["begin_mask"] = int64_t{1};
  masked.attrs["shrink_axis_mask"] = int64_t{2};
  r = RunOp(masked, {Bytes::Of(Seq(12)), B64({0, 2}), B64({0, 3}), B64({1, 0}), B64({-1, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{3}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{11, 10, 9}));
  masked.attrs["new_axis_mask"] = int64_t{1};
  ExpectError(RunOp(masked, {}), StatusCode::kOpAttrNotMatch, "'new_axis_mask'");
  ExpectError(RunOp(MakeCall("StridedSliceV2", {Desc(DataType::kFloat, {3, 4}), I64({0}), I64({1}),
                                                I64({0}), I64({0})}),
                    {}),
              StatusCode::kOpInputNotMatch, "(strides)");
  ExpectError(RunOp(MakeCall("StridedSliceV2",
                             {Desc(DataType::kFloat, {3, 4}), I64({0}), I64({1}), I64({2})}),
                    {}),
              StatusCode::kOpInputNotMatch, "(axes)");
}

// --- Tile, BroadcastTo, Expand --------------------------------------------------------------

TEST(ArrayOps, TileAndTileD) {
  auto r = RunOp(MakeCall("Tile", {Desc(DataType::kFloat, {2, 1}), I32({2, 3})}),
                 {Bytes::Of<float>({1, 2}), B32({2, 3})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{4, 3}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2}));
  auto d = MakeCall("TileD", {Desc(DataType::kBool, {2})});
  d.attrs["multiples"] = std::vector<int64_t>{2};
  r = RunOp(d, {Bytes::Of<uint8_t>({1, 0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<uint8_t>(), (std::vector<uint8_t>{1, 0, 1, 0}));
  d.attrs["multiples"] = std::vector<int64_t>{-1};
  ExpectError(RunOp(d, {}), StatusCode::kOpAttrNotMatch, "'multiples'");
  ExpectError(RunOp(MakeCall("Tile", {Desc(DataType::kFloat, {2, 1}), I32({2})}), {}),
              StatusCode::kOpInputNotMatch, "(multiples)");
}

TEST(ArrayOps, BroadcastToAndExpand) {
  auto r = RunOp(MakeCall("BroadcastTo", {Desc(DataType::kInt32, {3}), I64({2, 3})}),
                 {Bytes::Of<int32_t>({1, 2, 3}), B64({2, 3})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{1, 2, 3, 1, 2, 3}));
  // One-directional: [2, 3] cannot become [3].
  ExpectError(RunOp(MakeCall("BroadcastTo", {Desc(DataType::kFloat, {2, 3}), I64({3})}), {}),
              StatusCode::kOpInputNotMatch, "(shape)");
  auto d = MakeCall("BroadcastToD", {Desc(DataType::kFloat, {2, 1})});
  d.attrs["shape"] = std::vector<int64_t>{2, 2};
  r = RunOp(d, {Bytes::Of<float>({1, 2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 1, 2, 2}));
  d.attrs["shape"] = std::vector<int64_t>{3, 3};
  ExpectError(RunOp(d, {}), StatusCode::kOpAttrNotMatch, "'shape'");

  // Expand is bidirectional: [3, 1] with shape [2, 1, 4] -> [2, 3, 4]; shape [1] keeps x.
  r = RunOp(MakeCall("Expand", {Desc(DataType::kFloat, {3, 1}), I64({2, 1, 4})}),
            {Bytes::Of<float>({1, 2, 3}), B64({2, 1, 4})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{2, 3, 4}));
  auto out = r.outputs[0].As<float>();
  ASSERT_EQ(out.size(), 24u);
  for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], static_cast<float>(i / 4 % 3 + 1));
  r = RunOp(MakeCall("Expand", {Desc(DataType::kFloat, {3, 1}), I64({1})}),
            {Bytes::Of<float>({1, 2, 3}), B64({1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{3, 1}));
}

// --- Pad ------------------------------------------------------------------------------------

TEST(ArrayOps, PadPadDPadV2) {
  auto r = RunOp(MakeCall("Pad", {Desc(DataType::kFloat, {2, 2}),
                                  ConstDesc<int32_t>(DataType::kInt32, {2, 2}, {1, 0, 0, 1})}),
                 {Bytes::Of<float>({1, 2, 3, 4}), B32({1, 0, 0, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{3, 3}));
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{0, 0, 0, 1, 2, 0, 3, 4, 0}));

  auto d = MakeCall("PadD", {Desc(DataType::kInt64, {2})});
  d.attrs["paddings"] = std::vector<std::vector<int64_t>>{{2, 1}};
  r = RunOp(d, {Bytes::Of<int64_t>({7, 8})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int64_t>(), (std::vector<int64_t>{0, 0, 7, 8, 0}));
  d.attrs["paddings"] = std::vector<std::vector<int64_t>>{{-1, 0}};
  ExpectError(RunOp(d, {}), StatusCode::kOpAttrNotMatch, "'paddings'");

  r = RunOp(
      MakeCall("PadV2", {Desc(DataType::kFloat16, {2}), I64({1, 1}), Desc(DataType::kFloat16, {})}),
      {Bytes::Of(ToHalf({1, 2})), B64({1, 1}), Bytes::Of(ToHalf({9.5f}))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FromHalf(r.outputs[0].As<uint16_t>()), (std::vector<float>{9.5f, 1, 2, 9.5f}));
  ExpectError(RunOp(MakeCall("PadV2", {Desc(DataType::kFloat, {2}), I64({1, 1, 1, 1}),
                                       Desc(DataType::kFloat, {})}),
                    {}),
              StatusCode::kOpInputNotMatch, "(paddings)");
}

TEST(ArrayOps, PadV3Modes) {
  auto call = MakeCall("PadV3", {Desc(DataType::kFloat, {3}), I64({2, 2})});
  call.attrs["mode"] = std::string("reflect");
  auto r = RunOp(call, {Bytes::Of<float>({1, 2, 3}), B64({2, 2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{3, 2, 1, 2, 3, 2, 1}));
  call.attrs["mode"] = std::string("edge");
  r = RunOp(call, {Bytes::Of<float>({1, 2, 3}), B64({2, 2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{1, 1, 1, 2, 3, 3, 3}));
  call.attrs["mode"] = std::string("wrap");
  ExpectError(RunOp(call, {}), StatusCode::kOpAttrNotMatch, "'mode'");
}

TEST(ArrayOps, PadV3OnnxOrderNegativePadsAndValue) {
  // x [2, 2]; ONNX pads [b0, b1, e0, e1] = [0, 1, 1, -1], value 7:
  // dim 0: +1 at the end; dim 1: +1 at the start, -1 at the end.
  auto call = MakeCall("PadV3", {Desc(DataType::kInt32, {2, 2}), I64({0, 1, 1, -1}),
                                 ScalarConst<int32_t>(DataType::kInt32, 7)});
  call.attrs["paddings_contiguous"] = false;
  auto r = RunOp(call, {Bytes::Of<int32_t>({1, 2, 3, 4}), B64({0, 1, 1, -1}), B32({7})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{3, 2}));
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{7, 1, 7, 3, 7, 7}));

  auto d = MakeCall("PadV3D", {Desc(DataType::kFloat, {2})});
  d.attrs["paddings"] = std::vector<std::vector<int64_t>>{{1, 0}};
  d.attrs["constant_values"] = int64_t{5};
  r = RunOp(d, {Bytes::Of<float>({1, 2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{5, 1, 2}));
}

// --- Fill, Range, Shape, Size ---------------------------------------------------------------

TEST(ArrayOps, FillAndFillD) {
  auto r = RunOp(MakeCall("Fill", {I64({2, 3}), Desc(DataType::kFloat16, {})}),
                 {B64({2, 3}), Bytes::Of(ToHalf({1.5f}))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(OutDims(r), (Dims{2, 3}));
  EXPECT_EQ(r.kernel->call().outputs[0].dtype, DataType::kFloat16);
  EXPECT_EQ(FromHalf(r.outputs[0].As<uint16_t>()), std::vector<float>(6, 1.5f));
  ExpectError(RunOp(MakeCall("Fill", {I64({2, -3}), Desc(DataType::kFloat, {})}), {}),
              StatusCode::kOpInputNotMatch, "(dims)");

  auto d = MakeCall("FillD", {Desc(DataType::kBool, {1})});
  d.attrs["dims"] = std::vector<int64_t>{3};
  r = RunOp(d, {Bytes::Of<uint8_t>({1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<uint8_t>(), (std::vector<uint8_t>{1, 1, 1}));
}

TEST(ArrayOps, RangeIntFloatNegativeAndErrors) {
  auto r = RunOp(MakeCall("Range", {ScalarConst<int32_t>(DataType::kInt32, 0),
                                    ScalarConst<int32_t>(DataType::kInt32, 10),
                                    ScalarConst<int32_t>(DataType::kInt32, 3)}),
                 {B32({0}), B32({10}), B32({3})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{0, 3, 6, 9}));

  r = RunOp(MakeCall("Range", {ScalarConst<int64_t>(DataType::kInt64, 10),
                               ScalarConst<int64_t>(DataType::kInt64, 4),
                               ScalarConst<int64_t>(DataType::kInt64, -2)}),
            {B64({10}), B64({4}), B64({-2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int64_t>(), (std::vector<int64_t>{10, 8, 6}));

  r = RunOp(MakeCall("Range", {ScalarConst<float>(DataType::kFloat, 1),
                               ScalarConst<float>(DataType::kFloat, 2),
                               ScalarConst<float>(DataType::kFloat, 0.3f)}),
            {Bytes::Of<float>({1}), Bytes::Of<float>({2}), Bytes::Of<float>({0.3f})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  auto values = r.outputs[0].As<float>();
  ASSERT_EQ(values.size(), 4u);
  EXPECT_FLOAT_EQ(values[3], 1.9f);

  auto closed = MakeCall("Range", {ScalarConst<int32_t>(DataType::kInt32, 0),
                                   ScalarConst<int32_t>(DataType::kInt32, 6),
                                   ScalarConst<int32_t>(DataType::kInt32, 3)});
  closed.attrs["is_closed"] = true;
  r = RunOp(closed, {B32({0}), B32({6}), B32({3})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{0, 3, 6}));

  ExpectError(RunOp(MakeCall("Range", {ScalarConst<int32_t>(DataType::kInt32, 0),
                                       ScalarConst<int32_t>(DataType::kInt32, 6),
                                       ScalarConst<int32_t>(DataType::kInt32, 0)}),
                    {}),
              StatusCode::kOpInputNotMatch, "(delta)");
}

TEST(ArrayOps, RangeRefusesCountsNoTensorCanHold) {
  // int64 ends whose difference overflows 64 bits, and float ranges of more than 2^63 steps:
  // refused at shape inference, never a wrapped (negative) output dim.
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  OpCall ints = MakeCall("Range", {ScalarConst<int64_t>(DataType::kInt64, kMin),
                                   ScalarConst<int64_t>(DataType::kInt64, kMax),
                                   ScalarConst<int64_t>(DataType::kInt64, 1)});
  Status s = OpLibrary::Builtin().InferShape(&ints);
  EXPECT_EQ(s.code(), StatusCode::kOpInputNotMatch) << s.message();
  EXPECT_NE(s.message().find("more than"), std::string::npos) << s.message();
  OpCall floats = MakeCall("Range", {ScalarConst<float>(DataType::kFloat, 0),
                                     ScalarConst<float>(DataType::kFloat, 1e30f),
                                     ScalarConst<float>(DataType::kFloat, 1e-10f)});
  s = OpLibrary::Builtin().InferShape(&floats);
  EXPECT_EQ(s.code(), StatusCode::kOpInputNotMatch) << s.message();
  OpCall fits = MakeCall("Range", {ScalarConst<int64_t>(DataType::kInt64, kMax - 2),
                                   ScalarConst<int64_t>(DataType::kInt64, kMax),
                                   ScalarConst<int64_t>(DataType::kInt64, 1)});
  ASSERT_TRUE(OpLibrary::Builtin().InferShape(&fits).ok());
  EXPECT_EQ(fits.outputs[0].dims, (std::vector<int64_t>{2}));
}

TEST(ArrayOps, ShapeAndSize) {
  auto r = RunOp(MakeCall("Shape", {Desc(DataType::kBool, {2, 3, 4})}), {Bytes{}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dtype, DataType::kInt32);
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{2, 3, 4}));

  auto call = MakeCall("Shape", {Desc(DataType::kFloat, {5, 0})});
  call.attrs["dtype"] = int64_t{9};
  r = RunOp(call, {Bytes{}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int64_t>(), (std::vector<int64_t>{5, 0}));
  call.attrs["dtype"] = int64_t{0};
  ExpectError(RunOp(call, {}), StatusCode::kOpAttrNotMatch, "'dtype'");

  auto size = MakeCall("Size", {Desc(DataType::kInt64, {2, 3})});
  size.attrs["dtype"] = DataType::kInt64;
  r = RunOp(size, {Bytes::Of<int64_t>({0, 0, 0, 0, 0, 0})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_TRUE(OutDims(r).empty());
  EXPECT_EQ(r.outputs[0].As<int64_t>(), (std::vector<int64_t>{6}));
}

}  // namespace
}  // namespace aclsim::ops::testing
