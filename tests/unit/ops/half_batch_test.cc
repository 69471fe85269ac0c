// Bulk fp16 conversion (ops/half_batch.h) agrees bit for bit with the scalar conversion,
// on this host's fast path and at every length (vector body and scalar tail).
#include "ops/half_batch.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "common/float16.h"

namespace aclsim::ops {
namespace {

uint32_t Bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

float FromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

TEST(HalfBatch, EveryHalfWidensLikeTheScalarConversion) {
  std::vector<uint16_t> halves(65536);
  for (size_t i = 0; i < halves.size(); ++i) halves[i] = static_cast<uint16_t>(i);
  std::vector<float> floats(halves.size());
  HalfToFloatN(halves.data(), floats.data(), halves.size());
  for (size_t i = 0; i < halves.size(); ++i) {
    ASSERT_EQ(Bits(floats[i]), Bits(HalfToFloat(halves[i]))) << "half 0x" << std::hex << i;
  }
}

TEST(HalfBatch, FloatsNarrowLikeTheScalarConversion) {
  std::vector<float> floats = {0.0f,
                               -0.0f,
                               1.0f,
                               65504.0f,
                               65519.99f,
                               65520.0f,
                               1e-8f,
                               5.96e-8f,
                               2.98e-8f,
                               6.1e-5f,
                               FromBits(0x7f800000u),
                               FromBits(0xff800000u),
                               FromBits(0x7fc00000u),
                               FromBits(0x7f800001u),
                               FromBits(0xffffe000u),
                               FromBits(0x33000000u),
                               FromBits(0x33000001u),
                               FromBits(0x38800000u),
                               FromBits(0x387fffffu)};
  std::mt19937 rng(7);
  for (int i = 0; i < 200000; ++i) {
    uint32_t bits = rng();
    if (i % 2 == 0) bits = (bits & 0x8fffffffu) | 0x30000000u;  // mostly near the half range
    floats.push_back(FromBits(bits));
  }
  for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{8}, size_t{9}, floats.size()}) {
    std::vector<uint16_t> halves(n, 0xdead);
    FloatToHalfN(floats.data(), halves.data(), n);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(halves[i], FloatToHalf(floats[i]))
          << "float bits 0x" << std::hex << Bits(floats[i]);
    }
  }
}

TEST(HalfBatch, NansStayQuietWithTheirLeadingPayload) {
  EXPECT_EQ(FloatToHalf(FromBits(0x7fc00000u)), 0x7e00u);
  EXPECT_EQ(FloatToHalf(FromBits(0xffc00000u)), 0xfe00u);
  EXPECT_EQ(FloatToHalf(FromBits(0x7f802000u)), 0x7e01u);  // signalling: made quiet
  EXPECT_EQ(Bits(HalfToFloat(0x7c01u)), 0x7fc02000u);
  EXPECT_EQ(FloatToHalf(FromBits(0x7f800000u)), 0x7c00u);
}

}  // namespace
}  // namespace aclsim::ops
