#include "core/device_monitor.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "core/task_tracing.h"
#include "dfx/log.h"

namespace aclsim::core {
namespace {

using dfx::DeviceModule;
using dfx::Level;

dfx::DeviceLogSettings LoadSettings(const std::string& root, int32_t id) {
  auto settings = dfx::LoadDeviceLogSettings(root, id);
  if (settings.ok()) return *settings;
  ACLSIM_LOG_WARN(dfx::Module::kRuntime,
                  "device {}: ignoring its log settings (the defaults apply): {}", id,
                  settings.status().message());
  return {};
}

const char* ProcessName() {
  const char* name = program_invocation_short_name;
  return (name != nullptr && name[0] != '\0') ? name : "None";
}

}  // namespace

DeviceMonitor::DeviceMonitor(int32_t device_id, const driver::DeviceProps& props, std::string root)
    : id_(device_id),
      root_(std::move(root)),
      log_(root_, device_id, LoadSettings(root_, device_id)) {
  status_.device_id = device_id;
  status_.soc = props.soc_name;
  status_.pid = getpid();
  status_.program = ProcessName();
}

DeviceMonitor::~DeviceMonitor() { OnClose(); }

void DeviceMonitor::OnOpen(const driver::Device* backend) {
  std::lock_guard<std::mutex> lock(mu_);
  backend_ = backend;
  if (backend_ != nullptr) baseline_ = backend_->Counters();
  status_.open_time = dfx::LocalTimeNow();
  if (log_.task_trace() && !traces_) {
    traces_ = true;
    AddDeviceTaskTrace(+1);
  }
  const driver::DeviceProps& p = backend_ != nullptr ? backend_->props() : driver::DeviceProps{};
  ACLSIM_DEVLOG(log_, DeviceModule::kDrv, Level::kEvent,
                "device {} open: SoC {}, {} AI Cores, {} vector cores, {} AI CPUs, HBM {} bytes, "
                "DDR {} bytes, task trace {}",
                id_, status_.soc, p.aicore_num, p.vector_core_num, p.aicpu_num, p.hbm_bytes,
                p.ddr_bytes, log_.task_trace() ? "on" : "off");
  SaveStatusLocked();
}

void DeviceMonitor::OnTaskFailure(const driver::TaskFailure& failure) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string op = failure.op_name.empty() ? "-" : failure.op_name;
  ACLSIM_DEVLOG(log_, DeviceModule::kTsch, Level::kError,
                "task failed: stream_id={}, task_id={}, op_name={}, error_code={}: {}",
                failure.queue, failure.task_id, op, failure.error_code, failure.message);
  if (failure.message.find("fault injected") != std::string::npos) {
    ACLSIM_DEVLOG(log_, DeviceModule::kDrv, Level::kError,
                  "fault injection fired on stream_id={}, task_id={}: {}", failure.queue,
                  failure.task_id, failure.message);
  }
  ++status_.tasks_failed;
  dfx::DeviceFailureInfo info;
  info.error_code = failure.error_code;
  info.stream_id = failure.queue;
  info.task_id = failure.task_id;
  info.op_name = failure.op_name;
  info.message = failure.message;
  info.time = dfx::LocalTimeNow();
  status_.last_failure = std::move(info);
  if (failure.error_code == driver::kDeviceLostCode) {
    status_.health = dfx::DeviceHealth::kAlarm;
    ACLSIM_DEVLOG(log_, DeviceModule::kDrv, Level::kError,
                  "device {} lost (heartbeat lost, error_code={}): every later call fails", id_,
                  failure.error_code);
  } else if (status_.health == dfx::DeviceHealth::kOk) {
    status_.health = dfx::DeviceHealth::kWarning;
  }
  UpdateCountersLocked();
  SaveStatusLocked();
}

void DeviceMonitor::OnTaskTraced(const driver::TaskTrace& trace) {
  if (!log_.task_trace() || trace.task == nullptr) return;
  const driver::Task& task = *trace.task;
  const char* op = task.op_name != nullptr ? task.op_name : task.label;
  // Task trace is its own switch: written whatever the TSCH level.
  try {
    log_.Write(DeviceModule::kTsch, Level::kDebug, __FILE__, __LINE__, __func__,
               fmt::format("task done: stream_id={}, task_id={}, op_name={}, start_ns={}, "
                           "end_ns={}",
                           trace.queue, trace.task_id, (op != nullptr && *op != '\0') ? op : "-",
                           trace.start_ns, trace.end_ns));
  } catch (...) {
    // Out of memory while formatting: the line is lost, as any log line would be.
  }
}

void DeviceMonitor::OnClose() {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_) return;
  closed_ = true;
  UpdateCountersLocked();
  backend_ = nullptr;
  if (traces_) {
    traces_ = false;
    AddDeviceTaskTrace(-1);
  }
  status_.close_time = dfx::LocalTimeNow();
  ACLSIM_DEVLOG(log_, DeviceModule::kDrv, Level::kEvent,
                "device {} close: tasks submitted {}, completed {}, failed {}; simulated time "
                "{} ns; health {}",
                id_, status_.tasks_submitted, status_.tasks_completed, status_.tasks_failed,
                status_.sim_time_ns, dfx::DeviceHealthName(status_.health));
  SaveStatusLocked();
  log_.Flush();
}

void DeviceMonitor::UpdateCountersLocked() {
  if (backend_ == nullptr) return;
  const driver::DeviceCounters now = backend_->Counters();
  status_.tasks_submitted = now.tasks_submitted - baseline_.tasks_submitted;
  const uint64_t finished = now.tasks_finished - baseline_.tasks_finished;
  status_.tasks_completed = finished > status_.tasks_failed ? finished - status_.tasks_failed : 0;
  status_.sim_time_ns = now.sim_time_ns;
}

void DeviceMonitor::SaveStatusLocked() {
  Status saved = dfx::SaveDeviceStatus(root_, id_, status_);
  if (!saved.ok()) {
    ACLSIM_LOG_WARN(dfx::Module::kRuntime, "device {}: cannot save its status: {}", id_,
                    saved.message());
  }
}

}  // namespace aclsim::core
