// The op library (ops/op_library.h): prototype matching, attribute defaults and coercion,
// storage layouts, compiled kernels.
#include "ops/op_library.h"

#include <algorithm>
#include <cstring>

#include "ops/formats.h"
#include "ops/op_group.h"

namespace aclsim::ops {

namespace {

// Converts a given attribute value to the prototype's type where CANN callers mix them
// (an int for a data type and back, an int for a float, a bool/int pair, list variants).
bool CoerceAttr(AttrType type, AttrValue* value) {
  auto is = [&](auto tag) { return std::holds_alternative<decltype(tag)>(*value); };
  switch (type) {
    case AttrType::kBool:
      if (is(bool{})) return true;
      if (is(int64_t{})) {
        *value = std::get<int64_t>(*value) != 0;
        return true;
      }
      return false;
    case AttrType::kInt:
      if (is(int64_t{})) return true;
      if (is(DataType{})) {
        *value = static_cast<int64_t>(std::get<DataType>(*value));
        return true;
      }
      if (is(bool{})) {
        *value = static_cast<int64_t>(std::get<bool>(*value));
        return true;
      }
      return false;
    case AttrType::kFloat:
      if (is(float{})) return true;
      if (is(int64_t{})) {
        *value = static_cast<float>(std::get<int64_t>(*value));
        return true;
      }
      return false;
    case AttrType::kString:
      return is(std::string{});
    case AttrType::kType:
      if (is(DataType{})) return true;
      if (is(int64_t{})) {
        *value = static_cast<DataType>(std::get<int64_t>(*value));
        return true;
      }
      return false;
    case AttrType::kListBool:
      return is(std::vector<bool>{});
    case AttrType::kListInt:
      if (is(std::vector<int64_t>{})) return true;
      if (is(std::vector<DataType>{})) {
        std::vector<int64_t> ints;
        for (auto t : std::get<std::vector<DataType>>(*value)) ints.push_back(static_cast<int>(t));
        *value = std::move(ints);
        return true;
      }
      return false;
    case AttrType::kListFloat:
      if (is(std::vector<float>{})) return true;
      if (is(std::vector<int64_t>{})) {
        std::vector<float> floats;
        for (auto v : std::get<std::vector<int64_t>>(*value)) floats.push_back(float(v));
        *value = std::move(floats);
        return true;
      }
      return false;
    case AttrType::kListString:
      return is(std::vector<std::string>{});
    case AttrType::kListType:
      if (is(std::vector<DataType>{})) return true;
      if (is(std::vector<int64_t>{})) {
        std::vector<DataType> types;
        for (auto v : std::get<std::vector<int64_t>>(*value))
          types.push_back(static_cast<DataType>(v));
        *value = std::move(types);
        return true;
      }
      return false;
    case AttrType::kListListInt:
      return is(std::vector<std::vector<int64_t>>{});
  }
  return false;
}

std::string DtypeList(const std::vector<DataType>& dtypes) {
  std::string out;
  for (size_t i = 0; i < dtypes.size(); ++i) {
    if (i != 0) out += ", ";
    out += DataTypeName(dtypes[i]);
  }
  return out;
}

std::string Dims(const std::vector<int64_t>& dims) {
  return fmt::format("[{}]", fmt::join(dims, ", "));
}

// Splits `given` tensors over prototype arguments. `dynamic_count` (from the N / num_split
// attribute, or -1) fixes the size of a dynamic argument.
Result<std::vector<std::pair<size_t, size_t>>> MatchArgs(const OpDef& def,
                                                         const std::vector<ArgDef>& args,
                                                         size_t given, int64_t dynamic_count,
                                                         const char* what) {
  size_t fixed = 0;
  size_t required = 0;  // minimum count: up to the last required / dynamic argument
  bool has_dynamic = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind == ArgKind::kDynamic) {
      has_dynamic = true;
      required = i + 1;
    } else {
      ++fixed;
      if (args[i].kind == ArgKind::kRequired) required = i + 1;
    }
  }
  std::vector<std::pair<size_t, size_t>> ranges(args.size(), {given, 0});
  if (!has_dynamic) {
    size_t min_count = 0;
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i].kind == ArgKind::kRequired) min_count = i + 1;
    }
    if (given < min_count || given > args.size()) {
      return Status(
          StatusCode::kInvalidParam,
          fmt::format(
              "op {} takes {}{} {}s ({}) but {} were given", def.type,
              min_count == args.size() ? "" : fmt::format("{} to ", min_count), args.size(), what,
              [&] {
                std::string names;
                for (size_t i = 0; i < args.size(); ++i) {
                  if (i != 0) names += ", ";
                  names += args[i].name;
                  if (args[i].kind == ArgKind::kOptional) names += "?";
                }
                return names;
              }(),
              given));
    }
    for (size_t i = 0; i < args.size(); ++i) ranges[i] = {i, i < given ? 1 : 0};
    return ranges;
  }
  // One dynamic argument: the others take one tensor each (trailing optionals may be
  // omitted when N says so).
  size_t dyn = 0;
  size_t omitted = 0;
  if (dynamic_count >= 0) {
    dyn = static_cast<size_t>(dynamic_count);
    if (given < dyn || given - dyn > fixed) {
      return Status(StatusCode::kInvalidParam,
                    fmt::format("op {}: {} {}s given but N = {} (plus {} other {}s)", def.type,
                                given, what, dynamic_count, fixed, what));
    }
    omitted = fixed - (given - dyn);
  } else {
    if (given < fixed + 1) {
      return Status(StatusCode::kInvalidParam,
                    fmt::format("op {} needs at least {} {}s but {} were given", def.type,
                                fixed + 1, what, given));
    }
    dyn = given - fixed;
  }
  (void)required;
  size_t pos = 0;
  const size_t present_fixed = fixed - omitted;
  size_t fixed_seen = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind == ArgKind::kDynamic) {
      ranges[i] = {pos, dyn};
      pos += dyn;
    } else if (fixed_seen < present_fixed) {
      ranges[i] = {pos, 1};
      ++pos;
      ++fixed_seen;
    } else {
      if (args[i].kind == ArgKind::kRequired) {
        return Status(StatusCode::kInvalidParam, fmt::format("op {}: required {} {} is missing",
                                                             def.type, what, args[i].name));
      }
      ranges[i] = {pos, 0};
    }
  }
  return ranges;
}

