// Ops the operator API of language models needs (aclnn: RmsNorm, RotaryPositionEmbedding,
// Tril / Triu, InplaceIndexCopy), with the prototypes of CANN's ops-nn / ops-transformer:
//
//   RmsNorm                  x, gamma -> y, rstd; epsilon:Float=1e-6
//                            rstd = 1/sqrt(mean(x^2 over gamma's trailing dims) + epsilon)
//                            (f32, x's dims with those dims set to 1); y = x * rstd * gamma
//   RotaryPositionEmbedding  x, cos, sin -> y; mode:Int=0
//                            y = x * cos + rotate(x) * sin, cos/sin broadcast to x; mode 0
//                            "half" (rotate_half: [-x2, x1]), 1 "interleave" ((-x1, x0) pairs)
//   Tril / Triu              x -> y; diagonal:Int=0 (lower / upper triangle of the last two dims)
//   InplaceIndexCopy         x, indices, updates -> y; dim:Int=0
//                            y = x with y.select(dim, indices[i]) = updates.select(dim, i); in
//                            place when y is x's buffer (the aclnn executor binds it so)
//
// Floating results are computed in double and rounded once.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "ops/kernels.h"
#include "ops/op_group.h"

namespace aclsim::ops {
namespace {

// --- RmsNorm -------------------------------------------------------------------------------

Status InferRmsNorm(OpContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  const TensorDesc& gamma = ctx.input(1);
  const size_t r = gamma.dims.size();
  if (r == 0 || r > x.dims.size() ||
      !std::equal(gamma.dims.begin(), gamma.dims.end(), x.dims.end() - static_cast<long>(r))) {
    return ctx.Fail(StatusCode::kOpInputNotMatch,
                    "gamma of shape {} must be the trailing dims of x of shape {}",
                    DimsStr(gamma.dims), DimsStr(x.dims));
  }
  std::vector<int64_t> stat = x.dims;
  for (size_t k = x.dims.size() - r; k < x.dims.size(); ++k) stat[k] = 1;
  ctx.SetOutput(0, x.dtype, x.dims);
  if (ctx.num_outputs() > 1) ctx.SetOutput(1, DataType::kFloat, stat);
  return Status::Ok();
}

Status RunRmsNorm(RunContext& ctx) {
  const Tensor& x = ctx.in(0);
  const std::vector<double> values = ToDoubles(x);
  const std::vector<double> gamma = ToDoubles(ctx.in(1));
  const double eps = ctx.GetFloat("epsilon");
  const auto inner = static_cast<int64_t>(gamma.size());
  const int64_t rows = inner == 0 ? 0 : static_cast<int64_t>(values.size()) / inner;
  std::vector<double> y(values.size());
  std::vector<double> rstd(static_cast<size_t>(rows));
  for (int64_t o = 0; o < rows; ++o) {
    const double* row = values.data() + o * inner;
    double squares = 0;
    for (int64_t i = 0; i < inner; ++i) squares += row[i] * row[i];
    const double inv = 1.0 / std::sqrt(squares / static_cast<double>(inner) + eps);
    for (int64_t i = 0; i < inner; ++i) {
      y[static_cast<size_t>(o * inner + i)] = row[i] * inv * gamma[static_cast<size_t>(i)];
    }
    rstd[static_cast<size_t>(o)] = inv;
  }
  FromDoubles(y, ctx.out(0));
  if (ctx.num_outputs() > 1 && ctx.out(1).data != nullptr) FromDoubles(rstd, ctx.out(1));
  return Status::Ok();
}

// --- RotaryPositionEmbedding ---------------------------------------------------------------

Status InferRope(OpContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  const int64_t mode = ctx.GetInt("mode");
  if (mode != 0 && mode != 1) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch, "mode {} is not 0 (half) or 1 (interleave)", mode);
  }
  if (x.dims.empty() || x.dims.back() % 2 != 0) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "x of shape {} needs an even last dim",
                    DimsStr(x.dims));
  }
  for (size_t i = 1; i < 3; ++i) {
    const TensorDesc& t = ctx.input(i);
    if (t.dtype != x.dtype) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} is {} but x is {}", ctx.InputName(i),
                      DataTypeName(t.dtype), DataTypeName(x.dtype));
    }
    auto shape = BroadcastDims(x.dims, t.dims);
    if (!shape.ok() || *shape != x.dims) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} of shape {} does not broadcast to x {}",
                      ctx.InputName(i), DimsStr(t.dims), DimsStr(x.dims));
    }
  }
  ctx.SetOutput(0, x.dtype, x.dims);
  return Status::Ok();
}

