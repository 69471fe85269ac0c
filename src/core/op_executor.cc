// Single-op execution (core/op_executor.h).
#include "core/op_executor.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <cstring>
#include <optional>

#include "core/device.h"
#include "core/memory_checker.h"
#include "core/memory_ops.h"
#include "core/op_launch_memo.h"
#include "core/op_model.h"
#include "core/streams.h"
#include "dfx/log.h"

namespace aclsim::core {

namespace {

std::string DescText(const ops::TensorDesc& desc) {
  return fmt::format("{} [{}]", ops::DataTypeName(desc.dtype), fmt::join(desc.dims, ", "));
}

// Reads the contents of an input whose value the op needs before it runs.
Status ReadValue(Runtime& runtime, Stream& stream, const OpTensorArg& arg, size_t index,
                 const std::string& type, std::vector<uint8_t>* value) {
  const size_t bytes = arg.desc.ByteSize();
  if (arg.data == nullptr || arg.size < bytes) {
    return Err(StatusCode::kOpInputNotMatch,
               "op {}: input {} ({}) must be given with its data: the op needs its value", type,
               index, DescText(arg.desc));
  }
  value->resize(bytes);
  if (bytes == 0) return Status::Ok();
  if (arg.on_host) {
    std::memcpy(value->data(), arg.data, bytes);
    return Status::Ok();
  }
  // A device buffer may be written by work queued before this op: wait for it.
  ACLSIM_RETURN_IF_ERROR(SyncStream(stream, -1));
  return Memcpy(runtime, value->data(), bytes, arg.data, bytes, CopyKind::kDeviceToHost);
}

// The checks of one buffer (`need`: the bytes of `resolved`) that need no table lookup;
// *device_check is set when the buffer must also be device memory of the stream's device.
Status CheckBuffer(const OpBuffer& arg, const ops::TensorDesc& resolved, size_t need,
                   const char* kind, size_t index, const std::string& type, bool* device_check) {
  *device_check = false;
  if (arg.data == nullptr) {
    if (need == 0) return Status::Ok();
    return Err(StatusCode::kInvalidParam, "op {}: {} {} ({}) has a NULL buffer", type, kind, index,
               DescText(resolved));
  }
  if (arg.size < need) {
    return Err(StatusCode::kInvalidParam,
               "op {}: {} {} buffer has {} bytes but its descriptor ({}) needs {}", type, kind,
               index, arg.size, DescText(resolved), need);
  }
  *device_check = !arg.on_host;
  return Status::Ok();
}

Status NotDeviceMemory(const Device& device, const char* kind, size_t index, const void* data,
                       size_t need, const std::string& type) {
  return Err(StatusCode::kInvalidParam,
             "op {}: {} {} buffer {} (+{} bytes) is not device memory of device {} (allocate "
             "it with aclrtMalloc, or place the descriptor in host memory with "
             "aclSetTensorPlaceMent)",
             type, kind, index, data, need, device.id());
}

// The call of a launch; takes its descriptors and attributes (the buffers stay).
ops::OpCall TakeCall(OpLaunch& launch) {
  ops::OpCall call;
  call.type = launch.type;
  call.attrs = std::move(launch.attrs);
  call.inputs.reserve(launch.inputs.size());
  call.outputs.reserve(launch.outputs.size());
  for (auto& in : launch.inputs) call.inputs.push_back(std::move(in.desc));
  for (auto& out : launch.outputs) call.outputs.push_back(std::move(out.desc));
  return call;
}

// A call a loaded single-op model matches has its binary already: tiling only.
void ChargeCompile(Device& device, OpCacheOutcome outcome, bool from_model) {
  auto backend = device.backend();
  if (!backend.ok()) return;
  if (from_model && outcome == OpCacheOutcome::kMiss) outcome = OpCacheOutcome::kIncremental;
  if (outcome == OpCacheOutcome::kMiss) backend.value()->AdvanceHostClock(kCompileNs);
  if (outcome == OpCacheOutcome::kIncremental) backend.value()->AdvanceHostClock(kRetileNs);
}

Result<std::shared_ptr<const ops::OpKernel>> CompileCached(Runtime& runtime, Device& device,
                                                           const ops::OpCall& call,
                                                           bool from_model = false,
                                                           OpCache::Ticket* ticket = nullptr) {
  const ops::OpLibrary* library = &OpLibraryOf(runtime);
  OpCacheOutcome outcome = OpCacheOutcome::kHit;
  auto kernel = runtime.op_cache().GetOrCompile(
      OpCacheKey(call, true), [&call] { return OpCacheKey(call, false); },
      [&]() -> Result<std::shared_ptr<const ops::OpKernel>> {
        auto compiled = library->Compile(call, device.props());
        if (compiled.ok() && !compiled.value()->call().ignored_attrs.empty()) {
          ACLSIM_LOG_DEBUG(dfx::Module::kAscendCl,
                           "op {}: attributes not in its prototype are ignored: {}", call.type,
                           fmt::join(compiled.value()->call().ignored_attrs, ", "));
        }
        return compiled;
      },
      &outcome, ticket);
  if (kernel.ok()) ChargeCompile(device, outcome, from_model);
  return kernel;
}

// Descriptor views of a launch (valid while `launch` is unchanged).
struct LaunchDescs {
  explicit LaunchDescs(const OpLaunch& launch) {
    inputs.reserve(launch.inputs.size());
    for (const auto& in : launch.inputs) inputs.push_back(&in.desc);
    outputs.reserve(launch.outputs.size());
    for (const auto& out : launch.outputs) outputs.push_back(&out.desc);
    call.type = launch.type;
    call.inputs = inputs.data();
    call.num_inputs = inputs.size();
    call.outputs = outputs.data();
    call.num_outputs = outputs.size();
    call.attrs = &launch.attrs;
  }
  std::vector<const ops::TensorDesc*> inputs;
  std::vector<const ops::TensorDesc*> outputs;
  OpCallDescs call;
};

// Validates and compiles (through the cache) the call of `launch`, reading the values the op
// needs before it runs, and remembers it for this thread when it reads none; `launch`
// keeps only its buffers.
Result<std::shared_ptr<const ops::OpKernel>> CompileLaunch(Runtime& runtime, Stream& stream,
                                                           OpLaunch& launch) {
  Device& device = *stream.device();
  const ops::OpLibrary* library = &OpLibraryOf(runtime);
  if (!library->HasOp(launch.type)) {
    return Err(StatusCode::kOpTypeNotMatch,
               "op type '{}' is not in the op library (see docs/ops.md for the {} op types)",
               launch.type, library->OpTypes().size());
  }
  // Values needed before the op runs: constants as given, else read from the buffer (such
  // calls are not remembered: the values may differ next time).
  const auto value_inputs = library->ValueInputs(launch.type);
  bool reads_values = false;
  for (size_t i : value_inputs) {
    reads_values |=
        i < launch.inputs.size() && !launch.inputs[i].desc.absent() && !launch.inputs[i].desc.value;
  }
  std::optional<OpLaunch> as_given;  // descriptors and attributes only
  if (!reads_values) {
    as_given.emplace();
    as_given->type = launch.type;
    as_given->attrs = launch.attrs;
    for (const auto& in : launch.inputs) as_given->inputs.push_back({in.desc});
    for (const auto& out : launch.outputs) as_given->outputs.push_back({out.desc});
  }
  for (size_t i : value_inputs) {
    if (i >= launch.inputs.size()) continue;
    auto& arg = launch.inputs[i];
    if (arg.desc.absent() || arg.desc.value) continue;
    std::vector<uint8_t> value;
    ACLSIM_RETURN_IF_ERROR(ReadValue(runtime, stream, arg, i, launch.type, &value));
    arg.desc.value = std::move(value);
  }
  const ops::OpCall call = TakeCall(launch);
  // A loaded single-op model (aclopSetModelDir / aclopLoad) that matches runs as precompiled;
  // otherwise the call is compiled online.
  auto model = OpModelRegistry::Process().Match(call);
  if (model != nullptr) {
    ACLSIM_LOG_DEBUG(dfx::Module::kAscendCl, "op {}: matched single-op model {}", call.type,
                     model->source);
  }
  OpCache::Ticket ticket;
  ACLSIM_ASSIGN_OR_RETURN(auto kernel,
                          CompileCached(runtime, device, call, model != nullptr, &ticket));
  if (as_given) {
    const LaunchDescs descs(*as_given);
    op_launch_memo::Remember(runtime.op_cache(), ticket, descs.call, kernel);
  }
  return kernel;
}

// Checks the buffers against the kernel's resolved descriptors and enqueues the kernel.
// Submit with the memory checker on: device inputs (index < num_inputs) are reads, outputs
// writes.
Status SubmitChecked(Stream& stream, driver::Task task, const std::string& type, size_t num_inputs,
                     const void* const* ptrs, const size_t* bytes, const size_t* index, size_t n,
                     uint64_t* task_id) {
  std::vector<MemoryChecker::Access> accesses(n);
  for (size_t i = 0; i < n; ++i) accesses[i] = {ptrs[i], bytes[i], index[i] >= num_inputs};
  MemoryChecker& checker = MemoryChecker::Instance();
  Device& device = *stream.device();
  const std::string api = "op " + type;
  std::vector<std::string> violations = checker.Check(device, api.c_str(), accesses.data(), n);
  ACLSIM_RETURN_IF_ERROR(Submit(stream, std::move(task), task_id));
  checker.Record(device, &stream, *task_id, accesses.data(), n);
  for (const std::string& violation : violations) {
    ACLSIM_RETURN_IF_ERROR(MemoryChecker::Report(stream.shared_from_this(), violation));
  }
  return Status::Ok();
}

// The dump of a launch (core/data_dump.h): made only when a target applies.
std::shared_ptr<KernelDump> MakeKernelDump(const DumpTarget& target, const Stream& stream,
                                           const std::shared_ptr<const ops::OpKernel>& kernel,
                                           const ops::KernelBuffer* inputs, size_t num_inputs,
                                           const ops::KernelBuffer* outputs, size_t num_outputs) {
  auto dump = std::make_shared<KernelDump>(
      target, kernel, std::vector<ops::KernelBuffer>(inputs, inputs + num_inputs),
      std::vector<ops::KernelBuffer>(outputs, outputs + num_outputs), stream.device()->id(),
      stream.queue());
  dump->WriteArgs();
  return dump;
}

// A host function right after a dumped kernel on its stream writes the data-dump file.
Status SubmitDumpWriter(Stream& stream, const std::shared_ptr<KernelDump>& dump, uint64_t task_id) {
  driver::Task writer;
  writer.kind = driver::TaskKind::kHostFunc;
  writer.label = "data dump";
  writer.host_fn = [dump, task_id]() { dump->WriteData(task_id); };
  return Submit(stream, std::move(writer));
}

Status LaunchKernel(Stream& stream, const std::shared_ptr<const ops::OpKernel>& kernel,
                    const OpBuffer* in, size_t num_in, const OpBuffer* out, size_t num_out,
                    std::vector<ops::TensorDesc>* resolved_outputs, const DumpTarget* dump) {
  Device& device = *stream.device();
  const ops::OpCall& resolved = kernel->call();
  const std::string& type = resolved.type;
  if (num_out != resolved.outputs.size()) {
    return Err(StatusCode::kOpOutputNotMatch, "op {} produces {} outputs but {} were given", type,
               resolved.outputs.size(), num_out);
  }
  // Host inputs and constants are copied when the op is launched (allocated only if any).
  std::shared_ptr<std::vector<std::vector<uint8_t>>> host_copies;
  auto host_copy = [&]() -> std::vector<std::vector<uint8_t>>& {
    if (!host_copies) {
      host_copies = std::make_shared<std::vector<std::vector<uint8_t>>>();
      host_copies->reserve(resolved.inputs.size());
    }
    return *host_copies;
  };
  // Device buffers to find in the device's memory table (one lookup for all of them).
  constexpr size_t kInline = 16;
  const size_t most = resolved.inputs.size() + num_out;
  std::array<const void*, kInline> inline_ptrs;
  std::array<size_t, kInline> inline_bytes;
  std::array<size_t, kInline> inline_index;  // input i, or output at inputs + i
  std::vector<const void*> ptrs_more;
  std::vector<size_t> bytes_more;
  std::vector<size_t> index_more;
  if (most > kInline) {
    ptrs_more.resize(most);
    bytes_more.resize(most);
    index_more.resize(most);
  }
  const void** ptrs = most > kInline ? ptrs_more.data() : inline_ptrs.data();
  size_t* bytes = most > kInline ? bytes_more.data() : inline_bytes.data();
  size_t* index = most > kInline ? index_more.data() : inline_index.data();
  size_t checks = 0;

  // Held by the task's closure (one allocation with it for up to 4 inputs and 2 outputs; a
  // small closure also shares fewer cache lines with the worker that runs it).
  InlineVector<ops::KernelBuffer, 4> inputs;
  inputs.reserve(resolved.inputs.size());
  driver::KernelWork work = kernel->work();
  work.buffers.reserve(most);
  for (size_t i = 0; i < resolved.inputs.size(); ++i) {
    const auto& desc = resolved.inputs[i];
    if (i >= num_in || desc.absent()) {
      inputs.push_back({nullptr, 0});
      continue;
    }
    const OpBuffer& arg = in[i];
    if (arg.data == nullptr && desc.value) {  // constant without a buffer
      auto& copies = host_copy();
      copies.push_back(*desc.value);
      inputs.push_back({copies.back().data(), copies.back().size()});
      continue;
    }
    bool device_check = false;
    const size_t need = desc.ByteSize();
    ACLSIM_RETURN_IF_ERROR(CheckBuffer(arg, desc, need, "input", i, type, &device_check));
    if (device_check) {
      ptrs[checks] = arg.data;
      bytes[checks] = need;
      index[checks++] = i;
    }
    if (arg.on_host) {
      const auto* host = static_cast<const uint8_t*>(arg.data);
      auto& copies = host_copy();
      copies.emplace_back(host, host + need);
      inputs.push_back({copies.back().data(), copies.back().size()});
    } else {
      inputs.push_back({arg.data, arg.size});
      work.buffers.push_back({arg.data, need});
    }
  }
  InlineVector<ops::KernelBuffer, 2> outputs;
  outputs.reserve(num_out);
  for (size_t i = 0; i < num_out; ++i) {
    const OpBuffer& arg = out[i];
    ops::TensorDesc need_dynamic;
    const ops::TensorDesc* need = &resolved.outputs[i];
    if (kernel->dynamic_output_shape()) {  // size known only after running
      need_dynamic = resolved.outputs[i];
      need_dynamic.dims = {0};
      need = &need_dynamic;
    }
    bool device_check = false;
    const size_t need_bytes = need->ByteSize();
    ACLSIM_RETURN_IF_ERROR(CheckBuffer(arg, *need, need_bytes, "output", i, type, &device_check));
    if (arg.on_host) {
      return Err(StatusCode::kInvalidParam,
                 "op {}: output {} is placed in host memory; outputs must be device memory", type,
                 i);
    }
    if (device_check) {
      ptrs[checks] = arg.data;
      bytes[checks] = need_bytes;
      index[checks++] = resolved.inputs.size() + i;
    }
    outputs.push_back({arg.data, arg.size});
    work.buffers.push_back(
        {arg.data, need == &resolved.outputs[i] ? need_bytes : resolved.outputs[i].ByteSize()});
  }
  const size_t bad = device.FindAllLive(ptrs, bytes, checks);
  if (bad < checks) {
    const bool is_input = index[bad] < resolved.inputs.size();
    return NotDeviceMemory(device, is_input ? "input" : "output",
                           is_input ? index[bad] : index[bad] - resolved.inputs.size(), ptrs[bad],
                           bytes[bad], type);
  }

  std::shared_ptr<std::vector<std::vector<int64_t>>> dims;
  if (kernel->dynamic_output_shape()) dims = std::make_shared<std::vector<std::vector<int64_t>>>();
  std::shared_ptr<KernelDump> kernel_dump;
  if (dump != nullptr && dump->any()) {
    kernel_dump = MakeKernelDump(*dump, stream, kernel, inputs.data(), inputs.size(),
                                 outputs.data(), outputs.size());
  }
  driver::Task task;
  task.kind = driver::TaskKind::kKernel;
  task.engine = kernel->engine();
  task.blocks = kernel->blocks();
  task.work = std::move(work);
  task.label = type.c_str();  // lives as long as the kernel the task holds
  task.kernel_fn = [kernel, inputs = std::move(inputs), outputs = std::move(outputs), host_copies,
                    dims, kernel_dump]() {
    if (kernel_dump) kernel_dump->BeforeRun();
    Status status =
        kernel->Run({inputs.data(), inputs.size()}, {outputs.data(), outputs.size()}, dims.get());
    if (kernel_dump && status.ok()) kernel_dump->AfterRun(dims.get());
    return status;
  };
  (void)host_copies;  // held by the task until it completes
  if (kernel_dump && kernel_dump->wants_exception()) {
    task.on_failure = [kernel_dump](const driver::TaskFailure& failure) {
      kernel_dump->WriteException(failure);
    };
  }
  uint64_t task_id = 0;
  if (!MemoryChecker::On()) {
    ACLSIM_RETURN_IF_ERROR(Submit(stream, std::move(task), &task_id));
  } else {
    ACLSIM_RETURN_IF_ERROR(SubmitChecked(stream, std::move(task), type, resolved.inputs.size(),
                                         ptrs, bytes, index, checks, &task_id));
  }
  if (kernel_dump && kernel_dump->wants_data()) {
    ACLSIM_RETURN_IF_ERROR(SubmitDumpWriter(stream, kernel_dump, task_id));
  }

  if (resolved_outputs == nullptr) return Status::Ok();
  *resolved_outputs = resolved.outputs;
  if (kernel->dynamic_output_shape()) {
    ACLSIM_RETURN_IF_ERROR(SyncStream(stream, -1));
    for (size_t i = 0; i < dims->size() && i < resolved_outputs->size(); ++i) {
      if (!(*dims)[i].empty() || resolved_outputs->at(i).dims.empty()) {
        (*resolved_outputs)[i].dims = (*dims)[i];
      }
    }
  }
  return Status::Ok();
}

}  // namespace

const ops::OpLibrary& OpLibraryOf(Runtime& /*runtime*/) { return ops::OpLibrary::Builtin(); }

Status InferOp(Runtime& runtime, ops::OpCall* call) {
  const ops::OpLibrary* library = &OpLibraryOf(runtime);
  return library->InferShape(call);
}

Status CompileOp(Runtime& runtime, Device& device, ops::OpCall call) {
  const ops::OpLibrary* library = &OpLibraryOf(runtime);
  ops::OpCall checked = call;
  ACLSIM_RETURN_IF_ERROR(library->InferShape(&checked));
  bool known = true;
  for (const auto& in : checked.inputs) known &= in.absent() || in.shape_known();
  for (size_t i : library->ValueInputs(call.type)) {
    known &= i >= call.inputs.size() || call.inputs[i].absent() || call.inputs[i].value;
  }
  if (!known) return Status::Ok();  // dynamic shapes: compiled per shape at execution
  return CompileCached(runtime, device, call).status();
}

Status ExecuteOp(Runtime& runtime, Stream& stream, OpLaunch launch,
                 std::vector<ops::TensorDesc>* resolved_outputs, const DumpTarget* dump) {
  std::shared_ptr<const ops::OpKernel> kernel;
  {
    const LaunchDescs descs(launch);
    kernel = op_launch_memo::Find(runtime.op_cache(), descs.call);
  }
  if (kernel == nullptr) {
    ACLSIM_ASSIGN_OR_RETURN(kernel, CompileLaunch(runtime, stream, launch));
  }
  std::vector<OpBuffer> buffers;
  buffers.reserve(launch.inputs.size() + launch.outputs.size());
  for (const auto& in : launch.inputs) buffers.push_back({in.data, in.size, in.on_host});
  for (const auto& out : launch.outputs) buffers.push_back({out.data, out.size, out.on_host});
  return LaunchKernel(stream, kernel, buffers.data(), launch.inputs.size(),
                      buffers.data() + launch.inputs.size(), launch.outputs.size(),
                      resolved_outputs, dump);
}

Result<std::shared_ptr<const ops::OpKernel>> CompilePrebuilt(Runtime& runtime, Device& device,
                                                             const ops::OpCall& call) {
  return CompileCached(runtime, device, call, /*from_model=*/true);
}

Status LaunchCompiled(Stream& stream, const std::shared_ptr<const ops::OpKernel>& kernel,
                      const OpBuffer* inputs, size_t num_inputs, const OpBuffer* outputs,
                      size_t num_outputs, const DumpTarget* dump) {
  return LaunchKernel(stream, kernel, inputs, num_inputs, outputs, num_outputs, nullptr, dump);
}

Status ExecuteRemembered(Runtime& runtime, Stream& stream, const OpCallDescs& call,
                         const OpBuffer* inputs, const OpBuffer* outputs, ResolvedOutputs* resolved,
                         bool* launched, const DumpTarget* dump) {
  *launched = false;
  auto kernel = op_launch_memo::Find(runtime.op_cache(), call);
  if (kernel == nullptr) return Status::Ok();
  *launched = true;
  std::vector<ops::TensorDesc>* dynamic = nullptr;
  if (resolved != nullptr) {
    resolved->kernel = kernel;
    if (kernel->dynamic_output_shape()) dynamic = &resolved->dynamic;
  }
  return LaunchKernel(stream, kernel, inputs, call.num_inputs, outputs, call.num_outputs, dynamic,
                      dump);
}

}  // namespace aclsim::core
