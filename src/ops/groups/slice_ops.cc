// Gather-style data movement ops (cann_ops.md 1I): Transpose, Slice, StridedSlice(V2), Tile,
// BroadcastTo, Expand, Pad(V2, V3) and their D-variants (values as attributes, rule 9).
//
// Every op here is planned as "output element (i0, i1, ...) = x[base + t0[i0] + t1[i1] + ...]"
// with one offset table per output dimension (kFill marks a padding element), and run by a
// single kernel that moves elements by their byte size, so every dtype works. The plan is
// computed from the same values in infer (descriptor values) and run (the resolved call).
//
// Thread-safety: pure functions over the tensors of one call.
#include <algorithm>
#include <cstring>
#include <limits>

#include "ops/op_group.h"
#include "ops/value_args.h"

namespace aclsim::ops {

namespace {

constexpr int64_t kFill = std::numeric_limits<int64_t>::min();

// --- access to either context --------------------------------------------------------------

const std::vector<int64_t>& InDims(const OpContext& c, size_t i) { return c.input(i).dims; }
const std::vector<int64_t>& InDims(const RunContext& c, size_t i) { return c.in(i).dims; }
bool HasIn(const OpContext& c, size_t i) { return c.has_input(i); }
bool HasIn(const RunContext& c, size_t i) {
  return i < c.call().inputs.size() && !c.call().inputs[i].absent();
}

// --- the gather kernel ---------------------------------------------------------------------

struct GatherPlan {
  std::vector<int64_t> out_dims;
  std::vector<std::vector<int64_t>> tables;  // per output dim: element offsets into x or kFill
  int64_t base = 0;
};

std::vector<int64_t> AxisTable(int64_t count, int64_t start, int64_t step, int64_t stride) {
  std::vector<int64_t> table(static_cast<size_t>(std::max<int64_t>(count, 0)));
  for (int64_t i = 0; i < count; ++i) table[i] = (start + i * step) * stride;
  return table;
}

template <size_t kSize>
void GatherTyped(const uint8_t* src, uint8_t* dst, const GatherPlan& plan, const uint8_t* fill) {
  const auto& dims = plan.out_dims;
  const int64_t total = Product(dims);
  if (total == 0) return;
  auto move = [&](uint8_t* to, int64_t from) {
    if (from == kFill) {
      std::memcpy(to, fill, kSize);
    } else {
      std::memcpy(to, src + from * static_cast<int64_t>(kSize), kSize);
    }
  };
  const size_t rank = dims.size();
  if (rank == 0) {
    move(dst, plan.base);
    return;
  }
  const auto& inner = plan.tables[rank - 1];
  const int64_t n = dims[rank - 1];
  bool contiguous = true;
  for (int64_t j = 0; j < n; ++j) contiguous &= inner[j] != kFill && inner[j] == inner[0] + j;
  std::vector<int64_t> index(rank, 0);
  for (int64_t o = 0; o < total; o += n) {
    int64_t row = plan.base;
    bool fill_row = false;
    for (size_t d = 0; d + 1 < rank; ++d) {
      const int64_t t = plan.tables[d][index[d]];
      if (t == kFill) {
        fill_row = true;
      } else {
        row += t;
      }
    }
    uint8_t* out = dst + o * static_cast<int64_t>(kSize);
    if (fill_row) {
      for (int64_t j = 0; j < n; ++j) move(out + j * kSize, kFill);
    } else if (contiguous) {
      std::memcpy(out, src + (row + inner[0]) * static_cast<int64_t>(kSize), n * kSize);
    } else {
      for (int64_t j = 0; j < n; ++j)
        move(out + j * kSize, inner[j] == kFill ? kFill : row + inner[j]);
    }
    for (size_t d = rank - 1; d-- > 0;) {
      if (++index[d] < dims[d]) break;
      index[d] = 0;
    }
  }
}

// y = gather(x) by `plan`; `fill` holds one element of y's dtype (padding value) or is null.
Status Gather(const Tensor& x, const Tensor& y, const GatherPlan& plan, const uint8_t* fill) {
  const size_t size = DataTypeSize(y.dtype);
  const uint8_t zero[16] = {};
  if (fill == nullptr) fill = zero;
  const auto* src = static_cast<const uint8_t*>(x.data);
  auto* dst = static_cast<uint8_t*>(y.data);
  switch (size) {
    case 1:
      GatherTyped<1>(src, dst, plan, fill);
      return Status::Ok();
    case 2:
      GatherTyped<2>(src, dst, plan, fill);
      return Status::Ok();
    case 4:
      GatherTyped<4>(src, dst, plan, fill);
      return Status::Ok();
    case 8:
      GatherTyped<8>(src, dst, plan, fill);
      return Status::Ok();
    case 16:
      GatherTyped<16>(src, dst, plan, fill);
      return Status::Ok();
    default:
      return Status(StatusCode::kUnsupportedDataType,
                    "data type " + DataTypeName(y.dtype) + " has no kernel");
  }
}

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

// --- Transpose -----------------------------------------------------------------------------

template <typename Ctx>
Result<GatherPlan> TransposePlan(const Ctx& c, const Ints& perm) {
  const auto& dims = InDims(c, 0);
  const int64_t rank = static_cast<int64_t>(dims.size());
  if (static_cast<int64_t>(perm.v.size()) != rank) {
    return c.Fail(perm.code, "{} = {} has {} entries but x has rank {}", perm.name, Str(perm.v),
                  perm.v.size(), rank);
  }
  const auto strides = Strides(dims);
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  GatherPlan plan;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t p = perm.v[d];
    if (p < -rank || p >= rank) {
      return c.Fail(perm.code, "{} = {}: entry {} is out of range for rank {}", perm.name,
                    Str(perm.v), p, rank);
    }
    if (p < 0) p += rank;
    if (seen[p]) {
      return c.Fail(perm.code, "{} = {} is not a permutation ({} repeats)", perm.name, Str(perm.v),
                    p);
    }
    seen[p] = true;
    plan.out_dims.push_back(dims[p]);
    plan.tables.push_back(AxisTable(dims[p], 0, 1, strides[p]));
  }
  return plan;
}

// --- Slice ---------------------------------------------------------------------------------

template <typename Ctx>
Result<GatherPlan> SlicePlan(const Ctx& c, const Ints& offsets, const Ints& size) {
  const auto& dims = InDims(c, 0);
  const size_t rank = dims.size();
  if (offsets.v.size() != rank) {
    return c.Fail(offsets.code, "{} = {} has {} entries but x has rank {}", offsets.name,
                  Str(offsets.v), offsets.v.size(), rank);
  }
  if (size.v.size() != rank) {
    return c.Fail(size.code, "{} = {} has {} entries but x has rank {}", size.name, Str(size.v),
                  size.v.size(), rank);
  }
  const auto strides = Strides(dims);
  GatherPlan plan;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t off = offsets.v[d];
    if (off < 0 || off > dims[d]) {
      return c.Fail(offsets.code, "{}[{}] = {} is out of range for dimension {} of size {}",
                    offsets.name, d, off, d, dims[d]);
    }
    int64_t len = size.v[d];
    if (len == -1) len = dims[d] - off;
    if (len < 0 || off + len > dims[d]) {
      return c.Fail(size.code, "{}[{}] = {} with offset {} exceeds dimension {} of size {}",
                    size.name, d, size.v[d], off, d, dims[d]);
    }
    plan.out_dims.push_back(len);
    plan.tables.push_back(AxisTable(len, off, 1, strides[d]));
  }
  return plan;
}