int64_t DynamicCountHint(const OpDef& def, const AttrMap& attrs, bool outputs) {
  const char* names_in[] = {"N"};
  const char* names_out[] = {"num_split", "num"};
  auto lookup = [&](const char* name) -> int64_t {
    auto it = attrs.find(name);
    if (it == attrs.end() || !std::holds_alternative<int64_t>(it->second)) return -1;
    bool declared = false;
    for (const auto& attr : def.attrs) declared |= attr.name == name;
    return declared ? std::get<int64_t>(it->second) : -1;
  };
  if (outputs) {
    for (const char* name : names_out) {
      if (int64_t n = lookup(name); n >= 0) return n;
    }
    return -1;
  }
  for (const char* name : names_in) {
    if (int64_t n = lookup(name); n >= 0) return n;
  }
  return -1;
}

class DefKernel final : public OpKernel {
 public:
  DefKernel(const OpDef& def, OpCall call, uint32_t blocks, driver::KernelWork work)
      : def_(def), call_(std::move(call)), blocks_(blocks), work_(std::move(work)) {}

  const OpCall& call() const override { return call_; }
  driver::Engine engine() const override { return def_.engine; }
  uint32_t blocks() const override { return blocks_; }
  driver::KernelWork work() const override { return work_; }
  bool dynamic_output_shape() const override { return def_.dynamic_output_shape; }

