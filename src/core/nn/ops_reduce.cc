// Softmax, reductions, sorting and scans of aclnn (Softmax, ReduceSum, Mean, ArgMax, Argsort,
// Sort, Topk, Cumsum) over the op library's SoftmaxV2, ReduceSumD / ReduceMeanD, ArgMaxD, Sort,
// TopKV2 and CumsumD kernels.
#include <fmt/ranges.h>

#include <algorithm>
#include <vector>

#include "core/nn/builder.h"
#include "core/nn/ops.h"
#include "core/nn/promote.h"

namespace aclsim::core::nn {
namespace {

using DT = ops::DataType;

// `dim` in [-rank, rank - 1] (a 0-D tensor takes -1 and 0) as an index into dims.
Result<int64_t> NormalizeDim(const Builder& b, int64_t dim, size_t rank, const char* what) {
  const int64_t r = std::max<int64_t>(static_cast<int64_t>(rank), 1);
  if (dim < -r || dim >= r) {
    return Err(StatusCode::kInvalidParam, "{}: {} {} is out of range [{}, {}] for a {}-D tensor",
               b.name(), what, dim, -r, r - 1, rank);
  }
  return dim < 0 ? dim + r : dim;
}

Status RequireShape(const Builder& b, const std::vector<int64_t>& want, const Value& out) {
  if (want == out.dims) return Status::Ok();
  return Err(StatusCode::kInvalidParam, "{}: the result has shape {} but out has {}", b.name(),
             ShapeString(want), ShapeString(out.dims));
}

// A 0-D value as [1] (the kernels take at least one dim).
Result<Value> AtLeast1D(Builder& b, const Value& v) {
  if (v.rank() > 0) return v;
  return b.Reshape(v, {1});
}

}  // namespace

Result<ExecutorPtr> Softmax(const char* name, const NnTensor* self, int64_t dim,
                            const NnTensor* out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  for (const auto& [v, what] : {std::pair{&x, "self"}, std::pair{&z, "out"}}) {
    if (!IsFloating(v->dtype)) {
      return Err(StatusCode::kInvalidParam,
                 "{}: {} is {}; it must be float32, float16, bfloat16 or float64", b.name(), what,
                 ops::DataTypeName(v->dtype));
    }
  }
  ACLSIM_RETURN_IF_ERROR(RequireShape(b, x.dims, z));
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis, NormalizeDim(b, dim, x.rank(), "dim"));
  if (z.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(Value in, AtLeast1D(b, x));
  ACLSIM_ASSIGN_OR_RETURN(Value y,
                          b.Op1("SoftmaxV2", {in}, {{"axes", std::vector<int64_t>{axis}}}));
  if (x.rank() == 0) {
    ACLSIM_ASSIGN_OR_RETURN(y, b.Reshape(y, {}));
  }
  ACLSIM_RETURN_IF_ERROR(b.Store(y, z));
  return b.Finish();
}

Result<ExecutorPtr> Reduce(const char* name, Reduction reduction, const NnTensor* self,
                           const std::vector<int64_t>& dims, bool keep_dims, ops::DataType dtype,
                           const NnTensor* out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  const bool logical = reduction == Reduction::kAll || reduction == Reduction::kAny;
  if (dtype == DT::kUndefined) dtype = logical ? DT::kBool : x.dtype;
  if (reduction == Reduction::kLogSumExp && !IsFloating(dtype)) dtype = DT::kFloat;
  if (!logical && (!CanCastTo(x.dtype, dtype) || !CanCastTo(dtype, z.dtype))) {
    return Err(StatusCode::kInvalidParam, "{}: self {} cannot be reduced in {} into out {}",
               b.name(), ops::DataTypeName(x.dtype), ops::DataTypeName(dtype),
               ops::DataTypeName(z.dtype));
  }
  std::vector<bool> reduced(x.rank(), dims.empty());
  for (const int64_t d : dims) {
    ACLSIM_ASSIGN_OR_RETURN(int64_t axis, NormalizeDim(b, d, x.rank(), "dim"));
    if (x.rank() == 0) continue;
    if (reduced[static_cast<size_t>(axis)]) {
      return Err(StatusCode::kInvalidParam, "{}: dim {} appears twice in [{}]", b.name(), axis,
                 fmt::join(dims, ", "));
    }
    reduced[static_cast<size_t>(axis)] = true;
  }
  std::vector<int64_t> shape;
  std::vector<int64_t> axes;
  for (size_t k = 0; k < x.rank(); ++k) {
    if (!reduced[k]) {
      shape.push_back(x.dims[k]);
    } else {
      axes.push_back(static_cast<int64_t>(k));
      if (keep_dims) shape.push_back(1);
    }
  }
  ACLSIM_RETURN_IF_ERROR(RequireShape(b, shape, z));
  if (z.numel() == 0) return b.Finish();
  // Sums and products of bools count in int64, max / min of bools compare as int32; means
  // of integers average in float32; All / Any read self as bool.
  DT compute = dtype;
  if (compute == DT::kBool) compute = logical ? DT::kBool : DT::kInt64;
  if ((reduction == Reduction::kMax || reduction == Reduction::kMin) && dtype == DT::kBool) {
    compute = DT::kInt32;
  }
  if (reduction == Reduction::kMean && !IsFloating(compute)) compute = DT::kFloat;
  ACLSIM_ASSIGN_OR_RETURN(Value in, b.Cast(x, compute));
  Value result;
  if (axes.empty()) {  // nothing to reduce (a 0-D tensor): the value itself
    ACLSIM_ASSIGN_OR_RETURN(result, b.Contiguous(in));
  } else if (logical || reduction == Reduction::kLogSumExp) {  // axes as a value input
    const char* kernel = reduction == Reduction::kAll   ? "ReduceAll"
                         : reduction == Reduction::kAny ? "ReduceAny"
                                                        : "ReduceLogSumExp";
    ACLSIM_ASSIGN_OR_RETURN(result, b.Op1(kernel, {in}, {{"keep_dims", keep_dims}}, {{1, axes}}));
  } else {
    const char* kernel = reduction == Reduction::kSum    ? "ReduceSumD"
                         : reduction == Reduction::kMean ? "ReduceMeanD"
                         : reduction == Reduction::kMax  ? "ReduceMaxD"
                         : reduction == Reduction::kMin  ? "ReduceMinD"
                                                         : "ReduceProdD";
    ACLSIM_ASSIGN_OR_RETURN(result,
                            b.Op1(kernel, {in}, {{"axes", axes}, {"keep_dims", keep_dims}}));
  }
  ACLSIM_ASSIGN_OR_RETURN(result, b.Reshape(result, shape));
  if (dtype != compute) {
    ACLSIM_ASSIGN_OR_RETURN(result, b.Cast(result, dtype));
  }
  ACLSIM_RETURN_IF_ERROR(b.Store(result, z));
  return b.Finish();
}

Result<ExecutorPtr> ArgMax(const char* name, const NnTensor* self, int64_t dim, bool keep_dim,
                           const NnTensor* out, bool minimum) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (x.dtype == DT::kBool || !(IsFloating(x.dtype) || IsIntegral(x.dtype))) {
    return Err(StatusCode::kInvalidParam, "{}: self is {}; it must be a number type", b.name(),
               ops::DataTypeName(x.dtype));
  }
  if (z.dtype != DT::kInt32 && z.dtype != DT::kInt64) {
    return Err(StatusCode::kInvalidParam, "{}: out is {}; it must be int32 or int64", b.name(),
               ops::DataTypeName(z.dtype));
  }
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis, NormalizeDim(b, dim, x.rank(), "dim"));
  std::vector<int64_t> shape = x.dims;
  if (x.rank() > 0) {
    if (x.dims[static_cast<size_t>(axis)] == 0) {
      return Err(StatusCode::kInvalidParam, "{}: dim {} of self {} is empty; it has no {}",
                 b.name(), axis, ShapeString(x.dims), minimum ? "minimum" : "maximum");
    }
    if (keep_dim) {
      shape[static_cast<size_t>(axis)] = 1;
    } else {
      shape.erase(shape.begin() + axis);
    }
  }
  ACLSIM_RETURN_IF_ERROR(RequireShape(b, shape, z));
  if (z.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(Value in, AtLeast1D(b, x));
  ACLSIM_ASSIGN_OR_RETURN(Value index, b.Op1(minimum ? "ArgMinD" : "ArgMaxD", {in},
                                             {{"dimension", axis}, {"dtype", z.dtype}}));
  ACLSIM_ASSIGN_OR_RETURN(index, b.Reshape(index, shape));
  ACLSIM_RETURN_IF_ERROR(b.Store(index, z));
  return b.Finish();
}

