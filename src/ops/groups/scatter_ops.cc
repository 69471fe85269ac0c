// Scatters (cann_ops.md 2.2: ONNX ScatterElements / Scatter, ScatterND).
//
// Prototypes (GE25 REG_OP):
//   ScatterElements     data, indices, updates -> y; axis:Int=0, reduction:String="none"
//   TensorScatterUpdate x, indices, updates -> y (also TensorScatterAdd / Max / Min)
// ScatterElements: y = data, then y[idx with idx[axis] = indices[idx]] (op)= updates[idx] for
// every idx of updates (indices and updates have the same shape, the rank of data);
// reduction "none" assigns (the last duplicate wins), "add" / "mul" / "max" / "min" combine.
// Indices may be negative (counted from the end, ONNX). TensorScatterUpdate: indices [..., K]
// address slices x[i0..iK-1, ...], updates has shape indices.shape[:-1] + x.shape[K:]
// (TF semantics, no negative indices); TensorScatterAdd / Max / Min combine the slices with y
// instead of assigning them. An index out of range fails the run with a message.
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>

#include "ops/op_group.h"

namespace aclsim::ops {

namespace {

std::string DimsOf(const std::vector<int64_t>& dims) {
  return fmt::format("[{}]", fmt::join(dims, ", "));
}

enum class Reduction { kNone, kAdd, kMul, kMax, kMin };

bool ParseReduction(const std::string& s, Reduction* r) {
  if (s == "none") {
    *r = Reduction::kNone;
  } else if (s == "add") {
    *r = Reduction::kAdd;
  } else if (s == "mul") {
    *r = Reduction::kMul;
  } else if (s == "max") {
    *r = Reduction::kMax;
  } else if (s == "min") {
    *r = Reduction::kMin;
  } else {
    return false;
  }
  return true;
}

Status ScatterElementsInfer(OpContext& ctx) {
  const auto& data = ctx.input(0);
  const auto& indices = ctx.input(1);
  const auto& updates = ctx.input(2);
  Reduction red = Reduction::kNone;
  if (!ParseReduction(ctx.GetString("reduction"), &red)) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch,
                    "attribute 'reduction' is \"{}\"; expected none, add, mul, max or min",
                    ctx.GetString("reduction"));
  }
  if (updates.dtype != data.dtype) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} has data type {} but {} has {}",
                    ctx.InputName(2), DataTypeName(updates.dtype), ctx.InputName(0),
                    DataTypeName(data.dtype));
  }
  if (indices.dims != updates.dims) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} shape {} differs from {} shape {}",
                    ctx.InputName(1), DimsOf(indices.dims), ctx.InputName(2), DimsOf(updates.dims));
  }
  if (indices.dims.size() != data.dims.size()) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} has rank {} but {} has rank {}",
                    ctx.InputName(1), indices.dims.size(), ctx.InputName(0), data.dims.size());
  }
  const int64_t rank = static_cast<int64_t>(data.dims.size());
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx, ctx.GetInt("axis"), rank, "axis"));
  for (size_t d = 0; d < data.dims.size(); ++d) {
    if (static_cast<int64_t>(d) != axis && indices.dims[d] > data.dims[d]) {
      return ctx.Fail(StatusCode::kOpInputNotMatch,
                      "{} shape {} is larger than {} shape {} in dimension {}", ctx.InputName(1),
                      DimsOf(indices.dims), ctx.InputName(0), DimsOf(data.dims), d);
    }
  }
  ctx.SetOutput(0, data.dtype, data.dims);
  return Status::Ok();
}

template <typename T>
T Combine(Reduction red, T old_value, T update) {
  using C = ComputeT<T>;
  const C a = ToCompute(old_value);
  const C b = ToCompute(update);
  switch (red) {
    case Reduction::kNone:
      return update;
    case Reduction::kAdd:
      if constexpr (std::is_same_v<C, bool>) {
        return FromCompute<T>(a || b);
      } else {
        return FromCompute<T>(a + b);
      }
    case Reduction::kMul:
      if constexpr (std::is_same_v<C, bool>) {
        return FromCompute<T>(a && b);
      } else {
        return FromCompute<T>(a * b);
      }
    case Reduction::kMax:
      return b > a ? update : old_value;
    case Reduction::kMin:
      return b < a ? update : old_value;
  }
  return update;
}

