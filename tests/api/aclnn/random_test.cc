// The aclnn random operators through the public API: determinism by (seed, offset), the
// statistics of each distribution, narrow dtypes, broadcasting of the Normal tensors, the
// Dropout mask's layout and scaling and its untouched cases, Randperm and Multinomial, and every
// argument error.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <numeric>
#include <string>
#include <vector>

#include "aclnn_test.h"
#include "aclnnop/aclnn_bernoulli.h"
#include "aclnnop/aclnn_dropout.h"
#include "aclnnop/aclnn_multinomial.h"
#include "aclnnop/aclnn_normal.h"
#include "aclnnop/aclnn_normal_out.h"
#include "aclnnop/aclnn_uniform.h"

namespace {

using aclnntest::AclnnTest;
using aclnntest::DeviceArray;

// Whether the recent error message (read once: reading clears it) has every part.
bool MessageHas(std::initializer_list<const char*> parts) {
  const char* raw = aclGetRecentErrMsg();
  const std::string message = raw == nullptr ? "" : raw;
  for (const char* part : parts) {
    if (message.find(part) == std::string::npos) return false;
  }
  return true;
}
bool MessageHas(const char* part) { return MessageHas({part}); }
using aclnntest::Scalar;

constexpr int64_t kN = 65536;

struct Moments {
  double mean = 0;
  double std = 0;
};

template <typename T>
Moments MomentsOf(const std::vector<T>& v) {
  double sum = 0;
  double sq = 0;
  for (T x : v) {
    sum += static_cast<double>(x);
    sq += static_cast<double>(x) * static_cast<double>(x);
  }
  const double n = static_cast<double>(v.size());
  Moments m;
  m.mean = sum / n;
  m.std = std::sqrt(std::max(0.0, sq / n - m.mean * m.mean));
  return m;
}

template <typename T>
bool SameBytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

class RandomTest : public AclnnTest {
 protected:
  // InplaceNormal of a fresh f32 tensor of kN elements.
  std::vector<float> NormalF32(float mean, float std, int64_t seed, int64_t offset) {
    DeviceArray<float> a(std::vector<float>(kN, 0.0f));
    EXPECT_EQ(ACLNN_RUN(stream_, InplaceNormal, a.View({kN}, ACL_FLOAT), mean, std, seed, offset),
              ACLNN_SUCCESS);
    return a.Read();
  }
};

// ---- Normal ----

TEST_F(RandomTest, InplaceNormalIsDeterministicBySeedAndOffset) {
  const auto a = NormalF32(2.0f, 3.0f, 42, 0);
  EXPECT_TRUE(SameBytes(a, NormalF32(2.0f, 3.0f, 42, 0)));
  EXPECT_FALSE(SameBytes(a, NormalF32(2.0f, 3.0f, 42, 1)));
  EXPECT_FALSE(SameBytes(a, NormalF32(2.0f, 3.0f, 43, 0)));
  const Moments m = MomentsOf(a);
  EXPECT_NEAR(m.mean, 2.0, 0.06);  // 5 standard errors (3 / 256)
  EXPECT_NEAR(m.std, 3.0, 0.06);
  // About 68.3% within one std, 95.4% within two.
  int64_t one = 0;
  int64_t two = 0;
  for (float v : a) {
    one += std::fabs(v - 2.0f) < 3.0f;
    two += std::fabs(v - 2.0f) < 6.0f;
  }
  EXPECT_NEAR(static_cast<double>(one) / kN, 0.6827, 0.01);
  EXPECT_NEAR(static_cast<double>(two) / kN, 0.9545, 0.005);
}

TEST_F(RandomTest, InplaceNormalInHalfIsTheSameDrawRounded) {
  const auto wide = NormalF32(0.5f, 1.0f, 7, 11);
  DeviceArray<uint16_t> h(std::vector<uint16_t>(kN, 0));
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceNormal, h.View({kN}, ACL_FLOAT16), 0.5f, 1.0f, 7, 11),
            ACLNN_SUCCESS);
  const auto narrow = aclnntest::FromF16(h.Read());
  for (int64_t i = 0; i < kN; ++i) {
    const float w = wide[static_cast<size_t>(i)];
    ASSERT_NEAR(narrow[static_cast<size_t>(i)], w, std::fabs(w) * 0x1.0p-11f + 0x1.0p-24f) << i;
  }
}

TEST_F(RandomTest, InplaceNormalLeavesTheRestOfAStridedView) {
  DeviceArray<float> a(std::vector<float>(2 * 1024, -100.0f));
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceNormal, a.View({1024}, ACL_FLOAT, {2}), 0.0f, 1.0f, 1, 2),
            ACLNN_SUCCESS);
  const auto v = a.Read();
  const auto dense = NormalF32(0.0f, 1.0f, 1, 2);
  for (size_t i = 0; i < 1024; ++i) {
    ASSERT_EQ(v[2 * i], dense[i]) << i;  // element i of the view draws element i's value
    ASSERT_EQ(v[2 * i + 1], -100.0f) << i;
  }
}

