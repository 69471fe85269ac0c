// Data dump: the process's state and the dump of one kernel launch (core/data_dump.h).
#include "core/data_dump.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/read_file.h"
#include "dfx/dump_file.h"
#include "dfx/log.h"

namespace aclsim::core {
namespace {

namespace fs = std::filesystem;
namespace dump = dfx::dump;

constexpr uint32_t kAicoreArgs = 0x1;  // ACL_OP_DUMP_OP_AICORE_ARGS

std::string EnvPath(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

// The local time as YYYYMMDDhhmmss (CANN's dump directory name).
std::string TimeDirectory() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char text[32] = {};
  std::strftime(text, sizeof(text), "%Y%m%d%H%M%S", &local);
  return text;
}

uint64_t NowMicros() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count());
}

Status MakeDirectories(const std::string& dir, const char* what) {
  std::error_code error;
  fs::create_directories(dir, error);
  std::error_code ignored;
  if (error || !fs::is_directory(dir, ignored)) {
    return Err(StatusCode::kWriteFile, "cannot create the {} directory '{}': {}", what, dir,
               error ? error.message() : "not a directory");
  }
  return Status::Ok();
}

std::string Absolute(const std::string& path) {
  std::error_code error;
  fs::path absolute = fs::absolute(path, error);
  return error ? path : absolute.lexically_normal().string();
}

// The layout (dtype, format, dims, bytes) of a tensor as it lies in device memory.
struct Layout {
  int32_t dtype = 0;
  int32_t format = 2;
  std::vector<int64_t> dims;
  size_t bytes = 0;
};

Layout LayoutOf(const ops::TensorDesc& desc, const std::vector<int64_t>* real_dims) {
  Layout layout;
  layout.dtype = static_cast<int32_t>(desc.dtype);
  if (real_dims != nullptr) {
    ops::TensorDesc real = desc;
    real.dims = *real_dims;
    real.storage_format = ops::Format::kUndefined;
    layout.format = static_cast<int32_t>(desc.format);
    layout.dims = *real_dims;
    layout.bytes = real.ByteSize();
    return layout;
  }
  const bool storage = desc.has_storage_layout() && !desc.storage_dims.empty();
  layout.format = static_cast<int32_t>(storage ? desc.storage_format : desc.format);
  layout.dims = storage ? desc.storage_dims : desc.dims;
  layout.bytes = desc.ByteSize();
  return layout;
}

std::vector<uint8_t> CopyOf(const ops::KernelBuffer& buffer, size_t bytes) {
  if (buffer.data == nullptr) return {};
  const size_t n = bytes < buffer.size ? bytes : buffer.size;
  const auto* begin = static_cast<const uint8_t*>(buffer.data);
  return {begin, begin + n};
}

dump::DumpTensor MakeTensor(dump::TensorKind kind, size_t index, const Layout& layout,
                            const void* address, std::vector<uint8_t> bytes, bool stats) {
  dump::DumpTensor tensor;
  tensor.kind = kind;
  tensor.index = static_cast<uint32_t>(index);
  tensor.dtype = layout.dtype;
  tensor.format = layout.format;
  tensor.dims = layout.dims;
  tensor.address = reinterpret_cast<uintptr_t>(address);
  tensor.bytes = bytes.size();
  if (stats) {
    auto summary = dump::ComputeStats(layout.dtype, bytes.data(), bytes.size());
    if (summary) {
      tensor.payload = dump::Payload::kStats;
      tensor.stats = *summary;
      return tensor;
    }
  }
  tensor.data = std::move(bytes);
  return tensor;
}

std::string FileName(const std::string& type, const std::string& name, uint64_t task_id,
                     uint32_t stream_id, uint64_t timestamp) {
  return fmt::format("{}.{}.{}.{}.{}", dump::FileNamePart(type), dump::FileNamePart(name), task_id,
                     stream_id, timestamp);
}

