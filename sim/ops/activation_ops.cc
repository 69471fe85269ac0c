// Activations (cann_ops.md 1D).
#include <algorithm>
#include <cmath>

#include "sim/ops/kernels.h"
#include "sim/ops/op_library.h"

namespace aclsim::sim::ops {

namespace {

Status InferSame(OpContext& ctx) {
  ctx.SetOutput(0, ctx.input(0).dtype, ctx.input(0).dims);
  return Status::Ok();
}

template <typename F>
OpDef UnaryOp(std::string type, std::vector<DataType> dtypes, uint32_t ops, F f) {
  OpDef def;
  def.type = std::move(type);
  def.inputs = {In("x", dtypes)};
  def.outputs = {Out("y", dtypes)};
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

}  // namespace

void RegisterActivationOps(OpRegistry& registry) {
  auto relu_types = FloatTypes();
  for (auto t :
       {DataType::kInt8, DataType::kInt16, DataType::kInt32, DataType::kInt64, DataType::kUint8}) {
    relu_types.push_back(t);
  }
  registry.Add(UnaryOp("Relu", relu_types, 1, [](auto x) { return x > 0 ? x : decltype(x){0}; }));
}

}  // namespace aclsim::sim::ops
