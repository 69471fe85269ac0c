// Elementwise arithmetic, comparison, logic and select ops (cann_ops.md 1A, 1C), unary math
// (1B), Cast, and the fill/copy ops of 1I (Fills, ZerosLike, OnesLike, Identity).
//
// Integer semantics: division and modulo by zero give 0 (never a crash), INT_MIN / -1 and
// negation wrap; integer Div and Mod truncate (TF Div / Mod), FloorDiv / FloorMod floor
// (sign of the divisor).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "ops/kernels.h"
#include "ops/op_group.h"

namespace aclsim::ops {

namespace {

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

Status CheckSameDtype(const OpContext& ctx, size_t a, size_t b) {
  if (ctx.input(a).dtype != ctx.input(b).dtype) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} is {} but {} is {}; they must match",
                    ctx.InputName(a), DataTypeName(ctx.input(a).dtype), ctx.InputName(b),
                    DataTypeName(ctx.input(b).dtype));
  }
  return Status::Ok();
}

Status InferBroadcast(OpContext& ctx) {
  ACLSIM_ASSIGN_OR_RETURN(auto dims, BroadcastShapes(ctx, 0, 1));
  ACLSIM_RETURN_IF_ERROR(CheckSameDtype(ctx, 0, 1));
  ctx.SetOutput(0, ctx.input(0).dtype, std::move(dims));
  return Status::Ok();
}

Status InferCompare(OpContext& ctx) {
  ACLSIM_ASSIGN_OR_RETURN(auto dims, BroadcastShapes(ctx, 0, 1));
  ACLSIM_RETURN_IF_ERROR(CheckSameDtype(ctx, 0, 1));
  ctx.SetOutput(0, DataType::kBool, std::move(dims));
  return Status::Ok();
}

Status InferBoolLike(OpContext& ctx) {
  ctx.SetOutput(0, DataType::kBool, ctx.input(0).dims);
  return Status::Ok();
}

// Broadcast of three inputs; kOpInputNotMatch naming the input that does not fit.
Result<std::vector<int64_t>> Broadcast3(const OpContext& ctx, size_t a, size_t b, size_t c) {
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

// --- ops with their own infer/run -------------------------------------------------------------

Status InferCast(OpContext& ctx) {
  const int64_t dst = ctx.GetInt("dst_type");
  if (!IsKnownDataType(static_cast<int32_t>(dst)) ||
      DataTypeSize(static_cast<DataType>(dst)) == 0) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch, "dst_type {} is not a data type Cast produces",
                    dst);
  }
  ctx.SetOutput(0, static_cast<DataType>(dst), ctx.input(0).dims);
  return Status::Ok();
}

Status RunCast(RunContext& ctx) {
  const Tensor& x = ctx.in(0);
  Tensor& y = ctx.out(0);
  return DispatchType(x.dtype, [&](auto in_tag) -> Status {
    using TI = decltype(in_tag);
    return DispatchType(y.dtype, [&](auto out_tag) -> Status {
      using TO = decltype(out_tag);
      const TI* src = x.ptr<const TI>();
      TO* dst = y.ptr<TO>();
      const int64_t n = x.numel();
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (std::is_integral_v<TI> && std::is_integral_v<TO>) {
          dst[i] = static_cast<TO>(src[i]);  // NOLINT(bugprone-signed-char-misuse)
        } else {
          dst[i] = FromCompute<TO>(ToCompute(src[i]));
        }
      }
      return Status::Ok();
    });
  });
}

