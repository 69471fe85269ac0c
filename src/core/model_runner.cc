// Loaded models (core/model_runner.h).
#include "core/model_runner.h"

#include <atomic>
#include <unordered_map>
#include <utility>

#include "core/device.h"
#include "core/memory_checker.h"
#include "core/memory_ops.h"
#include "core/streams.h"
#include "core/task_tracing.h"
#include "dfx/log.h"

namespace aclsim::core {

namespace {

struct Registry {
  std::mutex mu;
  std::unordered_map<uint32_t, std::shared_ptr<LoadedModel>> models;
  uint32_t next_id = 1;
};

Registry& Models() {
  static auto* registry = new Registry();  // never destroyed: models may outlive main
  return *registry;
}

// Device memory of `bytes` for a model: the program's (checked) or a new allocation.
Result<void*> ModelBuffer(Runtime& runtime, Device& device, void* supplied, size_t supplied_size,
                          uint64_t bytes, const char* what, const char* api, bool* owned) {
  *owned = false;
  if (supplied != nullptr) {
    if (supplied_size < bytes) {
      return Err(StatusCode::kModelSizeInvalid,
                 "the {} memory supplied holds {} bytes; the model needs {} (aclmdlQuerySize)",
                 what, supplied_size, bytes);
    }
    if (bytes > 0 && !device.FindLive(supplied, bytes)) {
      return Err(StatusCode::kInvalidParam,
                 "the {} memory supplied at {} (+{}) is not device memory of device {}", what,
                 supplied, bytes, device.id());
    }
    return supplied;
  }
  if (bytes == 0) return nullptr;
  ACLSIM_ASSIGN_OR_RETURN(void* ptr,
                          DeviceMalloc(runtime, bytes, kPolicyHugeFirst, api, device.id()));
  *owned = true;
  return ptr;
}

}  // namespace

LoadedModel::LoadedModel(uint32_t id, std::shared_ptr<const CompiledModel> compiled,
                         std::shared_ptr<Device> device)
    : id_(id), compiled_(std::move(compiled)), device_(std::move(device)) {}

LoadedModel::~LoadedModel() = default;

Status LoadedModel::CheckBuffers(const std::vector<OpBuffer>& inputs,
                                 const std::vector<OpBuffer>& outputs, size_t gear) const {
  const ModelFile& model = file();
  if (inputs.size() != model.inputs.size()) {
    return Err(StatusCode::kModelInputNotMatch, "model {} (id {}) has {} inputs but {} were given",
               model.name, id_, model.inputs.size(), inputs.size());
  }
  if (outputs.size() != model.outputs.size()) {
    return Err(StatusCode::kModelOutputNotMatch,
               "model {} (id {}) has {} outputs but {} were given", model.name, id_,
               model.outputs.size(), outputs.size());
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const size_t need = compiled_->InputBytes(i, gear);
    if (inputs[i].size < need || (need > 0 && inputs[i].data == nullptr)) {
      return Err(StatusCode::kModelInputNotMatch,
                 "model {} input {} ({}): the buffer holds {} bytes, the model needs {}",
                 model.name, i, model.inputs[i].name, inputs[i].size, need);
    }
  }
  for (size_t o = 0; o < outputs.size() && !compiled_->dynamic_shapes; ++o) {
    const size_t need = compiled_->OutputBytes(o, gear);
    if (outputs[o].size < need || (need > 0 && outputs[o].data == nullptr)) {
      return Err(StatusCode::kModelOutputNotMatch,
                 "model {} output {} ({}): the buffer holds {} bytes, the model needs {}",
                 model.name, o, model.outputs[o].name, outputs[o].size, need);
    }
  }
  return Status::Ok();
}

// The work memory is shared by every execution: one on a new stream waits for the previous.
Status LoadedModel::OrderAfterPrevious(Stream& stream) {
  if (!last_stream_ || last_stream_.get() == &stream || last_stream_->destroyed()) {
    return Status::Ok();
  }
  if (!handoff_) {
    ACLSIM_ASSIGN_OR_RETURN(auto backend, device_->backend());
    driver::EventId id = 0;
    ACLSIM_RETURN_IF_ERROR(backend->CreateEvent(kEventSync, &id));
    handoff_ = std::make_shared<Event>(device_, id, kEventSync);
  }
  ACLSIM_RETURN_IF_ERROR(RecordEvent(*handoff_, *last_stream_));
  return StreamWaitEvent(stream, *handoff_);
}

Status LoadedModel::Execute(Stream& stream, const std::vector<OpBuffer>& inputs,
                            const std::vector<OpBuffer>& outputs, size_t gear, void* work_override,
                            size_t work_size) {
  if (stream.device() != device_) {
    return Err(StatusCode::kResourceNotMatch,
               "model {} (id {}) was loaded on device {}, the stream belongs to device {}",
               file().name, id_, device_->id(), stream.device()->id());
  }
  if (gear >= compiled_->gears.size()) {
    return Err(StatusCode::kInvalidParam, "model {} has {} gears, gear {} was selected",
               file().name, compiled_->gears.size(), gear);
  }
  std::lock_guard<std::mutex> lock(mu_);
  ACLSIM_RETURN_IF_ERROR(CheckBuffers(inputs, outputs, gear));
  if (compiled_->dynamic_shapes) {
    ACLSIM_RETURN_IF_ERROR(OrderAfterPrevious(stream));
    ACLSIM_RETURN_IF_ERROR(ExecuteDynamic(stream, inputs, outputs));
    last_stream_ = stream.shared_from_this();
    return Status::Ok();
  }
  const ModelFile& model = file();
  const ModelGear& plan = compiled_->gears[gear];
  if (work_override != nullptr && work_size < plan.arena) {
    return Err(StatusCode::kModelSizeInvalid,
               "model {} (id {}): the work memory given holds {} bytes, the model needs {}",
               model.name, id_, work_size, plan.arena);
  }
  if (work_override == nullptr) ACLSIM_RETURN_IF_ERROR(OrderAfterPrevious(stream));
  auto* work = static_cast<uint8_t*>(work_override != nullptr ? work_override : work_);
  auto* weights = static_cast<uint8_t*>(weights_);
  auto bind = [&](int32_t id) -> OpBuffer {
    if (id < 0) return {};
    const auto t = static_cast<size_t>(id);
    const TensorRole& role = compiled_->roles[t];
    switch (role.place) {
      case TensorPlace::kInput:
        return inputs[role.index];
      case TensorPlace::kOutput:
        return outputs[role.index];
      case TensorPlace::kConstant: {
        const WeightRange& range = *model.tensors[t].constant;
        return {weights + range.offset, static_cast<size_t>(range.size)};
      }
      case TensorPlace::kArena:
        return {work + plan.offsets[t], plan.tensors[t].ByteSize()};
      case TensorPlace::kUnused:
        break;
    }
    return {};
  };
  std::vector<OpBuffer> in;
  std::vector<OpBuffer> out;
  DumpTarget dump;
  const bool dumping = BeginDump(&dump);
  for (size_t n = 0; n < model.nodes.size(); ++n) {
    const ModelNode& node = model.nodes[n];
    in.clear();
    out.clear();
    for (int32_t id : node.inputs) in.push_back(bind(id));
    for (int32_t id : node.outputs) out.push_back(bind(id));
    const ScopedTaskTag tag(node.name.c_str(), id_);
    Status status = LaunchCompiled(stream, plan.kernels[n], in.data(), in.size(), out.data(),
                                   out.size(), NodeDump(&dump, dumping, node));
    if (!status.ok()) {
      return Status(status.code(), fmt::format("model {} (id {}): node {} ({}): {}", model.name,
                                               id_, node.name, node.type, status.message()));
    }
  }
  ACLSIM_RETURN_IF_ERROR(FillOutputCopies(stream, outputs, gear, bind));
  if (work_override == nullptr) last_stream_ = stream.shared_from_this();
  current_gear_.store(gear, std::memory_order_relaxed);
  return Status::Ok();
}

bool LoadedModel::BeginDump(DumpTarget* target) {
  const uint64_t step = executions_++;
  auto runtime = Runtime::Current();
  if (!runtime.ok()) return false;
  target->exception = runtime.value()->dump().Exception();
  dump_step_.reset();
  if (dump_ != nullptr && dump_->session->alive() && dump_->session->StepSelected(step)) {
    dump_step_ = dump_->session;
  }
  if (target->exception == nullptr && dump_step_ == nullptr) return false;
  target->model_name = file().name;
  target->model_id = id_;
  target->step = step;
  return true;
}

const DumpTarget* LoadedModel::NodeDump(DumpTarget* target, bool dumping,
                                        const ModelNode& node) const {
  if (!dumping) return nullptr;
  target->data = dump_step_ != nullptr && dump_->Selects(node.name) ? dump_step_ : nullptr;
  target->op_name = node.name;
  return target->any() ? target : nullptr;
}

Status LoadedModel::FillOutputCopies(Stream& stream, const std::vector<OpBuffer>& outputs,
                                     size_t gear, const std::function<OpBuffer(int32_t)>& bind) {
  for (const OutputCopy& copy : compiled_->output_copies) {
    const OpBuffer source = bind(copy.tensor);
    const size_t bytes =
        compiled_->gears[gear].tensors[static_cast<size_t>(copy.tensor)].ByteSize();
    if (bytes == 0) continue;
    if (outputs[copy.output].size < bytes) {
      return Err(StatusCode::kModelOutputNotMatch,
                 "model {} output {} ({}): the buffer holds {} bytes, the model needs {}",
                 file().name, copy.output, file().outputs[copy.output].name,
                 outputs[copy.output].size, bytes);
    }
    driver::Task task;
    task.kind = driver::TaskKind::kMemcpy;
    task.dir = driver::CopyDir::kDeviceToDevice;
    task.dst = outputs[copy.output].data;
    task.src = source.data;
    task.bytes = bytes;
    task.label = "aclmdlExecute output copy";
    if (!MemoryChecker::On()) {
      ACLSIM_RETURN_IF_ERROR(Submit(stream, std::move(task)));
      continue;
    }
    // With the memory checker on, the copy reads and writes like any other task.
    const MemoryChecker::Access accesses[] = {{source.data, bytes, false},
                                              {outputs[copy.output].data, bytes, true}};
    MemoryChecker& checker = MemoryChecker::Instance();
    const auto violations = checker.Check(*device_, task.label, accesses, 2);
    uint64_t task_id = 0;
    ACLSIM_RETURN_IF_ERROR(Submit(stream, std::move(task), &task_id));
    checker.Record(*device_, &stream, task_id, accesses, 2);
    for (const std::string& violation : violations) {
      ACLSIM_RETURN_IF_ERROR(MemoryChecker::Report(stream.shared_from_this(), violation));
    }
  }
  return Status::Ok();
}

ops::TensorDesc LoadedModel::CurrentOutputDesc(size_t index) {
  std::lock_guard<std::mutex> lock(mu_);
  if (index < dynamic_outputs_.size()) return dynamic_outputs_[index];
  return compiled_->OutputDesc(index, current_gear());
}

Status LoadedModel::Wait() {
  std::shared_ptr<Stream> stream;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stream = last_stream_;
  }
  if (!stream || stream->destroyed()) return Status::Ok();
  return SyncStream(*stream, -1);
}

