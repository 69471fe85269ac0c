// Reductions and arg-reductions (cann_ops.md 1J).
//
// Non-D ops (ReduceSum, ...) take the axes as an index input (a value input); the D ops
// (ReduceSumD, ...) take them as the `axes` attribute. Empty axes: the non-D ops follow
// noop_with_empty_axes (default true: y = x, TF semantics; ReduceAll/Any always no-op), the
// D ops reduce every axis (ReduceMeanD honours its noop_with_empty_axes, default false).
// Accumulation: fp16/bf16 in float, integers in 64 bits, float/double in themselves.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "ops/kernels.h"
#include "ops/op_group.h"

namespace aclsim::ops {

namespace {

enum class ReduceKind { kSum, kMean, kMax, kMin, kProd, kAll, kAny, kLogSumExp };

// Where the axes come from and what empty axes mean.
struct ReduceSpec {
  ReduceKind kind = ReduceKind::kSum;
  bool axes_attr = false;        // D-variant: `axes` attribute; else input 1
  bool has_noop_attr = false;    // noop_with_empty_axes is an attribute of the op
  bool empty_is_noop = false;    // when there is no such attribute
  uint32_t ops_per_element = 1;  // vector ops per input element (cost model)
};

// The reduced axes of a call: flags per dimension, or noop.
struct AxesPlan {
  std::vector<bool> reduced;
  bool noop = false;
};

// Raw axes, from the attribute or the value input (infer: descriptor value; run: buffer).
template <typename Ctx>
Result<std::vector<int64_t>> RawAxes(const ReduceSpec& spec, const Ctx& ctx) {
  if (spec.axes_attr) return ctx.GetInts("axes");
  return ctx.InputInts(1);
}

template <typename Ctx>
bool EmptyIsNoop(const ReduceSpec& spec, const Ctx& ctx) {
  return spec.has_noop_attr ? ctx.GetBool("noop_with_empty_axes") : spec.empty_is_noop;
}

// Normalises axes against `rank`; *bad receives the first out-of-range axis.
bool PlanAxes(const std::vector<int64_t>& axes, int64_t rank, bool empty_is_noop, AxesPlan* plan,
              int64_t* bad) {
  plan->reduced.assign(static_cast<size_t>(rank), false);
  plan->noop = false;
  if (axes.empty()) {
    if (empty_is_noop) {
      plan->noop = true;
    } else {
      plan->reduced.assign(static_cast<size_t>(rank), true);
    }
    return true;
  }
  const int64_t bound = std::max<int64_t>(rank, 1);
  for (int64_t axis : axes) {
    if (axis < -bound || axis >= bound) {
      *bad = axis;
      return false;
    }
    if (rank > 0) plan->reduced[static_cast<size_t>(axis < 0 ? axis + rank : axis)] = true;
  }
  return true;
}

std::vector<int64_t> ReducedDims(const std::vector<int64_t>& dims, const AxesPlan& plan,
                                 bool keep_dims) {
  if (plan.noop) return dims;
  std::vector<int64_t> out;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (!plan.reduced[d]) {
      out.push_back(dims[d]);
    } else if (keep_dims) {
      out.push_back(1);
    }
  }
  return out;
}

Status InferReduce(const ReduceSpec& spec, OpContext& ctx) {
  ACLSIM_ASSIGN_OR_RETURN(auto axes, RawAxes(spec, ctx));
  const auto& x = ctx.input(0);
  AxesPlan plan;
  int64_t bad = 0;
  if (!PlanAxes(axes, static_cast<int64_t>(x.dims.size()), EmptyIsNoop(spec, ctx), &plan, &bad)) {
    if (spec.axes_attr) {
      return ctx.Fail(StatusCode::kOpAttrNotMatch,
                      "attribute 'axes' value {} is out of range for {} of rank {}", bad,
                      ctx.InputName(0), x.dims.size());
    }
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} value {} is out of range for {} of rank {}",
                    ctx.InputName(1), bad, ctx.InputName(0), x.dims.size());
  }
  ctx.SetOutput(0, x.dtype, ReducedDims(x.dims, plan, ctx.GetBool("keep_dims")));
  return Status::Ok();
}

