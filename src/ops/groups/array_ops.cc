// Shape / array ops (cann_ops.md 1I): the reshape family (copies), Concat / Split / Pack /
// Unpack in their input and D-variant forms (rule 9), Fill, Range, Shape and Size.
// Slicing, transposition, tiling, broadcasting and padding are in slice_ops.cc.
//
// Data movement is by element size (memcpy), so every dtype works, bool and int64 included.
//
// Thread-safety: pure functions over the tensors of one call.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "ops/op_group.h"
#include "ops/value_args.h"

namespace aclsim::ops {

namespace {

// --- access to either context --------------------------------------------------------------

// One axis from a one-element value, normalised against [-bound, bound).
template <typename Ctx>
Result<int64_t> OneAxis(const Ctx& c, const Ints& axis, int64_t bound) {
  if (axis.v.size() != 1) {
    return c.Fail(axis.code, "{} = {} must hold exactly one axis", axis.name, Str(axis.v));
  }
  const int64_t a = axis.v[0];
  if (a < -bound || a >= bound) {
    return c.Fail(axis.code, "{} = {} is out of range [{}, {})", axis.name, a, -bound, bound);
  }
  return a < 0 ? a + bound : a;
}

size_t ElemSize(const Tensor& t) { return DataTypeSize(t.dtype); }

void CopyBytes(void* dst, const void* src, size_t bytes) {
  if (bytes != 0 && dst != src) std::memmove(dst, src, bytes);
}

// --- reshape family: y = x with other dims ---------------------------------------------------

Status RunCopy(RunContext& ctx) {
  const Tensor& x = ctx.in(0);
  Tensor& y = ctx.out(0);
  const size_t bytes = static_cast<size_t>(y.numel()) * ElemSize(y);
  CopyBytes(y.data, x.data, std::min(bytes, static_cast<size_t>(x.numel()) * ElemSize(x)));
  return Status::Ok();
}

OpDef CopyOp(std::string type, std::vector<ArgDef> inputs, std::vector<AttrDef> attrs,
             std::vector<size_t> value_inputs, InferFn infer) {
  OpDef def;
  def.type = std::move(type);
  def.inputs = std::move(inputs);
  def.outputs = {Out("y", AllTypes())};
  def.attrs = std::move(attrs);
  def.value_inputs = std::move(value_inputs);
  def.infer = std::move(infer);
  def.run = RunCopy;
  return def;
}

Status InferReshape(OpContext& ctx) {
  const auto& in = ctx.input(0).dims;
  const int64_t rank = static_cast<int64_t>(in.size());
  ACLSIM_ASSIGN_OR_RETURN(auto shape, ctx.InputInts(1));
  int64_t axis = ctx.GetInt("axis");
  const int64_t num_axes = ctx.GetInt("num_axes");
  const bool allow_zero = ctx.GetInt("allowzero") != 0;
  if (axis < 0) axis += rank + 1;
  if (axis < 0 || axis > rank) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch,
                    "attribute 'axis' = {} is out of range for rank {}", ctx.GetInt("axis"), rank);
  }
  const int64_t end = num_axes == -1 ? rank : axis + num_axes;
  if (num_axes < -1 || end > rank) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch,
                    "attribute 'num_axes' = {} with axis {} is out of range for rank {}", num_axes,
                    axis, rank);
  }
  std::vector<int64_t> dims;
  int64_t infer_at = -1;
  int64_t known = 1;
  for (size_t j = 0; j < shape.size(); ++j) {
    int64_t v = shape[j];
    if (v == 0 && !allow_zero) {  // copy the input dimension at the same position
      if (axis + static_cast<int64_t>(j) >= rank) {
        return ctx.Fail(StatusCode::kOpInputNotMatch,
                        "{} = {}: entry {} is 0 but x has no dimension {} to copy",
                        ctx.InputName(1), Str(shape), j, axis + j);
      }
      v = in[axis + j];
    } else if (v == -1) {
      if (infer_at >= 0) {
        return ctx.Fail(StatusCode::kOpInputNotMatch, "{} = {} has more than one -1",
                        ctx.InputName(1), Str(shape));
      }
      infer_at = static_cast<int64_t>(j);
      dims.push_back(-1);
      continue;
    } else if (v < 0) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} = {} has a negative dimension {}",
                      ctx.InputName(1), Str(shape), v);
    }
    if (__builtin_mul_overflow(known, v, &known)) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} = {} has more elements than int64 holds",
                      ctx.InputName(1), Str(shape));
    }
    dims.push_back(v);
  }
  const int64_t total = Product(in, static_cast<size_t>(axis), static_cast<size_t>(end));
  if (infer_at >= 0) {
    if (known == 0 ? total != 0 : total % known != 0) {
      return ctx.Fail(StatusCode::kOpInputNotMatch,
                      "{} = {}: {} elements of x (shape {}) cannot be reshaped to it",
                      ctx.InputName(1), Str(shape), total, Str(in));
    }
    dims[infer_at] = known == 0 ? 0 : total / known;
  } else if (known != total) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} = {} has {} elements but x (shape {}) has {}",
                    ctx.InputName(1), Str(shape), known, Str(in), total);
  }
  std::vector<int64_t> out(in.begin(), in.begin() + axis);
  out.insert(out.end(), dims.begin(), dims.end());
  out.insert(out.end(), in.begin() + end, in.end());
  ctx.SetOutput(0, ctx.input(0).dtype, std::move(out));
  return Status::Ok();
}

