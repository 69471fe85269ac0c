// Checked size arithmetic: every size aclsim derives from caller input (descriptor dims x
// dtype, shape inference, model tensor tables, copies with pitches and offsets, workspaces)
// goes through these, so a product or sum that would wrap 64 bits is seen, never used.
//
// The limit of one tensor is kMaxTensorBytes (2^48 bytes = 256 TiB, far past any device's
// memory): sizes under it leave room for sums and element-size products of many tensors
// without wrapping, so code past the checks may add and multiply them freely.
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

namespace aclsim {

inline constexpr uint64_t kMaxTensorBytes = uint64_t{1} << 48;
inline constexpr int64_t kMaxTensorElements = int64_t{1} << 48;

// a * b and a + b of one integer type, or nullopt when the result does not fit in it.
template <typename T>
std::optional<T> CheckedMul(T a, T b) {
  T out = 0;
  if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
  return out;
}
template <typename T>
std::optional<T> CheckedAdd(T a, T b) {
  T out = 0;
  if (__builtin_add_overflow(a, b, &out)) return std::nullopt;
  return out;
}

// a * b and a + b clamped to [INT64_MIN, INT64_MAX]: shape inference computes output dims
// with these, so a product that would wrap becomes a dim that the size check then refuses.
inline int64_t SaturatingMul(int64_t a, int64_t b) {
  if (const auto out = CheckedMul(a, b)) return *out;
  return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
}
inline int64_t SaturatingAdd(int64_t a, int64_t b) {
  if (const auto out = CheckedAdd(a, b)) return *out;
  return a < 0 ? INT64_MIN : INT64_MAX;
}
inline int64_t SaturatingSub(int64_t a, int64_t b) {
  int64_t out = 0;
  if (!__builtin_sub_overflow(a, b, &out)) return out;
  return a < 0 ? INT64_MIN : INT64_MAX;
}

// The product of dims [first, last), or nullopt when a dim is negative or the product of the
// non-zero dims exceeds `limit` (a zero dim makes the product 0, but the other dims still
// bound the strides code derives from them). An empty range is 1 (a scalar).
template <typename It>
std::optional<int64_t> CheckedProduct(It first, It last, int64_t limit = kMaxTensorElements) {
  int64_t extent = 1;
  bool zero = false;
  for (; first != last; ++first) {
    const int64_t dim = *first;
    if (dim < 0) return std::nullopt;
    if (dim == 0) {
      zero = true;
      continue;
    }
    const auto next = CheckedMul(extent, dim);
    if (!next || *next > limit) return std::nullopt;
    extent = *next;
  }
  return zero ? 0 : extent;
}

// The bytes of `elements` elements of `element_bytes` each, or nullopt past kMaxTensorBytes.
inline std::optional<uint64_t> CheckedTensorBytes(int64_t elements, size_t element_bytes) {
  if (elements < 0) return std::nullopt;
  const auto bytes = CheckedMul(static_cast<uint64_t>(elements), uint64_t{element_bytes});
  if (!bytes || *bytes > kMaxTensorBytes) return std::nullopt;
  return bytes;
}

}  // namespace aclsim
