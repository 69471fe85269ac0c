#include "core/nn/builder.h"

#include <fmt/ranges.h>

#include <algorithm>
#include <cstring>
#include <string_view>

#include "common/checked_size.h"
#include "core/device.h"
#include "core/op_executor.h"
#include "core/runtime.h"
#include "ops/formats.h"
#include "ops/tensor.h"

namespace aclsim::core::nn {
namespace {

constexpr uint64_t kWorkspaceAlign = 512;
constexpr size_t kMaxRank = 8;

// Bytes of `dtype` values holding `value` each, `count` of them.
std::vector<uint8_t> Encode(double value, ops::DataType dtype, int64_t count) {
  const size_t esize = ops::DataTypeSize(dtype);
  std::vector<uint8_t> bytes(esize * static_cast<size_t>(count));
  (void)ops::DispatchType(dtype, [&](auto tag) {
    using T = decltype(tag);
    const T encoded = ops::FromCompute<T>(static_cast<ops::ComputeT<T>>(value));
    for (int64_t i = 0; i < count; ++i) std::memcpy(bytes.data() + i * esize, &encoded, esize);
    return Status::Ok();
  });
  return bytes;
}

std::vector<uint8_t> EncodeInts(const std::vector<int64_t>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(int64_t));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

ops::TensorDesc IntsDesc(const std::vector<int64_t>& values) {
  ops::TensorDesc desc;
  desc.dtype = ops::DataType::kInt64;
  desc.dims = {static_cast<int64_t>(values.size())};
  desc.value = EncodeInts(values);
  return desc;
}

}  // namespace

std::string ShapeString(const std::vector<int64_t>& dims) {
  return fmt::format("[{}]", fmt::join(dims, ", "));
}

int64_t Value::numel() const { return ElementCount(dims); }

bool Value::contiguous() const {
  if (kind == Ref::Kind::kConst) return true;
  return IsRowMajor(dims, strides);
}

Builder::Builder(std::string name) : name_(std::move(name)) {
  // Named for the operator: "aclnnAddGetWorkspaceSize" builds "aclnnAdd".
  constexpr std::string_view kSuffix = "GetWorkspaceSize";
  if (name_.size() > kSuffix.size() &&
      name_.compare(name_.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0) {
    name_.resize(name_.size() - kSuffix.size());
  }
  executor_ = MakeHandleObject<Executor>();
  executor_->name = name_;
}

Status Builder::Begin() {
  ACLSIM_ASSIGN_OR_RETURN(runtime_, Runtime::Current());
  ACLSIM_ASSIGN_OR_RETURN(auto context, runtime_->CurrentContext());
  device_ = context->device();
  return Status::Ok();
}

Result<Value> Builder::AddSlot(const NnTensor* tensor, const char* what, bool optional, bool input,
                               bool output, bool accept_nz) {
  if (tensor == nullptr) {
    if (!optional) return Err(StatusCode::kNullPointer, "{}: {} is NULL", name_, what);
    if (input) executor_->input_slots.push_back(-1);
    if (output) executor_->output_slots.push_back(-1);
    return Value{};
  }
  const size_t esize = ops::DataTypeSize(tensor->dtype);
  if (esize == 0 || tensor->dtype == ops::DataType::kString) {
    return Err(StatusCode::kInvalidParam, "{}: {} has data type {}, which no kernel computes",
               name_, what, ops::DataTypeName(tensor->dtype));
  }
  switch (tensor->format) {
    case ops::Format::kFractalNz:
      if (accept_nz) break;
      [[fallthrough]];
    case ops::Format::kNc1hwc0:
    case ops::Format::kFractalZ:
    case ops::Format::kNc1hwc0C04:
    case ops::Format::kNdc1hwc0:
    case ops::Format::kFractalZ3d:
      return Err(StatusCode::kInvalidParam,
                 "{}: {} has the private format {}, which this operator does not read (FRACTAL_NZ "
                 "weights go to Mm, BatchMatMul and Matmul as mat2)",
                 name_, what, ops::FormatName(tensor->format));
    default:
      break;
  }
  if (tensor->dims.size() > kMaxRank) {
    return Err(StatusCode::kInvalidParam, "{}: {} has {} dims; at most {} are supported", name_,
               what, tensor->dims.size(), kMaxRank);
  }
  int64_t extent = tensor->offset;  // last element reached, then + 1
  bool empty = false;
  for (size_t k = 0; k < tensor->dims.size(); ++k) {
    if (tensor->dims[k] < 0 || tensor->strides[k] < 0) {
      return Err(StatusCode::kInvalidParam,
                 "{}: {} has dim {} = {} with stride {}; neither may be negative", name_, what, k,
                 tensor->dims[k], tensor->strides[k]);
    }
    empty |= tensor->dims[k] == 0;
    if (tensor->dims[k] > 0) {
      extent = SaturatingAdd(extent, SaturatingMul(tensor->dims[k] - 1, tensor->strides[k]));
    }
  }
  if (tensor->offset < 0) {
    return Err(StatusCode::kInvalidParam, "{}: {} has a negative offset {}", name_, what,
               tensor->offset);
  }
  extent = empty ? 0 : SaturatingAdd(extent, 1);
  if (!CheckedTensorBytes(extent, esize) ||
      !CheckedTensorBytes(ElementCount(tensor->dims), esize)) {
    return Err(StatusCode::kInvalidParam, "{}: {} is larger than a tensor may be (2^48 bytes)",
               name_, what);
  }
  // The storage dims bound the view's span (from its offset on), as CANN checks them: framework
  // backends (llama.cpp's) give the length of the span and an offset beyond it. An empty view
  // reads nothing, whatever storage it names. The launch still checks every byte the kernels
  // touch against the device's allocations.
  if (!tensor->storage_dims.empty() && !empty) {
    const int64_t storage = ElementCount(tensor->storage_dims);
    if (extent - tensor->offset > storage) {
      return Err(StatusCode::kInvalidParam,
                 "{}: the view of {} spans {} elements but its storage holds {}", name_, what,
                 extent - tensor->offset, storage);
    }
  }
  uint32_t slot = 0;
  auto found = slot_of_.find(tensor);
  if (found != slot_of_.end()) {
    slot = found->second;
  } else {
    slot = static_cast<uint32_t>(executor_->slots.size());
    executor_->slots.push_back({tensor->data, 0});
    executor_->slot_sources.push_back(tensor);
    slot_of_.emplace(tensor, slot);
  }
  if (input) executor_->input_slots.push_back(static_cast<int32_t>(slot));
  if (output) executor_->output_slots.push_back(static_cast<int32_t>(slot));
  Value value;
  value.dtype = tensor->dtype;
  value.dims = tensor->dims;
  value.kind = Ref::Kind::kSlot;
  value.slot = slot;
  value.strides = tensor->strides;
  value.elem_offset = tensor->offset;
  value.base_elems = extent;
  value.format = tensor->format;
  return value;
}

Result<Value> Builder::Input(const NnTensor* tensor, const char* what, bool optional) {
  return AddSlot(tensor, what, optional, true, false);
}

Result<Value> Builder::Output(const NnTensor* tensor, const char* what, bool optional) {
  return AddSlot(tensor, what, optional, false, true);
}

Result<Value> Builder::InOut(const NnTensor* tensor, const char* what) {
  return AddSlot(tensor, what, false, true, true);
}

Result<Value> Builder::InputFractalNz(const NnTensor* tensor, const char* what) {
  return AddSlot(tensor, what, false, true, false, true);
}

Result<Value> Builder::InputInt4(const NnTensor* tensor, const char* what, size_t* packed_dim) {
  if (tensor == nullptr) return Err(StatusCode::kNullPointer, "{}: {} is NULL", name_, what);
  if (tensor->dtype != ops::DataType::kInt4) return Input(tensor, what);
  auto bytes = std::make_unique<NnTensor>(*tensor);
  bytes->dtype = ops::DataType::kInt8;
  const size_t rank = bytes->dims.size();
  size_t packed = rank;
  for (size_t k = rank; k-- > 0;) {
    if (bytes->strides[k] == 1 && bytes->dims[k] > 1) {
      packed = k;
      break;
    }
  }
  if (packed == rank) {
    return Err(StatusCode::kInvalidParam,
               "{}: {} is int4 of shape {} without a unit-stride dim to pack two to a byte", name_,
               what, ShapeString(bytes->dims));
  }
  if (bytes->dims[packed] % 2 != 0) {
    return Err(StatusCode::kInvalidParam,
               "{}: {} is int4 with {} elements along its unit-stride dim {}; packed two to a "
               "byte, that must be even",
               name_, what, bytes->dims[packed], packed);
  }
  bytes->dims[packed] /= 2;
  for (size_t k = 0; k < rank; ++k) {
    if (k == packed || bytes->dims[k] <= 1) continue;
    if (bytes->strides[k] % 2 != 0) {
      return Err(StatusCode::kInvalidParam,
                 "{}: {} is int4 with an odd stride {} in dim {}; its elements must pair into "
                 "bytes",
                 name_, what, bytes->strides[k], k);
    }
    bytes->strides[k] /= 2;
  }
  if (bytes->offset % 2 != 0) {
    return Err(StatusCode::kInvalidParam, "{}: {} is int4 at an odd element offset {}", name_, what,
               bytes->offset);
  }
  bytes->offset /= 2;
  if (!bytes->storage_dims.empty()) {
    bytes->storage_dims = {(ElementCount(bytes->storage_dims) + 1) / 2};
  }
  *packed_dim = packed;
  byte_views_.push_back(std::move(bytes));
  return Input(byte_views_.back().get(), what);
}

Result<std::vector<Value>> Builder::OutputList(const std::vector<const NnTensor*>& tensors,
                                               size_t ir_index, const char* what) {
  ACLSIM_ASSIGN_OR_RETURN(std::vector<Value> values, InputList(tensors, ir_index, what));
  executor_->lists.back().is_output = true;
  return values;
}

Result<std::vector<Value>> Builder::InputList(const std::vector<const NnTensor*>& tensors,
                                              size_t ir_index, const char* what) {
  Executor::ListParam list;
  list.ir_index = ir_index;
  std::vector<Value> values;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const std::string name = fmt::format("{}[{}]", what, i);
    ACLSIM_ASSIGN_OR_RETURN(Value value, AddSlot(tensors[i], name.c_str(), false, false, false));
    list.slots.push_back(static_cast<int32_t>(value.slot));
    values.push_back(std::move(value));
  }
  executor_->lists.push_back(std::move(list));
  return values;
}

uint64_t Builder::Allocate(uint64_t bytes) {
  const uint64_t offset = workspace_top_;
  last_alloc_ = offset;
  workspace_top_ += (bytes + kWorkspaceAlign - 1) / kWorkspaceAlign * kWorkspaceAlign;
  return offset;
}

Ref Builder::RefOf(const Value& value) const {
  const uint64_t esize = ops::DataTypeSize(value.dtype);
  const uint64_t bytes = value.storage_format != ops::Format::kUndefined
                             ? static_cast<uint64_t>(DescOf(value).ByteSize())
                             : static_cast<uint64_t>(value.numel()) * esize;
  switch (value.kind) {
    case Ref::Kind::kSlot:
      return {Ref::Kind::kSlot, value.slot, static_cast<uint64_t>(value.elem_offset) * esize,
              bytes};
    case Ref::Kind::kWorkspace:
      return {Ref::Kind::kWorkspace, 0,
              value.offset + static_cast<uint64_t>(value.elem_offset) * esize, bytes};
    case Ref::Kind::kConst:
      return {Ref::Kind::kConst, 0, 0, 0};
    case Ref::Kind::kNone:
      break;
  }
  return {};
}

Ref Builder::BaseOf(const Value& value) const {
  const uint64_t bytes = static_cast<uint64_t>(value.base_elems) * ops::DataTypeSize(value.dtype);
  if (value.kind == Ref::Kind::kSlot) return {Ref::Kind::kSlot, value.slot, 0, bytes};
  return {Ref::Kind::kWorkspace, 0, value.offset, bytes};
}

ops::TensorDesc Builder::DescOf(const Value& value) const {
  ops::TensorDesc desc;
  if (!value.present()) return desc;
  desc.dtype = value.dtype;
  desc.dims = value.dims;
  desc.format = value.format == ops::Format::kUndefined ? ops::Format::kNd : value.format;
  if (value.storage_format != ops::Format::kUndefined && value.storage_format != desc.format) {
    auto storage = ops::StorageDims(desc.format, desc.dims, desc.dtype, value.storage_format);
    if (storage.ok()) {
      desc.storage_format = value.storage_format;
      desc.storage_dims = std::move(storage.value());
    }
  }
  if (value.kind == Ref::Kind::kConst) desc.value = *value.bytes;
  return desc;
}

Value Builder::View(const Value& value, std::vector<int64_t> dims, std::vector<int64_t> strides,
                    int64_t elem_offset) const {
  Value view = value;
  view.dims = std::move(dims);
  view.strides = std::move(strides);
  view.elem_offset = value.elem_offset + elem_offset;
  view.producer = -1;  // no longer exactly the producing step's output
  return view;
}

Value Builder::Constant(double value, ops::DataType dtype, std::vector<int64_t> dims) const {
  Value constant;
  constant.dtype = dtype;
  constant.kind = Ref::Kind::kConst;
  constant.bytes =
      std::make_shared<const std::vector<uint8_t>>(Encode(value, dtype, ElementCount(dims)));
  constant.strides = ContiguousStrides(dims);
  constant.base_elems = ElementCount(dims);
  constant.dims = std::move(dims);
  return constant;
}

Value Builder::ConstantBytes(std::vector<uint8_t> bytes, ops::DataType dtype,
                             std::vector<int64_t> dims) const {
  Value constant;
  constant.dtype = dtype;
  constant.kind = Ref::Kind::kConst;
  constant.bytes = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
  constant.strides = ContiguousStrides(dims);
  constant.base_elems = ElementCount(dims);
  constant.dims = std::move(dims);
  return constant;
}

Result<size_t> Builder::AddStep(const std::string& type, std::vector<ops::TensorDesc> descs,
                                std::vector<Ref> refs, ops::AttrMap attrs, size_t num_outputs,
                                ops::Format out_storage) {
  ops::OpCall call;
  call.type = type;
  call.inputs = std::move(descs);
  call.outputs.resize(num_outputs);
  if (num_outputs > 0) call.outputs[0].storage_format = out_storage;
  call.attrs = std::move(attrs);
  auto kernel = CompilePrebuilt(*runtime_, *device_, call);
  if (!kernel.ok()) {
    return Status(kernel.status().code(), name_ + ": " + kernel.status().message());
  }
  Step step;
  step.kernel = std::move(kernel.value());
  step.inputs = std::move(refs);
  step.outputs.resize(num_outputs);
  step.op_name = name_ + "_" + type;
  for (const Ref& ref : step.inputs) {
    if (ref.kind == Ref::Kind::kSlot) {
      Slot& slot = executor_->slots[ref.slot];
      slot.extent = std::max(slot.extent, ref.offset + ref.size);
    }
  }
  executor_->steps.push_back(std::move(step));
  return executor_->steps.size() - 1;
}

Result<Value> Builder::Contiguous(const Value& value) {
  if (!value.present() || value.contiguous()) return value;
  std::vector<ops::TensorDesc> descs(4);
  std::vector<Ref> refs(4);
  descs[0].dtype = value.dtype;
  descs[0].dims = {value.base_elems};
  refs[0] = BaseOf(value);
  descs[1] = IntsDesc(value.dims);
  descs[2] = IntsDesc(value.strides);
  descs[3] = IntsDesc({value.elem_offset});
  for (size_t i = 1; i < 4; ++i) refs[i] = {Ref::Kind::kConst, 0, 0, 0};
  ACLSIM_ASSIGN_OR_RETURN(size_t step,
                          AddStep("AsStrided", std::move(descs), std::move(refs), {}, 1));
  Value out;
  out.dtype = value.dtype;
  out.dims = value.dims;
  out.strides = ContiguousStrides(value.dims);
  out.kind = Ref::Kind::kWorkspace;
  out.base_elems = value.numel();
  out.format = value.format;
  out.offset = Allocate(static_cast<uint64_t>(out.base_elems) * ops::DataTypeSize(out.dtype));
  out.producer = static_cast<int32_t>(step);
  executor_->steps[step].outputs[0] = RefOf(out);
  return out;
}

Result<Value> Builder::Reshape(const Value& value, std::vector<int64_t> dims) {
  if (ElementCount(dims) != value.numel()) {
    return Err(StatusCode::kInternal, "{}: reshape of {} elements to {}", name_, value.numel(),
               fmt::join(dims, "x"));
  }
  ACLSIM_ASSIGN_OR_RETURN(Value flat, Contiguous(value));
  flat.strides = ContiguousStrides(dims);
  flat.dims = std::move(dims);
  return flat;
}

Result<Value> Builder::Cast(const Value& value, ops::DataType dtype) {
  if (!value.present() || value.dtype == dtype) return value;
  if (value.kind == Ref::Kind::kConst) {
    // Re-encode: constants are made from one value (or decoded exactly).
    Value constant = value;
    constant.dtype = dtype;
    const std::vector<double> values = ops::BytesToDoubles(*value.bytes, value.dtype);
    std::vector<uint8_t> bytes;
    for (double v : values) {
      const auto one = Encode(v, dtype, 1);
      bytes.insert(bytes.end(), one.begin(), one.end());
    }
    constant.bytes = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
    return constant;
  }
  return Op1("Cast", {value}, {{"dst_type", static_cast<int64_t>(dtype)}});
}

Result<std::vector<Value>> Builder::Op(const std::string& type, std::vector<Value> inputs,
                                       ops::AttrMap attrs, size_t num_outputs,
                                       const std::map<size_t, std::vector<int64_t>>& consts) {
  std::vector<ops::TensorDesc> descs;
  std::vector<Ref> refs;
  size_t next = 0;
  const size_t total = inputs.size() + consts.size();
  for (size_t position = 0; position < total; ++position) {
    auto c = consts.find(position);
    if (c != consts.end()) {
      descs.push_back(IntsDesc(c->second));
      refs.push_back({Ref::Kind::kConst, 0, 0, 0});
      continue;
    }
    ACLSIM_ASSIGN_OR_RETURN(Value input, Contiguous(inputs[next++]));
    descs.push_back(DescOf(input));
    refs.push_back(input.present() ? RefOf(input) : Ref{});
  }
  ACLSIM_ASSIGN_OR_RETURN(
      size_t step, AddStep(type, std::move(descs), std::move(refs), std::move(attrs), num_outputs));
  std::vector<Value> outputs;
  const ops::OpCall& resolved = executor_->steps[step].kernel->call();
  for (size_t i = 0; i < num_outputs; ++i) {
    const ops::TensorDesc& desc = resolved.outputs[i];
    Value out;
    out.dtype = desc.dtype;
    out.dims = desc.dims;
    out.strides = ContiguousStrides(desc.dims);
    out.kind = Ref::Kind::kWorkspace;
    out.base_elems = out.numel();
    out.format = desc.format;
    out.offset = Allocate(desc.ByteSize());
    out.producer = static_cast<int32_t>(step);
    out.output_index = static_cast<uint32_t>(i);
    executor_->steps[step].outputs[i] = RefOf(out);
    outputs.push_back(std::move(out));
  }
  return outputs;
}

Result<Value> Builder::Op1(const std::string& type, std::vector<Value> inputs, ops::AttrMap attrs,
                           const std::map<size_t, std::vector<int64_t>>& consts) {
  ACLSIM_ASSIGN_OR_RETURN(auto outputs, Op(type, std::move(inputs), std::move(attrs), 1, consts));
  return outputs[0];
}

bool Builder::Rebind(const Value& result, const Value& out) {
  if (result.kind != Ref::Kind::kWorkspace || result.producer < 0 ||
      static_cast<size_t>(result.producer) + 1 != executor_->steps.size() ||
      result.dtype != out.dtype || !result.contiguous() || result.elem_offset != 0) {
    return false;
  }
  Step& step = executor_->steps.back();
  const Ref ref = RefOf(out);
  step.outputs[result.output_index] = ref;
  Slot& slot = executor_->slots[ref.slot];
  slot.extent = std::max(slot.extent, ref.offset + ref.size);
  // The temporary is no longer written: give its space back when it was the last one.
  if (result.offset == last_alloc_ && step.outputs.size() == 1) workspace_top_ = last_alloc_;
  return true;
}

Status Builder::StoreLayout(const Value& result, const Value& out, ops::Format storage) {
  if (result.dims != out.dims || result.dtype != out.dtype || !out.contiguous() ||
      out.kind != Ref::Kind::kSlot) {
    return Err(StatusCode::kInternal, "{}: a layout store needs a contiguous out of the same kind",
               name_);
  }
  ACLSIM_ASSIGN_OR_RETURN(Value src, Contiguous(result));
  Value target = out;
  target.storage_format = storage;
  const ops::TensorDesc desc = DescOf(target);
  if (!desc.has_storage_layout()) {
    return Err(StatusCode::kInvalidParam, "{}: a {} tensor of shape {} has no {} layout", name_,
               ops::DataTypeName(out.dtype), ShapeString(out.dims), ops::FormatName(storage));
  }
  ACLSIM_ASSIGN_OR_RETURN(size_t step,
                          AddStep("Identity", {DescOf(src)}, {RefOf(src)}, {}, 1, storage));
  const Ref ref = RefOf(target);
  executor_->steps[step].outputs[0] = ref;
  Slot& slot = executor_->slots[ref.slot];
  slot.extent = std::max(slot.extent, ref.offset + ref.size);
  return Status::Ok();
}

Status Builder::Store(const Value& result, const Value& out) {
  if (result.dims != out.dims) {
    return Err(StatusCode::kInvalidParam, "{}: the result has shape [{}] but out has [{}]", name_,
               fmt::join(result.dims, ", "), fmt::join(out.dims, ", "));
  }
  if (out.numel() == 0) return Status::Ok();
  ACLSIM_ASSIGN_OR_RETURN(Value cast, Cast(result, out.dtype));
  if (out.contiguous()) {
    if (cast.kind == Ref::Kind::kSlot && cast.slot == out.slot &&
        cast.elem_offset == out.elem_offset && cast.contiguous()) {
      return Status::Ok();  // already there (in place)
    }
    ACLSIM_ASSIGN_OR_RETURN(cast, Contiguous(cast));
    if (Rebind(cast, out)) return Status::Ok();
    ACLSIM_ASSIGN_OR_RETURN(Value copy, Op1("Identity", {cast}));
    if (!Rebind(copy, out)) return Err(StatusCode::kInternal, "{}: cannot place a copy", name_);
    return Status::Ok();
  }
  ACLSIM_ASSIGN_OR_RETURN(Value src, Contiguous(cast));
  std::vector<ops::TensorDesc> descs(8);
  std::vector<Ref> refs(8, Ref{Ref::Kind::kConst, 0, 0, 0});
  descs[0].dtype = out.dtype;
  descs[0].dims = {out.base_elems};
  refs[0] = BaseOf(out);
  descs[1] = IntsDesc(out.dims);
  descs[2] = IntsDesc(out.strides);
  descs[3] = IntsDesc({out.elem_offset});
  descs[4] = DescOf(src);
  refs[4] = RefOf(src);
  descs[5] = IntsDesc(src.dims);
  descs[6] = IntsDesc(ContiguousStrides(src.dims));
  descs[7] = IntsDesc({0});
  ACLSIM_ASSIGN_OR_RETURN(size_t step,
                          AddStep("ViewCopy", std::move(descs), std::move(refs), {}, 1));
  Step& added = executor_->steps[step];
  added.outputs[0] = added.inputs[0];
  return Status::Ok();
}

Result<std::shared_ptr<Executor>> Builder::Finish() {
  executor_->workspace_size = workspace_top_;
  return executor_;
}

}  // namespace aclsim::core::nn