// Elements of a slice from b (inclusive) to e (exclusive) with step s.
int64_t SliceCount(int64_t b, int64_t e, int64_t s) {
  const int64_t interval = e - b;
  if (interval == 0 || (interval < 0) != (s < 0)) return 0;
  return interval / s + (interval % s != 0 ? 1 : 0);
}

// TF StridedSlice with masks (tensorflow/core/util/strided_slice_op.cc semantics).
template <typename Ctx>
Result<GatherPlan> StridedSlicePlan(const Ctx& c, const Ints& begin, const Ints& end,
                                    const Ints& strides_in) {
  const auto& dims = InDims(c, 0);
  const int64_t rank = static_cast<int64_t>(dims.size());
  const size_t n = begin.v.size();
  if (end.v.size() != n) {
    return c.Fail(end.code, "{} has {} entries but {} has {}", end.name, end.v.size(), begin.name,
                  n);
  }
  if (strides_in.v.size() != n) {
    return c.Fail(strides_in.code, "{} has {} entries but {} has {}", strides_in.name,
                  strides_in.v.size(), begin.name, n);
  }
  const int64_t begin_mask = c.GetInt("begin_mask");
  const int64_t end_mask = c.GetInt("end_mask");
  const int64_t ellipsis_mask = c.GetInt("ellipsis_mask");
  const int64_t new_axis_mask = c.GetInt("new_axis_mask");
  const int64_t shrink_mask = c.GetInt("shrink_axis_mask");
  if ((ellipsis_mask & (ellipsis_mask - 1)) != 0) {
    return c.Fail(StatusCode::kOpAttrNotMatch,
                  "attribute 'ellipsis_mask' = {} has more than one bit set", ellipsis_mask);
  }
  auto bit = [](int64_t mask, size_t i) { return i < 63 && ((mask >> i) & 1) != 0; };
  int64_t real = 0;  // sparse entries that consume an input dimension
  bool has_ellipsis = false;
  for (size_t i = 0; i < n; ++i) {
    if (bit(ellipsis_mask, i)) {
      has_ellipsis = true;
    } else if (!bit(new_axis_mask, i)) {
      ++real;
    }
  }
  if (real > rank) {
    return c.Fail(begin.code, "{} = {} indexes {} dimensions but x has rank {}", begin.name,
                  Str(begin.v), real, rank);
  }
  const auto in_strides = Strides(dims);
  GatherPlan plan;
  int64_t d = 0;
  auto full = [&](int64_t dim) {
    plan.out_dims.push_back(dims[dim]);
    plan.tables.push_back(AxisTable(dims[dim], 0, 1, in_strides[dim]));
  };
  for (size_t i = 0; i < n; ++i) {
    if (bit(ellipsis_mask, i)) {
      for (int64_t k = 0; k < rank - real; ++k) full(d++);
      continue;
    }
    if (bit(new_axis_mask, i)) {
      plan.out_dims.push_back(1);
      plan.tables.push_back({0});
      continue;
    }
    const int64_t dim = dims[d];
    const int64_t s = strides_in.v[i];
    if (s == 0) {
      return c.Fail(strides_in.code, "{}[{}] is 0", strides_in.name, i);
    }
    if (bit(shrink_mask, i)) {
      const int64_t b = begin.v[i] < 0 ? begin.v[i] + dim : begin.v[i];
      if (b < 0 || b >= dim) {
        return c.Fail(begin.code,
                      "{}[{}] = {} is out of range for dimension {} of size {} (shrink axis)",
                      begin.name, i, begin.v[i], d, dim);
      }
      plan.base += b * in_strides[d];
      ++d;
      continue;
    }
    auto canonical = [&](int64_t x, bool masked, bool is_end) -> int64_t {
      if (masked) {
        if (s > 0) return is_end ? dim : 0;
        return is_end ? -1 : dim - 1;
      }
      const int64_t fwd = x < 0 ? dim + x : x;
      const int64_t lo = s > 0 ? 0 : -1;
      const int64_t hi = s > 0 ? dim : dim - 1;
      return std::clamp(fwd, lo, hi);
    };
    const int64_t b = canonical(begin.v[i], bit(begin_mask, i), false);
    const int64_t e = canonical(end.v[i], bit(end_mask, i), true);
    const int64_t count = SliceCount(b, e, s);
    plan.out_dims.push_back(count);
    plan.tables.push_back(AxisTable(count, b, s, in_strides[d]));
    ++d;
  }
  if (!has_ellipsis) {
    while (d < rank) full(d++);
  }
  return plan;
}

