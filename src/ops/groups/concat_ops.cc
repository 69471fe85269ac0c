// Joining and splitting ops (cann_ops.md 1I): Concat / ConcatV2 / Pack and Split / SplitV /
// Unpack, in their input and D-variant forms (rule 9). The rest of the array ops are in
// array_ops.cc.
//
// Data movement is by element size (memcpy), so every dtype works, bool and int64 included.
//
// Thread-safety: pure functions over the tensors of one call.
#include <algorithm>
#include <cstring>

#include "ops/op_group.h"
#include "ops/value_args.h"

// In its own namespace, so its helpers come first in every lookup, also when a unity build
// puts another group's file in the same translation unit.
namespace aclsim::ops {
namespace concat {
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
      sum = SaturatingAdd(sum, s);
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

void RegisterJoinAndSplit(OpRegistry& registry) {
  const auto all = AllTypes();
  const auto index = IndexTypes();

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
}

}  // namespace
}  // namespace concat

void RegisterConcatOps(OpRegistry& registry) { concat::RegisterJoinAndSplit(registry); }

}  // namespace aclsim::ops
