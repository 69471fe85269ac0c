// Loaded models: the objects behind aclmdl model ids (aclmdlLoad*, aclmdlExecute*, aclmdlUnload).
//
// Loading compiles the model for the current device (core/model_compile.h), places its
// weights in device memory and reserves its work memory (the planned arena of intermediate
// tensors) -- both allocated by the loader or supplied by the program (aclmdlLoad*WithMem).
// Nothing is allocated while the model runs.
//
// An execution enqueues the model's nodes, in order, as kernel tasks on a stream, reading
// the program's input buffers and writing its output buffers directly; model outputs that
// no node writes are filled by device copies at the end. Successive executions share the
// work memory: one on another stream than the previous execution waits for it first (an
// internal event), so executions never overlap on the same model.
//
// A model with dynamic shapes (model_compile.h) runs node by node instead: before a node
// that needs values of non-constant tensors the stream is synchronised and the values read
// back; each node is then compiled through the OpCache for the shapes of this execution and
// its intermediate outputs are allocated from the caching allocator and freed (stream-ordered)
// after their last reader -- such models do allocate while they run.
//
// Data dump (core/data_dump.h): a model loaded while a dump configuration names it dumps the
// selected nodes of its selected executions (steps: its executions since load, from 0); the
// exception dump, when on, covers every node.
//
// Model ids are process-wide, start at 1 and are never reused while the process runs.
//
// Thread-safety: all functions may be called concurrently; executions of one model are
// serialised by the model's lock (the tasks, not the host calls, determine the order on the
// device).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/status.h"
#include "core/model_compile.h"
#include "core/objects.h"
#include "core/op_executor.h"
#include "core/runtime.h"

namespace aclsim::core {

// Memory the program supplies (aclmdlLoadFromFileWithMem / FromMemWithMem / config handle).
// A null pointer means "allocate it for me".
struct ModelMemory {
  void* work = nullptr;
  size_t work_size = 0;
  void* weights = nullptr;
  size_t weight_size = 0;
};

class LoadedModel {
 public:
  LoadedModel(uint32_t id, std::shared_ptr<const CompiledModel> compiled,
              std::shared_ptr<Device> device);
  ~LoadedModel();
  LoadedModel(const LoadedModel&) = delete;
  LoadedModel& operator=(const LoadedModel&) = delete;

  uint32_t id() const { return id_; }
  const CompiledModel& compiled() const { return *compiled_; }
  const ModelFile& file() const { return *compiled_->file; }
  const std::shared_ptr<Device>& device() const { return device_; }

  // Enqueues one execution under gear `gear` (0 for a static model) on `stream`. `inputs` /
  // `outputs`: one buffer per model input / output, device memory of the model's device,
  // at least as large as the gear's tensors (kModelInputNotMatch / kModelOutputNotMatch
  // naming the input or output otherwise). `work`, if not null, replaces the model's work
  // memory for this execution (aclmdlExecuteV2's ACL_MDL_WORK_ADDR_PTR; kModelSizeInvalid if
  // smaller than the gear's arena).
  Status Execute(Stream& stream, const std::vector<OpBuffer>& inputs,
                 const std::vector<OpBuffer>& outputs, size_t gear, void* work = nullptr,
                 size_t work_size = 0);
  // Waits for every execution enqueued so far.
  Status Wait();
  // The stream synchronous executions (aclmdlExecute) run on, created at load.
  const std::shared_ptr<Stream>& stream() const { return stream_; }
  // The gear of the latest execution (the largest before any).
  size_t current_gear() const { return current_gear_.load(std::memory_order_relaxed); }
  // Output `index` as the latest execution produced it (aclmdlGetCurOutputDims): the current
  // gear's, or for a dynamic-shape model what its latest execution resolved (the model
  // file's descriptor before any).
  ops::TensorDesc CurrentOutputDesc(size_t index);

 private:
  friend Result<uint32_t> LoadModel(Runtime& runtime, std::shared_ptr<const ModelFile> file,
                                    const ModelMemory& memory, const char* api);
  friend Status UnloadModel(Runtime& runtime, uint32_t id);
  Status CheckBuffers(const std::vector<OpBuffer>& inputs, const std::vector<OpBuffer>& outputs,
                      size_t gear) const;
  Status OrderAfterPrevious(Stream& stream);
  Status ExecuteDynamic(Stream& stream, const std::vector<OpBuffer>& inputs,
                        const std::vector<OpBuffer>& outputs);
  Status FillOutputCopies(Stream& stream, const std::vector<OpBuffer>& outputs, size_t gear,
                          const std::function<OpBuffer(int32_t)>& bind);
  Status ReleaseMemory(Runtime& runtime);
  // The dump of the execution starting now (counts it as a step); false if nothing of it is
  // dumped. mu_ held.
  bool BeginDump(DumpTarget* target);
  // The target of node `node` of that execution (null if nothing of it is dumped).
  const DumpTarget* NodeDump(DumpTarget* target, bool dumping, const ModelNode& node) const;

  const uint32_t id_;
  const std::shared_ptr<const CompiledModel> compiled_;
  const std::shared_ptr<Device> device_;
  void* work_ = nullptr;
  void* weights_ = nullptr;
  bool owns_work_ = false;
  bool owns_weights_ = false;
  std::shared_ptr<Stream> stream_;
  std::atomic<size_t> current_gear_{0};

  std::mutex mu_;                                 // executions
  std::shared_ptr<Stream> last_stream_;           // stream of the latest execution
  std::shared_ptr<Event> handoff_;                // orders executions across streams
  std::vector<ops::TensorDesc> dynamic_outputs_;  // latest dynamic-shape execution's
  std::shared_ptr<const ModelDumpPlan> dump_;     // set at load if a config names it
  std::shared_ptr<const DumpSession> dump_step_;  // the data dump of this execution
  uint64_t executions_ = 0;                       // dump steps
};

// Compiles `file` for the current device (aclmdlQuerySize, aclmdlGetDesc*).
Result<std::shared_ptr<const CompiledModel>> CompileForCurrentDevice(
    Runtime& runtime, std::shared_ptr<const ModelFile> file);

// Loads a model on the current device; `api` names the caller in leak reports. Errors:
// CompileModel's; kInvalidParam when supplied memory is smaller than the model needs
// (naming which and both sizes); allocation failures of the device.
Result<uint32_t> LoadModel(Runtime& runtime, std::shared_ptr<const ModelFile> file,
                           const ModelMemory& memory, const char* api);
// Waits for the model's executions, frees the memory the loader allocated and forgets the
// id (kInvalidModelId if unknown).
Status UnloadModel(Runtime& runtime, uint32_t id);
// The model of an id, or kInvalidModelId.
Result<std::shared_ptr<LoadedModel>> FindModel(uint32_t id);

}  // namespace aclsim::core