TEST_F(RandomTest, NormalOutFormsAgreeWithInplaceNormal) {
  const auto expected = NormalF32(2.0f, 3.0f, 5, 6);
  DeviceArray<float> out(std::vector<float>(kN, 0.0f));
  ASSERT_EQ(ACLNN_RUN(stream_, NormalFloatFloat, 2.0f, 3.0f, 5, 6, out.View({kN}, ACL_FLOAT)),
            ACLNN_SUCCESS);
  EXPECT_TRUE(SameBytes(out.Read(), expected));
  DeviceArray<float> mean(std::vector<float>(kN, 2.0f));
  DeviceArray<float> out2(std::vector<float>(kN, 0.0f));
  ASSERT_EQ(ACLNN_RUN(stream_, NormalTensorFloat, mean.View({kN}, ACL_FLOAT), 3.0f, 5, 6,
                      out2.View({kN}, ACL_FLOAT)),
            ACLNN_SUCCESS);
  EXPECT_TRUE(SameBytes(out2.Read(), expected));
  DeviceArray<double> std(std::vector<double>(kN, 3.0));
  DeviceArray<float> out3(std::vector<float>(kN, 0.0f));
  ASSERT_EQ(ACLNN_RUN(stream_, NormalFloatTensor, 2.0f, std.View({kN}, ACL_DOUBLE), 5, 6,
                      out3.View({kN}, ACL_FLOAT)),
            ACLNN_SUCCESS);
  EXPECT_TRUE(SameBytes(out3.Read(), expected));
}

TEST_F(RandomTest, NormalTensorTensorBroadcastsMeanAndStd) {
  DeviceArray<float> mean({0.0f, 100.0f, 200.0f, 300.0f});  // [4, 1]
  std::vector<float> stds(256, 1.0f);
  stds[0] = 0.0f;                // column 0: exactly the mean
  DeviceArray<float> std(stds);  // [256]
  DeviceArray<float> out(std::vector<float>(4 * 256, 0.0f));
  ASSERT_EQ(ACLNN_RUN(stream_, NormalTensorTensor, mean.View({4, 1}, ACL_FLOAT),
                      std.View({256}, ACL_FLOAT), 9, 0, out.View({4, 256}, ACL_FLOAT)),
            ACLNN_SUCCESS);
  const auto v = out.Read();
  for (size_t r = 0; r < 4; ++r) {
    EXPECT_EQ(v[r * 256], 100.0f * static_cast<float>(r));
    std::vector<float> row(v.begin() + static_cast<int64_t>(r * 256 + 1),
                           v.begin() + static_cast<int64_t>(r * 256 + 256));
    const Moments m = MomentsOf(row);
    EXPECT_NEAR(m.mean, 100.0 * static_cast<double>(r), 0.35) << r;
    EXPECT_NEAR(m.std, 1.0, 0.25) << r;
  }
}

TEST_F(RandomTest, NormalInBf16AndF16Out) {
  DeviceArray<uint16_t> out(std::vector<uint16_t>(kN, 0));
  ASSERT_EQ(ACLNN_RUN(stream_, NormalFloatFloat, -1.0f, 0.5f, 3, 3, out.View({kN}, ACL_FLOAT16)),
            ACLNN_SUCCESS);
  const Moments m = MomentsOf(aclnntest::FromF16(out.Read()));
  EXPECT_NEAR(m.mean, -1.0, 0.01);
  EXPECT_NEAR(m.std, 0.5, 0.01);
  DeviceArray<uint16_t> bf(std::vector<uint16_t>(kN, 0));
  ASSERT_EQ(ACLNN_RUN(stream_, NormalFloatFloat, -1.0f, 0.5f, 3, 3, bf.View({kN}, ACL_BF16)),
            ACLNN_SUCCESS);
  std::vector<float> values;
  for (uint16_t b : bf.Read()) {
    const uint32_t wide = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &wide, sizeof(f));
    values.push_back(f);
  }
  const Moments mb = MomentsOf(values);
  EXPECT_NEAR(mb.mean, -1.0, 0.01);
  EXPECT_NEAR(mb.std, 0.5, 0.01);
}

// ---- Uniform and Random ----

TEST_F(RandomTest, InplaceUniformStaysInItsRange) {
  const auto draw = [&](uint64_t seed, uint64_t offset) {
    DeviceArray<float> a(std::vector<float>(kN, 0.0f));
    EXPECT_EQ(ACLNN_RUN(stream_, InplaceUniform, a.View({kN}, ACL_FLOAT), -1.0, 3.0, seed, offset),
              ACLNN_SUCCESS);
    return a.Read();
  };
  const auto a = draw(uint64_t{1} << 63, 17);  // seeds are full 64-bit values
  EXPECT_TRUE(SameBytes(a, draw(uint64_t{1} << 63, 17)));
  EXPECT_FALSE(SameBytes(a, draw(uint64_t{1} << 63, 18)));
  for (float v : a) {
    ASSERT_GE(v, -1.0f);
    ASSERT_LT(v, 3.0f);
  }
  const Moments m = MomentsOf(a);
  EXPECT_NEAR(m.mean, 1.0, 0.03);
  EXPECT_NEAR(m.std, 4.0 / std::sqrt(12.0), 0.03);
  // Each quarter of the range gets about a quarter of the values.
  std::vector<int64_t> bins(4, 0);
  for (float v : a) ++bins[static_cast<size_t>(std::floor(v + 1.0f))];
  for (int64_t count : bins) EXPECT_NEAR(static_cast<double>(count) / kN, 0.25, 0.01);
}