  Status Run(KernelBufferSpan inputs, KernelBufferSpan outputs,
             std::vector<std::vector<int64_t>>* output_dims) const override {
    std::vector<std::vector<uint8_t>> scratch;
    scratch.reserve(inputs.size() + outputs.size());
    std::vector<Tensor> ins;
    for (size_t i = 0; i < call_.inputs.size(); ++i) {
      const auto& desc = call_.inputs[i];
      Tensor t;
      t.dtype = desc.dtype;
      t.dims = desc.dims;
      if (i < inputs.size() && !desc.absent()) {
        t.data = inputs[i].data;
        t.size = inputs[i].size;
        if (t.data == nullptr && desc.value) {  // constant given only as a value
          t.data = const_cast<uint8_t*>(desc.value->data());
          t.size = desc.value->size();
        }
        if (desc.has_storage_layout() && t.data != nullptr) {
          scratch.emplace_back(static_cast<size_t>(desc.ElementCount()) * DataTypeSize(desc.dtype));
          ACLSIM_RETURN_IF_ERROR(StorageToOrigin(desc, t.data, scratch.back().data()));
          t.data = scratch.back().data();
          t.size = scratch.back().size();
        }
      }
      ins.push_back(std::move(t));
    }
    std::vector<Tensor> outs;
    std::vector<size_t> relayout;
    for (size_t i = 0; i < call_.outputs.size() && i < outputs.size(); ++i) {
      const auto& desc = call_.outputs[i];
      Tensor t;
      t.dtype = desc.dtype;
      t.dims = desc.dims;
      t.data = outputs[i].data;
      t.size = outputs[i].size;
      if (desc.has_storage_layout()) {
        scratch.emplace_back(static_cast<size_t>(desc.ElementCount()) * DataTypeSize(desc.dtype));
        t.data = scratch.back().data();
        t.size = scratch.back().size();
        relayout.push_back(i);
      }
      outs.push_back(std::move(t));
    }
    RunContext ctx(call_, std::move(ins), outs);
    ACLSIM_RETURN_IF_ERROR(def_.run(ctx));
    for (size_t i : relayout) {
      ACLSIM_RETURN_IF_ERROR(OriginToStorage(call_.outputs[i], outs[i].data, outputs[i].data));
    }
    if (def_.dynamic_output_shape && output_dims != nullptr) *output_dims = ctx.output_dims();
    return Status::Ok();
  }

 private:
  const OpDef& def_;
  const OpCall call_;
  const uint32_t blocks_;
  const driver::KernelWork work_;
};

}  // namespace

OpLibrary::OpLibrary() : registry_(std::make_unique<OpRegistry>()) {
#define ACLSIM_OP_GROUP(name) Register##name##Ops(*registry_);
#include "ops/op_groups.def"
#undef ACLSIM_OP_GROUP
}

OpLibrary::~OpLibrary() = default;

const OpLibrary& OpLibrary::Builtin() {
  static const OpLibrary* library = new OpLibrary();  // never destroyed
  return *library;
}

bool OpLibrary::HasOp(std::string_view type) const { return registry_->Find(type) != nullptr; }

std::vector<std::string> OpLibrary::OpTypes() const { return registry_->Types(); }

std::vector<size_t> OpLibrary::ValueInputs(std::string_view type) const {
  const OpDef* def = registry_->Find(type);
  return def == nullptr ? std::vector<size_t>{} : def->value_inputs;
}

