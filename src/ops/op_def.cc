// Op definition helpers: contexts, registry, default work (ops/op_def.h).
#include "ops/op_def.h"

#include <algorithm>
#include <cassert>

#include "ops/work_builders.h"

namespace aclsim::ops {

const char* AttrTypeName(AttrType type) {
  switch (type) {
    case AttrType::kBool:
      return "bool";
    case AttrType::kInt:
      return "int";
    case AttrType::kFloat:
      return "float";
    case AttrType::kString:
      return "string";
    case AttrType::kType:
      return "data type";
    case AttrType::kListBool:
      return "list of bool";
    case AttrType::kListInt:
      return "list of int";
    case AttrType::kListFloat:
      return "list of float";
    case AttrType::kListString:
      return "list of string";
    case AttrType::kListType:
      return "list of data type";
    case AttrType::kListListInt:
      return "list of list of int";
  }
  return "?";
}

template <typename T>
const T& AttrReader::Get(std::string_view name) const {
  auto it = attrs_->find(name);
  if (it == attrs_->end() || !std::holds_alternative<T>(it->second)) {
    // The library fills every prototype attribute with the declared type before infer/run,
    // so this is a bug in an op definition.
    throw std::logic_error("op attribute '" + std::string(name) + "' read with the wrong type");
  }
  return std::get<T>(it->second);
}

template const bool& AttrReader::Get<bool>(std::string_view) const;
template const int64_t& AttrReader::Get<int64_t>(std::string_view) const;
template const float& AttrReader::Get<float>(std::string_view) const;
template const std::string& AttrReader::Get<std::string>(std::string_view) const;
template const DataType& AttrReader::Get<DataType>(std::string_view) const;
template const std::vector<int64_t>& AttrReader::Get<std::vector<int64_t>>(std::string_view) const;
template const std::vector<float>& AttrReader::Get<std::vector<float>>(std::string_view) const;
template const std::vector<std::vector<int64_t>>&
    AttrReader::Get<std::vector<std::vector<int64_t>>>(std::string_view) const;

OpContext::OpContext(const OpDef& def, OpCall* call)
    : AttrReader(&call->attrs), def_(def), call_(call) {}

void OpContext::SetRanges(std::vector<std::pair<size_t, size_t>> inputs,
                          std::vector<std::pair<size_t, size_t>> outputs) {
  input_ranges_ = std::move(inputs);
  output_ranges_ = std::move(outputs);
}

void OpContext::SetOutput(size_t i, DataType dtype, std::vector<int64_t> dims) {
  Format format = Format::kNd;
  for (const auto& in : call_->inputs) {
    if (!in.absent()) {
      format = in.format;
      break;
    }
  }
  SetOutput(i, dtype, std::move(dims), format);
}

void OpContext::SetOutput(size_t i, DataType dtype, std::vector<int64_t> dims, Format format) {
  if (i >= call_->outputs.size()) call_->outputs.resize(i + 1);
  auto& out = call_->outputs[i];
  out.dtype = dtype;
  out.dims = std::move(dims);
  if (out.format == Format::kUndefined || out.format == Format::kNd) out.format = format;
}

std::string OpContext::InputName(size_t i) const {
  for (size_t arg = 0; arg < input_ranges_.size() && arg < def_.inputs.size(); ++arg) {
    auto [first, count] = input_ranges_[arg];
    if (i >= first && i < first + count) {
      if (def_.inputs[arg].kind == ArgKind::kDynamic) {
        return fmt::format("input {} ({}[{}])", i, def_.inputs[arg].name, i - first);
      }
      return fmt::format("input {} ({})", i, def_.inputs[arg].name);
    }
  }
  return fmt::format("input {}", i);
}

std::string OpContext::OutputName(size_t i) const {
  for (size_t arg = 0; arg < output_ranges_.size() && arg < def_.outputs.size(); ++arg) {
    auto [first, count] = output_ranges_[arg];
    if (i >= first && i < first + count) {
      if (def_.outputs[arg].kind == ArgKind::kDynamic) {
        return fmt::format("output {} ({}[{}])", i, def_.outputs[arg].name, i - first);
      }
      return fmt::format("output {} ({})", i, def_.outputs[arg].name);
    }
  }
  return fmt::format("output {}", i);
}

Result<std::vector<int64_t>> OpContext::InputInts(size_t i) const {
  if (!has_input(i)) {
    return Fail(StatusCode::kOpInputNotMatch, "{} is required", InputName(i));
  }
  const auto& desc = input(i);
  if (!desc.value) {
    return Fail(StatusCode::kOpInputNotMatch,
                "the value of {} must be known when the op is compiled (give it as a constant "
                "with aclSetTensorConst or as host memory)",
                InputName(i));
  }
  return BytesToInts(*desc.value, desc.dtype);
}

Result<std::vector<double>> OpContext::InputDoubles(size_t i) const {
  if (!has_input(i)) {
    return Fail(StatusCode::kOpInputNotMatch, "{} is required", InputName(i));
  }
  const auto& desc = input(i);
  if (!desc.value) {
    return Fail(StatusCode::kOpInputNotMatch,
                "the value of {} must be known when the op is compiled", InputName(i));
  }
  return BytesToDoubles(*desc.value, desc.dtype);
}

Status RunContext::SetOutputDims(size_t i, std::vector<int64_t> dims) {
  if (i >= outputs_.size()) return Fail(StatusCode::kInternal, "output {} out of range", i);
  const auto count = CheckedProduct(dims.begin(), dims.end());
  const auto bytes =
      count ? CheckedTensorBytes(*count, DataTypeSize(outputs_[i].dtype)) : std::nullopt;
  if (!bytes) {
    return Fail(StatusCode::kOpOutputNotMatch,
                "output {} would have shape [{}], past the limit of "
                "one tensor",
                i, fmt::join(dims, ", "));
  }
  if (*bytes > outputs_[i].size) {
    return Fail(StatusCode::kOpOutputNotMatch,
                "output {} needs {} bytes for its real shape but its buffer has {}", i, *bytes,
                outputs_[i].size);
  }
  if (output_dims_.size() < outputs_.size()) output_dims_.resize(outputs_.size());
  outputs_[i].dims = dims;
  output_dims_[i] = std::move(dims);
  return Status::Ok();
}

void OpRegistry::Add(OpDef def) {
  assert(ops_.count(def.type) == 0 && "op defined twice");
  std::string type = def.type;
  ops_.emplace(std::move(type), std::move(def));
}

const OpDef* OpRegistry::Find(std::string_view type) const {
  auto it = ops_.find(type);
  return it == ops_.end() ? nullptr : &it->second;
}

std::vector<std::string> OpRegistry::Types() const {
  std::vector<std::string> types;
  types.reserve(ops_.size());
  for (const auto& [type, def] : ops_) types.push_back(type);
  return types;
}

driver::DtypeClass DtypeClassOf(DataType dtype) {
  switch (dtype) {
    case DataType::kFloat16:
      return driver::DtypeClass::kFp16;
    case DataType::kBf16:
      return driver::DtypeClass::kBf16;
    case DataType::kInt8:
    case DataType::kUint8:
    case DataType::kBool:
      return driver::DtypeClass::kInt8;
    default:
      return driver::DtypeClass::kFp32;
  }
}

driver::KernelWork DefaultWork(const OpContext& ctx, const driver::DeviceProps& props,
                               uint32_t* blocks) {
  uint64_t read = 0;
  uint64_t written = 0;
  uint64_t out_elements = 0;
  DataType main = DataType::kFloat;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    if (ctx.has_input(i)) read += ctx.input(i).ByteSize();
  }
  for (size_t i = 0; i < ctx.num_outputs(); ++i) {
    written += ctx.output(i).ByteSize();
    out_elements += static_cast<uint64_t>(ctx.output(i).ElementCount());
    if (i == 0) main = ctx.output(i).dtype;
  }
  const uint64_t cores = std::max<uint32_t>(1, props.vector_core_num);
  constexpr uint64_t kMinBytesPerBlock = 16 * 1024;
  const uint64_t by_size = std::max<uint64_t>(1, (read + written) / kMinBytesPerBlock);
  *blocks = static_cast<uint32_t>(std::min(cores, by_size));
  driver::KernelWork work;
  work.dtype = DtypeClassOf(main);
  work.vector_flops = out_elements * std::max<uint32_t>(1, ctx.def().ops_per_element);
  work.gm_read_bytes = read;
  work.gm_write_bytes = written;
  work.ub_bytes = read + written;
  work.scalar_ops = 64ULL * *blocks;
  const uint64_t ub = std::max<uint64_t>(props.ub_bytes, 64 * 1024);
  const uint64_t chunk = ub / 2;
  work.pipeline_steps = static_cast<uint32_t>(
      std::max<uint64_t>(1, std::min<uint64_t>((read + written) / *blocks / chunk + 1, 1 << 20)));
  work.double_buffered = true;
  return work;
}

