// Gather and one-hot ops (cann_ops.md 1H): GatherV2(D), Gather, GatherElements, GatherNd,
// OneHot(D). Selection and sorting (1K) are in select_ops.cc.
//
// Gathers check every index when the kernel runs: an index out of range fails the run with
// kInvalidParam naming the index (position and value), it never reads out of bounds.
// Negative indices count from the end only when negative_index_support is set (GatherV2,
// Gather, GatherNd) or always (GatherElements, as ONNX allows them).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <type_traits>

#include "ops/groups/select.h"
#include "ops/kernels.h"
#include "ops/op_group.h"

// In namespace select, so its helpers (select.h) come first in every lookup, also when a
// unity build puts another group's file in the same translation unit.
namespace aclsim::ops {
namespace select {
namespace {

// --- Gather family --------------------------------------------------------------------

// Where a gather's axis comes from.
enum class GatherAxis { kInput, kAttr, kBatchDims };

Result<int64_t> GatherBatchDims(const OpContext& ctx) {
  if (!ctx.Has("batch_dims")) return int64_t{0};
  const auto& idx = ctx.input(1);
  int64_t bd = ctx.GetInt("batch_dims");
  const int64_t irank = static_cast<int64_t>(idx.dims.size());
  if (bd < 0) bd += irank;
  if (bd < 0 || bd > irank) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch,
                    "attribute 'batch_dims' {} is out of range for {} of rank {}",
                    ctx.GetInt("batch_dims"), ctx.InputName(1), irank);
  }
  return bd;
}

Status InferGather(GatherAxis from, OpContext& ctx) {
  const auto& x = ctx.input(0);
  const auto& idx = ctx.input(1);
  const int64_t rank = static_cast<int64_t>(x.dims.size());
  if (rank == 0) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} must have rank >= 1", ctx.InputName(0));
  }
  ACLSIM_ASSIGN_OR_RETURN(int64_t bd, GatherBatchDims(ctx));
  int64_t axis = 0;
  if (from == GatherAxis::kInput) {
    ACLSIM_ASSIGN_OR_RETURN(int64_t raw, ScalarInput(ctx, 2));
    ACLSIM_ASSIGN_OR_RETURN(axis, CheckAxis(ctx, raw, rank, true, 2, "axis"));
  } else if (from == GatherAxis::kAttr) {
    ACLSIM_ASSIGN_OR_RETURN(axis, CheckAxis(ctx, ctx.GetInt("axis"), rank, false, 0, "axis"));
  } else {
    axis = bd;
    if (axis >= rank) {
      return ctx.Fail(StatusCode::kOpAttrNotMatch,
                      "attribute 'batch_dims' {} leaves no axis to gather in {} of rank {}", bd,
                      ctx.InputName(0), rank);
    }
  }
  if (bd > axis) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch, "attribute 'batch_dims' {} is larger than axis {}",
                    bd, axis);
  }
  for (int64_t d = 0; d < bd; ++d) {
    if (x.dims[d] != idx.dims[d]) {
      return ctx.Fail(StatusCode::kOpInputNotMatch,
                      "{} shape {} and {} shape {} differ in batch dimension {} (batch_dims {})",
                      ctx.InputName(0), DimsStr(x.dims), ctx.InputName(1), DimsStr(idx.dims), d,
                      bd);
    }
  }
  std::vector<int64_t> out(x.dims.begin(), x.dims.begin() + axis);
  out.insert(out.end(), idx.dims.begin() + bd, idx.dims.end());
  out.insert(out.end(), x.dims.begin() + axis + 1, x.dims.end());
  ctx.SetOutput(0, x.dtype, std::move(out));
  return Status::Ok();
}

// Checks / normalises an index against `n`.
bool FixIndex(int64_t* index, int64_t n, bool negative_ok) {
  if (negative_ok && *index < 0) *index += n;
  return *index >= 0 && *index < n;
}

