// Random numbers: StatelessRandom, an aclsim-internal op (CANN's prototypes of random_ops.h
// keep their generator state in the kernel; the aclnn random operators pass it explicitly as
// (seed, offset), and this op is what they compile to).
//
//   StatelessRandom  p1 (optional), p2 (optional) -> y
//     distribution:String="uniform"; shape:ListInt=[]; dtype:Type=float; seed:Int=0;
//     offset:Int=0; from:Int=0; to:Int=1; count:Int=-1; replacement:Bool=true
//
// y has `shape` and `dtype`; p1 and p2 broadcast to `shape` (any floating dtype, read as
// double). Element i draws the Philox block of (seed, offset, i) (random.h) and is, by
// distribution:
//   uniform       p1 + (p2 - p1) * u, u in [0, 1), kept below p2 (from = p1, to = p2)
//   normal        p1 + p2 * z, z standard normal by Box-Muller (mean = p1, std = p2)
//   bernoulli     1 if u < p1 else 0 (p1 the success probability)
//   random        from + an integer uniform in [0, to - from) (attributes; no inputs)
//   dropout       p1 * keep / p2 with keep = (u < p2) (p1 = x, p2 = the keep probability)
//   dropout_mask  u8 bit mask: bit j of byte b is keep of element 8b + j (u < p1), 0 from
//                 element `count` on (count < 0: every bit)
//   randperm      a permutation of [0, numel) (1-D): Fisher-Yates, swap i drawing element i
//   multinomial   `count` category indices per row of the weights p1 ((C) or (N, C); y
//                 (count) or (N, count)): with replacement sample s of row r inverts the
//                 row's cumulative sum at u of element r * count + s; without, the `count`
//                 largest keys log(u) / w of elements r * C + k (Efraimidis-Spirakis), in
//                 descending order. A row with a negative, non-finite or all-zero weight (or,
//                 without replacement, fewer than `count` non-zero ones) fails the kernel.
// Every value is computed in double (random: int64) and rounded once to `dtype` (integers
// truncate and saturate as Cast does; uniform on integers is floored first).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/groups/random.h"
#include "ops/kernels.h"
#include "ops/op_def.h"
#include "ops/op_group.h"

namespace aclsim::ops {
namespace random {
namespace {

enum class Dist {
  kUniform,
  kNormal,
  kBernoulli,
  kRandom,
  kDropout,
  kDropoutMask,
  kRandperm,
  kMultinomial,
};

constexpr const char* kDistNames =
    "uniform, normal, bernoulli, random, dropout, dropout_mask, randperm, multinomial";

bool ParseDist(const std::string& name, Dist* dist) {
  static const std::pair<const char*, Dist> kTable[] = {
      {"uniform", Dist::kUniform},     {"normal", Dist::kNormal},
      {"bernoulli", Dist::kBernoulli}, {"random", Dist::kRandom},
      {"dropout", Dist::kDropout},     {"dropout_mask", Dist::kDropoutMask},
      {"randperm", Dist::kRandperm},   {"multinomial", Dist::kMultinomial},
  };
  for (const auto& [text, value] : kTable) {
    if (name == text) {
      *dist = value;
      return true;
    }
  }
  return false;
}

// Inputs each distribution takes: p1, p2.
void InputsOf(Dist dist, bool* p1, bool* p2) {
  *p1 = dist != Dist::kRandom && dist != Dist::kRandperm;
  *p2 = dist == Dist::kUniform || dist == Dist::kNormal || dist == Dist::kDropout;
}

// Weights (C) or (N, C) with C > 0; y (count) or (N, count).
Status CheckMultinomial(const OpContext& ctx, const std::vector<int64_t>& shape) {
  const std::vector<int64_t>& w = ctx.input(0).dims;
  const int64_t count = ctx.GetInt("count");
  if (w.empty() || w.size() > 2 || w.back() == 0) {
    return ctx.Fail(StatusCode::kOpInputNotMatch,
                    "multinomial weights of shape {} must be (C) or (N, C) with C > 0", DimsStr(w));
  }
  std::vector<int64_t> expected(w.begin(), w.end() - 1);
  expected.push_back(count);
  if (count < 0 || shape != expected) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch,
                    "multinomial of {} samples from weights {} gives shape {}, not {}", count,
                    DimsStr(w), DimsStr(expected), DimsStr(shape));
  }
  if (!ctx.GetBool("replacement") && count > w.back()) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch,
                    "{} samples without replacement from {} categories", count, w.back());
  }
  return Status::Ok();
}

