// Comparison, maximum / minimum, power and clamping aclnn operators: two operands, each a
// tensor or a scalar, broadcast together and promoted (tensor-tensor by aclnn_api.md 3.2,
// tensor-scalar by 3.3), one op-library kernel per step.
#include <fmt/ranges.h>

#include "core/nn/builder.h"
#include "core/nn/ops.h"
#include "core/nn/promote.h"

namespace aclsim::core::nn {
namespace {
namespace binary_ops {

using DT = ops::DataType;

bool IsComparison(BinaryKind kind) {
  switch (kind) {
    case BinaryKind::kMaximum:
    case BinaryKind::kMinimum:
    case BinaryKind::kPow:
    case BinaryKind::kFloorDivide:
    case BinaryKind::kRemainder:
    case BinaryKind::kFmod:
      return false;
    default:
      return true;
  }
}

const char* KernelName(BinaryKind kind) {
  switch (kind) {
    case BinaryKind::kGreater:
      return "Greater";
    case BinaryKind::kGreaterEqual:
      return "GreaterEqual";
    case BinaryKind::kLess:
      return "Less";
    case BinaryKind::kLessEqual:
      return "LessEqual";
    case BinaryKind::kEqual:
      return "Equal";
    case BinaryKind::kNotEqual:
      return "NotEqual";
    case BinaryKind::kMaximum:
      return "Maximum";
    case BinaryKind::kMinimum:
      return "Minimum";
    case BinaryKind::kPow:
      return "Pow";
    case BinaryKind::kFloorDivide:
      return "FloorDiv";
    case BinaryKind::kRemainder:
      return "FloorMod";
    case BinaryKind::kFmod:
      return "Mod";
  }
  return "Equal";
}

// The dtype the kernel runs in for a computation in `compute`: the kernels have no bool forms
// (Maximum / Minimum none for int16 / uint8, FloorDiv / FloorMod / Mod not all of int8,
// uint8 and int16); those run exactly in int32.
DT KernelDtype(BinaryKind kind, DT compute) {
  if (compute == DT::kBool) return DT::kInt32;
  const bool minmax = kind == BinaryKind::kMaximum || kind == BinaryKind::kMinimum;
  if (minmax && (compute == DT::kInt16 || compute == DT::kUint8)) return DT::kInt32;
  const bool division = kind == BinaryKind::kFloorDivide || kind == BinaryKind::kRemainder ||
                        kind == BinaryKind::kFmod;
  if (division && (compute == DT::kInt8 || compute == DT::kUint8 || compute == DT::kInt16)) {
    return DT::kInt32;
  }
  return compute;
}

// One operand while an executor is built: a tensor (a Value) or a scalar.
struct Operand {
  Value tensor;
  const NnScalar* scalar = nullptr;
  DT dtype() const { return scalar != nullptr ? scalar->dtype : tensor.dtype; }
  std::vector<int64_t> dims() const {
    return scalar != nullptr ? std::vector<int64_t>{} : tensor.dims;
  }
};

Result<DT> PromoteOperands(const Builder& b, const Operand& x, const Operand& y) {
  std::optional<DT> promoted;
  if (x.scalar == nullptr && y.scalar == nullptr) {
    promoted = Promote(x.dtype(), y.dtype());
  } else if (y.scalar != nullptr) {
    promoted = PromoteWithScalar(x.dtype(), y.dtype());
  } else {
    promoted = PromoteWithScalar(y.dtype(), x.dtype());
  }
  if (!promoted) {
    return Err(StatusCode::kInvalidParam, "{}: dtypes {} and {} do not promote to a common dtype",
               b.name(), ops::DataTypeName(x.dtype()), ops::DataTypeName(y.dtype()));
  }
  return *promoted;
}

Result<Value> Materialise(Builder& b, const Operand& v, DT dtype) {
  if (v.scalar != nullptr) return b.Constant(v.scalar->ToDouble(), dtype);
  return b.Cast(v.tensor, dtype);
}

Status CheckResult(const Builder& b, const std::vector<int64_t>& shape, DT result, const Value& z,
                   const char* out_what) {
  if (shape != z.dims) {
    return Err(StatusCode::kInvalidParam, "{}: the result has shape {} but {} has {}", b.name(),
               ShapeString(shape), out_what, ShapeString(z.dims));
  }
  if (!CanCastTo(result, z.dtype)) {
    return Err(StatusCode::kInvalidParam, "{}: a {} result cannot be written to {} of dtype {}",
               b.name(), ops::DataTypeName(result), out_what, ops::DataTypeName(z.dtype));
  }
  return Status::Ok();
}

// Registers a tensor operand (self or the in-place selfRef) or takes a scalar one.
Result<Operand> TakeOperand(Builder& b, const NnTensor* tensor, const NnScalar* scalar,
                            const char* what, bool in_out) {
  Operand op;
  if (scalar != nullptr) {
    op.scalar = scalar;
  } else if (in_out) {
    ACLSIM_ASSIGN_OR_RETURN(op.tensor, b.InOut(tensor, what));
  } else {
    ACLSIM_ASSIGN_OR_RETURN(op.tensor, b.Input(tensor, what));
  }
  return op;
}

}  // namespace binary_ops
}  // namespace

Result<ExecutorPtr> Binary(const char* name, BinaryKind kind, const NnTensor* self,
                           const NnScalar* self_scalar, const NnTensor* other,
                           const NnScalar* other_scalar, const NnTensor* out) {
  using binary_ops::DT;
  Builder b(name);
  const bool in_place = out == nullptr;
  const char* self_what = in_place ? "selfRef" : "self";
  const char* other_what = kind == BinaryKind::kPow ? "exponent" : "other";
  ACLSIM_ASSIGN_OR_RETURN(auto x,
                          binary_ops::TakeOperand(b, self, self_scalar, self_what, in_place));
  ACLSIM_ASSIGN_OR_RETURN(auto y,
                          binary_ops::TakeOperand(b, other, other_scalar, other_what, false));
  Value z = x.tensor;
  if (!in_place) {
    ACLSIM_ASSIGN_OR_RETURN(z, b.Output(out, "out"));
  }
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_ASSIGN_OR_RETURN(DT compute, binary_ops::PromoteOperands(b, x, y));
  const auto shape = BroadcastShape(x.dims(), y.dims());
  if (!shape) {
    return Err(StatusCode::kInvalidParam, "{}: shapes {} and {} do not broadcast", b.name(),
               ShapeString(x.dims()), ShapeString(y.dims()));
  }
  const bool comparison = binary_ops::IsComparison(kind);
  const DT result = comparison ? DT::kBool : compute;
  ACLSIM_RETURN_IF_ERROR(
      binary_ops::CheckResult(b, *shape, result, z, in_place ? "selfRef" : "out"));
  if (kind == BinaryKind::kPow && IsIntegral(compute) && y.scalar != nullptr &&
      !y.scalar->is_float && y.scalar->i < 0) {
    return Err(StatusCode::kInvalidParam,
               "{}: integers to negative integer powers are not allowed (exponent {})", b.name(),
               y.scalar->i);
  }
  if (z.numel() == 0) return b.Finish();
  const DT kernel_dtype = binary_ops::KernelDtype(kind, compute);
  ACLSIM_ASSIGN_OR_RETURN(Value lhs, binary_ops::Materialise(b, x, kernel_dtype));
  ACLSIM_ASSIGN_OR_RETURN(Value rhs, binary_ops::Materialise(b, y, kernel_dtype));
  ACLSIM_ASSIGN_OR_RETURN(Value r, b.Op1(binary_ops::KernelName(kind), {lhs, rhs}));
  if (r.dims != *shape) {  // two scalars' result is 0-D; the kernels broadcast otherwise
    ACLSIM_ASSIGN_OR_RETURN(r, b.Reshape(r, *shape));
  }
  ACLSIM_ASSIGN_OR_RETURN(r, b.Cast(r, result));
  ACLSIM_RETURN_IF_ERROR(b.Store(r, z));
  return b.Finish();
}

Result<ExecutorPtr> Logical(const char* name, LogicalKind kind, const NnTensor* self,
                            const NnTensor* other, const NnTensor* out) {
  using binary_ops::DT;
  Builder b(name);
  const bool in_place = out == nullptr;
  ACLSIM_ASSIGN_OR_RETURN(
      auto x, binary_ops::TakeOperand(b, self, nullptr, in_place ? "selfRef" : "self", in_place));
  ACLSIM_ASSIGN_OR_RETURN(auto y, binary_ops::TakeOperand(b, other, nullptr, "other", false));
  Value z = x.tensor;
  if (!in_place) {
    ACLSIM_ASSIGN_OR_RETURN(z, b.Output(out, "out"));
  }
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  const auto shape = BroadcastShape(x.dims(), y.dims());
  if (!shape) {
    return Err(StatusCode::kInvalidParam, "{}: shapes {} and {} do not broadcast", b.name(),
               ShapeString(x.dims()), ShapeString(y.dims()));
  }
  ACLSIM_RETURN_IF_ERROR(
      binary_ops::CheckResult(b, *shape, DT::kBool, z, in_place ? "selfRef" : "out"));
  if (z.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(Value lhs, b.Cast(x.tensor, DT::kBool));
  ACLSIM_ASSIGN_OR_RETURN(Value rhs, b.Cast(y.tensor, DT::kBool));
  Value r;
  if (kind == LogicalKind::kXor) {
    ACLSIM_ASSIGN_OR_RETURN(r, b.Op1("NotEqual", {lhs, rhs}));
  } else {
    ACLSIM_ASSIGN_OR_RETURN(
        r, b.Op1(kind == LogicalKind::kAnd ? "LogicalAnd" : "LogicalOr", {lhs, rhs}));
  }
  if (r.dims != *shape) {
    ACLSIM_ASSIGN_OR_RETURN(r, b.Reshape(r, *shape));
  }
  ACLSIM_RETURN_IF_ERROR(b.Store(r, z));
  return b.Finish();
}

Result<ExecutorPtr> Where(const char* name, const NnTensor* condition, const NnTensor* self,
                          const NnTensor* other, const NnTensor* out) {
  using binary_ops::DT;
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value c, b.Input(condition, "condition"));
  ACLSIM_ASSIGN_OR_RETURN(auto x, binary_ops::TakeOperand(b, self, nullptr, "self", false));
  ACLSIM_ASSIGN_OR_RETURN(auto y, binary_ops::TakeOperand(b, other, nullptr, "other", false));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (c.dtype != DT::kBool && c.dtype != DT::kUint8) {
    return Err(StatusCode::kInvalidParam, "{}: condition is {}; it must be bool or uint8", b.name(),
               ops::DataTypeName(c.dtype));
  }
  ACLSIM_ASSIGN_OR_RETURN(DT compute, binary_ops::PromoteOperands(b, x, y));
  auto shape = BroadcastShape(x.dims(), y.dims());
  if (shape) shape = BroadcastShape(*shape, c.dims);
  if (!shape) {
    return Err(StatusCode::kInvalidParam, "{}: condition {}, self {} and other {} do not broadcast",
               b.name(), ShapeString(c.dims), ShapeString(x.dims()), ShapeString(y.dims()));
  }
  ACLSIM_RETURN_IF_ERROR(binary_ops::CheckResult(b, *shape, compute, z, "out"));
  if (z.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(Value cond, b.Cast(c, DT::kBool));
  ACLSIM_ASSIGN_OR_RETURN(Value lhs, b.Cast(x.tensor, compute));
  ACLSIM_ASSIGN_OR_RETURN(Value rhs, b.Cast(y.tensor, compute));
  ACLSIM_ASSIGN_OR_RETURN(Value r, b.Op1("SelectV2", {cond, lhs, rhs}));
  if (r.dims != *shape) {
    ACLSIM_ASSIGN_OR_RETURN(r, b.Reshape(r, *shape));
  }
  ACLSIM_RETURN_IF_ERROR(b.Store(r, z));
  return b.Finish();
}

Result<ExecutorPtr> Clamp(const char* name, const NnTensor* self, const NnTensor* min_tensor,
                          const NnScalar* min_scalar, const NnTensor* max_tensor,
                          const NnScalar* max_scalar, const NnTensor* out) {
  using binary_ops::DT;
  Builder b(name);
  const bool in_place = out == nullptr;
  const char* self_what = in_place ? "selfRef" : "self";
  ACLSIM_ASSIGN_OR_RETURN(auto x, binary_ops::TakeOperand(b, self, nullptr, self_what, in_place));
  binary_ops::Operand lo;
  binary_ops::Operand hi;
  const bool has_lo = min_tensor != nullptr || min_scalar != nullptr;
  const bool has_hi = max_tensor != nullptr || max_scalar != nullptr;
  if (has_lo) {
    ACLSIM_ASSIGN_OR_RETURN(
        lo, binary_ops::TakeOperand(b, min_tensor, min_scalar, "clipValueMin", false));
  }
  if (has_hi) {
    ACLSIM_ASSIGN_OR_RETURN(
        hi, binary_ops::TakeOperand(b, max_tensor, max_scalar, "clipValueMax", false));
  }
  Value z = x.tensor;
  if (!in_place) {
    ACLSIM_ASSIGN_OR_RETURN(z, b.Output(out, "out"));
  }
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (!has_lo && !has_hi) {
    return Err(StatusCode::kNullPointer, "{}: clipValueMin and clipValueMax are both NULL",
               b.name());
  }
  DT compute = x.dtype();
  std::vector<int64_t> shape = x.dims();
  for (const binary_ops::Operand* bound : {&lo, &hi}) {
    if (bound->scalar == nullptr && !bound->tensor.present()) continue;
    binary_ops::Operand acc;
    acc.tensor = x.tensor;
    acc.tensor.dtype = compute;
    ACLSIM_ASSIGN_OR_RETURN(compute, binary_ops::PromoteOperands(b, acc, *bound));
    const auto joined = BroadcastShape(shape, bound->dims());
    if (!joined) {
      return Err(StatusCode::kInvalidParam, "{}: shapes {} and {} do not broadcast", b.name(),
                 ShapeString(shape), ShapeString(bound->dims()));
    }
    shape = *joined;
  }
  ACLSIM_RETURN_IF_ERROR(
      binary_ops::CheckResult(b, shape, compute, z, in_place ? "selfRef" : "out"));
  if (z.numel() == 0) return b.Finish();
  const DT kernel_dtype = binary_ops::KernelDtype(BinaryKind::kMaximum, compute);
  ACLSIM_ASSIGN_OR_RETURN(Value r, binary_ops::Materialise(b, x, kernel_dtype));
  if (has_lo) {
    ACLSIM_ASSIGN_OR_RETURN(Value v, binary_ops::Materialise(b, lo, kernel_dtype));
    ACLSIM_ASSIGN_OR_RETURN(r, b.Op1("Maximum", {r, v}));
  }
  if (has_hi) {
    ACLSIM_ASSIGN_OR_RETURN(Value v, binary_ops::Materialise(b, hi, kernel_dtype));
    ACLSIM_ASSIGN_OR_RETURN(r, b.Op1("Minimum", {r, v}));
  }
  ACLSIM_ASSIGN_OR_RETURN(r, b.Cast(r, compute));
  ACLSIM_RETURN_IF_ERROR(b.Store(r, z));
  return b.Finish();
}

}  // namespace aclsim::core::nn