std::vector<DataType> FloatTypes() {
  return {DataType::kFloat16, DataType::kBf16, DataType::kFloat, DataType::kDouble};
}

std::vector<DataType> IntTypes() {
  return {DataType::kInt8,  DataType::kUint8,  DataType::kInt16, DataType::kUint16,
          DataType::kInt32, DataType::kUint32, DataType::kInt64, DataType::kUint64};
}

std::vector<DataType> NumberTypes() {
  auto types = FloatTypes();
  auto ints = IntTypes();
  types.insert(types.end(), ints.begin(), ints.end());
  return types;
}

std::vector<DataType> AllTypes() {
  auto types = NumberTypes();
  types.push_back(DataType::kBool);
  return types;
}

std::vector<DataType> IndexTypes() { return {DataType::kInt32, DataType::kInt64}; }

Status InferSame(OpContext& ctx) {
  ctx.SetOutput(0, ctx.input(0).dtype, ctx.input(0).dims);
  return Status::Ok();
}

std::string DimsStr(const std::vector<int64_t>& dims) {
  return fmt::format("[{}]", fmt::join(dims, ", "));
}

ArgDef In(std::string name, std::vector<DataType> dtypes) {
  return {std::move(name), ArgKind::kRequired, std::move(dtypes)};
}
ArgDef OptIn(std::string name, std::vector<DataType> dtypes) {
  return {std::move(name), ArgKind::kOptional, std::move(dtypes)};
}
ArgDef DynIn(std::string name, std::vector<DataType> dtypes) {
  return {std::move(name), ArgKind::kDynamic, std::move(dtypes)};
}
ArgDef Out(std::string name, std::vector<DataType> dtypes) {
  return {std::move(name), ArgKind::kRequired, std::move(dtypes)};
}
ArgDef DynOut(std::string name, std::vector<DataType> dtypes) {
  return {std::move(name), ArgKind::kDynamic, std::move(dtypes)};
}
AttrDef ReqAttr(std::string name, AttrType type) { return {std::move(name), type, std::nullopt}; }
AttrDef OptAttr(std::string name, AttrType type, AttrValue default_value) {
  return {std::move(name), type, std::move(default_value)};
}