Status LoadedModel::ReleaseMemory(Runtime& runtime) {
  Status first;
  auto drop = [&](void* ptr, bool owned) {
    if (!owned || ptr == nullptr || device_->released()) return;
    Status status = DeviceFree(runtime, ptr);
    if (first.ok() && !status.ok()) first = status;
  };
  drop(work_, owns_work_);
  drop(weights_, owns_weights_);
  work_ = weights_ = nullptr;
  if (handoff_ && !device_->released()) {
    auto backend = device_->backend();
    if (backend.ok()) (void)backend.value()->DestroyEvent(handoff_->id());
  }
  handoff_.reset();
  if (stream_ && !stream_->destroyed()) {
    Status status = DestroyStream(runtime, stream_.get(), /*force=*/false);
    if (first.ok() && !status.ok()) first = status;
  }
  stream_.reset();
  return first;
}

Result<std::shared_ptr<const CompiledModel>> CompileForCurrentDevice(
    Runtime& runtime, std::shared_ptr<const ModelFile> file) {
  ACLSIM_ASSIGN_OR_RETURN(Context * context, runtime.CurrentContextPtr());
  const ops::OpLibrary* library = &OpLibraryOf(runtime);
  return CompileModel(std::move(file), *library, context->device()->props());
}

Result<uint32_t> LoadModel(Runtime& runtime, std::shared_ptr<const ModelFile> file,
                           const ModelMemory& memory, const char* api) {
  ACLSIM_ASSIGN_OR_RETURN(Context * context, runtime.CurrentContextPtr());
  std::shared_ptr<Device> device = context->device();
  const ops::OpLibrary* library = &OpLibraryOf(runtime);
  ACLSIM_ASSIGN_OR_RETURN(auto compiled, CompileModel(std::move(file), *library, device->props()));

  uint32_t id = 0;
  {
    Registry& registry = Models();
    std::lock_guard<std::mutex> lock(registry.mu);
    id = registry.next_id++;
  }
  auto model = std::make_shared<LoadedModel>(id, compiled, device);
  model->dump_ = runtime.dump().PlanForModel(compiled->file->name);
  auto work = ModelBuffer(runtime, *device, memory.work, memory.work_size, compiled->work_size,
                          "work", api, &model->owns_work_);
  if (!work.ok()) return work.status();
  model->work_ = work.value();
  auto weights = ModelBuffer(runtime, *device, memory.weights, memory.weight_size,
                             compiled->weight_size, "weight", api, &model->owns_weights_);
  if (!weights.ok()) {
    (void)model->ReleaseMemory(runtime);
    return weights.status();
  }
  model->weights_ = weights.value();
  model->current_gear_.store(compiled->largest_gear, std::memory_order_relaxed);
  auto stream = CreateStream(runtime, 0, 0);
  if (!stream.ok()) {
    (void)model->ReleaseMemory(runtime);
    return stream.status();
  }
  model->stream_ = std::move(stream.value());
  const auto& bytes = compiled->file->weights;
  if (!bytes.empty()) {
    Status copied = Memcpy(runtime, model->weights_, compiled->weight_size, bytes.data(),
                           bytes.size(), CopyKind::kHostToDevice);
    if (!copied.ok()) {
      (void)model->ReleaseMemory(runtime);
      return copied;
    }
  }
  ACLSIM_LOG_INFO(dfx::Module::kAscendCl,
                  "model {} loaded as id {} on device {}: {} nodes, weights {} bytes, work {} "
                  "bytes (intermediates {} bytes without reuse, lower bound {})",
                  compiled->file->name, id, device->id(), compiled->file->nodes.size(),
                  compiled->weight_size, compiled->work_size, compiled->gears.front().total,
                  compiled->gears.front().lower_bound);
  Registry& registry = Models();
  std::lock_guard<std::mutex> lock(registry.mu);
  registry.models.emplace(id, std::move(model));
  return id;
}

Status UnloadModel(Runtime& runtime, uint32_t id) {
  std::shared_ptr<LoadedModel> model;
  {
    Registry& registry = Models();
    std::lock_guard<std::mutex> lock(registry.mu);
    auto it = registry.models.find(id);
    if (it == registry.models.end()) {
      return Err(StatusCode::kInvalidModelId, "model id {} is not a loaded model", id);
    }
    model = std::move(it->second);
    registry.models.erase(it);
  }
  Status waited = model->Wait();
  Status released = model->ReleaseMemory(runtime);
  return waited.ok() ? released : waited;
}

Result<std::shared_ptr<LoadedModel>> FindModel(uint32_t id) {
  Registry& registry = Models();
  std::lock_guard<std::mutex> lock(registry.mu);
  auto it = registry.models.find(id);
  if (it == registry.models.end()) {
    return Err(StatusCode::kInvalidModelId, "model id {} is not a loaded model", id);
  }
  return it->second;
}

}  // namespace aclsim::core
