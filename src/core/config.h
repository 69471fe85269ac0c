// RuntimeConfig: what aclInit(configPath) and the environment configure.
//
// aclInit accepts NULL (defaults) or a JSON file (CANN: nesting depth of objects and arrays at
// most 10 each; "{}" = defaults). Keys we act on:
//   "defaultDevice": {"default_device": "0"}   implicit aclrtSetDevice on first use
//   "err_msg_mode": "0" | "1"                   aclGetRecentErrMsg per thread / per process
//   "max_opqueue_num": "20000"                  single-op model cache length
//   "aclsim": {"driver": "sim", "soc": "Ascend910B2", "device_count": 8, ...}
//        our own key: backend name, "memcheck" (the memory checker, core/memory_checker.h),
//        "watchdog": seconds (decimal, e.g. "0.5"; 0 = off, the default) after which a
//        blocked synchronisation logs at ERROR the tasks it waits for (driver.h
//        SetWatchdog), and backend options (any other key/value, passed through)
//   "dump", "profiler", "StackSize", "acl_graph", ...: kept verbatim for their owners.
// Environment (applied under the JSON): ACLSIM_DRIVER, ACLSIM_MEMCHECK, ACLSIM_WATCHDOG
// (seconds, as "watchdog"; an invalid value is ignored with a warning), ACLSIM_SOC,
// ACLSIM_DEVICE_COUNT, ACLSIM_WORKERS, ACLSIM_HBM_BYTES, ACLSIM_HUGE_PAGE_BYTES,
// ACLSIM_FAULT_FAIL_TASK, ACLSIM_FAULT_FAIL_ALLOC, ACLSIM_FAULT_AICORE_EXCEPTION,
// ACLSIM_FAULT_SLOW_DMA, ACLSIM_FAULT_DEVICE_LOST; ASCEND_RT_VISIBLE_DEVICES.
//
// Errors: missing/unreadable file -> kInvalidFile; malformed JSON, too deep, or a known key
// with a wrong type -> kParseFile. Nothing is initialised when loading fails.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "driver/registry.h"

namespace aclsim::core {

struct RuntimeConfig {
  std::string driver = "sim";
  driver::BackendOptions backend;                        // options for the chosen backend
  std::optional<int32_t> default_device;                 // "defaultDevice"
  bool memcheck = false;                                 // "aclsim": {"memcheck": 1}
  uint32_t watchdog_ms = 0;                              // "aclsim": {"watchdog": "<s>"}
  int err_msg_mode = 0;                                  // "err_msg_mode"
  uint64_t max_opqueue_num = 20000;                      // "max_opqueue_num"
  std::string json_text;                                 // the whole file, for init callbacks
  std::optional<std::vector<uint32_t>> visible_devices;  // ASCEND_RT_VISIBLE_DEVICES
};

// Reads the environment defaults, then the JSON file (if path is non-NULL).
Result<RuntimeConfig> LoadRuntimeConfig(const char* path);

// Applies the JSON text of a config file over `config` (what LoadRuntimeConfig does with the
// file's contents); `origin` names the file in messages. kParseFile on malformed JSON, too
// deep a nesting or a known key with a wrong type; `config` may be partly updated then.
Status ApplyConfigJson(const std::string& text, const char* origin, RuntimeConfig* config);

// Parses a watchdog period: decimal seconds in [0, 86400] ("0.25", "5"), in milliseconds
// (rounded up, so any positive value is at least 1 ms). kParseFile otherwise.
Result<uint32_t> ParseWatchdogSeconds(const std::string& text);

// Parses an ASCEND_RT_VISIBLE_DEVICES value: comma-separated logical ids; parsing stops at
// the first invalid entry (CANN). Returns the ids in order.
std::vector<uint32_t> ParseVisibleDevices(const std::string& value);

}  // namespace aclsim::core