// Calls body(in_index, out_index) for every element of `dims`, out_index being the element's
// position in the reduced output (reduced dimensions collapse).
template <typename Body>
void ForEachReduced(const std::vector<int64_t>& dims, const std::vector<bool>& reduced,
                    Body&& body) {
  const size_t rank = dims.size();
  const int64_t total = Product(dims);
  if (total == 0) return;
  if (rank == 0) {
    body(0, 0);
    return;
  }
  std::vector<int64_t> ostride(rank, 0);
  int64_t s = 1;
  for (size_t d = rank; d-- > 0;) {
    if (!reduced[d]) {
      ostride[d] = s;
      s *= dims[d];
    }
  }
  const int64_t inner = dims[rank - 1];
  const int64_t step = ostride[rank - 1];
  std::vector<int64_t> index(rank, 0);
  int64_t obase = 0;
  for (int64_t i = 0; i < total; i += inner) {
    for (int64_t j = 0; j < inner; ++j) body(i + j, obase + j * step);
    for (size_t d = rank - 1; d-- > 0;) {
      ++index[d];
      obase += ostride[d];
      if (index[d] < dims[d]) break;
      obase -= ostride[d] * index[d];
      index[d] = 0;
    }
  }
}

// Accumulator type: 64-bit for integers, float for fp16/bf16, else the type itself.
template <typename T>
using AccT =
    std::conditional_t<std::is_integral_v<T> && !std::is_same_v<T, bool>,
                       std::conditional_t<std::is_unsigned_v<T>, uint64_t, int64_t>, ComputeT<T>>;

template <typename A>
A Lowest() {
  if constexpr (std::is_floating_point_v<A>) {
    return -std::numeric_limits<A>::infinity();
  } else {
    return std::numeric_limits<A>::lowest();
  }
}

template <typename A>
A Highest() {
  if constexpr (std::is_floating_point_v<A>) {
    return std::numeric_limits<A>::infinity();
  } else {
    return std::numeric_limits<A>::max();
  }
}

