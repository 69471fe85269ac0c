// The counter-based generator of the random op group (random_ops.cc) and the distributions
// built on it.
//
// Philox-4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers: as easy as 1, 2,
// 3", SC'11): a keyed bijection of a 128-bit counter, ten rounds of two 32x32->64 products
// with the key bumped by the Weyl constants between rounds. Element i of a call with (seed,
// offset) draws the block of counter {lo(i), hi(i), lo(offset), hi(offset)} under key
// {lo(seed), hi(seed)}: its value depends on (seed, offset, i) only -- never on the order or
// the thread the elements are computed in -- and calls with different offsets draw disjoint
// counters.
//
// Thread-safety: pure functions.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

namespace aclsim::ops::random {

using PhiloxCounter = std::array<uint32_t, 4>;
using PhiloxKey = std::array<uint32_t, 2>;

inline PhiloxCounter Philox4x32x10(PhiloxCounter ctr, PhiloxKey key) {
  constexpr uint32_t kMul0 = 0xD2511F53u;
  constexpr uint32_t kMul1 = 0xCD9E8D57u;
  constexpr uint32_t kWeyl0 = 0x9E3779B9u;
  constexpr uint32_t kWeyl1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    if (round != 0) {
      key[0] += kWeyl0;
      key[1] += kWeyl1;
    }
    const uint64_t p0 = uint64_t{kMul0} * ctr[0];
    const uint64_t p1 = uint64_t{kMul1} * ctr[2];
    ctr = {static_cast<uint32_t>(p1 >> 32) ^ ctr[1] ^ key[0], static_cast<uint32_t>(p1),
           static_cast<uint32_t>(p0 >> 32) ^ ctr[3] ^ key[1], static_cast<uint32_t>(p0)};
  }
  return ctr;
}

// The block of element `index` of the stream (seed, offset).
inline PhiloxCounter ElementBits(uint64_t seed, uint64_t offset, uint64_t index) {
  return Philox4x32x10({static_cast<uint32_t>(index), static_cast<uint32_t>(index >> 32),
                        static_cast<uint32_t>(offset), static_cast<uint32_t>(offset >> 32)},
                       {static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)});
}

inline uint64_t Join(uint32_t hi, uint32_t lo) { return (uint64_t{hi} << 32) | lo; }

// A double in [0, 1) from the top 53 bits of hi:lo (every multiple of 2^-53 equally likely).
inline double Unit53(uint32_t hi, uint32_t lo) {
  return static_cast<double>(Join(hi, lo) >> 11) * 0x1.0p-53;
}

// The first uniform of a block: words 0 and 1.
inline double Uniform(const PhiloxCounter& bits) { return Unit53(bits[0], bits[1]); }

// A standard normal by Box-Muller from the block's two uniforms (in double): the cosine
// branch, so one element uses one block.
inline double StandardNormal(const PhiloxCounter& bits) {
  const double u1 = 1.0 - Unit53(bits[0], bits[1]);  // (0, 1]: the log is finite
  const double u2 = Unit53(bits[2], bits[3]);
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
}

// An integer in [0, range) (0 stands for 2^64) by rejection: the 64-bit word 0:1 unless it
// falls in the tail of 2^64 mod range values that would bias the reduction, then word 2:3,
// and when both do (probability below (range / 2^64)^2) the first reduced anyway.
inline uint64_t Below(const PhiloxCounter& bits, uint64_t range) {
  const uint64_t first = Join(bits[0], bits[1]);
  if (range == 0) return first;
  const uint64_t tail = (uint64_t{0} - range) % range;  // 2^64 mod range: the values rejected
  if (first >= tail) return first % range;
  const uint64_t second = Join(bits[2], bits[3]);
  return (second >= tail ? second : first) % range;
}

// Whether an element with keep (or success) probability p is kept: its uniform < p. p <= 0
// never, p >= 1 always, NaN never.
inline bool Keep(const PhiloxCounter& bits, double p) { return Uniform(bits) < p; }

}  // namespace aclsim::ops::random
