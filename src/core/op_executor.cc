// Single-op execution (core/op_executor.h).
#include "core/op_executor.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <cstring>
#include <optional>

#include "core/device.h"
#include "core/memory_ops.h"
#include "core/op_model.h"
#include "core/streams.h"
#include "dfx/log.h"

namespace aclsim::core {

namespace {

std::string DescText(const driver::TensorDesc& desc) {
  return fmt::format("{} [{}]", driver::DataTypeName(desc.dtype), fmt::join(desc.dims, ", "));
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

Status CheckBuffer(Device& device, const OpTensorArg& arg, const driver::TensorDesc& resolved,
                   const char* kind, size_t index, const std::string& type) {
  const size_t need = resolved.ByteSize();
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
  if (arg.on_host) return Status::Ok();
  if (!device.memory().Find(arg.data, need)) {
    return Err(StatusCode::kInvalidParam,
               "op {}: {} {} buffer {} (+{} bytes) is not device memory of device {} (allocate "
               "it with aclrtMalloc, or place the descriptor in host memory with "
               "aclSetTensorPlaceMent)",
               type, kind, index, arg.data, need, device.id());
  }
  return Status::Ok();
}

// The call of a launch; takes its descriptors and attributes (the buffers stay).
driver::OpCall TakeCall(OpLaunch& launch) {
  driver::OpCall call;
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

Result<std::shared_ptr<const driver::OpKernel>> CompileCached(Runtime& runtime, Device& device,
                                                              const driver::OpCall& call,
                                                              bool from_model = false,
                                                              OpCache::Ticket* ticket = nullptr) {
  ACLSIM_ASSIGN_OR_RETURN(const driver::OpLibrary* library, OpLibraryOf(runtime));
  OpCacheOutcome outcome = OpCacheOutcome::kHit;
  auto kernel = runtime.op_cache().GetOrCompile(
      OpCacheKey(call, true), [&call] { return OpCacheKey(call, false); },
      [&]() -> Result<std::shared_ptr<const driver::OpKernel>> {
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

// Per-thread memo of the calls this thread launched last and their kernels: a program that
// runs the same op with the same descriptors again (the usual loop) skips validation, the
// cache key and the op-model lookup. An entry is the call as launched (before values are
// read from buffers; calls that need that are not memoised) with the cache ticket of its
// kernel; a hit still counts as an OpCache hit and refreshes the entry's LRU position, and
// an entry whose kernel has left the cache is dropped.
struct MemoEntry {
  const OpCache* cache = nullptr;
  OpCache::Ticket ticket;
  std::string type;
  std::vector<driver::TensorDesc> inputs;
  std::vector<driver::TensorDesc> outputs;
  driver::AttrMap attrs;
  std::shared_ptr<const driver::OpKernel> kernel;
};

struct LaunchMemo {
  static constexpr size_t kEntries = 8;
  std::array<MemoEntry, kEntries> entries;
  size_t next = 0;  // replaced next (round robin)
};

LaunchMemo& Memo() {
  thread_local LaunchMemo memo;
  return memo;
}

bool SameLaunch(const MemoEntry& e, const OpLaunch& launch) {
  if (e.type != launch.type || e.inputs.size() != launch.inputs.size() ||
      e.outputs.size() != launch.outputs.size()) {
    return false;
  }
  for (size_t i = 0; i < e.inputs.size(); ++i) {
    if (e.inputs[i] != launch.inputs[i].desc) return false;
  }
  for (size_t i = 0; i < e.outputs.size(); ++i) {
    if (e.outputs[i] != launch.outputs[i].desc) return false;
  }
  return e.attrs == launch.attrs;
}

std::shared_ptr<const driver::OpKernel> MemoFind(OpCache& cache, const OpLaunch& launch) {
  for (MemoEntry& e : Memo().entries) {
    if (e.cache != &cache || e.kernel == nullptr || !SameLaunch(e, launch)) continue;
    if (cache.Touch(e.ticket)) return e.kernel;
    e = MemoEntry{};
    return nullptr;
  }
  return nullptr;
}

void MemoAdd(const OpCache& cache, const OpCache::Ticket& ticket, MemoEntry entry) {
  LaunchMemo& memo = Memo();
  entry.cache = &cache;
  entry.ticket = ticket;
  memo.entries[memo.next] = std::move(entry);
  memo.next = (memo.next + 1) % LaunchMemo::kEntries;
}

// The call of a launch as the memo keeps it.
MemoEntry MemoOf(const OpLaunch& launch) {
  MemoEntry entry;
  entry.type = launch.type;
  for (const auto& in : launch.inputs) entry.inputs.push_back(in.desc);
  for (const auto& out : launch.outputs) entry.outputs.push_back(out.desc);
  entry.attrs = launch.attrs;
  return entry;
}

// Validates and compiles (through the cache) the call of `launch`, reading the values the op
// needs before it runs; `launch` keeps only its buffers.
Result<std::shared_ptr<const driver::OpKernel>> CompileLaunch(Runtime& runtime, Stream& stream,
                                                              OpLaunch& launch) {
  Device& device = *stream.device();
  ACLSIM_ASSIGN_OR_RETURN(const driver::OpLibrary* library, OpLibraryOf(runtime));
  if (!library->HasOp(launch.type)) {
    return Err(StatusCode::kOpTypeNotMatch,
               "op type '{}' is not in the op library (see docs/ops.md for the {} op types)",
               launch.type, library->OpTypes().size());
  }
  // Values needed before the op runs: constants as given, else read from the buffer (such
  // calls are not memoised: the values may differ next time).
  const auto value_inputs = library->ValueInputs(launch.type);
  bool reads_values = false;
  for (size_t i : value_inputs) {
    reads_values |=
        i < launch.inputs.size() && !launch.inputs[i].desc.absent() && !launch.inputs[i].desc.value;
  }
  std::optional<MemoEntry> memo;
  if (!reads_values) memo = MemoOf(launch);
  for (size_t i : value_inputs) {
    if (i >= launch.inputs.size()) continue;
    auto& arg = launch.inputs[i];
    if (arg.desc.absent() || arg.desc.value) continue;
    std::vector<uint8_t> value;
    ACLSIM_RETURN_IF_ERROR(ReadValue(runtime, stream, arg, i, launch.type, &value));
    arg.desc.value = std::move(value);
  }
  const driver::OpCall call = TakeCall(launch);
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
  if (memo) {
    memo->kernel = kernel;
    MemoAdd(runtime.op_cache(), ticket, std::move(*memo));
  }
  return kernel;
}

}  // namespace

Result<const driver::OpLibrary*> OpLibraryOf(Runtime& runtime) {
  const driver::OpLibrary* library = runtime.driver().op_library();
  if (library == nullptr) {
    return Err(StatusCode::kOpNotFound, "backend {} has no op library", runtime.driver().name());
  }
  return library;
}

Status InferOp(Runtime& runtime, driver::OpCall* call) {
  ACLSIM_ASSIGN_OR_RETURN(const driver::OpLibrary* library, OpLibraryOf(runtime));
  return library->InferShape(call);
}

Status CompileOp(Runtime& runtime, Device& device, driver::OpCall call) {
  ACLSIM_ASSIGN_OR_RETURN(const driver::OpLibrary* library, OpLibraryOf(runtime));
  driver::OpCall checked = call;
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
                 std::vector<driver::TensorDesc>* resolved_outputs) {
  Device& device = *stream.device();
  std::shared_ptr<const driver::OpKernel> kernel = MemoFind(runtime.op_cache(), launch);
  if (kernel == nullptr) {
    ACLSIM_ASSIGN_OR_RETURN(kernel, CompileLaunch(runtime, stream, launch));
  }
  const driver::OpCall& resolved = kernel->call();

  // Buffers: checked against the resolved descriptors; host inputs copied now.
  // Host inputs and constants are copied when the op is launched (allocated only if any).
  std::shared_ptr<std::vector<std::vector<uint8_t>>> host_copies;
  auto host_copy = [&]() -> std::vector<std::vector<uint8_t>>& {
    if (!host_copies) {
      host_copies = std::make_shared<std::vector<std::vector<uint8_t>>>();
      host_copies->reserve(launch.inputs.size());
    }
    return *host_copies;
  };
  std::vector<driver::KernelBuffer> inputs;
  inputs.reserve(resolved.inputs.size());
  driver::KernelWork work = kernel->work();
  work.buffers.reserve(resolved.inputs.size() + resolved.outputs.size());
  for (size_t i = 0; i < resolved.inputs.size(); ++i) {
    const auto& desc = resolved.inputs[i];
    if (i >= launch.inputs.size() || desc.absent()) {
      inputs.push_back({nullptr, 0});
      continue;
    }
    const auto& arg = launch.inputs[i];
    if (arg.data == nullptr && desc.value) {  // constant without a buffer
      auto& copies = host_copy();
      copies.push_back(*desc.value);
      inputs.push_back({copies.back().data(), copies.back().size()});
      continue;
    }
    ACLSIM_RETURN_IF_ERROR(CheckBuffer(device, arg, desc, "input", i, launch.type));
    if (arg.on_host) {
      const auto* bytes = static_cast<const uint8_t*>(arg.data);
      auto& copies = host_copy();
      copies.emplace_back(bytes, bytes + desc.ByteSize());
      inputs.push_back({copies.back().data(), copies.back().size()});
    } else {
      inputs.push_back({arg.data, arg.size});
      work.buffers.push_back({arg.data, desc.ByteSize()});
    }
  }
  if (launch.outputs.size() != resolved.outputs.size()) {
    return Err(StatusCode::kOpOutputNotMatch, "op {} produces {} outputs but {} were given",
               launch.type, resolved.outputs.size(), launch.outputs.size());
  }
  std::vector<driver::KernelBuffer> outputs;
  for (size_t i = 0; i < resolved.outputs.size(); ++i) {
    const auto& arg = launch.outputs[i];
    driver::TensorDesc need = resolved.outputs[i];
    if (kernel->dynamic_output_shape()) need.dims = {0};  // size known only after running
    ACLSIM_RETURN_IF_ERROR(CheckBuffer(device, arg, need, "output", i, launch.type));
    if (arg.on_host) {
      return Err(StatusCode::kInvalidParam,
                 "op {}: output {} is placed in host memory; outputs must be device memory",
                 launch.type, i);
    }
    outputs.push_back({arg.data, arg.size});
    work.buffers.push_back({arg.data, resolved.outputs[i].ByteSize()});
  }

  std::shared_ptr<std::vector<std::vector<int64_t>>> dims;
  if (kernel->dynamic_output_shape()) dims = std::make_shared<std::vector<std::vector<int64_t>>>();
  driver::Task task;
  task.kind = driver::TaskKind::kKernel;
  task.engine = kernel->engine();
  task.blocks = kernel->blocks();
  task.work = std::move(work);
  task.label = kernel->call().type.c_str();  // lives as long as the kernel the task holds
  task.kernel_fn = [kernel, inputs = std::move(inputs), outputs = std::move(outputs), host_copies,
                    dims]() { return kernel->Run(inputs, outputs, dims.get()); };
  (void)host_copies;  // held by the task until it completes
  ACLSIM_RETURN_IF_ERROR(Submit(stream, std::move(task)));

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

}  // namespace aclsim::core
