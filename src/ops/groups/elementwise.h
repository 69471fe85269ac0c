// The building blocks of the elementwise op groups (elementwise_ops.cc, unary_ops.cc): integer
// arithmetic that wraps instead of overflowing, dtype dispatch, broadcast inference and the
// builders of binary, comparison and unary ops.
//
// Integer semantics: division and modulo by zero give 0 (never a crash), INT_MIN / -1 and
// negation wrap; integer Div and Mod truncate (TF Div / Mod), FloorDiv / FloorMod floor
// (sign of the divisor).
//
// Thread-safety: pure functions; the ops built are immutable.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ops/kernels.h"
#include "ops/op_def.h"

namespace aclsim::ops::elementwise {

// --- integer helpers (wrap instead of undefined behaviour) ------------------------------

template <typename V>
V WrapNeg(V a) {
  if constexpr (std::is_integral_v<V> && !std::is_same_v<V, bool>) {
    using U = std::make_unsigned_t<V>;
    return static_cast<V>(U{0} - static_cast<U>(a));
  } else {
    return -a;
  }
}

template <typename V>
V WrapAdd(V a, V b) {
  if constexpr (std::is_integral_v<V> && !std::is_same_v<V, bool>) {
    using U = std::make_unsigned_t<V>;
    return static_cast<V>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

template <typename V>
V WrapMul(V a, V b) {
  if constexpr (std::is_integral_v<V> && !std::is_same_v<V, bool>) {
    using U = std::make_unsigned_t<V>;
    using W = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;
    return static_cast<V>(static_cast<W>(static_cast<U>(a)) * static_cast<W>(static_cast<U>(b)));
  } else {
    return a * b;
  }
}

// Truncating integer division; x / 0 = 0, MIN / -1 wraps to MIN.
template <typename V>
V TruncDiv(V a, V b) {
  if (b == 0) return V{0};
  if constexpr (std::is_signed_v<V>) {
    if (b == -1) return WrapNeg(a);
  }
  return static_cast<V>(a / b);
}

// Truncating remainder (sign of the dividend); x % 0 = 0.
template <typename V>
V TruncMod(V a, V b) {
  if (b == 0) return V{0};
  if constexpr (std::is_signed_v<V>) {
    if (b == -1) return V{0};
  }
  return static_cast<V>(a % b);
}

template <typename V>
V FloorDivInt(V a, V b) {
  if (b == 0) return V{0};
  V q = TruncDiv(a, b);
  if constexpr (std::is_signed_v<V>) {
    if (TruncMod(a, b) != 0 && ((a < 0) != (b < 0))) q = static_cast<V>(q - 1);
  }
  return q;
}

template <typename V>
V FloorModInt(V a, V b) {
  V r = TruncMod(a, b);
  if constexpr (std::is_signed_v<V>) {
    if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<V>(r + b);
  }
  return r;
}

template <typename V>
V FloorModFloat(V a, V b) {
  V r = std::fmod(a, b);
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

// Integer power by squaring (wrapping); negative exponents: 1 / a^|b| truncated (0 for
// |a| > 1, 0 for a == 0).
template <typename V>
V IntPow(V base, V exp) {
  if constexpr (std::is_signed_v<V>) {
    if (exp < 0) {
      if (base == 1) return V{1};
      if (base == -1) return (exp % 2 == 0) ? V{1} : V{-1};
      return V{0};
    }
  }
  V result{1};
  using U = std::make_unsigned_t<V>;
  U e = static_cast<U>(exp);
  while (e != 0) {
    if (e & 1u) result = WrapMul(result, base);
    base = WrapMul(base, base);
    e = static_cast<U>(e >> 1);
  }
  return result;
}

template <typename V>
constexpr bool kIsInt = std::is_integral_v<V> && !std::is_same_v<V, bool>;

// DispatchType without instantiating fn for bool unless kWithBool (ops whose prototype has
// no bool would otherwise compile arithmetic on bool).
template <bool kWithBool, typename Fn>
Status Dispatch(DataType dtype, Fn&& fn) {
  return DispatchType(dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool> && !kWithBool) {
      return Status(StatusCode::kUnsupportedDataType, "bool has no kernel for this op");
    } else {
      return fn(tag);
    }
  });
}

// --- inference ---------------------------------------------------------------------------

inline Status CheckSameDtype(const OpContext& ctx, size_t a, size_t b) {
  if (ctx.input(a).dtype != ctx.input(b).dtype) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} is {} but {} is {}; they must match",
                    ctx.InputName(a), DataTypeName(ctx.input(a).dtype), ctx.InputName(b),
                    DataTypeName(ctx.input(b).dtype));
  }
  return Status::Ok();
}

