// Selection, sorting and data-dependent-shape ops (cann_ops.md 1K): TopK(V2)(D), Sort, Where,
// NonZero, Cumsum(D). The gathers (1H) are in gather_ops.cc.
//
// These run on the AI CPU; ties keep the lower index first (stable, as numpy / ONNX), NaN
// sorts as the greatest value.
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

// --- AI CPU ops -------------------------------------------------------------------------

// AI CPU work: elements processed, every byte read and written once, sharded over the AI
// CPU cores in 16 Ki-element pieces.
driver::KernelWork AicpuWork(const OpContext& ctx, const driver::DeviceProps& props,
                             uint32_t* blocks) {
  driver::KernelWork work;
  uint64_t read = 0;
  uint64_t written = 0;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    if (ctx.has_input(i)) read += ctx.input(i).ByteSize();
  }
  for (size_t i = 0; i < ctx.num_outputs(); ++i) written += ctx.output(i).ByteSize();
  const uint64_t elements = static_cast<uint64_t>(
      std::max<int64_t>(0, ctx.has_input(0) ? ctx.input(0).ElementCount() : 0));
  work.dtype = driver::DtypeClass::kFp32;
  work.aicpu_elements = std::max<uint64_t>(1, elements);
  work.gm_read_bytes = read;
  work.gm_write_bytes = written;
  const uint64_t cores = std::max<uint32_t>(1, props.aicpu_num);
  *blocks = static_cast<uint32_t>(std::min<uint64_t>(cores, std::max<uint64_t>(1, elements >> 14)));
  return work;
}

// a > b with NaN the greatest value (NaN == NaN).
template <typename C>
bool Greater(C a, C b) {
  if (IsNanValue(a)) return !IsNanValue(b);
  if (IsNanValue(b)) return false;
  return a > b;
}

void StoreIndex(const Tensor& t, int64_t pos, int64_t value) {
  if (t.dtype == DataType::kInt32) {
    t.ptr<int32_t>()[pos] = static_cast<int32_t>(value);
  } else {
    t.ptr<int64_t>()[pos] = value;
  }
}

// Sorts every line along `axis` (stable), writing the first `k` values and indices.
template <typename T>
void SortLines(const Tensor& x, int64_t axis, int64_t k, bool descending, const Tensor& values,
               const Tensor& indices) {
  using C = ComputeT<T>;
  const T* px = x.ptr<const T>();
  T* pv = values.ptr<T>();
  const size_t ax = static_cast<size_t>(axis);
  const int64_t outer = Product(x.dims, 0, ax);
  const int64_t n = x.dims[ax];
  const int64_t inner = Product(x.dims, ax + 1);
  std::vector<C> line(static_cast<size_t>(n));
  std::vector<int64_t> order(static_cast<size_t>(n));
  auto before = [&](int64_t a, int64_t b) {
    const C va = line[static_cast<size_t>(a)];
    const C vb = line[static_cast<size_t>(b)];
    if (descending ? Greater(va, vb) : Greater(vb, va)) return true;
    if (descending ? Greater(vb, va) : Greater(va, vb)) return false;
    return a < b;  // ties: lower index first
  };
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * n * inner + i;
      for (int64_t j = 0; j < n; ++j)
        line[static_cast<size_t>(j)] = ToCompute(px[base + j * inner]);
      std::iota(order.begin(), order.end(), int64_t{0});
      std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
      for (int64_t j = 0; j < k; ++j) {
        const int64_t src = order[static_cast<size_t>(j)];
        const int64_t dst = o * k * inner + j * inner + i;
        pv[dst] = px[base + src * inner];
        StoreIndex(indices, dst, src);
      }
    }
  }
}

enum class TopKFlavor { kTopK, kTopKV2, kTopKD, kTopKV2D };