Result<ExecutorPtr> Argsort(const char* name, const NnTensor* self, int64_t dim, bool descending,
                            const NnTensor* out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (x.dtype == DT::kBool || x.dtype == DT::kDouble ||
      !(IsFloating(x.dtype) || IsIntegral(x.dtype))) {
    return Err(StatusCode::kInvalidParam,
               "{}: self is {}; it must be float32, float16, bfloat16 or an integer type", b.name(),
               ops::DataTypeName(x.dtype));
  }
  if (z.dtype != DT::kInt64) {
    return Err(StatusCode::kInvalidParam, "{}: out is {}; it must be int64", b.name(),
               ops::DataTypeName(z.dtype));
  }
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis, NormalizeDim(b, dim, x.rank(), "dim"));
  ACLSIM_RETURN_IF_ERROR(RequireShape(b, x.dims, z));
  if (z.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(Value in, AtLeast1D(b, x));
  // Stable: equal elements keep their order, so the result is the same on every run.
  ACLSIM_ASSIGN_OR_RETURN(
      auto sorted,
      b.Op("Sort", {in},
           {{"axis", axis}, {"descending", descending}, {"stable", true}, {"y2_dtype", DT::kInt64}},
           2));
  ACLSIM_ASSIGN_OR_RETURN(Value index, b.Reshape(sorted[1], x.dims));
  ACLSIM_RETURN_IF_ERROR(b.Store(index, z));
  return b.Finish();
}

