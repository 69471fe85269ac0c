// Data movement planned as a gather: "output element (i0, i1, ...) = x[base + t0[i0] +
// t1[i1] + ...]" with one offset table per output dimension (kFill marks a padding element),
// run by one kernel that moves elements by their byte size, so every dtype works. The op
// groups of slicing and transposition (slice_ops.cc) and of tiling, broadcasting and padding
// (pad_ops.cc) plan their ops this way; a plan is computed from the same values in infer
// (descriptor values) and run (the resolved call).
//
// Thread-safety: pure functions over the tensors of one call.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/status.h"
#include "ops/op_def.h"

namespace aclsim::ops::movement {

constexpr int64_t kFill = std::numeric_limits<int64_t>::min();

// Access to either context.
inline const std::vector<int64_t>& InDims(const OpContext& c, size_t i) { return c.input(i).dims; }
inline const std::vector<int64_t>& InDims(const RunContext& c, size_t i) { return c.in(i).dims; }
inline bool HasIn(const OpContext& c, size_t i) { return c.has_input(i); }
inline bool HasIn(const RunContext& c, size_t i) {
  return i < c.call().inputs.size() && !c.call().inputs[i].absent();
}

struct GatherPlan {
  std::vector<int64_t> out_dims;
  std::vector<std::vector<int64_t>> tables;  // per output dim: element offsets into x or kFill
  int64_t base = 0;
};

// The offsets of `count` elements from `start` by `step`, in units of `stride` elements.
std::vector<int64_t> AxisTable(int64_t count, int64_t start, int64_t step, int64_t stride);

// The offset tables are filled only to run: shape inference needs the output dims alone, and a
// table is as long as its output dim, which the size check after inference may yet refuse.
template <typename Ctx>
inline constexpr bool kFillTables = std::is_same_v<Ctx, RunContext>;

// AxisTable to run; to infer, only the first offset (what a shrunk axis adds to the base).
template <typename Ctx>
std::vector<int64_t> AxisTableFor(const Ctx&, int64_t count, int64_t start, int64_t step,
                                  int64_t stride) {
  if constexpr (kFillTables<Ctx>) {
    return AxisTable(count, start, step, stride);
  } else {
    return {SaturatingMul(start, stride)};
  }
}

// y = gather(x) by `plan`; `fill` holds one element of y's dtype (padding value) or is null.
Status Gather(const Tensor& x, const Tensor& y, const GatherPlan& plan, const uint8_t* fill);

// An OpDef whose infer and run both come from one planning function
// Result<GatherPlan> plan(const Ctx&) (a generic lambda over OpContext / RunContext).
template <typename PlanFn>
OpDef GatherOp(std::string type, std::vector<ArgDef> inputs, std::vector<AttrDef> attrs,
               std::vector<size_t> value_inputs, PlanFn plan) {
  OpDef def;
  def.type = std::move(type);
  def.inputs = std::move(inputs);
  def.outputs = {Out("y", AllTypes())};
  def.attrs = std::move(attrs);
  def.value_inputs = std::move(value_inputs);
  def.infer = [plan](OpContext& ctx) -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto p, plan(static_cast<const OpContext&>(ctx)));
    ctx.SetOutput(0, ctx.input(0).dtype, std::move(p.out_dims));
    return Status::Ok();
  };
  def.run = [plan](RunContext& ctx) -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto p, plan(static_cast<const RunContext&>(ctx)));
    return Gather(ctx.in(0), ctx.out(0), p, nullptr);
  };
  return def;
}

}  // namespace aclsim::ops::movement