// Squeeze: drop the listed size-1 dims, or all of them for an empty list.
Status InferSqueezeWith(OpContext& ctx, const Ints& axes) {
  const auto& in = ctx.input(0).dims;
  const int64_t rank = static_cast<int64_t>(in.size());
  std::vector<bool> drop(in.size(), false);
  if (axes.v.empty()) {
    for (size_t d = 0; d < in.size(); ++d) drop[d] = in[d] == 1;
  }
  for (int64_t a : axes.v) {
    if (a < -rank || a >= rank) {
      return ctx.Fail(axes.code, "{} = {}: axis {} is out of range for rank {}", axes.name,
                      Str(axes.v), a, rank);
    }
    const int64_t d = a < 0 ? a + rank : a;
    if (in[d] != 1) {
      return ctx.Fail(axes.code, "{} = {}: dimension {} of x (shape {}) is {}, not 1", axes.name,
                      Str(axes.v), d, Str(in), in[d]);
    }
    drop[d] = true;
  }
  std::vector<int64_t> out;
  for (size_t d = 0; d < in.size(); ++d) {
    if (!drop[d]) out.push_back(in[d]);
  }
  ctx.SetOutput(0, ctx.input(0).dtype, std::move(out));
  return Status::Ok();
}

// Unsqueeze: insert size-1 dims at the listed positions of the output.
Status InferUnsqueezeWith(OpContext& ctx, const Ints& axes) {
  const auto& in = ctx.input(0).dims;
  const int64_t out_rank = static_cast<int64_t>(in.size() + axes.v.size());
  std::vector<bool> inserted(static_cast<size_t>(out_rank), false);
  for (int64_t a : axes.v) {
    if (a < -out_rank || a >= out_rank) {
      return ctx.Fail(axes.code, "{} = {}: axis {} is out of range for output rank {}", axes.name,
                      Str(axes.v), a, out_rank);
    }
    const int64_t d = a < 0 ? a + out_rank : a;
    if (inserted[d]) {
      return ctx.Fail(axes.code, "{} = {} repeats axis {}", axes.name, Str(axes.v), d);
    }
    inserted[d] = true;
  }
  std::vector<int64_t> out;
  size_t next = 0;
  for (int64_t d = 0; d < out_rank; ++d) out.push_back(inserted[d] ? 1 : in[next++]);
  ctx.SetOutput(0, ctx.input(0).dtype, std::move(out));
  return Status::Ok();
}

Status InferFlatten(OpContext& ctx) {
  const auto& in = ctx.input(0).dims;
  const int64_t rank = static_cast<int64_t>(in.size());
  int64_t axis = ctx.GetInt("axis");
  if (axis < -rank || axis > rank) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch,
                    "attribute 'axis' = {} is out of range [{}, {}] for x of shape {}", axis, -rank,
                    rank, Str(in));
  }
  if (axis < 0) axis += rank;
  ctx.SetOutput(
      0, ctx.input(0).dtype,
      {Product(in, 0, static_cast<size_t>(axis)), Product(in, static_cast<size_t>(axis))});
  return Status::Ok();
}

// --- Concat / Pack / Split / Unpack ----------------------------------------------------------

// Where a concat's tensors and axis are: the concat_dim attribute, or input first / last.
enum class AxisAt { kAttr, kFirstInput, kLastInput };

struct ConcatLayout {
  size_t first = 0;  // the tensors x[0..count)
  size_t count = 0;
  size_t axis_input = SIZE_MAX;
};