Result<ExecutorPtr> Sort(const char* name, const NnTensor* self, bool stable, int64_t dim,
                         bool descending, const NnTensor* values_out, const NnTensor* indices_out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value v, b.Output(values_out, "valuesOut"));
  ACLSIM_ASSIGN_OR_RETURN(Value i, b.Output(indices_out, "indicesOut"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (x.dtype == DT::kDouble ||
      !(IsFloating(x.dtype) || IsIntegral(x.dtype) || x.dtype == DT::kBool)) {
    return Err(StatusCode::kInvalidParam,
               "{}: self is {}; it must be float32, float16, bfloat16, an integer type or bool",
               b.name(), ops::DataTypeName(x.dtype));
  }
  if (i.dtype != DT::kInt64) {
    return Err(StatusCode::kInvalidParam, "{}: indicesOut is {}; it must be int64", b.name(),
               ops::DataTypeName(i.dtype));
  }
  if (x.rank() == 0) {
    return Err(StatusCode::kInvalidParam, "{}: self is 0-D; it must have 1 to 8 dims", b.name());
  }
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis, NormalizeDim(b, dim, x.rank(), "dim"));
  ACLSIM_RETURN_IF_ERROR(RequireShape(b, x.dims, v));
  ACLSIM_RETURN_IF_ERROR(RequireShape(b, x.dims, i));
  if (x.numel() == 0) return b.Finish();
  // bool sorts as its 0/1 bytes. `stable` = false may order equal elements either way; the
  // kernel always keeps their order, which is one of the allowed results.
  ACLSIM_ASSIGN_OR_RETURN(Value in, b.Cast(x, x.dtype == DT::kBool ? DT::kUint8 : x.dtype));
  ACLSIM_ASSIGN_OR_RETURN(
      auto sorted,
      b.Op("Sort", {in},
           {{"axis", axis}, {"descending", descending}, {"stable", true}, {"y2_dtype", DT::kInt64}},
           2));
  ACLSIM_RETURN_IF_ERROR(b.Store(sorted[0], v));
  ACLSIM_RETURN_IF_ERROR(b.Store(sorted[1], i));
  return b.Finish();
}