std::string AddressText(const void* address) {
  return fmt::format("0x{:x}", reinterpret_cast<uintptr_t>(address));
}

nlohmann::json DescJson(const ops::TensorDesc& desc) {
  nlohmann::json out;
  // The names the dump files use (dfx/dump_file.h), so both outputs read alike.
  out["dtype"] = dump::DtypeName(static_cast<int32_t>(desc.dtype));
  out["format"] = dump::FormatName(static_cast<int32_t>(desc.format));
  out["shape"] = desc.dims;
  if (desc.has_storage_layout()) {
    out["storage_format"] = dump::FormatName(static_cast<int32_t>(desc.storage_format));
    out["storage_shape"] = desc.storage_dims;
  }
  return out;
}

const char* EngineName(driver::Engine engine) {
  switch (engine) {
    case driver::Engine::kAiCore:
      return "AI_CORE";
    case driver::Engine::kAiVector:
      return "AI_VECTOR";
    case driver::Engine::kAiCpu:
      return "AI_CPU";
  }
  return "AI_CORE";
}

// The acldumpRegCallback sink (process-wide; see data_dump.h).
std::mutex g_sink_mu;
std::shared_ptr<const DumpChunkSink> g_sink;

}  // namespace

void SetDumpChunkSink(DumpChunkSink sink) {
  std::shared_ptr<const DumpChunkSink> next;
  if (sink) next = std::make_shared<const DumpChunkSink>(std::move(sink));
  std::lock_guard<std::mutex> lock(g_sink_mu);
  g_sink = std::move(next);
}

bool DumpChunkSinkRegistered() {
  std::lock_guard<std::mutex> lock(g_sink_mu);
  return g_sink != nullptr;
}

bool DeliverDumpChunks(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::shared_ptr<const DumpChunkSink> sink;
  {
    std::lock_guard<std::mutex> lock(g_sink_mu);
    sink = g_sink;
  }
  if (!sink) return false;
  size_t offset = 0;
  do {
    const size_t size = std::min(kDumpChunkBytes, bytes.size() - offset);
    const bool last = offset + size == bytes.size();
    const int32_t answer =
        (*sink)(path, bytes.data() + offset, size, static_cast<int64_t>(offset), last);
    if (answer != 0) {
      ACLSIM_LOG_WARN(dfx::Module::kAscendCl,
                      "dump callback returned {} for '{}' at offset {}: the rest of this file "
                      "is not delivered",
                      answer, path, offset);
      break;
    }
    offset += size;
  } while (offset < bytes.size());
  return true;
}

// ---- sessions ---------------------------------------------------------------------------

bool DumpSession::StepSelected(uint64_t step) const {
  if (config_.steps.empty()) return true;
  for (const auto& [low, high] : config_.steps) {
    if (step >= low && step <= high) return true;
  }
  return false;
}

bool ArgsDump::FirstTime(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  return written_.insert(key).second;
}

// ---- one kernel launch ------------------------------------------------------------------

KernelDump::KernelDump(const DumpTarget& target, std::shared_ptr<const ops::OpKernel> kernel,
                       std::vector<ops::KernelBuffer> inputs,
                       std::vector<ops::KernelBuffer> outputs, int32_t device_id,
                       uint32_t stream_id)
    : target_(target),
      kernel_(std::move(kernel)),
      inputs_(std::move(inputs)),
      outputs_(std::move(outputs)),
      device_id_(device_id),
      stream_id_(stream_id) {}

