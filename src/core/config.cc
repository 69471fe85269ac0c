#include "core/config.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/read_file.h"
#include "dfx/log.h"

namespace aclsim::core {
namespace {

constexpr int kMaxJsonDepth = 10;

const char* Env(const char* name) {
  const char* value = std::getenv(name);
  return (value != nullptr && *value != '\0') ? value : nullptr;
}

// Depth of objects and of arrays, counted separately as CANN does.
bool DepthWithin(const nlohmann::json& value, int objects, int arrays) {
  if (value.is_object()) {
    if (++objects > kMaxJsonDepth) return false;
    for (const auto& item : value.items()) {
      if (!DepthWithin(item.value(), objects, arrays)) return false;
    }
  } else if (value.is_array()) {
    if (++arrays > kMaxJsonDepth) return false;
    for (const auto& item : value) {
      if (!DepthWithin(item, objects, arrays)) return false;
    }
  }
  return true;
}

// CANN's JSON keeps numbers as strings ("0"); accept both.
Result<int64_t> IntValue(const nlohmann::json& value, const std::string& key) {
  // An unsigned number past INT64_MAX, or a string out of range, is no int64 (not a wrap).
  if (value.is_number_integer() &&
      !(value.is_number_unsigned() && value.get<uint64_t>() > uint64_t{INT64_MAX})) {
    return value.get<int64_t>();
  }
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    char* end = nullptr;
    errno = 0;
    long long parsed = std::strtoll(text.c_str(), &end, 10);
    if (!text.empty() && end != nullptr && *end == '\0' && errno != ERANGE) {
      return static_cast<int64_t>(parsed);
    }
  }
  return Err(StatusCode::kParseFile,
             "config key \"{}\" must be an integer (or a string holding "
             "one), got {}",
             key, value.dump());
}

std::string OptionText(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

void ApplyEnvironment(RuntimeConfig* config) {
  if (const char* v = Env("ACLSIM_DRIVER")) config->driver = v;
  if (const char* v = Env("ACLSIM_MEMCHECK")) config->memcheck = std::strcmp(v, "0") != 0;
  if (const char* v = Env("ACLSIM_WATCHDOG")) {
    auto ms = ParseWatchdogSeconds(v);
    if (ms.ok()) {
      config->watchdog_ms = *ms;
    } else {
      ACLSIM_LOG_WARN(dfx::Module::kRuntime, "ACLSIM_WATCHDOG ignored: {}", ms.status().message());
    }
  }
  const std::pair<const char*, const char*> options[] = {
      {"ACLSIM_SOC", "soc"},
      {"ACLSIM_DEVICE_COUNT", "device_count"},
      {"ACLSIM_WORKERS", "workers"},
      {"ACLSIM_HBM_BYTES", "hbm_bytes"},
      {"ACLSIM_HUGE_PAGE_BYTES", "huge_page_bytes"},
      {"ACLSIM_FAULT_FAIL_TASK", "fault_fail_task"},
      {"ACLSIM_FAULT_FAIL_ALLOC", "fault_fail_alloc"},
      {"ACLSIM_FAULT_AICORE_EXCEPTION", "fault_aicore_exception"},
      {"ACLSIM_FAULT_SLOW_DMA", "fault_slow_dma"},
      {"ACLSIM_FAULT_DEVICE_LOST", "fault_device_lost"},
  };
  for (const auto& [env, key] : options) {
    if (const char* v = Env(env)) config->backend[key] = v;
  }
  if (const char* v = Env("ASCEND_RT_VISIBLE_DEVICES")) {
    config->visible_devices = ParseVisibleDevices(v);
  }
}

Status ApplyJson(const nlohmann::json& root, RuntimeConfig* config) {
  if (!root.is_object()) {
    return Err(StatusCode::kParseFile, "config must be a JSON object, got {}", root.type_name());
  }
  if (auto it = root.find("defaultDevice"); it != root.end()) {
    if (!it->is_object() || !it->contains("default_device")) {
      return Err(StatusCode::kParseFile,
                 "config key \"defaultDevice\" must be {{\"default_device\": \"<id>\"}}");
    }
    auto id = IntValue(it->at("default_device"), "defaultDevice.default_device");
    if (!id.ok()) return id.status();
    if (*id < 0 || *id > INT32_MAX) {
      return Err(StatusCode::kParseFile,
                 "config key \"defaultDevice.default_device\" is {}, not "
                 "a device id",
                 *id);
    }
    config->default_device = static_cast<int32_t>(*id);
  }
  if (auto it = root.find("err_msg_mode"); it != root.end()) {
    auto mode = IntValue(*it, "err_msg_mode");
    if (!mode.ok()) return mode.status();
    if (*mode != 0 && *mode != 1) {
      return Err(StatusCode::kParseFile, "config key \"err_msg_mode\" must be \"0\" or \"1\"");
    }
    config->err_msg_mode = static_cast<int>(*mode);
  }
  if (auto it = root.find("max_opqueue_num"); it != root.end()) {
    auto num = IntValue(*it, "max_opqueue_num");
    if (!num.ok()) return num.status();
    if (*num <= 0) return Err(StatusCode::kParseFile, "\"max_opqueue_num\" must be positive");
    config->max_opqueue_num = static_cast<uint64_t>(*num);
  }
  if (auto it = root.find("aclsim"); it != root.end()) {
    if (!it->is_object()) {
      return Err(StatusCode::kParseFile, "config key \"aclsim\" must be an object");
    }
    for (const auto& item : it->items()) {
      if (item.key() == "driver") {
        config->driver = OptionText(item.value());
      } else if (item.key() == "watchdog") {
        auto ms = ParseWatchdogSeconds(OptionText(item.value()));
        if (!ms.ok()) return ms.status();
        config->watchdog_ms = *ms;
      } else if (item.key() == "memcheck") {
        const std::string text = OptionText(item.value());
        config->memcheck = text != "0" && text != "false";
      } else {
        config->backend[item.key()] = OptionText(item.value());
      }
    }
  }
  return Status::Ok();
}

}  // namespace

Result<uint32_t> ParseWatchdogSeconds(const std::string& text) {
  constexpr double kMaxSeconds = 86400;
  char* end = nullptr;
  const double seconds = std::strtod(text.c_str(), &end);
  // !(x >= 0) also refuses NaN.
  if (text.empty() || end == nullptr || *end != '\0' || !(seconds >= 0) || seconds > kMaxSeconds) {
    return Err(StatusCode::kParseFile,
               "\"watchdog\" must be a number of seconds in [0, {}] (0 = off), got '{}'",
               kMaxSeconds, text);
  }
  return static_cast<uint32_t>(std::ceil(seconds * 1000.0));
}

std::vector<uint32_t> ParseVisibleDevices(const std::string& value) {
  std::vector<uint32_t> ids;
  std::stringstream stream(value);
  std::string item;
  while (std::getline(stream, item, ',')) {
    char* end = nullptr;
    long parsed = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || end == nullptr || *end != '\0' || parsed < 0) break;
    if (!ids.empty() && static_cast<uint32_t>(parsed) <= ids.back()) break;  // ascending only
    ids.push_back(static_cast<uint32_t>(parsed));
  }
  return ids;
}

