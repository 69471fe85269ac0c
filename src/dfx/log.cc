#include "dfx/log.h"

#include <errno.h>
#include <pthread.h>
#include <spdlog/details/log_msg.h>
#include <spdlog/sinks/sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

#include "dfx/log_config.h"
#include "dfx/log_line.h"
#include "dfx/plog_file_sink.h"

namespace aclsim::dfx {

namespace detail {
LevelTable g_levels;
}  // namespace detail

namespace {

// Everything behind the level table. Leaked on purpose: lines logged from other static
// destructors or from threads still running at exit must find it alive.
struct LoggerState {
  std::mutex mu;  // guards all members and serialises every write
  LogConfig config;
  std::shared_ptr<spdlog::sinks::sink> debug_sink;  // DEBUG..ERROR lines
  std::shared_ptr<spdlog::sinks::sink> run_sink;    // EVENT lines
  std::shared_ptr<PlogFileSink> debug_file;         // == debug_sink in file mode, else null
  std::shared_ptr<PlogFileSink> run_file;           // == run_sink in file mode, else null
  size_t max_file_size = kDefaultMaxLogFileSize;
  bool process_hooks_registered = false;
};

LoggerState& State() {
  static LoggerState* state = new LoggerState;
  return *state;
}

std::atomic<pid_t> g_pid{0};

pid_t CurrentPid() {
  pid_t pid = g_pid.load(std::memory_order_relaxed);
  if (pid == 0) {
    pid = getpid();
    g_pid.store(pid, std::memory_order_relaxed);
  }
  return pid;
}

pid_t CurrentTid() {
  struct Cached {
    pid_t pid = 0;
    pid_t tid = 0;
  };
  thread_local Cached cached;
  const pid_t pid = CurrentPid();
  if (cached.pid != pid) {  // first use on this thread, or a forked child
    cached.pid = pid;
    cached.tid = gettid();
  }
  return cached.tid;
}

const char* ProcessName() {
  const char* name = program_invocation_short_name;
  return (name != nullptr && name[0] != '\0') ? name : "None";
}

const char* BaseName(const char* path) {
  if (path == nullptr) return "";
  const char* slash = std::strrchr(path, '/');
  return slash != nullptr ? slash + 1 : path;
}

// Configuration problems go to stderr (they are about logging itself, so the log may be
// exactly what does not work), in the line format, under CANN's "SLOG" module.
void ReportConfigWarnings(const LogConfig& config) {
  for (const std::string& warning : config.warnings) {
    fmt::memory_buffer buf;
    FormatLogLine(&buf, "SLOG", Level::kWarning, __FILE__, __LINE__, "ReadLogConfig", warning);
    buf.push_back('\n');
    std::fwrite(buf.data(), 1, buf.size(), stderr);
  }
}

void FlushLocked(LoggerState& state) {
  try {
    if (state.debug_sink) state.debug_sink->flush();
    if (state.run_sink && state.run_sink != state.debug_sink) state.run_sink->flush();
  } catch (...) {
  }
}

void ApplyConfigLocked(LoggerState& state, LogConfig config) {
  FlushLocked(state);
  state.debug_file.reset();
  state.run_file.reset();
  if (config.print_to_stdout) {
    auto out = std::make_shared<spdlog::sinks::stdout_sink_st>();
    out->set_pattern("%v");
    state.debug_sink = out;
    state.run_sink = out;
  } else {
    const pid_t pid = CurrentPid();
    state.debug_file = std::make_shared<PlogFileSink>(
        config.root_dir + "/debug/plog", state.max_file_size, config.host_log_file_num, pid);
    state.run_file = std::make_shared<PlogFileSink>(
        config.root_dir + "/run/plog", state.max_file_size, config.host_log_file_num, pid);
    state.debug_sink = state.debug_file;
    state.run_sink = state.run_file;
  }
  for (int i = 0; i < kModuleCount; ++i) {
    detail::g_levels.level[i].store(config.module_level[i], std::memory_order_relaxed);
  }
  detail::g_levels.event_enabled.store(config.event_enabled, std::memory_order_relaxed);
  state.config = std::move(config);
  detail::g_levels.initialized.store(true, std::memory_order_release);
}

// fork(): no other thread may hold the lock in the child, and buffered lines must not be
// written twice (once by each process).
void BeforeFork() {
  State().mu.lock();
  FlushLocked(State());
}
void AfterForkInParent() { State().mu.unlock(); }
void AfterForkInChild() {
  LoggerState& state = State();
  const pid_t pid = getpid();
  g_pid.store(pid, std::memory_order_relaxed);
  if (state.debug_file) state.debug_file->ResetForChild(pid);
  if (state.run_file) state.run_file->ResetForChild(pid);
  state.mu.unlock();
}

void AtExit() { FlushLogs(); }

void InitLocked(LoggerState& state) {
  if (detail::g_levels.initialized.load(std::memory_order_acquire)) return;
  LogConfig config = ReadLogConfigFromEnv();
  ReportConfigWarnings(config);
  ApplyConfigLocked(state, std::move(config));
  if (!state.process_hooks_registered) {
    state.process_hooks_registered = true;
    std::atexit(AtExit);
    pthread_atfork(BeforeFork, AfterForkInParent, AfterForkInChild);
  }
}

spdlog::level::level_enum SpdLevel(Level level) {
  switch (level) {
    case Level::kDebug:
      return spdlog::level::debug;
    case Level::kInfo:
      return spdlog::level::info;
    case Level::kWarning:
      return spdlog::level::warn;
    case Level::kError:
      return spdlog::level::err;
    default:
      return spdlog::level::info;
  }
}

}  // namespace

// [LEVEL] MODULE(pid,pname):yyyy-mm-dd-hh:mm:ss.mmm.uuu [file:line]tid func: msg
void FormatLogLine(fmt::memory_buffer* out, const char* module_name, Level level, const char* file,
                   int line, const char* func, std::string_view msg) {
  struct timespec now {};
  clock_gettime(CLOCK_REALTIME, &now);
  // localtime_r takes a global lock; a thread logs many lines within one second.
  thread_local time_t cached_second = -1;
  thread_local struct tm cached_local {};
  if (now.tv_sec != cached_second) {
    localtime_r(&now.tv_sec, &cached_local);
    cached_second = now.tv_sec;
  }
  const struct tm& local = cached_local;
  const long micros = now.tv_nsec / 1000;
  while (!msg.empty() && (msg.back() == '\n' || msg.back() == '\r')) msg.remove_suffix(1);
  auto it = std::back_inserter(*out);
  fmt::format_to(it, "[{}] {}({},{}):{:04}-{:02}-{:02}-{:02}:{:02}:{:02}.{:03}.{:03} [{}:{}]{}",
                 LevelName(level), module_name, CurrentPid(), ProcessName(), local.tm_year + 1900,
                 local.tm_mon + 1, local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec,
                 micros / 1000, micros % 1000, BaseName(file), line, CurrentTid());
  if (func != nullptr && func[0] != '\0') {
    fmt::format_to(it, " {}: ", func);
  } else {
    fmt::format_to(it, " ");
  }
  out->append(msg.data(), msg.data() + msg.size());
}

const char* ModuleName(Module module) {
  switch (module) {
    case Module::kAscendCl:
      return "ASCENDCL";
    case Module::kRuntime:
      return "RUNTIME";
    case Module::kDrv:
      return "DRV";
    case Module::kSim:
      return "SIM";
    case Module::kProfiling:
      return "PROFILING";
    case Module::kApp:
      return "APP";
    case Module::kGe:
      return "GE";
    case Module::kTbe:
      return "TBE";
    case Module::kCount:
      break;
  }
  return "UNKNOWN";
}

const char* LevelName(Level level) {
  switch (level) {
    case Level::kDebug:
      return "DEBUG";
    case Level::kInfo:
      return "INFO";
    case Level::kWarning:
      return "WARNING";
    case Level::kError:
      return "ERROR";
    case Level::kNull:
      return "NULL";
    case Level::kEvent:
      return "EVENT";
  }
  return "UNKNOWN";
}

void InitLogging() {
  if (detail::g_levels.initialized.load(std::memory_order_acquire)) return;
  LoggerState& state = State();
  std::lock_guard<std::mutex> lock(state.mu);
  InitLocked(state);
}

bool detail::LogEnabledSlow(Module module, Level level) {
  InitLogging();
  return LogEnabled(module, level);
}

void LogWrite(Module module, Level level, const char* file, int line, const char* func,
              std::string_view msg) noexcept {
  if (level != Level::kEvent && (level < Level::kDebug || level >= Level::kNull)) return;
  if (static_cast<unsigned>(module) >= static_cast<unsigned>(kModuleCount)) return;
  try {
    InitLogging();
    fmt::memory_buffer buf;
    FormatLogLine(&buf, ModuleName(module), level, file, line, func, msg);
    const spdlog::details::log_msg record(spdlog::source_loc{}, spdlog::string_view_t(),
                                          SpdLevel(level),
                                          spdlog::string_view_t(buf.data(), buf.size()));

    LoggerState& state = State();
    std::lock_guard<std::mutex> lock(state.mu);
    spdlog::sinks::sink* sink = (level == Level::kEvent ? state.run_sink : state.debug_sink).get();
    if (sink == nullptr) return;
    sink->log(record);
    if (state.config.sync_save || level == Level::kEvent || level >= Level::kWarning) {
      sink->flush();
    }
  } catch (...) {
    // Logging never throws (allocation failure, a sink error): the line is lost.
  }
}

void AppLog(int level, const char* func, const char* file, uint32_t line, const char* fmt,
            va_list args) noexcept {
  if (fmt == nullptr || func == nullptr || file == nullptr) return;
  if (level < static_cast<int>(Level::kDebug) || level > static_cast<int>(Level::kError)) return;
  const auto lvl = static_cast<Level>(level);
  if (!LogEnabled(Module::kAscendCl, lvl) || !LogEnabled(Module::kApp, lvl)) return;
  try {
    char small[512];
    va_list probe;
    va_copy(probe, args);
    const int needed = std::vsnprintf(small, sizeof(small), fmt, probe);
    va_end(probe);
    if (needed < 0) {
      LogWrite(Module::kAscendCl, Level::kError, __FILE__, __LINE__, "aclAppLog",
               "aclAppLog format string is invalid");
      return;
    }
    if (static_cast<size_t>(needed) < sizeof(small)) {
      LogWrite(Module::kApp, lvl, file, static_cast<int>(line), func,
               std::string_view(small, static_cast<size_t>(needed)));
      return;
    }
    std::string big(static_cast<size_t>(needed) + 1, '\0');
    std::vsnprintf(big.data(), big.size(), fmt, args);
    big.resize(static_cast<size_t>(needed));
    LogWrite(Module::kApp, lvl, file, static_cast<int>(line), func, big);
  } catch (...) {
  }
}

void FlushLogs() {
  if (!detail::g_levels.initialized.load(std::memory_order_acquire)) return;
  LoggerState& state = State();
  std::lock_guard<std::mutex> lock(state.mu);
  FlushLocked(state);
}

void ReloadLogConfigForTest() {
  LoggerState& state = State();
  std::lock_guard<std::mutex> lock(state.mu);
  if (!detail::g_levels.initialized.load(std::memory_order_acquire)) {
    InitLocked(state);
    return;
  }
  LogConfig config = ReadLogConfigFromEnv();
  ReportConfigWarnings(config);
  ApplyConfigLocked(state, std::move(config));
}

void SetMaxLogFileSizeForTest(size_t bytes) {
  LoggerState& state = State();
  std::lock_guard<std::mutex> lock(state.mu);
  state.max_file_size = bytes == 0 ? kDefaultMaxLogFileSize : bytes;
}

}  // namespace aclsim::dfx