TEST_F(RandomTest, InplaceUniformInHalfAndIntegers) {
  DeviceArray<uint16_t> h(std::vector<uint16_t>(kN, 0));
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceUniform, h.View({kN}, ACL_FLOAT16), 0.0, 1.0, 2, 0),
            ACLNN_SUCCESS);
  for (float v : aclnntest::FromF16(h.Read())) {
    ASSERT_GE(v, 0.0f);
    ASSERT_LT(v, 1.0f);  // never rounded up to `to`
  }
  DeviceArray<int32_t> n(std::vector<int32_t>(kN, -1));
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceUniform, n.View({kN}, ACL_INT32), 0.0, 10.0, 2, 0),
            ACLNN_SUCCESS);
  std::vector<int64_t> counts(10, 0);
  for (int32_t v : n.Read()) {
    ASSERT_GE(v, 0);
    ASSERT_LT(v, 10);
    ++counts[static_cast<size_t>(v)];
  }
  for (int64_t c : counts) EXPECT_NEAR(static_cast<double>(c) / kN, 0.1, 0.01);
}

TEST_F(RandomTest, DrawsArePinnedToSeedOffsetAndIndex) {
  // Element i of (seed, offset) is block (i, offset) under key seed: fixed values, whatever
  // the process, the worker count (ACLSIM_WORKERS) or the tensor's size. The values were
  // checked against an independent model of Philox-4x32-10 and the rejection rule.
  DeviceArray<int64_t> a(std::vector<int64_t>(8, 0));
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceRandom, a.View({8}, ACL_INT64), 0, 1000, 42, 7),
            ACLNN_SUCCESS);
  EXPECT_EQ(a.Read(), (std::vector<int64_t>{484, 830, 189, 744, 569, 782, 424, 199}));
  DeviceArray<int64_t> b(std::vector<int64_t>(3, 0));
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceRandom, b.View({3}, ACL_INT64), 0, 1000, 42, 7),
            ACLNN_SUCCESS);
  const auto head = a.Read();
  EXPECT_EQ(b.Read(), std::vector<int64_t>(head.begin(), head.begin() + 3));
}

TEST_F(RandomTest, InplaceRandomDrawsIntegersInRange) {
  DeviceArray<int64_t> a(std::vector<int64_t>(kN, 0));
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceRandom, a.View({kN}, ACL_INT64), -3, 7, 4, 5), ACLNN_SUCCESS);
  const auto v = a.Read();
  std::vector<int64_t> counts(10, 0);
  for (int64_t x : v) {
    ASSERT_GE(x, -3);
    ASSERT_LT(x, 7);
    ++counts[static_cast<size_t>(x + 3)];
  }
  for (int64_t c : counts) EXPECT_NEAR(static_cast<double>(c) / kN, 0.1, 0.01);
  DeviceArray<int64_t> b(std::vector<int64_t>(kN, 0));
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceRandom, b.View({kN}, ACL_INT64), -3, 7, 4, 5), ACLNN_SUCCESS);
  EXPECT_TRUE(SameBytes(v, b.Read()));
  // The whole int64 range, and floats holding integers.
  DeviceArray<int64_t> wide(std::vector<int64_t>(1024, 0));
  ASSERT_EQ(
      ACLNN_RUN(stream_, InplaceRandom, wide.View({1024}, ACL_INT64), INT64_MIN, INT64_MAX, 1, 1),
      ACLNN_SUCCESS);
  int64_t negative = 0;
  for (int64_t x : wide.Read()) negative += x < 0;
  EXPECT_NEAR(static_cast<double>(negative) / 1024, 0.5, 0.08);
  DeviceArray<float> f(std::vector<float>(4096, 0.5f));
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceRandom, f.View({4096}, ACL_FLOAT), 0, 100, 1, 1),
            ACLNN_SUCCESS);
  for (float x : f.Read()) {
    ASSERT_EQ(x, std::floor(x));
    ASSERT_GE(x, 0.0f);
    ASSERT_LT(x, 100.0f);
  }
  DeviceArray<uint8_t> u(std::vector<uint8_t>(4096, 0));
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceRandom, u.View({4096}, ACL_UINT8), 0, 256, 1, 1),
            ACLNN_SUCCESS);
  int64_t high = 0;
  for (uint8_t x : u.Read()) high += x >= 128;
  EXPECT_NEAR(static_cast<double>(high) / 4096, 0.5, 0.05);
}

