// Elementwise aclnn operators: arithmetic with broadcasting and promotion, unary math,
// cast, copy and fill.
#include <fmt/ranges.h>

#include "core/nn/builder.h"
#include "core/nn/ops.h"
#include "core/nn/promote.h"

namespace aclsim::core::nn {
namespace {

using DT = ops::DataType;

Status CheckOutCast(const Builder& b, DT from, DT to, const char* what) {
  if (!CanCastTo(from, to)) {
    return Err(StatusCode::kInvalidParam, "{}: a {} result cannot be written to {} of dtype {}",
               b.name(), ops::DataTypeName(from), what, ops::DataTypeName(to));
  }
  return Status::Ok();
}

const char* KernelOf(Arith arith) {
  switch (arith) {
    case Arith::kAdd:
      return "Add";
    case Arith::kSub:
      return "Sub";
    case Arith::kMul:
      return "Mul";
    case Arith::kDiv:
      return "RealDiv";
  }
  return "Add";
}

// A broadcast view of `value` with `dims` (zero strides where value has size 1 or no dim).
Value BroadcastView(const Builder& b, const Value& value, const std::vector<int64_t>& dims) {
  if (value.dims == dims) return value;
  std::vector<int64_t> strides(dims.size(), 0);
  const size_t lead = dims.size() - value.dims.size();
  for (size_t k = 0; k < value.dims.size(); ++k) {
    strides[lead + k] = value.dims[k] == 1 ? 0 : value.strides[k];
  }
  return b.View(value, dims, strides, 0);
}

}  // namespace

Result<ExecutorPtr> BinaryArith(const char* name, Arith arith, const NnTensor* self,
                                const NnTensor* other, const NnScalar* other_scalar,
                                const NnScalar* alpha, const NnTensor* out) {
  Builder b(name);
  const bool in_place = out == nullptr;
  Value x;
  if (in_place) {
    ACLSIM_ASSIGN_OR_RETURN(x, b.InOut(self, "selfRef"));
  } else {
    ACLSIM_ASSIGN_OR_RETURN(x, b.Input(self, "self"));
  }
  Value y;
  DT other_dtype = DT::kUndefined;
  if (other_scalar == nullptr) {
    ACLSIM_ASSIGN_OR_RETURN(y, b.Input(other, "other"));
    other_dtype = y.dtype;
  } else {
    other_dtype = other_scalar->dtype;
  }
  Value z = x;
  if (!in_place) {
    ACLSIM_ASSIGN_OR_RETURN(z, b.Output(out, "out"));
  }
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  const auto promoted = Promote(x.dtype, other_dtype);
  if (!promoted) {
    return Err(StatusCode::kInvalidParam, "{}: dtypes {} and {} do not promote to a common dtype",
               b.name(), ops::DataTypeName(x.dtype), ops::DataTypeName(other_dtype));
  }
  const std::vector<int64_t> other_dims = other_scalar == nullptr ? y.dims : std::vector<int64_t>{};
  const auto shape = BroadcastShape(x.dims, other_dims);
  if (!shape) {
    return Err(StatusCode::kInvalidParam, "{}: shapes {} and {} do not broadcast", b.name(),
               ShapeString(x.dims), ShapeString(other_dims));
  }
  if (*shape != z.dims) {
    return Err(StatusCode::kInvalidParam, "{}: the result has shape {} but {} has {}", b.name(),
               ShapeString(*shape), in_place ? "selfRef" : "out", ShapeString(z.dims));
  }
  ACLSIM_RETURN_IF_ERROR(CheckOutCast(b, *promoted, z.dtype, in_place ? "selfRef" : "out"));
  // True division of integers computes in float.
  DT compute = *promoted;
  if (arith == Arith::kDiv && !IsFloating(compute))
    compute = IsFloating(z.dtype) ? z.dtype : DT::kFloat;
  if (compute == DT::kBool && arith != Arith::kMul) compute = DT::kInt8;  // bool + bool: as ints
  if (z.numel() == 0) return b.Finish();

  // CANN's 910B Add (alpha 1, in place or not) and Mul (out of place) take f16 / bf16 with f32
  // as they are: no Cast, so no workspace (llama.cpp's backend relies on it).
  const bool alpha_one = alpha == nullptr || alpha->ToDouble() == 1.0;
  const bool mixed_kernel =
      other_scalar == nullptr && ops::IsMixedFloatPair(x.dtype, y.dtype) &&
      ((arith == Arith::kAdd && alpha_one) || (arith == Arith::kMul && !in_place));
  if (mixed_kernel) {
    ACLSIM_ASSIGN_OR_RETURN(Value result, b.Op1(KernelOf(arith), {x, y}));
    ACLSIM_RETURN_IF_ERROR(b.Store(result, z));
    return b.Finish();
  }
  ACLSIM_ASSIGN_OR_RETURN(Value lhs, b.Cast(x, compute));
  Value rhs;
  if (other_scalar != nullptr) {
    rhs = b.Constant(other_scalar->ToDouble(), compute);
  } else {
    ACLSIM_ASSIGN_OR_RETURN(rhs, b.Cast(y, compute));
  }
  if (alpha != nullptr && alpha->ToDouble() != 1.0) {
    if (compute == DT::kBool || (IsIntegral(compute) && alpha->is_float)) {
      return Err(StatusCode::kInvalidParam, "{}: alpha {} cannot be applied in dtype {}", b.name(),
                 alpha->ToDouble(), ops::DataTypeName(compute));
    }
    ACLSIM_ASSIGN_OR_RETURN(rhs, b.Op1("Mul", {rhs, b.Constant(alpha->ToDouble(), compute)}));
  }
  ACLSIM_ASSIGN_OR_RETURN(Value result, b.Op1(KernelOf(arith), {lhs, rhs}));
  ACLSIM_RETURN_IF_ERROR(b.Store(result, z));
  return b.Finish();
}

Result<ExecutorPtr> PointwiseTernary(const char* name, TernaryKind kind, const NnTensor* self,
                                     const NnTensor* t1, const NnTensor* t2, const NnScalar* value,
                                     const NnTensor* out) {
  Builder b(name);
  const bool in_place = out == nullptr;
  const bool lerp = kind == TernaryKind::kLerp;
  const char* self_what = in_place ? "selfRef" : "self";
  Value x;
  if (in_place) {
    ACLSIM_ASSIGN_OR_RETURN(x, b.InOut(self, "selfRef"));
  } else {
    ACLSIM_ASSIGN_OR_RETURN(x, b.Input(self, "self"));
  }
  ACLSIM_ASSIGN_OR_RETURN(Value a, b.Input(t1, lerp ? "end" : "tensor1"));
  ACLSIM_ASSIGN_OR_RETURN(Value c, b.Input(t2, lerp ? "weight" : "tensor2"));
  Value z = x;
  if (!in_place) {
    ACLSIM_ASSIGN_OR_RETURN(z, b.Output(out, "out"));
  }
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (!lerp && value == nullptr) {
    return Err(StatusCode::kNullPointer, "{}: value is NULL", b.name());
  }
  auto promoted = Promote(x.dtype, a.dtype);
  if (promoted) promoted = Promote(*promoted, c.dtype);
  if (!promoted) {
    return Err(StatusCode::kInvalidParam, "{}: dtypes {}, {} and {} do not promote", b.name(),
               ops::DataTypeName(x.dtype), ops::DataTypeName(a.dtype), ops::DataTypeName(c.dtype));
  }
  if ((kind == TernaryKind::kAddcdiv || lerp) && !IsFloating(*promoted)) {
    return Err(StatusCode::kInvalidParam, "{}: {} needs floating tensors, not {}", b.name(),
               lerp ? "lerp" : "division", ops::DataTypeName(*promoted));
  }
  auto shape = BroadcastShape(x.dims, a.dims);
  if (shape) shape = BroadcastShape(*shape, c.dims);
  if (!shape) {
    return Err(StatusCode::kInvalidParam, "{}: shapes {}, {} and {} do not broadcast", b.name(),
               ShapeString(x.dims), ShapeString(a.dims), ShapeString(c.dims));
  }
  if (*shape != z.dims) {
    return Err(StatusCode::kInvalidParam, "{}: the result has shape {} but {} has {}", b.name(),
               ShapeString(*shape), in_place ? self_what : "out", ShapeString(z.dims));
  }
  ACLSIM_RETURN_IF_ERROR(CheckOutCast(b, *promoted, z.dtype, in_place ? self_what : "out"));
  if (z.numel() == 0) return b.Finish();
  // f16 / bf16 computed in f32 and rounded once.
  const DT compute = *promoted == DT::kFloat16 || *promoted == DT::kBf16 ? DT::kFloat : *promoted;
  ACLSIM_ASSIGN_OR_RETURN(Value base, b.Cast(x, compute));
  ACLSIM_ASSIGN_OR_RETURN(Value p, b.Cast(a, compute));
  ACLSIM_ASSIGN_OR_RETURN(Value q, b.Cast(c, compute));
  Value term;
  if (lerp) {  // self + weight * (end - self)
    ACLSIM_ASSIGN_OR_RETURN(Value diff, b.Op1("Sub", {p, base}));
    ACLSIM_ASSIGN_OR_RETURN(term, b.Op1("Mul", {q, diff}));
  } else {
    ACLSIM_ASSIGN_OR_RETURN(term, b.Op1(kind == TernaryKind::kAddcmul ? "Mul" : "RealDiv", {p, q}));
    if (value->ToDouble() != 1.0) {
      ACLSIM_ASSIGN_OR_RETURN(term, b.Op1("Mul", {term, b.Constant(value->ToDouble(), compute)}));
    }
  }
  ACLSIM_ASSIGN_OR_RETURN(Value result, b.Op1("Add", {base, term}));
  if (result.dims != *shape) {
    ACLSIM_ASSIGN_OR_RETURN(result, b.Reshape(result, *shape));
  }
  ACLSIM_RETURN_IF_ERROR(b.Store(result, z));
  return b.Finish();
}

Result<ExecutorPtr> Unary(const char* name, const char* kernel, const ops::AttrMap& attrs,
                          UnaryRule rule, const NnTensor* self, const NnTensor* out) {
  Builder b(name);
  const bool in_place = out == nullptr;
  Value x;
  if (in_place) {
    ACLSIM_ASSIGN_OR_RETURN(x, b.InOut(self, "selfRef"));
  } else {
    ACLSIM_ASSIGN_OR_RETURN(x, b.Input(self, "self"));
  }
  Value z = x;
  if (!in_place) {
    ACLSIM_ASSIGN_OR_RETURN(z, b.Output(out, "out"));
  }
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (x.dims != z.dims) {
    return Err(StatusCode::kInvalidParam, "{}: self has shape {} but out has {}", b.name(),
               ShapeString(x.dims), ShapeString(z.dims));
  }
  DT compute = x.dtype;
  if (rule == UnaryRule::kIntsCopied && !IsFloating(compute)) {
    ACLSIM_RETURN_IF_ERROR(CheckOutCast(b, compute, z.dtype, in_place ? "selfRef" : "out"));
    if (z.numel() == 0) return b.Finish();
    ACLSIM_RETURN_IF_ERROR(b.Store(x, z));
    return b.Finish();
  }
  if (rule == UnaryRule::kPredicate || rule == UnaryRule::kLogical) {
    if (rule == UnaryRule::kPredicate && !IsFloating(compute)) {
      return Err(StatusCode::kInvalidParam, "{}: self is {}; it must be a floating dtype", b.name(),
                 ops::DataTypeName(x.dtype));
    }
    if (rule == UnaryRule::kPredicate && z.dtype != DT::kBool) {
      return Err(StatusCode::kInvalidParam, "{}: out is {}; it must be bool", b.name(),
                 ops::DataTypeName(z.dtype));
    }
    if (z.numel() == 0) return b.Finish();
    ACLSIM_ASSIGN_OR_RETURN(Value in, b.Cast(x, rule == UnaryRule::kLogical ? DT::kBool : compute));
    ACLSIM_ASSIGN_OR_RETURN(Value result, b.Op1(kernel, {in}, attrs));
    ACLSIM_RETURN_IF_ERROR(b.Store(result, z));
    return b.Finish();
  }
  if (rule == UnaryRule::kFloatOnly && !IsFloating(compute)) {
    return Err(StatusCode::kInvalidParam, "{}: {} is {}; it must be a floating dtype", b.name(),
               in_place ? "selfRef" : "self", ops::DataTypeName(x.dtype));
  }
  if (rule == UnaryRule::kFloatOut && !IsFloating(compute)) {
    if (!IsFloating(z.dtype)) {
      return Err(StatusCode::kInvalidParam, "{}: a {} input needs a floating output, not {}",
                 b.name(), ops::DataTypeName(x.dtype), ops::DataTypeName(z.dtype));
    }
    compute = z.dtype;
  }
  ACLSIM_RETURN_IF_ERROR(CheckOutCast(b, compute, z.dtype, in_place ? "selfRef" : "out"));
  if (z.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(Value in, b.Cast(x, compute));
  ACLSIM_ASSIGN_OR_RETURN(Value result, b.Op1(kernel, {in}, attrs));
  ACLSIM_RETURN_IF_ERROR(b.Store(result, z));
  return b.Finish();
}

Result<ExecutorPtr> CastTo(const char* name, const NnTensor* self, ops::DataType dtype,
                           const NnTensor* out) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (z.dtype != dtype) {
    return Err(StatusCode::kInvalidParam, "{}: dtype is {} but out is {}", b.name(),
               ops::DataTypeName(dtype), ops::DataTypeName(z.dtype));
  }
  if (x.dims != z.dims) {
    return Err(StatusCode::kInvalidParam, "{}: self has shape {} but out has {}", b.name(),
               ShapeString(x.dims), ShapeString(z.dims));
  }
  if (z.numel() == 0) return b.Finish();
  ACLSIM_RETURN_IF_ERROR(b.Store(x, z));
  return b.Finish();
}

Result<ExecutorPtr> CopyInto(const char* name, const NnTensor* self, const NnTensor* src) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.InOut(self, "selfRef"));
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(src, "src"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  const auto shape = BroadcastShape(z.dims, x.dims);
  if (!shape || *shape != z.dims) {
    return Err(StatusCode::kInvalidParam, "{}: src of shape {} does not broadcast to selfRef {}",
               b.name(), ShapeString(x.dims), ShapeString(z.dims));
  }
  ACLSIM_RETURN_IF_ERROR(CheckOutCast(b, x.dtype, z.dtype, "selfRef"));
  if (z.numel() == 0) return b.Finish();
  ACLSIM_RETURN_IF_ERROR(b.Store(BroadcastView(b, x, z.dims), z));
  return b.Finish();
}

Result<ExecutorPtr> FillWith(const char* name, const NnTensor* self, double value) {
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.InOut(self, "selfRef"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (z.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(Value filled,
                          b.Op1("Fill", {b.Constant(value, z.dtype)}, {}, {{0, z.dims}}));
  ACLSIM_RETURN_IF_ERROR(b.Store(filled, z));
  return b.Finish();
}

}  // namespace aclsim::core::nn
