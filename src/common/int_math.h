// Integer arithmetic of the cost model and the op library's work builders: nanoseconds per
// second and a 128-bit ceiling division that saturates instead of wrapping.
#pragma once

#include <cstdint>

namespace aclsim {

using U128 = unsigned __int128;

inline constexpr uint64_t kNsPerS = 1'000'000'000;

// ceil(num / den), UINT64_MAX when the quotient does not fit, 0 when den is 0.
inline uint64_t CeilDivSat(U128 num, U128 den) {
  if (den == 0) return 0;
  const U128 q = (num + den - 1) / den;
  return q > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(q);
}

}  // namespace aclsim