// AddN / AccumulateNV2: y = sum of the x* (broadcast together), accumulated in ComputeT and
// rounded once.
Status InferAddN(OpContext& ctx) {
  auto [first, count] = ctx.InputsOf(0);
  if (count == 0) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "x needs at least one tensor (N = 0)");
  }
  std::vector<int64_t> dims = ctx.input(first).dims;
  for (size_t i = first + 1; i < first + count; ++i) {
    ACLSIM_RETURN_IF_ERROR(CheckSameDtype(ctx, first, i));
    auto next = BroadcastDims(dims, ctx.input(i).dims);
    if (!next.ok()) {
      return ctx.Fail(StatusCode::kOpInputNotMatch,
                      "{} shape [{}] does not broadcast with the shape [{}] of the tensors "
                      "before it: {}",
                      ctx.InputName(i), fmt::join(ctx.input(i).dims, ", "), fmt::join(dims, ", "),
                      next.status().message());
    }
    dims = next.value();
  }
  ctx.SetOutput(0, ctx.input(first).dtype, std::move(dims));
  return Status::Ok();
}

Status RunAddN(RunContext& ctx) {
  Tensor& y = ctx.out(0);
  return Dispatch<false>(y.dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    using C = ComputeT<T>;
    std::vector<C> acc(static_cast<size_t>(y.numel()), C{0});
    for (size_t k = 0; k < ctx.num_inputs(); ++k) {
      const Tensor& x = ctx.in(k);
      const T* px = x.ptr<const T>();
      ForEachBroadcast2(x.dims, y.dims, y.dims, [&](int64_t o, int64_t ix, int64_t) {
        if constexpr (std::is_same_v<C, bool>) {
          acc[o] = acc[o] || px[ix];
        } else {
          acc[o] = WrapAdd(acc[o], ToCompute(px[ix]));
        }
      });
    }
    T* py = y.ptr<T>();
    for (size_t i = 0; i < acc.size(); ++i) py[i] = FromCompute<T>(acc[i]);
    return Status::Ok();
  });
}

OpDef AddNOp(std::string type) {
  OpDef def;
  def.type = std::move(type);
  def.inputs = {DynIn("x", NumberTypes())};
  def.outputs = {Out("y", NumberTypes())};
  def.attrs = {ReqAttr("N", AttrType::kInt)};
  def.infer = InferAddN;
  def.run = RunAddN;
  return def;
}

// Pow: same dtypes, or a floating base with an integer exponent (y has the base's dtype).
Status InferPow(OpContext& ctx) {
  ACLSIM_ASSIGN_OR_RETURN(auto dims, BroadcastShapes(ctx, 0, 1));
  const DataType base = ctx.input(0).dtype;
  const DataType exp = ctx.input(1).dtype;
  const auto floats = FloatTypes();
  const auto ints = IntTypes();
  const bool mixed_ok = std::find(floats.begin(), floats.end(), base) != floats.end() &&
                        std::find(ints.begin(), ints.end(), exp) != ints.end();
  if (base != exp && !mixed_ok) ACLSIM_RETURN_IF_ERROR(CheckSameDtype(ctx, 0, 1));
  ctx.SetOutput(0, base, std::move(dims));
  return Status::Ok();
}

template <typename C>
C PowValue(C a, C b) {
  if constexpr (kIsInt<C>) {
    return IntPow(a, b);
  } else {
    return static_cast<C>(std::pow(a, b));
  }
}

Status RunPow(RunContext& ctx) {
  const Tensor& a = ctx.in(0);
  const Tensor& b = ctx.in(1);
  Tensor& y = ctx.out(0);
  return Dispatch<false>(a.dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    if (b.dtype == a.dtype) {
      BinaryKernel<T>(a, b, y, [](auto p, auto q) { return PowValue(p, q); });
      return Status::Ok();
    }
    const T* pa = a.ptr<const T>();
    T* py = y.ptr<T>();
    ForEachBroadcast2(a.dims, b.dims, y.dims, [&](int64_t o, int64_t ia, int64_t ib) {
      const double base = static_cast<double>(ToCompute(pa[ia]));
      py[o] = FromCompute<T>(std::pow(base, LoadDouble(b, ib)));
    });
    return Status::Ok();
  });
}