Status OpLibrary::InferShape(OpCall* call) const {
  const OpDef* def = registry_->Find(call->type);
  if (def == nullptr) {
    return Err(StatusCode::kOpTypeNotMatch,
               "op type '{}' is not in the op library ({} op types; see docs/ops.md)", call->type,
               registry_->Types().size());
  }
  // Attributes: drop unknown ones, coerce and check known ones, fill defaults.
  call->ignored_attrs.clear();
  for (auto it = call->attrs.begin(); it != call->attrs.end();) {
    auto known = std::find_if(def->attrs.begin(), def->attrs.end(),
                              [&](const AttrDef& a) { return a.name == it->first; });
    if (known == def->attrs.end()) {
      call->ignored_attrs.push_back(it->first);
      it = call->attrs.erase(it);
      continue;
    }
    if (!CoerceAttr(known->type, &it->second)) {
      return Err(StatusCode::kOpAttrNotMatch, "op {}: attribute '{}' must be a {} but {} was given",
                 call->type, it->first, AttrTypeName(known->type), AttrValueToString(it->second));
    }
    ++it;
  }
  // The caller's N / num_split size a dynamic argument; a prototype default does not (an
  // omitted N means "as many as given", cann_ops.md 0.2 rule 3).
  const int64_t dynamic_inputs = DynamicCountHint(*def, call->attrs, false);
  const int64_t dynamic_outputs_hint = DynamicCountHint(*def, call->attrs, true);
  for (const auto& attr : def->attrs) {
    if (call->attrs.count(attr.name) != 0) continue;
    if (!attr.default_value) {
      return Err(StatusCode::kOpAttrNotMatch, "op {}: required attribute '{}' ({}) is not set",
                 call->type, attr.name, AttrTypeName(attr.type));
    }
    call->attrs.emplace(attr.name, *attr.default_value);
  }

  // Inputs and outputs against the prototype.
  auto in_ranges = MatchArgs(*def, def->inputs, call->inputs.size(), dynamic_inputs, "input");
  if (!in_ranges.ok()) {
    return Status(StatusCode::kOpInputNotMatch, in_ranges.status().message());
  }
  const bool dynamic_outputs =
      std::any_of(def->outputs.begin(), def->outputs.end(),
                  [](const ArgDef& a) { return a.kind == ArgKind::kDynamic; });
  if (call->outputs.empty() && !dynamic_outputs) call->outputs.resize(def->outputs.size());
  auto out_ranges =
      MatchArgs(*def, def->outputs, call->outputs.size(), dynamic_outputs_hint, "output");
  if (!out_ranges.ok()) {
    return Status(StatusCode::kOpOutputNotMatch, out_ranges.status().message());
  }
  OpContext ctx(*def, call);
  ctx.SetRanges(in_ranges.value(), out_ranges.value());
  // The limit of one tensor, with the tensor's name formatted only when it is passed.
  auto SizeOf = [&](const TensorDesc& desc, auto name) {
    return TensorSizeFits(desc)
               ? Status::Ok()
               : CheckTensorSize(desc, fmt::format("op {}: {}", call->type, name()));
  };

  bool shapes_known = true;
  for (size_t arg = 0; arg < def->inputs.size(); ++arg) {
    auto [first, count] = in_ranges.value()[arg];
    for (size_t i = first; i < first + count; ++i) {
      auto& desc = call->inputs[i];
      if (desc.absent()) {
        if (def->inputs[arg].kind != ArgKind::kOptional) {
          return Err(StatusCode::kOpInputNotMatch,
                     "op {}: {} is required but was given as an empty placeholder "
                     "(undefined data type)",
                     call->type, ctx.InputName(i));
        }
        continue;
      }
      const auto& allowed = def->inputs[arg].dtypes;
      if (!allowed.empty() &&
          std::find(allowed.begin(), allowed.end(), desc.dtype) == allowed.end()) {
        return Err(StatusCode::kOpInputNotMatch, "op {}: {} has data type {}; the op accepts {}",
                   call->type, ctx.InputName(i), DataTypeName(desc.dtype), DtypeList(allowed));
      }
      ACLSIM_RETURN_IF_ERROR(SizeOf(desc, [&] { return ctx.InputName(i); }));
      if (desc.has_storage_layout()) {
        auto storage = StorageDims(desc.format, desc.dims, desc.dtype, desc.storage_format);
        if (!storage.ok()) {
          return Err(StatusCode::kFormatNotMatch, "op {}: {}: {}", call->type, ctx.InputName(i),
                     storage.status().message());
        }
        if (desc.storage_dims.empty()) desc.storage_dims = storage.value();
        if (desc.shape_known() && desc.storage_dims != storage.value()) {
          return Err(StatusCode::kOpInputNotMatch,
                     "op {}: {} storage shape {} does not match {} of {} shape {} (expected {})",
                     call->type, ctx.InputName(i), Dims(desc.storage_dims),
                     FormatName(desc.storage_format), FormatName(desc.format), Dims(desc.dims),
                     Dims(storage.value()));
        }
        ACLSIM_RETURN_IF_ERROR(SizeOf(desc, [&] { return ctx.InputName(i); }));
      }
      shapes_known &= desc.shape_known();
    }
  }
  for (size_t i : def->value_inputs) {
    if (ctx.has_input(i) && call->inputs[i].value) continue;
    if (ctx.has_input(i)) shapes_known = false;  // value arrives at execution
  }
  if (!shapes_known) {
    // Compile time with unknown dims or values: shapes are inferred at execution.
    for (auto& out : call->outputs) {
      if (out.dims.empty() && out.dtype == DataType::kUndefined) out.dims = {kUnknownRank};
    }
    return Status::Ok();
  }

  // Keep what the caller said about the outputs, then infer.
  const std::vector<TensorDesc> given = call->outputs;
  ACLSIM_RETURN_IF_ERROR(def->infer(ctx));
  for (size_t arg = 0; arg < def->outputs.size(); ++arg) {
    auto [first, count] = out_ranges.value()[arg];
    for (size_t i = first; i < first + count && i < call->outputs.size(); ++i) {
      auto& out = call->outputs[i];
      if (!def->dynamic_output_shape && !out.shape_known()) {
        return Err(StatusCode::kInvalidParam,
                   "op {}: {} would have shape {}, with a negative dim: the inputs or "
                   "attributes are out of range",
                   call->type, ctx.OutputName(i), Dims(out.dims));
      }
      ACLSIM_RETURN_IF_ERROR(SizeOf(out, [&] { return ctx.OutputName(i); }));
      const auto& allowed = def->outputs[arg].dtypes;
      if (!allowed.empty() &&
          std::find(allowed.begin(), allowed.end(), out.dtype) == allowed.end()) {
        return Err(StatusCode::kOpOutputNotMatch,
                   "op {}: {} would have data type {}; the op "
                   "produces {}",
                   call->type, ctx.OutputName(i), DataTypeName(out.dtype), DtypeList(allowed));
      }
      if (i >= given.size()) continue;
      const auto& user = given[i];
      if (user.dtype != DataType::kUndefined && user.dtype != out.dtype) {
        return Err(StatusCode::kOpOutputNotMatch,
                   "op {}: {} is described as {} but the op produces {}", call->type,
                   ctx.OutputName(i), DataTypeName(user.dtype), DataTypeName(out.dtype));
      }
      if (!def->dynamic_output_shape && !user.dims.empty() && user.shape_known()) {
        TensorDesc inferred = out;
        if (user.ElementCount() != inferred.ElementCount()) {
          return Err(StatusCode::kOpOutputNotMatch,
                     "op {}: {} is described with shape {} but the op produces shape {}",
                     call->type, ctx.OutputName(i), Dims(user.dims), Dims(inferred.dims));
        }
      }
      out.name = user.name;
      if (user.format != Format::kUndefined) out.format = user.format;
      out.storage_format = user.storage_format;
      if (out.has_storage_layout()) {
        auto storage = StorageDims(out.format, out.dims, out.dtype, out.storage_format);
        if (!storage.ok()) {
          return Err(StatusCode::kFormatNotMatch, "op {}: {}: {}", call->type, ctx.OutputName(i),
                     storage.status().message());
        }
        out.storage_dims = storage.value();
        ACLSIM_RETURN_IF_ERROR(SizeOf(out, [&] { return ctx.OutputName(i); }));
      }
    }
  }
  return Status::Ok();
}

