// Logging as CANN's application log ("plog") does it, on top of spdlog sinks.
//
// What a CANN user sees, and what we reproduce:
//  * Levels 0 DEBUG, 1 INFO, 2 WARNING, 3 ERROR, 4 NULL (off), per module, from
//    ASCEND_GLOBAL_LOG_LEVEL (default 3) and ASCEND_MODULE_LOG_LEVEL; EVENT logs on a
//    separate switch (ASCEND_GLOBAL_EVENT_ENABLE, default on).
//  * Lines formatted as CANN's log library formats them (see "Line format" below).
//  * Files under <root>/debug/plog/ (DEBUG..ERROR) and <root>/run/plog/ (EVENT), one
//    file set per process, named plog-<pid>_<YYYYMMDDhhmmssmmm>.log, each at most 20 MB;
//    when a file is full a new timestamped file is started and the oldest of this
//    process beyond ASCEND_HOST_LOG_FILE_NUM is deleted (plog_file_sink.h).
//  * ASCEND_LOG_PRINT_TO_STDOUT=1 (or the deprecated ASCEND_SLOG_PRINT_TO_STDOUT=1)
//    prints every line to stdout instead; no file or directory is created.
//
// Environment variables honoured (read once, at InitLogging() or at the first log call;
// ReloadLogConfigForTest() reads them again). Sources: hiascend.com CANN 8.x/9.x
// "Environment Variables > Log" reference pages (envref_07_0120..0126, envref_07_0007)
// and the CANN log library sources (dlog_console.c: stdout switch, dlog_message.c: line
// head and run/debug routing, dlog_core.c: EVENT gating) -- read for facts, not copied.
//
// clang-format off
// | Variable                    | Values, default        | Effect                                 |
// |-----------------------------|------------------------|----------------------------------------|
// | ASCEND_GLOBAL_LOG_LEVEL     | 0..4, default 3        | level of every module; invalid -> 3    |
// | ASCEND_MODULE_LOG_LEVEL     | MOD=lvl[:MOD=lvl...]   | per-module level, wins over the global |
// |                             | e.g. RUNTIME=0:GE=1    | one. A malformed entry or an unknown   |
// |                             |                        | module name rejects the WHOLE value    |
// |                             |                        | (as CANN documents); warning on stderr |
// | ASCEND_GLOBAL_EVENT_ENABLE  | 0 / 1, default 1       | EVENT lines on/off (module levels do   |
// |                             |                        | not apply to EVENT, as in CANN)        |
// | ASCEND_LOG_PRINT_TO_STDOUT  | 0 / 1, default 0       | 1 = lines to stdout, no files. If set  |
// |                             |                        | at all it wins over the next one       |
// | ASCEND_SLOG_PRINT_TO_STDOUT | 0 / 1, default 0       | deprecated name; read only if the      |
// |                             |                        | variable above is unset                |
// | ASCEND_PROCESS_LOG_PATH     | directory              | log root (highest precedence)          |
// | ASCEND_WORK_PATH            | directory              | log root = $ASCEND_WORK_PATH/log       |
// | HOME                        | directory              | log root = $HOME/ascend/log (default)  |
// | ASCEND_HOST_LOG_FILE_NUM    | 1..1000, default 10    | files kept per process per directory   |
// | ASCEND_LOG_SYNC_SAVE        | 0 / 1, default 0       | 1 = flush every line (none lost in a   |
// |                             |                        | crash); 0 = flush on WARNING, ERROR,   |
// |                             |                        | EVENT, FlushLogs() and at exit         |
// Invalid values (other than described above) keep the default and print a warning on stderr.
//
// Line format (CANN's log library: "[%s] %s(%d,%s):%s " = level, module, pid, process name,
// timestamp; then the caller's "[file:line]tid func: " prefix; checked against real plogs):
//   [ERROR] ASCENDCL(12345,app):2026-12-01-08:40:57.123.456 [memory.cc:123]12350 aclrtMalloc: msg
// clang-format on
//   - level names DEBUG, INFO, WARNING, ERROR, EVENT; process name = basename of argv[0]
//   - timestamp: local time yyyy-mm-dd-hh:mm:ss.mmm.uuu (milliseconds.microseconds)
//   - file is the basename of the source file; tid is the kernel thread id (gettid)
//
// Failure policy: logging never throws and never crashes. If the log directory or file
// cannot be created, the lines go to stderr instead (silently, from then on).
//
// Thread-safety: every function here may be called from any thread at any time.
// LogEnabled() is a few relaxed atomic loads; a disabled ACLSIM_LOG_DEBUG costs that and
// nothing else (the arguments are not evaluated).
#pragma once

#include <fmt/format.h>

#include <atomic>
#include <cstdarg>
#include <cstdint>
#include <string_view>
#include <utility>

