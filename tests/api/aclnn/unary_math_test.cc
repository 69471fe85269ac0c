// aclnn unary math through the public API: every op against the host's math on a strided
// view, the in-place forms, integer inputs (Floor copies them, Reciprocal computes in float),
// predicates with bool outputs, LogicalNot on numbers, and the dtype errors.
#include <cmath>
#include <functional>
#include <limits>

#include "aclnn_test.h"
#include "aclnnop/aclnn_ceil.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_erf.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_fast_gelu.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_isfinite.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_logical_xor.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_tanh.h"

namespace {

using aclnntest::AclnnTest;
using aclnntest::DeviceArray;

using FirstPhase = aclnnStatus (*)(const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**);
using SecondPhase = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

struct UnaryCase {
  const char* name;
  FirstPhase first;
  SecondPhase second;
  std::function<double(double)> host;
};

aclnnStatus RunUnary(FirstPhase first, SecondPhase second, const aclTensor* x, aclTensor* y,
                     aclrtStream stream) {
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  const aclnnStatus status = first(x, y, &ws, &ex);
  if (status != ACLNN_SUCCESS) return status;
  return aclnntest::Launch(second, ws, ex, stream);
}

// Log2's header declares its out const; the rest take aclTensor*.
aclnnStatus Log2First(const aclTensor* x, aclTensor* y, uint64_t* ws, aclOpExecutor** ex) {
  return aclnnLog2GetWorkspaceSize(x, y, ws, ex);
}

double HalfEven(double x) { return std::nearbyint(x); }  // the default mode: ties to even

TEST_F(AclnnTest, UnaryMathMatchesTheHost) {
  const double selu_alpha = 1.6732632423543772;
  const double selu_scale = 1.0507009873554805;
  const std::vector<UnaryCase> cases = {
      {"Ceil", aclnnCeilGetWorkspaceSize, aclnnCeil, [](double x) { return std::ceil(x); }},
      {"Floor", aclnnFloorGetWorkspaceSize, aclnnFloor, [](double x) { return std::floor(x); }},
      {"Round", aclnnRoundGetWorkspaceSize, aclnnRound, HalfEven},
      {"Tan", aclnnTanGetWorkspaceSize, aclnnTan, [](double x) { return std::tan(x); }},
      {"Asin", aclnnAsinGetWorkspaceSize, aclnnAsin, [](double x) { return std::asin(x / 3); }},
      {"Acos", aclnnAcosGetWorkspaceSize, aclnnAcos, [](double x) { return std::acos(x / 3); }},
      {"Atan", aclnnAtanGetWorkspaceSize, aclnnAtan, [](double x) { return std::atan(x); }},
      {"Sinh", aclnnSinhGetWorkspaceSize, aclnnSinh, [](double x) { return std::sinh(x); }},
      {"Cosh", aclnnCoshGetWorkspaceSize, aclnnCosh, [](double x) { return std::cosh(x); }},
      {"Erf", aclnnErfGetWorkspaceSize, aclnnErf, [](double x) { return std::erf(x); }},
      {"Square", aclnnSquareGetWorkspaceSize, aclnnSquare, [](double x) { return x * x; }},
      {"Expm1", aclnnExpm1GetWorkspaceSize, aclnnExpm1, [](double x) { return std::expm1(x); }},
      {"Log1p", aclnnLog1pGetWorkspaceSize, aclnnLog1p, [](double x) { return std::log1p(x + 3); }},
      {"Log2", Log2First, aclnnLog2, [](double x) { return std::log2(x + 3); }},
      {"Log10", aclnnLog10GetWorkspaceSize, aclnnLog10, [](double x) { return std::log10(x + 3); }},
      {"Reciprocal", aclnnReciprocalGetWorkspaceSize, aclnnReciprocal,
       [](double x) { return 1 / x; }},
      {"Selu", aclnnSeluGetWorkspaceSize, aclnnSelu,
       [=](double x) { return selu_scale * (x > 0 ? x : selu_alpha * std::expm1(x)); }},
      {"Mish", aclnnMishGetWorkspaceSize, aclnnMish,
       [](double x) { return x * std::tanh(std::log1p(std::exp(x))); }},
      {"FastGelu", aclnnFastGeluGetWorkspaceSize, aclnnFastGelu,
       [](double x) {
         return x / (1 + std::exp(-1.702 * std::fabs(x))) * std::exp(0.851 * (x - std::fabs(x)));
       }},
  };
  // Values inside every op's domain once shifted as the host function shifts them; a view
  // of every second element.
  const std::vector<float> x = {-2.5f, 0, -1.25f, 0, -0.5f, 0, 0.5f, 0, 1.5f, 0, 2.5f, 0};
  for (const UnaryCase& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<float> in_values = x;
    // Asin / Acos read x / 3 and the logs x + 3: the device computes on those.
    for (size_t i = 0; i < in_values.size(); i += 2) {
      if (std::string(c.name) == "Asin" || std::string(c.name) == "Acos") in_values[i] /= 3;
      if (std::string(c.name).rfind("Log", 0) == 0) in_values[i] += 3;
    }
    DeviceArray<float> in(in_values);
    DeviceArray<float> out(std::vector<float>(6, -7));
    ASSERT_EQ(RunUnary(c.first, c.second, in.View({6}, ACL_FLOAT, {2}), out.View({6}, ACL_FLOAT),
                       stream_),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    const auto got = out.Read();
    for (size_t i = 0; i < 6; ++i) {
      const double want = c.host(x[2 * i]);
      EXPECT_NEAR(got[i], want, 2e-6 * std::max(1.0, std::fabs(want))) << "x = " << x[2 * i];
    }
  }
}

TEST_F(AclnnTest, UnaryMathInPlaceForms) {
  DeviceArray<float> a({-1.5f, 0.5f, 2.5f, 3.25f});
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceCeil, a.View({4}, ACL_FLOAT)), ACLNN_SUCCESS);
  EXPECT_EQ(a.Read(), (std::vector<float>{-1, 1, 3, 4}));
  DeviceArray<float> b({-1.5f, 0.5f, 2.5f, 3.25f});
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceFloor, b.View({4}, ACL_FLOAT)), ACLNN_SUCCESS);
  EXPECT_EQ(b.Read(), (std::vector<float>{-2, 0, 2, 3}));
  DeviceArray<float> c({-1.5f, 0.5f, 2.5f, 3.25f});
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceRound, c.View({4}, ACL_FLOAT)), ACLNN_SUCCESS);
  EXPECT_EQ(c.Read(), (std::vector<float>{-2, 0, 2, 3}));
  DeviceArray<float> d({-4, 0.5f, 2, 8});
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceReciprocal, d.View({4}, ACL_FLOAT)), ACLNN_SUCCESS);
  EXPECT_EQ(d.Read(), (std::vector<float>{-0.25f, 2, 0.5f, 0.125f}));
  DeviceArray<float> e({0, 1});
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceErf, e.View({2}, ACL_FLOAT)), ACLNN_SUCCESS);
  EXPECT_NEAR(e.Read()[1], std::erf(1.0), 1e-6);
  DeviceArray<int32_t> f({0, 3, -2, 0});
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceLogicalNot, f.View({4}, ACL_INT32)), ACLNN_SUCCESS);
  EXPECT_EQ(f.Read(), (std::vector<int32_t>{1, 0, 0, 1}));
}

