// Dynamic-shape models: node-by-node execution (core/model_runner.h).
#include <cstring>
#include <utility>

#include "core/memory_checker.h"
#include "core/memory_ops.h"
#include "core/model_runner.h"
#include "core/streams.h"
#include "core/task_tracing.h"

namespace aclsim::core {

namespace {

// Intermediate buffers of one execution, freed (stream-ordered) after their last reader, or
// at the end.
class Intermediates {
 public:
  explicit Intermediates(Runtime& runtime) : runtime_(runtime) {}
  ~Intermediates() {
    for (void* ptr : owned_) {
      if (ptr != nullptr) (void)DeviceFree(runtime_, ptr, FreeOrder::kStreamOrdered);
    }
  }
  Intermediates(const Intermediates&) = delete;
  Intermediates& operator=(const Intermediates&) = delete;

  Result<void*> Allocate(size_t bytes, size_t* slot) {
    ACLSIM_ASSIGN_OR_RETURN(void* ptr, DeviceMalloc(runtime_, bytes == 0 ? 1 : bytes,
                                                    kPolicyHugeFirst, "aclmdlExecute"));
    *slot = owned_.size();
    owned_.push_back(ptr);
    return ptr;
  }
  void Free(size_t slot) {
    if (owned_[slot] == nullptr) return;
    (void)DeviceFree(runtime_, owned_[slot], FreeOrder::kStreamOrdered);
    owned_[slot] = nullptr;
  }