Status RunRope(RunContext& ctx) {
  const Tensor& x = ctx.in(0);
  const std::vector<double> xv = ToDoubles(x);
  const std::vector<double> cosv = ToDoubles(ctx.in(1));
  const std::vector<double> sinv = ToDoubles(ctx.in(2));
  const bool interleave = ctx.GetInt("mode") == 1;
  const int64_t d = x.dims.back();
  const int64_t half = d / 2;
  const auto cs = BroadcastStrides(ctx.in(1).dims, x.dims);
  const auto ss = BroadcastStrides(ctx.in(2).dims, x.dims);
  const auto xs = Strides(x.dims);
  std::vector<double> y(xv.size());
  for (size_t o = 0; o < xv.size(); ++o) {
    int64_t rest = static_cast<int64_t>(o);
    int64_t ci = 0;
    int64_t si = 0;
    for (size_t k = 0; k < x.dims.size(); ++k) {
      const int64_t idx = rest / xs[k];
      rest %= xs[k];
      ci += idx * cs[k];
      si += idx * ss[k];
    }
    const auto j = static_cast<int64_t>(o) % d;
    const auto base = static_cast<int64_t>(o) - j;
    double rotated = 0;
    if (interleave) {
      rotated = j % 2 == 0 ? -xv[static_cast<size_t>(base + j + 1)]
                           : xv[static_cast<size_t>(base + j - 1)];
    } else {
      rotated = j < half ? -xv[static_cast<size_t>(base + j + half)]
                         : xv[static_cast<size_t>(base + j - half)];
    }
    y[o] = xv[o] * cosv[static_cast<size_t>(ci)] + rotated * sinv[static_cast<size_t>(si)];
  }
  FromDoubles(y, ctx.out(0));
  return Status::Ok();
}

// --- Tril / Triu ---------------------------------------------------------------------------

Status InferTriangle(OpContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  if (x.dims.size() < 2) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "x of shape {} needs at least 2 dims",
                    DimsStr(x.dims));
  }
  ctx.SetOutput(0, x.dtype, x.dims);
  return Status::Ok();
}

Status RunTriangle(RunContext& ctx, bool lower) {
  const Tensor& x = ctx.in(0);
  Tensor& y = ctx.out(0);
  const size_t esize = DataTypeSize(x.dtype);
  const int64_t rows = x.dims[x.dims.size() - 2];
  const int64_t cols = x.dims.back();
  // Beyond the matrix every diagonal keeps all or nothing: clamped so r + diagonal cannot
  // overflow.
  const int64_t diagonal = std::clamp<int64_t>(ctx.GetInt("diagonal"), -rows - 1, cols + 1);
  const int64_t mats = rows * cols == 0 ? 0 : x.numel() / (rows * cols);
  const auto* src = static_cast<const uint8_t*>(x.data);
  auto* dst = static_cast<uint8_t*>(y.data);
  for (int64_t m = 0; m < mats; ++m) {
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t at = (m * rows + r) * cols;
      // Lower: keep columns c <= r + diagonal; upper: keep c >= r + diagonal.
      const int64_t edge = std::clamp<int64_t>(r + diagonal + (lower ? 1 : 0), 0, cols);
      const int64_t keep_begin = lower ? 0 : edge;
      const int64_t keep_end = lower ? edge : cols;
      // In place (dst == src) only the dropped parts change.
      if (keep_end > keep_begin && dst != src) {
        std::memcpy(dst + (at + keep_begin) * esize, src + (at + keep_begin) * esize,
                    static_cast<size_t>(keep_end - keep_begin) * esize);
      }
      const int64_t lead = keep_end > keep_begin ? keep_begin : cols;
      std::memset(dst + at * esize, 0, static_cast<size_t>(lead) * esize);
      if (keep_end > keep_begin) {
        std::memset(dst + (at + keep_end) * esize, 0, static_cast<size_t>(cols - keep_end) * esize);
      }
    }
  }
  return Status::Ok();
}

// --- InplaceIndexCopy ----------------------------------------------------------------------

struct IndexCopyShape {
  int64_t outer = 0;  // product of the dims before dim
  int64_t size = 0;   // x's dim
  int64_t count = 0;  // indices
  int64_t inner = 0;  // product of the dims after dim
};

Result<int64_t> IndexCopyDim(const OpContext& ctx) {
  return NormalizeAxis(ctx, ctx.GetInt("dim"), static_cast<int64_t>(ctx.input(0).dims.size()),
                       "dim");
}

Status InferIndexCopy(OpContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  const TensorDesc& indices = ctx.input(1);
  const TensorDesc& updates = ctx.input(2);
  ACLSIM_ASSIGN_OR_RETURN(int64_t dim, IndexCopyDim(ctx));
  if (indices.dims.size() > 1) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "indices of shape {} must be 0-D or 1-D",
                    DimsStr(indices.dims));
  }
  std::vector<int64_t> expect = x.dims;
  if (!expect.empty()) expect[static_cast<size_t>(dim)] = indices.ElementCount();
  const bool scalar_ok = x.dims.empty() && updates.ElementCount() == 1;
  if (updates.dtype != x.dtype || (updates.dims != expect && !scalar_ok)) {
    return ctx.Fail(StatusCode::kOpInputNotMatch,
                    "updates is {} of shape {}; x {} of shape {} with {} indices needs {}",
                    DataTypeName(updates.dtype), DimsStr(updates.dims), DataTypeName(x.dtype),
                    DimsStr(x.dims), indices.ElementCount(), DimsStr(expect));
  }
  ctx.SetOutput(0, x.dtype, x.dims);
  return Status::Ok();
}