// Axpy: y = x2 + alpha * x1.
Status RunAxpy(RunContext& ctx) {
  const double alpha = ctx.GetFloat("alpha");
  return Dispatch<false>(ctx.in(0).dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    BinaryKernel<T>(ctx.in(0), ctx.in(1), ctx.out(0), [alpha](auto a, auto b) {
      using C = decltype(a);
      if constexpr (std::is_floating_point_v<C>) {
        return static_cast<C>(b + static_cast<C>(alpha) * a);
      } else {
        return static_cast<double>(b) + alpha * static_cast<double>(a);
      }
    });
    return Status::Ok();
  });
}

// SelectV2: result = condition ? then : else, all three broadcast.
Status InferSelectV2(OpContext& ctx) {
  ACLSIM_RETURN_IF_ERROR(CheckSameDtype(ctx, 1, 2));
  ACLSIM_ASSIGN_OR_RETURN(auto dims, Broadcast3(ctx, 1, 2, 0));
  ctx.SetOutput(0, ctx.input(1).dtype, std::move(dims));
  return Status::Ok();
}

Status RunSelect3(RunContext& ctx, const std::vector<int64_t>& cond_dims) {
  const Tensor& c = ctx.in(0);
  const Tensor& a = ctx.in(1);
  const Tensor& b = ctx.in(2);
  Tensor& y = ctx.out(0);
  const size_t elem = DataTypeSize(y.dtype);
  const bool* pc = c.ptr<const bool>();
  const auto* pa = static_cast<const uint8_t*>(a.data);
  const auto* pb = static_cast<const uint8_t*>(b.data);
  auto* py = static_cast<uint8_t*>(y.data);
  ForEachBroadcast3(cond_dims, a.dims, b.dims, y.dims,
                    [&](int64_t o, int64_t ic, int64_t ia, int64_t ib) {
                      const uint8_t* src = pc[ic] ? pa + ia * elem : pb + ib * elem;
                      std::memcpy(py + o * elem, src, elem);
                    });
  return Status::Ok();
}

// Select (TF): condition has x1's shape, or is a scalar, or is 1-D selecting along dim 0.
Status InferSelect(OpContext& ctx) {
  ACLSIM_RETURN_IF_ERROR(CheckSameDtype(ctx, 1, 2));
  const auto& cond = ctx.input(0).dims;
  const auto& x1 = ctx.input(1).dims;
  if (x1 != ctx.input(2).dims) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} shape [{}] and {} shape [{}] must be equal",
                    ctx.InputName(1), fmt::join(x1, ", "), ctx.InputName(2),
                    fmt::join(ctx.input(2).dims, ", "));
  }
  const bool ok =
      cond == x1 || cond.empty() || (cond.size() == 1 && !x1.empty() && cond[0] == x1[0]);
  if (!ok) {
    return ctx.Fail(StatusCode::kOpInputNotMatch,
                    "{} shape [{}] must equal the shape [{}] of {}, be a scalar, or be 1-D of "
                    "size {} (x1's first dimension)",
                    ctx.InputName(0), fmt::join(cond, ", "), fmt::join(x1, ", "), ctx.InputName(1),
                    x1.empty() ? 0 : x1[0]);
  }
  ctx.SetOutput(0, ctx.input(1).dtype, x1);
  return Status::Ok();
}

Status RunSelect(RunContext& ctx) {
  std::vector<int64_t> cond_dims = ctx.in(0).dims;
  const auto& x1 = ctx.in(1).dims;
  if (cond_dims.size() == 1 && x1.size() > 1) cond_dims.resize(x1.size(), 1);  // along dim 0
  return RunSelect3(ctx, cond_dims);
}

// MaskedFill: y = mask ? value : x (value converted to x's dtype).
Status InferMaskedFill(OpContext& ctx) {
  ACLSIM_ASSIGN_OR_RETURN(auto dims, Broadcast3(ctx, 0, 1, 2));
  ctx.SetOutput(0, ctx.input(0).dtype, std::move(dims));
  return Status::Ok();
}