inline Status InferBroadcast(OpContext& ctx) {
  ACLSIM_ASSIGN_OR_RETURN(auto dims, BroadcastShapes(ctx, 0, 1));
  ACLSIM_RETURN_IF_ERROR(CheckSameDtype(ctx, 0, 1));
  ctx.SetOutput(0, ctx.input(0).dtype, std::move(dims));
  return Status::Ok();
}

inline Status InferCompare(OpContext& ctx) {
  ACLSIM_ASSIGN_OR_RETURN(auto dims, BroadcastShapes(ctx, 0, 1));
  ACLSIM_RETURN_IF_ERROR(CheckSameDtype(ctx, 0, 1));
  ctx.SetOutput(0, DataType::kBool, std::move(dims));
  return Status::Ok();
}

inline Status InferBoolLike(OpContext& ctx) {
  ctx.SetOutput(0, DataType::kBool, ctx.input(0).dims);
  return Status::Ok();
}

// Broadcast of three inputs; kOpInputNotMatch naming the input that does not fit.
inline Result<std::vector<int64_t>> Broadcast3(const OpContext& ctx, size_t a, size_t b, size_t c) {
  ACLSIM_ASSIGN_OR_RETURN(auto ab, BroadcastShapes(ctx, a, b));
  auto abc = BroadcastDims(ab, ctx.input(c).dims);
  if (!abc.ok()) {
    return ctx.Fail(StatusCode::kOpInputNotMatch,
                    "{} shape [{}] does not broadcast with the shape [{}] of {} and {}: {}",
                    ctx.InputName(c), fmt::join(ctx.input(c).dims, ", "), fmt::join(ab, ", "),
                    ctx.InputName(a), ctx.InputName(b), abc.status().message());
  }
  return abc;
}

// --- op builders ---------------------------------------------------------------------------

// A binary op y = f(x1, x2) with broadcasting, computed in ComputeT of the dtype.
template <bool kWithBool = false, typename F>
OpDef BinaryOp(std::string type, const std::vector<DataType>& dtypes, uint32_t ops, F f) {
  OpDef def;
  def.type = std::move(type);
  def.inputs = {In("x1", dtypes), In("x2", dtypes)};
  def.outputs = {Out("y", dtypes)};
  def.ops_per_element = ops;
  def.infer = InferBroadcast;
  def.run = [f](RunContext& ctx) {
    return Dispatch<kWithBool>(ctx.in(0).dtype, [&](auto tag) -> Status {
      using T = decltype(tag);
      BinaryKernel<T>(ctx.in(0), ctx.in(1), ctx.out(0), f);
      return Status::Ok();
    });
  };
  return def;
}

template <typename TA, typename TB, typename F>
void MixedBinaryKernel(const Tensor& a, const Tensor& b, const Tensor& out, F f) {
  const TA* pa = a.ptr<const TA>();
  const TB* pb = b.ptr<const TB>();
  float* po = out.ptr<float>();
  ForEachBroadcast2(a.dims, b.dims, out.dims, [&](int64_t o, int64_t ia, int64_t ib) {
    po[o] = f(static_cast<float>(ToCompute(pa[ia])), static_cast<float>(ToCompute(pb[ib])));
  });
}