OpDef TopKOp(std::string type, TopKFlavor flavor) {
  OpDef def;
  def.type = std::move(type);
  def.engine = driver::Engine::kAiCpu;
  const bool k_attr = flavor == TopKFlavor::kTopKD;
  std::vector<DataType> reals = NumberTypes();
  def.inputs = {In("x", reals)};
  if (!k_attr) {
    def.inputs.push_back(In("k", IndexTypes()));
    def.value_inputs = {1};
  }
  if (flavor == TopKFlavor::kTopKD || flavor == TopKFlavor::kTopKV2D) {
    def.inputs.push_back(OptIn("assist_seq"));  // GE's helper tensor; not needed here
  }
  def.outputs = {Out("values", reals), Out("indices", IndexTypes())};
  if (k_attr) def.attrs.push_back(ReqAttr("k", AttrType::kInt));
  def.attrs.push_back(OptAttr("sorted", AttrType::kBool, true));
  def.attrs.push_back(OptAttr("largest", AttrType::kBool, true));
  def.attrs.push_back(OptAttr("dim", AttrType::kInt, int64_t{-1}));
  if (flavor == TopKFlavor::kTopKV2) {
    def.attrs.push_back(
        OptAttr("indices_dtype", AttrType::kInt, static_cast<int64_t>(DataType::kInt32)));
  }
  def.infer = [k_attr](OpContext& ctx) -> Status {
    const auto& x = ctx.input(0);
    const int64_t rank = static_cast<int64_t>(x.dims.size());
    if (rank == 0) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} must have rank >= 1", ctx.InputName(0));
    }
    ACLSIM_ASSIGN_OR_RETURN(int64_t dim, CheckAxis(ctx, ctx.GetInt("dim"), rank, false, 0, "dim"));
    const int64_t n = x.dims[static_cast<size_t>(dim)];
    int64_t k = 0;
    if (k_attr) {
      k = ctx.GetInt("k");
      if (k < 0 || k > n) {
        return ctx.Fail(StatusCode::kOpAttrNotMatch,
                        "attribute 'k' {} is out of range [0, {}] (size of dim {} of {})", k, n,
                        dim, ctx.InputName(0));
      }
    } else {
      ACLSIM_ASSIGN_OR_RETURN(k, ScalarInput(ctx, 1));
      if (k < 0 || k > n) {
        return ctx.Fail(StatusCode::kOpInputNotMatch,
                        "{} value {} is out of range [0, {}] (size of dim {} of {})",
                        ctx.InputName(1), k, n, dim, ctx.InputName(0));
      }
    }
    DataType index_dtype = DataType::kInt32;
    if (ctx.Has("indices_dtype")) {
      index_dtype = static_cast<DataType>(ctx.GetInt("indices_dtype"));
      if (index_dtype != DataType::kInt32 && index_dtype != DataType::kInt64) {
        return ctx.Fail(StatusCode::kOpAttrNotMatch,
                        "attribute 'indices_dtype' {} must be int32 (3) or int64 (9)",
                        ctx.GetInt("indices_dtype"));
      }
    }
    auto dims = x.dims;
    dims[static_cast<size_t>(dim)] = k;
    ctx.SetOutput(0, x.dtype, dims);
    ctx.SetOutput(1, index_dtype, dims);
    return Status::Ok();
  };
  def.run = [k_attr](RunContext& ctx) -> Status {
    const Tensor& x = ctx.in(0);
    const int64_t axis = NormAxis(ctx.GetInt("dim"), x.rank());
    const int64_t k = k_attr ? ctx.GetInt("k") : RunScalar(ctx, 1);
    const bool largest = ctx.GetBool("largest");
    return DispatchType(x.dtype, [&](auto tag) -> Status {
      using T = decltype(tag);
      SortLines<T>(x, axis, k, largest, ctx.out(0), ctx.out(1));
      return Status::Ok();
    });
  };
  def.work = AicpuWork;
  return def;
}