// ONNX Slice semantics: per-axis starts/ends (clamped), optional axes and steps.
template <typename Ctx>
Result<GatherPlan> StridedSliceV2Plan(const Ctx& c) {
  const auto& dims = InDims(c, 0);
  const int64_t rank = static_cast<int64_t>(dims.size());
  ACLSIM_ASSIGN_OR_RETURN(auto starts, FromInput(c, 1));
  ACLSIM_ASSIGN_OR_RETURN(auto ends, FromInput(c, 2));
  const size_t n = starts.v.size();
  if (ends.v.size() != n) {
    return c.Fail(ends.code, "{} has {} entries but {} has {}", ends.name, ends.v.size(),
                  starts.name, n);
  }
  Ints axes;
  if (HasIn(c, 3)) {
    ACLSIM_ASSIGN_OR_RETURN(axes, FromInput(c, 3));
    if (axes.v.size() != n) {
      return c.Fail(axes.code, "{} has {} entries but {} has {}", axes.name, axes.v.size(),
                    starts.name, n);
    }
  } else {
    for (size_t i = 0; i < n; ++i) axes.v.push_back(static_cast<int64_t>(i));
  }
  Ints steps;
  if (HasIn(c, 4)) {
    ACLSIM_ASSIGN_OR_RETURN(steps, FromInput(c, 4));
    if (steps.v.size() != n) {
      return c.Fail(steps.code, "{} has {} entries but {} has {}", steps.name, steps.v.size(),
                    starts.name, n);
    }
  } else {
    steps.v.assign(n, 1);
  }
  // The TF masks apply to entry i of begin/end (begin_mask / end_mask: from the start / to
  // the end; shrink_axis_mask: take element begin[i] and drop the axis); the ellipsis and
  // new-axis masks have no meaning with explicit axes.
  for (const char* mask : {"ellipsis_mask", "new_axis_mask"}) {
    if (c.GetInt(mask) != 0) {
      return c.Fail(StatusCode::kOpAttrNotMatch,
                    "attribute '{}' = {} is not supported by StridedSliceV2 (use StridedSlice)",
                    mask, c.GetInt(mask));
    }
  }
  const int64_t begin_mask = c.GetInt("begin_mask");
  const int64_t end_mask = c.GetInt("end_mask");
  const int64_t shrink_mask = c.GetInt("shrink_axis_mask");
  auto bit = [](int64_t mask, size_t i) { return i < 63 && ((mask >> i) & 1) != 0; };
  const auto in_strides = Strides(dims);
  GatherPlan plan;
  for (int64_t d = 0; d < rank; ++d) {
    plan.out_dims.push_back(dims[d]);
    plan.tables.push_back(AxisTable(dims[d], 0, 1, in_strides[d]));
  }
  std::vector<bool> shrunk(static_cast<size_t>(rank), false);
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (size_t i = 0; i < n; ++i) {
    int64_t axis = axes.v[i];
    if (axis < -rank || axis >= rank) {
      return c.Fail(StatusCode::kOpInputNotMatch, "{}[{}] = {} is out of range for rank {}",
                    HasIn(c, 3) ? axes.name : starts.name, i, axis, rank);
    }
    if (axis < 0) axis += rank;
    if (seen[axis]) {
      return c.Fail(StatusCode::kOpInputNotMatch, "{} = {} repeats axis {}", axes.name, Str(axes.v),
                    axis);
    }
    seen[axis] = true;
    const int64_t s = steps.v[i];
    if (s == 0) return c.Fail(StatusCode::kOpInputNotMatch, "{}[{}] is 0", steps.name, i);
    const int64_t dim = dims[axis];
    int64_t b = starts.v[i] < 0 ? starts.v[i] + dim : starts.v[i];
    int64_t e = ends.v[i] < 0 ? ends.v[i] + dim : ends.v[i];
    if (bit(shrink_mask, i)) {
      if (b < 0 || b >= dim) {
        return c.Fail(starts.code,
                      "{}[{}] = {} is out of range for axis {} of size {} (shrink axis)",
                      starts.name, i, starts.v[i], axis, dim);
      }
      shrunk[axis] = true;
      plan.out_dims[axis] = 1;
      plan.tables[axis] = {b * in_strides[axis]};
      continue;
    }
    if (bit(begin_mask, i)) b = s > 0 ? 0 : dim - 1;
    if (bit(end_mask, i)) e = s > 0 ? dim : -1;
    if (s > 0) {
      b = std::clamp<int64_t>(b, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
    } else {
      b = std::clamp<int64_t>(b, 0, std::max<int64_t>(dim - 1, 0));
      e = std::clamp<int64_t>(e, -1, dim - 1);
    }
    const int64_t count = dim == 0 ? 0 : SliceCount(b, e, s);
    plan.out_dims[axis] = count;
    plan.tables[axis] = AxisTable(count, b, s, in_strides[axis]);
  }
  GatherPlan result;
  for (int64_t d = 0; d < rank; ++d) {
    if (shrunk[d]) {
      result.base += plan.tables[d][0];
    } else {
      result.out_dims.push_back(plan.out_dims[d]);
      result.tables.push_back(std::move(plan.tables[d]));
    }
  }
  return result;
}

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
    const int64_t count = dims[d] * m;
    std::vector<int64_t> table(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) table[i] = (i % dims[d]) * strides[d];
    plan.out_dims.push_back(count);
    plan.tables.push_back(std::move(table));
  }
  return plan;
}