Status RunMaskedFill(RunContext& ctx) {
  const Tensor& x = ctx.in(0);
  const Tensor& m = ctx.in(1);
  const Tensor& v = ctx.in(2);
  Tensor& y = ctx.out(0);
  return DispatchType(x.dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* px = x.ptr<const T>();
    const bool* pm = m.ptr<const bool>();
    T* py = y.ptr<T>();
    ForEachBroadcast3(x.dims, m.dims, v.dims, y.dims,
                      [&](int64_t o, int64_t ix, int64_t im, int64_t iv) {
                        if (pm[im]) {
                          if (v.dtype == x.dtype) {
                            py[o] = v.ptr<const T>()[iv];
                          } else {
                            py[o] = FromCompute<T>(LoadDouble(v, iv));
                          }
                        } else {
                          py[o] = px[ix];
                        }
                      });
    return Status::Ok();
  });
}

// ClipByValue: y = min(max(x, clip_value_min), clip_value_max), all broadcast.
Status InferClip(OpContext& ctx) {
  ACLSIM_RETURN_IF_ERROR(CheckSameDtype(ctx, 0, 1));
  ACLSIM_RETURN_IF_ERROR(CheckSameDtype(ctx, 0, 2));
  ACLSIM_ASSIGN_OR_RETURN(auto dims, Broadcast3(ctx, 0, 1, 2));
  ctx.SetOutput(0, ctx.input(0).dtype, std::move(dims));
  return Status::Ok();
}

Status RunClip(RunContext& ctx) {
  const Tensor& x = ctx.in(0);
  const Tensor& lo = ctx.in(1);
  const Tensor& hi = ctx.in(2);
  Tensor& y = ctx.out(0);
  return Dispatch<false>(x.dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* px = x.ptr<const T>();
    const T* pl = lo.ptr<const T>();
    const T* ph = hi.ptr<const T>();
    T* py = y.ptr<T>();
    ForEachBroadcast3(x.dims, lo.dims, hi.dims, y.dims,
                      [&](int64_t o, int64_t ix, int64_t il, int64_t ih) {
                        auto v = ToCompute(px[ix]);
                        const auto l = ToCompute(pl[il]);
                        const auto h = ToCompute(ph[ih]);
                        if (v < l) v = l;
                        if (v > h) v = h;
                        py[o] = FromCompute<T>(v);
                      });
    return Status::Ok();
  });
}

Status RunIdentity(RunContext& ctx) {
  const size_t bytes = static_cast<size_t>(ctx.in(0).numel()) * DataTypeSize(ctx.in(0).dtype);
  if (bytes != 0 && ctx.out(0).data != ctx.in(0).data) {
    std::memmove(ctx.out(0).data, ctx.in(0).data, bytes);
  }
  return Status::Ok();
}

// Exp/Log attribute check: base must be positive (and not 1 for Log) or -1 (e).
Status CheckBase(OpContext& ctx, bool log) {
  const float base = ctx.GetFloat("base");
  if (base == -1.0f) return Status::Ok();
  if (!(base > 0.0f) || (log && base == 1.0f)) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch, "attribute 'base' is {} but must be -1 (e) or {}",
                    base, log ? "positive and not 1" : "positive");
  }
  return Status::Ok();
}

template <typename V>
V RoundHalfEven(V x) {
  return std::nearbyint(x);  // default rounding mode: to nearest, ties to even
}

}  // namespace