 private:
  Runtime& runtime_;
  std::vector<void*> owned_;
};

constexpr size_t kNoSlot = ~size_t{0};

}  // namespace

Status LoadedModel::ExecuteDynamic(Stream& stream, const std::vector<OpBuffer>& inputs,
                                   const std::vector<OpBuffer>& outputs) {
  ACLSIM_ASSIGN_OR_RETURN(Runtime * runtime, Runtime::Current());
  const ops::OpLibrary* library = &OpLibraryOf(*runtime);
  const ModelFile& model = file();
  const size_t count = model.tensors.size();
  std::vector<ops::TensorDesc> descs;
  descs.reserve(count);
  for (const ModelTensor& tensor : model.tensors) descs.push_back(tensor.desc);
  std::vector<OpBuffer> buffers(count);
  std::vector<size_t> slots(count, kNoSlot);
  auto* weights = static_cast<uint8_t*>(weights_);
  for (size_t t = 0; t < count; ++t) {
    const TensorRole& role = compiled_->roles[t];
    if (role.place == TensorPlace::kInput) buffers[t] = inputs[role.index];
    if (role.place == TensorPlace::kConstant) {
      const WeightRange& range = *model.tensors[t].constant;
      buffers[t] = {weights + range.offset, static_cast<size_t>(range.size)};
    }
  }
  Intermediates intermediates(*runtime);
  auto fail = [&](const ModelNode& node, const Status& status) {
    return Status(status.code(), fmt::format("model {} (id {}): node {} ({}): {}", model.name, id_,
                                             node.name, node.type, status.message()));
  };

  DumpTarget dump;
  const bool dumping = BeginDump(&dump);
  for (size_t n = 0; n < model.nodes.size(); ++n) {
    const ModelNode& node = model.nodes[n];
    OpLaunch launch;
    launch.type = node.type;
    launch.attrs = node.attrs;
    for (int32_t id : node.inputs) {
      OpTensorArg arg;
      if (id >= 0) {
        arg.desc = descs[static_cast<size_t>(id)];
        arg.data = buffers[static_cast<size_t>(id)].data;
        arg.size = buffers[static_cast<size_t>(id)].size;
      }
      launch.inputs.push_back(std::move(arg));
    }
    // Values the op needs now: constants from the model, the rest read back after the work
    // enqueued so far has run.
    for (size_t i : library->ValueInputs(node.type)) {
      if (i >= node.inputs.size() || node.inputs[i] < 0) continue;
      const auto t = static_cast<size_t>(node.inputs[i]);
      OpTensorArg& arg = launch.inputs[i];
      if (model.tensors[t].constant) {
        const WeightRange& range = *model.tensors[t].constant;
        const auto* begin = model.weights.data() + range.offset;
        arg.desc.value.emplace(begin, begin + range.size);
        continue;
      }
      ACLSIM_RETURN_IF_ERROR(SyncStream(stream, -1));
      std::vector<uint8_t> value(arg.desc.ByteSize());
      if (!value.empty()) {
        Status copied = Memcpy(*runtime, value.data(), value.size(), arg.data, value.size(),
                               CopyKind::kDeviceToHost);
        if (!copied.ok()) return fail(node, copied);
      }
      arg.desc.value = std::move(value);
    }
    ops::OpCall call;
    call.type = node.type;
    call.attrs = node.attrs;
    for (const OpTensorArg& arg : launch.inputs) call.inputs.push_back(arg.desc);
    for (int32_t id : node.outputs) {
      ops::TensorDesc out = descs[static_cast<size_t>(id)];
      out.dims.clear();  // inferred for this execution
      out.shape_range.clear();
      call.outputs.push_back(std::move(out));
    }
    Status inferred = InferOp(*runtime, &call);
    if (!inferred.ok()) return fail(node, inferred);
    for (size_t k = 0; k < node.outputs.size(); ++k) {
      const auto t = static_cast<size_t>(node.outputs[k]);
      ops::TensorDesc resolved = call.outputs[k];
      if (!resolved.shape_known()) {
        return fail(node, Status(StatusCode::kFeatureUnsupported,
                                 "output shapes that depend on the data are not supported in "
                                 "models yet (run the op with aclopExecuteV2)"));
      }
      resolved.name = descs[t].name;
      resolved.value.reset();
      const size_t bytes = resolved.ByteSize();
      const TensorRole& role = compiled_->roles[t];
      if (role.place == TensorPlace::kOutput) {
        const OpBuffer& given = outputs[role.index];
        if (given.size < bytes || (bytes > 0 && given.data == nullptr)) {
          return Err(StatusCode::kModelOutputNotMatch,
                     "model {} output {} ({}): the buffer holds {} bytes, this execution "
                     "produces {}",
                     model.name, role.index, model.outputs[role.index].name, given.size, bytes);
        }
        buffers[t] = given;
      } else {
        ACLSIM_ASSIGN_OR_RETURN(void* ptr, intermediates.Allocate(bytes, &slots[t]));
        buffers[t] = {ptr, bytes};
      }
      descs[t] = resolved;
      launch.outputs.push_back({resolved, false, buffers[t].data, buffers[t].size});
    }
    const ScopedTaskTag tag(node.name.c_str(), id_);
    Status launched =
        ExecuteOp(*runtime, stream, std::move(launch), nullptr, NodeDump(&dump, dumping, node));
    if (!launched.ok()) return fail(node, launched);
    // Intermediates read for the last time by this node go back to the allocator; it reuses
    // them only after the tasks enqueued so far have completed. The memory checker counts a
    // free before its last reader ran as a use after free, so with it on they are freed at
    // the end, after the stream has drained.
    for (int32_t id : node.inputs) {
      if (MemoryChecker::On()) break;
      if (id < 0) continue;
      const auto t = static_cast<size_t>(id);
      if (slots[t] != kNoSlot && compiled_->lifetimes[t].last == static_cast<int64_t>(n)) {
        intermediates.Free(slots[t]);
      }
    }
  }
  auto bind = [&](int32_t id) -> OpBuffer {
    return id < 0 ? OpBuffer{} : buffers[static_cast<size_t>(id)];
  };
  ACLSIM_RETURN_IF_ERROR(FillOutputCopies(stream, outputs, 0, bind));
  dynamic_outputs_.clear();
  for (const ModelIo& io : model.outputs)
    dynamic_outputs_.push_back(descs[static_cast<size_t>(io.tensor)]);
  return Status::Ok();
}

}  // namespace aclsim::core
