// Slicing and transposition (cann_ops.md 1I): Transpose, Slice, StridedSlice(V2) and their
// D-variants (values as attributes, rule 9), planned as gathers (ops/movement.h). Tiling,
// broadcasting and padding are in pad_ops.cc.
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
    plan.tables.push_back(AxisTableFor(c, dims[p], 0, 1, strides[p]));
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
    if (len < 0 || SaturatingAdd(off, len) > dims[d]) {
      return c.Fail(size.code, "{}[{}] = {} with offset {} exceeds dimension {} of size {}",
                    size.name, d, size.v[d], off, d, dims[d]);
    }
    plan.out_dims.push_back(len);
    plan.tables.push_back(AxisTableFor(c, len, off, 1, strides[d]));
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
  if ((static_cast<uint64_t>(ellipsis_mask) & (static_cast<uint64_t>(ellipsis_mask) - 1)) != 0) {
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
    plan.tables.push_back(AxisTableFor(c, dims[dim], 0, 1, in_strides[dim]));
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
    plan.tables.push_back(AxisTableFor(c, count, b, s, in_strides[d]));
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
    plan.tables.push_back(AxisTableFor(c, dims[d], 0, 1, in_strides[d]));
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
    plan.tables[axis] = AxisTableFor(c, count, b, s, in_strides[axis]);
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

void RegisterSliceAndTranspose(OpRegistry& registry) {
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
}

}  // namespace
}  // namespace movement

void RegisterSliceOps(OpRegistry& registry) { movement::RegisterSliceAndTranspose(registry); }

}  // namespace aclsim::ops
