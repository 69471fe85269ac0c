// acl_op.h: single-op execution (aclopExecute*, handles, aclopCast, aclopInferShape).
#include <array>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "api/api_call.h"
#include "api/op_objects.h"
#include "core/op_executor.h"
#include "core/runtime.h"

using aclsim::Err;
using aclsim::Result;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;
namespace ops = aclsim::ops;

namespace aclsim::api {

Result<std::vector<core::OpTensorArg>> TensorArgs(int count, const aclTensorDesc* const* descs,
                                                  const aclDataBuffer* const* buffers,
                                                  const char* desc_what, const char* buffer_what) {
  if (count < 0) {
    return Err(StatusCode::kInvalidParam, "the {} count {} is negative", desc_what, count);
  }
  if (count > 0 && descs == nullptr) {
    return Err(StatusCode::kInvalidParam, "{} is NULL but its count is {}", desc_what, count);
  }
  if (count > 0 && buffer_what != nullptr && buffers == nullptr) {
    return Err(StatusCode::kInvalidParam, "{} is NULL but its count is {}", buffer_what, count);
  }
  std::vector<core::OpTensorArg> args(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    core::OpTensorArg& arg = args[static_cast<size_t>(i)];
    // The element's name ("inputDesc[1]") is formatted only when the lookup fails.
    auto desc = core::LookupHandle<aclTensorDesc>(descs[i], desc_what);
    if (!desc.ok()) {
      return Status(desc.status().code(),
                    fmt::format("{}[{}]: {}", desc_what, i, desc.status().message()));
    }
    arg.desc = desc.value()->desc;
    arg.on_host = desc.value()->placement != ACL_MEMTYPE_DEVICE;
    if (buffer_what != nullptr) {
      auto buffer = core::LookupHandle<aclDataBuffer>(buffers[i], buffer_what);
      if (!buffer.ok()) {
        return Status(buffer.status().code(),
                      fmt::format("{}[{}]: {}", buffer_what, i, buffer.status().message()));
      }
      arg.data = buffer.value()->data;
      arg.size = buffer.value()->size;
    }
  }
  return args;
}

Result<ops::AttrMap> AttrsOf(const aclopAttr* attr) {
  if (attr == nullptr) return ops::AttrMap{};
  ACLSIM_ASSIGN_OR_RETURN(auto found, core::LookupHandle<aclopAttr>(attr, "attr"));
  return found->attrs;
}

Status CheckOpType(const char* op_type) {
  ACLSIM_RETURN_IF_ERROR(CheckNotNull(op_type, "opType"));
  if (*op_type == '\0') return Err(StatusCode::kInvalidParam, "opType is empty");
  return Status::Ok();
}

void UpdateOutputDescs(const std::vector<ops::TensorDesc>& resolved, int count,
                       aclTensorDesc* const* descs) {
  for (int i = 0; i < count && static_cast<size_t>(i) < resolved.size(); ++i) {
    auto desc = core::LookupHandle<aclTensorDesc>(descs[i], "outputDesc");
    if (!desc.ok()) continue;
    const ops::TensorDesc& out = resolved[static_cast<size_t>(i)];
    if (desc.value()->desc.dims != out.dims) desc.value()->desc.dims = out.dims;
    desc.value()->desc.dtype = out.dtype;
    desc.value()->unknown_rank = false;
  }
}

}  // namespace aclsim::api

namespace {

// Builds the launch of an op call from the API's arrays.
Result<core::OpLaunch> MakeLaunch(const char* opType, int numInputs,
                                  const aclTensorDesc* const inputDesc[],
                                  const aclDataBuffer* const inputs[], int numOutputs,
                                  const aclTensorDesc* const outputDesc[],
                                  const aclDataBuffer* const outputs[], const aclopAttr* attr) {
  ACLSIM_RETURN_IF_ERROR(api::CheckOpType(opType));
  core::OpLaunch launch;
  launch.type = opType;
  // Handles and compile-only calls have descriptors but no buffers.
  const bool with_buffers = inputs != nullptr || outputs != nullptr;
  ACLSIM_ASSIGN_OR_RETURN(launch.inputs,
                          api::TensorArgs(numInputs, inputDesc, inputs, "inputDesc",
                                          with_buffers || numInputs == 0 ? "inputs" : nullptr));
  ACLSIM_ASSIGN_OR_RETURN(launch.outputs,
                          api::TensorArgs(numOutputs, outputDesc, outputs, "outputDesc",
                                          with_buffers ? "outputs" : nullptr));
  ACLSIM_ASSIGN_OR_RETURN(launch.attrs, api::AttrsOf(attr));
  return launch;
}

}  // namespace

