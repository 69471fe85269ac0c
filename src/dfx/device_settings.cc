#include "dfx/device_settings.h"

#include <fmt/format.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

namespace aclsim::dfx {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kModuleNames[kDeviceModuleCount] = {"TSCH", "DRV", "AICPU", "DEVMM"};
constexpr const char* kLevelWords[] = {"debug", "info", "warning", "error", "null"};

bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

Result<std::string> ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Err(StatusCode::kInvalidFile, "cannot read '{}'", path);
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) return Err(StatusCode::kInvalidFile, "cannot read '{}'", path);
  return text.str();
}

Result<int8_t> LevelValue(const json& value, const std::string& origin, const std::string& key) {
  if (value.is_string()) {
    if (auto level = LevelFromWord(value.get<std::string>())) return *level;
  }
  return Err(StatusCode::kParseFile,
             "{}: \"{}\" must be one of \"debug\", \"info\", \"warning\", \"error\", \"null\"",
             origin, key);
}

Result<bool> BoolValue(const json& value, const std::string& origin, const std::string& key) {
  if (!value.is_boolean())
    return Err(StatusCode::kParseFile, "{}: \"{}\" must be true or false", origin, key);
  return value.get<bool>();
}

template <typename T>
void ReadNumber(const json& object, const char* key, T* out) {
  auto it = object.find(key);
  if (it != object.end() && it->is_number_integer()) *out = it->get<T>();
}

void ReadString(const json& object, const char* key, std::string* out) {
  auto it = object.find(key);
  if (it != object.end() && it->is_string()) *out = it->get<std::string>();
}

}  // namespace

const char* DeviceModuleName(DeviceModule module) {
  const auto i = static_cast<size_t>(module);
  return i < static_cast<size_t>(kDeviceModuleCount) ? kModuleNames[i] : "UNKNOWN";
}

std::optional<DeviceModule> DeviceModuleFromName(std::string_view name) {
  for (int i = 0; i < kDeviceModuleCount; ++i) {
    if (EqualsNoCase(name, kModuleNames[i])) return static_cast<DeviceModule>(i);
  }
  return std::nullopt;
}

std::optional<int8_t> LevelFromWord(std::string_view word) {
  for (int8_t i = 0; i < 5; ++i) {
    if (EqualsNoCase(word, kLevelWords[i])) return i;
  }
  return std::nullopt;
}

const char* LevelWord(int8_t level) {
  return level >= 0 && level <= 4 ? kLevelWords[level] : "error";
}

const char* DeviceHealthName(DeviceHealth health) {
  switch (health) {
    case DeviceHealth::kOk:
      return "OK";
    case DeviceHealth::kWarning:
      return "Warning";
    case DeviceHealth::kAlarm:
      return "Alarm";
  }
  return "OK";
}

std::string DeviceStateDir(const std::string& root, int32_t device_id) {
  return fmt::format("{}/npu/device-{}", root, device_id);
}

std::string DeviceLogDir(const std::string& root, int32_t device_id) {
  return fmt::format("{}/debug/device-{}", root, device_id);
}

std::string LocalTimeNow() {
  using std::chrono::duration_cast;
  using std::chrono::milliseconds;
  const int64_t ms =
      duration_cast<milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  const auto seconds = static_cast<time_t>(ms / 1000);
  struct tm local {};
  localtime_r(&seconds, &local);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:03}", local.tm_year + 1900,
                     local.tm_mon + 1, local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec,
                     static_cast<int>(ms % 1000));
}

Result<DeviceLogSettings> ParseDeviceLogSettings(const std::string& text,
                                                 const std::string& origin) {
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) {
    return Err(StatusCode::kParseFile, "{}: not a JSON object", origin);
  }
  DeviceLogSettings settings;
  for (const auto& [key, value] : doc.items()) {
    if (key == "global_level") {
      ACLSIM_ASSIGN_OR_RETURN(settings.global_level, LevelValue(value, origin, key));
    } else if (key == "module_levels") {
      if (!value.is_object()) {
        return Err(StatusCode::kParseFile, "{}: \"module_levels\" must be an object", origin);
      }
      for (const auto& [name, level] : value.items()) {
        const auto module = DeviceModuleFromName(name);
        if (!module) {
          return Err(StatusCode::kParseFile,
                     "{}: \"{}\" is not a device module (TSCH, DRV, AICPU, DEVMM)", origin, name);
        }
        ACLSIM_ASSIGN_OR_RETURN(settings.module_level[static_cast<size_t>(*module)],
                                LevelValue(level, origin, "module_levels." + name));
      }
    } else if (key == "event") {
      ACLSIM_ASSIGN_OR_RETURN(settings.event_enabled, BoolValue(value, origin, key));
    } else if (key == "task_trace") {
      ACLSIM_ASSIGN_OR_RETURN(settings.task_trace, BoolValue(value, origin, key));
    } else {
      return Err(StatusCode::kParseFile,
                 "{}: unknown key \"{}\" (known: global_level, module_levels, event, task_trace)",
                 origin, key);
    }
  }
  return settings;
}

