#include "dfx/log_config.h"

#include <fmt/format.h>
#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace aclsim::dfx {
namespace {

// Module names of CANN's log_types.h (CANN 8.1 toolkit include/toolchain/log_types.h).
// ASCEND_MODULE_LOG_LEVEL settings copied from a CANN setup name these; we accept them.
constexpr std::string_view kCannModuleNames[] = {
    "SLOG",  "IDEDD",   "SCC",      "HCCL",       "FMK",    "CCU",      "DVPP",   "RUNTIME",
    "CCE",   "HDC",     "DRV",      "DEVMM",      "KERNEL", "LIBMEDIA", "CCECPU", "ROS",
    "HCCP",  "ROCE",    "TEFUSION", "PROFILING",  "DP",     "APP",      "TS",     "TSDUMP",
    "AICPU", "LP",      "TDT",      "FE",         "MD",     "MB",       "ME",     "IMU",
    "IMP",   "GE",      "CAMERA",   "ASCENDCL",   "TEEOS",  "ISP",      "SIS",    "HSM",
    "DSS",   "PROCMGR", "BBOX",     "AIVECTOR",   "TBE",    "FV",       "TUNE",   "HSS",
    "FFTS",  "OP",      "UDF",      "HICAID",     "TSYNC",  "AUDIO",    "TPRT",   "ASCENDCKERNEL",
    "ASYS",  "ATRACE",  "RTC",      "SYSMONITOR", "AML",    "ADETECT",
};

// Strict non-negative decimal: digits only, at most 9 of them.
std::optional<int> ParseNonNegativeInt(std::string_view text) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

enum class Switch { kUnset, kOn, kOff, kInvalid };

// A 0/1 variable. Unset or empty -> kUnset; anything but "0"/"1" -> kInvalid plus a warning.
Switch ReadSwitch(const EnvLookup& lookup, const char* name, std::vector<std::string>* warnings) {
  const char* value = lookup(name);
  if (value == nullptr || value[0] == '\0') return Switch::kUnset;
  const std::string_view text(value);
  if (text == "1") return Switch::kOn;
  if (text == "0") return Switch::kOff;
  warnings->push_back(fmt::format("{}='{}' is invalid (expected 0 or 1); using the default", name,
                                  text.substr(0, 32)));
  return Switch::kInvalid;
}

// Home directory from the password database, for processes started without $HOME.
std::string PasswdHomeDir() {
  struct passwd pw {};
  struct passwd* result = nullptr;
  char buf[4096];
  if (getpwuid_r(getuid(), &pw, buf, sizeof(buf), &result) == 0 && result != nullptr &&
      result->pw_dir != nullptr) {
    return result->pw_dir;
  }
  return "/tmp";
}

std::string ResolveRootDirImpl(const EnvLookup& lookup) {
  const char* process_log_path = lookup("ASCEND_PROCESS_LOG_PATH");
  if (process_log_path != nullptr && process_log_path[0] != '\0') return process_log_path;
  const char* work_path = lookup("ASCEND_WORK_PATH");
  if (work_path != nullptr && work_path[0] != '\0') return std::string(work_path) + "/log";
  const char* home = lookup("HOME");
  std::string home_dir = (home != nullptr && home[0] != '\0') ? std::string(home) : PasswdHomeDir();
  return home_dir + "/ascend/log";
}

}  // namespace

std::optional<Module> ModuleFromName(std::string_view name) {
  for (int i = 0; i < kModuleCount; ++i) {
    const auto module = static_cast<Module>(i);
    if (name == ModuleName(module)) return module;
  }
  return std::nullopt;
}

bool IsKnownModuleName(std::string_view name) {
  if (ModuleFromName(name).has_value()) return true;
  for (std::string_view known : kCannModuleNames) {
    if (name == known) return true;
  }
  return false;
}

