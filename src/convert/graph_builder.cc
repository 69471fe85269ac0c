#include "convert/graph_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <utility>

namespace aclsim::convert {

using ops::DataType;
using ops::Format;
using ops::TensorDesc;

namespace {

// Folded outputs larger than this stay ops (a constant that big is better computed once at
// load time than stored).
constexpr size_t kMaxFoldBytes = size_t{64} << 20;
// All folded outputs of one import together: past this, ops stay ops (a small hostile model
// cannot make the converter allocate without bound).
constexpr size_t kMaxTotalFoldBytes = size_t{1} << 30;

bool IsCubeOp(const std::string& type) {
  return type == "Conv2D" || type == "Conv2DTranspose" || type == "Conv3D" ||
         type == "Conv3DTranspose" || type == "MatMulV2" || type == "BatchMatMulV2" ||
         type == "MatMul" || type == "BatchMatMul";
}

bool CastsToFp16(PrecisionMode mode) {
  return mode == PrecisionMode::kForceFp16 || mode == PrecisionMode::kAllowFp32ToFp16 ||
         mode == PrecisionMode::kAllowMixPrecision;
}

// Device facts for compiling folded ops: only the work estimate reads them.
const driver::DeviceProps& FoldProps() {
  static const driver::DeviceProps props = [] {
    driver::DeviceProps p;
    p.soc_name = "host";
    p.aicore_num = 1;
    p.vector_core_num = 1;
    p.aicpu_num = 1;
    p.clock_hz = 1'000'000'000;
    p.l2_bytes = 1 << 20;
    p.ub_bytes = 192 << 10;
    p.hbm_bytes = uint64_t{1} << 30;
    return p;
  }();
  return props;
}

// Tile and Expand build index tables of their output's size while inferring shapes: refuse
// outputs past 2^32 elements before asking the op library (hostile multiples / shapes).
Status CheckOutputSize(const ops::OpCall& call) {
  if ((call.type != "Tile" && call.type != "Expand") || call.inputs.size() < 2 ||
      !call.inputs[1].value) {
    return Status::Ok();
  }
  constexpr double kLimit = 4294967296.0;
  const auto& x = call.inputs[0].dims;
  auto values = ReadInts(call.inputs[1].dtype, *call.inputs[1].value);
  if (!values) return Status::Ok();
  const size_t rank = std::max(x.size(), values->size());
  double count = 1;
  for (size_t i = 0; i < rank; ++i) {
    const int64_t xd = i + x.size() >= rank ? x[i + x.size() - rank] : 1;
    const int64_t v = i + values->size() >= rank ? (*values)[i + values->size() - rank] : 1;
    const double d = call.type == "Tile"
                         ? static_cast<double>(std::max<int64_t>(xd, 1)) * static_cast<double>(v)
                         : static_cast<double>(std::max(xd, v));
    count *= std::max(d, 1.0);
  }
  if (count > kLimit) {
    return Err(StatusCode::kOpInputNotMatch, "op {}: the output would have {:.3g} elements",
               call.type, count);
  }
  return Status::Ok();
}

}  // namespace

GraphBuilder::GraphBuilder(const ops::OpLibrary& ops, PrecisionMode mode)
    : ops_(ops), mode_(mode) {}

std::string GraphBuilder::UniqueValueName(const std::string& base, bool is_reserved_owner) {
  const std::string root = base.empty() ? "tensor" : base;
  auto taken = [&](const std::string& n) {
    return used_values_.count(n) != 0 ||
           (reserved_.count(n) != 0 && !(is_reserved_owner && n == root));
  };
  std::string name = root;
  for (size_t k = 1; taken(name); ++k) name = fmt::format("{}_{}", root, k);
  used_values_.insert(name);
  return name;
}

std::string GraphBuilder::UniqueNodeName(const std::string& base) {
  const std::string root = base.empty() ? "node" : base;
  std::string name = root;
  for (size_t k = 1; used_nodes_.count(name) != 0; ++k) name = fmt::format("{}_{}", root, k);
  used_nodes_.insert(name);
  return name;
}

int32_t GraphBuilder::NewValue(Value v) {
  values_.push_back(std::move(v));
  return static_cast<int32_t>(values_.size() - 1);
}

int32_t GraphBuilder::AddInput(const std::string& name, DataType dtype, std::vector<int64_t> dims,
                               Format format) {
  Value v;
  v.desc.name = UniqueValueName(name, true);
  v.desc.dtype = dtype;
  v.desc.dims = std::move(dims);
  v.desc.format = format;
  const int32_t id = NewValue(std::move(v));
  Materialize(id);
  return id;
}

int32_t GraphBuilder::AddConstant(const std::string& name, HostTensor tensor) {
  Value v;
  v.desc.name = UniqueValueName(name, true);
  v.desc.dtype = tensor.dtype;
  v.desc.dims = std::move(tensor.dims);
  v.desc.format = Format::kNd;
  v.data = std::move(tensor.data);
  return NewValue(std::move(v));
}

void GraphBuilder::SetFormat(int32_t id, Format format) {
  Value& v = values_[static_cast<size_t>(id)];
  v.desc.format = format;
  if (v.tensor >= 0) model_.tensors[static_cast<size_t>(v.tensor)].desc.format = format;
}

int32_t GraphBuilder::Materialize(int32_t id) {
  Value& v = values_[static_cast<size_t>(id)];
  if (v.tensor >= 0) return v.tensor;
  core::ModelTensor t;
  t.desc = v.desc;
  t.desc.value.reset();
  if (v.data) {
    const uint64_t offset = (model_.weights.size() + core::kModelWeightAlign - 1) /
                            core::kModelWeightAlign * core::kModelWeightAlign;
    model_.weights.resize(offset);
    model_.weights.insert(model_.weights.end(), v.data->begin(), v.data->end());
    t.constant = core::WeightRange{offset, v.data->size()};
  }
  model_.tensors.push_back(std::move(t));
  v.tensor = static_cast<int32_t>(model_.tensors.size() - 1);
  return v.tensor;
}

Status GraphBuilder::AddOutput(const std::string& name, int32_t id) {
  int32_t tensor = Materialize(id);
  if (output_tensors_.count(tensor) != 0) {
    OpSpec copy;
    copy.type = "Identity";
    copy.inputs = {id};
    copy.output_names = {name};
    auto out = EmitOne(UniqueNodeName(name + "/output"), std::move(copy));
    if (!out.ok()) return out.status();
    tensor = Materialize(out.value()[0]);
  }
  output_tensors_.insert(tensor);
  model_.outputs.push_back(core::ModelIo{name, tensor});
  return Status::Ok();
}

Result<std::vector<int32_t>> GraphBuilder::Emit(const std::string& node_name, OpSpec op) {
  if (!ops_.HasOp(op.type)) {
    return Err(StatusCode::kOpTypeNotMatch, "CANN op {} is not in the op library", op.type);
  }
  if (CastsToFp16(mode_) && IsCubeOp(op.type)) return EmitWithCasts(node_name, std::move(op));
  return EmitOne(node_name, std::move(op));
}

// The precision modes that compute cube ops in float16: float32 inputs are cast to float16
// (constants fold into float16 weights), float16 outputs are cast back to float32.
Result<std::vector<int32_t>> GraphBuilder::EmitWithCasts(const std::string& node_name, OpSpec op) {
  bool any = false;
  for (int32_t in : op.inputs) any |= in >= 0 && value(in).desc.dtype == DataType::kFloat;
  if (!any) return EmitOne(node_name, std::move(op));
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const int32_t in = op.inputs[i];
    if (in < 0 || value(in).desc.dtype != DataType::kFloat) continue;
    OpSpec cast;
    cast.type = "Cast";
    cast.inputs = {in};
    cast.attrs["dst_type"] = int64_t{static_cast<int32_t>(DataType::kFloat16)};
    auto out = EmitOne(UniqueNodeName(fmt::format("{}/cast_x{}_fp16", node_name, i)), cast);
    if (!out.ok()) return out.status();
    op.inputs[i] = out.value()[0];
  }
  std::vector<std::string> names = std::move(op.output_names);
  std::vector<OutputHint> hints = std::move(op.hints);
  op.output_names.clear();
  op.hints.clear();
  for (size_t j = 0; j < hints.size(); ++j) {
    OutputHint h = hints[j];
    if (h.dtype == DataType::kFloat) h.dtype = DataType::kFloat16;
    op.hints.push_back(h);
  }
  auto main = EmitOne(node_name, std::move(op));
  if (!main.ok()) return main.status();
  std::vector<int32_t> outs = main.value();
  for (size_t j = 0; j < outs.size(); ++j) {
    if (value(outs[j]).desc.dtype != DataType::kFloat16) continue;
    OpSpec cast;
    cast.type = "Cast";
    cast.inputs = {outs[j]};
    cast.attrs["dst_type"] = int64_t{static_cast<int32_t>(DataType::kFloat)};
    if (j < names.size()) cast.output_names = {names[j]};
    if (j < hints.size()) cast.hints = {hints[j]};
    auto back = EmitOne(UniqueNodeName(fmt::format("{}/cast_y{}_fp32", node_name, j)), cast);
    if (!back.ok()) return back.status();
    outs[j] = back.value()[0];
  }
  return outs;
}

