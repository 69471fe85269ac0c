// Shape and movement aclnn operators: Permute, Slice / SliceV2, Cat, Stack, Split*, Expand,
// Flip, Roll, Repeat, ConstantPadNd, GatherV2, IndexSelect and Arange. Views (Permute, Slice,
// Expand) are free: the result is a view of the input written through the output's view; Cat
// and Stack write each input into its part of the output, Split each part into its output;
// Flip and Roll gather with constant indices; the others are one op-library kernel (TileD,
// PadV3, GatherV2, Range) with the aclnn argument rules around it.
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/nn/builder.h"
#include "core/nn/checks.h"
#include "core/nn/ops.h"
#include "core/nn/promote.h"

namespace aclsim::core::nn {
namespace {
namespace shape_ops {

using DT = ops::DataType;

constexpr size_t kMaxRank = 8;

// A dim in [-rank, rank - 1] made non-negative; kInvalidParam naming `what` otherwise.
Result<size_t> WrapDim(const Builder& b, int64_t dim, size_t rank, const char* what) {
  const auto r = static_cast<int64_t>(std::max<size_t>(rank, 1));
  if (dim < -r || dim >= r) {
    return Err(StatusCode::kInvalidParam, "{}: {} {} is out of range [{}, {}]", b.name(), what, dim,
               -r, r - 1);
  }
  return static_cast<size_t>(dim < 0 ? dim + r : dim);
}

Status RequireRank(const Builder& b, const Value& v, const char* what, size_t min_rank) {
  if (v.rank() >= min_rank && v.rank() <= kMaxRank) return Status::Ok();
  return Err(StatusCode::kInvalidParam, "{}: {} of shape {} has {} dims; {} to {} are supported",
             b.name(), what, ShapeString(v.dims), v.rank(), min_rank, kMaxRank);
}

Status RequireShape(const Builder& b, const Value& out, const std::vector<int64_t>& dims,
                    const char* out_what) {
  if (out.dims == dims) return Status::Ok();
  return Err(StatusCode::kInvalidParam, "{}: {} has shape {} but the result has {}", b.name(),
             out_what, ShapeString(out.dims), ShapeString(dims));
}

Status RequireIndex(const Builder& b, const Value& index) {
  if (index.dtype == DT::kInt32 || index.dtype == DT::kInt64) return Status::Ok();
  return Err(StatusCode::kInvalidParam, "{}: index is {}; it must be int32 or int64", b.name(),
             ops::DataTypeName(index.dtype));
}

// One axis of a slice, after torch's clamping: the first element, the count and the step.
struct SliceAxis {
  int64_t start = 0;
  int64_t length = 0;
  int64_t step = 1;
};

Result<SliceAxis> ClampSlice(const Builder& b, int64_t size, int64_t start, int64_t end,
                             int64_t step, size_t axis) {
  if (step <= 0) {
    return Err(StatusCode::kInvalidParam, "{}: step {} for dim {} must be positive", b.name(), step,
               axis);
  }
  auto clamp = [size](int64_t v) {
    if (v < 0) v = v < -size ? 0 : v + size;  // -size <= v: no overflow
    return std::min(v, size);
  };
  SliceAxis s;
  s.start = clamp(start);
  const int64_t stop = std::max(clamp(end), s.start);
  s.step = step;
  s.length = (stop - s.start) / step + ((stop - s.start) % step != 0 ? 1 : 0);
  return s;
}

// The view of `x` that `axes` select (others whole), written to `z`.
Status StoreSlices(Builder& b, const Value& x, const Value& z,
                   const std::vector<std::pair<size_t, SliceAxis>>& axes) {
  std::vector<int64_t> dims = x.dims;
  std::vector<int64_t> strides = x.strides;
  int64_t offset = 0;
  for (const auto& [axis, s] : axes) {
    dims[axis] = s.length;
    offset += s.start * x.strides[axis];
    // step <= size when more than one element is taken: the product stays inside the buffer.
    if (s.length > 1) strides[axis] = x.strides[axis] * s.step;
  }
  ACLSIM_RETURN_IF_ERROR(RequireShape(b, z, dims, "out"));
  if (z.numel() == 0) return Status::Ok();
  return b.Store(b.View(x, std::move(dims), std::move(strides), offset), z);
}

// a * b for dims, or nullopt when it leaves int64.
std::optional<int64_t> MulDims(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// x gathered along `axis` by the constant int64 indices `index`.
Result<Value> GatherConst(Builder& b, const Value& x, size_t axis,
                          const std::vector<int64_t>& index) {
  std::vector<uint8_t> bytes(index.size() * sizeof(int64_t));
  if (!index.empty()) std::memcpy(bytes.data(), index.data(), bytes.size());
  const Value idx = b.ConstantBytes(std::move(bytes), ops::DataType::kInt64,
                                    {static_cast<int64_t>(index.size())});
  return b.Op1("GatherV2", {x, idx}, {}, {{2, {static_cast<int64_t>(axis)}}});
}

}  // namespace shape_ops
}  // namespace

using shape_ops::DT;

Result<ExecutorPtr> Permute(const char* name, const NnTensor* self,
                            const std::vector<int64_t>& dims, const NnTensor* out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_RETURN_IF_ERROR(shape_ops::RequireRank(b, x, "self", 0));
  ACLSIM_RETURN_IF_ERROR(checks::RequireSameDtype(b, x, z, "self", "out"));
  if (dims.size() != x.rank()) {
    return Err(StatusCode::kInvalidParam, "{}: dims has {} values but self of shape {} has {} dims",
               b.name(), dims.size(), ShapeString(x.dims), x.rank());
  }
  std::vector<int64_t> pdims;
  std::vector<int64_t> pstrides;
  std::vector<bool> seen(x.rank(), false);
  for (int64_t d : dims) {
    ACLSIM_ASSIGN_OR_RETURN(size_t axis, shape_ops::WrapDim(b, d, x.rank(), "dim"));
    if (seen[axis]) {
      return Err(StatusCode::kInvalidParam, "{}: dims [{}] name dim {} twice", b.name(),
                 fmt::join(dims, ", "), axis);
    }
    seen[axis] = true;
    pdims.push_back(x.dims[axis]);
    pstrides.push_back(x.strides[axis]);
  }
  ACLSIM_RETURN_IF_ERROR(shape_ops::RequireShape(b, z, pdims, "out"));
  if (z.numel() == 0) return b.Finish();
  ACLSIM_RETURN_IF_ERROR(b.Store(b.View(x, std::move(pdims), std::move(pstrides), 0), z));
  return b.Finish();
}

Result<ExecutorPtr> Slice(const char* name, const NnTensor* self,
                          const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                          const std::vector<int64_t>& axes, const std::vector<int64_t>& steps,
                          const NnTensor* out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_RETURN_IF_ERROR(shape_ops::RequireRank(b, x, "self", 1));
  ACLSIM_RETURN_IF_ERROR(checks::RequireSameDtype(b, x, z, "self", "out"));
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      (!steps.empty() && steps.size() != starts.size())) {
    return Err(StatusCode::kInvalidParam,
               "{}: starts, ends, axes and steps have {}, {}, {} and {} values; they must agree",
               b.name(), starts.size(), ends.size(), axes.size(), steps.size());
  }
  std::vector<std::pair<size_t, shape_ops::SliceAxis>> sliced;
  std::vector<bool> seen(x.rank(), false);
  for (size_t i = 0; i < starts.size(); ++i) {
    ACLSIM_ASSIGN_OR_RETURN(size_t axis, shape_ops::WrapDim(b, axes[i], x.rank(), "dim"));
    if (seen[axis]) {
      return Err(StatusCode::kInvalidParam, "{}: dim {} is sliced twice", b.name(), axis);
    }
    seen[axis] = true;
    ACLSIM_ASSIGN_OR_RETURN(auto s, shape_ops::ClampSlice(b, x.dims[axis], starts[i], ends[i],
                                                          steps.empty() ? 1 : steps[i], axis));
    sliced.emplace_back(axis, s);
  }
  ACLSIM_RETURN_IF_ERROR(shape_ops::StoreSlices(b, x, z, sliced));
  return b.Finish();
}

Result<ExecutorPtr> Cat(const char* name, const std::vector<const NnTensor*>& tensors, int64_t dim,
                        const NnTensor* out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(std::vector<Value> xs, b.InputList(tensors, 0, "tensors"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (xs.empty()) return Err(StatusCode::kInvalidParam, "{}: tensors is empty", b.name());
  // As torch.cat: 1-D empty tensors (legacy placeholders) take no part in the shapes.
  auto skipped = [](const Value& v) { return v.rank() == 1 && v.dims[0] == 0; };
  const Value* first = &xs[0];
  for (const Value& v : xs) {
    if (!skipped(v)) {
      first = &v;
      break;
    }
  }
  ACLSIM_RETURN_IF_ERROR(shape_ops::RequireRank(b, *first, "tensors[0]", 1));
  ACLSIM_ASSIGN_OR_RETURN(size_t axis, shape_ops::WrapDim(b, dim, first->rank(), "dim"));
  DT dtype = xs[0].dtype;
  std::vector<int64_t> dims = first->dims;
  dims[axis] = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const Value& v = xs[i];
    if (i > 0) {
      auto promoted = Promote(dtype, v.dtype);
      if (!promoted) {
        return Err(StatusCode::kInvalidParam,
                   "{}: tensors[{}] is {}, which does not promote with {}", b.name(), i,
                   ops::DataTypeName(v.dtype), ops::DataTypeName(dtype));
      }
      dtype = *promoted;
    }
    if (skipped(v)) continue;
    bool match = v.rank() == first->rank();
    for (size_t d = 0; match && d < v.rank(); ++d) match = d == axis || v.dims[d] == first->dims[d];
    if (!match) {
      return Err(StatusCode::kInvalidParam,
                 "{}: tensors[{}] of shape {} does not match {} outside dim {}", b.name(), i,
                 ShapeString(v.dims), ShapeString(first->dims), axis);
    }
    if (__builtin_add_overflow(dims[axis], v.dims[axis], &dims[axis])) {
      return Err(StatusCode::kInvalidParam, "{}: the sizes along dim {} overflow", b.name(), axis);
    }
  }
  if (!CanCastTo(dtype, z.dtype)) {
    return Err(StatusCode::kInvalidParam, "{}: the result is {}, which cannot be cast to out's {}",
               b.name(), ops::DataTypeName(dtype), ops::DataTypeName(z.dtype));
  }
  ACLSIM_RETURN_IF_ERROR(shape_ops::RequireShape(b, z, dims, "out"));
  if (z.numel() == 0) return b.Finish();
  int64_t at = 0;
  for (const Value& v : xs) {
    if (skipped(v) || v.numel() == 0) {
      if (!skipped(v)) at += v.dims[axis];
      continue;
    }
    ACLSIM_ASSIGN_OR_RETURN(Value cast, b.Cast(v, dtype));
    const Value part = b.View(z, v.dims, z.strides, at * z.strides[axis]);
    ACLSIM_RETURN_IF_ERROR(b.Store(cast, part));
    at += v.dims[axis];
  }
  return b.Finish();
}

Result<ExecutorPtr> Stack(const char* name, const std::vector<const NnTensor*>& tensors,
                          int64_t dim, const NnTensor* out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(std::vector<Value> xs, b.InputList(tensors, 0, "tensors"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (xs.empty()) return Err(StatusCode::kInvalidParam, "{}: tensors is empty", b.name());
  const std::vector<int64_t>& shape = xs[0].dims;
  if (shape.size() + 1 > shape_ops::kMaxRank) {
    return Err(StatusCode::kInvalidParam, "{}: tensors of {} dims stack to more than {}", b.name(),
               shape.size(), shape_ops::kMaxRank);
  }
  ACLSIM_ASSIGN_OR_RETURN(size_t axis, shape_ops::WrapDim(b, dim, shape.size() + 1, "dim"));
  DT dtype = xs[0].dtype;
  for (size_t i = 1; i < xs.size(); ++i) {
    if (xs[i].dims != shape) {
      return Err(StatusCode::kInvalidParam, "{}: tensors[{}] has shape {} but tensors[0] has {}",
                 b.name(), i, ShapeString(xs[i].dims), ShapeString(shape));
    }
    auto promoted = Promote(dtype, xs[i].dtype);
    if (!promoted) {
      return Err(StatusCode::kInvalidParam, "{}: tensors[{}] is {}, which does not promote with {}",
                 b.name(), i, ops::DataTypeName(xs[i].dtype), ops::DataTypeName(dtype));
    }
    dtype = *promoted;
  }
  if (!CanCastTo(dtype, z.dtype)) {
    return Err(StatusCode::kInvalidParam, "{}: the result is {}, which cannot be cast to out's {}",
               b.name(), ops::DataTypeName(dtype), ops::DataTypeName(z.dtype));
  }
  std::vector<int64_t> dims = shape;
  dims.insert(dims.begin() + static_cast<long>(axis), static_cast<int64_t>(xs.size()));
  ACLSIM_RETURN_IF_ERROR(shape_ops::RequireShape(b, z, dims, "out"));
  if (z.numel() == 0) return b.Finish();
  // Tensor i goes to out.select(dim, i).
  std::vector<int64_t> strides = z.strides;
  strides.erase(strides.begin() + static_cast<long>(axis));
  for (size_t i = 0; i < xs.size(); ++i) {
    ACLSIM_ASSIGN_OR_RETURN(Value cast, b.Cast(xs[i], dtype));
    const Value part = b.View(z, shape, strides, static_cast<int64_t>(i) * z.strides[axis]);
    ACLSIM_RETURN_IF_ERROR(b.Store(cast, part));
  }
  return b.Finish();
}

Result<ExecutorPtr> Split(const char* name, const NnTensor* self, const SplitSizes& sizes,
                          int64_t dim, const std::vector<const NnTensor*>& outs) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(std::vector<Value> zs, b.OutputList(outs, 3, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_RETURN_IF_ERROR(shape_ops::RequireRank(b, x, "self", 1));
  ACLSIM_ASSIGN_OR_RETURN(size_t axis, shape_ops::WrapDim(b, dim, x.rank(), "dim"));
  const int64_t length = x.dims[axis];
  std::vector<int64_t> parts = sizes.sizes;
  if (sizes.sections) {  // chunks of `section`, the last one smaller (torch.split)
    const int64_t section = sizes.section;
    if (section <= 0 && length > 0) {
      return Err(StatusCode::kInvalidParam, "{}: splitSections is {}; it must be positive",
                 b.name(), section);
    }
    parts.clear();
    for (int64_t at = 0; at < length; at += section)
      parts.push_back(std::min(section, length - at));
    if (length == 0) parts.push_back(0);
  }
  int64_t total = 0;
  for (int64_t p : parts) {
    if (p < 0) {
      return Err(StatusCode::kInvalidParam, "{}: splitSize {} holds a negative size", b.name(),
                 ShapeString(parts));
    }
    total += p;
  }
  if (total != length) {
    return Err(StatusCode::kInvalidParam,
               "{}: the sizes {} add up to {}, not self's {} along dim {}", b.name(),
               ShapeString(parts), total, length, axis);
  }
  if (parts.size() != zs.size()) {
    return Err(StatusCode::kInvalidParam, "{}: the split gives {} tensors but out holds {}",
               b.name(), parts.size(), zs.size());
  }
  int64_t at = 0;
  for (size_t i = 0; i < zs.size(); ++i) {
    std::vector<int64_t> dims = x.dims;
    dims[axis] = parts[i];
    const std::string what = fmt::format("out[{}]", i);
    ACLSIM_RETURN_IF_ERROR(shape_ops::RequireShape(b, zs[i], dims, what.c_str()));
    if (!CanCastTo(x.dtype, zs[i].dtype)) {
      return Err(StatusCode::kInvalidParam, "{}: self is {}, which cannot be cast to {}'s {}",
                 b.name(), ops::DataTypeName(x.dtype), what, ops::DataTypeName(zs[i].dtype));
    }
    if (zs[i].numel() > 0) {
      const Value part = b.View(x, dims, x.strides, at * x.strides[axis]);
      ACLSIM_RETURN_IF_ERROR(b.Store(part, zs[i]));
    }
    at += parts[i];
  }
  return b.Finish();
}

Result<ExecutorPtr> Flip(const char* name, const NnTensor* self, const std::vector<int64_t>& dims,
                         const NnTensor* out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_RETURN_IF_ERROR(shape_ops::RequireRank(b, x, "self", 1));
  ACLSIM_RETURN_IF_ERROR(checks::RequireSameDtype(b, x, z, "self", "out"));
  ACLSIM_RETURN_IF_ERROR(shape_ops::RequireShape(b, z, x.dims, "out"));
  std::vector<bool> seen(x.rank(), false);
  std::vector<size_t> axes;
  for (int64_t d : dims) {
    ACLSIM_ASSIGN_OR_RETURN(size_t axis, shape_ops::WrapDim(b, d, x.rank(), "dims"));
    if (seen[axis]) {
      return Err(StatusCode::kInvalidParam, "{}: dims {} names dim {} twice", b.name(),
                 ShapeString(dims), axis);
    }
    seen[axis] = true;
    axes.push_back(axis);
  }
  if (z.numel() == 0) return b.Finish();
  Value v = x;
  for (size_t axis : axes) {
    std::vector<int64_t> index(static_cast<size_t>(x.dims[axis]));
    for (size_t j = 0; j < index.size(); ++j) index[j] = x.dims[axis] - 1 - static_cast<int64_t>(j);
    ACLSIM_ASSIGN_OR_RETURN(v, shape_ops::GatherConst(b, v, axis, index));
  }
  ACLSIM_RETURN_IF_ERROR(b.Store(v, z));
  return b.Finish();
}

Result<ExecutorPtr> Roll(const char* name, const NnTensor* self, const std::vector<int64_t>& shifts,
                         const std::vector<int64_t>& dims, const NnTensor* out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "x"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_RETURN_IF_ERROR(checks::RequireSameDtype(b, x, z, "x", "out"));
  ACLSIM_RETURN_IF_ERROR(shape_ops::RequireShape(b, z, x.dims, "out"));
  const bool flat = dims.empty();
  if ((flat && shifts.size() != 1) || (!flat && shifts.size() != dims.size())) {
    return Err(StatusCode::kInvalidParam,
               "{}: shifts {} and dims {} must have one length (or dims none and one shift)",
               b.name(), ShapeString(shifts), ShapeString(dims));
  }
  if (z.numel() == 0) return b.Finish();
  // Element j of a rolled dim of n comes from (j - shift) mod n.
  auto rotate = [](int64_t n, int64_t shift) {
    const int64_t s = ((shift % n) + n) % n;
    std::vector<int64_t> index(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) index[static_cast<size_t>(j)] = (j - s + n) % n;
    return index;
  };
  Value v = x;
  if (flat) {
    ACLSIM_ASSIGN_OR_RETURN(v, b.Contiguous(x));
    ACLSIM_ASSIGN_OR_RETURN(v, b.Reshape(v, {x.numel()}));
    ACLSIM_ASSIGN_OR_RETURN(v, shape_ops::GatherConst(b, v, 0, rotate(x.numel(), shifts[0])));
    ACLSIM_ASSIGN_OR_RETURN(v, b.Reshape(v, x.dims));
  }
  for (size_t k = 0; k < dims.size(); ++k) {
    ACLSIM_ASSIGN_OR_RETURN(size_t axis, shape_ops::WrapDim(b, dims[k], x.rank(), "dims"));
    ACLSIM_ASSIGN_OR_RETURN(v, shape_ops::GatherConst(b, v, axis, rotate(x.dims[axis], shifts[k])));
  }
  ACLSIM_RETURN_IF_ERROR(b.Store(v, z));
  return b.Finish();
}

Result<ExecutorPtr> Expand(const char* name, const NnTensor* self, const std::vector<int64_t>& size,
                           const NnTensor* out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_RETURN_IF_ERROR(checks::RequireSameDtype(b, x, z, "self", "out"));
  if (size.size() < x.rank() || size.size() > shape_ops::kMaxRank) {
    return Err(StatusCode::kInvalidParam, "{}: size {} must have {} to {} values for self {}",
               b.name(), ShapeString(size), x.rank(), shape_ops::kMaxRank, ShapeString(x.dims));
  }
  // torch.expand: new leading dims; -1 keeps a dim; a dim of 1 repeats (stride 0).
  const size_t lead = size.size() - x.rank();
  std::vector<int64_t> dims(size.size());
  std::vector<int64_t> strides(size.size(), 0);
  for (size_t k = 0; k < size.size(); ++k) {
    if (k < lead) {
      if (size[k] < 0) {
        return Err(StatusCode::kInvalidParam, "{}: size {} has {} for a new dim", b.name(),
                   ShapeString(size), size[k]);
      }
      dims[k] = size[k];
      continue;
    }
    const int64_t have = x.dims[k - lead];
    const int64_t want = size[k] == -1 ? have : size[k];
    if (want != have && have != 1) {
      return Err(StatusCode::kInvalidParam, "{}: self {} cannot be expanded to {} (dim {})",
                 b.name(), ShapeString(x.dims), ShapeString(size), k);
    }
    dims[k] = want;
    strides[k] = want == have ? x.strides[k - lead] : 0;
  }
  ACLSIM_RETURN_IF_ERROR(shape_ops::RequireShape(b, z, dims, "out"));
  if (z.numel() == 0) return b.Finish();
  ACLSIM_RETURN_IF_ERROR(b.Store(b.View(x, dims, strides, 0), z));
  return b.Finish();
}

Result<ExecutorPtr> Repeat(const char* name, const NnTensor* self,
                           const std::vector<int64_t>& repeats, const NnTensor* out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_RETURN_IF_ERROR(checks::RequireSameDtype(b, x, z, "self", "out"));
  if (repeats.size() < x.rank() || repeats.size() > shape_ops::kMaxRank) {
    return Err(StatusCode::kInvalidParam,
               "{}: repeats has {} values; it needs {} to {} for self of shape {}", b.name(),
               repeats.size(), x.rank(), shape_ops::kMaxRank, ShapeString(x.dims));
  }
  std::vector<int64_t> padded(repeats.size() - x.rank(), 1);
  padded.insert(padded.end(), x.dims.begin(), x.dims.end());
  std::vector<int64_t> dims;
  for (size_t d = 0; d < repeats.size(); ++d) {
    if (repeats[d] < 0) {
      return Err(StatusCode::kInvalidParam, "{}: repeats[{}] is {}; it must not be negative",
                 b.name(), d, repeats[d]);
    }
    auto n = shape_ops::MulDims(padded[d], repeats[d]);
    if (!n) {
      return Err(StatusCode::kInvalidParam, "{}: dim {} of size {} repeated {} times overflows",
                 b.name(), d, padded[d], repeats[d]);
    }
    dims.push_back(*n);
  }
  ACLSIM_RETURN_IF_ERROR(shape_ops::RequireShape(b, z, dims, "out"));
  if (z.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(Value xc, b.Contiguous(x));
  ACLSIM_ASSIGN_OR_RETURN(Value xr, b.Reshape(xc, padded));
  ACLSIM_ASSIGN_OR_RETURN(Value tiled, b.Op1("TileD", {xr}, {{"multiples", repeats}}));
  ACLSIM_RETURN_IF_ERROR(b.Store(tiled, z));
  return b.Finish();
}

Result<ExecutorPtr> RepeatInterleave(const char* name, const NnTensor* self, int64_t repeats,
                                     std::optional<int64_t> dim, const NnTensor* out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_RETURN_IF_ERROR(shape_ops::RequireRank(b, x, "self", 0));
  ACLSIM_RETURN_IF_ERROR(checks::RequireSameDtype(b, x, z, "self", "out"));
  if (repeats < 0) {
    return Err(StatusCode::kInvalidParam, "{}: repeats is {}; it must not be negative", b.name(),
               repeats);
  }
  // Without dim, self is flattened first (torch.repeat_interleave).
  Value src = x;
  size_t axis = 0;
  if (dim) {
    ACLSIM_ASSIGN_OR_RETURN(axis, shape_ops::WrapDim(b, *dim, x.rank(), "dim"));
    if (x.rank() == 0) {
      src = b.View(x, {1}, {1}, 0);
    }
  } else {
    ACLSIM_ASSIGN_OR_RETURN(Value xc, b.Contiguous(x));
    ACLSIM_ASSIGN_OR_RETURN(src, b.Reshape(xc, {x.numel()}));
  }
  auto n = shape_ops::MulDims(src.dims[axis], repeats);
  if (!n) {
    return Err(StatusCode::kInvalidParam, "{}: dim {} of size {} repeated {} times overflows",
               b.name(), axis, src.dims[axis], repeats);
  }
  std::vector<int64_t> dims = src.dims;
  dims[axis] = *n;
  ACLSIM_RETURN_IF_ERROR(shape_ops::RequireShape(b, z, dims, "out"));
  if (z.numel() == 0) return b.Finish();
  // Each element along axis seen `repeats` times: a zero-stride dim after it, then merged.
  std::vector<int64_t> wide = src.dims;
  std::vector<int64_t> strides = src.strides;
  wide.insert(wide.begin() + static_cast<long>(axis) + 1, repeats);
  strides.insert(strides.begin() + static_cast<long>(axis) + 1, 0);
  ACLSIM_ASSIGN_OR_RETURN(Value copied, b.Contiguous(b.View(src, wide, strides, 0)));
  ACLSIM_ASSIGN_OR_RETURN(Value merged, b.Reshape(copied, dims));
  ACLSIM_RETURN_IF_ERROR(b.Store(merged, z));
  return b.Finish();
}

Result<ExecutorPtr> ConstantPad(const char* name, const NnTensor* self,
                                const std::vector<int64_t>& pad, const NnScalar* value,
                                const NnTensor* out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (value == nullptr) return Err(StatusCode::kNullPointer, "{}: value is NULL", b.name());
  ACLSIM_RETURN_IF_ERROR(shape_ops::RequireRank(b, x, "self", 0));
  ACLSIM_RETURN_IF_ERROR(checks::RequireSameDtype(b, x, z, "self", "out"));
  if (pad.size() % 2 != 0 || pad.size() > 2 * x.rank()) {
    return Err(StatusCode::kInvalidParam,
               "{}: pad has {} values; it needs an even count of at most {} for self of shape {}",
               b.name(), pad.size(), 2 * x.rank(), ShapeString(x.dims));
  }
  // torch's order: the last dim's (begin, end) first; the op library's: dim 0's first.
  std::vector<int64_t> pairs(2 * x.rank(), 0);
  std::vector<int64_t> dims = x.dims;
  for (size_t k = 0; k < pad.size() / 2; ++k) {
    const size_t d = x.rank() - 1 - k;
    pairs[2 * d] = pad[2 * k];
    pairs[2 * d + 1] = pad[2 * k + 1];
    int64_t n = 0;
    if (__builtin_add_overflow(x.dims[d], pad[2 * k], &n) ||
        __builtin_add_overflow(n, pad[2 * k + 1], &n) || n < 0) {
      return Err(StatusCode::kInvalidParam,
                 "{}: dim {} of size {} padded by ({}, {}) gives a negative or overflowing size",
                 b.name(), d, x.dims[d], pad[2 * k], pad[2 * k + 1]);
    }
    dims[d] = n;
  }
  ACLSIM_RETURN_IF_ERROR(shape_ops::RequireShape(b, z, dims, "out"));
  if (z.numel() == 0) return b.Finish();
  if (x.numel() == 0) {
    // Nothing of self survives: the output is all `value`.
    ACLSIM_ASSIGN_OR_RETURN(
        Value filled, b.Op1("Fill", {b.Constant(value->ToDouble(), z.dtype)}, {}, {{0, dims}}));
    ACLSIM_RETURN_IF_ERROR(b.Store(filled, z));
    return b.Finish();
  }
  ACLSIM_ASSIGN_OR_RETURN(
      Value padded,
      b.Op1("PadV3", {x, b.Constant(value->ToDouble(), x.dtype)},
            {{"mode", std::string("constant")}, {"paddings_contiguous", true}}, {{1, pairs}}));
  ACLSIM_RETURN_IF_ERROR(b.Store(padded, z));
  return b.Finish();
}

Result<ExecutorPtr> Gather(const char* name, GatherKind kind, const NnTensor* self, int64_t dim,
                           const NnTensor* index, const NnTensor* out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value idx, b.Input(index, "index"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  const bool select = kind == GatherKind::kIndexSelect;
  ACLSIM_RETURN_IF_ERROR(shape_ops::RequireRank(b, x, "self", select ? 0 : 1));
  ACLSIM_RETURN_IF_ERROR(shape_ops::RequireIndex(b, idx));
  ACLSIM_RETURN_IF_ERROR(checks::RequireSameDtype(b, x, z, "self", "out"));
  if (select && idx.rank() > 1) {
    return Err(StatusCode::kInvalidParam, "{}: index of shape {} must be 0-D or 1-D", b.name(),
               ShapeString(idx.dims));
  }
  ACLSIM_ASSIGN_OR_RETURN(size_t axis, shape_ops::WrapDim(b, dim, x.rank(), "dim"));
  // IndexSelect: a 0-D self is one element; a 0-D index, one index.
  const std::vector<int64_t> xdims = x.rank() == 0 ? std::vector<int64_t>{1} : x.dims;
  const std::vector<int64_t> idims = select ? std::vector<int64_t>{idx.numel()} : idx.dims;
  std::vector<int64_t> dims(xdims.begin(), xdims.begin() + static_cast<long>(axis));
  dims.insert(dims.end(), idims.begin(), idims.end());
  dims.insert(dims.end(), xdims.begin() + static_cast<long>(axis) + 1, xdims.end());
  if (x.rank() == 0) dims = {};
  if (dims.size() > shape_ops::kMaxRank) {
    return Err(StatusCode::kInvalidParam, "{}: the result has {} dims; at most {} are supported",
               b.name(), dims.size(), shape_ops::kMaxRank);
  }
  ACLSIM_RETURN_IF_ERROR(shape_ops::RequireShape(b, z, dims, "out"));
  if (z.numel() == 0) return b.Finish();
  if (x.numel() == 0) {
    return Err(StatusCode::kInvalidParam, "{}: index selects from dim {} of size 0", b.name(),
               axis);
  }
  ACLSIM_ASSIGN_OR_RETURN(Value xc, b.Contiguous(x));
  ACLSIM_ASSIGN_OR_RETURN(Value xr, b.Reshape(xc, xdims));
  ACLSIM_ASSIGN_OR_RETURN(Value ic, b.Contiguous(idx));
  ACLSIM_ASSIGN_OR_RETURN(Value ir, b.Reshape(ic, idims));
  ACLSIM_ASSIGN_OR_RETURN(Value gathered,
                          b.Op1("GatherV2", {xr, ir}, {}, {{2, {static_cast<int64_t>(axis)}}}));
  ACLSIM_ASSIGN_OR_RETURN(Value shaped, b.Reshape(gathered, dims));
  ACLSIM_RETURN_IF_ERROR(b.Store(shaped, z));
  return b.Finish();
}

Result<ExecutorPtr> Arange(const char* name, const NnScalar* start, const NnScalar* end,
                           const NnScalar* step, const NnTensor* out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  for (const auto& [s, what] :
       {std::pair{start, "start"}, std::pair{end, "end"}, std::pair{step, "step"}}) {
    if (s == nullptr) return Err(StatusCode::kNullPointer, "{}: {} is NULL", b.name(), what);
  }
  const DT dt = z.dtype;
  if (dt != DT::kFloat16 && dt != DT::kFloat && dt != DT::kDouble && dt != DT::kInt32 &&
      dt != DT::kInt64 && dt != DT::kBf16) {
    return Err(StatusCode::kInvalidParam,
               "{}: out is {}; it must be float16, float32, float64, int32, int64 or bfloat16",
               b.name(), ops::DataTypeName(dt));
  }
  // Integers are counted exactly; anything else in double, as torch.arange does.
  const bool exact = !start->is_float && !end->is_float && !step->is_float;
  const DT compute = exact ? DT::kInt64 : DT::kDouble;
  const double s0 = start->ToDouble();
  const double s1 = end->ToDouble();
  const double ds = step->ToDouble();
  if (ds == 0 || !std::isfinite(s0) || !std::isfinite(s1) || !std::isfinite(ds)) {
    return Err(StatusCode::kInvalidParam,
               "{}: start {}, end {}, step {}: step must be non-zero and all finite", b.name(), s0,
               s1, ds);
  }
  if ((s1 - s0) * ds < 0) {
    return Err(StatusCode::kInvalidParam,
               "{}: step {} goes away from end {} (start {}): the signs must agree", b.name(), ds,
               s1, s0);
  }
  if (z.rank() != 1) {
    return Err(StatusCode::kInvalidParam, "{}: out of shape {} must be 1-D", b.name(),
               ShapeString(z.dims));
  }
  auto constant = [&](const NnScalar* s) {
    Value c = b.Constant(s->ToDouble(), compute);
    if (exact) {  // every int64 exactly, not through a double
      const auto* bytes = reinterpret_cast<const uint8_t*>(&s->i);
      c.bytes = std::make_shared<const std::vector<uint8_t>>(bytes, bytes + sizeof(int64_t));
    }
    return c;
  };
  ACLSIM_ASSIGN_OR_RETURN(Value range,
                          b.Op1("Range", {constant(start), constant(end), constant(step)}));
  if (range.dims != z.dims) {
    return Err(StatusCode::kInvalidParam, "{}: out has shape {} but the range has {} values",
               b.name(), ShapeString(z.dims), range.numel());
  }
  if (z.numel() == 0) return b.Finish();
  ACLSIM_RETURN_IF_ERROR(b.Store(range, z));
  return b.Finish();
}

}  // namespace aclsim::core::nn