// A BinaryOp that also takes the mixed pairs of IsMixedFloatPair (output f32).
template <typename F>
OpDef WithMixedFloatInputs(OpDef def, F f) {
  def.infer = [](OpContext& ctx) -> Status {
    if (!IsMixedFloatPair(ctx.input(0).dtype, ctx.input(1).dtype)) return InferBroadcast(ctx);
    ACLSIM_ASSIGN_OR_RETURN(auto dims, BroadcastShapes(ctx, 0, 1));
    ctx.SetOutput(0, DataType::kFloat, std::move(dims));
    return Status::Ok();
  };
  RunFn same_dtype = std::move(def.run);
  def.run = [same_dtype, f](RunContext& ctx) -> Status {
    const DataType a = ctx.in(0).dtype;
    const DataType b = ctx.in(1).dtype;
    if (!IsMixedFloatPair(a, b)) return same_dtype(ctx);
    const DataType narrow = a == DataType::kFloat ? b : a;
    const auto run = [&](auto tag) {
      using N = decltype(tag);
      if (a == DataType::kFloat) {
        MixedBinaryKernel<float, N>(ctx.in(0), ctx.in(1), ctx.out(0), f);
      } else {
        MixedBinaryKernel<N, float>(ctx.in(0), ctx.in(1), ctx.out(0), f);
      }
      return Status::Ok();
    };
    return narrow == DataType::kFloat16 ? run(Half{}) : run(BFloat16{});
  };
  return def;
}

template <bool kWithBool = false, typename F>
OpDef CompareOp(std::string type, const std::vector<DataType>& dtypes, F f) {
  OpDef def;
  def.type = std::move(type);
  def.inputs = {In("x1", dtypes), In("x2", dtypes)};
  def.outputs = {Out("y", {DataType::kBool})};
  def.infer = InferCompare;
  def.run = [f](RunContext& ctx) {
    return Dispatch<kWithBool>(ctx.in(0).dtype, [&](auto tag) -> Status {
      using T = decltype(tag);
      CompareKernel<T>(ctx.in(0), ctx.in(1), ctx.out(0), f);
      return Status::Ok();
    });
  };
  return def;
}

template <bool kWithBool = false, typename F>
OpDef UnaryOp(std::string type, const std::vector<DataType>& dtypes, uint32_t ops, F f) {
  OpDef def;
  def.type = std::move(type);
  def.inputs = {In("x", dtypes)};
  def.outputs = {Out("y", dtypes)};
  def.ops_per_element = ops;
  def.infer = InferSame;
  def.run = [f](RunContext& ctx) {
    return Dispatch<kWithBool>(ctx.in(0).dtype, [&](auto tag) -> Status {
      using T = decltype(tag);
      UnaryKernel<T>(ctx.in(0), ctx.out(0), f);
      return Status::Ok();
    });
  };
  return def;
}

// y (bool) = f(x) elementwise.
template <bool kWithBool = false, typename F>
OpDef UnaryBoolOp(std::string type, std::vector<DataType> dtypes, F f) {
  OpDef def;
  def.type = std::move(type);
  def.inputs = {In("x", std::move(dtypes))};
  def.outputs = {Out("y", {DataType::kBool})};
  def.infer = InferBoolLike;
  def.run = [f](RunContext& ctx) {
    return Dispatch<kWithBool>(ctx.in(0).dtype, [&](auto tag) -> Status {
      using T = decltype(tag);
      const T* px = ctx.in(0).template ptr<const T>();
      bool* py = ctx.out(0).template ptr<bool>();
      const int64_t n = ctx.in(0).numel();
      for (int64_t i = 0; i < n; ++i) py[i] = f(ToCompute(px[i]));
      return Status::Ok();
    });
  };
  return def;
}

// Unary op with the value computed in double from x and the call's attributes
// (Muls, Adds, Fills, ...): make(ctx) returns the per-element function double -> double.
template <bool kWithBool = false, typename Make>
OpDef UnaryAttrOp(std::string type, const std::vector<DataType>& dtypes, std::vector<AttrDef> attrs,
                  uint32_t ops, Make make) {
  OpDef def;
  def.type = std::move(type);
  def.inputs = {In("x", dtypes)};
  def.outputs = {Out("y", dtypes)};
  def.attrs = std::move(attrs);
  def.ops_per_element = ops;
  def.infer = InferSame;
  def.run = [make](RunContext& ctx) {
    auto f = make(ctx);
    return Dispatch<kWithBool>(ctx.in(0).dtype, [&](auto tag) -> Status {
      using T = decltype(tag);
      UnaryKernel<T>(ctx.in(0), ctx.out(0), [&](auto x) {
        using C = decltype(x);
        if constexpr (std::is_floating_point_v<C>) {
          return static_cast<C>(f(static_cast<double>(x)));
        } else {
          return f(static_cast<double>(x));
        }
      });
      return Status::Ok();
    });
  };
  return def;
}

}  // namespace aclsim::ops::elementwise