TEST_F(AclnnTest, UnaryMathIntegerInputsAndPredicates) {
  // Floor copies integers; Reciprocal and Log2 compute them in the float out's dtype.
  DeviceArray<int32_t> ints({-3, 1, 4, 8});
  DeviceArray<int32_t> floor_out(std::vector<int32_t>(4));
  ASSERT_EQ(ACLNN_RUN(stream_, Floor, ints.View({4}, ACL_INT32), floor_out.View({4}, ACL_INT32)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(floor_out.Read(), (std::vector<int32_t>{-3, 1, 4, 8}));
  DeviceArray<float> recip(std::vector<float>(4));
  ASSERT_EQ(ACLNN_RUN(stream_, Reciprocal, ints.View({4}, ACL_INT32), recip.View({4}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(recip.Read(), (std::vector<float>{-1.0f / 3, 1, 0.25f, 0.125f}));
  DeviceArray<float> log2(std::vector<float>(3));
  ASSERT_EQ(ACLNN_RUN(stream_, Log2, ints.View({3}, ACL_INT32, {}, 1), log2.View({3}, ACL_FLOAT)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(log2.Read(), (std::vector<float>{0, 2, 3}));

  const float inf = std::numeric_limits<float>::infinity();
  DeviceArray<float> special({1, inf, -inf, std::nanf("")});
  DeviceArray<uint8_t> finite(std::vector<uint8_t>(4, 7));
  ASSERT_EQ(ACLNN_RUN(stream_, IsFinite, special.View({4}, ACL_FLOAT), finite.View({4}, ACL_BOOL)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(finite.Read(), (std::vector<uint8_t>{1, 0, 0, 0}));
  ASSERT_EQ(ACLNN_RUN(stream_, IsInf, special.View({4}, ACL_FLOAT), finite.View({4}, ACL_BOOL)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(finite.Read(), (std::vector<uint8_t>{0, 1, 1, 0}));
  DeviceArray<float> not_out(std::vector<float>(4));
  ASSERT_EQ(
      ACLNN_RUN(stream_, LogicalNot, special.View({4}, ACL_FLOAT), not_out.View({4}, ACL_FLOAT)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(not_out.Read(), (std::vector<float>{0, 0, 0, 0}));
}

TEST_F(AclnnTest, UnaryMathRefusesWrongDtypes) {
  DeviceArray<int32_t> ints({1, 2});
  DeviceArray<float> floats({1, 2});
  DeviceArray<int32_t> int_out(std::vector<int32_t>(2));
  DeviceArray<float> float_out(std::vector<float>(2));
  // Ceil and the activations take floats only; IsFinite wants a bool out; Tan of integers
  // needs a floating out.
  EXPECT_EQ(ACLNN_RUN(stream_, Ceil, ints.View({2}, ACL_INT32), int_out.View({2}, ACL_INT32)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclnnCeil"), std::string::npos);
  EXPECT_EQ(ACLNN_RUN(stream_, Mish, ints.View({2}, ACL_INT32), int_out.View({2}, ACL_INT32)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(
      ACLNN_RUN(stream_, IsFinite, floats.View({2}, ACL_FLOAT), float_out.View({2}, ACL_FLOAT)),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("must be bool"), std::string::npos);
  EXPECT_EQ(ACLNN_RUN(stream_, Tan, ints.View({2}, ACL_INT32), int_out.View({2}, ACL_INT32)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(ACLNN_RUN(stream_, Sinh, floats.View({2}, ACL_FLOAT), float_out.View({3}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(ACLNN_RUN(stream_, Erf, nullptr, float_out.View({2}, ACL_FLOAT)),
            ACLNN_ERR_PARAM_NULLPTR);
}

}  // namespace