template <typename Ctx>
ConcatLayout LayoutOf(const Ctx& c, AxisAt at) {
  const size_t n = c.num_inputs();
  switch (at) {
    case AxisAt::kAttr:
      return {0, n, SIZE_MAX};
    case AxisAt::kFirstInput:
      return {1, n - 1, 0};
    case AxisAt::kLastInput:
      break;
  }
  return {0, n - 1, n - 1};
}

template <typename Ctx>
Result<Ints> ConcatAxisValue(const Ctx& c, const ConcatLayout& layout, const char* attr) {
  if (layout.axis_input == SIZE_MAX) return FromIntAttr(c, attr);
  return FromInput(c, layout.axis_input);
}

// Records the tensor count in N (the prototype default must not override the count given).
void SetN(OpContext& ctx, size_t count) { ctx.call().attrs["N"] = static_cast<int64_t>(count); }

Status InferConcat(OpContext& ctx, AxisAt at) {
  const ConcatLayout layout = LayoutOf(ctx, at);
  if (layout.count == 0) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "needs at least one tensor x");
  }
  const auto& ref = ctx.input(layout.first).dims;
  const int64_t rank = static_cast<int64_t>(ref.size());
  if (rank == 0) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} is a scalar; concat needs rank >= 1",
                    ctx.InputName(layout.first));
  }
  ACLSIM_ASSIGN_OR_RETURN(auto axis_value, ConcatAxisValue(ctx, layout, "concat_dim"));
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis, OneAxis(ctx, axis_value, rank));
  std::vector<int64_t> out = ref;
  out[axis] = 0;
  const DataType dtype = ctx.input(layout.first).dtype;
  for (size_t i = layout.first; i < layout.first + layout.count; ++i) {
    const auto& dims = ctx.input(i).dims;
    bool match = dims.size() == ref.size();
    for (size_t d = 0; match && d < dims.size(); ++d) {
      match = static_cast<int64_t>(d) == axis || dims[d] == ref[d];
    }
    if (!match) {
      return ctx.Fail(StatusCode::kOpInputNotMatch,
                      "{} has shape {} but {} has shape {}; they may differ only in dimension {}",
                      ctx.InputName(i), Str(dims), ctx.InputName(layout.first), Str(ref), axis);
    }
    if (ctx.input(i).dtype != dtype) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} is {} but {} is {}", ctx.InputName(i),
                      DataTypeName(ctx.input(i).dtype), ctx.InputName(layout.first),
                      DataTypeName(dtype));
    }
    out[axis] += dims[axis];
  }
  SetN(ctx, layout.count);
  ctx.SetOutput(0, dtype, std::move(out));
  return Status::Ok();
}

// y = the x's, each split into `outer` rows of its own size, interleaved row by row.
void ConcatRows(const std::vector<const Tensor*>& xs, const Tensor& y, int64_t outer) {
  const size_t size = ElemSize(y);
  auto* dst = static_cast<uint8_t*>(y.data);
  std::vector<size_t> rows;
  rows.reserve(xs.size());
  for (const Tensor* x : xs) {
    rows.push_back(outer == 0 ? 0 : static_cast<size_t>(x->numel() / outer) * size);
  }
  for (int64_t o = 0; o < outer; ++o) {
    for (size_t k = 0; k < xs.size(); ++k) {
      CopyBytes(dst, static_cast<const uint8_t*>(xs[k]->data) + o * rows[k], rows[k]);
      dst += rows[k];
    }
  }
}

// The reverse: each y gets its row of every one of x's `outer` rows.
void SplitRows(const Tensor& x, const std::vector<Tensor*>& ys, int64_t outer) {
  const size_t size = ElemSize(x);
  const auto* src = static_cast<const uint8_t*>(x.data);
  std::vector<size_t> rows;
  rows.reserve(ys.size());
  for (const Tensor* y : ys) {
    rows.push_back(outer == 0 ? 0 : static_cast<size_t>(y->numel() / outer) * size);
  }
  for (int64_t o = 0; o < outer; ++o) {
    for (size_t k = 0; k < ys.size(); ++k) {
      CopyBytes(static_cast<uint8_t*>(ys[k]->data) + o * rows[k], src, rows[k]);
      src += rows[k];
    }
  }
}

Status RunConcat(RunContext& ctx, AxisAt at) {
  const ConcatLayout layout = LayoutOf(ctx, at);
  const Tensor& y = ctx.out(0);
  ACLSIM_ASSIGN_OR_RETURN(auto axis_value, ConcatAxisValue(ctx, layout, "concat_dim"));
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis, OneAxis(ctx, axis_value, y.rank()));
  std::vector<const Tensor*> xs;
  for (size_t i = layout.first; i < layout.first + layout.count; ++i) xs.push_back(&ctx.in(i));
  ConcatRows(xs, y, Product(y.dims, 0, static_cast<size_t>(axis)));
  return Status::Ok();
}

