// Activations (cann_ops.md 1D).
//
// Floating types compute in ComputeT (float for fp16/bf16); integer types accepted by a
// prototype (Relu6, Selu) compute in double and convert back (truncating, saturating).
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "ops/kernels.h"
#include "ops/op_group.h"

namespace aclsim::ops {

namespace {

// The type a function computes in: the floating ComputeT itself, double for integers.
template <typename C>
using MathT = std::conditional_t<std::is_floating_point_v<C>, C, double>;

template <typename F>
OpDef ActivationOp(std::string type, const std::vector<DataType>& dtypes, uint32_t ops, F f,
                   std::string in_name = "x", std::string out_name = "y") {
  OpDef def;
  def.type = std::move(type);
  def.inputs = {In(std::move(in_name), dtypes)};
  def.outputs = {Out(std::move(out_name), dtypes)};
  def.ops_per_element = ops;
  def.infer = InferSame;
  def.run = [f](RunContext& ctx) {
    return DispatchType(ctx.in(0).dtype, [&](auto tag) -> Status {
      using T = decltype(tag);
      UnaryKernel<T>(ctx.in(0), ctx.out(0), f);
      return Status::Ok();
    });
  };
  return def;
}

// An activation computed in MathT, with per-call parameters: make(ctx) returns a generic
// function of one MathT value.
template <typename Make>
OpDef ParamOp(std::string type, const std::vector<DataType>& dtypes, std::vector<AttrDef> attrs,
              uint32_t ops, Make make, std::string in_name = "x", std::string out_name = "y") {
  OpDef def;
  def.type = std::move(type);
  def.inputs = {In(std::move(in_name), dtypes)};
  def.outputs = {Out(std::move(out_name), dtypes)};
  def.attrs = std::move(attrs);
  def.ops_per_element = ops;
  def.infer = InferSame;
  def.run = [make](RunContext& ctx) {
    auto f = make(ctx);
    return DispatchType(ctx.in(0).dtype, [&](auto tag) -> Status {
      using T = decltype(tag);
      UnaryKernel<T>(ctx.in(0), ctx.out(0), [&](auto x) {
        using M = MathT<decltype(x)>;
        return f(static_cast<M>(x));
      });
      return Status::Ok();
    });
  };
  return def;
}

// Numerically stable pieces.
template <typename M>
M Sigmoid(M x) {
  if (x >= 0) return M{1} / (M{1} + std::exp(-x));
  const M e = std::exp(x);
  return e / (M{1} + e);
}

template <typename M>
M Softplus(M x) {
  return std::log1p(std::exp(-std::abs(x))) + std::max(x, M{0});
}

// PRelu: weight is a scalar (1 element), per channel (1-D of size x.dims[1]), or broadcast
// unidirectionally to x (NumPy rules, e.g. ONNX slope [C, 1, 1]).
Result<std::vector<int64_t>> PreluWeightDims(const std::vector<int64_t>& x,
                                             const std::vector<int64_t>& w) {
  if (Product(w) == 1) return std::vector<int64_t>{};
  if (w.size() == 1 && x.size() >= 2 && w[0] == x[1]) {
    std::vector<int64_t> dims(x.size() - 1, 1);
    dims[0] = w[0];
    return dims;
  }
  auto b = BroadcastDims(x, w);
  if (b.ok() && b.value() == x) return w;
  return Status(StatusCode::kOpInputNotMatch, "");
}

Status InferPrelu(OpContext& ctx) {
  if (ctx.input(0).dtype != ctx.input(1).dtype) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} is {} but {} is {}; they must match",
                    ctx.InputName(0), DataTypeName(ctx.input(0).dtype), ctx.InputName(1),
                    DataTypeName(ctx.input(1).dtype));
  }
  if (!PreluWeightDims(ctx.input(0).dims, ctx.input(1).dims).ok()) {
    return ctx.Fail(StatusCode::kOpInputNotMatch,
                    "{} shape [{}] must have one element, be 1-D with the channel count (dim 1) "
                    "of {} shape [{}], or broadcast to it",
                    ctx.InputName(1), fmt::join(ctx.input(1).dims, ", "), ctx.InputName(0),
                    fmt::join(ctx.input(0).dims, ", "));
  }
  return InferSame(ctx);
}