Status InferRandom(OpContext& ctx) {
  Dist dist = Dist::kUniform;
  const std::string& name = ctx.GetString("distribution");
  if (!ParseDist(name, &dist)) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch,
                    "attribute 'distribution' is '{}'; it must be one of {}", name, kDistNames);
  }
  const std::vector<int64_t>& shape = ctx.GetInts("shape");
  for (int64_t d : shape) {
    if (d < 0) {
      return ctx.Fail(StatusCode::kOpAttrNotMatch, "attribute 'shape' = {} has a negative dim",
                      DimsStr(shape));
    }
  }
  const DataType dtype = ctx.GetType("dtype");
  if (!IsKnownDataType(static_cast<int32_t>(dtype)) || DataTypeSize(dtype) == 0) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch, "attribute 'dtype' {} is not a data type it makes",
                    static_cast<int32_t>(dtype));
  }
  if (dist == Dist::kDropoutMask && dtype != DataType::kUint8) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch, "a dropout_mask is uint8, not {}",
                    DataTypeName(dtype));
  }
  if (dist == Dist::kRandom && !(ctx.GetInt("from") < ctx.GetInt("to"))) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch, "random needs from < to, not [{}, {})",
                    ctx.GetInt("from"), ctx.GetInt("to"));
  }
  if (dist == Dist::kRandperm && shape.size() != 1) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch, "a randperm is 1-D, not {}", DimsStr(shape));
  }
  bool wants[2];
  InputsOf(dist, &wants[0], &wants[1]);
  for (size_t i = 0; i < 2; ++i) {
    if (wants[i] != ctx.has_input(i)) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "distribution {} {} input p{}", name,
                      wants[i] ? "needs" : "takes no", i + 1);
    }
    if (!wants[i] || dist == Dist::kMultinomial) continue;
    auto dims = BroadcastDims(ctx.input(i).dims, shape);
    if (!dims.ok() || dims.value() != shape) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} of shape {} does not broadcast to {}",
                      ctx.InputName(i), DimsStr(ctx.input(i).dims), DimsStr(shape));
    }
  }
  if (dist == Dist::kMultinomial) ACLSIM_RETURN_IF_ERROR(CheckMultinomial(ctx, shape));
  ctx.SetOutput(0, dtype, shape, Format::kNd);
  return Status::Ok();
}

// v rounded once to T: fp16 and bf16 through a float rounded to odd (exact when v is a float,
// else truncated with its last bit set), which the final rounding to nearest even turns into
// the correctly rounded value of v; the rest as FromCompute converts.
float RoundToOdd(double v) {
  float f = static_cast<float>(v);
  if (std::isfinite(v) && static_cast<double>(f) != v) {
    if (std::fabs(static_cast<double>(f)) > std::fabs(v)) f = std::nextafter(f, 0.0f);
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof(bits));
    bits |= 1u;
    std::memcpy(&f, &bits, sizeof(bits));
  }
  return f;
}

template <typename T>
T RoundOnce(double v) {
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    return FromCompute<T>(RoundToOdd(v));
  } else {
    return FromCompute<T>(v);
  }
}

// The largest T below v (v finite or +inf).
template <typename T>
T StepDown(T v) {
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    const uint16_t bits = v.bits;
    if ((bits & 0x7fffu) == 0) return T{0x8001u};  // +-0: the smallest negative subnormal
    return T{static_cast<uint16_t>((bits & 0x8000u) != 0 ? bits + 1 : bits - 1)};
  } else {
    return std::nextafter(v, -std::numeric_limits<T>::infinity());
  }
}

// int64 v as T, saturating at T's range.
template <typename T>
T SaturateInt(int64_t v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else if constexpr (std::is_integral_v<T>) {
    using L = std::numeric_limits<T>;
    if constexpr (std::is_signed_v<T>) {
      if (v < static_cast<int64_t>(L::lowest())) return L::lowest();
      if (v > static_cast<int64_t>(L::max())) return L::max();
    } else {
      if (v < 0) return T{0};
      if (static_cast<uint64_t>(v) > static_cast<uint64_t>(L::max())) return L::max();
    }
    return static_cast<T>(v);
  } else {
    return RoundOnce<T>(static_cast<double>(v));
  }
}

struct Params {
  Dist dist = Dist::kUniform;
  uint64_t seed = 0;
  uint64_t offset = 0;
  int64_t from = 0;
  int64_t to = 1;
  int64_t count = -1;
  bool replacement = true;
  std::vector<double> p1, p2;  // the inputs' values (empty: absent)
  std::vector<int64_t> p1_dims, p2_dims;
};

