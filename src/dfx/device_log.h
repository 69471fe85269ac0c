// DeviceLog: the application log of one simulated device, as CANN brings a device's logs to
// the host: <root>/debug/device-<id>/device-<pid>_<YYYYMMDDhhmmssmmm>.log (root: log.h), in
// the plog line format (dfx/log_line.h) under device modules (TSCH, DRV, AICPU, DEVMM).
//
// Levels and the event switch come from the device's settings (dfx/device_settings.h, set by
// msnpureport), never from ASCEND_GLOBAL_LOG_LEVEL. Task-trace lines (TSCH, DEBUG) are written
// when the settings' task_trace is on, whatever the TSCH level: the trace is its own switch.
// Files rotate as plog files do: at most 20 MB each, ASCEND_HOST_LOG_FILE_NUM kept per
// process. Nothing touches the disk before the first line. WARNING, ERROR and EVENT lines
// are flushed at once; the rest on Flush() and at destruction.
//
// Thread-safety: all methods may be called concurrently.
#pragma once

#include <fmt/format.h>
#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dfx/device_settings.h"
#include "dfx/log.h"

namespace aclsim::dfx {

class PlogFileSink;

class DeviceLog {
 public:
  // `max_files` <= 0: ASCEND_HOST_LOG_FILE_NUM (default 10).
  DeviceLog(const std::string& root, int32_t device_id, DeviceLogSettings settings,
            size_t max_file_size = 0, int max_files = 0);
  ~DeviceLog();
  DeviceLog(const DeviceLog&) = delete;
  DeviceLog& operator=(const DeviceLog&) = delete;

  int32_t device_id() const { return device_id_; }
  const DeviceLogSettings& settings() const { return settings_; }
  // True if a line of `level` from `module` would be written (EVENT: the event switch).
  bool Enabled(DeviceModule module, Level level) const;
  bool task_trace() const { return settings_.task_trace; }

  // Writes one line (no level check). Never throws.
  void Write(DeviceModule module, Level level, const char* file, int line, const char* func,
             std::string_view msg) noexcept;
  void Flush() noexcept;
  // The files written so far, oldest first.
  std::vector<std::string> files() const;

  template <typename... Args>
  void Log(DeviceModule module, Level level, const char* file, int line, const char* func,
           fmt::format_string<Args...> format, Args&&... args) noexcept {
    if (!Enabled(module, level)) return;
    try {
      Write(module, level, file, line, func, fmt::format(format, std::forward<Args>(args)...));
    } catch (...) {
    }
  }

 private:
  const int32_t device_id_;
  const DeviceLogSettings settings_;
  mutable std::mutex mu_;
  std::shared_ptr<PlogFileSink> sink_;
};

}  // namespace aclsim::dfx

// ACLSIM_DEVLOG(log, DeviceModule::kTsch, Level::kError, "task {} failed", id);
#define ACLSIM_DEVLOG(log, module, level, ...) \
  (log).Log((module), (level), __FILE__, __LINE__, __func__, __VA_ARGS__)
