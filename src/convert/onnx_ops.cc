// NodeContext, the mapping table and its math / array / shape half (cann_ops.md 2.2).
#include "convert/onnx_ops.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

namespace aclsim::convert {

using ops::AttrMap;
using ops::DataType;

// ---- NodeContext ------------------------------------------------------------------------

NodeContext::NodeContext(const onnx::NodeProto& proto, int opset, std::string name,
                         GraphBuilder* builder, std::vector<int32_t> inputs,
                         std::vector<OutputHint> hints)
    : proto_(proto),
      opset_(opset),
      name_(std::move(name)),
      builder_(builder),
      inputs_(std::move(inputs)),
      hints_(std::move(hints)),
      outputs_(static_cast<size_t>(proto.output_size()), -1) {
  hints_.resize(outputs_.size());
}

int64_t NodeContext::rank(size_t i) const {
  if (!has(i)) return -1;
  const auto& d = dims(i);
  if (d.size() == 1 && d[0] == ops::kUnknownRank) return -1;
  return static_cast<int64_t>(d.size());
}

std::optional<std::vector<int64_t>> NodeContext::Ints(size_t i) const {
  if (!has(i) || !v(i).data) return std::nullopt;
  return ReadInts(dtype(i), *v(i).data);
}

std::optional<std::vector<double>> NodeContext::Doubles(size_t i) const {
  if (!has(i) || !v(i).data) return std::nullopt;
  return ReadDoubles(dtype(i), *v(i).data);
}

const onnx::AttributeProto* NodeContext::Attr(std::string_view name) const {
  for (const auto& a : proto_.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

int64_t NodeContext::Int(std::string_view name, int64_t def) const {
  const auto* a = Attr(name);
  return a != nullptr ? a->i() : def;
}

float NodeContext::Float(std::string_view name, float def) const {
  const auto* a = Attr(name);
  return a != nullptr ? a->f() : def;
}

std::string NodeContext::Str(std::string_view name, const std::string& def) const {
  const auto* a = Attr(name);
  return a != nullptr ? a->s() : def;
}

std::vector<int64_t> NodeContext::IntList(std::string_view name, std::vector<int64_t> def) const {
  const auto* a = Attr(name);
  if (a == nullptr) return def;
  return {a->ints().begin(), a->ints().end()};
}

std::vector<float> NodeContext::FloatList(std::string_view name, std::vector<float> def) const {
  const auto* a = Attr(name);
  if (a == nullptr) return def;
  return {a->floats().begin(), a->floats().end()};
}

int32_t NodeContext::Const(HostTensor t) {
  return builder_->AddConstant(builder_->UniqueValueName(name_ + "/const", false), std::move(t));
}

int32_t NodeContext::ConstI64(const std::vector<int64_t>& values) {
  return Const(Int64Tensor(values, {static_cast<int64_t>(values.size())}));
}

int32_t NodeContext::ScalarI64(int64_t value) { return Const(Int64Tensor({value}, {})); }

int32_t NodeContext::ScalarI32(int32_t value) { return Const(Int32Tensor({value}, {})); }

Result<std::vector<int32_t>> NodeContext::Emit(const std::string& type, std::vector<int32_t> inputs,
                                               AttrMap attrs, size_t num_outputs,
                                               std::vector<OutputHint> hints) {
  OpSpec op;
  op.hints = std::move(hints);
  op.type = type;
  op.inputs = std::move(inputs);
  op.attrs = std::move(attrs);
  op.num_outputs = num_outputs;
  return builder_->Emit(fmt::format("{}/{}_{}", name_, type, emitted_++), std::move(op));
}

Status NodeContext::Final(const std::string& type, std::vector<int32_t> inputs, AttrMap attrs,
                          size_t num_outputs) {
  for (size_t j = num_outputs; j < this->num_outputs(); ++j) {
    if (wants(j)) {
      return Unsupported(fmt::format("output {} ('{}') has no counterpart in CANN {}", j,
                                     proto_.output(static_cast<int>(j)), type));
    }
  }
  return FinalPartial(type, std::move(inputs), std::move(attrs), num_outputs, num_outputs).status();
}

Result<std::vector<int32_t>> NodeContext::FinalPartial(const std::string& type,
                                                       std::vector<int32_t> inputs, AttrMap attrs,
                                                       size_t num_outputs, size_t bound) {
  OpSpec op;
  op.type = type;
  op.inputs = std::move(inputs);
  op.attrs = std::move(attrs);
  op.num_outputs = num_outputs;
  for (size_t j = 0; j < bound && j < num_outputs && j < this->num_outputs(); ++j) {
    op.output_names.push_back(proto_.output(static_cast<int>(j)));
    op.hints.push_back(hints_[j]);
  }
  auto out = builder_->Emit(name_, std::move(op));
  if (!out.ok()) return out.status();
  for (size_t j = 0; j < out.value().size() && j < bound && j < outputs_.size(); ++j) {
    outputs_[j] = out.value()[j];
  }
  return out;
}

Status NodeContext::FinalAt(size_t j, const std::string& type, std::vector<int32_t> inputs,
                            AttrMap attrs) {
  OpSpec op;
  op.type = type;
  op.inputs = std::move(inputs);
  op.attrs = std::move(attrs);
  op.output_names = {proto_.output(static_cast<int>(j))};
  op.hints = {hints_[j]};
  auto out = builder_->Emit(j == 0 ? name_ : fmt::format("{}/out{}", name_, j), std::move(op));
  if (!out.ok()) return out.status();
  outputs_[j] = out.value()[0];
  return Status::Ok();
}

Status Unsupported(std::string why) { return Status(StatusCode::kOpTypeNotMatch, std::move(why)); }

int64_t NormAxis(int64_t axis, int64_t rank) { return axis < 0 && rank >= 0 ? axis + rank : axis; }

Status Simple(NodeContext& c, const std::string& cann) {
  std::vector<int32_t> ins;
  for (size_t i = 0; i < c.num_inputs(); ++i) ins.push_back(c.in(i));
  return c.Final(cann, std::move(ins), {}, c.num_outputs());
}

namespace {

std::vector<int32_t> AllInputs(const NodeContext& c) {
  std::vector<int32_t> ins;
  for (size_t i = 0; i < c.num_inputs(); ++i) ins.push_back(c.in(i));
  return ins;
}

// All axes of input 0, or a refusal when its rank is unknown.
Result<std::vector<int64_t>> AllAxes(const NodeContext& c) {
  if (c.rank(0) < 0) return Unsupported("the input's rank is unknown at convert time");
  std::vector<int64_t> axes;
  for (int64_t a = 0; a < c.rank(0); ++a) axes.push_back(a);
  return axes;
}

Status MapCast(NodeContext& c) {
  const DataType to = DataTypeFromOnnx(static_cast<int32_t>(c.Int("to", 0)));
  if (to == DataType::kUndefined) {
    return Unsupported("cast to " + OnnxTypeName(static_cast<int32_t>(c.Int("to", 0))));
  }
  return c.Final("Cast", {c.in(0)}, {{"dst_type", int64_t{static_cast<int32_t>(to)}}});
}

Status MapCastLike(NodeContext& c) {
  return c.Final("Cast", {c.in(0)}, {{"dst_type", int64_t{static_cast<int32_t>(c.dtype(1))}}});
}

Status MapWithValueInput(NodeContext& c, const std::string& cann) {
  AttrMap attrs;
  if (cann == "Reshape" && c.Has("allowzero")) attrs["allowzero"] = c.Int("allowzero", 0);
  return c.Final(cann, {c.in(0), c.in(1)}, std::move(attrs));
}

Status MapShape(NodeContext& c) {
  AttrMap attrs{{"dtype", int64_t{static_cast<int32_t>(DataType::kInt64)}}};
  if (!c.Has("start") && !c.Has("end")) return c.Final("Shape", {c.in(0)}, attrs);
  if (c.rank(0) < 0) return Unsupported("Shape with start/end of a tensor of unknown rank");
  auto shape = c.Emit("Shape", {c.in(0)}, attrs);
  if (!shape.ok()) return shape.status();
  const int64_t r = c.rank(0);
  auto clampv = [r](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + r : v, 0, r); };
  const int64_t start = clampv(c.Int("start", 0));
  const int64_t end = clampv(c.Int("end", r));
  return c.Final("StridedSliceV2",
                 {shape.value()[0], c.ConstI64({start}), c.ConstI64({std::max(start, end)}),
                  c.ConstI64({0}), c.ConstI64({1})},
                 {});
}

Status MapSize(NodeContext& c) {
  return c.Final("Size", {c.in(0)}, {{"dtype", int64_t{static_cast<int32_t>(DataType::kInt64)}}});
}

Status MapFlatten(NodeContext& c) {
  return c.Final("Flatten", {c.in(0)}, {{"axis", c.Int("axis", 1)}});
}

Status MapSqueezeLike(NodeContext& c, bool squeeze) {
  if (c.opset() >= 13) return c.Final(squeeze ? "SqueezeV3" : "UnsqueezeV3", AllInputs(c), {});
  const auto axes = c.IntList("axes", {});
  if (squeeze) return c.Final("Squeeze", {c.in(0)}, {{"axis", axes}});
  return c.Final("Unsqueeze", {c.in(0)}, {{"axes", axes}});
}

Status MapConcat(NodeContext& c) {
  std::vector<int32_t> ins;
  for (size_t i = 0; i < c.num_inputs(); ++i) {
    if (c.has(i)) ins.push_back(c.in(i));
  }
  if (ins.size() == 1) return c.Final("Identity", ins, {});
  const int64_t n = static_cast<int64_t>(ins.size());
  return c.Final("ConcatD", std::move(ins), {{"concat_dim", c.Int("axis", 0)}, {"N", n}});
}

Status MapSplit(NodeContext& c) {
  const int64_t axis = NormAxis(c.Int("axis", 0), c.rank(0));
  std::vector<int64_t> sizes;
  if (c.opset() >= 13 && c.has(1)) {
    auto given = c.Ints(1);
    if (!given) {  // sizes computed at run time: SplitV reads them then
      const int64_t n = static_cast<int64_t>(c.num_outputs());
      return c.Final("SplitV", {c.in(0), c.in(1), c.ScalarI64(axis)}, {{"num_split", n}},
                     c.num_outputs());
    }
    sizes = *given;
  } else if (c.Has("split")) {
    sizes = c.IntList("split", {});
  }
  const size_t n = c.num_outputs();
  if (sizes.empty()) {
    if (c.rank(0) < 0 || axis < 0 || axis >= c.rank(0) || c.dims(0)[axis] < 0) {
      return c.Final("Split", {c.ScalarI64(axis), c.in(0)},
                     {{"num_split", static_cast<int64_t>(n)}}, n);
    }
    const int64_t dim = c.dims(0)[axis];
    const int64_t part = (dim + static_cast<int64_t>(n) - 1) / static_cast<int64_t>(n);
    for (size_t k = 0; k < n; ++k) {
      sizes.push_back(std::max<int64_t>(0, std::min(part, dim - part * static_cast<int64_t>(k))));
    }
  }
  const int64_t count = static_cast<int64_t>(sizes.size());
  return c.Final("SplitV", {c.in(0), c.ConstI64(sizes), c.ScalarI64(axis)}, {{"num_split", count}},
                 sizes.size());
}

Status MapSlice(NodeContext& c) {
  if (c.opset() >= 10) {
    std::vector<int32_t> ins = {c.in(0), c.in(1), c.in(2), c.in(3)};
    if (c.has(4)) ins.push_back(c.in(4));
    return c.Final("StridedSliceV2", std::move(ins), {});
  }
  std::vector<int32_t> ins = {c.in(0), c.ConstI64(c.IntList("starts", {})),
                              c.ConstI64(c.IntList("ends", {}))};
  if (c.Has("axes")) ins.push_back(c.ConstI64(c.IntList("axes", {})));
  return c.Final("StridedSliceV2", std::move(ins), {});
}

Status MapGather(NodeContext& c) {
  return c.Final("GatherV2", {c.in(0), c.in(1), c.ScalarI64(c.Int("axis", 0))},
                 {{"negative_index_support", true}});
}

Status MapTranspose(NodeContext& c) {
  std::vector<int64_t> perm = c.IntList("perm", {});
  if (perm.empty()) {
    if (c.rank(0) < 0) return Unsupported("Transpose without perm of a tensor of unknown rank");
    for (int64_t a = c.rank(0); a-- > 0;) perm.push_back(a);
  }
  return c.Final("Transpose", {c.in(0), c.ConstI64(perm)}, {});
}

// Reduce* ops: axes as an input (attribute before `axes_input_opset`).
Status MapReduce(NodeContext& c, const std::string& cann, int axes_input_opset) {
  const bool noop = c.Int("noop_with_empty_axes", 0) != 0;
  int32_t axes = -1;
  if (c.opset() >= axes_input_opset) {
    auto known = c.Ints(1);
    const bool empty =
        (known && known->empty()) || (c.has(1) && c.dims(1) == std::vector<int64_t>{0});
    if (c.has(1) && !empty) axes = c.in(1);
  } else if (c.Has("axes") && !c.IntList("axes", {}).empty()) {
    axes = c.ConstI64(c.IntList("axes", {}));
  }
  if (axes < 0) {
    if (noop) return c.Final("Identity", {c.in(0)}, {});
    auto all = AllAxes(c);
    if (!all.ok()) return all.status();
    axes = c.ConstI64(all.value());
  }
  return c.Final(cann, {c.in(0), axes}, {{"keep_dims", c.Int("keepdims", 1) != 0}});
}

// ReduceL1 / ReduceL2 -> LpNormV2; ReduceSumSquare -> SquareSumV1 (axes as attributes).
Status MapNormReduce(NodeContext& c, const std::string& cann, float p) {
  std::vector<int64_t> axes;
  if (c.opset() >= 18) {
    if (c.has(1)) {
      auto known = c.Ints(1);
      if (!known) return Unsupported("axes not known at convert time");
      axes = *known;
    }
  } else {
    axes = c.IntList("axes", {});
  }
  if (axes.empty()) {
    if (c.Int("noop_with_empty_axes", 0) != 0) return c.Final("Identity", {c.in(0)}, {});
    auto all = AllAxes(c);
    if (!all.ok()) return all.status();
    axes = all.value();
  }
  const bool keep = c.Int("keepdims", 1) != 0;
  if (cann == "SquareSumV1") return c.Final(cann, {c.in(0)}, {{"axis", axes}, {"keep_dims", keep}});
  return c.Final(cann, {c.in(0)}, {{"p", p}, {"axes", axes}, {"keepdim", keep}});
}

// select_last_index=1 (which CANN's ArgMaxV2 / ArgMin lack): the op runs on x reversed along
// the axis (GatherV2 with indices n-1 .. 0) and its index i becomes n - 1 - i.
Status MapArg(NodeContext& c, const std::string& cann) {
  const int64_t axis = NormAxis(c.Int("axis", 0), c.rank(0));
  if (axis < 0) return Unsupported("a negative axis of a tensor of unknown rank");
  AttrMap attrs{{"dtype", DataType::kInt64}};
  const bool keepdims = c.Int("keepdims", 1) != 0;
  if (c.Int("select_last_index", 0) == 0) {
    if (!keepdims) return c.Final(cann, {c.in(0), c.ScalarI64(axis)}, attrs);
    auto arg = c.Emit(cann, {c.in(0), c.ScalarI64(axis)}, attrs);
    if (!arg.ok()) return arg.status();
    return c.Final("ExpandDims", {arg.value()[0], c.ScalarI64(axis)}, {});
  }
  constexpr int64_t kMaxReversed = int64_t{1} << 20;
  if (axis >= c.rank(0)) return Unsupported("axis out of range");
  const int64_t n = c.dims(0)[static_cast<size_t>(axis)];
  if (n < 1 || n > kMaxReversed) {
    return Unsupported(
        fmt::format("select_last_index=1 needs the axis' size known at convert time, in [1, {}]",
                    kMaxReversed));
  }
  std::vector<int64_t> reversed(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) reversed[static_cast<size_t>(i)] = n - 1 - i;
  auto flipped = c.Emit("GatherV2", {c.in(0), c.ConstI64(reversed), c.ScalarI64(axis)}, {});
  if (!flipped.ok()) return flipped.status();
  auto arg = c.Emit(cann, {flipped.value()[0], c.ScalarI64(axis)}, attrs);
  if (!arg.ok()) return arg.status();
  if (!keepdims) return c.Final("Sub", {c.ScalarI64(n - 1), arg.value()[0]}, {});
  auto index = c.Emit("Sub", {c.ScalarI64(n - 1), arg.value()[0]}, {});
  if (!index.ok()) return index.status();
  return c.Final("ExpandDims", {index.value()[0], c.ScalarI64(axis)}, {});
}

Status MapTopK(NodeContext& c) {
  std::optional<std::vector<int64_t>> k;
  if (c.opset() >= 10) {
    k = c.Ints(1);
  } else {
    k = std::vector<int64_t>{c.Int("k", 1)};
  }
  int32_t k_value = -1;
  if (k && k->size() == 1) {
    k_value = c.ScalarI32(static_cast<int32_t>((*k)[0]));
  } else if (c.opset() >= 10 && !k) {  // k computed at run time: an int32 scalar of it
    auto cast =
        c.Emit("Cast", {c.in(1)}, {{"dst_type", int64_t{static_cast<int32_t>(DataType::kInt32)}}});
    if (!cast.ok()) return cast.status();
    auto scalar = c.Emit("Squeeze", {cast.value()[0]}, {{"axis", std::vector<int64_t>{}}});
    if (!scalar.ok()) return scalar.status();
    k_value = scalar.value()[0];
  } else {
    return Unsupported("TopK k must hold one value");
  }
  // CANN's TopK gives int32 indices; a Cast keeps ONNX's int64.
  auto top = c.Emit("TopK", {c.in(0), k_value},
                    {{"dim", c.Int("axis", -1)},
                     {"largest", c.Int("largest", 1) != 0},
                     {"sorted", c.Int("sorted", 1) != 0}},
                    2, {{c.dtype(0), c.hint(0).dims}, {DataType::kInt32, c.hint(0).dims}});
  if (!top.ok()) return top.status();
  ACLSIM_RETURN_IF_ERROR(c.FinalAt(0, "Identity", {top.value()[0]}, {}));
  if (!c.wants(1)) return Status::Ok();
  return c.FinalAt(1, "Cast", {top.value()[1]},
                   {{"dst_type", int64_t{static_cast<int32_t>(DataType::kInt64)}}});
}

Status MapPad(NodeContext& c) {
  const std::string mode = c.Str("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge") return Unsupported("mode " + mode);
  int32_t pads = -1;
  int32_t value = -1;
  if (c.opset() >= 11) {
    pads = c.in(1);
    if (c.has(3)) {  // opset 18 axes: pads of every dim
      auto given = c.Ints(1);
      auto axes = c.Ints(3);
      const int64_t r = c.rank(0);
      if (!given || !axes || r < 0 || given->size() != 2 * axes->size()) {
        return Unsupported("Pad axes / pads not known at convert time");
      }
      std::vector<int64_t> full(static_cast<size_t>(2 * r), 0);
      for (size_t k = 0; k < axes->size(); ++k) {
        const int64_t a = NormAxis((*axes)[k], r);
        if (a < 0 || a >= r) return Unsupported("Pad axis out of range");
        full[static_cast<size_t>(a)] = (*given)[k];
        full[static_cast<size_t>(r + a)] = (*given)[axes->size() + k];
      }
      pads = c.ConstI64(full);
    }
    value = c.in(2);
  } else {
    pads = c.ConstI64(c.IntList("pads", {}));
    if (c.Has("value")) {
      auto scalar = ScalarOf(c.dtype(0), c.Float("value", 0));
      if (!scalar) return Unsupported("Pad value for this dtype");
      value = c.Const(*scalar);
    }
  }
  std::vector<int32_t> ins = {c.in(0), pads};
  if (value >= 0) ins.push_back(value);
  return c.Final("PadV3", std::move(ins), {{"mode", mode}, {"paddings_contiguous", false}});
}

Status MapClip(NodeContext& c) {
  int32_t lo = -1;
  int32_t hi = -1;
  if (c.opset() < 11) {
    auto l = ScalarOf(c.dtype(0), c.Float("min", -3.402823e38f));
    auto h = ScalarOf(c.dtype(0), c.Float("max", 3.402823e38f));
    if (!l || !h) return Unsupported("Clip bounds for this dtype");
    lo = c.Const(*l);
    hi = c.Const(*h);
  } else {
    lo = c.in(1);
    hi = c.in(2);
  }
  if (lo >= 0 && hi >= 0) return c.Final("ClipByValue", {c.in(0), lo, hi}, {});
  if (hi >= 0) return c.Final("Minimum", {c.in(0), hi}, {});
  if (lo >= 0) return c.Final("Maximum", {c.in(0), lo}, {});
  return c.Final("Identity", {c.in(0)}, {});
}

// Integer types that CANN's Maximum / Minimum / FloorMod / Mod lack and int64 holds exactly:
// the op runs on int64 and its result is cast back (uint64 is refused by the op).
bool WidenedToInt64(DataType t) {
  return t == DataType::kInt8 || t == DataType::kInt16 || t == DataType::kUint8 ||
         t == DataType::kUint16 || t == DataType::kUint32;
}

Result<int32_t> CastTo(NodeContext& c, int32_t value, DataType to) {
  auto cast = c.Emit("Cast", {value}, {{"dst_type", int64_t{static_cast<int32_t>(to)}}});
  if (!cast.ok()) return cast.status();
  return cast.value()[0];
}

// Max / Min: a chain of Maximum / Minimum; Sum: AccumulateNV2 for equal shapes, else a chain
// of Add; Mean: the sum times 1/N.
Status MapVariadic(NodeContext& c, const std::string& binary, bool mean) {
  std::vector<int32_t> ins;
  for (size_t i = 0; i < c.num_inputs(); ++i) {
    if (c.has(i)) ins.push_back(c.in(i));
  }
  if (ins.empty()) return Unsupported("no inputs");
  const DataType type = c.builder().value(ins[0]).desc.dtype;
  const bool widen = binary != "Add" && WidenedToInt64(type);
  if (widen) {
    for (auto& v : ins) {
      auto wide = CastTo(c, v, DataType::kInt64);
      if (!wide.ok()) return wide.status();
      v = wide.value();
    }
  }
  int32_t acc = ins[0];
  for (size_t i = 1; i < ins.size(); ++i) {
    if (i + 1 == ins.size() && !mean && !widen) return c.Final(binary, {acc, ins[i]}, {});
    auto step = c.Emit(binary, {acc, ins[i]}, {});
    if (!step.ok()) return step.status();
    acc = step.value()[0];
  }
  if (widen) return c.Final("Cast", {acc}, {{"dst_type", int64_t{static_cast<int32_t>(type)}}});
  if (mean && ins.size() > 1) {
    return c.Final("Muls", {acc}, {{"value", 1.0f / static_cast<float>(ins.size())}});
  }
  return c.Final("Identity", {acc}, {});
}

Status MapMod(NodeContext& c) {
  const std::string cann = c.Int("fmod", 0) != 0 ? "Mod" : "FloorMod";
  if (!c.has(0) || !c.has(1)) return Simple(c, cann);
  const DataType type = c.dtype(0);
  if (!WidenedToInt64(type) || c.dtype(1) != type) return Simple(c, cann);
  auto a = CastTo(c, c.in(0), DataType::kInt64);
  if (!a.ok()) return a.status();
  auto b = CastTo(c, c.in(1), DataType::kInt64);
  if (!b.ok()) return b.status();
  auto mod = c.Emit(cann, {a.value(), b.value()}, {});
  if (!mod.ok()) return mod.status();
  return c.Final("Cast", {mod.value()[0]}, {{"dst_type", int64_t{static_cast<int32_t>(type)}}});
}

// One sign only: IsInf(x) and x > 0 (or x < 0); neither: IsInf(x) and not IsInf(x).
Status MapIsInf(NodeContext& c) {
  const bool negative = c.Int("detect_negative", 1) != 0;
  const bool positive = c.Int("detect_positive", 1) != 0;
  if (negative && positive) return Simple(c, "IsInf");
  auto inf = c.Emit("IsInf", {c.in(0)}, {});
  if (!inf.ok()) return inf.status();
  if (!negative && !positive) {
    auto finite = c.Emit("LogicalNot", {inf.value()[0]}, {});
    if (!finite.ok()) return finite.status();
    return c.Final("LogicalAnd", {inf.value()[0], finite.value()[0]}, {});
  }
  auto zero = c.Emit("ZerosLike", {c.in(0)}, {});
  if (!zero.ok()) return zero.status();
  auto sign = c.Emit(positive ? "Greater" : "Less", {c.in(0), zero.value()[0]}, {});
  if (!sign.ok()) return sign.status();
  return c.Final("LogicalAnd", {inf.value()[0], sign.value()[0]}, {});
}

Status MapNonZero(NodeContext& c) {
  return c.Final("NonZero", {c.in(0)},
                 {{"transpose", true}, {"dtype", int64_t{static_cast<int32_t>(DataType::kInt64)}}});
}

Status MapConstantOfShape(NodeContext& c) {
  HostTensor value = FloatTensor({0.0f}, {});
  if (const auto* a = c.Attr("value")) {
    auto t = TensorFromProto(a->t(), "ConstantOfShape value");
    if (!t.ok()) return Unsupported(t.status().message());
    value = std::move(t.value());
    value.dims = {};
    if (value.data.size() != ops::DataTypeSize(value.dtype)) {
      return Unsupported("ConstantOfShape value must hold one element");
    }
  }
  return c.Final("Fill", {c.in(0), c.Const(std::move(value))}, {});
}

Status MapOneHot(NodeContext& c) {
  auto values = c.Doubles(2);
  if (!values || values->size() != 2) return Unsupported("OneHot values not known at convert time");
  auto off = ScalarOf(c.dtype(2), (*values)[0]);
  auto on = ScalarOf(c.dtype(2), (*values)[1]);
  if (!off || !on) return Unsupported("OneHot values of this dtype");
  if (auto idx = c.Ints(0)) {
    for (int64_t i : *idx) {
      if (i < 0) return Unsupported("negative indices (wrapped by Add/Mod in CANN's subgraph)");
    }
  }
  auto depth = c.Ints(1);
  if (!depth || depth->size() != 1) return Unsupported("OneHot depth not known at convert time");
  return c.Final("OneHot", {c.in(0), c.ScalarI64((*depth)[0]), c.Const(*on), c.Const(*off)},
                 {{"axis", c.Int("axis", -1)}});
}

Status MapCumSum(NodeContext& c) {
  return c.Final(
      "Cumsum", {c.in(0), c.in(1)},
      {{"exclusive", c.Int("exclusive", 0) != 0}, {"reverse", c.Int("reverse", 0) != 0}});
}

Status MapScatterElements(NodeContext& c) {
  return c.Final("ScatterElements", AllInputs(c),
                 {{"axis", c.Int("axis", 0)}, {"reduction", c.Str("reduction", "none")}});
}

Status MapScatterNd(NodeContext& c) {
  const std::string reduction = c.Str("reduction", "none");
  if (reduction == "none") return Simple(c, "TensorScatterUpdate");
  if (reduction == "add") return Simple(c, "TensorScatterAdd");
  if (reduction == "max") return Simple(c, "TensorScatterMax");
  if (reduction == "min") return Simple(c, "TensorScatterMin");
  return Unsupported("ScatterND reduction=" + reduction + " (no TensorScatter op for it)");
}

// Inference Dropout is the identity; its mask (all true) is Cast(OnesLike(x), bool).
Status MapDropout(NodeContext& c) {
  if (c.has(2)) {
    auto training = c.Ints(2);
    if (!training) return Unsupported("Dropout training_mode not known at convert time");
    if (!training->empty() && (*training)[0] != 0) return Unsupported("Dropout training_mode=1");
  }
  ACLSIM_RETURN_IF_ERROR(c.FinalAt(0, "Identity", {c.in(0)}, {}));
  if (!c.wants(1)) return Status::Ok();
  auto ones = c.Emit("OnesLike", {c.in(0)}, {});
  if (!ones.ok()) return ones.status();
  return c.FinalAt(1, "Cast", {ones.value()[0]},
                   {{"dst_type", int64_t{static_cast<int32_t>(DataType::kBool)}}});
}

// batch_dims = b > 0: GatherNd (which has no batch dims) on the indices prefixed with each
// index tuple's batch coordinates (a constant [..., b] concatenated along the last axis); the
// indices' shape must be known at convert time.
Status MapGatherNd(NodeContext& c) {
  const int64_t b = c.Int("batch_dims", 0);
  if (b == 0) return Simple(c, "GatherNd");
  const int64_t r = c.rank(1);
  if (b < 0 || r < 0 || b >= r || c.rank(0) <= b) {
    return Unsupported("GatherND batch_dims outside [0, rank(indices) - 1) or of unknown rank");
  }
  const auto& idims = c.dims(1);
  const auto& xdims = c.dims(0);
  constexpr int64_t kMaxPrefix = int64_t{1} << 20;
  int64_t tuples = 1;
  for (int64_t i = 0; i + 1 < r; ++i) {
    const int64_t d = idims[static_cast<size_t>(i)];
    if (d < 0 || (i < b && xdims[static_cast<size_t>(i)] != d) ||
        __builtin_mul_overflow(tuples, d, &tuples) || tuples > kMaxPrefix / b) {
      return Unsupported(fmt::format(
          "GatherND batch_dims needs known indices dims matching the data's batch dims, with at "
          "most {} batch coordinates",
          kMaxPrefix));
    }
  }
  std::vector<int64_t> prefix(static_cast<size_t>(tuples * b));
  for (int64_t e = 0; e < tuples; ++e) {
    int64_t rest = e;
    for (int64_t j = r - 2; j >= 0; --j) {
      const int64_t d = idims[static_cast<size_t>(j)];
      if (j < b) prefix[static_cast<size_t>(e * b + j)] = d > 0 ? rest % d : 0;
      rest = d > 0 ? rest / d : 0;
    }
  }
  std::vector<int64_t> prefix_dims(idims.begin(), idims.end() - 1);
  prefix_dims.push_back(b);
  HostTensor t = Int64Tensor(prefix, prefix_dims);
  if (c.dtype(1) == DataType::kInt32) {
    t = Int32Tensor(std::vector<int32_t>(prefix.begin(), prefix.end()), prefix_dims);
  }
  auto indices = c.Emit("ConcatD", {c.Const(std::move(t)), c.in(1)},
                        {{"concat_dim", r - 1}, {"N", int64_t{2}}});
  if (!indices.ok()) return indices.status();
  return c.Final("GatherNd", {c.in(0), indices.value()[0]}, {});
}

// ONNX Pow keeps the base's type. A float base with an exponent of another type: the exponent
// is cast to the base's type; an integer base with a float exponent: Pow runs in the
// exponent's type and the result is cast back (truncated, as ONNX's Cast does).
Status MapPow(NodeContext& c) {
  auto is_float = [](DataType t) {
    return t == DataType::kFloat || t == DataType::kFloat16 || t == DataType::kDouble ||
           t == DataType::kBf16;
  };
  if (!c.has(0) || !c.has(1)) return Simple(c, "Pow");
  const DataType base = c.dtype(0);
  const DataType exponent = c.dtype(1);
  if (base == exponent) return Simple(c, "Pow");
  if (is_float(base)) {
    auto e = CastTo(c, c.in(1), base);
    if (!e.ok()) return e.status();
    return c.Final("Pow", {c.in(0), e.value()}, {});
  }
  if (!is_float(exponent)) return Simple(c, "Pow");
  auto b = CastTo(c, c.in(0), exponent);
  if (!b.ok()) return b.status();
  auto pow = c.Emit("Pow", {b.value(), c.in(1)}, {});
  if (!pow.ok()) return pow.status();
  return c.Final("Cast", {pow.value()[0]}, {{"dst_type", int64_t{static_cast<int32_t>(base)}}});
}

template <const char* kCann>
Status SimpleAs(NodeContext& c) {
  return Simple(c, kCann);
}

constexpr char kRealDiv[] = "RealDiv";
constexpr char kLogicalAnd[] = "LogicalAnd";
constexpr char kLogicalOr[] = "LogicalOr";
constexpr char kLogicalNot[] = "LogicalNot";
constexpr char kGreaterEqual[] = "GreaterEqual";
constexpr char kLessEqual[] = "LessEqual";
constexpr char kSelectV2[] = "SelectV2";
constexpr char kNotEqual[] = "NotEqual";
constexpr char kBatchMatMulV2[] = "BatchMatMulV2";
constexpr char kIsNan[] = "IsNan";
constexpr char kRange[] = "Range";
constexpr char kGatherElements[] = "GatherElements";

Status MapGatherElements(NodeContext& c) {
  return c.Final(kGatherElements, {c.in(0), c.in(1)}, {{"dim", c.Int("axis", 0)}});
}

}  // namespace

void AddArrayMappings(std::vector<std::pair<std::string_view, MapFn>>* t) {
  t->insert(
      t->end(),
      {
          {"Div", SimpleAs<kRealDiv>},
          {"And", SimpleAs<kLogicalAnd>},
          {"Or", SimpleAs<kLogicalOr>},
          {"Not", SimpleAs<kLogicalNot>},
          {"GreaterOrEqual", SimpleAs<kGreaterEqual>},
          {"LessOrEqual", SimpleAs<kLessEqual>},
          {"Where", SimpleAs<kSelectV2>},
          {"Xor", SimpleAs<kNotEqual>},  // on bools exactly NotEqual
          {"MatMul", SimpleAs<kBatchMatMulV2>},
          {"IsNaN", SimpleAs<kIsNan>},
          {"Range", SimpleAs<kRange>},
          {"IsInf", MapIsInf},
          {"Pow", MapPow},
          {"Mod", MapMod},
          {"Cast", MapCast},
          {"CastLike", MapCastLike},
          {"Reshape", [](NodeContext& c) { return MapWithValueInput(c, "Reshape"); }},
          {"Expand", [](NodeContext& c) { return MapWithValueInput(c, "Expand"); }},
          {"Tile", [](NodeContext& c) { return MapWithValueInput(c, "Tile"); }},
          {"Shape", MapShape},
          {"Size", MapSize},
          {"Flatten", MapFlatten},
          {"Squeeze", [](NodeContext& c) { return MapSqueezeLike(c, true); }},
          {"Unsqueeze", [](NodeContext& c) { return MapSqueezeLike(c, false); }},
          {"Concat", MapConcat},
          {"Split", MapSplit},
          {"Slice", MapSlice},
          {"Gather", MapGather},
          {"GatherElements", MapGatherElements},
          {"GatherND", MapGatherNd},
          {"Transpose", MapTranspose},
          {"ReduceSum", [](NodeContext& c) { return MapReduce(c, "ReduceSum", 13); }},
          {"ReduceMean", [](NodeContext& c) { return MapReduce(c, "ReduceMean", 18); }},
          {"ReduceMax", [](NodeContext& c) { return MapReduce(c, "ReduceMax", 18); }},
          {"ReduceMin", [](NodeContext& c) { return MapReduce(c, "ReduceMin", 18); }},
          {"ReduceProd", [](NodeContext& c) { return MapReduce(c, "ReduceProd", 18); }},
          {"ReduceLogSumExp", [](NodeContext& c) { return MapReduce(c, "ReduceLogSumExp", 18); }},
          {"ReduceLogSum", [](NodeContext& c) { return MapReduce(c, "ReduceLogSum", 18); }},
          {"ReduceL1", [](NodeContext& c) { return MapNormReduce(c, "LpNormV2", 1); }},
          {"ReduceL2", [](NodeContext& c) { return MapNormReduce(c, "LpNormV2", 2); }},
          {"ReduceSumSquare", [](NodeContext& c) { return MapNormReduce(c, "SquareSumV1", 0); }},
          {"ArgMax", [](NodeContext& c) { return MapArg(c, "ArgMaxV2"); }},
          {"ArgMin", [](NodeContext& c) { return MapArg(c, "ArgMin"); }},
          {"TopK", MapTopK},
          {"Pad", MapPad},
          {"Clip", MapClip},
          {"Max", [](NodeContext& c) { return MapVariadic(c, "Maximum", false); }},
          {"Min", [](NodeContext& c) { return MapVariadic(c, "Minimum", false); }},
          {"Sum", [](NodeContext& c) { return MapVariadic(c, "Add", false); }},
          {"Mean", [](NodeContext& c) { return MapVariadic(c, "Add", true); }},
          {"NonZero", MapNonZero},
          {"ConstantOfShape", MapConstantOfShape},
          {"OneHot", MapOneHot},
          {"CumSum", MapCumSum},
          {"ScatterElements", MapScatterElements},
          {"Scatter", MapScatterElements},
          {"ScatterND", MapScatterNd},
          {"Dropout", MapDropout},
      });
}

MapFn FindMapping(std::string_view onnx_type) {
  static const std::map<std::string_view, MapFn, std::less<>> table = [] {
    std::vector<std::pair<std::string_view, MapFn>> entries;
    // 1:1 ops without attributes (cann_ops.md 2.2 "sim" list): same name in CANN.
    static constexpr const char* kSame[] = {
        "Abs",   "Neg",      "Exp",      "Log",      "Sqrt",      "Reciprocal", "Floor", "Ceil",
        "Round", "Sign",     "Erf",      "Sin",      "Cos",       "Tan",        "Asin",  "Acos",
        "Atan",  "Sinh",     "Cosh",     "Asinh",    "Acosh",     "Atanh",      "Relu",  "Sigmoid",
        "Tanh",  "Softplus", "Softsign", "Identity", "HardSwish", "Add",        "Sub",   "Mul",
        "Equal", "Greater",  "Less",     "Mish",     "PRelu"};
    for (const char* op : kSame) {
      entries.emplace_back(op, [](NodeContext& c) { return Simple(c, c.op()); });
    }
    AddArrayMappings(&entries);
    AddNnMappings(&entries);
    return std::map<std::string_view, MapFn, std::less<>>(entries.begin(), entries.end());
  }();
  auto it = table.find(onnx_type);
  return it == table.end() ? nullptr : it->second;
}

}  // namespace aclsim::convert