namespace aclsim::api {

namespace {

// The fast path of aclopExecute / aclopExecuteV2: a call this thread launched recently with
// identical descriptors and attributes is enqueued without copying them (core's
// ExecuteRemembered). Anything unusual -- a bad argument, more than kMaxArgs tensors, a
// call not remembered -- leaves *launched false for the full path, which reports errors.
constexpr int kMaxArgs = 16;

Status ExecuteRememberedCall(const char* op_type, int num_inputs,
                             const aclTensorDesc* const* input_desc,
                             const aclDataBuffer* const* inputs, int num_outputs,
                             const aclTensorDesc* const* output_desc,
                             const aclDataBuffer* const* outputs, const aclopAttr* attr,
                             aclrtStream stream, aclTensorDesc* const* update_outputs,
                             bool* launched) {
  *launched = false;
  if (op_type == nullptr || num_inputs < 0 || num_outputs < 0 ||
      num_inputs + num_outputs > kMaxArgs || (num_inputs > 0 && (!input_desc || !inputs)) ||
      (num_outputs > 0 && (!output_desc || !outputs))) {
    return Status::Ok();
  }
  // Lookups keep every object alive for the call.
  std::array<std::shared_ptr<aclTensorDesc>, kMaxArgs> descs;
  std::array<const ops::TensorDesc*, kMaxArgs> desc_views;  // [0, count) set below
  std::array<core::OpBuffer, kMaxArgs> buffers;
  const int count = num_inputs + num_outputs;
  for (int i = 0; i < count; ++i) {
    const bool is_input = i < num_inputs;
    const aclTensorDesc* handle = is_input ? input_desc[i] : output_desc[i - num_inputs];
    const aclDataBuffer* buffer = is_input ? inputs[i] : outputs[i - num_inputs];
    auto desc = core::LookupHandle<aclTensorDesc>(handle, "desc");
    if (!desc.ok()) return Status::Ok();
    core::OpBuffer& op_buffer = buffers[static_cast<size_t>(i)];
    const Status data = core::HandleTable::Global().Read<aclDataBuffer>(
        buffer, "buffer", [&op_buffer](const aclDataBuffer& found) {
          op_buffer.data = found.data;
          op_buffer.size = found.size;
        });
    if (!data.ok()) return Status::Ok();
    descs[static_cast<size_t>(i)] = std::move(desc.value());
    desc_views[static_cast<size_t>(i)] = &descs[static_cast<size_t>(i)]->desc;
    op_buffer.on_host = descs[static_cast<size_t>(i)]->placement != ACL_MEMTYPE_DEVICE;
  }
  std::shared_ptr<aclopAttr> attrs;
  if (attr != nullptr) {
    auto found = core::LookupHandle<aclopAttr>(attr, "attr");
    if (!found.ok()) return Status::Ok();
    attrs = std::move(found.value());
  }
  auto runtime = core::Runtime::Current();  // valid for the rest of this API call
  if (!runtime.ok()) return Status::Ok();
  auto resolved_stream = runtime.value()->ResolveStream(stream, "stream");
  if (!resolved_stream.ok()) return Status::Ok();

  core::OpCallDescs call;
  call.type = op_type;
  call.inputs = desc_views.data();
  call.num_inputs = static_cast<size_t>(num_inputs);
  call.outputs = desc_views.data() + num_inputs;
  call.num_outputs = static_cast<size_t>(num_outputs);
  call.attrs = attrs ? &attrs->attrs : nullptr;
  core::ResolvedOutputs resolved;
  const auto dump = runtime.value()->dump().SingleOpTarget();
  ACLSIM_RETURN_IF_ERROR(core::ExecuteRemembered(
      *runtime.value(), *resolved_stream.value(), call, buffers.data(), buffers.data() + num_inputs,
      update_outputs != nullptr ? &resolved : nullptr, launched, dump.get()));
  if (!*launched || update_outputs == nullptr) return Status::Ok();
  // As UpdateOutputDescs, on the descriptors looked up above.
  const auto& outs = resolved.descs();
  for (size_t i = 0; i < static_cast<size_t>(num_outputs) && i < outs.size(); ++i) {
    aclTensorDesc& desc = *descs[static_cast<size_t>(num_inputs) + i];
    if (desc.desc.dims != outs[i].dims) desc.desc.dims = outs[i].dims;
    desc.desc.dtype = outs[i].dtype;
    desc.unknown_rank = false;
  }
  return Status::Ok();
}

}  // namespace

Status ExecuteOnStream(core::OpLaunch launch, aclrtStream stream,
                       std::vector<ops::TensorDesc>* resolved) {
  ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
  ACLSIM_ASSIGN_OR_RETURN(auto resolved_stream, runtime->ResolveStream(stream, "stream"));
  const auto dump = runtime->dump().SingleOpTarget();  // null unless a single-op dump is on
  return core::ExecuteOp(*runtime, *resolved_stream, std::move(launch), resolved, dump.get());
}

}  // namespace aclsim::api

