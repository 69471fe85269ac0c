// Activations with parameters the op library's kernels do not take directly: Threshold,
// Softplus with beta and threshold, SwiGlu over two halves of one tensor. Each is composed of
// op-library kernels; floating inputs of 16 bits compute in f32 and round once at the end.
#include <fmt/ranges.h>

#include "core/nn/builder.h"
#include "core/nn/ops.h"
#include "core/nn/promote.h"

namespace aclsim::core::nn {
namespace {
namespace activation_ops {

using DT = ops::DataType;

Status RequireFloat16Or32(const Builder& b, const Value& v, const char* what) {
  if (v.dtype == DT::kFloat || v.dtype == DT::kFloat16 || v.dtype == DT::kBf16) {
    return Status::Ok();
  }
  return Err(StatusCode::kInvalidParam, "{}: {} is {}; it must be float32, float16 or bfloat16",
             b.name(), what, ops::DataTypeName(v.dtype));
}

Status RequireSame(const Builder& b, const Value& x, const Value& z, const char* x_what,
                   const char* z_what) {
  if (x.dims != z.dims) {
    return Err(StatusCode::kInvalidParam, "{}: {} has shape {} but {} has {}", b.name(), x_what,
               ShapeString(x.dims), z_what, ShapeString(z.dims));
  }
  if (x.dtype != z.dtype) {
    return Err(StatusCode::kInvalidParam, "{}: {} is {} but {} is {}; they must match", b.name(),
               z_what, ops::DataTypeName(z.dtype), x_what, ops::DataTypeName(x.dtype));
  }
  return Status::Ok();
}

// self (input) and out, or selfRef for both when out is null.
struct InOut {
  Value x;
  Value z;
  const char* x_what;
  const char* z_what;
};

Result<InOut> TakeSelfAndOut(Builder& b, const NnTensor* self, const NnTensor* out) {
  InOut io;
  if (out == nullptr) {
    ACLSIM_ASSIGN_OR_RETURN(io.x, b.InOut(self, "selfRef"));
    io.z = io.x;
    io.x_what = io.z_what = "selfRef";
  } else {
    ACLSIM_ASSIGN_OR_RETURN(io.x, b.Input(self, "self"));
    ACLSIM_ASSIGN_OR_RETURN(io.z, b.Output(out, "out"));
    io.x_what = "self";
    io.z_what = "out";
  }
  return io;
}

DT ComputeDtype(DT dtype) { return dtype == DT::kDouble ? dtype : DT::kFloat; }

}  // namespace activation_ops
}  // namespace

Result<ExecutorPtr> Threshold(const char* name, const NnTensor* self, const NnScalar* threshold,
                              const NnScalar* value, const NnTensor* out) {
  using activation_ops::DT;
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(auto io, activation_ops::TakeSelfAndOut(b, self, out));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (threshold == nullptr) return Err(StatusCode::kNullPointer, "{}: threshold is NULL", b.name());
  if (value == nullptr) return Err(StatusCode::kNullPointer, "{}: value is NULL", b.name());
  ACLSIM_RETURN_IF_ERROR(activation_ops::RequireSame(b, io.x, io.z, io.x_what, io.z_what));
  const DT dt = io.x.dtype;
  if (!IsFloating(dt) && !IsIntegral(dt)) {
    return Err(StatusCode::kInvalidParam, "{}: {} is {}; it must be a floating or integer dtype",
               b.name(), io.x_what, ops::DataTypeName(dt));
  }
  if (io.z.numel() == 0) return b.Finish();
  // y = x <= threshold ? value : x, compared in x's dtype (torch.threshold).
  const DT cmp = dt == DT::kInt16 || dt == DT::kUint8 || dt == DT::kInt8 ? DT::kInt32 : dt;
  ACLSIM_ASSIGN_OR_RETURN(Value xc, b.Cast(io.x, cmp));
  ACLSIM_ASSIGN_OR_RETURN(Value mask,
                          b.Op1("LessEqual", {xc, b.Constant(threshold->ToDouble(), cmp)}));
  ACLSIM_ASSIGN_OR_RETURN(Value r,
                          b.Op1("MaskedFill", {xc, mask, b.Constant(value->ToDouble(), cmp)}));
  ACLSIM_RETURN_IF_ERROR(b.Store(r, io.z));
  return b.Finish();
}

Result<ExecutorPtr> Softplus(const char* name, const NnTensor* self, const NnScalar* beta,
                             const NnScalar* threshold, const NnTensor* out) {
  using activation_ops::DT;
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(auto io, activation_ops::TakeSelfAndOut(b, self, out));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (beta == nullptr) return Err(StatusCode::kNullPointer, "{}: beta is NULL", b.name());
  if (threshold == nullptr) return Err(StatusCode::kNullPointer, "{}: threshold is NULL", b.name());
  ACLSIM_RETURN_IF_ERROR(activation_ops::RequireFloat16Or32(b, io.x, io.x_what));
  ACLSIM_RETURN_IF_ERROR(activation_ops::RequireSame(b, io.x, io.z, io.x_what, io.z_what));
  const double k = beta->ToDouble();
  if (k == 0) return Err(StatusCode::kInvalidParam, "{}: beta is 0", b.name());
  if (io.z.numel() == 0) return b.Finish();
  // y = beta * x > threshold ? x : log(1 + exp(beta * x)) / beta.
  const DT f = activation_ops::ComputeDtype(io.x.dtype);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Cast(io.x, f));
  Value t = x;
  if (k != 1) {
    ACLSIM_ASSIGN_OR_RETURN(t, b.Op1("Mul", {x, b.Constant(k, f)}));
  }
  ACLSIM_ASSIGN_OR_RETURN(Value soft, b.Op1("Softplus", {t}));
  if (k != 1) {
    ACLSIM_ASSIGN_OR_RETURN(soft, b.Op1("RealDiv", {soft, b.Constant(k, f)}));
  }
  ACLSIM_ASSIGN_OR_RETURN(Value linear,
                          b.Op1("Greater", {t, b.Constant(threshold->ToDouble(), f)}));
  ACLSIM_ASSIGN_OR_RETURN(Value r, b.Op1("SelectV2", {linear, x, soft}));
  ACLSIM_RETURN_IF_ERROR(b.Store(r, io.z));
  return b.Finish();
}