Result<std::vector<int64_t>> BroadcastDims(const std::vector<int64_t>& a,
                                           const std::vector<int64_t>& b) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da == db || db == 1) {
      out[i] = da;
    } else if (da == 1) {
      out[i] = db;
    } else {
      return Status(StatusCode::kOpInputNotMatch,
                    fmt::format("dims {} and {} do not broadcast", da, db));
    }
  }
  return out;
}

Result<std::vector<int64_t>> BroadcastShapes(const OpContext& ctx, size_t a, size_t b) {
  auto dims = BroadcastDims(ctx.input(a).dims, ctx.input(b).dims);
  if (!dims.ok()) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} shape [{}] and {} shape [{}]: {}",
                    ctx.InputName(a), fmt::join(ctx.input(a).dims, ", "), ctx.InputName(b),
                    fmt::join(ctx.input(b).dims, ", "), dims.status().message());
  }
  return dims;
}

Result<int64_t> NormalizeAxis(const OpContext& ctx, int64_t axis, int64_t rank, const char* what) {
  const int64_t bound = std::max<int64_t>(rank, 1);
  if (axis < -bound || axis >= bound) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch, "{} {} is out of range for rank {}", what, axis,
                    rank);
  }
  return axis < 0 ? axis + bound : axis;
}

}  // namespace aclsim::ops