aclError aclopExecute(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                      const aclDataBuffer* const inputs[], int numOutputs,
                      const aclTensorDesc* const outputDesc[], aclDataBuffer* const outputs[],
                      const aclopAttr* attr, aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    bool launched = false;
    ACLSIM_RETURN_IF_ERROR(api::ExecuteRememberedCall(opType, numInputs, inputDesc, inputs,
                                                      numOutputs, outputDesc, outputs, attr, stream,
                                                      nullptr, &launched));
    if (launched) return Status::Ok();
    ACLSIM_ASSIGN_OR_RETURN(auto launch, MakeLaunch(opType, numInputs, inputDesc, inputs,
                                                    numOutputs, outputDesc, outputs, attr));
    return api::ExecuteOnStream(std::move(launch), stream, nullptr);
  });
}

aclError aclopExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[],
                        aclDataBuffer* inputs[], int numOutputs, aclTensorDesc* outputDesc[],
                        aclDataBuffer* outputs[], aclopAttr* attr, aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    bool launched = false;
    ACLSIM_RETURN_IF_ERROR(api::ExecuteRememberedCall(opType, numInputs, inputDesc, inputs,
                                                      numOutputs, outputDesc, outputs, attr, stream,
                                                      outputDesc, &launched));
    if (launched) return Status::Ok();
    ACLSIM_ASSIGN_OR_RETURN(auto launch, MakeLaunch(opType, numInputs, inputDesc, inputs,
                                                    numOutputs, outputDesc, outputs, attr));
    std::vector<ops::TensorDesc> resolved;
    ACLSIM_RETURN_IF_ERROR(api::ExecuteOnStream(std::move(launch), stream, &resolved));
    api::UpdateOutputDescs(resolved, numOutputs, outputDesc);
    return Status::Ok();
  });
}

aclError aclopCreateHandle(const char* opType, int numInputs,
                           const aclTensorDesc* const inputDesc[], int numOutputs,
                           const aclTensorDesc* const outputDesc[], const aclopAttr* attr,
                           aclopHandle** handle) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(handle, "handle"));
    ACLSIM_ASSIGN_OR_RETURN(auto launch, MakeLaunch(opType, numInputs, inputDesc, nullptr,
                                                    numOutputs, outputDesc, nullptr, attr));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ops::OpCall call;
    call.type = launch.type;
    call.attrs = launch.attrs;
    for (const auto& in : launch.inputs) call.inputs.push_back(in.desc);
    for (const auto& out : launch.outputs) call.outputs.push_back(out.desc);
    ACLSIM_RETURN_IF_ERROR(core::InferOp(*runtime, &call));
    auto object = core::MakeHandleObject<aclopHandle>();
    object->launch = std::move(launch);
    *handle = static_cast<aclopHandle*>(core::PublishHandle(object));
    return Status::Ok();
  });
}

void aclopDestroyHandle(aclopHandle* handle) {
  (void)api::ApiCall(__func__, [&]() -> Status {
    if (handle == nullptr) return Status::Ok();
    return core::RetireHandle<aclopHandle>(handle, "handle").status();
  });
}

