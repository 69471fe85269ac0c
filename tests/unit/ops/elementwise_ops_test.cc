// Elementwise ops of the sim op library: shapes, broadcasting, dtypes, errors.
#include <cmath>
#include <limits>
#include <string>

#include "tests/unit/ops/op_test_util.h"

namespace aclsim::ops::testing {
namespace {

TEST(ElementwiseOps, AddBroadcastsFloat) {
  OpCall call = MakeCall("Add", {Desc(DataType::kFloat, {2, 3}), Desc(DataType::kFloat, {3})});
  auto r = RunOp(call, {Bytes::Of<float>({1, 2, 3, 4, 5, 6}), Bytes::Of<float>({10, 20, 30})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(r.outputs[0].template As<float>(), (std::vector<float>{11, 22, 33, 14, 25, 36}));
}

TEST(ElementwiseOps, AddFp16ComputesInFloat) {
  OpCall call = MakeCall("Add", {Desc(DataType::kFloat16, {3}), Desc(DataType::kFloat16, {3})});
  auto r = RunOp(call, {Bytes::Of(ToHalf({1.5f, -2, 1000})), Bytes::Of(ToHalf({0.25f, 2, 24}))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FromHalf(r.outputs[0].template As<uint16_t>()), (std::vector<float>{1.75f, 0, 1024}));
}

TEST(ElementwiseOps, AddInt32BroadcastsBothWays) {
  OpCall call = MakeCall("Add", {Desc(DataType::kInt32, {2, 1}), Desc(DataType::kInt32, {1, 3})});
  auto r = RunOp(call, {Bytes::Of<int32_t>({1, 2}), Bytes::Of<int32_t>({10, 20, 30})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].template As<int32_t>(), (std::vector<int32_t>{11, 21, 31, 12, 22, 32}));
}

TEST(ElementwiseOps, MismatchedShapesNameBothInputs) {
  OpCall call = MakeCall("Add", {Desc(DataType::kFloat, {2, 3}), Desc(DataType::kFloat, {4})});
  auto r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("input 0 (x1)"), std::string::npos) << r.status.message();
  EXPECT_NE(r.status.message().find("input 1 (x2)"), std::string::npos) << r.status.message();
}

TEST(ElementwiseOps, UnknownTypeIsTypeNotMatch) {
  OpCall call = MakeCall("NoSuchOp", {Desc(DataType::kFloat, {1})});
  EXPECT_EQ(RunOp(call, {}).status.code(), StatusCode::kOpTypeNotMatch);
}

TEST(ElementwiseOps, WrongInputCount) {
  OpCall call = MakeCall("Add", {Desc(DataType::kFloat, {1})});
  auto r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("x1, x2"), std::string::npos) << r.status.message();
}

TEST(ElementwiseOps, OutputDescriptorMismatch) {
  OpCall call = MakeCall("Add", {Desc(DataType::kFloat, {2}), Desc(DataType::kFloat, {2})},
                         {Desc(DataType::kFloat16, {2})});
  EXPECT_EQ(RunOp(call, {}).status.code(), StatusCode::kOpOutputNotMatch);
}

TEST(ElementwiseOps, CastFloatToHalfWithIntDstType) {
  OpCall call = MakeCall("Cast", {Desc(DataType::kFloat, {3})});
  call.attrs["dst_type"] = int64_t{1};
  auto r = RunOp(call, {Bytes::Of<float>({1.0f, 0.1f, 65504.0f})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dtype, DataType::kFloat16);
  EXPECT_EQ(r.outputs[0].template As<uint16_t>(),
            (std::vector<uint16_t>{0x3c00, FloatToHalf(0.1f), 0x7bff}));
}

TEST(ElementwiseOps, CastMissingDstTypeIsAttrNotMatch) {
  OpCall call = MakeCall("Cast", {Desc(DataType::kFloat, {3})});
  auto r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpAttrNotMatch);
  EXPECT_NE(r.status.message().find("dst_type"), std::string::npos);
}

TEST(ElementwiseOps, UnknownAttributesAreIgnored) {
  OpCall call = MakeCall("Add", {Desc(DataType::kFloat, {1}), Desc(DataType::kFloat, {1})});
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
  OpCall call = MakeCall("Add", {x, x}, {y});
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
  OpCall call =
      MakeCall("Add", {Desc(DataType::kFloat, {1 << 20}), Desc(DataType::kFloat, {1 << 20})});
  auto kernel = OpLibrary::Builtin().Compile(call, TestProps());
  ASSERT_TRUE(kernel.ok());
  EXPECT_EQ(kernel.value()->engine(), driver::Engine::kAiVector);
  EXPECT_EQ(kernel.value()->blocks(), 48u);
  EXPECT_EQ(kernel.value()->work().gm_read_bytes, 8u << 20);
  EXPECT_EQ(kernel.value()->work().gm_write_bytes, 4u << 20);
}

// --- helpers for the ops below ----------------------------------------------------------

struct In {
  DataType dtype;
  std::vector<int64_t> dims;
  Bytes bytes;
};

template <typename T>
In Tens(DataType dtype, std::vector<int64_t> dims, std::vector<T> values) {
  return In{dtype, std::move(dims), Bytes::Of(values)};
}
In F32(std::vector<int64_t> dims, std::vector<float> v) {
  return Tens(DataType::kFloat, std::move(dims), std::move(v));
}
In I32(std::vector<int64_t> dims, std::vector<int32_t> v) {
  return Tens(DataType::kInt32, std::move(dims), std::move(v));
}
In Bool(std::vector<int64_t> dims, std::vector<uint8_t> v) {
  return Tens(DataType::kBool, std::move(dims), std::move(v));
}
In F16(std::vector<int64_t> dims, const std::vector<float>& v) {
  return Tens(DataType::kFloat16, std::move(dims), ToHalf(v));
}

RunResult Exec(const std::string& type, std::vector<In> ins, AttrMap attrs = {}) {
  std::vector<TensorDesc> descs;
  std::vector<Bytes> bytes;
  for (auto& in : ins) {
    descs.push_back(Desc(in.dtype, in.dims));
    bytes.push_back(in.bytes);
  }
  return RunOp(MakeCall(type, descs, {}, std::move(attrs)), bytes);
}

std::vector<float> RunF32(const std::string& type, std::vector<In> ins, AttrMap attrs = {}) {
  auto r = Exec(type, std::move(ins), std::move(attrs));
  EXPECT_TRUE(r.status.ok()) << type << ": " << r.status.message();
  if (!r.status.ok()) return {};
  return r.outputs[0].template As<float>();
}

std::vector<int32_t> RunI32(const std::string& type, std::vector<In> ins, AttrMap attrs = {}) {
  auto r = Exec(type, std::move(ins), std::move(attrs));
  EXPECT_TRUE(r.status.ok()) << type << ": " << r.status.message();
  if (!r.status.ok()) return {};
  return r.outputs[0].template As<int32_t>();
}

std::vector<uint8_t> RunBool(const std::string& type, std::vector<In> ins, AttrMap attrs = {}) {
  auto r = Exec(type, std::move(ins), std::move(attrs));
  EXPECT_TRUE(r.status.ok()) << type << ": " << r.status.message();
  if (!r.status.ok()) return {};
  EXPECT_EQ(r.kernel->call().outputs[0].dtype, DataType::kBool) << type;
  return r.outputs[0].template As<uint8_t>();
}

constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr int32_t kIntMin = std::numeric_limits<int32_t>::min();

// --- 1A binary arithmetic ----------------------------------------------------------------

// fp16 kernels widen and narrow in chunks: long tensors, scalar operands on either side and
// broadcasting that is neither give the element-by-element results.
TEST(ArithmeticOps, Fp16ChunkedPathsMatchElementwiseRounding) {
  std::vector<float> a(1500);
  std::vector<float> b(1500);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<float>(i) * 0.37f - 200.0f;
    b[i] = 1.0f / static_cast<float>(i + 1);
  }
  auto expect = [](float x, float y) { return HalfToFloat(FloatToHalf(x * y)); };
  auto half = [](float x) { return HalfToFloat(FloatToHalf(x)); };
  auto r = Exec("Mul", {F16({1500}, a), F16({1500}, b)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  auto out = FromHalf(r.outputs[0].template As<uint16_t>());
  for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(out[i], expect(half(a[i]), half(b[i]))) << i;

  r = Exec("Mul", {F16({}, {3.0f}), F16({1500}, b)});  // scalar first
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  out = FromHalf(r.outputs[0].template As<uint16_t>());
  for (size_t i = 0; i < b.size(); ++i) ASSERT_EQ(out[i], expect(3.0f, half(b[i]))) << i;

  r = Exec("Mul", {F16({3, 500}, a), F16({500}, std::vector<float>(b.begin(), b.begin() + 500))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  out = FromHalf(r.outputs[0].template As<uint16_t>());
  for (size_t i = 0; i < a.size(); ++i)
    ASSERT_EQ(out[i], expect(half(a[i]), half(b[i % 500]))) << i;

  r = Exec("Relu", {F16({1500}, a)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  out = FromHalf(r.outputs[0].template As<uint16_t>());
  for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(out[i], std::max(half(a[i]), 0.0f)) << i;
}

TEST(ArithmeticOps, DivTruncatesIntegersAndDefinesDivisionByZero) {
  EXPECT_EQ(RunI32("Div", {I32({5}, {7, -7, 7, 5, kIntMin}), I32({5}, {2, 2, 0, -5, -1})}),
            (std::vector<int32_t>{3, -3, 0, -1, kIntMin}));
  EXPECT_EQ(RunF32("Div", {F32({2}, {1, -3}), F32({1}, {2})}), (std::vector<float>{0.5f, -1.5f}));
  EXPECT_EQ(RunI32("RealDiv", {I32({2}, {-7, 1}), I32({2}, {2, 0})}),
            (std::vector<int32_t>{-3, 0}));
}

TEST(ArithmeticOps, DivNoNanGivesZeroForZeroDivisor) {
  EXPECT_EQ(RunF32("DivNoNan", {F32({3}, {1, 0, 6}), F32({3}, {0, 0, 3})}),
            (std::vector<float>{0, 0, 2}));
  EXPECT_EQ(RunI32("DivNoNan", {I32({2}, {5, -5}), I32({2}, {0, 2})}),
            (std::vector<int32_t>{0, -2}));
}

TEST(ArithmeticOps, FloorDivAndFloorModFollowTheDivisorSign) {
  EXPECT_EQ(RunI32("FloorDiv", {I32({5}, {-7, 7, 7, -7, 3}), I32({5}, {2, -2, 2, -2, 0})}),
            (std::vector<int32_t>{-4, -4, 3, 3, 0}));
  EXPECT_EQ(RunF32("FloorDiv", {F32({2}, {-7, 7.5f}), F32({2}, {2, 2})}),
            (std::vector<float>{-4, 3}));
  EXPECT_EQ(RunI32("FloorMod", {I32({5}, {-7, 7, 7, -7, 3}), I32({5}, {3, -3, 3, -3, 0})}),
            (std::vector<int32_t>{2, -2, 1, -1, 0}));
  EXPECT_EQ(RunF32("FloorMod", {F32({3}, {-1.5f, 5.5f, 4}), F32({3}, {1, -2, 2})}),
            (std::vector<float>{0.5f, -0.5f, 0}));
  EXPECT_EQ(RunI32("FloorMod", {I32({1}, {kIntMin}), I32({1}, {-1})}), (std::vector<int32_t>{0}));
}

TEST(ArithmeticOps, ModTruncatesWithTheDividendSign) {
  EXPECT_EQ(RunI32("Mod", {I32({4}, {-7, 7, 7, 5}), I32({4}, {3, -3, 3, 0})}),
            (std::vector<int32_t>{-1, 1, 1, 0}));
  EXPECT_EQ(RunF32("Mod", {F32({2}, {-7.5f, 7.5f}), F32({2}, {2, -2})}),
            (std::vector<float>{-1.5f, 1.5f}));
}

TEST(ArithmeticOps, MaximumMinimumBroadcastAndPropagateNan) {
  auto mx = RunF32("Maximum", {F32({2, 2}, {1, 5, kNan, -1}), F32({2}, {3, 0})});
  ASSERT_EQ(mx.size(), 4u);
  EXPECT_EQ(mx[0], 3);
  EXPECT_EQ(mx[1], 5);
  EXPECT_TRUE(std::isnan(mx[2]));
  EXPECT_EQ(mx[3], 0);
  auto mn = RunF32("Minimum", {F32({3}, {1, 5, 2}), F32({3}, {3, kNan, 0})});
  ASSERT_EQ(mn.size(), 3u);
  EXPECT_EQ(mn[0], 1);
  EXPECT_TRUE(std::isnan(mn[1]));
  EXPECT_EQ(mn[2], 0);
  EXPECT_EQ(RunI32("Minimum", {I32({2}, {-4, 9}), I32({}, {2})}), (std::vector<int32_t>{-4, 2}));
}

TEST(ArithmeticOps, PowFloatIntAndMixedExponent) {
  EXPECT_EQ(RunF32("Pow", {F32({3}, {2, 4, 9}), F32({3}, {3, 0.5f, -1})}),
            (std::vector<float>{8, 2, 1.0f / 9}));
  EXPECT_EQ(RunI32("Pow", {I32({5}, {2, 3, 2, -1, 0}), I32({5}, {10, 0, -1, -3, 0})}),
            (std::vector<int32_t>{1024, 1, 0, -1, 1}));
  // Floating base, int64 exponent: y keeps the base's dtype.
  auto r = Exec("Pow", {F32({2}, {3, 2}), Tens<int64_t>(DataType::kInt64, {}, {2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dtype, DataType::kFloat);
  EXPECT_EQ(r.outputs[0].template As<float>(), (std::vector<float>{9, 4}));
  // Integer base, float exponent: rejected.
  ExpectError(Exec("Pow", {I32({1}, {2}), F32({1}, {2})}), StatusCode::kOpInputNotMatch,
              "input 1 (x2)");
}

TEST(ArithmeticOps, SquaredDifference) {
  EXPECT_EQ(RunF32("SquaredDifference", {F32({3}, {1, 5, -2}), F32({1}, {2})}),
            (std::vector<float>{1, 9, 16}));
  EXPECT_EQ(RunI32("SquaredDifference", {I32({2}, {1, -3}), I32({2}, {4, 3})}),
            (std::vector<int32_t>{9, 36}));
}

TEST(ArithmeticOps, AddNSumsAndBroadcasts) {
  auto sum = RunF32("AddN", {F32({2, 2}, {1, 2, 3, 4}), F32({2}, {10, 20}), F32({}, {100})},
                    {{"N", int64_t{3}}});
  EXPECT_EQ(sum, (std::vector<float>{111, 122, 113, 124}));
  EXPECT_EQ(RunI32("AccumulateNV2", {I32({2}, {1, 2}), I32({2}, {3, 4})}, {{"N", int64_t{2}}}),
            (std::vector<int32_t>{4, 6}));
  // fp16 accumulates in float and rounds once: 2048 + 1 + 1 = 2050 (2049 is not fp16).
  auto r =
      Exec("AccumulateNV2", {F16({1}, {2048}), F16({1}, {1}), F16({1}, {1})}, {{"N", int64_t{3}}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FromHalf(r.outputs[0].template As<uint16_t>()), (std::vector<float>{2050}));
}

TEST(ArithmeticOps, AddNErrors) {
  ExpectError(Exec("AddN", {F32({2}, {1, 2}), F32({2}, {1, 2})}), StatusCode::kOpAttrNotMatch,
              "'N'");
  EXPECT_EQ(Exec("AddN", {F32({2}, {1, 2}), F32({2}, {1, 2})}, {{"N", int64_t{3}}}).status.code(),
            StatusCode::kOpInputNotMatch);
  ExpectError(Exec("AddN", {F32({2}, {1, 2}), I32({2}, {1, 2})}, {{"N", int64_t{2}}}),
              StatusCode::kOpInputNotMatch, "x[1]");
  ExpectError(Exec("AddN", {F32({2}, {1, 2}), F32({3}, {1, 2, 3})}, {{"N", int64_t{2}}}),
              StatusCode::kOpInputNotMatch, "x[1]");
}

TEST(ArithmeticOps, MulsAddsAxpy) {
  EXPECT_EQ(RunF32("Muls", {F32({2}, {1.5f, -2})}, {{"value", 2.0f}}), (std::vector<float>{3, -4}));
  EXPECT_EQ(RunF32("Adds", {F32({2}, {1.5f, -2})}, {{"value", 0.5f}}),
            (std::vector<float>{2, -1.5f}));
  EXPECT_EQ(RunI32("Adds", {I32({2}, {3, -3})}, {{"value", 1.5f}}), (std::vector<int32_t>{4, -1}));
  ExpectError(Exec("Muls", {F32({1}, {1})}), StatusCode::kOpAttrNotMatch, "value");
  EXPECT_EQ(RunF32("Axpy", {F32({2}, {1, 2}), F32({2, 2}, {10, 20, 30, 40})}, {{"alpha", 3.0f}}),
            (std::vector<float>{13, 26, 33, 46}));
  ExpectError(Exec("Axpy", {F32({2}, {1, 2}), F32({2}, {1, 2})}), StatusCode::kOpAttrNotMatch,
              "alpha");
}

TEST(ArithmeticOps, MixedDtypesAreRejected) {
  ExpectError(Exec("Div", {F32({1}, {1}), I32({1}, {1})}), StatusCode::kOpInputNotMatch,
              "input 1 (x2)");
  ExpectError(Exec("Maximum", {F32({1}, {1}), F16({1}, {1})}), StatusCode::kOpInputNotMatch,
              "input 0 (x1)");
}

TEST(ArithmeticOps, Fp16Arithmetic) {
  auto r = Exec("FloorDiv", {F16({3}, {7, -7, 1}), F16({3}, {2, 2, 0.5f})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FromHalf(r.outputs[0].template As<uint16_t>()), (std::vector<float>{3, -4, 2}));
}

// --- 1C comparison, logic, select --------------------------------------------------------

TEST(CompareOps, ComparisonsBroadcastToBool) {
  auto x1 = [] { return F32({2, 2}, {1, 2, 3, kNan}); };
  auto x2 = [] { return F32({2}, {2, 2}); };
  EXPECT_EQ(RunBool("Greater", {x1(), x2()}), (std::vector<uint8_t>{0, 0, 1, 0}));
  EXPECT_EQ(RunBool("GreaterEqual", {x1(), x2()}), (std::vector<uint8_t>{0, 1, 1, 0}));
  EXPECT_EQ(RunBool("Less", {x1(), x2()}), (std::vector<uint8_t>{1, 0, 0, 0}));
  EXPECT_EQ(RunBool("LessEqual", {x1(), x2()}), (std::vector<uint8_t>{1, 1, 0, 0}));
  EXPECT_EQ(RunBool("Equal", {x1(), x2()}), (std::vector<uint8_t>{0, 1, 0, 0}));
  EXPECT_EQ(RunBool("NotEqual", {x1(), x2()}), (std::vector<uint8_t>{1, 0, 1, 1}));
  EXPECT_EQ(RunBool("Greater", {I32({3}, {-1, 0, 5}), I32({}, {0})}),
            (std::vector<uint8_t>{0, 0, 1}));
  EXPECT_EQ(RunBool("Equal", {Bool({2}, {1, 0}), Bool({2}, {1, 1})}), (std::vector<uint8_t>{1, 0}));
  auto r = Exec("Less", {F16({2}, {0.5f, 3}), F16({1}, {1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].template As<uint8_t>(), (std::vector<uint8_t>{1, 0}));
}

TEST(CompareOps, ComparisonErrors) {
  ExpectError(Exec("Greater", {F32({1}, {1}), I32({1}, {1})}), StatusCode::kOpInputNotMatch,
              "input 1 (x2)");
  ExpectError(Exec("Equal", {F32({2}, {1, 1}), F32({3}, {1, 1, 1})}), StatusCode::kOpInputNotMatch,
              "input 1 (x2)");
  ExpectError(Exec("Greater", {Bool({1}, {1}), Bool({1}, {1})}), StatusCode::kOpInputNotMatch,
              "input 0 (x1)");
}

TEST(LogicOps, AndOrNot) {
  auto a = [] { return Bool({4}, {0, 0, 1, 1}); };
  auto b = [] { return Bool({4}, {0, 1, 0, 1}); };
  EXPECT_EQ(RunBool("LogicalAnd", {a(), b()}), (std::vector<uint8_t>{0, 0, 0, 1}));
  EXPECT_EQ(RunBool("LogicalOr", {a(), b()}), (std::vector<uint8_t>{0, 1, 1, 1}));
  EXPECT_EQ(RunBool("LogicalNot", {a()}), (std::vector<uint8_t>{1, 1, 0, 0}));
  EXPECT_EQ(RunBool("LogicalAnd", {Bool({2, 1}, {1, 0}), Bool({2}, {1, 1})}),
            (std::vector<uint8_t>{1, 1, 0, 0}));
  ExpectError(Exec("LogicalAnd", {F32({1}, {1}), Bool({1}, {1})}), StatusCode::kOpInputNotMatch,
              "input 0 (x1)");
}

TEST(SelectOps, SelectV2Broadcasts) {
  auto r = Exec("SelectV2", {Bool({2, 1}, {1, 0}), F32({3}, {1, 2, 3}), F32({}, {-1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(r.outputs[0].template As<float>(), (std::vector<float>{1, 2, 3, -1, -1, -1}));
  EXPECT_EQ(RunI32("SelectV2", {Bool({3}, {0, 1, 0}), I32({3}, {1, 2, 3}), I32({3}, {4, 5, 6})}),
            (std::vector<int32_t>{4, 2, 6}));
  ExpectError(Exec("SelectV2", {Bool({1}, {1}), F32({1}, {1}), I32({1}, {1})}),
              StatusCode::kOpInputNotMatch, "input 2 (else)");
  ExpectError(Exec("SelectV2", {Bool({2}, {1, 1}), F32({3}, {1, 1, 1}), F32({3}, {1, 1, 1})}),
              StatusCode::kOpInputNotMatch, "input 0 (condition)");
  ExpectError(Exec("SelectV2", {F32({1}, {1}), F32({1}, {1}), F32({1}, {1})}),
              StatusCode::kOpInputNotMatch, "input 0 (condition)");
}

TEST(SelectOps, SelectFollowsTfRules) {
  // Same shape.
  EXPECT_EQ(RunF32("Select", {Bool({2}, {1, 0}), F32({2}, {1, 2}), F32({2}, {3, 4})}),
            (std::vector<float>{1, 4}));
  // 1-D condition selects rows.
  EXPECT_EQ(
      RunF32("Select", {Bool({2}, {0, 1}), F32({2, 2}, {1, 2, 3, 4}), F32({2, 2}, {5, 6, 7, 8})}),
      (std::vector<float>{5, 6, 3, 4}));
  // Scalar condition.
  EXPECT_EQ(RunF32("Select", {Bool({}, {1}), F32({2}, {1, 2}), F32({2}, {3, 4})}),
            (std::vector<float>{1, 2}));
  // A condition that only NumPy-broadcasts is not TF Select.
  ExpectError(Exec("Select", {Bool({2}, {1, 0}), F32({3, 2}, {1, 2, 3, 4, 5, 6}),
                              F32({3, 2}, {1, 2, 3, 4, 5, 6})}),
              StatusCode::kOpInputNotMatch, "input 0 (condition)");
  ExpectError(Exec("Select", {Bool({2}, {1, 0}), F32({2}, {1, 2}), F32({1}, {3})}),
              StatusCode::kOpInputNotMatch, "input 2 (x2)");
}

TEST(SelectOps, MaskedFill) {
  EXPECT_EQ(RunF32("MaskedFill", {F32({2, 2}, {1, 2, 3, 4}), Bool({2}, {1, 0}), F32({}, {-9})}),
            (std::vector<float>{-9, 2, -9, 4}));
  EXPECT_EQ(RunI32("MaskedFill", {I32({3}, {1, 2, 3}), Bool({3}, {0, 1, 1}), I32({}, {7})}),
            (std::vector<int32_t>{1, 7, 7}));
  ExpectError(Exec("MaskedFill", {F32({2}, {1, 2}), Bool({3}, {1, 0, 1}), F32({}, {0})}),
              StatusCode::kOpInputNotMatch, "input 1 (mask)");
}

// --- 1B unary math -----------------------------------------------------------------------

TEST(UnaryMathOps, AbsNegSquareReciprocal) {
  EXPECT_EQ(RunF32("Abs", {F32({3}, {-1.5f, 0, 2})}), (std::vector<float>{1.5f, 0, 2}));
  EXPECT_EQ(RunI32("Abs", {I32({3}, {-3, 4, kIntMin})}), (std::vector<int32_t>{3, 4, kIntMin}));
  EXPECT_EQ(RunF32("Neg", {F32({2}, {-1.5f, 2})}), (std::vector<float>{1.5f, -2}));
  EXPECT_EQ(RunI32("Neg", {I32({2}, {5, kIntMin})}), (std::vector<int32_t>{-5, kIntMin}));
  EXPECT_EQ(RunF32("Square", {F32({2}, {-3, 0.5f})}), (std::vector<float>{9, 0.25f}));
  EXPECT_EQ(RunI32("Square", {I32({2}, {-3, 7})}), (std::vector<int32_t>{9, 49}));
  EXPECT_EQ(RunF32("Reciprocal", {F32({2}, {4, -0.5f})}), (std::vector<float>{0.25f, -2}));
  EXPECT_EQ(RunI32("Reciprocal", {I32({4}, {1, -1, 2, 0})}), (std::vector<int32_t>{1, -1, 0, 0}));
  ExpectError(Exec("Abs", {Tens<uint32_t>(DataType::kUint32, {1}, {1})}),
              StatusCode::kOpInputNotMatch, "input 0 (x)");
}

TEST(UnaryMathOps, ExpAndLogWithBaseScaleShift) {
  auto e = RunF32("Exp", {F32({2}, {0, 1})});
  EXPECT_FLOAT_EQ(e[0], 1);
  EXPECT_FLOAT_EQ(e[1], std::exp(1.0f));
  // 2^(2x + 1)
  EXPECT_EQ(RunF32("Exp", {F32({2}, {0, 1})}, {{"base", 2.0f}, {"scale", 2.0f}, {"shift", 1.0f}}),
            (std::vector<float>{2, 8}));
  auto l = RunF32("Log", {F32({3}, {1, std::exp(2.0f), 0})});
  EXPECT_FLOAT_EQ(l[0], 0);
  EXPECT_NEAR(l[1], 2, 1e-6);
  EXPECT_EQ(l[2], -kInf);
  // log10(10x - 0):
  auto l10 = RunF32("Log", {F32({2}, {10, 100})}, {{"base", 10.0f}, {"scale", 10.0f}});
  EXPECT_NEAR(l10[0], 2, 1e-6);
  EXPECT_NEAR(l10[1], 3, 1e-6);
  ExpectError(Exec("Exp", {F32({1}, {1})}, {{"base", -2.0f}}), StatusCode::kOpAttrNotMatch,
              "'base'");
  ExpectError(Exec("Log", {F32({1}, {1})}, {{"base", 1.0f}}), StatusCode::kOpAttrNotMatch,
              "'base'");
  ExpectError(Exec("Exp", {I32({1}, {1})}), StatusCode::kOpInputNotMatch, "input 0 (x)");
}

TEST(UnaryMathOps, SqrtRsqrtFloorCeil) {
  auto s = RunF32("Sqrt", {F32({3}, {4, 2.25f, -1})});
  EXPECT_EQ(s[0], 2);
  EXPECT_EQ(s[1], 1.5f);
  EXPECT_TRUE(std::isnan(s[2]));
  EXPECT_EQ(RunF32("Rsqrt", {F32({2}, {4, 0.25f})}), (std::vector<float>{0.5f, 2}));
  EXPECT_EQ(RunF32("Floor", {F32({3}, {-1.5f, 1.5f, 2})}), (std::vector<float>{-2, 1, 2}));
  EXPECT_EQ(RunF32("Ceil", {F32({3}, {-1.5f, 1.5f, 2})}), (std::vector<float>{-1, 2, 2}));
}

TEST(UnaryMathOps, RoundIsHalfToEven) {
  EXPECT_EQ(RunF32("Round", {F32({8}, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 2.4f, 2.6f})}),
            (std::vector<float>{0, 2, 2, -0.0f, -2, -2, 2, 3}));
  auto r = Exec("Round", {F16({3}, {0.5f, 1.5f, 3.5f})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(FromHalf(r.outputs[0].template As<uint16_t>()), (std::vector<float>{0, 2, 4}));
  EXPECT_EQ(RunI32("Round", {I32({2}, {3, -7})}), (std::vector<int32_t>{3, -7}));
  auto d = RunF32("Round", {F32({2}, {1.2345f, 0.125f})}, {{"decimals", int64_t{2}}});
  EXPECT_FLOAT_EQ(d[0], 1.23f);
  EXPECT_FLOAT_EQ(d[1], 0.12f);
}

TEST(UnaryMathOps, SignKeepsNan) {
  auto s = RunF32("Sign", {F32({4}, {-3, 0, 2, kNan})});
  EXPECT_EQ(s[0], -1);
  EXPECT_EQ(s[1], 0);
  EXPECT_EQ(s[2], 1);
  EXPECT_TRUE(std::isnan(s[3]));
  EXPECT_EQ(RunI32("Sign", {I32({3}, {-5, 0, 9})}), (std::vector<int32_t>{-1, 0, 1}));
}

TEST(UnaryMathOps, TranscendentalsMatchTheStandardLibrary) {
  struct Case {
    const char* type;
    double (*ref)(double);
    std::vector<float> x;
  };
  const std::vector<Case> cases = {
      {"Erf", [](double v) { return std::erf(v); }, {-1, 0, 0.5f}},
      {"Sin", [](double v) { return std::sin(v); }, {-1, 0, 2}},
      {"Cos", [](double v) { return std::cos(v); }, {-1, 0, 2}},
      {"Tan", [](double v) { return std::tan(v); }, {-1, 0, 0.5f}},
      {"Asin", [](double v) { return std::asin(v); }, {-1, 0, 0.5f}},
      {"Acos", [](double v) { return std::acos(v); }, {-1, 0, 0.5f}},
      {"Atan", [](double v) { return std::atan(v); }, {-10, 0, 0.5f}},
      {"Sinh", [](double v) { return std::sinh(v); }, {-1, 0, 2}},
      {"Cosh", [](double v) { return std::cosh(v); }, {-1, 0, 2}},
      {"Asinh", [](double v) { return std::asinh(v); }, {-1, 0, 2}},
      {"Acosh", [](double v) { return std::acosh(v); }, {1, 2, 10}},
      {"Atanh", [](double v) { return std::atanh(v); }, {-0.5f, 0, 0.9f}},
      {"Log1p", [](double v) { return std::log1p(v); }, {-0.5f, 0, 1e-7f}},
      {"Expm1", [](double v) { return std::expm1(v); }, {-1, 0, 1e-7f}},
  };
  for (const auto& c : cases) {
    auto y = RunF32(c.type, {F32({3}, c.x)});
    ASSERT_EQ(y.size(), 3u) << c.type;
    for (size_t i = 0; i < 3; ++i) {
      const double want = c.ref(c.x[i]);
      EXPECT_NEAR(y[i], want, 1e-6 * std::max(1.0, std::abs(want))) << c.type << " " << c.x[i];
    }
  }
  auto r = Exec("Sin", {F16({2}, {0, 1})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_NEAR(FromHalf(r.outputs[0].template As<uint16_t>())[1], std::sin(1.0), 1e-3);
}

TEST(UnaryMathOps, ClipByValueBroadcasts) {
  EXPECT_EQ(RunF32("ClipByValue", {F32({2, 2}, {-5, 0.5f, 3, 10}), F32({}, {0}), F32({2}, {1, 5})}),
            (std::vector<float>{0, 0.5f, 1, 5}));
  auto c = RunF32("ClipByValue", {F32({1}, {kNan}), F32({}, {0}), F32({}, {1})});
  ASSERT_EQ(c.size(), 1u);
  EXPECT_TRUE(std::isnan(c[0]));
  EXPECT_EQ(RunI32("ClipByValue", {I32({3}, {-9, 4, 9}), I32({}, {-2}), I32({}, {5})}),
            (std::vector<int32_t>{-2, 4, 5}));
  ExpectError(Exec("ClipByValue", {F32({1}, {1}), I32({}, {0}), F32({}, {1})}),
              StatusCode::kOpInputNotMatch, "input 1 (clip_value_min)");
  ExpectError(Exec("ClipByValue", {F32({2}, {1, 2}), F32({}, {0}), F32({3}, {1, 1, 1})}),
              StatusCode::kOpInputNotMatch, "input 2 (clip_value_max)");
}

TEST(UnaryMathOps, IsNanIsFiniteIsInf) {
  auto x = [] { return F32({4}, {1, kNan, kInf, -kInf}); };
  EXPECT_EQ(RunBool("IsNan", {x()}), (std::vector<uint8_t>{0, 1, 0, 0}));
  EXPECT_EQ(RunBool("IsFinite", {x()}), (std::vector<uint8_t>{1, 0, 0, 0}));
  EXPECT_EQ(RunBool("IsInf", {x()}), (std::vector<uint8_t>{0, 0, 1, 1}));
  EXPECT_EQ(RunBool("IsNan", {F16({2}, {kNan, 0})}), (std::vector<uint8_t>{1, 0}));
  ExpectError(Exec("IsNan", {I32({1}, {1})}), StatusCode::kOpInputNotMatch, "input 0 (x)");
}

// --- fills and copies --------------------------------------------------------------------

TEST(FillOps, FillsZerosLikeOnesLikeIdentity) {
  EXPECT_EQ(RunF32("Fills", {F32({3}, {1, 2, 3})}, {{"value", 2.5f}}),
            (std::vector<float>{2.5f, 2.5f, 2.5f}));
  EXPECT_EQ(RunI32("Fills", {I32({2}, {1, 2})}, {{"value", 7.0f}}), (std::vector<int32_t>{7, 7}));
  EXPECT_EQ(RunBool("Fills", {Bool({2}, {0, 0})}, {{"value", 1.0f}}), (std::vector<uint8_t>{1, 1}));
  ExpectError(Exec("Fills", {F32({1}, {1})}), StatusCode::kOpAttrNotMatch, "value");
  EXPECT_EQ(RunF32("ZerosLike", {F32({2}, {1, kNan})}), (std::vector<float>{0, 0}));
  EXPECT_EQ(RunI32("OnesLike", {I32({2, 1}, {5, 6})}), (std::vector<int32_t>{1, 1}));
  EXPECT_EQ(RunBool("OnesLike", {Bool({1}, {0})}), (std::vector<uint8_t>{1}));
  auto r = Exec("Identity", {Tens<int64_t>(DataType::kInt64, {2}, {-1, 1LL << 40})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].template As<int64_t>(), (std::vector<int64_t>{-1, 1LL << 40}));
  auto h = Exec("OnesLike", {F16({1}, {3})});
  ASSERT_TRUE(h.status.ok()) << h.status.message();
  EXPECT_EQ(h.outputs[0].template As<uint16_t>(), (std::vector<uint16_t>{0x3c00}));
}

}  // namespace
}  // namespace aclsim::ops::testing