Result<ExecutorPtr> SwiGlu(const char* name, const NnTensor* x_tensor, int64_t dim,
                           const NnTensor* out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(x_tensor, "x"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_RETURN_IF_ERROR(activation_ops::RequireFloat16Or32(b, x, "x"));
  if (x.rank() == 0) return Err(StatusCode::kInvalidParam, "{}: x is 0-D", b.name());
  const auto rank = static_cast<int64_t>(x.rank());
  if (dim < -rank || dim >= rank) {
    return Err(StatusCode::kInvalidParam, "{}: dim {} is out of range [{}, {}]", b.name(), dim,
               -rank, rank - 1);
  }
  const auto axis = static_cast<size_t>(dim < 0 ? dim + rank : dim);
  if (x.dims[axis] % 2 != 0) {
    return Err(StatusCode::kInvalidParam,
               "{}: dim {} of x {} has odd size {}; it must split in two", b.name(), axis,
               ShapeString(x.dims), x.dims[axis]);
  }
  std::vector<int64_t> half = x.dims;
  half[axis] /= 2;
  if (z.dims != half) {
    return Err(StatusCode::kInvalidParam, "{}: out has shape {} but the result has {}", b.name(),
               ShapeString(z.dims), ShapeString(half));
  }
  if (z.dtype != x.dtype) {
    return Err(StatusCode::kInvalidParam, "{}: out is {} but x is {}; they must match", b.name(),
               ops::DataTypeName(z.dtype), ops::DataTypeName(x.dtype));
  }
  if (z.numel() == 0) return b.Finish();
  // out = silu(a) * b with a, b the two halves of x along dim.
  const Value a = b.View(x, half, x.strides, 0);
  const Value gate = b.View(x, half, x.strides, half[axis] * x.strides[axis]);
  ACLSIM_ASSIGN_OR_RETURN(Value fa, b.Cast(a, ops::DataType::kFloat));
  ACLSIM_ASSIGN_OR_RETURN(Value fb, b.Cast(gate, ops::DataType::kFloat));
  ACLSIM_ASSIGN_OR_RETURN(Value silu, b.Op1("Swish", {fa}, {{"scale", 1.0F}}));
  ACLSIM_ASSIGN_OR_RETURN(Value r, b.Op1("Mul", {silu, fb}));
  ACLSIM_RETURN_IF_ERROR(b.Store(r, z));
  return b.Finish();
}

}  // namespace aclsim::core::nn