void KernelDump::WriteArgs() {
  if (target_.args == nullptr) return;
  const ops::OpCall& call = kernel_->call();
  nlohmann::json info;
  info["op_type"] = call.type;
  nlohmann::json attrs = nlohmann::json::object();
  for (const auto& [name, value] : call.attrs) attrs[name] = ops::AttrValueToString(value);
  info["attrs"] = attrs;
  info["inputs"] = nlohmann::json::array();
  for (const auto& desc : call.inputs) info["inputs"].push_back(DescJson(desc));
  info["outputs"] = nlohmann::json::array();
  for (const auto& desc : call.outputs) info["outputs"].push_back(DescJson(desc));
  const std::string key = info.dump();
  if (!target_.args->FirstTime(key)) return;
  info["engine"] = EngineName(kernel_->engine());
  info["block_dim"] = kernel_->blocks();
  info["device_id"] = device_id_;
  info["stream_id"] = stream_id_;
  for (size_t i = 0; i < info["inputs"].size() && i < inputs_.size(); ++i) {
    info["inputs"][i]["address"] = AddressText(inputs_[i].data);
    info["inputs"][i]["size"] = call.inputs[i].absent() ? size_t{0} : call.inputs[i].ByteSize();
  }
  for (size_t i = 0; i < info["outputs"].size() && i < outputs_.size(); ++i) {
    info["outputs"][i]["address"] = AddressText(outputs_[i].data);
    info["outputs"][i]["size"] = outputs_[i].size;
  }
  const std::string path =
      fmt::format("{}/{}.{:016x}.json", target_.args->dir(), dump::FileNamePart(call.type),
                  std::hash<std::string>{}(key));
  std::ofstream out(path, std::ios::trunc);
  out << info.dump(2) << '\n';
  if (!out) {
    ACLSIM_LOG_ERROR(dfx::Module::kAscendCl, "aclopStartDumpArgs: cannot write '{}'", path);
  }
}

void KernelDump::BeforeRun() {
  if (target_.data == nullptr || target_.data->config().mode == DumpMode::kOutput) return;
  const ops::OpCall& call = kernel_->call();
  input_bytes_.resize(inputs_.size());
  for (size_t i = 0; i < inputs_.size() && i < call.inputs.size(); ++i) {
    if (call.inputs[i].absent()) continue;
    input_bytes_[i] = CopyOf(inputs_[i], call.inputs[i].ByteSize());
  }
}

void KernelDump::AfterRun(const std::vector<std::vector<int64_t>>* dims) {
  ran_ = true;
  if (target_.data == nullptr || target_.data->config().mode == DumpMode::kInput) return;
  if (dims != nullptr) output_dims_ = *dims;
  const ops::OpCall& call = kernel_->call();
  output_bytes_.resize(outputs_.size());
  for (size_t i = 0; i < outputs_.size() && i < call.outputs.size(); ++i) {
    const auto* real = i < output_dims_.size() ? &output_dims_[i] : nullptr;
    output_bytes_[i] = CopyOf(outputs_[i], LayoutOf(call.outputs[i], real).bytes);
  }
}

void KernelDump::WriteData(uint64_t task_id) {
  const DumpSession* session = target_.data.get();
  if (session == nullptr || !ran_ || !session->alive()) return;
  const ops::OpCall& call = kernel_->call();
  const bool stats = session->config().stats;
  dump::DumpRecord record;
  record.op_type = call.type;
  record.op_name = target_.op_name.empty() ? call.type : target_.op_name;
  record.model_name = target_.model_name;
  record.model_id = target_.model_id;
  record.step = target_.step;
  record.device_id = static_cast<uint32_t>(device_id_);
  record.stream_id = stream_id_;
  record.task_id = task_id;
  record.timestamp_us = NowMicros();
  for (size_t i = 0; i < input_bytes_.size(); ++i) {
    if (call.inputs[i].absent()) continue;
    record.tensors.push_back(MakeTensor(dump::TensorKind::kInput, i,
                                        LayoutOf(call.inputs[i], nullptr), inputs_[i].data,
                                        std::move(input_bytes_[i]), stats));
  }
  for (size_t i = 0; i < output_bytes_.size(); ++i) {
    const auto* real = i < output_dims_.size() ? &output_dims_[i] : nullptr;
    record.tensors.push_back(MakeTensor(dump::TensorKind::kOutput, i,
                                        LayoutOf(call.outputs[i], real), outputs_[i].data,
                                        std::move(output_bytes_[i]), stats));
  }
  std::string dir = fmt::format("{}/{}", session->root(), device_id_);
  dir += target_.model_name.empty()
             ? "/single_op"
             : fmt::format("/{}/{}/{}", dump::FileNamePart(target_.model_name), target_.model_id,
                           target_.step);
  const std::string path =
      dir + "/" +
      FileName(record.op_type, record.op_name, task_id, stream_id_, record.timestamp_us);
  // acldumpRegCallback: the file's bytes go to the callback instead of the disk.
  if (DumpChunkSinkRegistered() && DeliverDumpChunks(path, dump::Encode(record))) return;
  Status status = MakeDirectories(dir, "dump");
  if (status.ok()) status = dump::WriteFile(path, record);
  if (!status.ok()) {
    ACLSIM_LOG_ERROR(dfx::Module::kAscendCl, "data dump of op {} ({}) failed: {}", record.op_name,
                     record.op_type, status.message());
  }
}