OpDef ConcatOp(std::string type, AxisAt at) {
  OpDef def;
  def.type = std::move(type);
  const auto x = DynIn("x", AllTypes());
  const auto dim = In("concat_dim", IndexTypes());
  switch (at) {
    case AxisAt::kAttr:
      def.inputs = {x};
      def.attrs = {ReqAttr("concat_dim", AttrType::kInt)};
      break;
    case AxisAt::kFirstInput:
      def.inputs = {dim, x};
      def.value_inputs = {0};
      break;
    case AxisAt::kLastInput:
      // concat_dim's index depends on the tensor count, so it cannot be listed in
      // value_inputs: its value must come as a constant (or host) input.
      def.inputs = {x, dim};
      break;
  }
  // N: the prototype default is 1, but when the caller omits N the count given decides
  // (rule 3; the library sizes x* from N only when the caller set it). Infer records it.
  def.attrs.push_back(OptAttr("N", AttrType::kInt, int64_t{1}));
  def.outputs = {Out("y", AllTypes())};
  def.infer = [at](OpContext& ctx) { return InferConcat(ctx, at); };
  def.run = [at](RunContext& ctx) { return RunConcat(ctx, at); };
  return def;
}

Status InferPack(OpContext& ctx) {
  const size_t n = ctx.num_inputs();
  const auto& ref = ctx.input(0).dims;
  const int64_t rank = static_cast<int64_t>(ref.size());
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis, OneAxis(ctx, FromIntAttr(ctx, "axis"), rank + 1));
  for (size_t i = 1; i < n; ++i) {
    if (ctx.input(i).dims != ref || ctx.input(i).dtype != ctx.input(0).dtype) {
      return ctx.Fail(StatusCode::kOpInputNotMatch,
                      "{} is {} {} but {} is {} {}; Pack needs equal shapes and types",
                      ctx.InputName(i), DataTypeName(ctx.input(i).dtype), Str(ctx.input(i).dims),
                      ctx.InputName(0), DataTypeName(ctx.input(0).dtype), Str(ref));
    }
  }
  std::vector<int64_t> out = ref;
  out.insert(out.begin() + axis, static_cast<int64_t>(n));
  SetN(ctx, n);
  ctx.SetOutput(0, ctx.input(0).dtype, std::move(out));
  return Status::Ok();
}

Status RunPack(RunContext& ctx) {
  const Tensor& y = ctx.out(0);
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis, OneAxis(ctx, FromIntAttr(ctx, "axis"), y.rank()));
  std::vector<const Tensor*> xs;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) xs.push_back(&ctx.in(i));
  ConcatRows(xs, y, Product(y.dims, 0, static_cast<size_t>(axis)));
  return Status::Ok();
}

// Split forms: where x, split_dim and size_splits are.
enum class SplitForm {
  kSplit,    // (split_dim, x), num_split attr: equal parts
  kSplitD,   // (x), split_dim / num_split attrs
  kSplitV,   // (x, size_splits, split_dim)
  kSplitVD,  // (x), size_splits / split_dim / num_split attrs
};

size_t SplitX(SplitForm form) { return form == SplitForm::kSplit ? 1 : 0; }

template <typename Ctx>
Result<Ints> SplitDimValue(const Ctx& c, SplitForm form) {
  switch (form) {
    case SplitForm::kSplit:
      return FromInput(c, 0);
    case SplitForm::kSplitV:
      return FromInput(c, 2);
    default:
      return FromIntAttr(c, "split_dim");
  }
}