template <typename T>
void Generate(const Params& p, const Tensor& y) {
  T* out = y.ptr<T>();
  const uint64_t range = static_cast<uint64_t>(p.to) - static_cast<uint64_t>(p.from);
  ForEachBroadcast2(p.p1_dims, p.p2_dims, y.dims, [&](int64_t o, int64_t i1, int64_t i2) {
    const PhiloxCounter bits = ElementBits(p.seed, p.offset, static_cast<uint64_t>(o));
    switch (p.dist) {
      case Dist::kUniform: {
        const double from = p.p1[static_cast<size_t>(i1)];
        const double to = p.p2[static_cast<size_t>(i2)];
        double v = from + (to - from) * Uniform(bits);
        if (v >= to && from < to) v = std::nextafter(to, -std::numeric_limits<double>::infinity());
        if constexpr (std::is_integral_v<T>) {
          out[o] = RoundOnce<T>(std::floor(v));
        } else {
          T r = RoundOnce<T>(v);
          if (static_cast<double>(ToCompute(r)) >= to && from < to) r = StepDown(r);
          out[o] = r;
        }
        break;
      }
      case Dist::kNormal:
        out[o] = RoundOnce<T>(p.p1[static_cast<size_t>(i1)] +
                              p.p2[static_cast<size_t>(i2)] * StandardNormal(bits));
        break;
      case Dist::kBernoulli:
        out[o] = RoundOnce<T>(Keep(bits, p.p1[static_cast<size_t>(i1)]) ? 1.0 : 0.0);
        break;
      case Dist::kRandom: {
        const uint64_t r = Below(bits, range);
        out[o] = SaturateInt<T>(static_cast<int64_t>(static_cast<uint64_t>(p.from) + r));
        break;
      }
      case Dist::kDropout: {
        const double keep = p.p2[static_cast<size_t>(i2)];
        const double mask = Keep(bits, keep) ? 1.0 : 0.0;
        out[o] = RoundOnce<T>(p.p1[static_cast<size_t>(i1)] * mask / keep);
        break;
      }
      case Dist::kDropoutMask:
      case Dist::kRandperm:
      case Dist::kMultinomial:
        break;  // RunMask, WriteInts
    }
  });
}

void RunMask(const Params& p, const Tensor& y) {
  auto* out = y.ptr<uint8_t>();
  const uint64_t bytes = static_cast<uint64_t>(y.numel());
  const uint64_t count = p.count < 0 ? bytes * 8 : static_cast<uint64_t>(p.count);
  const double keep = p.p1.empty() ? 0.0 : p.p1[0];
  for (uint64_t b = 0; b < bytes; ++b) {
    uint8_t byte = 0;
    for (uint32_t j = 0; j < 8; ++j) {
      const uint64_t e = b * 8 + j;
      if (e < count && Keep(ElementBits(p.seed, p.offset, e), keep)) {
        byte = static_cast<uint8_t>(byte | (1u << j));
      }
    }
    out[b] = byte;
  }
}

template <typename T>
void WriteInts(const std::vector<int64_t>& values, const Tensor& y) {
  T* out = y.ptr<T>();
  for (size_t i = 0; i < values.size(); ++i) out[i] = SaturateInt<T>(values[i]);
}

std::vector<int64_t> Randperm(const Params& p, int64_t n) {
  std::vector<int64_t> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), int64_t{0});
  for (int64_t i = n - 1; i > 0; --i) {
    const uint64_t j = Below(ElementBits(p.seed, p.offset, static_cast<uint64_t>(i)),
                             static_cast<uint64_t>(i) + 1);
    std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(j)]);
  }
  return perm;
}

