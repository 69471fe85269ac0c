// Persisted per-device settings and status: what msnpureport sets and shows, and what the
// runtime reads when it opens a device and writes when the device fails a task or closes.
//
// Files, under the log root of log.h (ASCEND_PROCESS_LOG_PATH > $ASCEND_WORK_PATH/log >
// $HOME/ascend/log):
//   <root>/npu/device-<id>/log_config.json  the device's log settings (msnpureport -g/-m/-e/-t):
//       {"global_level": "error", "module_levels": {"TSCH": "debug"}, "event": true,
//        "task_trace": false}
//     Levels are the words msnpureport takes: debug, info, warning, error, null. A missing
//     file means the defaults (ERROR, no module levels, events on, task trace off), as a
//     device fresh from the factory: the device log level is NOT ASCEND_GLOBAL_LOG_LEVEL
//     (CANN sets device levels with msnpureport only).
//   <root>/npu/device-<id>/status.json      the device's status (written by the runtime; read
//     by msnpureport -s and exported by msnpureport): see DeviceStatus.
//   <root>/debug/device-<id>/               the device's log files (dfx/device_log.h).
// Both JSON files are written atomically (a temporary file in the same directory, renamed),
// so a reader never sees half a file, and concurrent writers leave one complete version.
//
// Thread-safety: plain functions over values; safe from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace aclsim::dfx {

// Modules of device logs, named as CANN's device components log (the task scheduler, the
// driver, the AI CPU scheduler, device memory management).
enum class DeviceModule : uint8_t { kTsch = 0, kDrv, kAicpu, kDevmm, kCount };
inline constexpr int kDeviceModuleCount = static_cast<int>(DeviceModule::kCount);

// "TSCH", "DRV", "AICPU", "DEVMM".
const char* DeviceModuleName(DeviceModule module);
// Case-insensitive; nullopt for a name that is not a device module.
std::optional<DeviceModule> DeviceModuleFromName(std::string_view name);

// "debug" 0, "info" 1, "warning" 2, "error" 3, "null" 4 (case-insensitive); nullopt otherwise.
std::optional<int8_t> LevelFromWord(std::string_view word);
// 0..4 -> "debug" .. "null"; others -> "error".
const char* LevelWord(int8_t level);

inline constexpr int8_t kDefaultDeviceLevel = 3;  // ERROR

struct DeviceLogSettings {
  int8_t global_level = kDefaultDeviceLevel;
  // Per module: -1 = follows the global level; else 0..4.
  std::array<int8_t, kDeviceModuleCount> module_level{-1, -1, -1, -1};
  bool event_enabled = true;
  bool task_trace = false;

  int8_t LevelOf(DeviceModule module) const {
    const int8_t own = module_level[static_cast<size_t>(module)];
    return own >= 0 ? own : global_level;
  }
};

enum class DeviceHealth { kOk, kWarning, kAlarm };
// "OK", "Warning", "Alarm".
const char* DeviceHealthName(DeviceHealth health);

struct DeviceFailureInfo {
  uint32_t error_code = 0;
  uint32_t stream_id = 0;
  uint64_t task_id = 0;
  std::string op_name;  // "" if the task had none
  std::string message;
  std::string time;  // local wall-clock time, "YYYY-MM-DD hh:mm:ss.mmm"
};

// status.json. health: OK; Warning once a task failed; Alarm once the device was lost (the
// fault that stops every later call). Reset at each open.
struct DeviceStatus {
  int32_t device_id = 0;
  std::string soc;
  int64_t pid = 0;
  std::string program;     // the process name of the last process that used the device
  std::string open_time;   // "YYYY-MM-DD hh:mm:ss.mmm"
  std::string close_time;  // "" while the device is open (or the process died)
  uint64_t tasks_submitted = 0;
  uint64_t tasks_completed = 0;  // finished without failing
  uint64_t tasks_failed = 0;
  std::optional<DeviceFailureInfo> last_failure;
  DeviceHealth health = DeviceHealth::kOk;
  uint64_t sim_time_ns = 0;  // simulated device time reached (latest task end)
};

// <root>/npu/device-<id> and <root>/debug/device-<id>.
std::string DeviceStateDir(const std::string& root, int32_t device_id);
std::string DeviceLogDir(const std::string& root, int32_t device_id);

// The local time now as "YYYY-MM-DD hh:mm:ss.mmm".
std::string LocalTimeNow();

// log_config.json text <-> settings. Parse: kParseFile naming `origin` and the key for text
// that is not a JSON object, an unknown key, a level word or module name we do not know.
Result<DeviceLogSettings> ParseDeviceLogSettings(const std::string& text,
                                                 const std::string& origin);
std::string DeviceLogSettingsJson(const DeviceLogSettings& settings);
// Reads <root>/npu/device-<id>/log_config.json: the defaults when it does not exist;
// kInvalidFile if it exists but cannot be read; the parse errors above.
Result<DeviceLogSettings> LoadDeviceLogSettings(const std::string& root, int32_t device_id);
// Writes it atomically (creating the directory); kWriteFile if it cannot.
Status SaveDeviceLogSettings(const std::string& root, int32_t device_id,
                             const DeviceLogSettings& settings);

// status.json text <-> status (Parse: kParseFile as above; missing keys keep their defaults).
Result<DeviceStatus> ParseDeviceStatus(const std::string& text, const std::string& origin);
std::string DeviceStatusJson(const DeviceStatus& status);
// kInvalidFile if <root>/npu/device-<id>/status.json does not exist or cannot be read.
Result<DeviceStatus> LoadDeviceStatus(const std::string& root, int32_t device_id);
Status SaveDeviceStatus(const std::string& root, int32_t device_id, const DeviceStatus& status);

// Writes `text` to `path` through a temporary file in the same directory and a rename
// (creating the directory); kWriteFile naming the path and the reason if it cannot.
Status WriteFileAtomically(const std::string& path, const std::string& text);

}  // namespace aclsim::dfx