// The sizes of the parts along the split axis.
template <typename Ctx>
Result<std::vector<int64_t>> SplitSizes(const Ctx& c, SplitForm form, int64_t dim,
                                        int64_t num_split) {
  if (num_split < 1) {
    return c.Fail(StatusCode::kOpAttrNotMatch, "attribute 'num_split' = {} must be >= 1",
                  num_split);
  }
  if (form == SplitForm::kSplit || form == SplitForm::kSplitD) {
    if (dim % num_split != 0) {
      return c.Fail(StatusCode::kOpAttrNotMatch,
                    "attribute 'num_split' = {} does not divide the split dimension of size {}",
                    num_split, dim);
    }
    return std::vector<int64_t>(static_cast<size_t>(num_split), dim / num_split);
  }
  Ints sizes;
  if (form == SplitForm::kSplitV) {
    ACLSIM_ASSIGN_OR_RETURN(sizes, FromInput(c, 1));
  } else {
    sizes = FromAttr(c, "size_splits");
  }
  if (static_cast<int64_t>(sizes.v.size()) != num_split) {
    return c.Fail(sizes.code, "{} = {} has {} entries but num_split is {}", sizes.name,
                  Str(sizes.v), sizes.v.size(), num_split);
  }
  int64_t sum = 0;
  int64_t infer_at = -1;
  for (size_t i = 0; i < sizes.v.size(); ++i) {
    const int64_t s = sizes.v[i];
    if (s == -1 && infer_at < 0) {
      infer_at = static_cast<int64_t>(i);
    } else if (s < 0) {
      return c.Fail(sizes.code, "{} = {}: entry {} is invalid (at most one -1 is allowed)",
                    sizes.name, Str(sizes.v), s);
    } else {
      sum += s;
    }
  }
  if (infer_at >= 0 && sum <= dim) {
    sizes.v[infer_at] = dim - sum;
  } else if (sum != dim) {
    return c.Fail(sizes.code, "{} = {} adds up to {} but the split dimension has size {}",
                  sizes.name, Str(sizes.v), sum, dim);
  }
  return sizes.v;
}

Status InferSplit(OpContext& ctx, SplitForm form) {
  const size_t xi = SplitX(form);
  const auto& in = ctx.input(xi).dims;
  const int64_t rank = static_cast<int64_t>(in.size());
  ACLSIM_ASSIGN_OR_RETURN(auto dim_value, SplitDimValue(ctx, form));
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis, OneAxis(ctx, dim_value, rank));
  const int64_t num_split = ctx.GetInt("num_split");
  ACLSIM_ASSIGN_OR_RETURN(auto sizes, SplitSizes(ctx, form, in[axis], num_split));
  if (ctx.num_outputs() != sizes.size()) {
    return ctx.Fail(StatusCode::kOpOutputNotMatch, "{} outputs given but num_split is {}",
                    ctx.num_outputs(), sizes.size());
  }
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::vector<int64_t> out = in;
    out[axis] = sizes[i];
    ctx.SetOutput(i, ctx.input(xi).dtype, std::move(out));
  }
  return Status::Ok();
}

Status RunSplit(RunContext& ctx, SplitForm form) {
  const Tensor& x = ctx.in(SplitX(form));
  ACLSIM_ASSIGN_OR_RETURN(auto dim_value, SplitDimValue(ctx, form));
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis, OneAxis(ctx, dim_value, x.rank()));
  std::vector<Tensor*> ys;
  for (size_t i = 0; i < ctx.num_outputs(); ++i) ys.push_back(&ctx.out(i));
  SplitRows(x, ys, Product(x.dims, 0, static_cast<size_t>(axis)));
  return Status::Ok();
}

OpDef SplitOp(std::string type, SplitForm form) {
  OpDef def;
  def.type = std::move(type);
  const auto x = In("x", AllTypes());
  switch (form) {
    case SplitForm::kSplit:
      def.inputs = {In("split_dim", IndexTypes()), x};
      def.value_inputs = {0};
      break;
    case SplitForm::kSplitD:
      def.inputs = {x};
      def.attrs = {ReqAttr("split_dim", AttrType::kInt)};
      break;
    case SplitForm::kSplitV:
      def.inputs = {x, In("size_splits", IndexTypes()), In("split_dim", IndexTypes())};
      def.value_inputs = {1, 2};
      break;
    case SplitForm::kSplitVD:
      def.inputs = {x};
      def.attrs = {ReqAttr("size_splits", AttrType::kListInt),
                   ReqAttr("split_dim", AttrType::kInt)};
      break;
  }
  def.attrs.push_back(ReqAttr("num_split", AttrType::kInt));
  def.outputs = {DynOut("y", AllTypes())};
  def.infer = [form](OpContext& ctx) { return InferSplit(ctx, form); };
  def.run = [form](RunContext& ctx) { return RunSplit(ctx, form); };
  return def;
}

