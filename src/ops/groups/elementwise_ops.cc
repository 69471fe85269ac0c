// Elementwise binary arithmetic (cann_ops.md 1A: Add ... AddN, Pow, Axpy, Muls, Adds) and
// comparison, logic and select (1C: Greater ... LogicalNot, Select, SelectV2, MaskedFill).
// The unary ops of 1B and the fills and copies of 1I are in unary_ops.cc; the shared building
// blocks and the integer semantics in elementwise.h.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "ops/groups/elementwise.h"
#include "ops/kernels.h"
#include "ops/op_group.h"

// In namespace elementwise, so its helpers (elementwise.h) come first in every lookup, also
// when a unity build puts another group's file in the same translation unit.
namespace aclsim::ops {
namespace elementwise {
namespace {

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

void RegisterArithmeticAndLogic(OpRegistry& registry) {
  using DT = DataType;
  const auto numbers = NumberTypes();
  const auto real = NumberTypes();  // {RealNumber}: floats + ints

  // --- 1A binary arithmetic ---
  registry.Add(
      WithMixedFloatInputs(BinaryOp<true>("Add", AllTypes(), 1,
                                          [](auto a, auto b) {
                                            if constexpr (std::is_same_v<decltype(a), bool>) {
                                              return a || b;
                                            } else {
                                              return WrapAdd(a, b);
                                            }
                                          }),
                           [](float a, float b) { return a + b; }));
  registry.Add(BinaryOp("AddV2", numbers, 1, [](auto a, auto b) { return WrapAdd(a, b); }));
  registry.Add(BinaryOp("Sub", numbers, 1, [](auto a, auto b) { return WrapAdd(a, WrapNeg(b)); }));
  registry.Add(
      WithMixedFloatInputs(BinaryOp<true>("Mul", AllTypes(), 1,
                                          [](auto a, auto b) {
                                            if constexpr (std::is_same_v<decltype(a), bool>) {
                                              return a && b;
                                            } else {
                                              return WrapMul(a, b);
                                            }
                                          }),
                           [](float a, float b) { return a * b; }));
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
}

}  // namespace
}  // namespace elementwise

void RegisterElementwiseOps(OpRegistry& registry) {
  elementwise::RegisterArithmeticAndLogic(registry);
}

}  // namespace aclsim::ops