void KernelDump::WriteException(const driver::TaskFailure& failure) {
  if (target_.exception == nullptr) return;
  const ops::OpCall& call = kernel_->call();
  dump::DumpRecord record;
  record.flags = dump::kFlagException;
  record.op_type = call.type;
  record.op_name = target_.op_name.empty() ? call.type : target_.op_name;
  record.model_name = target_.model_name;
  record.model_id = target_.model_id;
  record.step = target_.step;
  record.device_id = static_cast<uint32_t>(device_id_);
  record.stream_id = stream_id_;
  record.task_id = failure.task_id;
  record.timestamp_us = NowMicros();
  for (size_t i = 0; i < inputs_.size() && i < call.inputs.size(); ++i) {
    if (call.inputs[i].absent()) continue;
    const Layout layout = LayoutOf(call.inputs[i], nullptr);
    record.tensors.push_back(MakeTensor(dump::TensorKind::kInput, i, layout, inputs_[i].data,
                                        CopyOf(inputs_[i], layout.bytes), false));
  }
  for (size_t i = 0; i < outputs_.size() && i < call.outputs.size(); ++i) {
    if (kernel_->dynamic_output_shape()) break;  // sizes unknown: the kernel did not finish
    const Layout layout = LayoutOf(call.outputs[i], nullptr);
    record.tensors.push_back(MakeTensor(dump::TensorKind::kOutput, i, layout, outputs_[i].data,
                                        CopyOf(outputs_[i], layout.bytes), false));
  }
  const std::string dir =
      fmt::format("{}/extra-info/data-dump/{}", target_.exception->base, device_id_);
  Status status = MakeDirectories(dir, "exception dump");
  const std::string path =
      dir + "/" +
      FileName(record.op_type, record.op_name, failure.task_id, stream_id_, record.timestamp_us);
  if (status.ok()) status = dump::WriteFile(path, record);
  if (!status.ok()) {
    ACLSIM_LOG_ERROR(dfx::Module::kAscendCl,
                     "exception dump of op {} ({}), stream {} task {}: failed: {}", record.op_name,
                     record.op_type, stream_id_, failure.task_id, status.message());
    return;
  }
  ACLSIM_LOG_ERROR(dfx::Module::kAscendCl,
                   "exception dump: op {} ({}) failed on device {} stream {} task {} (error {}); "
                   "its inputs and outputs are in {}",
                   record.op_name, record.op_type, device_id_, stream_id_, failure.task_id,
                   failure.error_code, path);
}

// ---- the process's state ----------------------------------------------------------------

DataDump::DataDump()
    : collect_path_(EnvPath("NPU_COLLECT_PATH")), work_path_(EnvPath("ASCEND_WORK_PATH")) {
  std::lock_guard<std::mutex> lock(mu_);
  RebuildLocked();
}

