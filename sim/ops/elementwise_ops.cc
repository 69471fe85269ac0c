// Elementwise arithmetic, comparison and logic ops (cann_ops.md 1A, 1C), and Cast.
#include <cmath>

#include "sim/ops/kernels.h"
#include "sim/ops/op_library.h"

namespace aclsim::sim::ops {

namespace {

Status InferBroadcast(OpContext& ctx) {
  ACLSIM_ASSIGN_OR_RETURN(auto dims, BroadcastShapes(ctx, 0, 1));
  if (ctx.input(0).dtype != ctx.input(1).dtype) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} is {} but {} is {}; they must match",
                    ctx.InputName(0), driver::DataTypeName(ctx.input(0).dtype), ctx.InputName(1),
                    driver::DataTypeName(ctx.input(1).dtype));
  }
  ctx.SetOutput(0, ctx.input(0).dtype, std::move(dims));
  return Status::Ok();
}

// A binary op y = f(x1, x2) with broadcasting, computed in ComputeT of the dtype.
template <typename F>
OpDef BinaryOp(std::string type, std::vector<DataType> dtypes, F f) {
  OpDef def;
  def.type = std::move(type);
  def.inputs = {In("x1", dtypes), In("x2", dtypes)};
  def.outputs = {Out("y", dtypes)};
  def.infer = InferBroadcast;
  def.run = [f](RunContext& ctx) {
    return DispatchType(ctx.in(0).dtype, [&](auto tag) -> Status {
      using T = decltype(tag);
      BinaryKernel<T>(ctx.in(0), ctx.in(1), ctx.out(0), f);
      return Status::Ok();
    });
  };
  return def;
}

Status InferCast(OpContext& ctx) {
  const int64_t dst = ctx.GetInt("dst_type");
  if (!driver::IsKnownDataType(static_cast<int32_t>(dst)) ||
      driver::DataTypeSize(static_cast<DataType>(dst)) == 0) {
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
          dst[i] = static_cast<TO>(src[i]);
        } else {
          dst[i] = FromCompute<TO>(ToCompute(src[i]));
        }
      }
      return Status::Ok();
    });
  });
}

}  // namespace

void RegisterElementwiseOps(OpRegistry& registry) {
  const auto numbers = NumberTypes();
  registry.Add(BinaryOp("Add", AllTypes(), [](auto a, auto b) { return a + b; }));
  registry.Add(BinaryOp("AddV2", numbers, [](auto a, auto b) { return a + b; }));
  registry.Add(BinaryOp("Sub", numbers, [](auto a, auto b) { return a - b; }));
  registry.Add(BinaryOp("Mul", AllTypes(), [](auto a, auto b) { return a * b; }));
  registry.Add(BinaryOp("RealDiv", numbers, [](auto a, auto b) {
    if constexpr (std::is_integral_v<decltype(a)>) {
      return b == 0 ? decltype(a){0} : static_cast<decltype(a)>(a / b);
    } else {
      return a / b;
    }
  }));

  OpDef cast;
  cast.type = "Cast";
  cast.inputs = {In("x", AllTypes())};
  cast.outputs = {Out("y", AllTypes())};
  cast.attrs = {ReqAttr("dst_type", AttrType::kInt)};
  cast.infer = InferCast;
  cast.run = RunCast;
  registry.Add(std::move(cast));
}

}  // namespace aclsim::sim::ops
