// Tiling, broadcasting and padding (cann_ops.md 1I): Tile, BroadcastTo, Expand, Pad(V2, V3)
// and their D-variants (values as attributes, rule 9), planned as gathers (ops/movement.h;
// kFill marks a padding element). Slicing and transposition are in slice_ops.cc.
//
// Thread-safety: pure functions over the tensors of one call.
#include <algorithm>
#include <cstring>
#include <limits>

#include "ops/movement.h"
#include "ops/op_group.h"
#include "ops/value_args.h"

// In namespace movement, so its helpers (ops/movement.h) come first in every lookup, also when
// a unity build puts another group's file in the same translation unit.
namespace aclsim::ops {
namespace movement {
namespace {

// --- Tile, BroadcastTo, Expand -------------------------------------------------------------

template <typename Ctx>
Result<GatherPlan> TilePlan(const Ctx& c, const Ints& multiples) {
  auto dims = InDims(c, 0);
  if (multiples.v.size() < dims.size()) {
    return c.Fail(multiples.code, "{} = {} has {} entries but x has rank {}", multiples.name,
                  Str(multiples.v), multiples.v.size(), dims.size());
  }
  dims.insert(dims.begin(), multiples.v.size() - dims.size(), 1);
  const auto strides = Strides(dims);
  GatherPlan plan;
  for (size_t d = 0; d < dims.size(); ++d) {
    const int64_t m = multiples.v[d];
    if (m < 0) {
      return c.Fail(multiples.code, "{}[{}] = {} is negative", multiples.name, d, m);
    }
    const int64_t count = SaturatingMul(dims[d], m);
    std::vector<int64_t> table;
    if constexpr (kFillTables<Ctx>) {
      table.resize(static_cast<size_t>(count));
      for (int64_t i = 0; i < count; ++i) table[i] = (i % dims[d]) * strides[d];
    }
    plan.out_dims.push_back(count);
    plan.tables.push_back(std::move(table));
  }
  return plan;
}

// x broadcast to `out` (x's dims aligned right; each is 1 or equal).
template <typename Ctx>
GatherPlan BroadcastPlan(const Ctx& c, std::vector<int64_t> dims, const std::vector<int64_t>& out) {
  dims.insert(dims.begin(), out.size() - dims.size(), 1);
  const auto strides = Strides(dims);
  GatherPlan plan;
  plan.out_dims = out;
  for (size_t d = 0; d < out.size(); ++d) {
    plan.tables.push_back(AxisTableFor(c, out[d], 0, dims[d] == 1 ? 0 : 1, strides[d]));
  }
  return plan;
}

// BroadcastTo (one-directional: the result has exactly `shape`) or Expand (bidirectional).
template <typename Ctx>
Result<GatherPlan> BroadcastToPlan(const Ctx& c, const Ints& shape, bool bidirectional) {
  const auto& dims = InDims(c, 0);
  for (size_t i = 0; i < shape.v.size(); ++i) {
    if (shape.v[i] < 0) {
      return c.Fail(shape.code, "{} = {} has a negative dimension", shape.name, Str(shape.v));
    }
  }
  auto out = BroadcastDims(dims, shape.v);
  if (!out.ok() || (!bidirectional && out.value() != shape.v)) {
    return c.Fail(shape.code, "x of shape {} cannot be broadcast to {} = {}", Str(dims), shape.name,
                  Str(shape.v));
  }
  return BroadcastPlan(c, dims, out.value());
}

// --- Pad -----------------------------------------------------------------------------------

enum class PadMode { kConstant, kReflect, kEdge };

// paddings as [b0, e0, b1, e1, ...].
template <typename Ctx>
Result<GatherPlan> PadPlan(const Ctx& c, const Ints& paddings, PadMode mode, bool allow_negative) {
  const auto& dims = InDims(c, 0);
  const size_t rank = dims.size();
  if (paddings.v.size() != 2 * rank) {
    return c.Fail(paddings.code, "{} has {} values but x of rank {} needs {} (begin, end per dim)",
                  paddings.name, paddings.v.size(), rank, 2 * rank);
  }
  const auto strides = Strides(dims);
  GatherPlan plan;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t b = paddings.v[2 * d];
    const int64_t e = paddings.v[2 * d + 1];
    const int64_t n = dims[d];
    if (!allow_negative && (b < 0 || e < 0)) {
      return c.Fail(paddings.code, "{} for dimension {} is negative ({}, {})", paddings.name, d, b,
                    e);
    }
    const int64_t count = SaturatingAdd(SaturatingAdd(n, b), e);
    if (count < 0) {
      return c.Fail(paddings.code, "{} ({}, {}) removes more than dimension {} of size {}",
                    paddings.name, b, e, d, n);
    }
    if (mode != PadMode::kConstant && n == 0 && count > 0) {
      return c.Fail(paddings.code, "{}: cannot pad empty dimension {} in edge/reflect mode",
                    paddings.name, d);
    }
    std::vector<int64_t> table;
    if constexpr (kFillTables<Ctx>) table.resize(static_cast<size_t>(count));
    for (int64_t o = 0; o < static_cast<int64_t>(table.size()); ++o) {
      int64_t i = SaturatingSub(o, b);
      if (i < 0 || i >= n) {
        if (mode == PadMode::kConstant) {
          table[o] = kFill;
          continue;
        }
        if (mode == PadMode::kEdge || n == 1) {
          i = std::clamp<int64_t>(i, 0, n - 1);
        } else {  // reflect without repeating the edge, periodically (as numpy.pad)
          const int64_t period = 2 * (n - 1);
          i = ((i % period) + period) % period;
          if (i >= n) i = period - i;
        }
      }
      table[o] = i * strides[d];
    }
    plan.out_dims.push_back(count);
    plan.tables.push_back(std::move(table));
  }
  return plan;
}

std::vector<int64_t> FlattenPairs(const std::vector<std::vector<int64_t>>& pairs) {
  std::vector<int64_t> flat;
  for (const auto& p : pairs) flat.insert(flat.end(), p.begin(), p.end());
  return flat;
}

// PadV3 paddings order: contiguous [b0, e0, b1, e1, ...] or ONNX [b0, b1, ..., e0, e1, ...].
Ints PairsFromV3(Ints paddings, bool contiguous) {
  if (contiguous || paddings.v.size() % 2 != 0) return paddings;
  const size_t rank = paddings.v.size() / 2;
  std::vector<int64_t> pairs;
  for (size_t d = 0; d < rank; ++d) {
    pairs.push_back(paddings.v[d]);
    pairs.push_back(paddings.v[rank + d]);
  }
  paddings.v = std::move(pairs);
  return paddings;
}

template <typename Ctx>
Result<PadMode> ModeOf(const Ctx& c) {
  const std::string& mode = c.GetString("mode");
  if (mode == "constant") return PadMode::kConstant;
  if (mode == "reflect") return PadMode::kReflect;
  if (mode == "edge") return PadMode::kEdge;
  return c.Fail(StatusCode::kOpAttrNotMatch,
                "attribute 'mode' = \"{}\" is not one of \"constant\", \"reflect\", \"edge\"",
                mode);
}

// The padding value as one element of y's dtype, from input `i` (any numeric dtype).
std::vector<uint8_t> PadValue(const RunContext& ctx, size_t i, const Tensor& y) {
  std::vector<uint8_t> bytes(16, 0);
  if (!HasIn(ctx, i)) return bytes;
  const auto& desc = ctx.call().inputs[i];
  Tensor value = ctx.in(i);
  if (desc.value && !desc.value->empty()) {
    value.data = const_cast<uint8_t*>(desc.value->data());
    value.size = desc.value->size();
  }
  if (value.data == nullptr || value.size < DataTypeSize(value.dtype)) return bytes;
  Tensor out;
  out.data = bytes.data();
  out.size = bytes.size();
  out.dtype = y.dtype;
  out.dims = {1};
  if (value.dtype == y.dtype) {
    std::memcpy(bytes.data(), value.data, DataTypeSize(y.dtype));
  } else {
    StoreDouble(out, 0, LoadDouble(value, 0));
  }
  return bytes;
}

template <typename PlanFn>
OpDef PadOp(std::string type, std::vector<ArgDef> inputs, std::vector<AttrDef> attrs,
            std::vector<size_t> value_inputs, PlanFn plan, size_t value_input) {
  OpDef def =
      GatherOp(std::move(type), std::move(inputs), std::move(attrs), std::move(value_inputs), plan);
  def.run = [plan, value_input](RunContext& ctx) -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto p, plan(static_cast<const RunContext&>(ctx)));
    std::vector<uint8_t> fill(16, 0);
    if (value_input != SIZE_MAX) {
      fill = PadValue(ctx, value_input, ctx.out(0));
    } else if (ctx.Has("constant_values")) {  // PadV3D
      Tensor out{fill.data(), fill.size(), ctx.out(0).dtype, {1}};
      StoreDouble(out, 0, static_cast<double>(ctx.GetInt("constant_values")));
    }
    return Gather(ctx.in(0), ctx.out(0), p, fill.data());
  };
  return def;
}