Status InferUnpack(OpContext& ctx) {
  const auto& in = ctx.input(0).dims;
  const int64_t rank = static_cast<int64_t>(in.size());
  if (rank == 0) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} is a scalar; Unpack needs rank >= 1",
                    ctx.InputName(0));
  }
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis, OneAxis(ctx, FromIntAttr(ctx, "axis"), rank));
  const int64_t num = ctx.GetInt("num");
  if (num != in[axis]) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch,
                    "attribute 'num' = {} but dimension {} of x (shape {}) is {}", num, axis,
                    Str(in), in[axis]);
  }
  if (static_cast<int64_t>(ctx.num_outputs()) != num) {
    return ctx.Fail(StatusCode::kOpOutputNotMatch, "{} outputs given but num is {}",
                    ctx.num_outputs(), num);
  }
  std::vector<int64_t> out = in;
  out.erase(out.begin() + axis);
  for (int64_t i = 0; i < num; ++i) ctx.SetOutput(i, ctx.input(0).dtype, out);
  return Status::Ok();
}

Status RunUnpack(RunContext& ctx) {
  const Tensor& x = ctx.in(0);
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis, OneAxis(ctx, FromIntAttr(ctx, "axis"), x.rank()));
  std::vector<Tensor*> ys;
  for (size_t i = 0; i < ctx.num_outputs(); ++i) ys.push_back(&ctx.out(i));
  SplitRows(x, ys, Product(x.dims, 0, static_cast<size_t>(axis)));
  return Status::Ok();
}

// --- Fill, Range, Shape, Size ------------------------------------------------------------

Status InferFillWith(OpContext& ctx, size_t value_input, const Ints& dims) {
  for (int64_t d : dims.v) {
    if (d < 0) {
      return ctx.Fail(dims.code, "{} = {} has a negative dimension", dims.name, Str(dims.v));
    }
  }
  const auto& value = ctx.input(value_input);
  if (value.ElementCount() != 1) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} (shape {}) must hold exactly one value",
                    ctx.InputName(value_input), Str(value.dims));
  }
  ctx.SetOutput(0, value.dtype, dims.v);
  return Status::Ok();
}

Status RunFill(RunContext& ctx, size_t value_input) {
  const Tensor& value = ctx.in(value_input);
  Tensor& y = ctx.out(0);
  const size_t size = ElemSize(y);
  const int64_t n = y.numel();
  auto* dst = static_cast<uint8_t*>(y.data);
  for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * size, value.data, size);
  return Status::Ok();
}

bool IsIntegral(DataType dtype) {
  const auto ints = IntTypes();
  return std::find(ints.begin(), ints.end(), dtype) != ints.end();
}

Status InferRange(OpContext& ctx) {
  const DataType dtype = ctx.input(0).dtype;
  for (size_t i = 1; i < 3; ++i) {
    if (ctx.input(i).dtype != dtype) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} is {} but {} is {}; they must match",
                      ctx.InputName(i), DataTypeName(ctx.input(i).dtype), ctx.InputName(0),
                      DataTypeName(dtype));
    }
  }
  for (size_t i = 0; i < 3; ++i) {
    if (ctx.input(i).ElementCount() != 1) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} (shape {}) must be a scalar",
                      ctx.InputName(i), Str(ctx.input(i).dims));
    }
  }
  const bool closed = ctx.GetBool("is_closed");
  int64_t count = 0;
  if (IsIntegral(dtype)) {
    ACLSIM_ASSIGN_OR_RETURN(auto start, ctx.InputInts(0));
    ACLSIM_ASSIGN_OR_RETURN(auto limit, ctx.InputInts(1));
    ACLSIM_ASSIGN_OR_RETURN(auto delta, ctx.InputInts(2));
    if (delta[0] == 0) return ctx.Fail(StatusCode::kOpInputNotMatch, "{} is 0", ctx.InputName(2));
    const int64_t span = limit[0] - start[0];
    if (closed) {
      count = (span == 0 || (span > 0) == (delta[0] > 0)) ? span / delta[0] + 1 : 0;
    } else if (span != 0 && (span > 0) == (delta[0] > 0)) {
      count = span / delta[0] + (span % delta[0] != 0 ? 1 : 0);
    }
  } else {
    ACLSIM_ASSIGN_OR_RETURN(auto start, ctx.InputDoubles(0));
    ACLSIM_ASSIGN_OR_RETURN(auto limit, ctx.InputDoubles(1));
    ACLSIM_ASSIGN_OR_RETURN(auto delta, ctx.InputDoubles(2));
    if (delta[0] == 0 || !std::isfinite(delta[0]) || !std::isfinite(start[0]) ||
        !std::isfinite(limit[0])) {
      return ctx.Fail(StatusCode::kOpInputNotMatch,
                      "start {}, limit {}, delta {}: delta must be non-zero and all finite",
                      start[0], limit[0], delta[0]);
    }
    const double steps = (limit[0] - start[0]) / delta[0];
    count = static_cast<int64_t>(std::max(0.0, closed ? std::floor(steps) + 1 : std::ceil(steps)));
  }
  ctx.SetOutput(0, dtype, {count});
  return Status::Ok();
}

