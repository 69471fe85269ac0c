// Data dump (docs/dump.md): operator inputs / outputs written to files while an op runs.
//
//  * Model and single-op dump: configured by the "dump" key of a JSON file given to aclInit or
//    to aclmdlSetDump (after aclmdlInitDump; ended by aclmdlFinalizeDump). CANN's keys and
//    semantics: dump_path, dump_mode (input | output | all), dump_list (models, each with an
//    optional "layer" list of node names), dump_op_switch (single ops), dump_step
//    ("0|2-4"), dump_data (tensor | stats). A configuration applies to the models loaded
//    after it (LoadModel asks PlanForModel) and to single ops while it is in force.
//    Each dumped execution of a kernel writes one file (dfx/dump_file.h) under
//      <dump_path>/<YYYYMMDDhhmmss>/<device>/<model>/<model id>/<step>/   (model nodes)
//      <dump_path>/<YYYYMMDDhhmmss>/<device>/single_op/                   (single ops)
//    named <op_type>.<op_name>.<task_id>.<stream_id>.<timestamp_us>.
//  * Argument dump (aclopStartDumpArgs / aclopStopDumpArgs): single ops write a JSON file
//    per distinct call (type, descriptors, attributes) with the addresses and sizes of its
//    first launch.
//  * Exception dump: when a kernel task fails, its inputs and outputs are written to
//    <base>/extra-info/data-dump/<device>/ (base: NPU_COLLECT_PATH > ASCEND_WORK_PATH > the
//    config's dump_path > the working directory); on when NPU_COLLECT_PATH is set or a
//    config's dump_scene asks for it.
//
// How a launch is dumped: the op executor asks for a DumpTarget (SingleOpTarget, or the
// model runner builds one per node) and, only if there is one, wraps the kernel's body in a
// KernelDump: the body copies the inputs before and the outputs after it runs, a host-function
// task right after the kernel on the same stream writes the file, and a failure hook on the
// kernel task writes the exception dump. Without a target nothing is added.
//
// Thread-safety: DataDump's methods may be called concurrently; DumpSession, DumpTarget and
// ModelDumpPlan are immutable once built; KernelDump is used by one launch (its body, host
// function and failure hook run one after the other on the stream).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/status.h"
#include "driver/driver.h"
#include "ops/op_kernel.h"

namespace aclsim::core {

enum class DumpMode { kOutput, kInput, kAll };

// acldumpRegCallback: data-dump files are delivered to a sink instead of being written. Each
// file is delivered in order as chunks of at most kDumpChunkBytes: (the path the file would
// have had, the bytes, their offset in the file, whether it is the last chunk). A sink that
// returns non-zero stops the delivery of that file (logged at WARNING). Process-wide, as
// libascend_dump's registration is: it holds across aclInit / aclFinalize.
using DumpChunkSink = std::function<int32_t(const std::string& path, const uint8_t* data,
                                            size_t size, int64_t offset, bool last)>;
inline constexpr size_t kDumpChunkBytes = size_t{1} << 20;  // 1 MiB
// Registers `sink` (replacing any earlier one); null restores file output.
void SetDumpChunkSink(DumpChunkSink sink);
bool DumpChunkSinkRegistered();
// Delivers `bytes` to the registered sink as chunks; false if no sink is registered.
// Thread-safe; the sink is called without any lock held (calls may run concurrently).
bool DeliverDumpChunks(const std::string& path, const std::vector<uint8_t>& bytes);

// One dump_list entry: a model (all models if model_name is empty) and its nodes (all if
// layers is empty). An entry with neither dumps nothing (CANN's "[{}]" for single ops).
struct DumpModelEntry {
  std::string model_name;
  std::vector<std::string> layers;
};

// The "dump" object of a configuration file.
struct DumpConfig {
  std::string path;  // dump_path (required for model and single-op dump)
  DumpMode mode = DumpMode::kOutput;
  std::vector<DumpModelEntry> models;                // dump_list
  bool op_switch = false;                            // dump_op_switch "on"
  std::vector<std::pair<uint64_t, uint64_t>> steps;  // dump_step ranges; empty = every step
  bool stats = false;                                // dump_data "stats"
  bool exception = false;                            // dump_scene: an exception dump
};

// Parses the JSON text of a configuration file. nullopt when it has no "dump" key;
// kInvalidDumpConfig naming `origin`, the key and the accepted values for a malformed one
// (also: not valid JSON, an exception dump combined with model / single-op dump, features
// we do not have: overflow dump (dump_debug "on"), dump_scene "watcher").
Result<std::optional<DumpConfig>> ParseDumpConfig(const std::string& text,
                                                  const std::string& origin);

// Parses a dump_step value: '|'-separated steps or ranges "a-b" (a <= b).
Result<std::vector<std::pair<uint64_t, uint64_t>>> ParseDumpSteps(const std::string& text);

// A configuration in force (aclmdlSetDump, aclInit), with the directory of its files.
class DumpSession {
 public:
  DumpSession(DumpConfig config, std::string root, std::shared_ptr<std::atomic<bool>> alive)
      : config_(std::move(config)), root_(std::move(root)), alive_(std::move(alive)) {}
  const DumpConfig& config() const { return config_; }
  // <dump_path>/<YYYYMMDDhhmmss>
  const std::string& root() const { return root_; }
  // False once aclmdlFinalizeDump ended it.
  bool alive() const { return alive_->load(std::memory_order_acquire); }
  bool StepSelected(uint64_t step) const;