std::string DeviceLogSettingsJson(const DeviceLogSettings& settings) {
  nlohmann::ordered_json out;
  out["global_level"] = LevelWord(settings.global_level);
  nlohmann::ordered_json modules = nlohmann::ordered_json::object();
  for (int i = 0; i < kDeviceModuleCount; ++i) {
    const int8_t level = settings.module_level[static_cast<size_t>(i)];
    if (level >= 0) modules[kModuleNames[i]] = LevelWord(level);
  }
  out["module_levels"] = modules;
  out["event"] = settings.event_enabled;
  out["task_trace"] = settings.task_trace;
  return out.dump(2) + "\n";
}

Result<DeviceLogSettings> LoadDeviceLogSettings(const std::string& root, int32_t device_id) {
  const std::string path = DeviceStateDir(root, device_id) + "/log_config.json";
  std::error_code error;
  if (!fs::exists(path, error)) return DeviceLogSettings{};
  ACLSIM_ASSIGN_OR_RETURN(std::string text, ReadText(path));
  return ParseDeviceLogSettings(text, path);
}

Status SaveDeviceLogSettings(const std::string& root, int32_t device_id,
                             const DeviceLogSettings& settings) {
  return WriteFileAtomically(DeviceStateDir(root, device_id) + "/log_config.json",
                             DeviceLogSettingsJson(settings));
}

Result<DeviceStatus> ParseDeviceStatus(const std::string& text, const std::string& origin) {
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) return Err(StatusCode::kParseFile, "{}: not a JSON object", origin);
  DeviceStatus status;
  ReadNumber(doc, "device_id", &status.device_id);
  ReadString(doc, "soc", &status.soc);
  ReadNumber(doc, "pid", &status.pid);
  ReadString(doc, "program", &status.program);
  ReadString(doc, "open_time", &status.open_time);
  ReadString(doc, "close_time", &status.close_time);
  ReadNumber(doc, "tasks_submitted", &status.tasks_submitted);
  ReadNumber(doc, "tasks_completed", &status.tasks_completed);
  ReadNumber(doc, "tasks_failed", &status.tasks_failed);
  ReadNumber(doc, "sim_time_ns", &status.sim_time_ns);
  std::string health;
  ReadString(doc, "health", &health);
  if (health == "Warning") status.health = DeviceHealth::kWarning;
  if (health == "Alarm") status.health = DeviceHealth::kAlarm;
  auto failure = doc.find("last_failure");
  if (failure != doc.end() && failure->is_object()) {
    DeviceFailureInfo info;
    ReadNumber(*failure, "error_code", &info.error_code);
    ReadNumber(*failure, "stream_id", &info.stream_id);
    ReadNumber(*failure, "task_id", &info.task_id);
    ReadString(*failure, "op_name", &info.op_name);
    ReadString(*failure, "message", &info.message);
    ReadString(*failure, "time", &info.time);
    status.last_failure = std::move(info);
  }
  return status;
}

std::string DeviceStatusJson(const DeviceStatus& status) {
  nlohmann::ordered_json out;
  out["device_id"] = status.device_id;
  out["soc"] = status.soc;
  out["health"] = DeviceHealthName(status.health);
  out["pid"] = status.pid;
  out["program"] = status.program;
  out["open_time"] = status.open_time;
  out["close_time"] = status.close_time;
  out["tasks_submitted"] = status.tasks_submitted;
  out["tasks_completed"] = status.tasks_completed;
  out["tasks_failed"] = status.tasks_failed;
  if (status.last_failure) {
    const DeviceFailureInfo& f = *status.last_failure;
    out["last_failure"] = {{"error_code", f.error_code}, {"stream_id", f.stream_id},
                           {"task_id", f.task_id},       {"op_name", f.op_name},
                           {"message", f.message},       {"time", f.time}};
  } else {
    out["last_failure"] = nullptr;
  }
  out["sim_time_ns"] = status.sim_time_ns;
  // Messages come from kernels; never let a stray byte make the file unwritable.
  return out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

Result<DeviceStatus> LoadDeviceStatus(const std::string& root, int32_t device_id) {
  const std::string path = DeviceStateDir(root, device_id) + "/status.json";
  ACLSIM_ASSIGN_OR_RETURN(std::string text, ReadText(path));
  return ParseDeviceStatus(text, path);
}

Status SaveDeviceStatus(const std::string& root, int32_t device_id, const DeviceStatus& status) {
  return WriteFileAtomically(DeviceStateDir(root, device_id) + "/status.json",
                             DeviceStatusJson(status));
}

Status WriteFileAtomically(const std::string& path, const std::string& text) {
  const fs::path target(path);
  std::error_code error;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), error);
  // Unique per process and call: concurrent writers never share a temporary file.
  static std::atomic<uint64_t> serial{0};
  const std::string temp = fmt::format("{}.tmp.{}.{}", path, getpid(), serial.fetch_add(1));
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) {
      fs::remove(temp, error);
      return Err(StatusCode::kWriteFile, "cannot write '{}'", temp);
    }
  }
  fs::rename(temp, target, error);
  if (error) {
    const std::string reason = error.message();
    fs::remove(temp, error);
    return Err(StatusCode::kWriteFile, "cannot rename '{}' to '{}': {}", temp, path, reason);
  }
  return Status::Ok();
}

}  // namespace aclsim::dfx