// ---- Bernoulli ----

TEST_F(RandomTest, BernoulliHasItsRate) {
  DeviceArray<float> self(std::vector<float>(kN, 0.0f));
  DeviceArray<float> out(std::vector<float>(kN, -1.0f));
  Scalar<double> p(0.3, ACL_DOUBLE);
  ASSERT_EQ(ACLNN_RUN(stream_, Bernoulli, self.View({kN}, ACL_FLOAT), p.handle, 8, 1,
                      out.View({kN}, ACL_FLOAT)),
            ACLNN_SUCCESS);
  const auto v = out.Read();
  int64_t ones = 0;
  for (float x : v) {
    ASSERT_TRUE(x == 0.0f || x == 1.0f) << x;
    ones += x == 1.0f;
  }
  EXPECT_NEAR(static_cast<double>(ones) / kN, 0.3, 0.01);
  // In place with the same (seed, offset): the same draw.
  DeviceArray<float> in_place(std::vector<float>(kN, 5.0f));
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceBernoulli, in_place.View({kN}, ACL_FLOAT), p.handle, 8, 1),
            ACLNN_SUCCESS);
  EXPECT_TRUE(SameBytes(in_place.Read(), v));
  // A bool and an f16 out, a float scalar.
  Scalar<float> pf(0.75f, ACL_FLOAT);
  DeviceArray<uint8_t> flags(std::vector<uint8_t>(kN, 7));
  ASSERT_EQ(ACLNN_RUN(stream_, Bernoulli, self.View({kN}, ACL_FLOAT), pf.handle, 8, 2,
                      flags.View({kN}, ACL_BOOL)),
            ACLNN_SUCCESS);
  int64_t set = 0;
  for (uint8_t x : flags.Read()) {
    ASSERT_LE(x, 1);
    set += x;
  }
  EXPECT_NEAR(static_cast<double>(set) / kN, 0.75, 0.01);
  DeviceArray<uint16_t> h(std::vector<uint16_t>(kN, 0));
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceBernoulli, h.View({kN}, ACL_FLOAT16), pf.handle, 8, 2),
            ACLNN_SUCCESS);
  const auto hv = aclnntest::FromF16(h.Read());
  const auto fv = flags.Read();
  for (size_t i = 0; i < hv.size(); ++i) ASSERT_EQ(hv[i], static_cast<float>(fv[i])) << i;
}

TEST_F(RandomTest, BernoulliTensorBroadcastsItsProbabilities) {
  DeviceArray<float> self(std::vector<float>(4 * 512, 0.0f));
  DeviceArray<double> prob({0.0, 1.0, 0.5, 0.1});  // [4, 1]
  DeviceArray<int32_t> out(std::vector<int32_t>(4 * 512, -1));
  ASSERT_EQ(ACLNN_RUN(stream_, BernoulliTensor, self.View({4, 512}, ACL_FLOAT),
                      prob.View({4, 1}, ACL_DOUBLE), 3, 4, out.View({4, 512}, ACL_INT32)),
            ACLNN_SUCCESS);
  const auto v = out.Read();
  std::vector<int64_t> rows(4, 0);
  for (size_t i = 0; i < v.size(); ++i) rows[i / 512] += v[i];
  EXPECT_EQ(rows[0], 0);
  EXPECT_EQ(rows[1], 512);
  EXPECT_NEAR(static_cast<double>(rows[2]) / 512, 0.5, 0.1);
  EXPECT_NEAR(static_cast<double>(rows[3]) / 512, 0.1, 0.05);
  DeviceArray<float> in_place(std::vector<float>(4 * 512, 9.0f));
  ASSERT_EQ(ACLNN_RUN(stream_, InplaceBernoulliTensor, in_place.View({4, 512}, ACL_FLOAT),
                      prob.View({4, 1}, ACL_DOUBLE), 3, 4),
            ACLNN_SUCCESS);
  const auto w = in_place.Read();
  for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(w[i], static_cast<float>(v[i])) << i;
}

// ---- Dropout ----