Status Multinomial(const RunContext& ctx, const Params& p, std::vector<int64_t>* picks) {
  const auto classes = static_cast<size_t>(p.p1_dims.back());
  const size_t rows = p.p1.size() / classes;
  const auto count = static_cast<size_t>(p.count);
  picks->assign(rows * count, 0);
  std::vector<double> cum(classes);
  std::vector<double> keys(classes);
  std::vector<size_t> order(classes);
  for (size_t r = 0; r < rows; ++r) {
    const double* w = p.p1.data() + r * classes;
    double total = 0;
    size_t nonzero = 0;
    for (size_t k = 0; k < classes; ++k) {
      if (!(w[k] >= 0) || !std::isfinite(w[k])) {
        return ctx.Fail(StatusCode::kOpInputNotMatch,
                        "multinomial weight {} of row {} is {}; weights must be finite and >= 0", k,
                        r, w[k]);
      }
      total += w[k];
      cum[k] = total;
      nonzero += w[k] > 0;
    }
    if (!(total > 0) || (!p.replacement && nonzero < count)) {
      return ctx.Fail(StatusCode::kOpInputNotMatch,
                      "multinomial row {} has {} non-zero weights for {} samples{}", r, nonzero,
                      count, p.replacement ? "" : " without replacement");
    }
    int64_t* row_picks = picks->data() + r * count;
    if (p.replacement) {
      size_t last = classes - 1;
      while (w[last] == 0) --last;
      for (size_t s = 0; s < count; ++s) {
        const double target =
            Uniform(ElementBits(p.seed, p.offset, static_cast<uint64_t>(r * count + s))) * total;
        const size_t k =
            static_cast<size_t>(std::upper_bound(cum.begin(), cum.end(), target) - cum.begin());
        row_picks[s] = static_cast<int64_t>(std::min(k, last));
      }
      continue;
    }
    for (size_t k = 0; k < classes; ++k) {
      const double u =
          1.0 - Uniform(ElementBits(p.seed, p.offset, static_cast<uint64_t>(r * classes + k)));
      keys[k] = w[k] > 0 ? std::log(u) / w[k] : -std::numeric_limits<double>::infinity();
    }
    std::iota(order.begin(), order.end(), size_t{0});
    std::partial_sort(
        order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count), order.end(),
        [&](size_t a, size_t b) { return keys[a] != keys[b] ? keys[a] > keys[b] : a < b; });
    for (size_t s = 0; s < count; ++s) row_picks[s] = static_cast<int64_t>(order[s]);
  }
  return Status::Ok();
}

Status RunRandom(RunContext& ctx) {
  Params p;
  if (!ParseDist(ctx.GetString("distribution"), &p.dist)) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch, "unknown distribution");
  }
  p.seed = static_cast<uint64_t>(ctx.GetInt("seed"));
  p.offset = static_cast<uint64_t>(ctx.GetInt("offset"));
  p.from = ctx.GetInt("from");
  p.to = ctx.GetInt("to");
  p.count = ctx.GetInt("count");
  p.replacement = ctx.GetBool("replacement");
  if (ctx.has_input(0)) {
    p.p1 = ToDoubles(ctx.in(0));
    p.p1_dims = ctx.in(0).dims;
  }
  if (ctx.has_input(1)) {
    p.p2 = ToDoubles(ctx.in(1));
    p.p2_dims = ctx.in(1).dims;
  }
  const Tensor& y = ctx.out(0);
  if (p.dist == Dist::kDropoutMask) {
    RunMask(p, y);
    return Status::Ok();
  }
  std::vector<int64_t> ints;
  if (p.dist == Dist::kRandperm) ints = Randperm(p, y.numel());
  if (p.dist == Dist::kMultinomial) ACLSIM_RETURN_IF_ERROR(Multinomial(ctx, p, &ints));
  const bool integers = p.dist == Dist::kRandperm || p.dist == Dist::kMultinomial;
  return DispatchType(y.dtype, [&](auto tag) -> Status {
    if (integers) {
      WriteInts<decltype(tag)>(ints, y);
    } else {
      Generate<decltype(tag)>(p, y);
    }
    return Status::Ok();
  });
}

}  // namespace
}  // namespace random

void RegisterRandomOps(OpRegistry& registry) {
  OpDef def;
  def.type = "StatelessRandom";
  def.inputs = {OptIn("p1", FloatTypes()), OptIn("p2", FloatTypes())};
  def.outputs = {Out("y", AllTypes())};
  def.attrs = {OptAttr("distribution", AttrType::kString, std::string("uniform")),
               OptAttr("shape", AttrType::kListInt, std::vector<int64_t>{}),
               OptAttr("dtype", AttrType::kType, DataType::kFloat),
               OptAttr("seed", AttrType::kInt, int64_t{0}),
               OptAttr("offset", AttrType::kInt, int64_t{0}),
               OptAttr("from", AttrType::kInt, int64_t{0}),
               OptAttr("to", AttrType::kInt, int64_t{1}),
               OptAttr("count", AttrType::kInt, int64_t{-1}),
               OptAttr("replacement", AttrType::kBool, true)};
  def.ops_per_element = 24;  // ten Philox rounds and the distribution's math
  def.infer = random::InferRandom;
  def.run = random::RunRandom;
  registry.Add(std::move(def));
}

}  // namespace aclsim::ops