template <typename T>
Status ReduceKernel(ReduceKind kind, const Tensor& x, const Tensor& y,
                    const std::vector<bool>& reduced) {
  using A = AccT<T>;
  const T* px = x.ptr<const T>();
  T* py = y.ptr<T>();
  const int64_t out_n = y.numel();
  int64_t count = 1;
  for (size_t d = 0; d < x.dims.size(); ++d) {
    if (reduced[d]) count *= x.dims[d];
  }
  auto load = [&](int64_t i) { return static_cast<A>(ToCompute(px[i])); };
  std::vector<A> acc(static_cast<size_t>(out_n));
  switch (kind) {
    case ReduceKind::kSum:
    case ReduceKind::kMean:
      std::fill(acc.begin(), acc.end(), A{0});
      ForEachReduced(x.dims, reduced,
                     [&](int64_t i, int64_t o) { acc[o] = AddWrap(acc[o], load(i)); });
      if (kind == ReduceKind::kMean) {
        for (auto& a : acc) {
          if constexpr (std::is_floating_point_v<A>) {
            a = a / static_cast<A>(count);  // 0 / 0 = NaN for an empty reduction
          } else {
            a = count == 0 ? A{0} : static_cast<A>(a / static_cast<A>(count));
          }
        }
      }
      break;
    case ReduceKind::kProd:
      std::fill(acc.begin(), acc.end(), A{1});
      ForEachReduced(x.dims, reduced,
                     [&](int64_t i, int64_t o) { acc[o] = MulWrap(acc[o], load(i)); });
      break;
    case ReduceKind::kMax:
      std::fill(acc.begin(), acc.end(), Lowest<A>());
      ForEachReduced(x.dims, reduced, [&](int64_t i, int64_t o) {
        const A v = load(i);
        if (IsNanValue(v) || v > acc[o]) acc[o] = v;  // NaN propagates (and stays)
      });
      break;
    case ReduceKind::kMin:
      std::fill(acc.begin(), acc.end(), Highest<A>());
      ForEachReduced(x.dims, reduced, [&](int64_t i, int64_t o) {
        const A v = load(i);
        if (IsNanValue(v) || v < acc[o]) acc[o] = v;
      });
      break;
    case ReduceKind::kLogSumExp:
      if constexpr (std::is_floating_point_v<A>) {
        std::vector<A> peak(static_cast<size_t>(out_n), Lowest<A>());
        ForEachReduced(x.dims, reduced, [&](int64_t i, int64_t o) {
          const A v = load(i);
          if (IsNanValue(v) || v > peak[o]) peak[o] = v;
        });
        std::fill(acc.begin(), acc.end(), A{0});
        ForEachReduced(x.dims, reduced, [&](int64_t i, int64_t o) {
          if (std::isfinite(peak[o])) acc[o] += std::exp(load(i) - peak[o]);
        });
        for (int64_t o = 0; o < out_n; ++o) {
          acc[o] = std::isfinite(peak[o]) ? peak[o] + std::log(acc[o]) : peak[o];
        }
      } else {
        return Status(StatusCode::kUnsupportedDataType, "ReduceLogSumExp needs a float type");
      }
      break;
    case ReduceKind::kAll:
    case ReduceKind::kAny:
      return Status(StatusCode::kInternal, "bool reduction in the numeric kernel");
  }
  for (int64_t o = 0; o < out_n; ++o) {
    if constexpr (std::is_integral_v<A>) {
      py[o] = static_cast<T>(acc[o]);  // integers wrap like the device's adds
    } else {
      py[o] = FromCompute<T>(acc[o]);
    }
  }
  return Status::Ok();
}

Status RunReduce(const ReduceSpec& spec, RunContext& ctx) {
  const Tensor& x = ctx.in(0);
  Tensor& y = ctx.out(0);
  ACLSIM_ASSIGN_OR_RETURN(auto axes, RawAxes(spec, ctx));
  AxesPlan plan;
  int64_t bad = 0;
  if (!PlanAxes(axes, x.rank(), EmptyIsNoop(spec, ctx), &plan, &bad)) {
    return ctx.Fail(StatusCode::kInvalidParam, "axis {} is out of range for rank {}", bad,
                    x.rank());
  }
  if (plan.noop) {
    const size_t bytes = static_cast<size_t>(x.numel()) * DataTypeSize(x.dtype);
    if (bytes != 0) std::memmove(y.data, x.data, bytes);
    return Status::Ok();
  }
  if (spec.kind == ReduceKind::kAll || spec.kind == ReduceKind::kAny) {
    // Bytes, not bool loads: any non-zero byte is true.
    const uint8_t* px = x.ptr<const uint8_t>();
    uint8_t* py = y.ptr<uint8_t>();
    const bool all = spec.kind == ReduceKind::kAll;
    std::fill(py, py + y.numel(), static_cast<uint8_t>(all));
    ForEachReduced(x.dims, plan.reduced, [&](int64_t i, int64_t o) {
      if (all) {
        py[o] = py[o] && px[i] != 0;
      } else {
        py[o] = py[o] || px[i] != 0;
      }
    });
    return Status::Ok();
  }
  return DispatchType(x.dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) {
      return ctx.Fail(StatusCode::kUnsupportedDataType, "bool input");
    } else {
      return ReduceKernel<T>(spec.kind, x, y, plan.reduced);
    }
  });
}

// Vector work: every input element once (the default counts output elements).
WorkFn ReduceWorkFn(uint32_t ops) {
  return [ops](const OpContext& ctx, const driver::DeviceProps& props, uint32_t* blocks) {
    auto work = DefaultWork(ctx, props, blocks);
    const uint64_t in_elements =
        static_cast<uint64_t>(std::max<int64_t>(0, ctx.input(0).ElementCount()));
    work.vector_flops = std::max<uint64_t>(work.vector_flops, in_elements * ops);
    return work;
  };
}