Status RunRange(RunContext& ctx) {
  Tensor& y = ctx.out(0);
  const int64_t n = y.numel();
  if (IsIntegral(y.dtype)) {
    const int64_t start = ReadInts(ctx.in(0))[0];
    const int64_t delta = ReadInts(ctx.in(2))[0];
    return DispatchType(y.dtype, [&](auto tag) -> Status {
      using T = decltype(tag);
      T* dst = y.ptr<T>();
      if constexpr (std::is_integral_v<T>) {
        for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<T>(start + i * delta);
      }
      return Status::Ok();
    });
  }
  const double start = LoadDouble(ctx.in(0), 0);
  const double delta = LoadDouble(ctx.in(2), 0);
  for (int64_t i = 0; i < n; ++i) StoreDouble(y, i, start + static_cast<double>(i) * delta);
  return Status::Ok();
}

Result<DataType> IndexDtype(const OpContext& ctx) {
  const int64_t dtype = ctx.GetInt("dtype");
  if (dtype != static_cast<int64_t>(DataType::kInt32) &&
      dtype != static_cast<int64_t>(DataType::kInt64)) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch,
                    "attribute 'dtype' = {} must be INT32 (3) or INT64 (9)", dtype);
  }
  return static_cast<DataType>(dtype);
}

// Writes `values` to y as int32 or int64.
void WriteIndex(Tensor& y, const std::vector<int64_t>& values) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (y.dtype == DataType::kInt32) {
      y.ptr<int32_t>()[i] = static_cast<int32_t>(values[i]);
    } else {
      y.ptr<int64_t>()[i] = values[i];
    }
  }
}

}  // namespace

