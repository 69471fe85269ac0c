// aclblas* lowered to the GEMM op (core/blas.h): the checks, GEMV as a one-column GEMM, and
// the launch's descriptors.
#include "core/blas.h"

#include <gtest/gtest.h>

namespace aclsim::core::blas {
namespace {

using ops::DataType;

const char* const kNames[3] = {"dataTypeA", "dataTypeB", "dataTypeC"};

GemmSpec Spec(DataType a, DataType b, DataType c, int m = 4, int n = 5, int k = 6) {
  GemmSpec spec;
  spec.m = m;
  spec.n = n;
  spec.k = k;
  spec.type_a = a;
  spec.type_b = b;
  spec.type_c = c;
  return spec;
}

TEST(BlasTest, CheckGemmAcceptsCannsTypeCombinations) {
  EXPECT_TRUE(
      CheckGemm(Spec(DataType::kFloat16, DataType::kFloat16, DataType::kFloat16), {}, kNames).ok());
  EXPECT_TRUE(
      CheckGemm(Spec(DataType::kFloat16, DataType::kFloat16, DataType::kFloat), {}, kNames).ok());
  EXPECT_TRUE(
      CheckGemm(Spec(DataType::kFloat, DataType::kFloat, DataType::kFloat), {}, kNames).ok());
  EXPECT_TRUE(CheckGemm(Spec(DataType::kInt8, DataType::kInt8, DataType::kInt32), {}, kNames).ok());
}

TEST(BlasTest, CheckGemmNamesWhatIsWrong) {
  Status s = CheckGemm(Spec(DataType::kInt8, DataType::kInt8, DataType::kFloat16), {}, kNames);
  EXPECT_EQ(s.code(), StatusCode::kUnsupportedDataType);
  EXPECT_NE(s.message().find("A=INT8 B=INT8 C=FLOAT16"), std::string::npos) << s.message();
  s = CheckGemm(Spec(DataType::kBf16, DataType::kBf16, DataType::kFloat), {}, kNames);
  EXPECT_EQ(s.code(), StatusCode::kUnsupportedDataType);
  EXPECT_NE(s.message().find("dataTypeA 27"), std::string::npos) << s.message();
  s = CheckGemm(Spec(DataType::kFloat16, DataType::kFloat, DataType::kFloat), {}, kNames);
  EXPECT_NE(s.message().find("dataTypeA and dataTypeB must be equal"), std::string::npos);
  s = CheckGemm(Spec(DataType::kFloat, DataType::kFloat, DataType::kFloat, 0), {}, kNames);
  EXPECT_EQ(s.code(), StatusCode::kInvalidParam);
  s = CheckGemm(Spec(DataType::kFloat, DataType::kFloat, DataType::kFloat), {true, false}, kNames);
  EXPECT_NE(s.message().find("transC"), std::string::npos);
}

TEST(BlasTest, GemvIsAOneColumnGemm) {
  GemmSpec plain = GemvAsGemm({}, 3, 7, DataType::kFloat, DataType::kFloat, DataType::kFloat);
  EXPECT_EQ(plain.m, 3);
  EXPECT_EQ(plain.n, 1);
  EXPECT_EQ(plain.k, 7);
  GemmSpec transposed =
      GemvAsGemm({true, false}, 3, 7, DataType::kFloat, DataType::kFloat, DataType::kFloat);
  EXPECT_EQ(transposed.m, 7);  // op(A) = A^T: [n, m] for A stored [m, n]
  EXPECT_EQ(transposed.k, 3);
  EXPECT_TRUE(transposed.a.transposed);
}

TEST(BlasTest, GemmLaunchDescribesTheGemmOp) {
  GemmSpec spec = Spec(DataType::kFloat16, DataType::kFloat16, DataType::kFloat16, 16, 32, 64);
  spec.a = {true, false};
  spec.b = {false, true};
  const OpLaunch launch = GemmLaunch(spec, nullptr, nullptr, nullptr, nullptr, nullptr);
  EXPECT_EQ(launch.type, "GEMM");
  ASSERT_EQ(launch.inputs.size(), 5u);
  ASSERT_EQ(launch.outputs.size(), 1u);
  EXPECT_EQ(launch.inputs[0].desc.dims, (std::vector<int64_t>{64, 16}));  // A^T stored [k, m]
  EXPECT_EQ(launch.inputs[1].desc.storage_format, ops::Format::kFractalNz);
  EXPECT_EQ(launch.inputs[1].desc.storage_dims, (std::vector<int64_t>{2, 4, 16, 16}));
  EXPECT_EQ(launch.inputs[1].size, size_t{64 * 32 * 2});
  EXPECT_TRUE(launch.inputs[3].desc.dims.empty());  // alpha: a scalar of C's type
  EXPECT_EQ(launch.inputs[3].size, 2u);
  EXPECT_EQ(std::get<bool>(launch.attrs.at("transpose_a")), true);
  EXPECT_EQ(std::get<bool>(launch.attrs.at("transpose_b")), false);
}

}  // namespace
}  // namespace aclsim::core::blas