Status RunGather(GatherAxis from, RunContext& ctx) {
  const Tensor& x = ctx.in(0);
  const Tensor& idx = ctx.in(1);
  const Tensor& y = ctx.out(0);
  int64_t bd = ctx.Has("batch_dims") ? ctx.GetInt("batch_dims") : 0;
  if (bd < 0) bd += idx.rank();
  int64_t axis = bd;
  if (from == GatherAxis::kInput) axis = NormAxis(RunScalar(ctx, 2), x.rank());
  if (from == GatherAxis::kAttr) axis = NormAxis(ctx.GetInt("axis"), x.rank());
  const bool negative_ok =
      ctx.Has("negative_index_support") && ctx.GetBool("negative_index_support");
  const size_t esize = DataTypeSize(x.dtype);
  const size_t ax = static_cast<size_t>(axis);
  const int64_t batch = Product(x.dims, 0, static_cast<size_t>(bd));
  const int64_t pre = Product(x.dims, static_cast<size_t>(bd), ax);
  const int64_t n = x.dims[ax];
  const int64_t inner = Product(x.dims, ax + 1);
  const int64_t per_batch = Product(idx.dims, static_cast<size_t>(bd));
  const auto indices = ReadInts(idx);
  const auto* src = static_cast<const uint8_t*>(x.data);
  auto* dst = static_cast<uint8_t*>(y.data);
  const size_t row = static_cast<size_t>(inner) * esize;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t p = 0; p < pre; ++p) {
      for (int64_t j = 0; j < per_batch; ++j) {
        const int64_t pos = b * per_batch + j;
        int64_t index = indices[static_cast<size_t>(pos)];
        if (!FixIndex(&index, n, negative_ok)) {
          return ctx.Fail(StatusCode::kInvalidParam,
                          "indices[{}] = {} is out of range for axis {} of size {}{}", pos,
                          indices[static_cast<size_t>(pos)], axis, n,
                          negative_ok ? "" : " (negative_index_support is false)");
        }
        const int64_t out_row = (b * pre + p) * per_batch + j;
        const int64_t in_row = (b * pre + p) * n + index;
        if (row != 0) {
          std::memcpy(dst + static_cast<size_t>(out_row) * row,
                      src + static_cast<size_t>(in_row) * row, row);
        }
      }
    }
  }
  return Status::Ok();
}

// Gathers read only the rows they gather (plus the indices), not all of x: an embedding
// lookup into a large table costs the looked-up rows.
driver::KernelWork GatherWork(const OpContext& ctx, const driver::DeviceProps& props,
                              uint32_t* blocks) {
  auto work = DefaultWork(ctx, props, blocks);
  uint64_t read = std::min<uint64_t>(ctx.input(0).ByteSize(), ctx.output(0).ByteSize());
  for (size_t i = 1; i < ctx.num_inputs(); ++i) {
    if (ctx.has_input(i)) read += ctx.input(i).ByteSize();
  }
  work.gm_read_bytes = read;
  work.ub_bytes = read + work.gm_write_bytes;
  return work;
}

OpDef GatherOp(std::string type, GatherAxis from) {
  OpDef def;
  def.type = std::move(type);
  def.inputs = {In("x", AllTypes()), In("indices", IndexTypes())};
  if (from == GatherAxis::kInput) {
    def.inputs.push_back(In("axis", IndexTypes()));
    def.value_inputs = {2};
  }
  def.outputs = {Out("y", AllTypes())};
  if (from == GatherAxis::kAttr) {
    def.attrs = {ReqAttr("axis", AttrType::kInt)};
  } else {
    if (from == GatherAxis::kBatchDims) {
      def.attrs.push_back(OptAttr("validate_indices", AttrType::kBool, true));
    }
    def.attrs.push_back(OptAttr("batch_dims", AttrType::kInt, int64_t{0}));
    def.attrs.push_back(OptAttr("is_preprocessed", AttrType::kBool, false));
    def.attrs.push_back(OptAttr("negative_index_support", AttrType::kBool, false));
  }
  def.infer = [from](OpContext& ctx) { return InferGather(from, ctx); };
  def.run = [from](RunContext& ctx) { return RunGather(from, ctx); };
  def.work = GatherWork;
  return def;
}

