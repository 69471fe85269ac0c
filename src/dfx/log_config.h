// Log configuration: the values of the logging environment variables, parsed and checked.
//
// A pure function of the environment (passed in as a lookup function so tests can feed a
// map). The table of variables and their meaning is in log.h. Problems (malformed values)
// do not fail: the value falls back to its default and a human-readable warning is added
// to LogConfig::warnings, which the logger prints to stderr once per reading.
//
// Thread-safety: plain functions and values; safe from any thread.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dfx/log.h"

namespace aclsim::dfx {

inline constexpr int8_t kDefaultGlobalLevel = 3;  // ERROR
inline constexpr int kDefaultHostLogFileNum = 10;
inline constexpr int kMinHostLogFileNum = 1;
inline constexpr int kMaxHostLogFileNum = 1000;
inline constexpr size_t kDefaultMaxLogFileSize = 20u * 1024u * 1024u;  // 20 MB, fixed in CANN

struct LogConfig {
  // Threshold per module (0..4): lines with a level below it are dropped.
  std::array<int8_t, kModuleCount> module_level;
  int8_t global_level = kDefaultGlobalLevel;
  bool event_enabled = true;
  bool print_to_stdout = false;
  bool sync_save = false;
  int host_log_file_num = kDefaultHostLogFileNum;
  std::string root_dir;  // e.g. /home/u/ascend/log; debug/plog and run/plog go below it
  std::vector<std::string> warnings;

  LogConfig() { module_level.fill(kDefaultGlobalLevel); }
};

// Looks a variable up; returns null if unset.
using EnvLookup = std::function<const char*(const char*)>;

// Reads every logging variable through `lookup`.
LogConfig ParseLogConfig(const EnvLookup& lookup);

// ParseLogConfig(getenv).
LogConfig ReadLogConfigFromEnv();

// The log root alone: ASCEND_PROCESS_LOG_PATH > $ASCEND_WORK_PATH/log > $HOME/ascend/log
// (the passwd entry's home if HOME is unset). Used by the device log and msnpureport.
std::string ResolveLogRoot(const EnvLookup& lookup);
std::string LogRootFromEnv();

// Parses an ASCEND_MODULE_LOG_LEVEL value ("RUNTIME=0:ASCENDCL=1") into `levels`.
// All-or-nothing, as CANN documents: on any malformed entry (missing '=', a level outside
// 0..4, an empty or unknown module name, any other character) `levels` is left unchanged,
// *error describes the problem and false is returned. Module names of CANN's log_types.h
// that aclsim does not log under (TBE, HCCL, FE, ...) are accepted and have no effect.
bool ParseModuleLogLevels(std::string_view text, std::array<int8_t, kModuleCount>* levels,
                          std::string* error);

// "RUNTIME" -> Module::kRuntime; names are upper case, exactly as CANN spells them.
std::optional<Module> ModuleFromName(std::string_view name);

// True for every module name of CANN's log_types.h (and for aclsim's own "SIM").
bool IsKnownModuleName(std::string_view name);

}  // namespace aclsim::dfx