Status ScatterElementsRun(RunContext& ctx) {
  const Tensor& data = ctx.in(0);
  const Tensor& indices = ctx.in(1);
  const Tensor& updates = ctx.in(2);
  Tensor& y = ctx.out(0);
  Reduction red = Reduction::kNone;
  ParseReduction(ctx.GetString("reduction"), &red);
  const int64_t rank = data.rank();
  int64_t axis = ctx.GetInt("axis");
  if (axis < 0) axis += std::max<int64_t>(rank, 1);
  const size_t bytes = static_cast<size_t>(data.numel()) * DataTypeSize(data.dtype);
  if (bytes != 0) std::memmove(y.data, data.data, bytes);
  if (rank == 0) {
    if (updates.numel() == 1) std::memcpy(y.data, updates.data, bytes);
    return Status::Ok();
  }
  const std::vector<int64_t> idx = ReadInts(indices);
  const auto dstride = Strides(data.dims);
  const int64_t total = updates.numel();
  const size_t ax = static_cast<size_t>(axis);
  const int64_t extent = data.dims[ax];
  return DispatchType(data.dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* pu = updates.ptr<const T>();
    T* py = y.ptr<T>();
    std::vector<int64_t> pos(static_cast<size_t>(rank), 0);
    for (int64_t i = 0; i < total; ++i) {
      int64_t k = idx[static_cast<size_t>(i)];
      if (k < -extent || k >= extent) {
        return ctx.Fail(StatusCode::kInvalidParam,
                        "indices value {} at position {} is out of range [{}, {}) for axis {} "
                        "of data shape {}",
                        k, i, -extent, extent, axis, DimsOf(data.dims));
      }
      if (k < 0) k += extent;
      int64_t offset = 0;
      for (size_t d = 0; d < pos.size(); ++d) {
        offset += (d == ax ? k : pos[d]) * dstride[d];
      }
      py[offset] = Combine<T>(red, py[offset], pu[i]);
      for (size_t d = pos.size(); d-- > 0;) {
        if (++pos[d] < updates.dims[d]) break;
        pos[d] = 0;
      }
    }
    return Status::Ok();
  });
}

Status TensorScatterInfer(OpContext& ctx) {
  const auto& x = ctx.input(0);
  const auto& indices = ctx.input(1);
  const auto& updates = ctx.input(2);
  if (updates.dtype != x.dtype) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} has data type {} but {} has {}",
                    ctx.InputName(2), DataTypeName(updates.dtype), ctx.InputName(0),
                    DataTypeName(x.dtype));
  }
  if (indices.dims.empty()) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} must have rank >= 1", ctx.InputName(1));
  }
  const int64_t k = indices.dims.back();
  if (k > static_cast<int64_t>(x.dims.size())) {
    return ctx.Fail(StatusCode::kOpInputNotMatch,
                    "{} shape {} indexes {} dimensions but {} has rank {}", ctx.InputName(1),
                    DimsOf(indices.dims), k, ctx.InputName(0), x.dims.size());
  }
  std::vector<int64_t> want(indices.dims.begin(), indices.dims.end() - 1);
  want.insert(want.end(), x.dims.begin() + k, x.dims.end());
  if (updates.dims != want) {
    return ctx.Fail(StatusCode::kOpInputNotMatch,
                    "{} shape {} does not match indices.shape[:-1] + x.shape[{}:] = {}",
                    ctx.InputName(2), DimsOf(updates.dims), k, DimsOf(want));
  }
  ctx.SetOutput(0, x.dtype, x.dims);
  return Status::Ok();
}