OpDef SortOp() {
  OpDef def;
  def.type = "Sort";
  def.engine = driver::Engine::kAiCpu;
  def.inputs = {In("x", NumberTypes())};
  def.outputs = {Out("y1", NumberTypes()), Out("y2", IndexTypes())};
  def.attrs = {OptAttr("axis", AttrType::kInt, int64_t{-1}),
               OptAttr("descending", AttrType::kBool, false),
               OptAttr("stable", AttrType::kBool, false),
               OptAttr("y2_dtype", AttrType::kType, DataType::kInt32)};
  def.infer = [](OpContext& ctx) -> Status {
    const auto& x = ctx.input(0);
    const int64_t rank = static_cast<int64_t>(x.dims.size());
    if (rank == 0) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} must have rank >= 1", ctx.InputName(0));
    }
    ACLSIM_RETURN_IF_ERROR(CheckAxis(ctx, ctx.GetInt("axis"), rank, false, 0, "axis").status());
    const DataType index_dtype = ctx.GetType("y2_dtype");
    if (index_dtype != DataType::kInt32 && index_dtype != DataType::kInt64) {
      return ctx.Fail(StatusCode::kOpAttrNotMatch,
                      "attribute 'y2_dtype' must be int32 or int64, not {}",
                      DataTypeName(index_dtype));
    }
    ctx.SetOutput(0, x.dtype, x.dims);
    ctx.SetOutput(1, index_dtype, x.dims);
    return Status::Ok();
  };
  def.run = [](RunContext& ctx) -> Status {
    const Tensor& x = ctx.in(0);
    const int64_t axis = NormAxis(ctx.GetInt("axis"), x.rank());
    const int64_t n = x.dims[static_cast<size_t>(axis)];
    return DispatchType(x.dtype, [&](auto tag) -> Status {
      using T = decltype(tag);
      SortLines<T>(x, axis, n, ctx.GetBool("descending"), ctx.out(0), ctx.out(1));
      return Status::Ok();
    });
  };
  def.work = AicpuWork;
  return def;
}

// Where / NonZero: coordinates of the non-zero elements (row-major order), [count, rank] or
// with NonZero's transpose [rank, count]. Infer gives the largest shape; run the real one.
OpDef NonZeroOp(std::string type, bool has_attrs) {
  OpDef def;
  def.type = std::move(type);
  def.engine = driver::Engine::kAiCpu;
  def.dynamic_output_shape = true;
  def.inputs = {In("x", AllTypes())};
  def.outputs = {Out("y", has_attrs ? IndexTypes() : std::vector<DataType>{DataType::kInt64})};
  if (has_attrs) {
    def.attrs = {OptAttr("transpose", AttrType::kBool, false),
                 OptAttr("dtype", AttrType::kType, DataType::kInt64)};
  }
  def.infer = [has_attrs](OpContext& ctx) -> Status {
    const auto& x = ctx.input(0);
    const int64_t rank = static_cast<int64_t>(x.dims.size());
    const int64_t count = x.ElementCount();
    DataType dtype = DataType::kInt64;
    bool transpose = false;
    if (has_attrs) {
      dtype = ctx.GetType("dtype");
      transpose = ctx.GetBool("transpose");
      if (dtype != DataType::kInt32 && dtype != DataType::kInt64) {
        return ctx.Fail(StatusCode::kOpAttrNotMatch,
                        "attribute 'dtype' must be int32 or int64, not {}", DataTypeName(dtype));
      }
    }
    ctx.SetOutput(
        0, dtype,
        transpose ? std::vector<int64_t>{rank, count} : std::vector<int64_t>{count, rank});
    return Status::Ok();
  };
  def.run = [has_attrs](RunContext& ctx) -> Status {
    const Tensor& x = ctx.in(0);
    const Tensor& y = ctx.out(0);
    const bool transpose = has_attrs && ctx.GetBool("transpose");
    const int64_t total = x.numel();
    const int64_t rank = x.rank();
    std::vector<int64_t> hits;
    ACLSIM_RETURN_IF_ERROR(DispatchType(x.dtype, [&](auto tag) -> Status {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, bool>) {
        const auto* bytes = x.ptr<const uint8_t>();  // any non-zero byte is true
        for (int64_t i = 0; i < total; ++i) {
          if (bytes[i] != 0) hits.push_back(i);
        }
      } else {
        const T* px = x.ptr<const T>();
        for (int64_t i = 0; i < total; ++i) {
          if (ToCompute(px[i]) != ComputeT<T>{0}) hits.push_back(i);
        }
      }
      return Status::Ok();
    }));
    const int64_t count = static_cast<int64_t>(hits.size());
    const auto strides = Strides(x.dims);
    for (int64_t h = 0; h < count; ++h) {
      int64_t rest = hits[static_cast<size_t>(h)];
      for (int64_t d = 0; d < rank; ++d) {
        const int64_t coord = rest / strides[static_cast<size_t>(d)];
        rest %= strides[static_cast<size_t>(d)];
        StoreIndex(y, transpose ? d * count + h : h * rank + d, coord);
      }
    }
    return ctx.SetOutputDims(
        0, transpose ? std::vector<int64_t>{rank, count} : std::vector<int64_t>{count, rank});
  };
  def.work = AicpuWork;
  return def;
}