TEST_F(RandomTest, DropoutScalesKeptElementsAndMasksThem) {
  const int64_t n = 1000;  // mask: align(1000, 128) / 8 = 128 bytes, bits from 1000 on clear
  const auto x = aclnntest::Iota(n, 1.0f);
  DeviceArray<float> input(x);
  DeviceArray<float> out(std::vector<float>(n, -1.0f));
  DeviceArray<uint8_t> mask(std::vector<uint8_t>(128, 0xAB));
  ASSERT_EQ(ACLNN_RUN(stream_, Dropout, input.View({10, 100}, ACL_FLOAT), 0.25, true, 12, 34,
                      out.View({10, 100}, ACL_FLOAT), mask.View({128}, ACL_UINT8)),
            ACLNN_SUCCESS);
  const auto y = out.Read();
  const auto m = mask.Read();
  int64_t kept = 0;
  for (int64_t i = 0; i < 1024; ++i) {
    const bool bit = ((m[static_cast<size_t>(i / 8)] >> (i % 8)) & 1) != 0;
    if (i >= n) {
      ASSERT_FALSE(bit) << i;
      continue;
    }
    const float xi = x[static_cast<size_t>(i)];
    const float yi = y[static_cast<size_t>(i)];
    if (bit) {
      ASSERT_EQ(yi, static_cast<float>(static_cast<double>(xi) / 0.75)) << i;
      ++kept;
    } else {
      ASSERT_EQ(yi, 0.0f) << i;
    }
  }
  EXPECT_NEAR(static_cast<double>(kept) / n, 0.75, 0.05);
  // The same again: the same bits.
  DeviceArray<float> out2(std::vector<float>(n, -1.0f));
  DeviceArray<uint8_t> mask2(std::vector<uint8_t>(128, 0));
  ASSERT_EQ(ACLNN_RUN(stream_, Dropout, input.View({n}, ACL_FLOAT), 0.25, true, 12, 34,
                      out2.View({n}, ACL_FLOAT), mask2.View({128}, ACL_UINT8)),
            ACLNN_SUCCESS);
  EXPECT_TRUE(SameBytes(out2.Read(), y));
  EXPECT_TRUE(SameBytes(mask2.Read(), m));
}

TEST_F(RandomTest, DropoutInHalf) {
  const int64_t n = 4096;
  DeviceArray<uint16_t> input(aclnntest::ToF16(std::vector<float>(n, 3.0f)));
  DeviceArray<uint16_t> out(std::vector<uint16_t>(n, 0));
  DeviceArray<uint8_t> mask(std::vector<uint8_t>(n / 8, 0));
  ASSERT_EQ(ACLNN_RUN(stream_, Dropout, input.View({n}, ACL_FLOAT16), 0.5, true, 1, 0,
                      out.View({n}, ACL_FLOAT16), mask.View({n / 8}, ACL_UINT8)),
            ACLNN_SUCCESS);
  const auto y = aclnntest::FromF16(out.Read());
  const auto m = mask.Read();
  for (int64_t i = 0; i < n; ++i) {
    const bool bit = ((m[static_cast<size_t>(i / 8)] >> (i % 8)) & 1) != 0;
    ASSERT_EQ(y[static_cast<size_t>(i)], bit ? 6.0f : 0.0f) << i;
  }
}

TEST_F(RandomTest, DropoutWithoutDrawingLeavesTheMask) {
  const int64_t n = 200;
  const auto x = aclnntest::Iota(n, -50.0f);
  DeviceArray<float> input(x);
  struct Case {
    double p;
    bool train;
    bool zeros;
  };
  for (const Case& c : {Case{0.0, true, false}, Case{0.5, false, false}, Case{1.0, true, true}}) {
    DeviceArray<float> out(std::vector<float>(n, -1.0f));
    DeviceArray<uint8_t> mask(std::vector<uint8_t>(32, 0xAB));
    ASSERT_EQ(ACLNN_RUN(stream_, Dropout, input.View({n}, ACL_FLOAT), c.p, c.train, 1, 2,
                        out.View({n}, ACL_FLOAT), mask.View({32}, ACL_UINT8)),
              ACLNN_SUCCESS)
        << c.p;
    EXPECT_EQ(out.Read(), c.zeros ? std::vector<float>(n, 0.0f) : x) << c.p;
    EXPECT_EQ(mask.Read(), std::vector<uint8_t>(32, 0xAB)) << c.p;
  }
}

// ---- Randperm and Multinomial ----

TEST_F(RandomTest, RandpermIsAPermutation) {
  const int64_t n = 1000;
  const auto draw = [&](int64_t offset) {
    DeviceArray<int64_t> out(std::vector<int64_t>(n, -1));
    EXPECT_EQ(ACLNN_RUN(stream_, Randperm, n, 3, offset, out.View({n}, ACL_INT64)), ACLNN_SUCCESS);
    return out.Read();
  };
  const auto a = draw(0);
  EXPECT_EQ(a, draw(0));
  EXPECT_NE(a, draw(1));
  std::vector<int64_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int64_t> iota(n);
  std::iota(iota.begin(), iota.end(), int64_t{0});
  EXPECT_EQ(sorted, iota);
  int64_t fixed = 0;  // about one fixed point in a random permutation
  for (int64_t i = 0; i < n; ++i) fixed += a[static_cast<size_t>(i)] == i;
  EXPECT_LT(fixed, 8);
  DeviceArray<float> f(std::vector<float>(n, -1.0f));
  ASSERT_EQ(ACLNN_RUN(stream_, Randperm, n, 3, 0, f.View({n}, ACL_FLOAT)), ACLNN_SUCCESS);
  const auto fv = f.Read();
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(fv[static_cast<size_t>(i)], static_cast<float>(a[static_cast<size_t>(i)]));
  }
}

