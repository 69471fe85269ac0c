// Random aclnn operators: normal, uniform, integer, Bernoulli and dropout draws, Randperm and
// Multinomial, each one call of the op library's StatelessRandom (ops/groups/random_ops.cc;
// Dropout two, its out and its mask) with the caller's (seed, offset), so equal arguments give
// equal bits on every run.
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "core/nn/builder.h"
#include "core/nn/ops.h"
#include "core/nn/promote.h"

namespace aclsim::core::nn {
namespace {
namespace random_ops {

using DT = ops::DataType;

constexpr const char* kKernel = "StatelessRandom";
constexpr size_t kMaxRank = 8;

Status CheckDtype(const Builder& b, const char* what, DT dtype, std::initializer_list<DT> allowed) {
  std::string names;
  for (DT t : allowed) {
    if (t == dtype) return Status::Ok();
    if (!names.empty()) names += ", ";
    names += ops::DataTypeName(t);
  }
  return Err(StatusCode::kInvalidParam, "{}: {} is {}; it must be one of {}", b.name(), what,
             ops::DataTypeName(dtype), names);
}

Status CheckRank(const Builder& b, const char* what, const Value& v, size_t min_rank = 0) {
  if (v.rank() < min_rank || v.rank() > kMaxRank) {
    return Err(StatusCode::kInvalidParam, "{}: {} has rank {} ({}); it must be {} to {}", b.name(),
               what, v.rank(), ShapeString(v.dims), min_rank, kMaxRank);
  }
  return Status::Ok();
}

// The kernel's attributes for a draw of `dist` with z's shape and dtype.
ops::AttrMap DrawAttrs(const char* dist, const Value& z, int64_t seed, int64_t offset) {
  return {{"distribution", std::string(dist)},
          {"shape", z.dims},
          {"dtype", z.dtype},
          {"seed", seed},
          {"offset", offset}};
}

// One StatelessRandom call written to z.
Status Draw(Builder& b, std::vector<Value> inputs, ops::AttrMap attrs, const Value& z) {
  ACLSIM_ASSIGN_OR_RETURN(Value r, b.Op1(kKernel, std::move(inputs), std::move(attrs)));
  return b.Store(r, z);
}

// The dtypes the in-place fills take (aclnn_api.md 4.14).
const std::initializer_list<DT> kFillTypes = {DT::kFloat, DT::kInt32,   DT::kInt64,
                                              DT::kBf16,  DT::kFloat16, DT::kInt16,
                                              DT::kInt8,  DT::kUint8,   DT::kDouble};
const std::initializer_list<DT> kNormalFillTypes = {
    DT::kFloat, DT::kInt32, DT::kInt64, DT::kBf16, DT::kFloat16,
    DT::kInt16, DT::kInt8,  DT::kUint8, DT::kBool, DT::kDouble};
const std::initializer_list<DT> kFloatTypes = {DT::kBf16, DT::kFloat16, DT::kFloat, DT::kDouble};
const std::initializer_list<DT> kBernoulliTypes = {
    DT::kFloat16, DT::kFloat, DT::kDouble, DT::kUint8, DT::kInt8,
    DT::kInt16,   DT::kInt32, DT::kInt64,  DT::kBool,  DT::kBf16};

// The integers a dtype holds exactly: [lo, hi].
void ExactRange(DT dtype, int64_t* lo, int64_t* hi) {
  const auto set = [&](int64_t l, int64_t h) {
    *lo = l;
    *hi = h;
  };
  switch (dtype) {
    case DT::kInt8:
      return set(INT8_MIN, INT8_MAX);
    case DT::kUint8:
      return set(0, UINT8_MAX);
    case DT::kInt16:
      return set(INT16_MIN, INT16_MAX);
    case DT::kInt32:
      return set(INT32_MIN, INT32_MAX);
    case DT::kFloat16:
      return set(-(int64_t{1} << 11), int64_t{1} << 11);
    case DT::kBf16:
      return set(-(int64_t{1} << 8), int64_t{1} << 8);
    case DT::kFloat:
      return set(-(int64_t{1} << 24), int64_t{1} << 24);
    case DT::kDouble:
      return set(-(int64_t{1} << 53), int64_t{1} << 53);
    default:
      return set(INT64_MIN, INT64_MAX);
  }
}

}  // namespace random_ops
}  // namespace

Result<ExecutorPtr> Normal(const char* name, const NnTensor* self_ref, const NnTensor* mean,
                           double mean_value, const NnTensor* std, double std_value, int64_t seed,
                           int64_t offset, const NnTensor* out) {
  using namespace random_ops;  // NOLINT(google-build-using-namespace)
  Builder b(name);
  const bool in_place = out == nullptr;
  Value m;
  Value s;
  Value z;
  if (in_place) {
    ACLSIM_ASSIGN_OR_RETURN(z, b.InOut(self_ref, "selfRef"));
  } else {
    if (mean != nullptr) {
      ACLSIM_ASSIGN_OR_RETURN(m, b.Input(mean, "mean"));
    }
    if (std != nullptr) {
      ACLSIM_ASSIGN_OR_RETURN(s, b.Input(std, "std"));
    }
    ACLSIM_ASSIGN_OR_RETURN(z, b.Output(out, "out"));
  }
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  const char* z_name = in_place ? "selfRef" : "out";
  if (in_place) {
    ACLSIM_RETURN_IF_ERROR(CheckDtype(b, z_name, z.dtype, kNormalFillTypes));
  } else {
    ACLSIM_RETURN_IF_ERROR(CheckDtype(b, z_name, z.dtype, kFloatTypes));
  }
  ACLSIM_RETURN_IF_ERROR(CheckRank(b, z_name, z));
  std::vector<int64_t> shape;
  if (m.present()) {
    ACLSIM_RETURN_IF_ERROR(CheckDtype(b, "mean", m.dtype, kFloatTypes));
    ACLSIM_RETURN_IF_ERROR(CheckRank(b, "mean", m));
    shape = m.dims;
  }
  if (s.present()) {
    ACLSIM_RETURN_IF_ERROR(CheckDtype(b, "std", s.dtype, kFloatTypes));
    ACLSIM_RETURN_IF_ERROR(CheckRank(b, "std", s));
    const auto both = BroadcastShape(shape, s.dims);
    if (!both) {
      return Err(StatusCode::kInvalidParam,
                 "{}: mean of shape {} and std of shape {} do not broadcast", b.name(),
                 ShapeString(m.dims), ShapeString(s.dims));
    }
    shape = *both;
  } else if (!(std_value >= 0)) {
    return Err(StatusCode::kInvalidParam, "{}: std is {}; it must be >= 0", b.name(), std_value);
  }
  if ((m.present() || s.present()) && shape != z.dims) {
    return Err(StatusCode::kInvalidParam, "{}: mean and std give shape {} but out has {}", b.name(),
               ShapeString(shape), ShapeString(z.dims));
  }
  if (z.numel() == 0) return b.Finish();
  const Value p1 = m.present() ? m : b.Constant(mean_value, DT::kDouble);
  const Value p2 = s.present() ? s : b.Constant(std_value, DT::kDouble);
  ACLSIM_RETURN_IF_ERROR(Draw(b, {p1, p2}, DrawAttrs("normal", z, seed, offset), z));
  return b.Finish();
}

Result<ExecutorPtr> Uniform(const char* name, const NnTensor* self_ref, double from, double to,
                            uint64_t seed, uint64_t offset) {
  using namespace random_ops;  // NOLINT(google-build-using-namespace)
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.InOut(self_ref, "selfRef"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_RETURN_IF_ERROR(CheckDtype(b, "selfRef", z.dtype, kFillTypes));
  ACLSIM_RETURN_IF_ERROR(CheckRank(b, "selfRef", z));
  if (!std::isfinite(from) || !std::isfinite(to) || from > to) {
    return Err(StatusCode::kInvalidParam, "{}: [from, to) = [{}, {}) needs finite from <= to",
               b.name(), from, to);
  }
  if (z.numel() == 0) return b.Finish();
  ACLSIM_RETURN_IF_ERROR(
      Draw(b, {b.Constant(from, DT::kDouble), b.Constant(to, DT::kDouble)},
           DrawAttrs("uniform", z, static_cast<int64_t>(seed), static_cast<int64_t>(offset)), z));
  return b.Finish();
}

Result<ExecutorPtr> RandomInt(const char* name, const NnTensor* self_ref, int64_t from, int64_t to,
                              int64_t seed, int64_t offset) {
  using namespace random_ops;  // NOLINT(google-build-using-namespace)
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.InOut(self_ref, "selfRef"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_RETURN_IF_ERROR(CheckDtype(b, "selfRef", z.dtype, kFillTypes));
  ACLSIM_RETURN_IF_ERROR(CheckRank(b, "selfRef", z));
  if (from >= to) {
    return Err(StatusCode::kInvalidParam, "{}: [from, to) = [{}, {}) is empty; from must be < to",
               b.name(), from, to);
  }
  int64_t lo = 0;
  int64_t hi = 0;
  ExactRange(z.dtype, &lo, &hi);
  if (from < lo || to - 1 > hi) {
    return Err(StatusCode::kInvalidParam,
               "{}: [from, to) = [{}, {}) does not fit selfRef's dtype {} (integers {} to {})",
               b.name(), from, to, ops::DataTypeName(z.dtype), lo, hi);
  }
  if (z.numel() == 0) return b.Finish();
  ops::AttrMap attrs = DrawAttrs("random", z, seed, offset);
  attrs["from"] = from;
  attrs["to"] = to;
  ACLSIM_RETURN_IF_ERROR(Draw(b, {}, std::move(attrs), z));
  return b.Finish();
}

Result<ExecutorPtr> Bernoulli(const char* name, const NnTensor* self, const NnScalar* prob_scalar,
                              const NnTensor* prob, int64_t seed, int64_t offset,
                              const NnTensor* out) {
  using namespace random_ops;  // NOLINT(google-build-using-namespace)
  Builder b(name);
  const bool in_place = out == nullptr;
  Value x;
  Value z;
  Value p;
  if (in_place) {
    ACLSIM_ASSIGN_OR_RETURN(x, b.InOut(self, "selfRef"));
    z = x;
  } else {
    ACLSIM_ASSIGN_OR_RETURN(x, b.Input(self, "self"));
  }
  if (prob_scalar == nullptr) {
    ACLSIM_ASSIGN_OR_RETURN(p, b.Input(prob, "prob"));
  }
  if (!in_place) {
    ACLSIM_ASSIGN_OR_RETURN(z, b.Output(out, "out"));
  }
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  const char* x_name = in_place ? "selfRef" : "self";
  ACLSIM_RETURN_IF_ERROR(CheckDtype(b, x_name, x.dtype, kBernoulliTypes));
  ACLSIM_RETURN_IF_ERROR(CheckRank(b, x_name, x));
  if (!in_place) {
    ACLSIM_RETURN_IF_ERROR(CheckDtype(b, "out", z.dtype, kBernoulliTypes));
    if (z.dims != x.dims) {
      return Err(StatusCode::kInvalidParam, "{}: self has shape {} but out has {}", b.name(),
                 ShapeString(x.dims), ShapeString(z.dims));
    }
  }
  Value p1;
  if (prob_scalar != nullptr) {
    ACLSIM_RETURN_IF_ERROR(CheckDtype(b, "prob", prob_scalar->dtype,
                                      {DT::kFloat16, DT::kFloat, DT::kDouble, DT::kBf16}));
    const double v = prob_scalar->ToDouble();
    if (!(v >= 0 && v <= 1)) {
      return Err(StatusCode::kInvalidParam, "{}: prob is {}; it must be in [0, 1]", b.name(), v);
    }
    p1 = b.Constant(v, DT::kDouble);
  } else {
    ACLSIM_RETURN_IF_ERROR(CheckDtype(b, "prob", p.dtype, {DT::kFloat16, DT::kFloat, DT::kDouble}));
    ACLSIM_RETURN_IF_ERROR(CheckRank(b, "prob", p));
    const auto shape = BroadcastShape(p.dims, x.dims);
    if (!shape || *shape != x.dims) {
      return Err(StatusCode::kInvalidParam, "{}: prob of shape {} does not broadcast to {} {}",
                 b.name(), ShapeString(p.dims), x_name, ShapeString(x.dims));
    }
    p1 = p;
  }
  if (z.numel() == 0) return b.Finish();
  ACLSIM_RETURN_IF_ERROR(Draw(b, {p1}, DrawAttrs("bernoulli", z, seed, offset), z));
  return b.Finish();
}

Result<ExecutorPtr> Dropout(const char* name, const NnTensor* input, double p, bool train,
                            int64_t seed, int64_t offset, const NnTensor* out,
                            const NnTensor* mask_out) {
  using namespace random_ops;  // NOLINT(google-build-using-namespace)
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(input, "input"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_ASSIGN_OR_RETURN(Value mask, b.Output(mask_out, "maskOut"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_RETURN_IF_ERROR(CheckDtype(b, "input", x.dtype, {DT::kBf16, DT::kFloat16, DT::kFloat}));
  ACLSIM_RETURN_IF_ERROR(CheckRank(b, "input", x, 1));
  if (z.dtype != x.dtype || z.dims != x.dims) {
    return Err(StatusCode::kInvalidParam, "{}: out is {} {} but input is {} {}; they must match",
               b.name(), ops::DataTypeName(z.dtype), ShapeString(z.dims),
               ops::DataTypeName(x.dtype), ShapeString(x.dims));
  }
  const int64_t n = x.numel();
  const int64_t mask_bytes = (n + 127) / 128 * 16;
  if (mask.dtype != DT::kUint8 || mask.numel() != mask_bytes) {
    return Err(StatusCode::kInvalidParam,
               "{}: maskOut is {} {}; it must be UINT8 with align({}, 128) / 8 = {} elements",
               b.name(), ops::DataTypeName(mask.dtype), ShapeString(mask.dims), n, mask_bytes);
  }
  if (!(p >= 0 && p <= 1)) {
    return Err(StatusCode::kInvalidParam, "{}: p is {}; it must be in [0, 1]", b.name(), p);
  }
  if (n == 0) return b.Finish();
  if (!train || p == 0) {
    ACLSIM_RETURN_IF_ERROR(b.Store(x, z));
    return b.Finish();
  }
  if (p == 1) {
    ACLSIM_ASSIGN_OR_RETURN(Value zeros,
                            b.Op1("Fill", {b.Constant(0, z.dtype)}, {}, {{0, z.dims}}));
    ACLSIM_RETURN_IF_ERROR(b.Store(zeros, z));
    return b.Finish();
  }
  const Value keep = b.Constant(1 - p, DT::kDouble);
  ACLSIM_RETURN_IF_ERROR(Draw(b, {x, keep}, DrawAttrs("dropout", z, seed, offset), z));
  ops::AttrMap mask_attrs = DrawAttrs("dropout_mask", mask, seed, offset);
  mask_attrs["count"] = n;
  ACLSIM_RETURN_IF_ERROR(Draw(b, {keep}, std::move(mask_attrs), mask));
  return b.Finish();
}

Result<ExecutorPtr> Randperm(const char* name, int64_t n, int64_t seed, int64_t offset,
                             const NnTensor* out) {
  using namespace random_ops;  // NOLINT(google-build-using-namespace)
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_RETURN_IF_ERROR(CheckDtype(b, "out", z.dtype,
                                    {DT::kInt64, DT::kInt32, DT::kInt16, DT::kInt8, DT::kUint8,
                                     DT::kFloat, DT::kDouble, DT::kFloat16, DT::kBf16}));
  if (n < 0) {
    return Err(StatusCode::kInvalidParam, "{}: n is {}; it must be >= 0", b.name(), n);
  }
  if (z.dims != std::vector<int64_t>{n}) {
    return Err(StatusCode::kInvalidParam, "{}: out has shape {}; it must be [{}]", b.name(),
               ShapeString(z.dims), n);
  }
  int64_t lo = 0;
  int64_t hi = 0;
  ExactRange(z.dtype, &lo, &hi);
  if (n - 1 > hi) {
    return Err(StatusCode::kInvalidParam, "{}: out's dtype {} does not hold {} exactly", b.name(),
               ops::DataTypeName(z.dtype), n - 1);
  }
  if (n == 0) return b.Finish();
  ACLSIM_RETURN_IF_ERROR(Draw(b, {}, DrawAttrs("randperm", z, seed, offset), z));
  return b.Finish();
}

Result<ExecutorPtr> Multinomial(const char* name, const NnTensor* self, int64_t numsamples,
                                bool replacement, int64_t seed, int64_t offset,
                                const NnTensor* out) {
  using namespace random_ops;  // NOLINT(google-build-using-namespace)
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_RETURN_IF_ERROR(CheckDtype(b, "self", x.dtype, kFloatTypes));
  ACLSIM_RETURN_IF_ERROR(CheckDtype(b, "out", z.dtype, {DT::kInt64}));
  if (x.rank() < 1 || x.rank() > 2 || x.dims.back() == 0) {
    return Err(StatusCode::kInvalidParam,
               "{}: self has shape {}; it must be (C) or (N, C) with C > 0", b.name(),
               ShapeString(x.dims));
  }
  const int64_t classes = x.dims.back();
  if (numsamples <= 0 || (!replacement && numsamples > classes)) {
    return Err(
        StatusCode::kInvalidParam, "{}: numsamples is {}; it must be > 0{}", b.name(), numsamples,
        replacement ? ""
                    : fmt::format(" and at most the {} categories without replacement", classes));
  }
  std::vector<int64_t> shape(x.dims.begin(), x.dims.end() - 1);
  shape.push_back(numsamples);
  if (z.dims != shape) {
    return Err(StatusCode::kInvalidParam, "{}: out has shape {}; it must be {}", b.name(),
               ShapeString(z.dims), ShapeString(shape));
  }
  if (z.numel() == 0) return b.Finish();
  ops::AttrMap attrs = DrawAttrs("multinomial", z, seed, offset);
  attrs["count"] = numsamples;
  attrs["replacement"] = replacement;
  ACLSIM_RETURN_IF_ERROR(Draw(b, {x}, std::move(attrs), z));
  return b.Finish();
}

}  // namespace aclsim::core::nn