Status DataDump::ConfigureAtInit(const std::string& json_text, const std::string& origin) {
  if (json_text.empty()) return Status::Ok();
  ACLSIM_ASSIGN_OR_RETURN(auto config, ParseDumpConfig(json_text, origin));
  if (!config) return Status::Ok();
  if (!config->path.empty()) ACLSIM_RETURN_IF_ERROR(MakeDirectories(config->path, "dump_path"));
  std::lock_guard<std::mutex> lock(mu_);
  initialised_ = true;
  alive_ = std::make_shared<std::atomic<bool>>(true);
  const std::string root = Absolute(config->path) + "/" + TimeDirectory();
  session_ = std::make_shared<const DumpSession>(std::move(*config), root, alive_);
  RebuildLocked();
  return Status::Ok();
}

Status DataDump::Init() {
  std::lock_guard<std::mutex> lock(mu_);
  if (initialised_) {
    return Err(StatusCode::kDumpAlreadyRun,
               "dump is already initialised (aclmdlInitDump was called, or aclInit's "
               "configuration has a \"dump\" key); call aclmdlFinalizeDump first");
  }
  initialised_ = true;
  alive_ = std::make_shared<std::atomic<bool>>(true);
  session_.reset();
  RebuildLocked();
  return Status::Ok();
}

Status DataDump::Set(const char* config_path) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!initialised_) {
      return Err(StatusCode::kDumpNotRun, "dump is not initialised: call aclmdlInitDump first");
    }
  }
  if (*config_path == '\0') return Err(StatusCode::kInvalidFile, "dumpCfgPath is empty");
  ACLSIM_ASSIGN_OR_RETURN(std::string text, ReadRegularFile(config_path, 16 << 20, "dump config"));
  ACLSIM_ASSIGN_OR_RETURN(auto config, ParseDumpConfig(text, config_path));
  if (!config) {
    return Err(StatusCode::kInvalidDumpConfig, "dump config '{}' has no \"dump\" key", config_path);
  }
  if (!config->path.empty()) ACLSIM_RETURN_IF_ERROR(MakeDirectories(config->path, "dump_path"));
  const std::string root = Absolute(config->path) + "/" + TimeDirectory();
  std::lock_guard<std::mutex> lock(mu_);
  if (!initialised_) {  // finalised meanwhile
    return Err(StatusCode::kDumpNotRun, "dump is not initialised: call aclmdlInitDump first");
  }
  session_ = std::make_shared<const DumpSession>(std::move(*config), root, alive_);
  RebuildLocked();
  return Status::Ok();
}

Status DataDump::Finalize() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!initialised_) {
    return Err(StatusCode::kDumpNotRun,
               "dump is not initialised (aclmdlInitDump was not called, or aclmdlFinalizeDump "
               "was called already)");
  }
  alive_->store(false, std::memory_order_release);
  initialised_ = false;
  session_.reset();
  RebuildLocked();
  return Status::Ok();
}

Status DataDump::StartArgs(uint32_t dump_type, const char* path) {
  if (dump_type != kAicoreArgs) {
    return Err(StatusCode::kInvalidParam,
               "dumpType {:#x} is not supported: use ACL_OP_DUMP_OP_AICORE_ARGS (0x1)", dump_type);
  }
  if (*path == '\0') return Err(StatusCode::kInvalidParam, "path is empty");
  ACLSIM_RETURN_IF_ERROR(MakeDirectories(path, "argument dump"));
  std::lock_guard<std::mutex> lock(mu_);
  args_ = std::make_shared<ArgsDump>(Absolute(path));
  RebuildLocked();
  return Status::Ok();
}

