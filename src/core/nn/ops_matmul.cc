// Matrix products of aclnn (Mm, BatchMatMul, Matmul, Mv) over the op library's cube kernels,
// with cubeMathType's precision rules (aclnn_api.md 3.7). A transposed operand given as a
// strided view (how frameworks pass weights) goes to the kernel as its contiguous buffer with
// the transpose flag, so it costs no copy.
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>

#include "common/checked_size.h"
#include "core/nn/builder.h"
#include "core/nn/checks.h"
#include "core/nn/ops.h"
#include "core/nn/promote.h"
#include "ops/formats.h"

namespace aclsim::core::nn {
namespace {

using DT = ops::DataType;

// The rank rule of each kind; an error names the operand.
Status CheckRanks(const Builder& b, MatmulKind kind, const Value& x, const Value& y,
                  const char* y_what) {
  auto refuse = [&](const char* what, const Value& v, const char* rule) {
    return Err(StatusCode::kInvalidParam, "{}: {} of shape {} must be {}", b.name(), what,
               ShapeString(v.dims), rule);
  };
  switch (kind) {
    case MatmulKind::kMm:
      if (x.rank() != 2) return refuse("self", x, "2-D");
      if (y.rank() != 2) return refuse(y_what, y, "2-D");
      break;
    case MatmulKind::kBatch:
      if (x.rank() != 3) return refuse("self", x, "3-D");
      if (y.rank() != 3) return refuse(y_what, y, "3-D");
      if (x.dims[0] != y.dims[0]) {
        return Err(StatusCode::kInvalidParam, "{}: self {} and mat2 {} have different batch sizes",
                   b.name(), ShapeString(x.dims), ShapeString(y.dims));
      }
      break;
    case MatmulKind::kMv:
      if (x.rank() != 2) return refuse("self", x, "2-D");
      if (y.rank() != 1) return refuse(y_what, y, "1-D");
      break;
    case MatmulKind::kMatmul:
      if (x.rank() < 1 || x.rank() > 6) return refuse("self", x, "1-D to 6-D");
      if (y.rank() < 1 || y.rank() > 6) return refuse(y_what, y, "1-D to 6-D");
      break;
  }
  return Status::Ok();
}

// torch.matmul's result shape (1-D operands promoted and their dim dropped); nullopt when K
// differs or the batch dims do not broadcast.
std::optional<std::vector<int64_t>> ProductShape(const Value& x, const Value& y) {
  const bool vx = x.rank() == 1;
  const bool vy = y.rank() == 1;
  const int64_t kx = x.dims.back();
  const int64_t ky = vy ? y.dims[0] : y.dims[y.rank() - 2];
  if (kx != ky) return std::nullopt;
  const std::vector<int64_t> bx(x.dims.begin(), x.dims.end() - (vx ? 1 : 2));
  const std::vector<int64_t> by(y.dims.begin(), y.dims.end() - (vy ? 1 : 2));
  auto shape = BroadcastShape(bx, by);
  if (!shape) return std::nullopt;
  if (!vx) shape->push_back(x.dims[x.rank() - 2]);
  if (!vy) shape->push_back(y.dims.back());
  return shape;
}

// The dtype the cube computes in for `cube_math_type`, or an error for a combination the
// operator refuses.
Result<DT> ComputeType(const Builder& b, MatmulKind kind, DT promoted, int8_t cube_math_type) {
  const bool batch = kind == MatmulKind::kBatch;
  switch (cube_math_type) {
    case 0:  // KEEP_DTYPE
    case 1:  // ALLOW_FP32_DOWN_PRECISION: f32 as HF32 on the card
    case 4:  // USE_FP32_ADD
      return promoted;
    case 2:  // USE_FP16
      if (promoted == DT::kBf16 && !batch) {
        return Err(StatusCode::kInvalidParam,
                   "{}: cubeMathType 2 (USE_FP16) is not supported for bfloat16 inputs", b.name());
      }
      return promoted == DT::kFloat ? DT::kFloat16 : promoted;
    case 3:  // USE_HF32
      if (promoted != DT::kFloat && !batch) {
        return Err(StatusCode::kInvalidParam,
                   "{}: cubeMathType 3 (USE_HF32) needs float32 inputs, not {}", b.name(),
                   ops::DataTypeName(promoted));
      }
      return promoted;
    default:
      return Err(
          StatusCode::kInvalidParam,
          "{}: cubeMathType is {}; it must be 0 (KEEP_DTYPE), 1 (ALLOW_FP32_DOWN_PRECISION), "
          "2 (USE_FP16), 3 (USE_HF32) or 4 (USE_FP32_ADD)",
          b.name(), cube_math_type);
  }
}

// An operand as the kernel takes it: `value` itself, or -- when it is the transpose of a
// contiguous buffer in its last two dims -- that buffer, with `transposed` set.
Value Operand(const Builder& b, const Value& value, bool* transposed) {
  *transposed = false;
  if (value.rank() < 2 || value.contiguous() || value.kind != Ref::Kind::kSlot) return value;
  std::vector<int64_t> dims = value.dims;
  std::vector<int64_t> strides = value.strides;
  const size_t r = value.rank();
  std::swap(dims[r - 1], dims[r - 2]);
  std::swap(strides[r - 1], strides[r - 2]);
  Value buffer = b.View(value, dims, strides, 0);
  if (!buffer.contiguous()) return value;
  *transposed = true;
  return buffer;
}

// x @ y on the cube in `compute` (x, y validated; `shape` the product's): a transposed view
// read in place, a FRACTAL_NZ y read as its fractal blocks; K = 0 gives zeros.
Result<Value> CubeProduct(Builder& b, MatmulKind kind, const Value& x, const Value& y,
                          const std::vector<int64_t>& shape, DT compute, const char* y_what) {
  const int64_t k = x.dims.back();
  if (k == 0) {  // an empty sum: zeros
    return b.Op1("Fill", {b.Constant(0, compute)}, {}, {{0, shape}});
  }
  bool tx = false;
  bool ty = false;
  Value a = Operand(b, x, &tx);
  Value c = Operand(b, y, &ty);
  if (y.format == ops::Format::kFractalNz) {
    // A weight TransMatmulWeight converted: the buffer holds the fractal blocks of the matrix
    // the view (or its transpose) reads contiguously.
    if (!c.contiguous() || c.kind != Ref::Kind::kSlot) {
      return Err(StatusCode::kInvalidParam,
                 "{}: a FRACTAL_NZ {} must be a contiguous or transposed view of its buffer",
                 b.name(), y_what);
    }
    c.format = ops::Format::kNd;
    c.storage_format = ops::Format::kFractalNz;
  }
  ACLSIM_ASSIGN_OR_RETURN(a, b.Cast(a, compute));
  ACLSIM_ASSIGN_OR_RETURN(c, b.Cast(c, compute));
  if (kind == MatmulKind::kMm) {
    return b.Op1("MatMul", {a, c}, {{"transpose_x1", tx}, {"transpose_x2", ty}});
  }
  return b.Op1("BatchMatMulV2", {a, c}, {{"adj_x1", tx}, {"adj_x2", ty}});
}

}  // namespace

Result<ExecutorPtr> MatMul(const char* name, MatmulKind kind, const NnTensor* self,
                           const NnTensor* mat2, const NnTensor* out, int8_t cube_math_type) {
  Builder b(name);
  const char* y_what = kind == MatmulKind::kMv ? "vec" : "mat2";
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value y, b.InputFractalNz(mat2, y_what));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  for (const auto& [v, what] :
       {std::pair{&x, "self"}, std::pair{&y, y_what}, std::pair{&z, "out"}}) {
    if (!checks::IsNnFloat(v->dtype)) {
      return Err(StatusCode::kInvalidParam, "{}: {} is {}; it must be float32, float16 or bfloat16",
                 b.name(), what, ops::DataTypeName(v->dtype));
    }
  }
  ACLSIM_RETURN_IF_ERROR(CheckRanks(b, kind, x, y, y_what));
  if ((x.dtype == DT::kBf16) != (y.dtype == DT::kBf16)) {
    return Err(StatusCode::kInvalidParam, "{}: self is {} and {} is {}; bfloat16 does not mix",
               b.name(), ops::DataTypeName(x.dtype), y_what, ops::DataTypeName(y.dtype));
  }
  const auto shape = ProductShape(x, y);
  if (!shape) {
    return Err(StatusCode::kInvalidParam, "{}: self {} and {} {} cannot be multiplied", b.name(),
               ShapeString(x.dims), y_what, ShapeString(y.dims));
  }
  if (*shape != z.dims) {
    return Err(StatusCode::kInvalidParam, "{}: the product has shape {} but out has {}", b.name(),
               ShapeString(*shape), ShapeString(z.dims));
  }
  const DT promoted = *Promote(x.dtype, y.dtype);
  ACLSIM_ASSIGN_OR_RETURN(DT compute, ComputeType(b, kind, promoted, cube_math_type));
  if (z.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(Value product, CubeProduct(b, kind, x, y, *shape, compute, y_what));
  ACLSIM_RETURN_IF_ERROR(b.Store(product, z));
  return b.Finish();
}

Result<ExecutorPtr> AddMatMul(const char* name, AddMatmulKind kind, const NnTensor* self,
                              const NnTensor* mat1, const NnTensor* mat2, const NnScalar* beta,
                              const NnScalar* alpha, const NnTensor* out, int8_t cube_math_type) {
  Builder b(name);
  const bool in_place = out == nullptr;
  const bool batched = kind != AddMatmulKind::kAddmm;
  const char* x_what = batched ? "batch1" : "mat1";
  const char* y_what = batched ? "batch2" : "mat2";
  Value c;
  if (in_place) {
    ACLSIM_ASSIGN_OR_RETURN(c, b.InOut(self, "selfRef"));
  } else {
    ACLSIM_ASSIGN_OR_RETURN(c, b.Input(self, "self"));
  }
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(mat1, x_what));
  ACLSIM_ASSIGN_OR_RETURN(Value y, b.Input(mat2, y_what));
  Value z = c;
  if (!in_place) {
    ACLSIM_ASSIGN_OR_RETURN(z, b.Output(out, "out"));
  }
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (beta == nullptr || alpha == nullptr) {
    return Err(StatusCode::kNullPointer, "{}: {} is NULL", b.name(),
               beta == nullptr ? "beta" : "alpha");
  }
  const char* self_what = in_place ? "selfRef" : "self";
  for (const auto& [v, what] : {std::pair{&c, self_what}, std::pair{&x, x_what},
                                std::pair{&y, y_what}, std::pair{&z, "out"}}) {
    if (!checks::IsNnFloat(v->dtype)) {
      return Err(StatusCode::kInvalidParam, "{}: {} is {}; it must be float32, float16 or bfloat16",
                 b.name(), what, ops::DataTypeName(v->dtype));
    }
  }
  const size_t rank = batched ? 3 : 2;
  if (x.rank() != rank || y.rank() != rank) {
    return Err(StatusCode::kInvalidParam, "{}: {} {} and {} {} must be {}-D", b.name(), x_what,
               ShapeString(x.dims), y_what, ShapeString(y.dims), rank);
  }
  if ((x.dtype == DT::kBf16) != (y.dtype == DT::kBf16)) {
    return Err(StatusCode::kInvalidParam, "{}: {} is {} and {} is {}; bfloat16 does not mix",
               b.name(), x_what, ops::DataTypeName(x.dtype), y_what, ops::DataTypeName(y.dtype));
  }
  auto product_shape = ProductShape(x, y);
  if (!product_shape || (batched && x.dims[0] != y.dims[0])) {
    return Err(StatusCode::kInvalidParam, "{}: {} {} and {} {} cannot be multiplied", b.name(),
               x_what, ShapeString(x.dims), y_what, ShapeString(y.dims));
  }
  // Addbmm sums the batch of products: a 2-D result.
  std::vector<int64_t> shape = *product_shape;
  if (kind == AddMatmulKind::kAddbmm) shape.erase(shape.begin());
  if (shape != z.dims) {
    return Err(StatusCode::kInvalidParam, "{}: the result has shape {} but {} has {}", b.name(),
               ShapeString(shape), in_place ? "selfRef" : "out", ShapeString(z.dims));
  }
  const auto joined = BroadcastShape(c.dims, shape);
  if (c.rank() > rank || !joined || *joined != shape) {
    return Err(StatusCode::kInvalidParam, "{}: {} of shape {} does not broadcast to {}", b.name(),
               self_what, ShapeString(c.dims), ShapeString(shape));
  }
  const DT promoted = *Promote(x.dtype, y.dtype);
  const MatmulKind cube = batched ? MatmulKind::kBatch : MatmulKind::kMm;
  ACLSIM_ASSIGN_OR_RETURN(DT compute, ComputeType(b, cube, promoted, cube_math_type));
  if (z.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(Value product,
                          CubeProduct(b, cube, x, y, *product_shape, compute, y_what));
  // The epilogue in f32, rounded once into out.
  ACLSIM_ASSIGN_OR_RETURN(Value r, b.Cast(product, DT::kFloat));
  if (kind == AddMatmulKind::kAddbmm) {
    ACLSIM_ASSIGN_OR_RETURN(
        r, b.Op1("ReduceSumD", {r}, {{"axes", std::vector<int64_t>{0}}, {"keep_dims", false}}));
  }
  const double a = alpha->ToDouble();
  const double bt = beta->ToDouble();
  if (a != 1.0) {
    ACLSIM_ASSIGN_OR_RETURN(r, b.Op1("Mul", {r, b.Constant(a, DT::kFloat)}));
  }
  if (bt != 0.0) {  // beta 0: self is not read (its NaN and inf do not propagate)
    ACLSIM_ASSIGN_OR_RETURN(Value t, b.Cast(c, DT::kFloat));
    if (bt != 1.0) {
      ACLSIM_ASSIGN_OR_RETURN(t, b.Op1("Mul", {t, b.Constant(bt, DT::kFloat)}));
    }
    ACLSIM_ASSIGN_OR_RETURN(r, b.Op1("Add", {r, t}));
  }
  ACLSIM_RETURN_IF_ERROR(b.Store(r, z));
  return b.Finish();
}

Result<uint64_t> MatmulWeightElements(const std::vector<int64_t>& shape, ops::DataType dtype,
                                      bool v2) {
  const size_t min_rank = 2;
  const size_t max_rank = v2 ? 6 : 3;
  if (shape.size() < min_rank || shape.size() > max_rank) {
    return Err(StatusCode::kInvalidParam, "tensorShape {} must have {} to {} dims",
               ShapeString(shape), min_rank, max_rank);
  }
  for (int64_t d : shape) {
    if (d < 0 || (v2 && d == 0)) {
      return Err(StatusCode::kInvalidParam, "tensorShape {} has a {} dim", ShapeString(shape),
                 d < 0 ? "negative" : "zero");
    }
  }
  // The last two dims padded to whole fractal blocks: 16 x 16 for f16/bf16, 16 x 32 for any
  // other dtype (int8's block; CANN applies it to every other dtype too).
  const bool half = dtype == DT::kFloat16 || dtype == DT::kBf16;
  const size_t r = shape.size();
  uint64_t count = 1;
  for (size_t k = 0; k < r; ++k) {
    int64_t d = shape[k];
    if (k + 2 == r) d = (d + 15) / 16 * 16;
    if (k + 1 == r) d = half ? (d + 15) / 16 * 16 : (d + 31) / 32 * 32;
    const auto next = CheckedMul(count, static_cast<uint64_t>(d));
    if (!next || !CheckedTensorBytes(static_cast<int64_t>(*next), 1)) {
      return Err(StatusCode::kInvalidParam, "tensorShape {} is larger than a tensor may be",
                 ShapeString(shape));
    }
    count = *next;
  }
  return count;
}

Result<ExecutorPtr> TransMatmulWeight(const char* name, const NnTensor* weight) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value w, b.InOut(weight, "mmWeightRef"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (w.dtype != DT::kFloat16 && w.dtype != DT::kBf16 && w.dtype != DT::kInt8) {
    return Err(StatusCode::kInvalidParam,
               "{}: mmWeightRef is {}; it must be float16, bfloat16 or int8", b.name(),
               ops::DataTypeName(w.dtype));
  }
  const size_t max_rank = w.dtype == DT::kInt8 ? 6 : 3;
  if (w.rank() < 2 || w.rank() > max_rank) {
    return Err(StatusCode::kInvalidParam,
               "{}: mmWeightRef has shape {}; a {} weight must be 2-D to {}-D", b.name(),
               ShapeString(w.dims), ops::DataTypeName(w.dtype), max_rank);
  }
  if (w.format != ops::Format::kNd || !w.contiguous()) {
    return Err(StatusCode::kInvalidParam,
               "{}: mmWeightRef must be a contiguous ND tensor (format {}, {})", b.name(),
               ops::FormatName(w.format), w.contiguous() ? "contiguous" : "strided");
  }
  if (w.numel() == 0) return b.Finish();
  // Converted in place: the ND contents go to the workspace first.
  ACLSIM_ASSIGN_OR_RETURN(Value copy, b.Op1("Identity", {w}));
  ACLSIM_RETURN_IF_ERROR(b.StoreLayout(copy, w, ops::Format::kFractalNz));
  return b.Finish();
}

}  // namespace aclsim::core::nn
