// RmsNorm, RotaryPositionEmbedding, Tril / Triu and InplaceIndexCopy of the sim op library:
// values against hand computations, broadcasting, in-place use, errors.
#include <cmath>
#include <cstdint>

#include "tests/unit/ops/op_test_util.h"

namespace aclsim::ops::testing {
namespace {

using Ints = std::vector<int64_t>;
using Floats = std::vector<float>;

TEST(LlmOps, RmsNormRowsAndRstd) {
  OpCall call = MakeCall("RmsNorm", {Desc(DataType::kFloat, {2, 2}), Desc(DataType::kFloat, {2})});
  call.attrs["epsilon"] = 0.0f;
  auto r = RunOp(call, {Bytes::Of(Floats{3, 4, 1, 1}), Bytes::Of(Floats{1, 2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ASSERT_EQ(r.kernel->call().outputs.size(), 2u);
  EXPECT_EQ(r.kernel->call().outputs[1].dims, (Ints{2, 1}));
  EXPECT_EQ(r.kernel->call().outputs[1].dtype, DataType::kFloat);
  const auto y = r.outputs[0].As<float>();
  const float inv0 = 1.0f / std::sqrt(12.5f);
  EXPECT_FLOAT_EQ(y[0], 3 * inv0);
  EXPECT_FLOAT_EQ(y[1], 4 * inv0 * 2);
  EXPECT_FLOAT_EQ(y[2], 1);
  EXPECT_FLOAT_EQ(y[3], 2);
  const auto rstd = r.outputs[1].As<float>();
  EXPECT_FLOAT_EQ(rstd[0], inv0);
  EXPECT_FLOAT_EQ(rstd[1], 1);
}

TEST(LlmOps, RmsNormHalfAndDefaultEpsilon) {
  OpCall call =
      MakeCall("RmsNorm", {Desc(DataType::kFloat16, {1, 4}), Desc(DataType::kFloat16, {4})});
  auto r = RunOp(call, {Bytes::Of(ToHalf({0, 0, 0, 0})), Bytes::Of(ToHalf({1, 1, 1, 1}))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FromHalf(r.outputs[0].As<uint16_t>()), (Floats{0, 0, 0, 0}));
  EXPECT_NEAR(r.outputs[1].As<float>()[0], 1000.0f, 0.01f);  // 1/sqrt(1e-6)
}

TEST(LlmOps, RmsNormGammaMustBeTrailingDims) {
  auto r = RunOp(MakeCall("RmsNorm", {Desc(DataType::kFloat, {2, 3}), Desc(DataType::kFloat, {2})}),
                 {Bytes::Of(Floats(6)), Bytes::Of(Floats(2))});
  ExpectError(r, StatusCode::kOpInputNotMatch, "trailing dims");
}

TEST(LlmOps, RopeHalfWithBroadcastCosSin) {
  // x [2 rows, 4]; cos/sin [1, 4] broadcast over the rows.
  const Floats x = {1, 2, 3, 4, 5, 6, 7, 8};
  const Floats cos = {1, 1, 0, 0};
  const Floats sin = {0, 0, 1, 1};
  OpCall call = MakeCall("RotaryPositionEmbedding",
                         {Desc(DataType::kFloat, {2, 4}), Desc(DataType::kFloat, {1, 4}),
                          Desc(DataType::kFloat, {1, 4})});
  auto r = RunOp(call, {Bytes::Of(x), Bytes::Of(cos), Bytes::Of(sin)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  // rotate_half(x) = [-x2, -x3, x0, x1]; y = x*cos + rot*sin.
  EXPECT_EQ(r.outputs[0].As<float>(), (Floats{1, 2, 1, 2, 5, 6, 5, 6}));
}

TEST(LlmOps, RopeInterleave) {
  const Floats x = {1, 2, 3, 4};
  OpCall call = MakeCall(
      "RotaryPositionEmbedding",
      {Desc(DataType::kFloat, {4}), Desc(DataType::kFloat, {4}), Desc(DataType::kFloat, {4})});
  call.attrs["mode"] = int64_t{1};
  auto r =
      RunOp(call, {Bytes::Of(x), Bytes::Of(Floats{0, 0, 0, 0}), Bytes::Of(Floats{1, 1, 1, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  // Pairs (x0, x1) -> (-x1, x0).
  EXPECT_EQ(r.outputs[0].As<float>(), (Floats{-2, 1, -4, 3}));
}

TEST(LlmOps, RopeErrors) {
  OpCall call = MakeCall(
      "RotaryPositionEmbedding",
      {Desc(DataType::kFloat, {3}), Desc(DataType::kFloat, {3}), Desc(DataType::kFloat, {3})});
  ExpectError(RunOp(call, {Bytes::Of(Floats(3)), Bytes::Of(Floats(3)), Bytes::Of(Floats(3))}),
              StatusCode::kOpInputNotMatch, "even last dim");
  call = MakeCall(
      "RotaryPositionEmbedding",
      {Desc(DataType::kFloat, {4}), Desc(DataType::kFloat, {4}), Desc(DataType::kFloat, {4})});
  call.attrs["mode"] = int64_t{2};
  ExpectError(RunOp(call, {Bytes::Of(Floats(4)), Bytes::Of(Floats(4)), Bytes::Of(Floats(4))}),
              StatusCode::kOpAttrNotMatch, "mode 2");
  call = MakeCall("RotaryPositionEmbedding",
                  {Desc(DataType::kFloat, {2, 4}), Desc(DataType::kFloat, {3, 4}),
                   Desc(DataType::kFloat, {2, 4})});
  ExpectError(RunOp(call, {Bytes::Of(Floats(8)), Bytes::Of(Floats(12)), Bytes::Of(Floats(8))}),
              StatusCode::kOpInputNotMatch, "does not broadcast");
}

TEST(LlmOps, TrilTriuWithDiagonal) {
  const std::vector<int32_t> x = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  OpCall call = MakeCall("Tril", {Desc(DataType::kInt32, {3, 3})});
  auto r = RunOp(call, {Bytes::Of(x)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{1, 0, 0, 4, 5, 0, 7, 8, 9}));
  call = MakeCall("Triu", {Desc(DataType::kInt32, {3, 3})});
  call.attrs["diagonal"] = int64_t{1};
  r = RunOp(call, {Bytes::Of(x)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{0, 2, 3, 0, 0, 6, 0, 0, 0}));
  call = MakeCall("Tril", {Desc(DataType::kInt32, {1, 3, 3})});
  call.attrs["diagonal"] = int64_t{-1};
  r = RunOp(call, {Bytes::Of(x)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{0, 0, 0, 4, 0, 0, 7, 8, 0}));
  // Diagonals past the matrix keep everything or nothing, even at the int64 limits.
  for (const int64_t d : {INT64_MAX, INT64_MIN}) {
    call = MakeCall("Tril", {Desc(DataType::kInt32, {3, 3})});
    call.attrs["diagonal"] = d;
    r = RunOp(call, {Bytes::Of(x)});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    EXPECT_EQ(r.outputs[0].As<int32_t>(), d > 0 ? x : std::vector<int32_t>(9, 0));
  }
  ExpectError(RunOp(MakeCall("Triu", {Desc(DataType::kInt32, {3})}), {Bytes::Of(x)}),
              StatusCode::kOpInputNotMatch, "at least 2 dims");
}

TEST(LlmOps, InplaceIndexCopyRowsAndColumns) {
  const Floats x = {1, 2, 3, 4, 5, 6};  // [3, 2]
  OpCall call =
      MakeCall("InplaceIndexCopy", {Desc(DataType::kFloat, {3, 2}), Desc(DataType::kInt64, {2}),
                                    Desc(DataType::kFloat, {2, 2})});
  auto r = RunOp(call, {Bytes::Of(x), Bytes::Of(Ints{2, -3}), Bytes::Of(Floats{10, 20, 30, 40})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (Floats{30, 40, 3, 4, 10, 20}));
  call = MakeCall("InplaceIndexCopy", {Desc(DataType::kFloat, {3, 2}), Desc(DataType::kInt32, {1}),
                                       Desc(DataType::kFloat, {3, 1})});
  call.attrs["dim"] = int64_t{-1};
  r = RunOp(call, {Bytes::Of(x), Bytes::Of(std::vector<int32_t>{1}), Bytes::Of(Floats{7, 8, 9})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<float>(), (Floats{1, 7, 3, 8, 5, 9}));
  // The work counts the moved updates, not the whole tensor.
  EXPECT_EQ(r.kernel->work().gm_write_bytes, 3 * sizeof(float));
}

TEST(LlmOps, InplaceIndexCopyErrors) {
  OpCall call =
      MakeCall("InplaceIndexCopy", {Desc(DataType::kFloat, {3, 2}), Desc(DataType::kInt64, {1}),
                                    Desc(DataType::kFloat, {2, 2})});
  ExpectError(RunOp(call, {Bytes::Of(Floats(6)), Bytes::Of(Ints{0}), Bytes::Of(Floats(4))}),
              StatusCode::kOpInputNotMatch, "needs [1, 2]");
  call = MakeCall("InplaceIndexCopy", {Desc(DataType::kFloat, {3, 2}), Desc(DataType::kInt64, {1}),
                                       Desc(DataType::kFloat, {1, 2})});
  ExpectError(RunOp(call, {Bytes::Of(Floats(6)), Bytes::Of(Ints{3}), Bytes::Of(Floats(2))}),
              StatusCode::kOpInputNotMatch, "out of range");
  call.attrs["dim"] = int64_t{2};
  ExpectError(RunOp(call, {Bytes::Of(Floats(6)), Bytes::Of(Ints{0}), Bytes::Of(Floats(2))}),
              StatusCode::kOpAttrNotMatch, "dim");
}

}  // namespace
}  // namespace aclsim::ops::testing