void RegisterArrayOps(OpRegistry& registry) {
  const auto all = AllTypes();
  const auto index = IndexTypes();

  // Reshape family: copies with new dims.
  registry.Add(CopyOp("Reshape", {In("x", all), In("shape", index)},
                      {OptAttr("axis", AttrType::kInt, int64_t{0}),
                       OptAttr("num_axes", AttrType::kInt, int64_t{-1}),
                       // The ONNX plugin's private attribute: 1 = a 0 in shape is a 0.
                       OptAttr("allowzero", AttrType::kInt, int64_t{0})},
                      {1}, InferReshape));
  registry.Add(CopyOp("Squeeze", {In("x", all)},
                      {OptAttr("axis", AttrType::kListInt, std::vector<int64_t>{})}, {},
                      [](OpContext& ctx) { return InferSqueezeWith(ctx, FromAttr(ctx, "axis")); }));
  registry.Add(CopyOp("SqueezeV3", {In("x", all), OptIn("axes", index)}, {}, {1},
                      [](OpContext& ctx) -> Status {
                        Ints axes;
                        if (ctx.has_input(1)) {
                          ACLSIM_ASSIGN_OR_RETURN(axes, FromInput(ctx, 1));
                        }
                        return InferSqueezeWith(ctx, axes);
                      }));
  registry.Add(CopyOp(
      "Unsqueeze", {In("x", all)}, {OptAttr("axes", AttrType::kListInt, std::vector<int64_t>{})},
      {}, [](OpContext& ctx) { return InferUnsqueezeWith(ctx, FromAttr(ctx, "axes")); }));
  registry.Add(CopyOp("UnsqueezeV3", {In("x", all), In("axes", index)}, {}, {1},
                      [](OpContext& ctx) -> Status {
                        ACLSIM_ASSIGN_OR_RETURN(auto axes, FromInput(ctx, 1));
                        return InferUnsqueezeWith(ctx, axes);
                      }));
  registry.Add(CopyOp(
      "ExpandDims", {In("x", all), In("axis", index)}, {}, {1}, [](OpContext& ctx) -> Status {
        ACLSIM_ASSIGN_OR_RETURN(auto axis, FromInput(ctx, 1));
        if (axis.v.size() != 1) {
          return ctx.Fail(StatusCode::kOpInputNotMatch, "{} = {} must hold exactly one axis",
                          axis.name, Str(axis.v));
        }
        return InferUnsqueezeWith(ctx, axis);
      }));
  registry.Add(CopyOp("Flatten", {In("x", all)}, {OptAttr("axis", AttrType::kInt, int64_t{1})}, {},
                      InferFlatten));

  // Concat / Pack.
  registry.Add(ConcatOp("ConcatD", AxisAt::kAttr));
  registry.Add(ConcatOp("ConcatV2D", AxisAt::kAttr));
  registry.Add(ConcatOp("Concat", AxisAt::kFirstInput));
  registry.Add(ConcatOp("ConcatV2", AxisAt::kLastInput));
  OpDef pack;
  pack.type = "Pack";
  pack.inputs = {DynIn("x", all)};
  pack.outputs = {Out("y", all)};
  pack.attrs = {OptAttr("axis", AttrType::kInt, int64_t{0}),
                OptAttr("N", AttrType::kInt, int64_t{1})};  // omitted: the count given
  pack.infer = InferPack;
  pack.run = RunPack;
  registry.Add(std::move(pack));

  // Split / Unpack.
  registry.Add(SplitOp("Split", SplitForm::kSplit));
  registry.Add(SplitOp("SplitD", SplitForm::kSplitD));
  registry.Add(SplitOp("SplitV", SplitForm::kSplitV));
  registry.Add(SplitOp("SplitVD", SplitForm::kSplitVD));
  OpDef unpack;
  unpack.type = "Unpack";
  unpack.inputs = {In("x", all)};
  unpack.outputs = {DynOut("y", all)};
  unpack.attrs = {ReqAttr("num", AttrType::kInt), OptAttr("axis", AttrType::kInt, int64_t{0})};
  unpack.infer = InferUnpack;
  unpack.run = RunUnpack;
  registry.Add(std::move(unpack));

  // Fill.
  OpDef fill;
  fill.type = "Fill";
  fill.inputs = {In("dims", index), In("value", all)};
  fill.outputs = {Out("y", all)};
  fill.value_inputs = {0};
  fill.infer = [](OpContext& ctx) -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto dims, FromInput(ctx, 0));
    return InferFillWith(ctx, 1, dims);
  };
  fill.run = [](RunContext& ctx) { return RunFill(ctx, 1); };
  registry.Add(std::move(fill));
  OpDef fill_d;
  fill_d.type = "FillD";
  fill_d.inputs = {In("value", all)};
  fill_d.outputs = {Out("y", all)};
  fill_d.attrs = {ReqAttr("dims", AttrType::kListInt)};
  fill_d.infer = [](OpContext& ctx) { return InferFillWith(ctx, 0, FromAttr(ctx, "dims")); };
  fill_d.run = [](RunContext& ctx) { return RunFill(ctx, 0); };
  registry.Add(std::move(fill_d));

  // Range.
  const std::vector<DataType> range_types = {DataType::kFloat16, DataType::kBf16,
                                             DataType::kFloat,   DataType::kDouble,
                                             DataType::kInt32,   DataType::kInt64};
  OpDef range;
  range.type = "Range";
  range.inputs = {In("start", range_types), In("limit", range_types), In("delta", range_types)};
  range.outputs = {Out("y", range_types)};
  range.attrs = {OptAttr("is_closed", AttrType::kBool, false)};
  range.value_inputs = {0, 1, 2};
  range.infer = InferRange;
  range.run = RunRange;
  registry.Add(std::move(range));

  // Shape / Size: the dtype attribute is an Int holding the DataType value.
  OpDef shape;
  shape.type = "Shape";
  shape.inputs = {In("x")};
  shape.outputs = {Out("y", index)};
  shape.attrs = {OptAttr("dtype", AttrType::kInt, int64_t{3})};
  shape.infer = [](OpContext& ctx) -> Status {
    ACLSIM_ASSIGN_OR_RETURN(DataType dtype, IndexDtype(ctx));
    ctx.SetOutput(0, dtype, {static_cast<int64_t>(ctx.input(0).dims.size())}, Format::kNd);
    return Status::Ok();
  };
  shape.run = [](RunContext& ctx) -> Status {
    WriteIndex(ctx.out(0), ctx.in(0).dims);
    return Status::Ok();
  };
  registry.Add(std::move(shape));
  OpDef size;
  size.type = "Size";
  size.inputs = {In("x")};
  size.outputs = {Out("y", index)};
  size.attrs = {OptAttr("dtype", AttrType::kInt, int64_t{3})};
  size.infer = [](OpContext& ctx) -> Status {
    ACLSIM_ASSIGN_OR_RETURN(DataType dtype, IndexDtype(ctx));
    ctx.SetOutput(0, dtype, {}, Format::kNd);
    return Status::Ok();
  };
  size.run = [](RunContext& ctx) -> Status {
    WriteIndex(ctx.out(0), {ctx.in(0).numel()});
    return Status::Ok();
  };
  registry.Add(std::move(size));
}

}  // namespace aclsim::ops