TEST_F(RandomTest, MultinomialWithReplacementFollowsTheWeights) {
  const int64_t samples = 20000;
  DeviceArray<float> w({1.0f, 0.0f, 3.0f, 0.0f, 0.0f, 0.0f, 0.0f, 5.0f});  // (2, 4)
  DeviceArray<int64_t> out(std::vector<int64_t>(2 * samples, -1));
  ASSERT_EQ(ACLNN_RUN(stream_, Multinomial, w.View({2, 4}, ACL_FLOAT), samples, true, 6, 7,
                      out.View({2, samples}, ACL_INT64)),
            ACLNN_SUCCESS);
  const auto v = out.Read();
  std::vector<int64_t> counts(4, 0);
  for (int64_t s = 0; s < samples; ++s) {
    ++counts[static_cast<size_t>(v[static_cast<size_t>(s)])];
    ASSERT_EQ(v[static_cast<size_t>(samples + s)], 3);
  }
  EXPECT_EQ(counts[1] + counts[3], 0);
  EXPECT_NEAR(static_cast<double>(counts[0]) / samples, 0.25, 0.015);
  DeviceArray<int64_t> again(std::vector<int64_t>(2 * samples, -1));
  ASSERT_EQ(ACLNN_RUN(stream_, Multinomial, w.View({2, 4}, ACL_FLOAT), samples, true, 6, 7,
                      again.View({2, samples}, ACL_INT64)),
            ACLNN_SUCCESS);
  EXPECT_EQ(again.Read(), v);
}

TEST_F(RandomTest, MultinomialWithoutReplacementDrawsDistinctCategories) {
  // Every row of (4, 1, 2) weights: the first pick is category 2 about half the time.
  const int64_t rows = 4000;
  std::vector<double> weights;
  for (int64_t r = 0; r < rows; ++r) weights.insert(weights.end(), {1.0, 1.0, 2.0, 0.0});
  DeviceArray<double> w(weights);
  DeviceArray<int64_t> out(std::vector<int64_t>(rows * 3, -1));
  ASSERT_EQ(ACLNN_RUN(stream_, Multinomial, w.View({rows, 4}, ACL_DOUBLE), 3, false, 1, 2,
                      out.View({rows, 3}, ACL_INT64)),
            ACLNN_SUCCESS);
  const auto v = out.Read();
  int64_t first_two = 0;
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<int64_t> row(v.begin() + r * 3, v.begin() + r * 3 + 3);
    first_two += row[0] == 2;
    std::sort(row.begin(), row.end());
    ASSERT_EQ(row, (std::vector<int64_t>{0, 1, 2})) << r;  // the zero weight never
  }
  EXPECT_NEAR(static_cast<double>(first_two) / rows, 0.5, 0.03);
}