template <typename T>
using AccT =
    std::conditional_t<std::is_integral_v<T> && !std::is_same_v<T, bool>,
                       std::conditional_t<std::is_unsigned_v<T>, uint64_t, int64_t>, ComputeT<T>>;

OpDef CumsumOp(bool axis_attr) {
  OpDef def;
  def.type = axis_attr ? "CumsumD" : "Cumsum";
  def.engine = driver::Engine::kAiCpu;
  def.inputs = {In("x", NumberTypes())};
  if (axis_attr) {
    def.attrs.push_back(ReqAttr("axis", AttrType::kInt));
  } else {
    def.inputs.push_back(In("axis", IndexTypes()));
    def.value_inputs = {1};
  }
  def.outputs = {Out("y", NumberTypes())};
  def.attrs.push_back(OptAttr("exclusive", AttrType::kBool, false));
  def.attrs.push_back(OptAttr("reverse", AttrType::kBool, false));
  def.infer = [axis_attr](OpContext& ctx) -> Status {
    const auto& x = ctx.input(0);
    const int64_t rank = static_cast<int64_t>(x.dims.size());
    if (axis_attr) {
      ACLSIM_RETURN_IF_ERROR(CheckAxis(ctx, ctx.GetInt("axis"), rank, false, 0, "axis").status());
    } else {
      ACLSIM_ASSIGN_OR_RETURN(int64_t raw, ScalarInput(ctx, 1));
      ACLSIM_RETURN_IF_ERROR(CheckAxis(ctx, raw, rank, true, 1, "axis").status());
    }
    ctx.SetOutput(0, x.dtype, x.dims);
    return Status::Ok();
  };
  def.run = [axis_attr](RunContext& ctx) -> Status {
    const Tensor& x = ctx.in(0);
    const Tensor& y = ctx.out(0);
    const int64_t raw = axis_attr ? ctx.GetInt("axis") : RunScalar(ctx, 1);
    const size_t axis = static_cast<size_t>(NormAxis(raw, x.rank()));
    const bool exclusive = ctx.GetBool("exclusive");
    const bool reverse = ctx.GetBool("reverse");
    const int64_t outer = x.rank() == 0 ? 1 : Product(x.dims, 0, axis);
    const int64_t n = x.rank() == 0 ? 1 : x.dims[axis];
    const int64_t inner = x.rank() == 0 ? 1 : Product(x.dims, axis + 1);
    return DispatchType(x.dtype, [&](auto tag) -> Status {
      using T = decltype(tag);
      using A = AccT<T>;
      const T* px = x.ptr<const T>();
      T* py = y.ptr<T>();
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
          A acc{0};
          for (int64_t s = 0; s < n; ++s) {
            const int64_t j = reverse ? n - 1 - s : s;
            const int64_t pos = (o * n + j) * inner + i;
            const A v = static_cast<A>(ToCompute(px[pos]));  // NOLINT(bugprone-signed-char-misuse)
            if (!exclusive) acc = AddWrap(acc, v);
            if constexpr (std::is_integral_v<A>) {
              py[pos] = static_cast<T>(acc);
            } else {
              py[pos] = FromCompute<T>(acc);
            }
            if (exclusive) acc = AddWrap(acc, v);
          }
        }
      }
      return Status::Ok();
    });
  };
  def.work = AicpuWork;
  return def;
}

void RegisterSortAndSelect(OpRegistry& registry) {
  registry.Add(TopKOp("TopK", TopKFlavor::kTopK));
  registry.Add(TopKOp("TopKV2", TopKFlavor::kTopKV2));
  registry.Add(TopKOp("TopKD", TopKFlavor::kTopKD));
  registry.Add(TopKOp("TopKV2D", TopKFlavor::kTopKV2D));
  registry.Add(SortOp());
  registry.Add(NonZeroOp("Where", false));
  registry.Add(NonZeroOp("NonZero", true));
  registry.Add(CumsumOp(false));
  registry.Add(CumsumOp(true));
}

}  // namespace
}  // namespace select

void RegisterSelectOps(OpRegistry& registry) { select::RegisterSortAndSelect(registry); }

}  // namespace aclsim::ops