Result<std::vector<int32_t>> GraphBuilder::EmitOne(const std::string& node_name, OpSpec op) {
  ops::OpCall call;
  call.type = op.type;
  call.attrs = std::move(op.attrs);
  const std::vector<size_t> value_inputs = ops_.ValueInputs(op.type);
  bool all_known = true;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const int32_t in = op.inputs[i];
    if (in < 0) {
      call.inputs.emplace_back();  // absent optional input
      continue;
    }
    const Value& v = value(in);
    TensorDesc desc = v.desc;
    all_known &= v.data.has_value();
    if (v.data && std::find(value_inputs.begin(), value_inputs.end(), i) != value_inputs.end()) {
      desc.value = *v.data;
    }
    call.inputs.push_back(std::move(desc));
  }
  call.outputs.resize(op.num_outputs);
  for (auto& out : call.outputs) out.format = Format::kUndefined;
  ACLSIM_RETURN_IF_ERROR(CheckOutputSize(call));
  ACLSIM_RETURN_IF_ERROR(ops_.InferShape(&call));

  auto name_of = [&](size_t j) {
    if (j < op.output_names.size() && !op.output_names[j].empty()) {
      return UniqueValueName(op.output_names[j], true);
    }
    return UniqueValueName(fmt::format("{}:{}", node_name, j), false);
  };

  // Shape and Size of a statically shaped tensor are known without its contents.
  std::optional<std::vector<HostTensor>> folded;
  if ((op.type == "Shape" || op.type == "Size") && op.inputs.size() == 1 && op.inputs[0] >= 0 &&
      value(op.inputs[0]).desc.shape_known() && call.outputs.size() == 1) {
    const auto& dims = value(op.inputs[0]).desc.dims;
    std::vector<int64_t> values = dims;
    if (op.type == "Size") values = {ElementCount(dims).value_or(0)};
    const auto& out = call.outputs[0];
    HostTensor t = Int64Tensor(values, out.dims);
    if (out.dtype == DataType::kInt32) {
      t = Int32Tensor(std::vector<int32_t>(values.begin(), values.end()), out.dims);
    }
    if (out.dtype == t.dtype) folded = std::vector<HostTensor>{std::move(t)};
  }
  if (!folded && all_known) folded = Fold(call, op.inputs);
  std::vector<int32_t> result;
  if (folded) {
    ++folded_;
    for (size_t j = 0; j < folded->size(); ++j) {
      result.push_back(AddConstant(name_of(j), std::move((*folded)[j])));
    }
    return result;
  }

  // Outputs InferShape left unknown (dynamic shapes): the op's dtypes and ranks from a probe
  // with every unknown dim set to 1.
  std::optional<ops::OpCall> probe;
  for (const auto& out : call.outputs) {
    if (out.dtype == DataType::kUndefined) probe = Probe(call);
  }

  core::ModelNode node;
  node.type = op.type;
  node.name = UniqueNodeName(node_name);
  node.attrs = call.attrs;
  for (int32_t in : op.inputs) node.inputs.push_back(in < 0 ? -1 : Materialize(in));
  for (size_t j = 0; j < call.outputs.size(); ++j) {
    Value v;
    v.desc = call.outputs[j];
    v.desc.value.reset();
    OutputHint hint = j < op.hints.size() ? op.hints[j] : OutputHint{};
    if (probe && j < probe->outputs.size() && v.desc.dtype == DataType::kUndefined) {
      const auto& p = probe->outputs[j];
      v.desc.dtype = p.dtype;
      if (hint.dims.size() != p.dims.size()) hint.dims.assign(p.dims.size(), ops::kUnknownDim);
    }
    if (v.desc.dtype == DataType::kUndefined) v.desc.dtype = hint.dtype;
    if (v.desc.dtype == DataType::kUndefined) {
      for (int32_t in : op.inputs) {
        if (in >= 0) {
          v.desc.dtype = value(in).desc.dtype;
          break;
        }
      }
    }
    const bool rank_unknown = v.desc.dims.size() == 1 && v.desc.dims[0] == ops::kUnknownRank;
    if (rank_unknown || (!v.desc.shape_known() && hint.dims.size() == v.desc.dims.size())) {
      v.desc.dims = hint.dims;
    }
    if (v.desc.format == Format::kUndefined) v.desc.format = Format::kNd;
    v.desc.name = name_of(j);
    const int32_t id = NewValue(std::move(v));
    node.outputs.push_back(Materialize(id));
    result.push_back(id);
  }
  model_.nodes.push_back(std::move(node));
  return result;
}