OpDef ReduceOp(std::string type, ReduceSpec spec, const std::vector<DataType>& dtypes,
               std::vector<AttrDef> extra_attrs = {}) {
  OpDef def;
  def.type = std::move(type);
  def.inputs = {In("x", dtypes)};
  if (!spec.axes_attr) {
    def.inputs.push_back(In("axes", IndexTypes()));
    def.value_inputs = {1};
  } else {
    def.attrs.push_back(ReqAttr("axes", AttrType::kListInt));
  }
  def.outputs = {Out("y", dtypes)};
  def.attrs.push_back(OptAttr("keep_dims", AttrType::kBool, false));
  for (auto& attr : extra_attrs) def.attrs.push_back(std::move(attr));
  def.infer = [spec](OpContext& ctx) { return InferReduce(spec, ctx); };
  def.run = [spec](RunContext& ctx) { return RunReduce(spec, ctx); };
  def.work = ReduceWorkFn(spec.ops_per_element);
  return def;
}

// --- arg reductions -------------------------------------------------------------------

enum class ArgKind2 { kMax, kMin };

// Where the dimension comes from: input 1 (ArgMaxV2, ArgMin) or the `dimension` attribute.
template <typename Ctx>
Result<int64_t> RawDimension(bool from_attr, const Ctx& ctx) {
  if (from_attr) return ctx.GetInt("dimension");
  Result<std::vector<int64_t>> read = ctx.InputInts(1);
  ACLSIM_ASSIGN_OR_RETURN(auto values, std::move(read));
  if (values.size() != 1) {
    return Status(StatusCode::kOpInputNotMatch,
                  fmt::format("op {}: input 1 (dimension) must hold one value but holds {}",
                              ctx.call().type, values.size()));
  }
  return values[0];
}

// Normalised dimension against `rank` (a scalar x is treated as [1]).
Result<int64_t> CheckDimension(const OpContext& ctx, bool from_attr, int64_t dim, int64_t rank) {
  const int64_t bound = std::max<int64_t>(rank, 1);
  if (dim < -bound || dim >= bound) {
    if (from_attr) {
      return ctx.Fail(StatusCode::kOpAttrNotMatch,
                      "attribute 'dimension' value {} is out of range for {} of rank {}", dim,
                      ctx.InputName(0), rank);
    }
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} value {} is out of range for {} of rank {}",
                    ctx.InputName(1), dim, ctx.InputName(0), rank);
  }
  return dim < 0 ? dim + bound : dim;
}

// An arg reduction over an empty dimension has no answer when the output has elements
// (numpy raises too).
Status CheckNotEmpty(const OpContext& ctx, int64_t axis) {
  const auto& dims = ctx.input(0).dims;
  if (dims.empty() || dims[static_cast<size_t>(axis)] != 0) return Status::Ok();
  for (size_t d = 0; d < dims.size(); ++d) {
    if (d != static_cast<size_t>(axis) && dims[d] == 0) return Status::Ok();  // empty output
  }
  return ctx.Fail(StatusCode::kOpInputNotMatch,
                  "{} shape [{}] is empty along the reduced dimension {}", ctx.InputName(0),
                  fmt::join(dims, ", "), axis);
}

std::vector<int64_t> ArgDims(const std::vector<int64_t>& dims, int64_t axis, bool keep_dims) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (static_cast<int64_t>(d) != axis) {
      out.push_back(dims[d]);
    } else if (keep_dims) {
      out.push_back(1);
    }
  }
  return out;
}