// TensorScatterUpdate (kNone) copies each update slice; TensorScatterAdd / Max / Min combine
// it element by element with y, in index order.
RunFn TensorScatterRun(Reduction red) {
  return [red](RunContext& ctx) -> Status {
    const Tensor& x = ctx.in(0);
    const Tensor& indices = ctx.in(1);
    Tensor& y = ctx.out(0);
    const size_t elem = DataTypeSize(x.dtype);
    const size_t bytes = static_cast<size_t>(x.numel()) * elem;
    if (bytes != 0) std::memmove(y.data, x.data, bytes);
    const size_t k = static_cast<size_t>(indices.dims.back());
    const int64_t count =
        k == 0 ? Product(indices.dims) : indices.numel() / static_cast<int64_t>(k);
    const int64_t slice = Product(x.dims, k);
    const auto stride = Strides(x.dims);
    const std::vector<int64_t> idx = ReadInts(indices);
    std::vector<int64_t> offsets(static_cast<size_t>(count), 0);
    for (int64_t s = 0; s < count; ++s) {
      for (size_t d = 0; d < k; ++d) {
        const int64_t v = idx[static_cast<size_t>(s) * k + d];
        if (v < 0 || v >= x.dims[d]) {
          return ctx.Fail(StatusCode::kInvalidParam,
                          "indices value {} (index tuple {}, position {}) is out of range [0, "
                          "{}) for x shape {}",
                          v, s, d, x.dims[d], DimsOf(x.dims));
        }
        offsets[static_cast<size_t>(s)] += v * stride[d];
      }
    }
    if (red == Reduction::kNone) {
      const auto* pu = ctx.in(2).ptr<const uint8_t>();
      auto* py = y.ptr<uint8_t>();
      const size_t n = static_cast<size_t>(slice) * elem;
      for (int64_t s = 0; s < count && n != 0; ++s) {
        std::memcpy(py + static_cast<size_t>(offsets[static_cast<size_t>(s)]) * elem,
                    pu + static_cast<size_t>(s) * n, n);
      }
      return Status::Ok();
    }
    return DispatchType(x.dtype, [&](auto tag) -> Status {
      using T = decltype(tag);
      const T* pu = ctx.in(2).ptr<const T>();
      T* py = y.ptr<T>();
      for (int64_t s = 0; s < count; ++s) {
        T* dst = py + offsets[static_cast<size_t>(s)];
        const T* src = pu + s * slice;
        for (int64_t j = 0; j < slice; ++j) dst[j] = Combine<T>(red, dst[j], src[j]);
      }
      return Status::Ok();
    });
  };
}

}  // namespace

void RegisterScatterOps(OpRegistry& registry) {
  OpDef elements;
  elements.type = "ScatterElements";
  elements.inputs = {In("data", NumberTypes()), In("indices", IndexTypes()),
                     In("updates", NumberTypes())};
  elements.outputs = {Out("y", NumberTypes())};
  elements.attrs = {OptAttr("axis", AttrType::kInt, int64_t{0}),
                    OptAttr("reduction", AttrType::kString, std::string("none"))};
  elements.infer = ScatterElementsInfer;
  elements.run = ScatterElementsRun;
  registry.Add(std::move(elements));

  OpDef update;
  update.type = "TensorScatterUpdate";
  update.inputs = {In("x", AllTypes()), In("indices", IndexTypes()), In("updates", AllTypes())};
  update.outputs = {Out("y", AllTypes())};
  update.infer = TensorScatterInfer;
  update.run = TensorScatterRun(Reduction::kNone);
  registry.Add(std::move(update));

  const std::pair<const char*, Reduction> combining[] = {{"TensorScatterAdd", Reduction::kAdd},
                                                         {"TensorScatterMax", Reduction::kMax},
                                                         {"TensorScatterMin", Reduction::kMin}};
  for (const auto& [type, red] : combining) {
    OpDef def;
    def.type = type;
    def.inputs = {In("x", NumberTypes()), In("indices", IndexTypes()),
                  In("updates", NumberTypes())};
    def.outputs = {Out("y", NumberTypes())};
    def.infer = TensorScatterInfer;
    def.run = TensorScatterRun(red);
    registry.Add(std::move(def));
  }
}

}  // namespace aclsim::ops