bool ParseModuleLogLevels(std::string_view text, std::array<int8_t, kModuleCount>* levels,
                          std::string* error) {
  std::array<int8_t, kModuleCount> parsed = *levels;
  size_t start = 0;
  while (true) {
    const size_t end = std::min(text.find(':', start), text.size());
    const std::string_view entry = text.substr(start, end - start);
    const size_t eq = entry.find('=');
    if (eq == std::string_view::npos) {
      *error = fmt::format("entry '{}' has no '='", entry);
      return false;
    }
    const std::string_view name = entry.substr(0, eq);
    const std::string_view level_text = entry.substr(eq + 1);
    const std::optional<int> level = ParseNonNegativeInt(level_text);
    if (!level.has_value() || *level > 4) {
      *error = fmt::format("entry '{}': level must be 0..4", entry);
      return false;
    }
    if (!IsKnownModuleName(name)) {
      *error = fmt::format("entry '{}': unknown module name '{}'", entry, name);
      return false;
    }
    if (const std::optional<Module> module = ModuleFromName(name)) {
      parsed[static_cast<size_t>(*module)] = static_cast<int8_t>(*level);
    }
    if (end == text.size()) break;
    start = end + 1;
  }
  *levels = parsed;
  return true;
}

LogConfig ParseLogConfig(const EnvLookup& lookup) {
  LogConfig config;

  if (const char* value = lookup("ASCEND_GLOBAL_LOG_LEVEL"); value != nullptr && value[0] != '\0') {
    const std::optional<int> level = ParseNonNegativeInt(value);
    if (level.has_value() && *level <= 4) {
      config.global_level = static_cast<int8_t>(*level);
    } else {
      config.warnings.push_back(fmt::format(
          "ASCEND_GLOBAL_LOG_LEVEL='{}' is invalid (expected 0..4); using 3 (ERROR)", value));
    }
  }
  config.module_level.fill(config.global_level);

  if (const char* value = lookup("ASCEND_MODULE_LOG_LEVEL"); value != nullptr && value[0] != '\0') {
    std::string error;
    if (!ParseModuleLogLevels(value, &config.module_level, &error)) {
      config.warnings.push_back(
          fmt::format("ASCEND_MODULE_LOG_LEVEL='{}' is ignored as a whole: {}", value, error));
    }
  }

  // EVENT logs: on unless explicitly 0 (an invalid value keeps CANN's default, on).
  config.event_enabled =
      ReadSwitch(lookup, "ASCEND_GLOBAL_EVENT_ENABLE", &config.warnings) != Switch::kOff;

  // The current variable wins whenever it is set (even to an invalid value, which means
  // "off", as in CANN's log library); the deprecated one is read only if it is not.
  Switch to_stdout = ReadSwitch(lookup, "ASCEND_LOG_PRINT_TO_STDOUT", &config.warnings);
  if (to_stdout == Switch::kUnset) {
    to_stdout = ReadSwitch(lookup, "ASCEND_SLOG_PRINT_TO_STDOUT", &config.warnings);
  }
  config.print_to_stdout = (to_stdout == Switch::kOn);

  config.sync_save = ReadSwitch(lookup, "ASCEND_LOG_SYNC_SAVE", &config.warnings) == Switch::kOn;

  if (const char* value = lookup("ASCEND_HOST_LOG_FILE_NUM");
      value != nullptr && value[0] != '\0') {
    const std::optional<int> num = ParseNonNegativeInt(value);
    if (num.has_value() && *num >= kMinHostLogFileNum && *num <= kMaxHostLogFileNum) {
      config.host_log_file_num = *num;
    } else {
      config.warnings.push_back(
          fmt::format("ASCEND_HOST_LOG_FILE_NUM='{}' is invalid (expected 1..1000); using {}",
                      value, kDefaultHostLogFileNum));
    }
  }

  config.root_dir = ResolveLogRoot(lookup);
  return config;
}

std::string ResolveLogRoot(const EnvLookup& lookup) { return ResolveRootDirImpl(lookup); }

std::string LogRootFromEnv() {
  return ResolveLogRoot([](const char* name) -> const char* { return std::getenv(name); });
}

LogConfig ReadLogConfigFromEnv() {
  return ParseLogConfig([](const char* name) -> const char* { return std::getenv(name); });
}

}  // namespace aclsim::dfx