namespace aclsim::api {

Status ExecWithHandle(aclopHandle* handle, int numInputs, const aclDataBuffer* const inputs[],
                      int numOutputs, aclDataBuffer* const outputs[], aclrtStream stream) {
  ACLSIM_ASSIGN_OR_RETURN(auto found, core::LookupHandle<aclopHandle>(handle, "handle"));
  core::OpLaunch launch = found->launch;
  if (numInputs < 0 || static_cast<size_t>(numInputs) != launch.inputs.size()) {
    return Err(StatusCode::kOpInputNotMatch,
               "op {}: the handle was created with {} inputs but numInputs is {}", launch.type,
               launch.inputs.size(), numInputs);
  }
  if (numOutputs < 0 || static_cast<size_t>(numOutputs) != launch.outputs.size()) {
    return Err(StatusCode::kOpOutputNotMatch,
               "op {}: the handle was created with {} outputs but numOutputs is {}", launch.type,
               launch.outputs.size(), numOutputs);
  }
  if (numInputs > 0 && inputs == nullptr) return Err(StatusCode::kInvalidParam, "inputs is NULL");
  if (numOutputs > 0 && outputs == nullptr) {
    return Err(StatusCode::kInvalidParam, "outputs is NULL");
  }
  for (int i = 0; i < numInputs; ++i) {
    const std::string what = fmt::format("inputs[{}]", i);
    ACLSIM_ASSIGN_OR_RETURN(auto buffer,
                            core::LookupHandle<aclDataBuffer>(inputs[i], what.c_str()));
    launch.inputs[static_cast<size_t>(i)].data = buffer->data;
    launch.inputs[static_cast<size_t>(i)].size = buffer->size;
  }
  for (int i = 0; i < numOutputs; ++i) {
    const std::string what = fmt::format("outputs[{}]", i);
    ACLSIM_ASSIGN_OR_RETURN(auto buffer,
                            core::LookupHandle<aclDataBuffer>(outputs[i], what.c_str()));
    launch.outputs[static_cast<size_t>(i)].data = buffer->data;
    launch.outputs[static_cast<size_t>(i)].size = buffer->size;
  }
  return ExecuteOnStream(std::move(launch), stream, nullptr);
}

}  // namespace aclsim::api

aclError aclopExecWithHandle(aclopHandle* handle, int numInputs,
                             const aclDataBuffer* const inputs[], int numOutputs,
                             aclDataBuffer* const outputs[], aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    return api::ExecWithHandle(handle, numInputs, inputs, numOutputs, outputs, stream);
  });
}

namespace {

Result<core::OpLaunch> CastLaunch(const aclTensorDesc* srcDesc, const aclTensorDesc* dstDesc,
                                  uint8_t truncate) {
  ACLSIM_ASSIGN_OR_RETURN(auto src, core::LookupHandle<aclTensorDesc>(srcDesc, "srcDesc"));
  ACLSIM_ASSIGN_OR_RETURN(auto dst, core::LookupHandle<aclTensorDesc>(dstDesc, "dstDesc"));
  if (src->desc.ElementCount() != dst->desc.ElementCount()) {
    return Err(StatusCode::kOpInputNotMatch, "op Cast: srcDesc has {} elements but dstDesc has {}",
               src->desc.ElementCount(), dst->desc.ElementCount());
  }
  core::OpLaunch launch;
  launch.type = "Cast";
  core::OpTensorArg in;
  in.desc = src->desc;
  in.on_host = src->placement != ACL_MEMTYPE_DEVICE;
  core::OpTensorArg out;
  out.desc = dst->desc;
  out.desc.dims = src->desc.dims;
  launch.inputs.push_back(std::move(in));
  launch.outputs.push_back(std::move(out));
  launch.attrs["dst_type"] = static_cast<int64_t>(dst->desc.dtype);
  launch.attrs["truncate"] = truncate != 0;  // not in Cast's prototype: ignored
  return launch;
}

}  // namespace