Status ApplyConfigJson(const std::string& text, const char* origin, RuntimeConfig* config) {
  nlohmann::json root = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) {
    return Err(StatusCode::kParseFile, "config file '{}' is not valid JSON", origin);
  }
  if (!DepthWithin(root, 0, 0)) {
    return Err(StatusCode::kParseFile,
               "config file '{}' nests objects or arrays deeper than {} levels", origin,
               kMaxJsonDepth);
  }
  Status applied = ApplyJson(root, config);
  if (!applied.ok()) {
    return Status(applied.code(), fmt::format("config file '{}': {}", origin, applied.message()));
  }
  return Status::Ok();
}

Result<RuntimeConfig> LoadRuntimeConfig(const char* path) {
  RuntimeConfig config;
  ApplyEnvironment(&config);
  if (path == nullptr) return config;
  if (*path == '\0') {
    return Err(StatusCode::kInvalidFile, "config path is an empty string (pass NULL for defaults)");
  }
  // A JSON config is small: 16 MiB bounds a device file or a mistaken path.
  ACLSIM_ASSIGN_OR_RETURN(config.json_text, ReadRegularFile(path, 16 << 20, "config file"));
  ACLSIM_RETURN_IF_ERROR(ApplyConfigJson(config.json_text, path, &config));
  return config;
}

}  // namespace aclsim::core