Status RunIndexCopy(RunContext& ctx) {
  const Tensor& x = ctx.in(0);
  const std::vector<int64_t> indices = ctx.InputInts(1);
  const Tensor& updates = ctx.in(2);
  const size_t esize = DataTypeSize(x.dtype);
  const auto rank = static_cast<size_t>(x.rank());
  int64_t dim = ctx.GetInt("dim");
  if (rank > 0 && dim < 0) dim += static_cast<int64_t>(rank);
  const auto d = static_cast<size_t>(std::max<int64_t>(dim, 0));
  IndexCopyShape s;
  s.outer = rank == 0 ? 1 : Product(x.dims, 0, d);
  s.size = rank == 0 ? 1 : x.dims[d];
  s.inner = rank == 0 ? 1 : Product(x.dims, d + 1);
  s.count = static_cast<int64_t>(indices.size());
  for (int64_t index : indices) {
    if (index < -s.size || index >= s.size) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "index {} is out of range for a dim of {}",
                      index, s.size);
    }
  }
  auto* out = static_cast<uint8_t*>(ctx.out(0).data);
  if (out != x.data) std::memmove(out, x.data, static_cast<size_t>(x.numel()) * esize);
  const auto* src = static_cast<const uint8_t*>(updates.data);
  const size_t run = static_cast<size_t>(s.inner) * esize;
  for (int64_t o = 0; o < s.outer; ++o) {
    for (int64_t i = 0; i < s.count; ++i) {
      const int64_t at = indices[static_cast<size_t>(i)] < 0
                             ? indices[static_cast<size_t>(i)] + s.size
                             : indices[static_cast<size_t>(i)];
      std::memmove(out + static_cast<size_t>((o * s.size + at) * s.inner) * esize,
                   src + static_cast<size_t>((o * s.count + i) * s.inner) * esize, run);
    }
  }
  return Status::Ok();
}

// In place: the kernel moves the updates (and reads the indices), not the whole tensor.
driver::KernelWork IndexCopyWork(const OpContext& ctx, const driver::DeviceProps& props,
                                 uint32_t* blocks) {
  driver::KernelWork work = DefaultWork(ctx, props, blocks);
  const uint64_t moved = ctx.input(2).ByteSize();
  work.gm_read_bytes = moved + ctx.input(1).ByteSize();
  work.gm_write_bytes = moved;
  work.ub_bytes = 2 * moved;
  return work;
}

}  // namespace

void RegisterLlmOps(OpRegistry& registry) {
  const std::vector<DataType> floats = {DataType::kFloat, DataType::kFloat16, DataType::kBf16};

  OpDef rms_norm;
  rms_norm.type = "RmsNorm";
  rms_norm.inputs = {In("x", floats), In("gamma", floats)};
  rms_norm.outputs = {Out("y", floats), Out("rstd", {DataType::kFloat})};
  rms_norm.attrs = {OptAttr("epsilon", AttrType::kFloat, 1e-6f)};
  rms_norm.ops_per_element = 4;
  rms_norm.infer = InferRmsNorm;
  rms_norm.run = RunRmsNorm;
  registry.Add(std::move(rms_norm));

  OpDef rope;
  rope.type = "RotaryPositionEmbedding";
  rope.inputs = {In("x", floats), In("cos", floats), In("sin", floats)};
  rope.outputs = {Out("y", floats)};
  rope.attrs = {OptAttr("mode", AttrType::kInt, int64_t{0})};
  rope.ops_per_element = 4;
  rope.infer = InferRope;
  rope.run = RunRope;
  registry.Add(std::move(rope));

  for (const bool lower : {true, false}) {
    OpDef tri;
    tri.type = lower ? "Tril" : "Triu";
    tri.inputs = {In("x", AllTypes())};
    tri.outputs = {Out("y", AllTypes())};
    tri.attrs = {OptAttr("diagonal", AttrType::kInt, int64_t{0})};
    tri.infer = InferTriangle;
    tri.run = [lower](RunContext& ctx) { return RunTriangle(ctx, lower); };
    registry.Add(std::move(tri));
  }

  OpDef index_copy;
  index_copy.type = "InplaceIndexCopy";
  index_copy.inputs = {In("x", AllTypes()), In("indices", IndexTypes()), In("updates", AllTypes())};
  index_copy.outputs = {Out("y", AllTypes())};
  index_copy.attrs = {OptAttr("dim", AttrType::kInt, int64_t{0})};
  index_copy.infer = InferIndexCopy;
  index_copy.run = RunIndexCopy;
  index_copy.work = IndexCopyWork;
  registry.Add(std::move(index_copy));
}

}  // namespace aclsim::ops
