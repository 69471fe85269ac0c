// The random op group: Philox-4x32-10 against the Random123 known-answer vectors, the
// StatelessRandom kernel's determinism and distributions, the rounding to narrow dtypes and
// its shape inference errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "op_test_util.h"
#include "ops/groups/random.h"

namespace aclsim::ops {
namespace {

using testing::Bytes;
using testing::Desc;
using testing::MakeCall;
using testing::RunOp;

TEST(RandomOpsTest, PhiloxMatchesTheKnownAnswerVectors) {
  // Random123's kat_vectors, "philox4x32 10": counter, key, expected output.
  struct Kat {
    random::PhiloxCounter ctr;
    random::PhiloxKey key;
    random::PhiloxCounter out;
  };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}},
      {{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
       {0xffffffffu, 0xffffffffu},
       {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}},
      {{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u},
       {0xa4093822u, 0x299f31d0u},
       {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}},
  };
  for (const Kat& kat : kats) EXPECT_EQ(random::Philox4x32x10(kat.ctr, kat.key), kat.out);
}

TEST(RandomOpsTest, BelowStaysInRange) {
  for (uint64_t range : {uint64_t{1}, uint64_t{3}, uint64_t{1000}, (uint64_t{1} << 63) + 5}) {
    for (uint64_t i = 0; i < 200; ++i) {
      EXPECT_LT(random::Below(random::ElementBits(1, 2, i), range), range);
    }
  }
}

OpCall Draw(const char* dist, std::vector<TensorDesc> inputs, std::vector<int64_t> shape,
            DataType dtype, int64_t seed, int64_t offset) {
  AttrMap attrs = {{"distribution", std::string(dist)},
                   {"shape", shape},
                   {"dtype", dtype},
                   {"seed", seed},
                   {"offset", offset}};
  return MakeCall("StatelessRandom", std::move(inputs), {}, std::move(attrs));
}

TensorDesc Scalar64() { return Desc(DataType::kDouble, {}); }

TEST(RandomOpsTest, UniformIsDeterministicAndInRange) {
  const std::vector<int64_t> shape = {64, 256};
  const auto run = [&](int64_t seed, int64_t offset) {
    auto r = RunOp(Draw("uniform", {Scalar64(), Scalar64()}, shape, DataType::kFloat, seed, offset),
                   {Bytes::Of(std::vector<double>{-2.0}), Bytes::Of(std::vector<double>{3.0})});
    EXPECT_TRUE(r.status.ok()) << r.status.message();
    return r.outputs.at(0).As<float>();
  };
  const auto a = run(7, 0);
  EXPECT_EQ(a, run(7, 0));
  EXPECT_NE(a, run(7, 1));
  EXPECT_NE(a, run(8, 0));
  double sum = 0;
  for (float v : a) {
    ASSERT_GE(v, -2.0f);
    ASSERT_LT(v, 3.0f);
    sum += v;
  }
  EXPECT_NEAR(sum / static_cast<double>(a.size()), 0.5, 0.03);
}

TEST(RandomOpsTest, NormalInHalfIsTheDoubleValueRoundedOnce) {
  const std::vector<int64_t> shape = {4096};
  const std::vector<Bytes> params = {Bytes::Of(std::vector<double>{1.5}),
                                     Bytes::Of(std::vector<double>{0.25})};
  auto wide =
      RunOp(Draw("normal", {Scalar64(), Scalar64()}, shape, DataType::kDouble, 3, 9), params);
  auto half =
      RunOp(Draw("normal", {Scalar64(), Scalar64()}, shape, DataType::kFloat16, 3, 9), params);
  ASSERT_TRUE(wide.status.ok()) << wide.status.message();
  ASSERT_TRUE(half.status.ok()) << half.status.message();
  const auto w = wide.outputs[0].As<double>();
  const auto h = half.outputs[0].As<uint16_t>();
  for (size_t i = 0; i < w.size(); ++i) {
    // The nearest half: no other half is closer to the double value.
    const double got = HalfToFloat(h[i]);
    const double below = HalfToFloat(static_cast<uint16_t>(h[i] - 1));
    const double above = HalfToFloat(static_cast<uint16_t>(h[i] + 1));
    ASSERT_LE(std::fabs(got - w[i]), std::fabs(below - w[i])) << i;
    ASSERT_LE(std::fabs(got - w[i]), std::fabs(above - w[i])) << i;
  }
}

TEST(RandomOpsTest, DropoutMaskMatchesTheDropoutKeeps) {
  const int64_t n = 300;  // 3 blocks of 128 bits: 48 bytes, the last 84 bits zero
  const std::vector<float> x(n, 1.0f);
  auto out =
      RunOp(Draw("dropout", {Desc(DataType::kFloat, {n}), Scalar64()}, {n}, DataType::kFloat, 5, 6),
            {Bytes::Of(x), Bytes::Of(std::vector<double>{0.5})});
  OpCall mask_call = Draw("dropout_mask", {Scalar64()}, {48}, DataType::kUint8, 5, 6);
  mask_call.attrs["count"] = n;
  auto mask = RunOp(mask_call, {Bytes::Of(std::vector<double>{0.5})});
  ASSERT_TRUE(out.status.ok()) << out.status.message();
  ASSERT_TRUE(mask.status.ok()) << mask.status.message();
  const auto y = out.outputs[0].As<float>();
  const auto m = mask.outputs[0].As<uint8_t>();
  for (int64_t i = 0; i < 48 * 8; ++i) {
    const bool bit = ((m[static_cast<size_t>(i / 8)] >> (i % 8)) & 1) != 0;
    if (i >= n) {
      ASSERT_FALSE(bit) << i;
    } else {
      ASSERT_EQ(bit, y[static_cast<size_t>(i)] == 2.0f) << i;
    }
  }
}

TEST(RandomOpsTest, InferenceRefusesBadCalls) {
  auto bad_dist = RunOp(Draw("gamma", {}, {4}, DataType::kFloat, 0, 0), {});
  testing::ExpectError(bad_dist, StatusCode::kOpAttrNotMatch, "distribution");
  auto missing = RunOp(Draw("normal", {Scalar64()}, {4}, DataType::kFloat, 0, 0), {});
  testing::ExpectError(missing, StatusCode::kOpInputNotMatch, "needs input p2");
  auto shape =
      RunOp(Draw("bernoulli", {Desc(DataType::kFloat, {3})}, {4}, DataType::kFloat, 0, 0), {});
  testing::ExpectError(shape, StatusCode::kOpInputNotMatch, "does not broadcast");
  OpCall empty = Draw("random", {}, {4}, DataType::kInt32, 0, 0);
  empty.attrs["from"] = int64_t{5};
  empty.attrs["to"] = int64_t{5};
  testing::ExpectError(RunOp(empty, {}), StatusCode::kOpAttrNotMatch, "from < to");
}

}  // namespace
}  // namespace aclsim::ops