Status RunPrelu(RunContext& ctx) {
  const Tensor& x = ctx.in(0);
  const Tensor& w = ctx.in(1);
  Tensor& y = ctx.out(0);
  ACLSIM_ASSIGN_OR_RETURN(auto wdims, PreluWeightDims(x.dims, w.dims));
  return DispatchType(x.dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* px = x.ptr<const T>();
    const T* pw = w.ptr<const T>();
    T* py = y.ptr<T>();
    ForEachBroadcast2(x.dims, wdims, y.dims, [&](int64_t o, int64_t ix, int64_t iw) {
      const auto v = ToCompute(px[ix]);
      py[o] = v > 0 ? px[ix] : FromCompute<T>(v * ToCompute(pw[iw]));
    });
    return Status::Ok();
  });
}

}  // namespace

void RegisterActivationOps(OpRegistry& registry) {
  using DT = DataType;
  const auto floats = FloatTypes();
  const auto f16_f32_bf16 = Types({DT::kFloat16, DT::kFloat, DT::kBf16});
  auto relu_types = FloatTypes();
  for (auto t :
       {DataType::kInt8, DataType::kInt16, DataType::kInt32, DataType::kInt64, DataType::kUint8}) {
    relu_types.push_back(t);
  }
  registry.Add(
      ActivationOp("Relu", relu_types, 1, [](auto x) { return x > 0 ? x : decltype(x){0}; }));
  registry.Add(ActivationOp("Relu6", NumberTypes(), 2, [](auto x) {
    using C = decltype(x);
    if (x > static_cast<C>(6)) return static_cast<C>(6);
    return x > C{0} ? x : C{0};
  }));
  registry.Add(ParamOp("LeakyRelu", floats, {OptAttr("negative_slope", AttrType::kFloat, 0.0f)}, 2,
                       [](const RunContext& ctx) {
                         const double slope = ctx.GetFloat("negative_slope");
                         return [slope](auto x) {
                           using M = decltype(x);
                           return x > 0 ? x : static_cast<M>(slope) * x;
                         };
                       }));
  {
    OpDef prelu;
    prelu.type = "PRelu";
    prelu.inputs = {In("x", f16_f32_bf16), In("weight", f16_f32_bf16)};
    prelu.outputs = {Out("y", f16_f32_bf16)};
    prelu.ops_per_element = 2;
    prelu.infer = InferPrelu;
    prelu.run = RunPrelu;
    registry.Add(std::move(prelu));
  }
  registry.Add(ActivationOp("Gelu", f16_f32_bf16, 8, [](auto x) {
    using M = MathT<decltype(x)>;
    const M v = static_cast<M>(x);
    const M k = static_cast<M>(0.7978845608028654);  // sqrt(2 / pi)
    return M{0.5} * v * (M{1} + std::tanh(k * (v + static_cast<M>(0.044715) * v * v * v)));
  }));
  // GeluV2: approximate "none" is the exact erf form, "tanh" Gelu's.
  registry.Add(ParamOp(
      "GeluV2", f16_f32_bf16, {OptAttr("approximate", AttrType::kString, std::string("none"))}, 8,
      [](const RunContext& ctx) {
        const bool tanh_form = ctx.GetString("approximate") == "tanh";
        return [tanh_form](auto x) {
          using M = decltype(x);
          if (tanh_form) {
            const M k = static_cast<M>(0.7978845608028654);
            return M{0.5} * x * (M{1} + std::tanh(k * (x + static_cast<M>(0.044715) * x * x * x)));
          }
          return M{0.5} * x * (M{1} + std::erf(x * static_cast<M>(0.7071067811865476)));
        };
      }));
  registry.Add(ActivationOp("FastGelu", f16_f32_bf16, 6, [](auto x) {
    using M = MathT<decltype(x)>;
    const M v = static_cast<M>(x);
    const M a = std::abs(v);
    return v / (M{1} + std::exp(static_cast<M>(-1.702) * a)) *
           std::exp(static_cast<M>(0.851) * (v - a));
  }));
  registry.Add(ActivationOp("Sigmoid", floats, 5,
                            [](auto x) { return Sigmoid(static_cast<MathT<decltype(x)>>(x)); }));
  registry.Add(ActivationOp("Tanh", floats, 5,
                            [](auto x) { return std::tanh(static_cast<MathT<decltype(x)>>(x)); }));
  registry.Add(ParamOp("Swish", f16_f32_bf16, {OptAttr("scale", AttrType::kFloat, 1.0f)}, 6,
                       [](const RunContext& ctx) {
                         const double scale = ctx.GetFloat("scale");
                         return [scale](auto x) {
                           using M = decltype(x);
                           return x * Sigmoid(static_cast<M>(scale) * x);
                         };
                       }));
  registry.Add(ActivationOp("Softplus", floats, 6,
                            [](auto x) { return Softplus(static_cast<MathT<decltype(x)>>(x)); }));
  registry.Add(
      ParamOp("Elu", floats,
              {OptAttr("alpha", AttrType::kFloat, 1.0f), OptAttr("scale", AttrType::kFloat, 1.0f),
               OptAttr("input_scale", AttrType::kFloat, 1.0f)},
              5, [](const RunContext& ctx) {
                const double alpha = ctx.GetFloat("alpha");
                const double scale = ctx.GetFloat("scale");
                const double input_scale = ctx.GetFloat("input_scale");
                return [=](auto x) {
                  using M = decltype(x);
                  const M neg = static_cast<M>(alpha) * std::expm1(static_cast<M>(input_scale) * x);
                  return static_cast<M>(scale) * (x > 0 ? x : neg);
                };
              }));
  registry.Add(ActivationOp(
      "Selu", Types({DT::kFloat16, DT::kFloat, DT::kDouble, DT::kInt8, DT::kInt32, DT::kBf16}), 5,
      [](auto x) {
        using M = MathT<decltype(x)>;
        const M v = static_cast<M>(x);
        const M alpha = static_cast<M>(1.6732632423543772);
        const M scale = static_cast<M>(1.0507009873554805);
        return scale * (v > 0 ? v : alpha * std::expm1(v));
      }));
  registry.Add(ActivationOp("HardSwish", f16_f32_bf16, 4, [](auto x) {
    using M = MathT<decltype(x)>;
    const M v = static_cast<M>(x);
    return v * std::min(std::max(v + M{3}, M{0}), M{6}) / M{6};
  }));
  registry.Add(ParamOp(
      "HardSigmoid", f16_f32_bf16,
      {OptAttr("alpha", AttrType::kFloat, 0.16666666f), OptAttr("beta", AttrType::kFloat, 0.5f)}, 3,
      [](const RunContext& ctx) {
        const double alpha = ctx.GetFloat("alpha");
        const double beta = ctx.GetFloat("beta");
        return [=](auto x) {
          using M = decltype(x);
          const M v = static_cast<M>(alpha) * x + static_cast<M>(beta);
          return std::max(M{0}, std::min(M{1}, v));
        };
      },
      "input_x", "output_y"));
  registry.Add(ActivationOp("Mish", f16_f32_bf16, 10, [](auto x) {
    using M = MathT<decltype(x)>;
    const M v = static_cast<M>(x);
    return v * std::tanh(Softplus(v));
  }));
  registry.Add(ActivationOp("Softsign", floats, 3, [](auto x) {
    using M = MathT<decltype(x)>;
    const M v = static_cast<M>(x);
    return v / (M{1} + std::abs(v));
  }));
}

}  // namespace aclsim::ops