namespace aclsim::dfx {

// Modules, named as CANN's log_types.h names them (SIM is ours: the simulated NPU).
enum class Module : uint8_t {
  kAscendCl = 0,  // "ASCENDCL": the C API layer
  kRuntime,       // "RUNTIME":  core runtime (devices, streams, events, memory)
  kDrv,           // "DRV":      driver interface
  kSim,           // "SIM":      simulated NPU backend
  kProfiling,     // "PROFILING"
  kApp,           // "APP":      user application (aclAppLog)
  kGe,            // "GE":       model loading / graph engine
  kTbe,           // "TBE":      op compilation
  kCount
};
inline constexpr int kModuleCount = static_cast<int>(Module::kCount);

// Levels, valued as CANN's DLOG_* constants (DLOG_EVENT is 0x10).
enum class Level : int8_t {
  kDebug = 0,
  kInfo = 1,
  kWarning = 2,
  kError = 3,
  kNull = 4,  // as a threshold: nothing is printed; as a line level: never printed
  kEvent = 0x10,
};

// "ASCENDCL", "RUNTIME", ...; "DEBUG", "INFO", "WARNING", "ERROR", "NULL", "EVENT".
const char* ModuleName(Module module);
const char* LevelName(Level level);

// Reads the environment (once). Called implicitly by the first LogEnabled/LogWrite.
void InitLogging();

// Flushes any buffered file output. Also registered with atexit() by InitLogging().
void FlushLogs();

// Test hooks: re-read the environment now (flushes and closes the current files; later
// lines go to new files under the new root); cap each file at `bytes` (default 20 MB;
// takes effect at the next reload). Not for production code paths.
void ReloadLogConfigForTest();
void SetMaxLogFileSizeForTest(size_t bytes);

namespace detail {
// Published thresholds; written only under the config lock, read lock-free.
struct LevelTable {
  std::atomic<bool> initialized{false};
  std::atomic<bool> event_enabled{true};
  std::atomic<int8_t> level[kModuleCount];
};
extern LevelTable g_levels;
bool LogEnabledSlow(Module module, Level level);
}  // namespace detail

// True if a line of `level` from `module` would be printed.
inline bool LogEnabled(Module module, Level level) {
  if (!detail::g_levels.initialized.load(std::memory_order_acquire)) {
    return detail::LogEnabledSlow(module, level);
  }
  if (level == Level::kEvent) return detail::g_levels.event_enabled.load(std::memory_order_relaxed);
  const auto m = static_cast<unsigned>(module);
  if (m >= static_cast<unsigned>(kModuleCount) || level < Level::kDebug || level >= Level::kNull) {
    return false;
  }
  return static_cast<int8_t>(level) >= detail::g_levels.level[m].load(std::memory_order_relaxed);
}

// Writes one line (no level check; callers check LogEnabled first). `file` may be a
// path (its basename is printed); `func` may be null (then no "func: " is printed).
// Trailing newlines of `msg` are dropped; the line gets exactly one. Never throws.
void LogWrite(Module module, Level level, const char* file, int line, const char* func,
              std::string_view msg) noexcept;

// aclAppLog: printf-style `fmt` with `args`, level ACL_DEBUG..ACL_ERROR (0..3; others are
// ignored), printed under module APP. As in CANN, the line is printed only if both the
// ASCENDCL and the APP module levels let it through. Null fmt/func/file: nothing printed.
void AppLog(int level, const char* func, const char* file, uint32_t line, const char* fmt,
            va_list args) noexcept;

namespace detail {
template <typename... Args>
void FormatAndWrite(Module module, Level level, const char* file, int line, const char* func,
                    fmt::format_string<Args...> format, Args&&... args) noexcept {
  try {
    fmt::memory_buffer buf;
    fmt::format_to(std::back_inserter(buf), format, std::forward<Args>(args)...);
    LogWrite(module, level, file, line, func, std::string_view(buf.data(), buf.size()));
  } catch (...) {
    // Out of memory while formatting a log line: drop the line, never throw.
  }
}
}  // namespace detail

}  // namespace aclsim::dfx

// ACLSIM_LOG_ERROR(Module::kRuntime, "malloc of {} bytes failed", size);
// The first argument is an aclsim::dfx::Module; the rest is an fmt format string (checked
// at compile time) and its arguments, evaluated only if the line is enabled.
#define ACLSIM_LOG_AT(module, level, ...)                                                    \
  do {                                                                                       \
    if (::aclsim::dfx::LogEnabled((module), (level))) {                                      \
      ::aclsim::dfx::detail::FormatAndWrite((module), (level), __FILE__, __LINE__, __func__, \
                                            __VA_ARGS__);                                    \
    }                                                                                        \
  } while (false)

#define ACLSIM_LOG_DEBUG(module, ...) \
  ACLSIM_LOG_AT(module, ::aclsim::dfx::Level::kDebug, __VA_ARGS__)
#define ACLSIM_LOG_INFO(module, ...) ACLSIM_LOG_AT(module, ::aclsim::dfx::Level::kInfo, __VA_ARGS__)
#define ACLSIM_LOG_WARN(module, ...) \
  ACLSIM_LOG_AT(module, ::aclsim::dfx::Level::kWarning, __VA_ARGS__)
#define ACLSIM_LOG_ERROR(module, ...) \
  ACLSIM_LOG_AT(module, ::aclsim::dfx::Level::kError, __VA_ARGS__)
#define ACLSIM_LOG_EVENT(module, ...) \
  ACLSIM_LOG_AT(module, ::aclsim::dfx::Level::kEvent, __VA_ARGS__)