 private:
  const DumpConfig config_;
  const std::string root_;
  const std::shared_ptr<std::atomic<bool>> alive_;
};

// What to dump of one loaded model (decided at load).
struct ModelDumpPlan {
  std::shared_ptr<const DumpSession> session;
  bool all_nodes = false;
  std::unordered_set<std::string> nodes;
  bool Selects(const std::string& node) const { return all_nodes || nodes.count(node) != 0; }
};

// aclopStartDumpArgs: the directory and the calls already written.
class ArgsDump {
 public:
  explicit ArgsDump(std::string dir) : dir_(std::move(dir)) {}
  const std::string& dir() const { return dir_; }
  // True the first time `key` is seen.
  bool FirstTime(const std::string& key);

 private:
  const std::string dir_;
  std::mutex mu_;
  std::unordered_set<std::string> written_;
};

// The exception dump's base directory (files go to <base>/extra-info/data-dump/<device>/).
struct ExceptionDump {
  std::string base;
};

// What to dump of one kernel launch. Built per launch (model nodes) or shared (single ops).
struct DumpTarget {
  std::shared_ptr<const DumpSession> data;         // the tensors (null: not)
  std::shared_ptr<ArgsDump> args;                  // the arguments (null: not)
  std::shared_ptr<const ExceptionDump> exception;  // the inputs if the kernel fails
  std::string model_name;                          // "" for single ops
  uint32_t model_id = 0;
  uint64_t step = 0;
  std::string op_name;  // the node's name; "" for single ops (the op type is used)
  bool any() const { return data != nullptr || args != nullptr || exception != nullptr; }
};

// The dump of one kernel launch (made by the op executor when a DumpTarget applies).
class KernelDump {
 public:
  KernelDump(const DumpTarget& target, std::shared_ptr<const ops::OpKernel> kernel,
             std::vector<ops::KernelBuffer> inputs, std::vector<ops::KernelBuffer> outputs,
             int32_t device_id, uint32_t stream_id);

