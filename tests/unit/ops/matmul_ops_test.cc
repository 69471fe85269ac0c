// Matmul ops of the sim op library: MatMul, MatMulV2, BatchMatMul, BatchMatMulV2, GEMM.
#include "ops/work_builders.h"
#include "tests/unit/ops/op_test_util.h"

namespace aclsim::ops::testing {
namespace {

// Row-major reference: c[m, n] = a[m, k] x b[k, n].
std::vector<float> RefMatmul(const std::vector<float>& a, const std::vector<float>& b, int m, int k,
                             int n) {
  std::vector<float> c(static_cast<size_t>(m * n), 0.0f);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int p = 0; p < k; ++p) sum += a[i * k + p] * b[p * n + j];
      c[i * n + j] = sum;
    }
  }
  return c;
}

std::vector<float> Transpose(const std::vector<float>& a, int rows, int cols) {
  std::vector<float> t(a.size());
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) t[j * rows + i] = a[i * cols + j];
  }
  return t;
}

TEST(MatmulOps, MatMulFloatWithBias) {
  auto a = Iota(6);                // [2, 3]
  auto b = Iota(12, -3.0f, 0.5f);  // [3, 4]
  auto call = MakeCall("MatMul", {Desc(DataType::kFloat, {2, 3}), Desc(DataType::kFloat, {3, 4}),
                                  Desc(DataType::kFloat, {4})});
  auto r = RunOp(call, {Bytes::Of(a), Bytes::Of(b), Bytes::Of<float>({1, 2, 3, 4})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(r.kernel->engine(), driver::Engine::kAiCore);
  auto want = RefMatmul(a, b, 2, 3, 4);
  for (int i = 0; i < 8; ++i) want[i] += 1.0f + static_cast<float>(i % 4);
  EXPECT_EQ(r.outputs[0].As<float>(), want);
}

TEST(MatmulOps, MatMulTransposes) {
  auto a = Iota(6);                // op(a) = [2, 3]
  auto b = Iota(12, 0.5f, 0.25f);  // op(b) = [3, 4]
  auto call = MakeCall("MatMul", {Desc(DataType::kFloat, {3, 2}), Desc(DataType::kFloat, {4, 3})});
  call.attrs["transpose_x1"] = true;
  call.attrs["transpose_x2"] = true;
  auto r = RunOp(call, {Bytes::Of(Transpose(a, 2, 3)), Bytes::Of(Transpose(b, 3, 4))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(r.outputs[0].As<float>(), RefMatmul(a, b, 2, 3, 4));
}

TEST(MatmulOps, MatMulFp16AccumulatesInFloat) {
  // 2048 + 1 + 1 ... in fp16 would stick at 2048; accumulated in fp32 it reaches 2056.
  std::vector<float> a(9, 1.0f);
  a[0] = 2048.0f;
  std::vector<float> b(9, 1.0f);
  auto call =
      MakeCall("MatMul", {Desc(DataType::kFloat16, {1, 9}), Desc(DataType::kFloat16, {9, 1})});
  auto r = RunOp(call, {Bytes::Of(ToHalf(a)), Bytes::Of(ToHalf(b))});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dtype, DataType::kFloat16);
  EXPECT_EQ(FromHalf(r.outputs[0].As<uint16_t>()), (std::vector<float>{2056.0f}));
}

TEST(MatmulOps, MatMulInt32) {
  auto call = MakeCall("MatMul", {Desc(DataType::kInt32, {2, 2}), Desc(DataType::kInt32, {2, 2})});
  auto r = RunOp(call, {Bytes::Of<int32_t>({1, 2, 3, 4}), Bytes::Of<int32_t>({5, 6, 7, 8})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{19, 22, 43, 50}));
}

TEST(MatmulOps, MatMulKMismatchNamesBothInputs) {
  auto call = MakeCall("MatMul", {Desc(DataType::kFloat, {2, 3}), Desc(DataType::kFloat, {4, 5})});
  auto r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("input 0 (x1)"), std::string::npos) << r.status.message();
  EXPECT_NE(r.status.message().find("input 1 (x2)"), std::string::npos) << r.status.message();
}

TEST(MatmulOps, MatMulRejectsRank3AndBadBias) {
  auto call =
      MakeCall("MatMul", {Desc(DataType::kFloat, {2, 2, 3}), Desc(DataType::kFloat, {3, 4})});
  auto r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("2-D"), std::string::npos) << r.status.message();

  call = MakeCall("MatMul", {Desc(DataType::kFloat, {2, 3}), Desc(DataType::kFloat, {3, 4}),
                             Desc(DataType::kFloat, {3})});
  r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("bias"), std::string::npos) << r.status.message();
}

