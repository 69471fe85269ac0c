// Activation ops of the sim op library (cann_ops.md 1D): values against reference formulas,
// attribute defaults, fp16, errors.
#include <cmath>
#include <limits>
#include <string>

#include "tests/unit/ops/op_test_util.h"

namespace aclsim::ops::testing {
namespace {

RunResult Exec(const std::string& type, std::vector<TensorDesc> descs, std::vector<Bytes> bytes,
               AttrMap attrs = {}) {
  return RunOp(MakeCall(type, std::move(descs), {}, std::move(attrs)), std::move(bytes));
}

std::vector<float> RunF32(const std::string& type, const std::vector<float>& x,
                          AttrMap attrs = {}) {
  auto r = Exec(type, {Desc(DataType::kFloat, {static_cast<int64_t>(x.size())})}, {Bytes::Of(x)},
                std::move(attrs));
  EXPECT_TRUE(r.status.ok()) << type << ": " << r.status.message();
  if (!r.status.ok()) return {};
  return r.outputs[0].template As<float>();
}

// Checks `type` on a spread of inputs against a double reference.
void ExpectMatches(const std::string& type, double (*ref)(double), AttrMap attrs = {},
                   double tol = 1e-6) {
  const std::vector<float> x = {-20, -3, -1, -0.5f, 0, 0.25f, 1, 2.5f, 4, 20};
  auto y = RunF32(type, x, attrs);
  ASSERT_EQ(y.size(), x.size()) << type;
  for (size_t i = 0; i < x.size(); ++i) {
    const double want = ref(x[i]);
    EXPECT_NEAR(y[i], want, tol * std::max(1.0, std::abs(want))) << type << "(" << x[i] << ")";
  }
}

double Sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

TEST(ActivationOps, ReferenceValues) {
  ExpectMatches("Relu6", [](double x) { return std::min(std::max(x, 0.0), 6.0); });
  ExpectMatches("Gelu", [](double x) {
    return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
  });
  ExpectMatches("FastGelu", [](double x) { return x * Sigmoid(1.702 * x); });
  ExpectMatches("Sigmoid", Sigmoid);
  ExpectMatches("Tanh", [](double x) { return std::tanh(x); });
  ExpectMatches("Swish", [](double x) { return x * Sigmoid(x); });
  ExpectMatches("Softplus", [](double x) { return std::log1p(std::exp(x)); });
  ExpectMatches("Elu", [](double x) { return x > 0 ? x : std::exp(x) - 1; });
  ExpectMatches("Selu", [](double x) {
    return 1.0507009873554805 * (x > 0 ? x : 1.6732632423543772 * (std::exp(x) - 1));
  });
  ExpectMatches("HardSwish", [](double x) { return x * std::min(std::max(x + 3, 0.0), 6.0) / 6; });
  ExpectMatches("HardSigmoid",
                [](double x) { return std::max(0.0, std::min(1.0, 0.16666666 * x + 0.5)); });
  ExpectMatches("Mish", [](double x) { return x * std::tanh(std::log1p(std::exp(x))); });
  ExpectMatches("Softsign", [](double x) { return x / (1 + std::abs(x)); });
}

TEST(ActivationOps, AttributesChangeTheFormula) {
  ExpectMatches("Swish", [](double x) { return x * Sigmoid(2 * x); }, {{"scale", 2.0f}});
  ExpectMatches("Elu", [](double x) { return 2 * (x > 0 ? x : 0.5 * (std::exp(3 * x) - 1)); },
                {{"alpha", 0.5f}, {"scale", 2.0f}, {"input_scale", 3.0f}});
  ExpectMatches("HardSigmoid", [](double x) { return std::max(0.0, std::min(1.0, 0.2 * x + 0.5)); },
                {{"alpha", 0.2f}, {"beta", 0.5f}});
}

TEST(ActivationOps, LeakyReluDefaultSlopeIsZero) {
  EXPECT_EQ(RunF32("LeakyRelu", {-2, 0, 3}), (std::vector<float>{0, 0, 3}));
  EXPECT_EQ(RunF32("LeakyRelu", {-2, 0, 3}, {{"negative_slope", 0.25f}}),
            (std::vector<float>{-0.5f, 0, 3}));
}

TEST(ActivationOps, StableForLargeInputs) {
  auto s = RunF32("Sigmoid", {-200, 200});
  EXPECT_EQ(s, (std::vector<float>{0, 1}));
  auto sp = RunF32("Softplus", {-200, 200});
  EXPECT_EQ(sp[0], 0);
  EXPECT_EQ(sp[1], 200);
  auto m = RunF32("Mish", {-200, 200});
  EXPECT_FALSE(std::isnan(m[0]));
  EXPECT_EQ(m[1], 200);
  auto g = RunF32("FastGelu", {-200, 200});
  EXPECT_EQ(g, (std::vector<float>{-0.0f, 200}));
}

TEST(ActivationOps, Fp16ComputesInFloat) {
  const std::vector<float> x = {-2, -0.5f, 0, 1, 3};
  for (const char* type : {"Gelu", "Sigmoid", "Swish", "HardSwish", "Tanh"}) {
    auto r = Exec(type, {Desc(DataType::kFloat16, {5})}, {Bytes::Of(ToHalf(x))});
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    auto y = FromHalf(r.outputs[0].template As<uint16_t>());
    auto want = RunF32(type, x);
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_EQ(y[i], HalfToFloat(FloatToHalf(want[i]))) << type << "(" << x[i] << ")";
    }
  }
}

TEST(ActivationOps, IntegerRelu6AndSelu) {
  auto r = Exec("Relu6", {Desc(DataType::kInt32, {4})}, {Bytes::Of<int32_t>({-3, 2, 6, 9})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].template As<int32_t>(), (std::vector<int32_t>{0, 2, 6, 6}));
  r = Exec("Selu", {Desc(DataType::kInt32, {3})}, {Bytes::Of<int32_t>({-10, 0, 2})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  // -1.758 and 2.101 truncate toward zero.
  EXPECT_EQ(r.outputs[0].template As<int32_t>(), (std::vector<int32_t>{-1, 0, 2}));
}

TEST(ActivationOps, HardSigmoidTensorNames) {
  auto r = Exec("HardSigmoid", {Desc(DataType::kInt64, {1})}, {Bytes::Of<int64_t>({1})});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("input_x"), std::string::npos) << r.status.message();
}

TEST(ActivationOps, GeluRejectsIntegers) {
  auto r = Exec("Gelu", {Desc(DataType::kInt32, {1})}, {Bytes::Of<int32_t>({1})});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("input 0 (x)"), std::string::npos) << r.status.message();
}

TEST(ActivationOps, PReluWeightLayouts) {
  const std::vector<float> x = {-1, 2, -3, 4, -5, 6, -7, 8};  // [1, 2, 2, 2]
  // Per channel (1-D weight of size C = dims[1]).
  auto r = Exec("PRelu", {Desc(DataType::kFloat, {1, 2, 2, 2}), Desc(DataType::kFloat, {2})},
                {Bytes::Of(x), Bytes::Of<float>({0.5f, 0.25f})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].template As<float>(),
            (std::vector<float>{-0.5f, 2, -1.5f, 4, -1.25f, 6, -1.75f, 8}));
  // ONNX slope [C, 1, 1] broadcasts the same way.
  r = Exec("PRelu", {Desc(DataType::kFloat, {1, 2, 2, 2}), Desc(DataType::kFloat, {2, 1, 1})},
           {Bytes::Of(x), Bytes::Of<float>({0.5f, 0.25f})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.outputs[0].template As<float>(),
            (std::vector<float>{-0.5f, 2, -1.5f, 4, -1.25f, 6, -1.75f, 8}));
  // Scalar weight.
  r = Exec("PRelu", {Desc(DataType::kFloat, {1, 2, 2, 2}), Desc(DataType::kFloat, {1})},
           {Bytes::Of(x), Bytes::Of<float>({0.1f})});
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_FLOAT_EQ(r.outputs[0].template As<float>()[6], -0.7f);
  // A weight that fits nothing.
  r = Exec("PRelu", {Desc(DataType::kFloat, {1, 2, 2, 2}), Desc(DataType::kFloat, {3})},
           {Bytes::Of(x), Bytes::Of<float>({1, 1, 1})});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
  EXPECT_NE(r.status.message().find("input 1 (weight)"), std::string::npos) << r.status.message();
  // Mixed dtypes.
  r = Exec("PRelu", {Desc(DataType::kFloat, {2}), Desc(DataType::kFloat16, {1})},
           {Bytes::Of<float>({1, 2}), Bytes::Of(ToHalf({1}))});
  EXPECT_EQ(r.status.code(), StatusCode::kOpInputNotMatch);
}

TEST(ActivationOps, TranscendentalsCostMoreThanRelu) {
  auto relu = OpLibrary::Builtin().Compile(MakeCall("Relu", {Desc(DataType::kFloat, {1 << 16})}),
                                           TestProps());
  auto gelu = OpLibrary::Builtin().Compile(MakeCall("Gelu", {Desc(DataType::kFloat, {1 << 16})}),
                                           TestProps());
  ASSERT_TRUE(relu.ok());
  ASSERT_TRUE(gelu.ok());
  EXPECT_EQ(gelu.value()->engine(), driver::Engine::kAiVector);
  EXPECT_GT(gelu.value()->work().vector_flops, relu.value()->work().vector_flops);
}

}  // namespace
}  // namespace aclsim::ops::testing