// Arg reduction along `axis`: first extreme wins; NaN counts as the extreme (first NaN wins),
// as numpy's argmax / argmin do. Writes indices (int32 or int64) and optionally values.
template <typename T>
void ArgKernel(ArgKind2 kind, const Tensor& x, int64_t axis, const Tensor& indices,
               const Tensor* values) {
  using C = ComputeT<T>;
  const T* px = x.ptr<const T>();
  const size_t ax = static_cast<size_t>(axis);
  const int64_t outer = x.rank() == 0 ? 1 : Product(x.dims, 0, ax);
  const int64_t n = x.rank() == 0 ? 1 : x.dims[ax];
  const int64_t inner = x.rank() == 0 ? 1 : Product(x.dims, ax + 1);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * n * inner + i;
      int64_t best_k = 0;
      C best = n > 0 ? ToCompute(px[base]) : C{};
      for (int64_t k = 1; k < n && !IsNanValue(best); ++k) {
        const C v = ToCompute(px[base + k * inner]);
        const bool better = kind == ArgKind2::kMax ? v > best : v < best;
        if (IsNanValue(v) || better) {
          best = v;
          best_k = k;
        }
      }
      const int64_t out = o * inner + i;
      if (indices.dtype == DataType::kInt32) {
        indices.ptr<int32_t>()[out] = static_cast<int32_t>(best_k);
      } else {
        indices.ptr<int64_t>()[out] = best_k;
      }
      if (values != nullptr) values->ptr<T>()[out] = px[base + best_k * inner];
    }
  }
}

Status CheckIndexDtype(const OpContext& ctx, DataType dtype) {
  if (dtype != DataType::kInt32 && dtype != DataType::kInt64) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch, "attribute 'dtype' must be int32 or int64, not {}",
                    DataTypeName(dtype));
  }
  return Status::Ok();
}

OpDef ArgOp(std::string type, ArgKind2 kind, bool from_attr) {
  OpDef def;
  def.type = std::move(type);
  def.inputs = {In("x", NumberTypes())};
  if (from_attr) {
    def.attrs.push_back(ReqAttr("dimension", AttrType::kInt));
  } else {
    def.inputs.push_back(In("dimension", IndexTypes()));
    def.value_inputs = {1};
  }
  def.attrs.push_back(OptAttr("dtype", AttrType::kType, DataType::kInt64));
  def.outputs = {Out("y", IndexTypes())};
  def.infer = [from_attr](OpContext& ctx) -> Status {
    ACLSIM_ASSIGN_OR_RETURN(int64_t raw, RawDimension(from_attr, ctx));
    const auto& x = ctx.input(0);
    ACLSIM_ASSIGN_OR_RETURN(
        int64_t axis, CheckDimension(ctx, from_attr, raw, static_cast<int64_t>(x.dims.size())));
    const DataType dtype = ctx.GetType("dtype");
    ACLSIM_RETURN_IF_ERROR(CheckIndexDtype(ctx, dtype));
    ACLSIM_RETURN_IF_ERROR(CheckNotEmpty(ctx, axis));
    ctx.SetOutput(0, dtype, ArgDims(x.dims, axis, false));
    return Status::Ok();
  };
  def.run = [kind, from_attr](RunContext& ctx) -> Status {
    ACLSIM_ASSIGN_OR_RETURN(int64_t raw, RawDimension(from_attr, ctx));
    const Tensor& x = ctx.in(0);
    const int64_t axis = raw < 0 ? raw + std::max<int64_t>(x.rank(), 1) : raw;
    return DispatchType(x.dtype, [&](auto tag) -> Status {
      using T = decltype(tag);
      ArgKernel<T>(kind, x, axis, ctx.out(0), nullptr);
      return Status::Ok();
    });
  };
  def.work = ReduceWorkFn(1);
  return def;
}