Result<std::shared_ptr<const OpKernel>> OpLibrary::Compile(const OpCall& call,
                                                           const driver::DeviceProps& props) const {
  OpCall resolved = call;
  ACLSIM_RETURN_IF_ERROR(InferShape(&resolved));
  const OpDef* def = registry_->Find(resolved.type);
  for (size_t i = 0; i < resolved.inputs.size(); ++i) {
    const auto& in = resolved.inputs[i];
    if (!in.absent() && !in.shape_known()) {
      return Err(StatusCode::kOpUnsupportedDynamic,
                 "op {}: input {} has unknown shape [{}]; give its real shape to execute",
                 resolved.type, i, fmt::join(in.dims, ", "));
    }
  }
  for (size_t i : def->value_inputs) {
    if (i < resolved.inputs.size() && !resolved.inputs[i].absent() && !resolved.inputs[i].value) {
      return Err(StatusCode::kOpInputNotMatch,
                 "op {}: the value of input {} is needed to compile the op", resolved.type, i);
    }
  }
  std::vector<std::pair<size_t, size_t>> in_ranges;  // recomputed for the work function
  auto ranges_in = MatchArgs(*def, def->inputs, resolved.inputs.size(),
                             DynamicCountHint(*def, resolved.attrs, false), "input");
  auto ranges_out = MatchArgs(*def, def->outputs, resolved.outputs.size(),
                              DynamicCountHint(*def, resolved.attrs, true), "output");
  OpContext ctx(*def, &resolved);
  if (ranges_in.ok() && ranges_out.ok()) ctx.SetRanges(ranges_in.value(), ranges_out.value());
  uint32_t blocks = 1;
  driver::KernelWork work =
      def->work ? def->work(ctx, props, &blocks) : DefaultWork(ctx, props, &blocks);
  blocks = std::max<uint32_t>(1, blocks);
  // Not make_shared: each launch copies the pointer (the reference count changes on the
  // submitting thread) while a worker reads the kernel; apart, they share no cache line.
  return std::shared_ptr<const OpKernel>(
      new DefKernel(*def, std::move(resolved), blocks, std::move(work)));
}

}  // namespace aclsim::ops
