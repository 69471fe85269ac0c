// Tensors as kernels see them, and the element types they compute with.
//
// A Tensor is a view of a program buffer: data, byte size, dtype and logical dims
// (row-major, contiguous). Kernels are written once as templates over the storage type T
// and compute in ComputeT<T>: fp16 and bf16 are stored as Half / BFloat16 and computed in
// float (as the cube unit accumulates fp16 in fp32); other types compute in themselves.
//
//   DispatchType(t.dtype, [&](auto tag) {
//     using T = decltype(tag);
//     const T* x = t.ptr<T>();
//     ... ToCompute(x[i]) ... FromCompute<T>(value) ...
//   });
//
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/float16.h"
#include "common/status.h"
#include "ops/types.h"

namespace aclsim::ops {

struct Half {
  uint16_t bits = 0;
};
struct BFloat16 {
  uint16_t bits = 0;
};

inline float Bf16ToFloat(uint16_t bits) {
  const uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

// Round to nearest even; NaN stays a quiet NaN.
inline uint16_t FloatToBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x40u);
  const uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

template <typename T>
struct ComputeType {
  using type = T;
};
template <>
struct ComputeType<Half> {
  using type = float;
};
template <>
struct ComputeType<BFloat16> {
  using type = float;
};
template <typename T>
using ComputeT = typename ComputeType<T>::type;

template <typename T>
inline ComputeT<T> ToCompute(T value) {
  if constexpr (std::is_same_v<T, Half>) {
    return HalfToFloat(value.bits);
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return Bf16ToFloat(value.bits);
  } else {
    return value;
  }
}

// Converts a computed value to storage type T: fp16/bf16 round to nearest even; integers
// from floating values truncate toward zero (as CANN's Cast does) and saturate at the
// type's range; NaN becomes 0 for integers; bool is value != 0.
template <typename T, typename V>
inline T FromCompute(V value) {
  if constexpr (std::is_same_v<T, Half>) {
    return Half{FloatToHalf(static_cast<float>(value))};
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return BFloat16{FloatToBf16(static_cast<float>(value))};
  } else if constexpr (std::is_same_v<T, bool>) {
    return value != V{};
  } else if constexpr (std::is_integral_v<T> && std::is_floating_point_v<V>) {
    if (!(value == value)) return T{0};
    constexpr double kMax = static_cast<double>(std::numeric_limits<T>::max());
    constexpr double kMin = static_cast<double>(std::numeric_limits<T>::lowest());
    const double wide = static_cast<double>(value);
    if (wide >= kMax) return std::numeric_limits<T>::max();
    if (wide <= kMin) return std::numeric_limits<T>::lowest();
    return static_cast<T>(wide);
  } else {
    return static_cast<T>(value);
  }
}

struct Tensor {
  void* data = nullptr;
  size_t size = 0;  // bytes of the buffer
  DataType dtype = DataType::kUndefined;
  std::vector<int64_t> dims;

  int64_t numel() const {
    int64_t count = 1;
    for (int64_t dim : dims) count *= dim;
    return count;
  }
  int64_t rank() const { return static_cast<int64_t>(dims.size()); }
  template <typename T>
  T* ptr() const {
    return static_cast<T*>(data);
  }
};

// Calls fn(T{}) with T the storage type of `dtype`; kUnsupportedDataType for types without
// a kernel representation (string, complex, sub-byte).
template <typename Fn>
Status DispatchType(DataType dtype, Fn&& fn) {
  switch (dtype) {
    case DataType::kFloat:
      return fn(float{});
    case DataType::kFloat16:
      return fn(Half{});
    case DataType::kBf16:
      return fn(BFloat16{});
    case DataType::kDouble:
      return fn(double{});
    case DataType::kInt8:
      return fn(int8_t{});
    case DataType::kUint8:
      return fn(uint8_t{});
    case DataType::kInt16:
      return fn(int16_t{});
    case DataType::kUint16:
      return fn(uint16_t{});
    case DataType::kInt32:
      return fn(int32_t{});
    case DataType::kUint32:
      return fn(uint32_t{});
    case DataType::kInt64:
      return fn(int64_t{});
    case DataType::kUint64:
      return fn(uint64_t{});
    case DataType::kBool:
      return fn(bool{});
    default:
      return Status(StatusCode::kUnsupportedDataType,
                    "data type " + DataTypeName(dtype) + " has no kernel");
  }
}

// Generic (slow-path) element access through double: for small tensors, index math and
// ops whose cost is not in the inner loop.
double LoadDouble(const Tensor& t, int64_t index);
void StoreDouble(const Tensor& t, int64_t index, double value);
// All elements as float / double / int64, and back (with FromCompute's conversion rules).
std::vector<float> ToFloats(const Tensor& t);
void FromFloats(const std::vector<float>& values, const Tensor& t);
std::vector<double> ToDoubles(const Tensor& t);
void FromDoubles(const std::vector<double>& values, const Tensor& t);
std::vector<int64_t> ReadInts(const Tensor& t);
// Same, from host bytes holding `count` elements of `dtype` (descriptor values).
std::vector<int64_t> BytesToInts(const std::vector<uint8_t>& bytes, DataType dtype);
std::vector<double> BytesToDoubles(const std::vector<uint8_t>& bytes, DataType dtype);

// Row-major strides of dims (in elements).
std::vector<int64_t> Strides(const std::vector<int64_t>& dims);
int64_t Product(const std::vector<int64_t>& dims, size_t begin = 0, size_t end = SIZE_MAX);

}  // namespace aclsim::ops