void RegisterElementwiseOps(OpRegistry& registry) {
  using DT = DataType;
  const auto numbers = NumberTypes();
  const auto floats = FloatTypes();
  const auto real = NumberTypes();  // {RealNumber}: floats + ints
  const auto f16_f32_f64_bf16 = floats;

  // --- 1A binary arithmetic ---
  registry.Add(BinaryOp<true>("Add", AllTypes(), 1, [](auto a, auto b) {
    if constexpr (std::is_same_v<decltype(a), bool>) {
      return a || b;
    } else {
      return WrapAdd(a, b);
    }
  }));
  registry.Add(BinaryOp("AddV2", numbers, 1, [](auto a, auto b) { return WrapAdd(a, b); }));
  registry.Add(BinaryOp("Sub", numbers, 1, [](auto a, auto b) { return WrapAdd(a, WrapNeg(b)); }));
  registry.Add(BinaryOp<true>("Mul", AllTypes(), 1, [](auto a, auto b) {
    if constexpr (std::is_same_v<decltype(a), bool>) {
      return a && b;
    } else {
      return WrapMul(a, b);
    }
  }));
  auto true_div = [](auto a, auto b) {
    if constexpr (kIsInt<decltype(a)>) {
      return TruncDiv(a, b);
    } else {
      return a / b;
    }
  };
  registry.Add(BinaryOp("RealDiv", numbers, 2, true_div));
  registry.Add(BinaryOp("Div", numbers, 2, true_div));
  registry.Add(BinaryOp(
      "DivNoNan",
      Types({DT::kFloat, DT::kUint8, DT::kInt8, DT::kInt32, DT::kFloat16, DT::kDouble, DT::kBf16}),
      2, [](auto a, auto b) {
        using C = decltype(a);
        if (b == C{0}) return C{0};
        if constexpr (kIsInt<C>) {
          return TruncDiv(a, b);
        } else {
          return static_cast<C>(a / b);
        }
      }));
  registry.Add(BinaryOp("FloorDiv", numbers, 3, [](auto a, auto b) {
    using C = decltype(a);
    if constexpr (kIsInt<C>) {
      return FloorDivInt(a, b);
    } else {
      return static_cast<C>(std::floor(a / b));
    }
  }));
  registry.Add(BinaryOp(
      "FloorMod", Types({DT::kInt32, DT::kInt64, DT::kFloat, DT::kFloat16, DT::kDouble, DT::kBf16}),
      3, [](auto a, auto b) {
        using C = decltype(a);
        if constexpr (kIsInt<C>) {
          return FloorModInt(a, b);
        } else {
          return FloorModFloat(a, b);
        }
      }));
  registry.Add(BinaryOp("Mod",
                        Types({DT::kFloat16, DT::kFloat, DT::kInt32, DT::kInt8, DT::kUint8,
                               DT::kInt64, DT::kDouble, DT::kBf16}),
                        3, [](auto a, auto b) {
                          using C = decltype(a);
                          if constexpr (kIsInt<C>) {
                            return TruncMod(a, b);
                          } else {
                            return static_cast<C>(std::fmod(a, b));
                          }
                        }));
  const auto minmax_types =
      Types({DT::kFloat16, DT::kFloat, DT::kDouble, DT::kInt32, DT::kInt64, DT::kBf16, DT::kInt8});
  registry.Add(BinaryOp("Maximum", minmax_types, 1, [](auto a, auto b) {
    if (IsNanValue(a) || IsNanValue(b)) return IsNanValue(a) ? a : b;
    return a > b ? a : b;
  }));
  registry.Add(BinaryOp("Minimum", minmax_types, 1, [](auto a, auto b) {
    if (IsNanValue(a) || IsNanValue(b)) return IsNanValue(a) ? a : b;
    return a < b ? a : b;
  }));
  {
    const auto pow_types = Types({DT::kBf16, DT::kFloat16, DT::kFloat, DT::kInt32, DT::kInt64,
                                  DT::kInt8, DT::kInt16, DT::kUint8, DT::kDouble});
    OpDef pow;
    pow.type = "Pow";
    pow.inputs = {In("x1", pow_types), In("x2", pow_types)};
    pow.outputs = {Out("y", pow_types)};
    pow.ops_per_element = 6;
    pow.infer = InferPow;
    pow.run = RunPow;
    registry.Add(std::move(pow));
  }
  registry.Add(
      BinaryOp("SquaredDifference",
               Types({DT::kBf16, DT::kFloat16, DT::kFloat, DT::kDouble, DT::kInt32, DT::kInt64}), 2,
               [](auto a, auto b) {
                 const auto d = WrapAdd(a, WrapNeg(b));
                 return WrapMul(d, d);
               }));
  registry.Add(AddNOp("AddN"));
  registry.Add(AddNOp("AccumulateNV2"));
  registry.Add(UnaryAttrOp(
      "Muls", Types({DT::kFloat, DT::kInt16, DT::kInt32, DT::kInt64, DT::kFloat16, DT::kBf16}),
      {ReqAttr("value", AttrType::kFloat)}, 1, [](const RunContext& ctx) {
        const double value = ctx.GetFloat("value");
        return [value](double x) { return x * value; };
      }));
  registry.Add(UnaryAttrOp("Adds",
                           Types({DT::kFloat, DT::kInt16, DT::kInt32, DT::kFloat16, DT::kBf16}),
                           {ReqAttr("value", AttrType::kFloat)}, 1, [](const RunContext& ctx) {
                             const double value = ctx.GetFloat("value");
                             return [value](double x) { return x + value; };
                           }));
  {
    const auto axpy_types = Types({DT::kFloat, DT::kInt32, DT::kFloat16, DT::kBf16});
    OpDef axpy;
    axpy.type = "Axpy";
    axpy.inputs = {In("x1", axpy_types), In("x2", axpy_types)};
    axpy.outputs = {Out("y", axpy_types)};
    axpy.attrs = {ReqAttr("alpha", AttrType::kFloat)};
    axpy.ops_per_element = 2;
    axpy.infer = InferBroadcast;
    axpy.run = RunAxpy;
    registry.Add(std::move(axpy));
  }

  // --- 1C comparison, logic, select ---
  registry.Add(CompareOp("Greater", real, [](auto a, auto b) { return a > b; }));
  registry.Add(CompareOp("GreaterEqual", real, [](auto a, auto b) { return a >= b; }));
  registry.Add(CompareOp("Less", real, [](auto a, auto b) { return a < b; }));
  registry.Add(CompareOp("LessEqual", real, [](auto a, auto b) { return a <= b; }));
  registry.Add(CompareOp<true>("Equal", AllTypes(), [](auto a, auto b) { return a == b; }));
  registry.Add(CompareOp<true>("NotEqual", AllTypes(), [](auto a, auto b) { return a != b; }));
  const auto bools = Types({DT::kBool});
  registry.Add(BinaryOp<true>("LogicalAnd", bools, 1, [](bool a, bool b) { return a && b; }));
  registry.Add(BinaryOp<true>("LogicalOr", bools, 1, [](bool a, bool b) { return a || b; }));
  registry.Add(UnaryOp<true>("LogicalNot", bools, 1, [](bool a) { return !a; }));
  {
    OpDef select;
    select.type = "Select";
    select.inputs = {In("condition", bools), In("x1", AllTypes()), In("x2", AllTypes())};
    select.outputs = {Out("y", AllTypes())};
    select.infer = InferSelect;
    select.run = RunSelect;
    registry.Add(std::move(select));
  }
  {
    OpDef select;
    select.type = "SelectV2";
    select.inputs = {In("condition", bools), In("then", AllTypes()), In("else", AllTypes())};
    select.outputs = {Out("result", AllTypes())};
    select.infer = InferSelectV2;
    select.run = [](RunContext& ctx) { return RunSelect3(ctx, ctx.in(0).dims); };
    registry.Add(std::move(select));
  }
  {
    const auto fill_types =
        Types({DT::kFloat, DT::kBf16, DT::kFloat16, DT::kInt8, DT::kInt32, DT::kInt64, DT::kBool});
    OpDef masked;
    masked.type = "MaskedFill";
    masked.inputs = {In("x", fill_types), In("mask", bools), In("value", fill_types)};
    masked.outputs = {Out("y", fill_types)};
    masked.infer = InferMaskedFill;
    masked.run = RunMaskedFill;
    registry.Add(std::move(masked));
  }

  // --- 1B unary math ---
  const auto signed_math = Types({DT::kFloat16, DT::kBf16, DT::kFloat, DT::kDouble, DT::kInt8,
                                  DT::kInt16, DT::kInt32, DT::kInt64});
  registry.Add(UnaryOp("Abs", signed_math, 1, [](auto x) { return x < 0 ? WrapNeg(x) : x; }));
  registry.Add(UnaryOp("Neg", signed_math, 1, [](auto x) { return WrapNeg(x); }));
  {
    auto exp = UnaryAttrOp(
        "Exp", floats,
        {OptAttr("base", AttrType::kFloat, -1.0f), OptAttr("scale", AttrType::kFloat, 1.0f),
         OptAttr("shift", AttrType::kFloat, 0.0f)},
        5, [](const RunContext& ctx) {
          const double base = ctx.GetFloat("base");
          const double ln = base == -1.0 ? 1.0 : std::log(base);
          const double scale = ctx.GetFloat("scale");
          const double shift = ctx.GetFloat("shift");
          return [=](double x) { return std::exp((scale * x + shift) * ln); };
        });
    exp.infer = [](OpContext& ctx) {
      ACLSIM_RETURN_IF_ERROR(CheckBase(ctx, false));
      return InferSame(ctx);
    };
    registry.Add(std::move(exp));
  }
  {
    auto log = UnaryAttrOp(
        "Log", floats,
        {OptAttr("base", AttrType::kFloat, -1.0f), OptAttr("scale", AttrType::kFloat, 1.0f),
         OptAttr("shift", AttrType::kFloat, 0.0f)},
        5, [](const RunContext& ctx) {
          const double base = ctx.GetFloat("base");
          const double ln = base == -1.0 ? 1.0 : std::log(base);
          const double scale = ctx.GetFloat("scale");
          const double shift = ctx.GetFloat("shift");
          return [=](double x) { return std::log(shift + scale * x) / ln; };
        });
    log.infer = [](OpContext& ctx) {
      ACLSIM_RETURN_IF_ERROR(CheckBase(ctx, true));
      return InferSame(ctx);
    };
    registry.Add(std::move(log));
  }
  registry.Add(UnaryOp("Sqrt", floats, 2, [](auto x) { return std::sqrt(x); }));
  registry.Add(UnaryOp("Rsqrt", floats, 3, [](auto x) { return 1 / std::sqrt(x); }));
  registry.Add(UnaryOp(
      "Square", Types({DT::kDouble, DT::kFloat16, DT::kFloat, DT::kBf16, DT::kInt32, DT::kInt64}),
      1, [](auto x) { return WrapMul(x, x); }));
  registry.Add(
      UnaryOp("Reciprocal",
              Types({DT::kFloat, DT::kDouble, DT::kInt32, DT::kInt64, DT::kFloat16, DT::kBf16}), 2,
              [](auto x) {
                using C = decltype(x);
                if constexpr (kIsInt<C>) {
                  return TruncDiv(C{1}, x);
                } else {
                  return C{1} / x;
                }
              }));
  registry.Add(UnaryOp("Floor", f16_f32_f64_bf16, 1, [](auto x) { return std::floor(x); }));
  registry.Add(UnaryOp("Ceil", f16_f32_f64_bf16, 1, [](auto x) { return std::ceil(x); }));
  {
    OpDef round;
    round.type = "Round";
    const auto round_types =
        Types({DT::kFloat16, DT::kBf16, DT::kFloat, DT::kInt32, DT::kInt64, DT::kDouble});
    round.inputs = {In("x", round_types)};
    round.outputs = {Out("y", round_types)};
    round.attrs = {OptAttr("decimals", AttrType::kInt, int64_t{0})};
    round.ops_per_element = 2;
    round.infer = InferSame;
    round.run = [](RunContext& ctx) {
      const int64_t decimals = ctx.GetInt("decimals");
      const double scale = std::pow(10.0, static_cast<double>(decimals));
      return Dispatch<false>(ctx.in(0).dtype, [&](auto tag) -> Status {
        using T = decltype(tag);
        UnaryKernel<T>(ctx.in(0), ctx.out(0), [&](auto x) {
          using C = decltype(x);
          if constexpr (kIsInt<C>) {
            if (decimals >= 0) return x;
            return FromCompute<C>(RoundHalfEven(static_cast<double>(x) * scale) / scale);
          } else {
            if (decimals == 0) return RoundHalfEven(x);
            return static_cast<C>(RoundHalfEven(static_cast<double>(x) * scale) / scale);
          }
        });
        return Status::Ok();
      });
    };
    registry.Add(std::move(round));
  }
  registry.Add(UnaryOp(
      "Sign", Types({DT::kFloat16, DT::kBf16, DT::kFloat, DT::kDouble, DT::kInt32, DT::kInt64}), 1,
      [](auto x) {
        using C = decltype(x);
        if (IsNanValue(x)) return x;
        return static_cast<C>((C{0} < x) - (x < C{0}));
      }));
  auto add_float_unary = [&](const char* name, uint32_t ops, auto f) {
    registry.Add(UnaryOp(name, floats, ops, f));
  };
  add_float_unary("Erf", 6, [](auto x) { return std::erf(x); });
  add_float_unary("Sin", 5, [](auto x) { return std::sin(x); });
  add_float_unary("Cos", 5, [](auto x) { return std::cos(x); });
  add_float_unary("Tan", 6, [](auto x) { return std::tan(x); });
  add_float_unary("Asin", 6, [](auto x) { return std::asin(x); });
  add_float_unary("Acos", 6, [](auto x) { return std::acos(x); });
  add_float_unary("Atan", 6, [](auto x) { return std::atan(x); });
  add_float_unary("Sinh", 6, [](auto x) { return std::sinh(x); });
  add_float_unary("Cosh", 6, [](auto x) { return std::cosh(x); });
  add_float_unary("Asinh", 6, [](auto x) { return std::asinh(x); });
  add_float_unary("Acosh", 6, [](auto x) { return std::acosh(x); });
  add_float_unary("Atanh", 6, [](auto x) { return std::atanh(x); });
  add_float_unary("Log1p", 5, [](auto x) { return std::log1p(x); });
  add_float_unary("Expm1", 5, [](auto x) { return std::expm1(x); });
  {
    OpDef clip;
    clip.type = "ClipByValue";
    clip.inputs = {In("x", numbers), In("clip_value_min", numbers), In("clip_value_max", numbers)};
    clip.outputs = {Out("y", numbers)};
    clip.ops_per_element = 2;
    clip.infer = InferClip;
    clip.run = RunClip;
    registry.Add(std::move(clip));
  }
  registry.Add(UnaryBoolOp("IsNan", floats, [](auto x) { return std::isnan(x); }));
  registry.Add(UnaryBoolOp("IsFinite", floats, [](auto x) { return std::isfinite(x); }));
  registry.Add(UnaryBoolOp("IsInf", floats, [](auto x) { return std::isinf(x); }));

  // --- 1I fills and copies ---
  registry.Add(UnaryAttrOp<true>("Fills", AllTypes(), {ReqAttr("value", AttrType::kFloat)}, 1,
                                 [](const RunContext& ctx) {
                                   const double value = ctx.GetFloat("value");
                                   return [value](double) { return value; };
                                 }));
  registry.Add(UnaryOp<true>("ZerosLike", AllTypes(), 1, [](auto x) { return decltype(x){0}; }));
  registry.Add(UnaryOp<true>("OnesLike", AllTypes(), 1, [](auto x) { return decltype(x){1}; }));
  {
    OpDef identity;
    identity.type = "Identity";
    identity.inputs = {In("x", AllTypes())};
    identity.outputs = {Out("y", AllTypes())};
    identity.infer = InferSame;
    identity.run = RunIdentity;
    registry.Add(std::move(identity));
  }

  OpDef cast;
  cast.type = "Cast";
  cast.inputs = {In("x", AllTypes())};
  cast.outputs = {Out("y", AllTypes())};
  cast.attrs = {ReqAttr("dst_type", AttrType::kInt)};
  cast.infer = InferCast;
  cast.run = RunCast;
  registry.Add(std::move(cast));
}

}  // namespace aclsim::ops