TEST_F(RandomTest, MultinomialWithABadWeightFailsOnTheDevice) {
  DeviceArray<float> w({1.0f, -1.0f, 2.0f});
  DeviceArray<int64_t> out(std::vector<int64_t>(2, 0));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnMultinomialGetWorkspaceSize(w.View({3}, ACL_FLOAT), 2, true, 0, 0,
                                             out.View({2}, ACL_INT64), &ws, &ex),
            ACLNN_SUCCESS);
  ASSERT_EQ(ws, 0u);
  EXPECT_EQ(aclnnMultinomial(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_TRUE(MessageHas("finite and >= 0"));
}

// ---- errors ----

class RandomErrorsTest : public AclnnTest {
 protected:
  uint64_t ws_ = 0;
  aclOpExecutor* ex_ = nullptr;
};

TEST_F(RandomErrorsTest, NullPointersAreRefused) {
  DeviceArray<float> a(std::vector<float>(16, 0.0f));
  aclTensor* t = a.View({16}, ACL_FLOAT);
  Scalar<double> p(0.5, ACL_DOUBLE);
  DeviceArray<uint8_t> mask(std::vector<uint8_t>(16, 0));
  aclTensor* m = mask.View({16}, ACL_UINT8);
  EXPECT_EQ(aclnnInplaceNormalGetWorkspaceSize(nullptr, 0, 1, 0, 0, &ws_, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_TRUE(MessageHas({"aclnnInplaceNormal", "selfRef", "NULL"}));
  EXPECT_EQ(aclnnInplaceNormalGetWorkspaceSize(t, 0, 1, 0, 0, nullptr, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnInplaceNormalGetWorkspaceSize(t, 0, 1, 0, 0, &ws_, nullptr),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnNormalTensorTensorGetWorkspaceSize(nullptr, t, 0, 0, t, &ws_, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_TRUE(MessageHas("mean"));
  EXPECT_EQ(aclnnNormalTensorTensorGetWorkspaceSize(t, nullptr, 0, 0, t, &ws_, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnNormalTensorFloatGetWorkspaceSize(t, 1, 0, 0, nullptr, &ws_, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnNormalFloatTensorGetWorkspaceSize(0, nullptr, 0, 0, t, &ws_, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnNormalFloatFloatGetWorkspaceSize(0, 1, 0, 0, nullptr, &ws_, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnInplaceUniformGetWorkspaceSize(nullptr, 0, 1, 0, 0, &ws_, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnInplaceRandomGetWorkspaceSize(nullptr, 0, 1, 0, 0, &ws_, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnBernoulliGetWorkspaceSize(t, nullptr, 0, 0, t, &ws_, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_TRUE(MessageHas("prob"));
  EXPECT_EQ(aclnnBernoulliGetWorkspaceSize(nullptr, p.handle, 0, 0, t, &ws_, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnBernoulliGetWorkspaceSize(t, p.handle, 0, 0, nullptr, &ws_, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnBernoulliTensorGetWorkspaceSize(t, nullptr, 0, 0, t, &ws_, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnInplaceBernoulliGetWorkspaceSize(nullptr, p.handle, 0, 0, &ws_, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnInplaceBernoulliTensorGetWorkspaceSize(t, nullptr, 0, 0, &ws_, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnDropoutGetWorkspaceSize(nullptr, 0.5, true, 0, 0, t, m, &ws_, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnDropoutGetWorkspaceSize(t, 0.5, true, 0, 0, nullptr, m, &ws_, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnDropoutGetWorkspaceSize(t, 0.5, true, 0, 0, t, nullptr, &ws_, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_TRUE(MessageHas("maskOut"));
}

TEST_F(RandomErrorsTest, BadValuesAreRefused) {
  DeviceArray<float> a(std::vector<float>(16, 0.0f));
  aclTensor* t = a.View({16}, ACL_FLOAT);
  DeviceArray<uint8_t> mask(std::vector<uint8_t>(16, 0));
  aclTensor* m = mask.View({16}, ACL_UINT8);
  EXPECT_EQ(aclnnInplaceNormalGetWorkspaceSize(t, 0, -1, 0, 0, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(MessageHas({"aclnnInplaceNormal", "std is -1"}));
  EXPECT_EQ(aclnnInplaceNormalGetWorkspaceSize(t, 0, NAN, 0, 0, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnNormalFloatFloatGetWorkspaceSize(0, -0.5f, 0, 0, t, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnNormalTensorFloatGetWorkspaceSize(t, -0.5f, 0, 0, t, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnInplaceUniformGetWorkspaceSize(t, 2.0, 1.0, 0, 0, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(MessageHas("from"));
  EXPECT_EQ(aclnnInplaceUniformGetWorkspaceSize(t, 0.0, INFINITY, 0, 0, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnInplaceRandomGetWorkspaceSize(t, 5, 5, 0, 0, &ws_, &ex_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(MessageHas("aclnnInplaceRandom"));
  EXPECT_EQ(aclnnInplaceRandomGetWorkspaceSize(t, 6, 5, 0, 0, &ws_, &ex_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnInplaceRandomGetWorkspaceSize(t, 0, (int64_t{1} << 24) + 2, 0, 0, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);  // past the integers a float holds
  DeviceArray<int8_t> i8(std::vector<int8_t>(16, 0));
  EXPECT_EQ(aclnnInplaceRandomGetWorkspaceSize(i8.View({16}, ACL_INT8), -200, 0, 0, 0, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(MessageHas("does not fit"));
  for (double bad : {-0.1, 1.5, static_cast<double>(NAN)}) {
    Scalar<double> p(bad, ACL_DOUBLE);
    EXPECT_EQ(aclnnBernoulliGetWorkspaceSize(t, p.handle, 0, 0, t, &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID)
        << bad;
    EXPECT_EQ(aclnnInplaceBernoulliGetWorkspaceSize(t, p.handle, 0, 0, &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID)
        << bad;
    EXPECT_EQ(aclnnDropoutGetWorkspaceSize(t, bad, true, 0, 0, t, m, &ws_, &ex_),
              ACLNN_ERR_PARAM_INVALID)
        << bad;
    EXPECT_TRUE(MessageHas("aclnnDropout"));
  }
}

TEST_F(RandomErrorsTest, BadDtypesAndShapesAreRefused) {
  DeviceArray<float> a(std::vector<float>(64, 0.0f));
  aclTensor* t16 = a.View({16}, ACL_FLOAT);
  aclTensor* t4x4 = a.View({4, 4}, ACL_FLOAT);
  aclTensor* t3 = a.View({3}, ACL_FLOAT);
  aclTensor* t4 = a.View({4}, ACL_FLOAT);
  DeviceArray<int32_t> ints(std::vector<int32_t>(16, 0));
  aclTensor* i16 = ints.View({16}, ACL_INT32);
  DeviceArray<uint8_t> flags(std::vector<uint8_t>(16, 0));
  aclTensor* b16 = flags.View({16}, ACL_BOOL);
  aclTensor* m16 = flags.View({16}, ACL_UINT8);
  Scalar<double> p(0.5, ACL_DOUBLE);
  Scalar<int64_t> p_int(1, ACL_INT64);
  // Normal: the out forms are floating only; shapes must match the broadcast.
  EXPECT_EQ(aclnnNormalFloatFloatGetWorkspaceSize(0, 1, 0, 0, i16, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(MessageHas("out is INT32"));
  EXPECT_EQ(aclnnNormalTensorTensorGetWorkspaceSize(i16, t16, 0, 0, t16, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnNormalTensorTensorGetWorkspaceSize(t3, t4, 0, 0, t4, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(MessageHas("do not broadcast"));
  EXPECT_EQ(aclnnNormalTensorTensorGetWorkspaceSize(t4, t4, 0, 0, t16, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnNormalTensorFloatGetWorkspaceSize(t4, 1, 0, 0, t4x4, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  // The fills: no bool for Uniform / Random; Normal takes it.
  EXPECT_EQ(aclnnInplaceUniformGetWorkspaceSize(b16, 0, 1, 0, 0, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(MessageHas("selfRef is BOOL"));
  EXPECT_EQ(aclnnInplaceRandomGetWorkspaceSize(b16, 0, 2, 0, 0, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnInplaceNormalGetWorkspaceSize(b16, 0, 1, 0, 0, &ws_, &ex_), ACLNN_SUCCESS);
  aclDestroyAclOpExecutor(ex_);
  // Bernoulli: prob dtypes, shapes.
  EXPECT_EQ(aclnnBernoulliGetWorkspaceSize(t16, p_int.handle, 0, 0, t16, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnBernoulliGetWorkspaceSize(t16, p.handle, 0, 0, t4x4, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnBernoulliTensorGetWorkspaceSize(t16, i16, 0, 0, t16, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnBernoulliTensorGetWorkspaceSize(t4, t16, 0, 0, t4, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(MessageHas("does not broadcast"));
  EXPECT_EQ(aclnnInplaceBernoulliTensorGetWorkspaceSize(t4, t3, 0, 0, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  // Dropout: floating input, out like it, a uint8 mask of the aligned size.
  EXPECT_EQ(aclnnDropoutGetWorkspaceSize(i16, 0.5, true, 0, 0, i16, m16, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnDropoutGetWorkspaceSize(t16, 0.5, true, 0, 0, t4x4, m16, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnDropoutGetWorkspaceSize(t16, 0.5, true, 0, 0, t16, t16, &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(MessageHas("maskOut"));
  EXPECT_EQ(aclnnDropoutGetWorkspaceSize(t16, 0.5, true, 0, 0, t16, flags.View({8}, ACL_UINT8),
                                         &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(MessageHas("align(16, 128) / 8 = 16"));
}

TEST_F(RandomErrorsTest, RandpermAndMultinomialArgumentsAreChecked) {
  DeviceArray<int64_t> a(std::vector<int64_t>(4096, 0));
  EXPECT_EQ(aclnnRandpermGetWorkspaceSize(4, 0, 0, nullptr, &ws_, &ex_), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnRandpermGetWorkspaceSize(-1, 0, 0, a.View({4}, ACL_INT64), &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(MessageHas("aclnnRandperm"));
  EXPECT_EQ(aclnnRandpermGetWorkspaceSize(5, 0, 0, a.View({4}, ACL_INT64), &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnRandpermGetWorkspaceSize(4, 0, 0, a.View({4}, ACL_BOOL), &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnRandpermGetWorkspaceSize(4000, 0, 0, a.View({4000}, ACL_FLOAT16), &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(MessageHas("does not hold 3999 exactly"));
  DeviceArray<float> w(std::vector<float>(24, 1.0f));
  aclTensor* w23 = w.View({2, 3}, ACL_FLOAT);
  EXPECT_EQ(aclnnMultinomialGetWorkspaceSize(nullptr, 1, true, 0, 0, a.View({2, 1}, ACL_INT64),
                                             &ws_, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnMultinomialGetWorkspaceSize(w23, 1, true, 0, 0, nullptr, &ws_, &ex_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(
      aclnnMultinomialGetWorkspaceSize(w23, 0, true, 0, 0, a.View({2, 0}, ACL_INT64), &ws_, &ex_),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(MessageHas("aclnnMultinomial"));
  EXPECT_EQ(
      aclnnMultinomialGetWorkspaceSize(w23, 4, false, 0, 0, a.View({2, 4}, ACL_INT64), &ws_, &ex_),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(MessageHas("without replacement"));
  EXPECT_EQ(
      aclnnMultinomialGetWorkspaceSize(w23, 2, true, 0, 0, a.View({2, 2}, ACL_INT32), &ws_, &ex_),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(
      aclnnMultinomialGetWorkspaceSize(w23, 2, true, 0, 0, a.View({3, 2}, ACL_INT64), &ws_, &ex_),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnMultinomialGetWorkspaceSize(w.View({2, 3, 4}, ACL_FLOAT), 2, true, 0, 0,
                                             a.View({2, 3, 2}, ACL_INT64), &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnMultinomialGetWorkspaceSize(a.View({2, 3}, ACL_INT64), 2, true, 0, 0,
                                             a.View({2, 2}, ACL_INT64), &ws_, &ex_),
            ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