TEST(MatmulOps, MatMulV2Int8GivesInt32WithOffsetX) {
  // x1 - offset_x = [[1, 2], [3, 4]] with offset_x = 1.
  auto call = MakeCall("MatMulV2", {Desc(DataType::kInt8, {2, 2}), Desc(DataType::kInt8, {2, 2}),
                                    Desc(DataType::kInt32, {2})});
  call.attrs["offset_x"] = int64_t{1};
  auto r = RunOp(call, {Bytes::Of<int8_t>({2, 3, 4, 5}), Bytes::Of<int8_t>({5, 6, 7, 8}),
                        Bytes::Of<int32_t>({100, -100})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dtype, DataType::kInt32);
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{119, -78, 143, -50}));
}

TEST(MatmulOps, MatMulV2LinearStyleTransposeX2WithPlaceholderOffset) {
  // torch Linear: y = x W^T + b with W [out, in].
  auto x = Iota(6);               // [2, 3]
  auto w = Iota(6, 1.0f, -0.5f);  // W [2, 3]
  TensorDesc absent;
  absent.dtype = DataType::kUndefined;
  auto call = MakeCall("MatMulV2", {Desc(DataType::kFloat, {2, 3}), Desc(DataType::kFloat, {2, 3}),
                                    Desc(DataType::kFloat, {2}), absent});
  call.attrs["transpose_x2"] = true;
  auto r = RunOp(call, {Bytes::Of(x), Bytes::Of(w), Bytes::Of<float>({0.5f, -0.5f}), Bytes{}});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  auto want = RefMatmul(x, Transpose(w, 2, 3), 2, 3, 2);
  for (int i = 0; i < 4; ++i) want[i] += i % 2 == 0 ? 0.5f : -0.5f;
  EXPECT_EQ(r.outputs[0].As<float>(), want);
}

TEST(MatmulOps, BatchMatMulAdjAndBatches) {
  // x1 [2, 2, 3], x2 stored [2, 4, 3] with adj_x2.
  auto a = Iota(12);
  auto b = Iota(24, -2.0f, 0.25f);
  auto call = MakeCall("BatchMatMul",
                       {Desc(DataType::kFloat, {2, 2, 3}), Desc(DataType::kFloat, {2, 4, 3})});
  call.attrs["adj_x2"] = true;
  auto r = RunOp(call, {Bytes::Of(a), Bytes::Of(b)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (std::vector<int64_t>{2, 2, 4}));
  std::vector<float> want;
  for (int batch = 0; batch < 2; ++batch) {
    std::vector<float> ab(a.begin() + batch * 6, a.begin() + batch * 6 + 6);
    std::vector<float> bb(b.begin() + batch * 12, b.begin() + batch * 12 + 12);
    auto c = RefMatmul(ab, Transpose(bb, 4, 3), 2, 3, 4);
    want.insert(want.end(), c.begin(), c.end());
  }
  EXPECT_EQ(r.outputs[0].As<float>(), want);
}

TEST(MatmulOps, BatchMatMulBadBatchAndRank) {
  auto call = MakeCall("BatchMatMul",
                       {Desc(DataType::kFloat, {2, 2, 3}), Desc(DataType::kFloat, {3, 3, 4})});
  auto r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("batch"), std::string::npos) << r.status.message();
  call = MakeCall("BatchMatMul", {Desc(DataType::kFloat, {3}), Desc(DataType::kFloat, {3, 4})});
  EXPECT_EQ(RunOp(call, {}).status.code(), StatusCode::kOpInputNotMatch);
}

TEST(MatmulOps, BatchMatMulV2BroadcastsBatchDims) {
  // x1 [2, 1, 2, 2] x x2 [3, 2, 2] -> [2, 3, 2, 2].
  auto a = Iota(8);
  auto b = Iota(12, 1.0f, -1.0f);
  auto call = MakeCall("BatchMatMulV2",
                       {Desc(DataType::kFloat, {2, 1, 2, 2}), Desc(DataType::kFloat, {3, 2, 2})});
  auto r = RunOp(call, {Bytes::Of(a), Bytes::Of(b)});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (std::vector<int64_t>{2, 3, 2, 2}));
  std::vector<float> want;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      std::vector<float> ab(a.begin() + i * 4, a.begin() + i * 4 + 4);
      std::vector<float> bb(b.begin() + j * 4, b.begin() + j * 4 + 4);
      auto c = RefMatmul(ab, bb, 2, 2, 2);
      want.insert(want.end(), c.begin(), c.end());
    }
  }
  EXPECT_EQ(r.outputs[0].As<float>(), want);
}