OpDef GatherElementsOp() {
  OpDef def;
  def.type = "GatherElements";
  def.inputs = {In("x", AllTypes()), In("index", IndexTypes())};
  def.outputs = {Out("y", AllTypes())};
  def.attrs = {OptAttr("dim", AttrType::kInt, int64_t{0})};
  def.infer = [](OpContext& ctx) -> Status {
    const auto& x = ctx.input(0);
    const auto& idx = ctx.input(1);
    const int64_t rank = static_cast<int64_t>(x.dims.size());
    if (idx.dims.size() != x.dims.size()) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} has rank {} but {} has rank {}",
                      ctx.InputName(1), idx.dims.size(), ctx.InputName(0), rank);
    }
    ACLSIM_ASSIGN_OR_RETURN(int64_t dim, CheckAxis(ctx, ctx.GetInt("dim"), rank, false, 0, "dim"));
    for (int64_t d = 0; d < rank; ++d) {
      if (d != dim && idx.dims[d] > x.dims[d]) {
        return ctx.Fail(StatusCode::kOpInputNotMatch,
                        "{} shape {} is larger than {} shape {} in dimension {}", ctx.InputName(1),
                        DimsStr(idx.dims), ctx.InputName(0), DimsStr(x.dims), d);
      }
    }
    ctx.SetOutput(0, x.dtype, idx.dims);
    return Status::Ok();
  };
  def.run = [](RunContext& ctx) -> Status {
    const Tensor& x = ctx.in(0);
    const Tensor& idx = ctx.in(1);
    const Tensor& y = ctx.out(0);
    const size_t rank = x.dims.size();
    const size_t dim = static_cast<size_t>(NormAxis(ctx.GetInt("dim"), x.rank()));
    const size_t esize = DataTypeSize(x.dtype);
    const auto xs = Strides(x.dims);
    const auto is = Strides(idx.dims);
    const auto indices = ReadInts(idx);
    const int64_t total = idx.numel();
    const int64_t n = rank == 0 ? 1 : x.dims[dim];
    const auto* src = static_cast<const uint8_t*>(x.data);
    auto* dst = static_cast<uint8_t*>(y.data);
    for (int64_t o = 0; o < total; ++o) {
      int64_t index = indices[static_cast<size_t>(o)];
      if (!FixIndex(&index, n, true)) {
        return ctx.Fail(StatusCode::kInvalidParam,
                        "index[{}] = {} is out of range for dim {} of size {}", o,
                        indices[static_cast<size_t>(o)], dim, n);
      }
      int64_t rest = o;
      int64_t offset = 0;
      for (size_t d = 0; d < rank; ++d) {
        const int64_t coord = rest / is[d];
        rest %= is[d];
        offset += (d == dim ? index : coord) * xs[d];
      }
      std::memcpy(dst + static_cast<size_t>(o) * esize, src + static_cast<size_t>(offset) * esize,
                  esize);
    }
    return Status::Ok();
  };
  def.work = GatherWork;
  return def;
}

OpDef GatherNdOp() {
  OpDef def;
  def.type = "GatherNd";
  def.inputs = {In("x", AllTypes()), In("indices", IndexTypes())};
  def.outputs = {Out("y", AllTypes())};
  def.attrs = {OptAttr("negative_index_support", AttrType::kBool, false)};
  def.infer = [](OpContext& ctx) -> Status {
    const auto& x = ctx.input(0);
    const auto& idx = ctx.input(1);
    if (idx.dims.empty()) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} must have rank >= 1", ctx.InputName(1));
    }
    const int64_t q = idx.dims.back();
    if (q > static_cast<int64_t>(x.dims.size())) {
      return ctx.Fail(StatusCode::kOpInputNotMatch,
                      "{} last dimension {} is larger than the rank {} of {}", ctx.InputName(1), q,
                      x.dims.size(), ctx.InputName(0));
    }
    std::vector<int64_t> out(idx.dims.begin(), idx.dims.end() - 1);
    out.insert(out.end(), x.dims.begin() + q, x.dims.end());
    ctx.SetOutput(0, x.dtype, std::move(out));
    return Status::Ok();
  };
  def.run = [](RunContext& ctx) -> Status {
    const Tensor& x = ctx.in(0);
    const Tensor& idx = ctx.in(1);
    const Tensor& y = ctx.out(0);
    const bool negative_ok = ctx.GetBool("negative_index_support");
    const size_t q = static_cast<size_t>(idx.dims.back());
    const auto xs = Strides(x.dims);
    const size_t esize = DataTypeSize(x.dtype);
    const size_t slice = static_cast<size_t>(Product(x.dims, q)) * esize;
    const int64_t tuples = Product(idx.dims, 0, idx.dims.size() - 1);
    const auto indices = ReadInts(idx);
    const auto* src = static_cast<const uint8_t*>(x.data);
    auto* dst = static_cast<uint8_t*>(y.data);
    for (int64_t t = 0; t < tuples; ++t) {
      int64_t offset = 0;
      for (size_t d = 0; d < q; ++d) {
        const size_t pos = static_cast<size_t>(t) * q + d;
        int64_t index = indices[pos];
        if (!FixIndex(&index, x.dims[d], negative_ok)) {
          return ctx.Fail(StatusCode::kInvalidParam,
                          "indices[{}] = {} is out of range for dimension {} of size {}{}", pos,
                          indices[pos], d, x.dims[d],
                          negative_ok ? "" : " (negative_index_support is false)");
        }
        offset += index * xs[d];
      }
      if (slice != 0) {
        std::memcpy(dst + static_cast<size_t>(t) * slice, src + static_cast<size_t>(offset) * esize,
                    slice);
      }
    }
    return Status::Ok();
  };
  def.work = GatherWork;
  return def;
}

