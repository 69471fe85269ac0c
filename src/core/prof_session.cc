// The profiling session of the process (core/prof_session.h).
#include "core/prof_session.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>

#include "core/runtime.h"
#include "dfx/log.h"
#include "dfx/prof_export.h"
#include "dfx/profiler.h"

namespace aclsim::core::prof {
namespace {

using dfx::prof::Profiler;

enum class Mode { kOff, kConfig, kApi };

struct Session {
  std::mutex mu;
  Mode mode = Mode::kOff;
  std::string output;          // where the run goes
  bool started = false;        // collecting (between Start and Stop)
  dfx::prof::Trace collected;  // records of earlier Start/Stop pairs of this run
  dfx::prof::RunInfo info;
};

Session& session() {
  static Session* s = new Session();  // never destroyed: aclFinalize may run at exit
  return *s;
}

std::string Command() {
  std::ifstream in("/proc/self/cmdline");
  std::string first;
  std::getline(in, first, '\0');
  return first;
}

std::string Now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%d %H:%M:%S", &tm);
  return text;
}

dfx::prof::RunInfo MakeInfo(const RunOptions& options) {
  dfx::prof::RunInfo info;
  info.pid = static_cast<uint32_t>(::getpid());
  info.command = Command();
  info.start_time = Now();
  info.aic_metrics = options.aic_metrics;
  info.data_types = options.data_types;
  if (auto runtime = Runtime::Current(); runtime.ok() && (*runtime)->device_count() > 0) {
    if (auto props = (*runtime)->DeviceProps(0); props.ok()) info.soc_version = props->soc_name;
  }
  return info;
}

void Append(dfx::prof::Trace&& from, dfx::prof::Trace* to) {
  auto move_all = [](auto& src, auto& dst) {
    dst.insert(dst.end(), std::make_move_iterator(src.begin()), std::make_move_iterator(src.end()));
  };
  move_all(from.tasks, to->tasks);
  move_all(from.apis, to->apis);
  move_all(from.marks, to->marks);
  move_all(from.memory, to->memory);
}

// Ends collection: every traced task's time is known first.
void StopLocked(Session& s) {
  if (!s.started) return;
  if (auto runtime = Runtime::Current(); runtime.ok()) (*runtime)->FlushTaskTraces();
  Profiler::Get().Stop();
  Append(Profiler::Get().Take(), &s.collected);
  s.started = false;
}

Status StartLocked(Session& s, const RunOptions& options) {
  ACLSIM_RETURN_IF_ERROR(Profiler::Get().Start(MakeInfo(options)));
  if (s.collected.info.pid == 0) s.collected.info = MakeInfo(options);
  s.started = true;
  return Status::Ok();
}

Status WriteLocked(Session& s) {
  dfx::prof::Trace trace = std::move(s.collected);
  s.collected = dfx::prof::Trace{};
  ACLSIM_ASSIGN_OR_RETURN(std::string run_dir, dfx::prof::NewRunDir(s.output));
  ACLSIM_RETURN_IF_ERROR(dfx::prof::SaveRun(trace, run_dir));
  ACLSIM_LOG_INFO(dfx::Module::kProfiling, "profiling data of {} tasks written to {}",
                  trace.tasks.size(), run_dir);
  return Status::Ok();
}

// "on" / "true" / "1" (the profiler options' switch values).
bool IsOn(const nlohmann::json& value) {
  if (value.is_boolean()) return value.get<bool>();
  if (!value.is_string()) return false;
  const auto text = value.get<std::string>();
  return text == "on" || text == "true" || text == "1";
}

// The options object of the JSON "profiler" key or PROFILING_OPTIONS.
Status ParseOptions(const nlohmann::json& options, const char* origin, std::string* output,
                    RunOptions* run) {
  if (!options.is_object()) {
    return Err(StatusCode::kInvalidProfilingConfig, "{}: the profiling options must be an object",
               origin);
  }
  if (auto it = options.find("output"); it != options.end()) {
    if (!it->is_string() || it->get<std::string>().empty()) {
      return Err(StatusCode::kInvalidProfilingConfig,
                 "{}: \"output\" must be a non-empty directory path", origin);
    }
    *output = it->get<std::string>();
  }
  static const std::pair<const char*, uint64_t> kSwitches[] = {
      {"ascendcl", 0x0001}, {"task_time", 0x0002}, {"aicpu", 0x0008},      {"l2", 0x0010},
      {"hccl", 0x0020},     {"msproftx", 0x0080},  {"runtime_api", 0x0100}};
  run->data_types = 0x0001 | 0x0002;  // API calls and task times are always collected
  for (const auto& [key, bit] : kSwitches) {
    if (auto it = options.find(key); it != options.end() && IsOn(*it)) run->data_types |= bit;
  }
  return Status::Ok();
}

}  // namespace