TEST(MatmulOps, BatchMatMulV2VectorOperandsAndBias) {
  // [3] x [2, 3, 2] -> [2, 2] (numpy matmul), + bias [2].
  auto b = Iota(12);
  auto call =
      MakeCall("BatchMatMulV2", {Desc(DataType::kFloat, {3}), Desc(DataType::kFloat, {2, 3, 2}),
                                 Desc(DataType::kFloat, {2})});
  auto r = RunOp(call, {Bytes::Of<float>({1, 0, -1}), Bytes::Of(b), Bytes::Of<float>({10, 20})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dims, (std::vector<int64_t>{2, 2}));
  // batch 0: rows [1,2],[3,4],[5,6]: row0 - row2 = [-4, -4]; batch 1 likewise.
  EXPECT_EQ(r.outputs[0].As<float>(), (std::vector<float>{6, 16, 6, 16}));
}

TEST(MatmulOps, BatchMatMulV2Bf16) {
  auto call =
      MakeCall("BatchMatMulV2", {Desc(DataType::kBf16, {1, 2}), Desc(DataType::kBf16, {2, 1})});
  auto bf = [](float v) { return FloatToBf16(v); };
  auto r = RunOp(call, {Bytes::Of<uint16_t>({bf(1.5f), bf(2.0f)}),
                        Bytes::Of<uint16_t>({bf(2.0f), bf(-0.25f)})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(Bf16ToFloat(r.outputs[0].As<uint16_t>()[0]), 2.5f);
}

TEST(MatmulOps, WorkIsCubeMatmulWork) {
  auto call = MakeCall("BatchMatMulV2", {Desc(DataType::kFloat16, {4, 256, 512}),
                                         Desc(DataType::kFloat16, {512, 128})});
  auto kernel = OpLibrary::Builtin().Compile(call, TestProps());
  ASSERT_TRUE(kernel.ok()) << kernel.status().message();
  uint32_t blocks = 0;
  auto want = MatmulWork(4 * 256, 128, 512, driver::DtypeClass::kFp16, &blocks);
  EXPECT_EQ(kernel.value()->engine(), driver::Engine::kAiCore);
  EXPECT_EQ(kernel.value()->blocks(), blocks);
  EXPECT_EQ(kernel.value()->work().cube_flops, want.cube_flops);
}

TEST(MatmulOps, GemmAlphaBeta) {
  auto a = Iota(6);         // [2, 3]
  auto b = Iota(6, -1.0f);  // stored [2, 3], transpose_b -> [3, 2]
  auto call = MakeCall("GEMM", {Desc(DataType::kFloat, {2, 3}), Desc(DataType::kFloat, {2, 3}),
                                Desc(DataType::kFloat, {2, 2}), Desc(DataType::kFloat, {1}),
                                Desc(DataType::kFloat, {1})});
  call.attrs["transpose_b"] = true;
  auto r = RunOp(call, {Bytes::Of(a), Bytes::Of(b), Bytes::Of<float>({1, 2, 3, 4}),
                        Bytes::Of<float>({2.0f}), Bytes::Of<float>({-1.0f})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  auto want = RefMatmul(a, Transpose(b, 2, 3), 2, 3, 2);
  for (int i = 0; i < 4; ++i) want[i] = 2.0f * want[i] - static_cast<float>(i + 1);
  EXPECT_EQ(r.outputs[0].As<float>(), want);
}

TEST(MatmulOps, GemmInt8WithInt32C) {
  auto call = MakeCall("GEMM", {Desc(DataType::kInt8, {1, 2}), Desc(DataType::kInt8, {2, 1}),
                                Desc(DataType::kInt32, {1, 1}), Desc(DataType::kInt32, {1}),
                                Desc(DataType::kInt32, {1})});
  auto r = RunOp(call, {Bytes::Of<int8_t>({3, -4}), Bytes::Of<int8_t>({5, 6}),
                        Bytes::Of<int32_t>({7}), Bytes::Of<int32_t>({3}), Bytes::Of<int32_t>({2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.kernel->call().outputs[0].dtype, DataType::kInt32);
  EXPECT_EQ(r.outputs[0].As<int32_t>(), (std::vector<int32_t>{3 * (15 - 24) + 14}));
}

TEST(MatmulOps, GemmErrors) {
  // c of the wrong shape.
  auto call = MakeCall("GEMM", {Desc(DataType::kFloat, {2, 3}), Desc(DataType::kFloat, {3, 2}),
                                Desc(DataType::kFloat, {3, 3}), Desc(DataType::kFloat, {1}),
                                Desc(DataType::kFloat, {1})});
  auto r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("(c)"), std::string::npos) << r.status.message();
  // alpha with two elements.
  call.inputs[2] = Desc(DataType::kFloat, {2, 2});
  call.inputs[3] = Desc(DataType::kFloat, {2});
  r = RunOp(call, {});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("alpha"), std::string::npos) << r.status.message();
  // int8 a with float c.
  call = MakeCall("GEMM", {Desc(DataType::kInt8, {1, 2}), Desc(DataType::kInt8, {2, 1}),
                           Desc(DataType::kFloat, {1, 1}), Desc(DataType::kInt32, {1}),
                           Desc(DataType::kInt32, {1})});
  EXPECT_EQ(RunOp(call, {}).status.code(), StatusCode::kOpInputNotMatch);
}

}  // namespace
}  // namespace aclsim::ops::testing