Result<ExecutorPtr> Topk(const char* name, const NnTensor* self, int64_t k, int64_t dim,
                         bool largest, bool sorted, const NnTensor* values_out,
                         const NnTensor* indices_out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value v, b.Output(values_out, "valuesOut"));
  ACLSIM_ASSIGN_OR_RETURN(Value i, b.Output(indices_out, "indicesOut"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (x.dtype == DT::kBool || !(IsFloating(x.dtype) || IsIntegral(x.dtype))) {
    return Err(StatusCode::kInvalidParam, "{}: self is {}; it must be a number type", b.name(),
               ops::DataTypeName(x.dtype));
  }
  if (v.dtype != x.dtype || i.dtype != DT::kInt64) {
    return Err(StatusCode::kInvalidParam,
               "{}: valuesOut is {} and indicesOut {}; they must be {} and int64", b.name(),
               ops::DataTypeName(v.dtype), ops::DataTypeName(i.dtype), ops::DataTypeName(x.dtype));
  }
  if (!sorted) {
    return Err(StatusCode::kInvalidParam,
               "{}: sorted is false; CANN's Topk returns sorted results only", b.name());
  }
  if (x.rank() == 0) {
    return Err(StatusCode::kInvalidParam, "{}: self is 0-D; it must have 1 to 8 dims", b.name());
  }
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis, NormalizeDim(b, dim, x.rank(), "dim"));
  const int64_t n = x.dims[static_cast<size_t>(axis)];
  if (k < 0 || k > n) {
    return Err(StatusCode::kInvalidParam, "{}: k is {}; it must be in [0, {}] (the size of dim {})",
               b.name(), k, n, axis);
  }
  std::vector<int64_t> shape = x.dims;
  shape[static_cast<size_t>(axis)] = k;
  ACLSIM_RETURN_IF_ERROR(RequireShape(b, shape, v));
  ACLSIM_RETURN_IF_ERROR(RequireShape(b, shape, i));
  if (v.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(auto top, b.Op("TopKV2", {x},
                                         {{"sorted", true},
                                          {"largest", largest},
                                          {"dim", axis},
                                          {"indices_dtype", static_cast<int64_t>(DT::kInt64)}},
                                         2, {{1, {k}}}));
  ACLSIM_RETURN_IF_ERROR(b.Store(top[0], v));
  ACLSIM_RETURN_IF_ERROR(b.Store(top[1], i));
  return b.Finish();
}

Result<ExecutorPtr> Cumsum(const char* name, const NnTensor* self, int64_t dim, ops::DataType dtype,
                           const NnTensor* out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (z.dtype != dtype) {
    return Err(StatusCode::kInvalidParam, "{}: dtype is {} but out is {}; they must match",
               b.name(), ops::DataTypeName(dtype), ops::DataTypeName(z.dtype));
  }
  if (dtype == DT::kBool || !CanCastTo(x.dtype, dtype)) {
    return Err(StatusCode::kInvalidParam, "{}: self {} cannot be summed in {}", b.name(),
               ops::DataTypeName(x.dtype), ops::DataTypeName(dtype));
  }
  ACLSIM_RETURN_IF_ERROR(RequireShape(b, x.dims, z));
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis, NormalizeDim(b, dim, x.rank(), "dim"));
  if (z.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(Value in, b.Cast(x, dtype));
  ACLSIM_ASSIGN_OR_RETURN(in, AtLeast1D(b, in));
  ACLSIM_ASSIGN_OR_RETURN(Value sums, b.Op1("CumsumD", {in}, {{"axis", axis}}));
  ACLSIM_ASSIGN_OR_RETURN(sums, b.Reshape(sums, x.dims));
  ACLSIM_RETURN_IF_ERROR(b.Store(sums, z));
  return b.Finish();
}

}  // namespace aclsim::core::nn