// x broadcast to `out` (x's dims aligned right; each is 1 or equal).
GatherPlan BroadcastPlan(std::vector<int64_t> dims, const std::vector<int64_t>& out) {
  dims.insert(dims.begin(), out.size() - dims.size(), 1);
  const auto strides = Strides(dims);
  GatherPlan plan;
  plan.out_dims = out;
  for (size_t d = 0; d < out.size(); ++d) {
    plan.tables.push_back(AxisTable(out[d], 0, dims[d] == 1 ? 0 : 1, strides[d]));
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
  return BroadcastPlan(dims, out.value());
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
    const int64_t count = n + b + e;
    if (count < 0) {
      return c.Fail(paddings.code, "{} ({}, {}) removes more than dimension {} of size {}",
                    paddings.name, b, e, d, n);
    }
    if (mode != PadMode::kConstant && n == 0 && count > 0) {
      return c.Fail(paddings.code, "{}: cannot pad empty dimension {} in edge/reflect mode",
                    paddings.name, d);
    }
    std::vector<int64_t> table(static_cast<size_t>(count));
    for (int64_t o = 0; o < count; ++o) {
      int64_t i = o - b;
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

}  // namespace

void RegisterSliceOps(OpRegistry& registry) {
  const auto all = AllTypes();
  const auto index = IndexTypes();
  const auto masks = std::vector<AttrDef>{
      OptAttr("begin_mask", AttrType::kInt, int64_t{0}),
      OptAttr("end_mask", AttrType::kInt, int64_t{0}),
      OptAttr("ellipsis_mask", AttrType::kInt, int64_t{0}),
      OptAttr("new_axis_mask", AttrType::kInt, int64_t{0}),
      OptAttr("shrink_axis_mask", AttrType::kInt, int64_t{0}),
  };

  registry.Add(GatherOp("Transpose", {In("x", all), In("perm", index)}, {}, {1},
                        [](const auto& c) -> Result<GatherPlan> {
                          ACLSIM_ASSIGN_OR_RETURN(auto perm, FromInput(c, 1));
                          return TransposePlan(c, perm);
                        }));
  registry.Add(GatherOp("TransposeD", {In("x", all)}, {ReqAttr("perm", AttrType::kListInt)}, {},
                        [](const auto& c) { return TransposePlan(c, FromAttr(c, "perm")); }));

  registry.Add(GatherOp("Slice", {In("x", all), In("offsets", index), In("size", index)}, {},
                        {1, 2}, [](const auto& c) -> Result<GatherPlan> {
                          ACLSIM_ASSIGN_OR_RETURN(auto offsets, FromInput(c, 1));
                          ACLSIM_ASSIGN_OR_RETURN(auto size, FromInput(c, 2));
                          return SlicePlan(c, offsets, size);
                        }));
  registry.Add(GatherOp(
      "SliceD", {In("x", all)},
      {ReqAttr("offsets", AttrType::kListInt), ReqAttr("size", AttrType::kListInt)}, {},
      [](const auto& c) { return SlicePlan(c, FromAttr(c, "offsets"), FromAttr(c, "size")); }));

  registry.Add(GatherOp("StridedSlice",
                        {In("x", all), In("begin", index), In("end", index), In("strides", index)},
                        masks, {1, 2, 3}, [](const auto& c) -> Result<GatherPlan> {
                          ACLSIM_ASSIGN_OR_RETURN(auto begin, FromInput(c, 1));
                          ACLSIM_ASSIGN_OR_RETURN(auto end, FromInput(c, 2));
                          ACLSIM_ASSIGN_OR_RETURN(auto strides, FromInput(c, 3));
                          return StridedSlicePlan(c, begin, end, strides);
                        }));
  auto d_attrs =
      std::vector<AttrDef>{ReqAttr("begin", AttrType::kListInt), ReqAttr("end", AttrType::kListInt),
                           ReqAttr("strides", AttrType::kListInt)};
  d_attrs.insert(d_attrs.end(), masks.begin(), masks.end());
  registry.Add(GatherOp("StridedSliceD", {In("x", all)}, d_attrs, {}, [](const auto& c) {
    return StridedSlicePlan(c, FromAttr(c, "begin"), FromAttr(c, "end"), FromAttr(c, "strides"));
  }));
  registry.Add(GatherOp("StridedSliceV2",
                        {In("x", all), In("begin", index), In("end", index), OptIn("axes", index),
                         OptIn("strides", index)},
                        masks, {1, 2, 3, 4}, [](const auto& c) { return StridedSliceV2Plan(c); }));

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

}  // namespace aclsim::ops