  bool wants_data() const { return target_.data != nullptr; }
  bool wants_exception() const { return target_.exception != nullptr; }
  // aclopStartDumpArgs: writes the arguments' file if this call is new (at launch).
  void WriteArgs();
  // In the kernel's body, before / after it runs: copies the tensors the mode asks for.
  // `dims`: the real output shapes of a kernel whose shapes depend on the data (or null).
  void BeforeRun();
  void AfterRun(const std::vector<std::vector<int64_t>>* dims);
  // In a host function after the kernel: writes the data-dump file (nothing if the kernel
  // did not run). `task_id` is the kernel task's.
  void WriteData(uint64_t task_id);
  // The kernel task's failure hook: writes the exception dump and logs its path at ERROR.
  void WriteException(const driver::TaskFailure& failure);

 private:
  const DumpTarget target_;
  const std::shared_ptr<const ops::OpKernel> kernel_;
  const std::vector<ops::KernelBuffer> inputs_;
  const std::vector<ops::KernelBuffer> outputs_;
  const int32_t device_id_;
  const uint32_t stream_id_;
  std::vector<std::vector<uint8_t>> input_bytes_;
  std::vector<std::vector<uint8_t>> output_bytes_;
  std::vector<std::vector<int64_t>> output_dims_;
  bool ran_ = false;
};

// The process's dump state (owned by the Runtime).
class DataDump {
 public:
  DataDump();
  // aclInit: applies the config file's "dump" key (if any): dump is then initialised, as by
  // aclmdlInitDump + aclmdlSetDump. kInvalidDumpConfig for a malformed key.
  Status ConfigureAtInit(const std::string& json_text, const std::string& origin);
  // aclmdlInitDump: kDumpAlreadyRun if dump is initialised already.
  Status Init();
  // aclmdlSetDump: kDumpNotRun before Init; kInvalidFile if the file cannot be read;
  // kInvalidDumpConfig if it has no (or a malformed) "dump" key; kWriteFile if dump_path
  // cannot be created.
  Status Set(const char* config_path);
  // aclmdlFinalizeDump: ends every configuration (models loaded under them stop dumping).
  // kDumpNotRun if dump is not initialised.
  Status Finalize();
  // aclopStartDumpArgs / aclopStopDumpArgs (type: ACL_OP_DUMP_OP_AICORE_ARGS).
  Status StartArgs(uint32_t dump_type, const char* path);
  Status StopArgs(uint32_t dump_type);

  // acldumpGetExceptionInfoPath / acldumpSaveExceptionInfo: the directory of user exception
  // info files: the exception dump's <base>/extra-info/data-dump (base: NPU_COLLECT_PATH >
  // ASCEND_WORK_PATH > the config's dump_path > the working directory), whether or not the
  // exception dump is on.
  std::string ExceptionInfoDir() const;
  // acldumpGetPath: the directory of a dump type (acldumpType values): DATA_DUMP (4) the
  // dump_path of the configuration in force, the AIC_ERR_* types (1..3) the exception dump's
  // base. kInvalidParam for another type; kDumpNotRun when that dump is not on.
  Result<std::string> PathOf(int dump_type) const;

  // At model load: the nodes of model `name` to dump under the configuration in force.
  std::shared_ptr<const ModelDumpPlan> PlanForModel(const std::string& name) const;
  // The target of single ops (null, after one atomic load, when nothing applies to them).
  std::shared_ptr<const DumpTarget> SingleOpTarget() const;
  // The exception dump (null, after one atomic load, when it is off).
  std::shared_ptr<const ExceptionDump> Exception() const;

 private:
  void RebuildLocked();

  const std::string collect_path_;  // NPU_COLLECT_PATH at aclInit
  const std::string work_path_;     // ASCEND_WORK_PATH at aclInit
  mutable std::mutex mu_;
  bool initialised_ = false;
  std::shared_ptr<std::atomic<bool>> alive_;
  std::shared_ptr<const DumpSession> session_;
  std::shared_ptr<ArgsDump> args_;
  std::shared_ptr<const DumpTarget> single_op_;
  std::shared_ptr<const ExceptionDump> exception_;
  std::atomic<bool> single_op_on_{false};
  std::atomic<bool> exception_on_{false};
};

}  // namespace aclsim::core