Status DataDump::StopArgs(uint32_t dump_type) {
  if (dump_type != kAicoreArgs) {
    return Err(StatusCode::kInvalidParam,
               "dumpType {:#x} is not supported: use ACL_OP_DUMP_OP_AICORE_ARGS (0x1)", dump_type);
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (args_ == nullptr) {
    return Err(StatusCode::kDumpNotRun, "the argument dump is not on: call aclopStartDumpArgs");
  }
  args_.reset();
  RebuildLocked();
  return Status::Ok();
}

Result<std::string> DataDump::PathOf(int dump_type) const {
  constexpr int kDataDump = 4;  // acldumpType DATA_DUMP; 1..3: AIC_ERR_*_DUMP; 5: OVERFLOW_DUMP
  if (dump_type < 1 || dump_type > 5) {
    return Err(StatusCode::kInvalidParam, "dumpType {} is not an acldumpType (1..5)", dump_type);
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (dump_type == kDataDump) {
    if (session_ == nullptr || session_->config().path.empty()) {
      return Err(StatusCode::kDumpNotRun,
                 "no data dump is configured (aclmdlInitDump + aclmdlSetDump, or aclInit's "
                 "\"dump\" key, with a dump_path)");
    }
    return Absolute(session_->config().path);
  }
  if (dump_type == kDataDump + 1) {
    return Err(StatusCode::kDumpNotRun, "overflow dump is not supported by aclsim");
  }
  if (exception_ == nullptr) {
    return Err(StatusCode::kDumpNotRun,
               "the exception dump is off (set NPU_COLLECT_PATH, or a \"dump_scene\")");
  }
  return exception_->base + "/extra-info/data-dump";
}

std::string DataDump::ExceptionInfoDir() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string base;
  if (exception_ != nullptr) {
    base = exception_->base;
  } else {
    base = !collect_path_.empty() ? collect_path_ : work_path_;
    if (base.empty() && session_ != nullptr) base = session_->config().path;
    base = Absolute(base.empty() ? "." : base);
  }
  return base + "/extra-info/data-dump";
}

std::shared_ptr<const ModelDumpPlan> DataDump::PlanForModel(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (session_ == nullptr || !session_->alive()) return nullptr;
  auto plan = std::make_shared<ModelDumpPlan>();
  plan->session = session_;
  for (const DumpModelEntry& entry : session_->config().models) {
    if (!entry.model_name.empty() && entry.model_name != name) continue;
    if (entry.model_name.empty() && entry.layers.empty()) continue;  // "[{}]": single ops
    if (entry.layers.empty()) plan->all_nodes = true;
    plan->nodes.insert(entry.layers.begin(), entry.layers.end());
  }
  if (!plan->all_nodes && plan->nodes.empty()) return nullptr;
  return plan;
}

std::shared_ptr<const DumpTarget> DataDump::SingleOpTarget() const {
  if (!single_op_on_.load(std::memory_order_acquire)) return nullptr;
  std::lock_guard<std::mutex> lock(mu_);
  return single_op_;
}

std::shared_ptr<const ExceptionDump> DataDump::Exception() const {
  if (!exception_on_.load(std::memory_order_acquire)) return nullptr;
  std::lock_guard<std::mutex> lock(mu_);
  return exception_;
}

void DataDump::RebuildLocked() {
  const bool from_config = session_ != nullptr && session_->config().exception;
  exception_.reset();
  if (!collect_path_.empty() || from_config) {
    std::string base = collect_path_;
    if (base.empty()) base = work_path_;
    if (base.empty() && session_ != nullptr) base = session_->config().path;
    if (base.empty()) base = ".";
    exception_ = std::make_shared<const ExceptionDump>(ExceptionDump{Absolute(base)});
  }
  exception_on_.store(exception_ != nullptr, std::memory_order_release);
  auto target = std::make_shared<DumpTarget>();
  if (session_ != nullptr && session_->config().op_switch) target->data = session_;
  target->args = args_;
  target->exception = exception_;
  single_op_ = target->any() ? std::move(target) : nullptr;
  single_op_on_.store(single_op_ != nullptr, std::memory_order_release);
}

}  // namespace aclsim::core