Status StartFromConfig(const std::string& json_text) {
  std::string output = ".";
  RunOptions run;
  bool on = false;
  if (!json_text.empty()) {
    const auto json = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
    if (json.is_object()) {
      if (auto it = json.find("profiler"); it != json.end()) {
        if (!it->is_object()) {
          return Err(StatusCode::kInvalidProfilingConfig,
                     "aclInit config: \"profiler\" must be an object");
        }
        const auto sw = it->find("switch");
        on = sw != it->end() && IsOn(*sw);
        if (on) ACLSIM_RETURN_IF_ERROR(ParseOptions(*it, "aclInit \"profiler\"", &output, &run));
      }
    }
  }
  const char* mode = std::getenv("PROFILING_MODE");
  if (!on && mode != nullptr && std::string(mode) == "true") {
    on = true;
    const char* options = std::getenv("PROFILING_OPTIONS");
    if (options != nullptr && *options != '\0') {
      const auto json = nlohmann::json::parse(options, nullptr, /*allow_exceptions=*/false);
      if (json.is_discarded()) {
        return Err(StatusCode::kInvalidProfilingConfig, "PROFILING_OPTIONS is not valid JSON: {}",
                   options);
      }
      ACLSIM_RETURN_IF_ERROR(ParseOptions(json, "PROFILING_OPTIONS", &output, &run));
    }
  }
  if (!on) return Status::Ok();
  Session& s = session();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.mode != Mode::kOff) return Status::Ok();  // a run of an earlier aclInit is still open
  s.mode = Mode::kConfig;
  s.output = output;
  s.collected = dfx::prof::Trace{};
  ACLSIM_RETURN_IF_ERROR(StartLocked(s, run));
  ACLSIM_LOG_INFO(dfx::Module::kProfiling, "profiling on (aclInit config / PROFILING_MODE): {}",
                  output);
  return Status::Ok();
}

void FinishAtFinalize() {
  Session& s = session();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.mode == Mode::kOff) return;
  StopLocked(s);
  const Status written = WriteLocked(s);
  if (!written.ok()) {
    ACLSIM_LOG_ERROR(dfx::Module::kProfiling, "profiling data not written: {}", written.message());
  }
  s.mode = Mode::kOff;
}

Status Init(const std::string& output_dir) {
  Session& s = session();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.mode == Mode::kConfig) {
    return Err(StatusCode::kProfApiConflict,
               "profiling is on through the aclInit config or PROFILING_MODE; the aclprof API "
               "cannot be used at the same time");
  }
  if (s.mode == Mode::kApi) {
    return Err(StatusCode::kRepeatInitialize,
               "aclprofInit was already called (aclprofFinalize "
               "first)");
  }
  s.mode = Mode::kApi;
  s.output = output_dir;
  s.collected = dfx::prof::Trace{};
  return Status::Ok();
}

Status Start(const RunOptions& options) {
  Session& s = session();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.mode != Mode::kApi) {
    return Err(StatusCode::kProfNotRun, "profiling is not initialised: call aclprofInit first");
  }
  if (s.started) {
    return Err(StatusCode::kProfAlreadyRun, "profiling is already started (aclprofStop first)");
  }
  return StartLocked(s, options);
}

Status Stop() {
  Session& s = session();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.mode != Mode::kApi || !s.started) {
    return Err(StatusCode::kProfNotRun, "profiling is not started: call aclprofStart first");
  }
  StopLocked(s);
  return Status::Ok();
}

Status Finalize() {
  Session& s = session();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.mode != Mode::kApi) {
    return Err(StatusCode::kProfNotRun, "profiling is not initialised: call aclprofInit first");
  }
  StopLocked(s);
  s.mode = Mode::kOff;
  return WriteLocked(s);
}

bool Collecting() { return Profiler::Get().active(); }

uint64_t HostClockNs() {
  auto runtime = Runtime::Current();
  return runtime.ok() ? (*runtime)->HostClockNs() : 0;
}

}  // namespace aclsim::core::prof