// OneHot(x, depth, on_value, off_value) / OneHotD(x, on_value, off_value; depth attr).
OpDef OneHotOp(bool depth_attr) {
  OpDef def;
  def.type = depth_attr ? "OneHotD" : "OneHot";
  const std::vector<DataType> index_types = {DataType::kUint8, DataType::kInt32, DataType::kInt64};
  def.inputs = {In("x", index_types)};
  if (!depth_attr) {
    def.inputs.push_back(In("depth", IndexTypes()));
    def.value_inputs = {1};
  }
  def.inputs.push_back(In("on_value", AllTypes()));
  def.inputs.push_back(In("off_value", AllTypes()));
  def.outputs = {Out("y", AllTypes())};
  if (depth_attr) def.attrs.push_back(ReqAttr("depth", AttrType::kInt));
  def.attrs.push_back(OptAttr("axis", AttrType::kInt, int64_t{-1}));
  def.infer = [depth_attr](OpContext& ctx) -> Status {
    const size_t on = depth_attr ? 1 : 2;
    const size_t off = on + 1;
    int64_t depth = 0;
    if (depth_attr) {
      depth = ctx.GetInt("depth");
      if (depth < 0) {
        return ctx.Fail(StatusCode::kOpAttrNotMatch, "attribute 'depth' {} is negative", depth);
      }
    } else {
      ACLSIM_ASSIGN_OR_RETURN(depth, ScalarInput(ctx, 1));
      if (depth < 0) {
        return ctx.Fail(StatusCode::kOpInputNotMatch, "{} value {} is negative", ctx.InputName(1),
                        depth);
      }
    }
    for (size_t i : {on, off}) {
      if (ctx.input(i).ElementCount() != 1) {
        return ctx.Fail(StatusCode::kOpInputNotMatch, "{} must be a scalar (shape {})",
                        ctx.InputName(i), DimsStr(ctx.input(i).dims));
      }
    }
    if (ctx.input(on).dtype != ctx.input(off).dtype) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} is {} but {} is {}; they must match",
                      ctx.InputName(on), DataTypeName(ctx.input(on).dtype), ctx.InputName(off),
                      DataTypeName(ctx.input(off).dtype));
    }
    const auto& x = ctx.input(0);
    const int64_t rank = static_cast<int64_t>(x.dims.size());
    const int64_t axis = ctx.GetInt("axis");
    if (axis < -1 || axis > rank) {
      return ctx.Fail(StatusCode::kOpAttrNotMatch,
                      "attribute 'axis' {} is out of range [-1, {}] for {} of rank {}", axis, rank,
                      ctx.InputName(0), rank);
    }
    std::vector<int64_t> out = x.dims;
    out.insert(out.begin() + (axis < 0 ? rank : axis), depth);
    ctx.SetOutput(0, ctx.input(on).dtype, std::move(out));
    return Status::Ok();
  };
  def.run = [depth_attr](RunContext& ctx) -> Status {
    const size_t on = depth_attr ? 1 : 2;
    const Tensor& x = ctx.in(0);
    const Tensor& y = ctx.out(0);
    const int64_t depth = depth_attr ? ctx.GetInt("depth") : RunScalar(ctx, 1);
    const int64_t raw_axis = ctx.GetInt("axis");
    const size_t axis = static_cast<size_t>(raw_axis < 0 ? x.rank() : raw_axis);
    const int64_t outer = Product(x.dims, 0, axis);
    const int64_t inner = Product(x.dims, axis);
    const size_t esize = DataTypeSize(y.dtype);
    const auto* on_bytes = static_cast<const uint8_t*>(ctx.in(on).data);
    const auto* off_bytes = static_cast<const uint8_t*>(ctx.in(on + 1).data);
    const auto indices = ReadInts(x);
    auto* dst = static_cast<uint8_t*>(y.data);
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t d = 0; d < depth; ++d) {
        for (int64_t i = 0; i < inner; ++i) {
          const bool hot = indices[static_cast<size_t>(o * inner + i)] == d;
          std::memcpy(dst + static_cast<size_t>((o * depth + d) * inner + i) * esize,
                      hot ? on_bytes : off_bytes, esize);
        }
      }
    }
    return Status::Ok();
  };
  return def;
}

void RegisterGatherFamily(OpRegistry& registry) {
  registry.Add(GatherOp("GatherV2", GatherAxis::kInput));
  registry.Add(GatherOp("GatherV2D", GatherAxis::kAttr));
  registry.Add(GatherOp("Gather", GatherAxis::kBatchDims));
  registry.Add(GatherElementsOp());
  registry.Add(GatherNdOp());
  registry.Add(OneHotOp(false));
  registry.Add(OneHotOp(true));
}

}  // namespace
}  // namespace select

void RegisterGatherOps(OpRegistry& registry) { select::RegisterGatherFamily(registry); }

}  // namespace aclsim::ops