std::optional<ops::OpCall> GraphBuilder::Probe(const ops::OpCall& call) const {
  ops::OpCall probe = call;
  for (auto& in : probe.inputs) {
    if (in.absent()) continue;
    if (in.dims.size() == 1 && in.dims[0] == ops::kUnknownRank) return std::nullopt;
    for (auto& d : in.dims) d = d < 0 ? 1 : d;
  }
  for (auto& out : probe.outputs) {
    out = TensorDesc{};
    out.format = Format::kUndefined;
  }
  if (!ops_.InferShape(&probe).ok()) return std::nullopt;
  for (const auto& out : probe.outputs) {
    if (out.dtype == DataType::kUndefined) return std::nullopt;
  }
  return probe;
}

std::optional<std::vector<HostTensor>> GraphBuilder::Fold(const ops::OpCall& call,
                                                          const std::vector<int32_t>& inputs) {
  size_t out_bytes = 0;
  for (const auto& out : call.outputs) {
    if (!out.shape_known() || ops::DataTypeSize(out.dtype) == 0) return std::nullopt;
    out_bytes += out.ByteSize();
  }
  if (out_bytes > kMaxFoldBytes || folded_bytes_ + out_bytes > kMaxTotalFoldBytes) {
    return std::nullopt;
  }
  ops::OpCall full = call;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] >= 0) full.inputs[i].value = *value(inputs[i]).data;
  }
  auto kernel = ops_.Compile(full, FoldProps());
  if (!kernel.ok()) return std::nullopt;
  const ops::OpCall& resolved = kernel.value()->call();
  std::vector<ops::KernelBuffer> in_bufs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] < 0) {
      in_bufs.push_back({nullptr, 0});
      continue;
    }
    auto& data = *values_[static_cast<size_t>(inputs[i])].data;
    in_bufs.push_back({data.data(), data.size()});
  }
  std::vector<std::vector<uint8_t>> storage;
  std::vector<ops::KernelBuffer> out_bufs;
  storage.reserve(resolved.outputs.size());
  for (const auto& out : resolved.outputs) {
    const size_t bytes = out.ByteSize();
    storage.emplace_back(std::max<size_t>(bytes, 1));
    out_bufs.push_back({storage.back().data(), bytes});
  }
  std::vector<std::vector<int64_t>> dynamic_dims(resolved.outputs.size());
  Status run;
  try {
    run = kernel.value()->Run(in_bufs, out_bufs, &dynamic_dims);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (!run.ok()) return std::nullopt;
  folded_bytes_ += out_bytes;
  std::vector<HostTensor> result;
  for (size_t j = 0; j < resolved.outputs.size(); ++j) {
    HostTensor t;
    t.dtype = resolved.outputs[j].dtype;
    t.dims = resolved.outputs[j].dims;
    if (kernel.value()->dynamic_output_shape()) t.dims = dynamic_dims[j];
    const auto count = ElementCount(t.dims);
    const size_t bytes = static_cast<size_t>(count.value_or(0)) * ops::DataTypeSize(t.dtype);
    if (!count || bytes > out_bufs[j].size) return std::nullopt;
    storage[j].resize(bytes);
    t.data = std::move(storage[j]);
    result.push_back(std::move(t));
  }
  return result;
}

}  // namespace aclsim::convert
