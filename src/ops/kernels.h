// Building blocks of functional kernels: broadcasting elementwise loops and dtype dispatch
// of the common "same dtype in, same dtype out" shape of op.
//
// Thread-safety: pure functions over the tensors given.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "ops/half_batch.h"
#include "ops/tensor.h"

namespace aclsim::ops {

// The output dtype of a convolution on the cube unit: int8 accumulates into int32, every other
// dtype keeps its own.
inline DataType ConvOutType(DataType x) { return x == DataType::kInt8 ? DataType::kInt32 : x; }

// Integer sums and products wrap (two's complement) like the device's adds, without the
// undefined behaviour of signed overflow.
template <typename A>
A AddWrap(A a, A b) {
  if constexpr (std::is_integral_v<A>) {
    return static_cast<A>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  } else {
    return a + b;
  }
}

template <typename A>
A MulWrap(A a, A b) {
  if constexpr (std::is_integral_v<A>) {
    return static_cast<A>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  } else {
    return a * b;
  }
}

// Calls body(begin, count, a, b, out) over [0, n) in chunks, with three float scratch
// arrays of `count` elements: the fp16 kernels widen a chunk, compute in float and narrow it
// (half_batch.h), which gives the same values as converting element by element.
template <typename Body>
void HalfChunks(int64_t n, Body&& body) {
  constexpr int64_t kChunk = 512;
  float a[kChunk];
  float b[kChunk];
  float out[kChunk];
  for (int64_t begin = 0; begin < n; begin += kChunk) {
    body(begin, std::min(kChunk, n - begin), a, b, out);
  }
}

// Strides of `in` broadcast to `out_dims` (0 along broadcast dimensions).
std::vector<int64_t> BroadcastStrides(const std::vector<int64_t>& in,
                                      const std::vector<int64_t>& out_dims);

// Calls body(out_index, a_index, b_index) for every element of `out_dims`, with a and b
// broadcast to it. The inner dimension runs in a tight loop.
template <typename Body>
void ForEachBroadcast2(const std::vector<int64_t>& a_dims, const std::vector<int64_t>& b_dims,
                       const std::vector<int64_t>& out_dims, Body&& body) {
  const int64_t total = Product(out_dims);
  if (total == 0) return;
  if (a_dims == out_dims && b_dims == out_dims) {
    for (int64_t i = 0; i < total; ++i) body(i, i, i);
    return;
  }
  const auto sa = BroadcastStrides(a_dims, out_dims);
  const auto sb = BroadcastStrides(b_dims, out_dims);
  const size_t rank = out_dims.size();
  if (rank == 0) {
    body(0, 0, 0);
    return;
  }
  const int64_t inner = out_dims[rank - 1];
  const int64_t ia_step = sa[rank - 1];
  const int64_t ib_step = sb[rank - 1];
  std::vector<int64_t> index(rank, 0);
  int64_t a_base = 0;
  int64_t b_base = 0;
  for (int64_t o = 0; o < total; o += inner) {
    for (int64_t j = 0; j < inner; ++j) body(o + j, a_base + j * ia_step, b_base + j * ib_step);
    // Advance the outer index (dims 0 .. rank-2).
    for (size_t d = rank - 1; d-- > 0;) {
      ++index[d];
      a_base += sa[d];
      b_base += sb[d];
      if (index[d] < out_dims[d]) break;
      a_base -= sa[d] * index[d];
      b_base -= sb[d] * index[d];
      index[d] = 0;
    }
  }
}

// Three-input version (Select / ClipByValue style).
template <typename Body>
void ForEachBroadcast3(const std::vector<int64_t>& a_dims, const std::vector<int64_t>& b_dims,
                       const std::vector<int64_t>& c_dims, const std::vector<int64_t>& out_dims,
                       Body&& body) {
  const int64_t total = Product(out_dims);
  const auto sa = BroadcastStrides(a_dims, out_dims);
  const auto sb = BroadcastStrides(b_dims, out_dims);
  const auto sc = BroadcastStrides(c_dims, out_dims);
  const auto so = Strides(out_dims);
  for (int64_t o = 0; o < total; ++o) {
    int64_t rest = o, ia = 0, ib = 0, ic = 0;
    for (size_t d = 0; d < out_dims.size(); ++d) {
      const int64_t idx = rest / so[d];
      rest %= so[d];
      ia += idx * sa[d];
      ib += idx * sb[d];
      ic += idx * sc[d];
    }
    body(o, ia, ib, ic);
  }
}

// out = f(a, b) with broadcasting; a, b and out share the storage type T; f takes and
// returns ComputeT<T>.
template <typename T, typename F>
void BinaryKernel(const Tensor& a, const Tensor& b, const Tensor& out, F f) {
  const T* pa = a.ptr<const T>();
  const T* pb = b.ptr<const T>();
  T* po = out.ptr<T>();
  if constexpr (std::is_same_v<T, Half>) {
    const int64_t n = out.numel();
    const int64_t na = a.numel();
    const int64_t nb = b.numel();
    if ((na == n || na == 1) && (nb == n || nb == 1) && (a.dims == out.dims || na == 1) &&
        (b.dims == out.dims || nb == 1)) {
      const bool full_a = na == n;
      const bool full_b = nb == n;
      HalfChunks(n, [&](int64_t begin, int64_t count, float* fa, float* fb, float* fo) {
        if (full_a) HalfToFloatN(&pa[begin].bits, fa, static_cast<size_t>(count));
        if (full_b) HalfToFloatN(&pb[begin].bits, fb, static_cast<size_t>(count));
        // Separate loops per case, so that simple bodies vectorise.
        if (full_a && full_b) {
          for (int64_t j = 0; j < count; ++j) fo[j] = static_cast<float>(f(fa[j], fb[j]));
        } else if (full_a) {
          const float sb = ToCompute(pb[0]);
          for (int64_t j = 0; j < count; ++j) fo[j] = static_cast<float>(f(fa[j], sb));
        } else if (full_b) {
          const float sa = ToCompute(pa[0]);
          for (int64_t j = 0; j < count; ++j) fo[j] = static_cast<float>(f(sa, fb[j]));
        } else {
          const float value = static_cast<float>(f(ToCompute(pa[0]), ToCompute(pb[0])));
          for (int64_t j = 0; j < count; ++j) fo[j] = value;
        }
        FloatToHalfN(fo, &po[begin].bits, static_cast<size_t>(count));
      });
      return;
    }
  }
  ForEachBroadcast2(a.dims, b.dims, out.dims, [&](int64_t o, int64_t ia, int64_t ib) {
    po[o] = FromCompute<T>(f(ToCompute(pa[ia]), ToCompute(pb[ib])));
  });
}

// out (bool) = f(a, b) with broadcasting (comparisons).
template <typename T, typename F>
void CompareKernel(const Tensor& a, const Tensor& b, const Tensor& out, F f) {
  const T* pa = a.ptr<const T>();
  const T* pb = b.ptr<const T>();
  bool* po = out.ptr<bool>();
  ForEachBroadcast2(a.dims, b.dims, out.dims, [&](int64_t o, int64_t ia, int64_t ib) {
    po[o] = f(ToCompute(pa[ia]), ToCompute(pb[ib]));
  });
}

// y = f(x) elementwise, same storage type.
template <typename T, typename F>
void UnaryKernel(const Tensor& x, const Tensor& y, F f) {
  const T* px = x.ptr<const T>();
  T* py = y.ptr<T>();
  const int64_t n = x.numel();
  if constexpr (std::is_same_v<T, Half>) {
    HalfChunks(n, [&](int64_t begin, int64_t count, float* fx, float*, float* fy) {
      HalfToFloatN(&px[begin].bits, fx, static_cast<size_t>(count));
      for (int64_t j = 0; j < count; ++j) fy[j] = static_cast<float>(f(fx[j]));
      FloatToHalfN(fy, &py[begin].bits, static_cast<size_t>(count));
    });
    return;
  }
  for (int64_t i = 0; i < n; ++i) py[i] = FromCompute<T>(f(ToCompute(px[i])));
}

// All elements of `t` in the accumulation type of dense math: int64 for integer kernels,
// float otherwise (fp16/bf16 widened).
template <typename Acc>
std::vector<Acc> LoadAcc(const Tensor& t) {
  if constexpr (std::is_integral_v<Acc>) {
    return ReadInts(t);
  } else {
    return ToFloats(t);
  }
}

// Stores accumulated values into `t`, rounding once (FromCompute's rules).
template <typename Acc>
void StoreAcc(const std::vector<Acc>& values, const Tensor& t) {
  if constexpr (std::is_integral_v<Acc>) {
    (void)DispatchType(t.dtype, [&](auto tag) -> Status {
      using T = decltype(tag);
      T* dst = t.ptr<T>();
      for (size_t i = 0; i < values.size(); ++i) dst[i] = FromCompute<T>(values[i]);
      return Status::Ok();
    });
  } else {
    FromFloats(values, t);
  }
}

// NaN test that is false for integer types.
template <typename V>
bool IsNanValue(V v) {
  if constexpr (std::is_floating_point_v<V>) {
    return std::isnan(v);
  } else {
    (void)v;
    return false;
  }
}

}  // namespace aclsim::ops