aclError aclopCast(const aclTensorDesc* srcDesc, const aclDataBuffer* srcBuffer,
                   const aclTensorDesc* dstDesc, aclDataBuffer* dstBuffer, uint8_t truncate,
                   aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto launch, CastLaunch(srcDesc, dstDesc, truncate));
    ACLSIM_ASSIGN_OR_RETURN(auto src, core::LookupHandle<aclDataBuffer>(srcBuffer, "srcBuffer"));
    ACLSIM_ASSIGN_OR_RETURN(auto dst, core::LookupHandle<aclDataBuffer>(dstBuffer, "dstBuffer"));
    launch.inputs[0].data = src->data;
    launch.inputs[0].size = src->size;
    launch.outputs[0].data = dst->data;
    launch.outputs[0].size = dst->size;
    return api::ExecuteOnStream(std::move(launch), stream, nullptr);
  });
}

aclError aclopCreateHandleForCast(aclTensorDesc* srcDesc, aclTensorDesc* dstDesc, uint8_t truncate,
                                  aclopHandle** handle) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(handle, "handle"));
    ACLSIM_ASSIGN_OR_RETURN(auto launch, CastLaunch(srcDesc, dstDesc, truncate));
    // As aclopCreateHandle: an op handle needs the runtime it will execute on.
    ACLSIM_RETURN_IF_ERROR(core::Runtime::Get().status());
    auto object = core::MakeHandleObject<aclopHandle>();
    object->launch = std::move(launch);
    *handle = static_cast<aclopHandle*>(core::PublishHandle(object));
    return Status::Ok();
  });
}

aclError aclopUpdateParams(const char* opType, int numInputs,
                           const aclTensorDesc* const inputDesc[], int numOutputs,
                           const aclTensorDesc* const outputDesc[], const aclopAttr* attr) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto launch, MakeLaunch(opType, numInputs, inputDesc, nullptr,
                                                    numOutputs, outputDesc, nullptr, attr));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto context, runtime->CurrentContext());
    ops::OpCall call;
    call.type = launch.type;
    call.attrs = launch.attrs;
    for (const auto& in : launch.inputs) call.inputs.push_back(in.desc);
    for (const auto& out : launch.outputs) call.outputs.push_back(out.desc);
    return core::CompileOp(*runtime, *context->device(), std::move(call));
  });
}

aclError aclopSetMaxOpQueueNum(uint64_t maxOpNum) {
  return api::ApiCall(__func__, [&]() -> Status {
    if (maxOpNum == 0) return Err(StatusCode::kInvalidParam, "maxOpNum must be > 0");
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    runtime->op_cache().SetMaxEntries(static_cast<size_t>(maxOpNum));
    return Status::Ok();
  });
}

aclError aclopInferShape(const char* opType, int numInputs, aclTensorDesc* inputDesc[],
                         aclDataBuffer* inputs[], int numOutputs, aclTensorDesc* outputDesc[],
                         aclopAttr* attr) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckOpType(opType));
    ACLSIM_ASSIGN_OR_RETURN(auto in_args, api::TensorArgs(numInputs, inputDesc, inputs, "inputDesc",
                                                          inputs ? "inputs" : nullptr));
    ACLSIM_ASSIGN_OR_RETURN(
        auto out_args, api::TensorArgs(numOutputs, outputDesc, nullptr, "outputDesc", nullptr));
    ACLSIM_ASSIGN_OR_RETURN(auto attrs, api::AttrsOf(attr));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    const ops::OpLibrary* library = &core::OpLibraryOf(*runtime);
    ops::OpCall call;
    call.type = opType;
    call.attrs = std::move(attrs);
    for (size_t i = 0; i < in_args.size(); ++i) call.inputs.push_back(in_args[i].desc);
    // Values the op needs come from the (host) input buffers.
    for (size_t i : library->ValueInputs(call.type)) {
      if (i >= in_args.size() || call.inputs[i].value || in_args[i].data == nullptr) continue;
      const auto* bytes = static_cast<const uint8_t*>(in_args[i].data);
      const size_t size = std::min(in_args[i].size, call.inputs[i].ByteSize());
      call.inputs[i].value = std::vector<uint8_t>(bytes, bytes + size);
    }
    for (auto& out : out_args) {
      out.desc.dims.clear();
      call.outputs.push_back(out.desc);
    }
    ACLSIM_RETURN_IF_ERROR(library->InferShape(&call));
    api::UpdateOutputDescs(call.outputs, numOutputs, outputDesc);
    return Status::Ok();
  });
}
