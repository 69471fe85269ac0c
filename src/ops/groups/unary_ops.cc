// Elementwise unary math (cann_ops.md 1B: Abs, Neg, Exp, Log, Sqrt ... IsInf, ClipByValue),
// Cast, and the fills and copies of 1I (Fills, ZerosLike, OnesLike, Identity). The building
// blocks and the integer semantics are in elementwise.h.
#include <cmath>
#include <cstring>
#include <type_traits>

#include "ops/groups/elementwise.h"
#include "ops/kernels.h"
#include "ops/op_group.h"

// In namespace elementwise, so its helpers (elementwise.h) come first in every lookup, also
// when a unity build puts another group's file in the same translation unit.
namespace aclsim::ops {
namespace elementwise {
namespace {

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

void RegisterUnaryMath(OpRegistry& registry) {
  using DT = DataType;
  const auto numbers = NumberTypes();
  const auto floats = FloatTypes();
  const auto f16_f32_f64_bf16 = floats;

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

}  // namespace
}  // namespace elementwise

void RegisterUnaryOps(OpRegistry& registry) { elementwise::RegisterUnaryMath(registry); }

}  // namespace aclsim::ops
