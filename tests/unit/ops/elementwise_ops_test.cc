// Elementwise ops of the sim op library: shapes, broadcasting, dtypes, errors.
#include "tests/unit/ops/op_test_util.h"

namespace aclsim::sim::ops::testing {
namespace {

TEST(ElementwiseOps, AddBroadcastsFloat) {
  driver::OpCall call =
      MakeCall("Add", {Desc(DataType::kFloat, {2, 3}), Desc(DataType::kFloat, {3})});
  auto r = RunOp(call, {Bytes::Of<float>({1, 2, 3, 4, 5, 6}), Bytes::Of<float>({10, 20, 30})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(r.outputs[0].template As<float>(), (std::vector<float>{11, 22, 33, 14, 25, 36}));
}

TEST(ElementwiseOps, AddFp16ComputesInFloat) {
  driver::OpCall call =
      MakeCall("Add", {Desc(DataType::kFloat16, {3}), Desc(DataType::kFloat16, {3})});
  auto r = RunOp(call, {Bytes::Of(ToHalf({1.5f, -2, 1000})), Bytes::Of(ToHalf({0.25f, 2, 24}))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FromHalf(r.outputs[0].template As<uint16_t>()), (std::vector<float>{1.75f, 0, 1024}));
}

TEST(ElementwiseOps, AddInt32BroadcastsBothWays) {
  driver::OpCall call =
      MakeCall("Add", {Desc(DataType::kInt32, {2, 1}), Desc(DataType::kInt32, {1, 3})});
  auto r = RunOp(call, {Bytes::Of<int32_t>({1, 2}), Bytes::Of<int32_t>({10, 20, 30})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].template As<int32_t>(), (std::vector<int32_t>{11, 21, 31, 12, 22, 32}));
}

TEST(ElementwiseOps, MismatchedShapesNameBothInputs) {
  driver::OpCall call =
      MakeCall("Add", {Desc(DataType::kFloat, {2, 3}), Desc(DataType::kFloat, {4})});
  auto r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("input 0 (x1)"), std::string::npos) << r.status.message();
  EXPECT_NE(r.status.message().find("input 1 (x2)"), std::string::npos) << r.status.message();
}

TEST(ElementwiseOps, UnknownTypeIsTypeNotMatch) {
  driver::OpCall call = MakeCall("NoSuchOp", {Desc(DataType::kFloat, {1})});
  EXPECT_EQ(RunOp(call, {}).status.code(), StatusCode::kOpTypeNotMatch);
}

TEST(ElementwiseOps, WrongInputCount) {
  driver::OpCall call = MakeCall("Add", {Desc(DataType::kFloat, {1})});
  auto r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("x1, x2"), std::string::npos) << r.status.message();
}

TEST(ElementwiseOps, OutputDescriptorMismatch) {
  driver::OpCall call = MakeCall("Add", {Desc(DataType::kFloat, {2}), Desc(DataType::kFloat, {2})},
                                 {Desc(DataType::kFloat16, {2})});
  EXPECT_EQ(RunOp(call, {}).status.code(), StatusCode::kOpOutputNotMatch);
}

TEST(ElementwiseOps, CastFloatToHalfWithIntDstType) {
  driver::OpCall call = MakeCall("Cast", {Desc(DataType::kFloat, {3})});
  call.attrs["dst_type"] = int64_t{1};
  auto r = RunOp(call, {Bytes::Of<float>({1.0f, 0.1f, 65504.0f})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dtype, DataType::kFloat16);
  EXPECT_EQ(r.outputs[0].template As<uint16_t>(),
            (std::vector<uint16_t>{0x3c00, FloatToHalf(0.1f), 0x7bff}));
}

TEST(ElementwiseOps, CastMissingDstTypeIsAttrNotMatch) {
  driver::OpCall call = MakeCall("Cast", {Desc(DataType::kFloat, {3})});
  auto r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch);
  EXPECT_NE(r.status.message().find("dst_type"), std::string::npos);
}

TEST(ElementwiseOps, UnknownAttributesAreIgnored) {
  driver::OpCall call = MakeCall("Add", {Desc(DataType::kFloat, {1}), Desc(DataType::kFloat, {1})});
  call.attrs["need_fusion"] = int64_t{1};
  auto r = RunOp(call, {Bytes::Of<float>({1}), Bytes::Of<float>({2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].template As<float>()[0], 3.0f);
}

TEST(ElementwiseOps, Nc1hwc0StorageRoundTrips) {
  // x: NCHW [1, 2, 1, 2] stored as NC1HWC0 [1, 1, 1, 2, 16]; y = x + x in the same layout.
  auto x = Desc(DataType::kFloat, {1, 2, 1, 2}, Format::kNchw);
  x.storage_format = Format::kNc1hwc0;
  auto y = x;
  driver::OpCall call = MakeCall("Add", {x, x}, {y});
  std::vector<float> stored(32, 0.0f);
  stored[0] = 1;   // (c0, w0)
  stored[1] = 2;   // (c1, w0)
  stored[16] = 3;  // (c0, w1)
  stored[17] = 4;  // (c1, w1)
  auto r = RunOp(call, {Bytes::Of(stored), Bytes::Of(stored)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  auto out = r.outputs[0].template As<float>();
  ASSERT_EQ(out.size(), 32u);
  EXPECT_EQ(out[0], 2);
  EXPECT_EQ(out[1], 4);
  EXPECT_EQ(out[16], 6);
  EXPECT_EQ(out[17], 8);
  EXPECT_EQ(out[2], 0);
}

TEST(ElementwiseOps, DefaultWorkRunsOnVectorCores) {
  driver::OpCall call =
      MakeCall("Add", {Desc(DataType::kFloat, {1 << 20}), Desc(DataType::kFloat, {1 << 20})});
  auto kernel = SimOpLibrary::Instance().Compile(call, TestProps());
  ASSERT_TRUE(kernel.ok());
  EXPECT_EQ(kernel.value()->engine(), driver::Engine::kAiVector);
  EXPECT_EQ(kernel.value()->blocks(), 48u);
  EXPECT_EQ(kernel.value()->work().gm_read_bytes, 8u << 20);
  EXPECT_EQ(kernel.value()->work().gm_write_bytes, 4u << 20);
}

}  // namespace
}  // namespace aclsim::sim::ops::testing