void RegisterTileAndPad(OpRegistry& registry) {
  const auto all = AllTypes();
  const auto index = IndexTypes();

  registry.Add(GatherOp("Tile", {In("x", all), In("multiples", index)}, {}, {1},
                        [](const auto& c) -> Result<GatherPlan> {
                          ACLSIM_ASSIGN_OR_RETURN(auto multiples, FromInput(c, 1));
                          return TilePlan(c, multiples);
                        }));
  registry.Add(GatherOp("TileD", {In("x", all)}, {ReqAttr("multiples", AttrType::kListInt)}, {},
                        [](const auto& c) { return TilePlan(c, FromAttr(c, "multiples")); }));

  registry.Add(GatherOp("BroadcastTo", {In("x", all), In("shape", index)}, {}, {1},
                        [](const auto& c) -> Result<GatherPlan> {
                          ACLSIM_ASSIGN_OR_RETURN(auto shape, FromInput(c, 1));
                          return BroadcastToPlan(c, shape, false);
                        }));
  registry.Add(
      GatherOp("BroadcastToD", {In("x", all)}, {ReqAttr("shape", AttrType::kListInt)}, {},
               [](const auto& c) { return BroadcastToPlan(c, FromAttr(c, "shape"), false); }));
  registry.Add(GatherOp(
      "Expand", {In("x", all), In("shape", {DataType::kInt16, DataType::kInt32, DataType::kInt64})},
      {}, {1}, [](const auto& c) -> Result<GatherPlan> {
        ACLSIM_ASSIGN_OR_RETURN(auto shape, FromInput(c, 1));
        return BroadcastToPlan(c, shape, true);
      }));

  registry.Add(PadOp(
      "Pad", {In("x", all), In("paddings", index)}, {}, {1},
      [](const auto& c) -> Result<GatherPlan> {
        ACLSIM_ASSIGN_OR_RETURN(auto paddings, FromInput(c, 1));
        return PadPlan(c, paddings, PadMode::kConstant, false);
      },
      SIZE_MAX));
  registry.Add(PadOp(
      "PadD", {In("x", all)}, {ReqAttr("paddings", AttrType::kListListInt)}, {},
      [](const auto& c) {
        Ints paddings{FlattenPairs(c.GetIntLists("paddings")), StatusCode::kOpAttrNotMatch,
                      "attribute 'paddings'"};
        return PadPlan(c, paddings, PadMode::kConstant, false);
      },
      SIZE_MAX));
  registry.Add(PadOp(
      "PadV2", {In("x", all), In("paddings", index), In("constant_values", all)}, {}, {1},
      [](const auto& c) -> Result<GatherPlan> {
        ACLSIM_ASSIGN_OR_RETURN(auto paddings, FromInput(c, 1));
        return PadPlan(c, paddings, PadMode::kConstant, false);
      },
      2));
  const auto v3_attrs = std::vector<AttrDef>{
      OptAttr("mode", AttrType::kString, std::string("constant")),
      OptAttr("paddings_contiguous", AttrType::kBool, true),
  };
  registry.Add(PadOp(
      "PadV3", {In("x", all), In("paddings", index), OptIn("constant_values", all)}, v3_attrs, {1},
      [](const auto& c) -> Result<GatherPlan> {
        ACLSIM_ASSIGN_OR_RETURN(auto mode, ModeOf(c));
        ACLSIM_ASSIGN_OR_RETURN(auto paddings, FromInput(c, 1));
        return PadPlan(c, PairsFromV3(std::move(paddings), c.GetBool("paddings_contiguous")), mode,
                       true);
      },
      2));
  auto v3d_attrs = std::vector<AttrDef>{ReqAttr("paddings", AttrType::kListListInt),
                                        OptAttr("constant_values", AttrType::kInt, int64_t{0})};
  v3d_attrs.insert(v3d_attrs.end(), v3_attrs.begin(), v3_attrs.end());
  registry.Add(PadOp(
      "PadV3D", {In("x", all)}, v3d_attrs, {},
      [](const auto& c) -> Result<GatherPlan> {
        ACLSIM_ASSIGN_OR_RETURN(auto mode, ModeOf(c));
        Ints paddings{FlattenPairs(c.GetIntLists("paddings")), StatusCode::kOpAttrNotMatch,
                      "attribute 'paddings'"};
        return PadPlan(c, PairsFromV3(std::move(paddings), c.GetBool("paddings_contiguous")), mode,
                       true);
      },
      SIZE_MAX));
}

}  // namespace
}  // namespace movement

void RegisterPadOps(OpRegistry& registry) { movement::RegisterTileAndPad(registry); }

}  // namespace aclsim::ops