OpDef ArgWithValueOp(std::string type, ArgKind2 kind) {
  OpDef def;
  def.type = std::move(type);
  const std::vector<DataType> dtypes = {DataType::kFloat, DataType::kFloat16, DataType::kBf16,
                                        DataType::kInt64, DataType::kInt32};
  def.inputs = {In("x", dtypes)};
  def.outputs = {Out("indice", IndexTypes()), Out("values", dtypes)};
  def.attrs = {ReqAttr("dimension", AttrType::kInt), OptAttr("keep_dims", AttrType::kBool, false)};
  def.infer = [](OpContext& ctx) -> Status {
    const auto& x = ctx.input(0);
    ACLSIM_ASSIGN_OR_RETURN(int64_t axis, CheckDimension(ctx, true, ctx.GetInt("dimension"),
                                                         static_cast<int64_t>(x.dims.size())));
    ACLSIM_RETURN_IF_ERROR(CheckNotEmpty(ctx, axis));
    auto dims = ArgDims(x.dims, axis, ctx.GetBool("keep_dims"));
    ctx.SetOutput(0, DataType::kInt32, dims);
    ctx.SetOutput(1, x.dtype, dims);
    return Status::Ok();
  };
  def.run = [kind](RunContext& ctx) -> Status {
    const Tensor& x = ctx.in(0);
    const int64_t raw = ctx.GetInt("dimension");
    const int64_t axis = raw < 0 ? raw + std::max<int64_t>(x.rank(), 1) : raw;
    return DispatchType(x.dtype, [&](auto tag) -> Status {
      using T = decltype(tag);
      ArgKernel<T>(kind, x, axis, ctx.out(0), &ctx.out(1));
      return Status::Ok();
    });
  };
  def.work = ReduceWorkFn(1);
  return def;
}

}  // namespace

void RegisterReduceOps(OpRegistry& registry) {
  const auto numbers = NumberTypes();
  const std::vector<DataType> bools = {DataType::kBool};
  auto noop_attr = [](bool value) {
    return std::vector<AttrDef>{OptAttr("noop_with_empty_axes", AttrType::kBool, value)};
  };
  struct Entry {
    const char* name;
    ReduceKind kind;
    uint32_t ops;
  };
  const Entry numeric[] = {{"ReduceSum", ReduceKind::kSum, 1},
                           {"ReduceMean", ReduceKind::kMean, 1},
                           {"ReduceMax", ReduceKind::kMax, 1},
                           {"ReduceMin", ReduceKind::kMin, 1},
                           {"ReduceProd", ReduceKind::kProd, 1}};
  for (const auto& e : numeric) {
    ReduceSpec spec;
    spec.kind = e.kind;
    spec.has_noop_attr = true;
    spec.ops_per_element = e.ops;
    registry.Add(ReduceOp(e.name, spec, numbers, noop_attr(true)));
    ReduceSpec d = spec;
    d.axes_attr = true;
    d.has_noop_attr = e.kind == ReduceKind::kMean;  // only ReduceMeanD declares it
    d.empty_is_noop = false;
    registry.Add(ReduceOp(std::string(e.name) + "D", d, numbers,
                          d.has_noop_attr ? noop_attr(false) : std::vector<AttrDef>{}));
  }
  for (auto [name, kind] :
       {std::pair{"ReduceAll", ReduceKind::kAll}, std::pair{"ReduceAny", ReduceKind::kAny}}) {
    ReduceSpec spec;
    spec.kind = kind;
    spec.empty_is_noop = true;
    registry.Add(ReduceOp(name, spec, bools));
  }
  {
    // ONNX ReduceLogSumExp (opset 18: axes input, noop_with_empty_axes default 0).
    ReduceSpec spec;
    spec.kind = ReduceKind::kLogSumExp;
    spec.has_noop_attr = true;
    spec.ops_per_element = 6;
    registry.Add(ReduceOp("ReduceLogSumExp", spec, FloatTypes(), noop_attr(false)));
  }

  registry.Add(ArgOp("ArgMaxV2", ArgKind2::kMax, false));
  registry.Add(ArgOp("ArgMaxD", ArgKind2::kMax, true));
  registry.Add(ArgOp("ArgMin", ArgKind2::kMin, false));
  registry.Add(ArgOp("ArgMinD", ArgKind2::kMin, true));
  registry.Add(ArgWithValueOp("ArgMaxWithValue", ArgKind2::kMax));
  registry.Add(ArgWithValueOp("ArgMinWithValue", ArgKind2::kMin));
}

}  // namespace aclsim::ops
