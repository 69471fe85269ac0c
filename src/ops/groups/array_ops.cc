// Shape / array ops (cann_ops.md 1I): the reshape family (copies), Fill, Range, Shape and
// Size. Concat / Split / Pack / Unpack are in concat_ops.cc; slicing, transposition, tiling,
// broadcasting and padding in slice_ops.cc.
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

// Range's longest output: the limit of one tensor (common/checked_size.h), so a count that only
// arithmetic overflow produces is refused at shape inference, not at allocation.
constexpr int64_t kMaxRangeElements = kMaxTensorElements;

Status RangeTooLong(const OpContext& ctx, double count) {
  return ctx.Fail(StatusCode::kOpInputNotMatch,
                  "start, limit and delta give {:.0f} elements, more than the {} a tensor may hold",
                  count, kMaxRangeElements);
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
    // In 128 bits: limit - start of two int64 values does not fit in 64.
    const __int128 span = static_cast<__int128>(limit[0]) - start[0];
    const __int128 step = delta[0];
    __int128 n = 0;
    if (closed) {
      n = (span == 0 || (span > 0) == (step > 0)) ? span / step + 1 : 0;
    } else if (span != 0 && (span > 0) == (step > 0)) {
      n = span / step + (span % step != 0 ? 1 : 0);
    }
    if (n > kMaxRangeElements) return RangeTooLong(ctx, static_cast<double>(n));
    count = static_cast<int64_t>(n);
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
    const double n = std::max(0.0, closed ? std::floor(steps) + 1 : std::ceil(steps));
    // Compared as a double before the conversion: a count past int64 has no int64 value.
    if (!(n <= static_cast<double>(kMaxRangeElements))) return RangeTooLong(ctx, n);
    count = static_cast<int64_t>(n);
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
