// msprof: the profiling command, as CANN's msprof is used.
//
//   msprof --application="./app args" [--output=DIR] [--ascendcl=on] [--task-time=on] ...
//     runs the application (/bin/sh -c) with PROFILING_MODE=true and PROFILING_OPTIONS=<JSON
//     of the switches>; the runtime writes a PROF_* run directory under DIR (aclInit reads the
//     variables, aclFinalize saves the run). Prints each new run directory and its summary;
//     exits with the application's exit status (128+N if a signal N ended it), or 1 if the
//     application left no new run directory.
//   msprof --export=on [--output=DIR]
//     regenerates mindstudio_profiler_output/ of every PROF_* directory under DIR (or of DIR
//     itself) from its raw data; exit status 1 if any run has no or malformed raw data.
// docs/profiling.md, section "msprof", lists the switches.
#include <sys/wait.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "common/guarded_main.h"
#include "dfx/prof_export.h"

namespace {

namespace fs = std::filesystem;
namespace prof = aclsim::dfx::prof;

constexpr const char* kFooter = R"(Modes:
  msprof --application="./app args" [--output=DIR] [switches]
      Runs the application through /bin/sh -c with PROFILING_MODE=true and
      PROFILING_OPTIONS set to a JSON object of the switches ("output" is DIR made
      absolute, other keys are the switch names with '_' for '-'). The runtime writes
      DIR/PROF_<seq>_<time>_<id>/ (raw data in host/data, the generated files in
      mindstudio_profiler_output). msprof then prints every new run directory and its
      summary and exits with the application's exit status (1 if no run directory was
      made).
  msprof --export=on [--output=DIR]
      Regenerates mindstudio_profiler_output/ of every PROF_* directory in DIR (or of DIR
      if it is one) from host/data/aclsim_trace.jsonl.
Switches that aclsim does not simulate (system sampling, HCCL, L2, DVPP, ...) are accepted
and passed on in PROFILING_OPTIONS; unknown switches are refused.)";

int Fail(int code, const std::string& message) {
  std::fprintf(stderr, "msprof: %s\n", message.c_str());
  return code;
}

bool IsRunDir(const fs::path& path) {
  return path.filename().string().rfind("PROF_", 0) == 0 && fs::is_directory(path);
}

// The PROF_* directories directly in `dir`, by name.
std::set<std::string> RunDirsIn(const fs::path& dir) {
  std::set<std::string> runs;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    if (IsRunDir(it->path())) runs.insert(it->path().filename().string());
  }
  return runs;
}

// A switch: its default ("" = only passed on when given) and the values it accepts (empty:
// any).
struct Switch {
  const char* name;
  const char* default_value;
  std::vector<std::string> values;
  const char* help;
};

const std::vector<std::string> kOnOff = {"on", "off"};

std::vector<Switch> Switches() {
  return {
      {"ascendcl", "on", kOnOff, "AscendCL API calls"},
      {"runtime-api", "on", kOnOff, "runtime API calls (host API track, api_statistic)"},
      {"task-time", "on", {"on", "off", "l0", "l1"}, "device task times (op_summary, task_time)"},
      {"ai-core", "on", kOnOff, "AI Core metrics"},
      {"aic-metrics",
       "PipeUtilization",
       {"PipeUtilization", "ArithmeticUtilization", "Memory", "MemoryL0", "MemoryUB",
        "ResourceConflictRatio", "L2Cache", "MemoryAccess"},
       "AI Core metric group"},
      {"aic-mode", "", {"task-based", "sample-based"}, "AI Core sampling mode"},
      {"aic-freq", "", {}, "AI Core sampling frequency (Hz)"},
      {"aicpu", "off", kOnOff, "AI CPU tasks"},
      {"model-execution", "off", kOnOff, "model execution steps"},
      {"msproftx", "on", kOnOff, "markers and ranges (aclprofMark, aclprofPush/Pop, ...)"},
      {"sys-hardware-mem", "off", kOnOff, "device memory usage (the memory counter track)"},
      {"sys-hardware-mem-freq", "", {}, "memory sampling frequency (Hz)"},
      {"ge-api", "", {"off", "l0", "l1"}, "graph engine API (accepted, not simulated)"},
      {"hccl", "", kOnOff, "collective communication (accepted, not simulated)"},
      {"l2", "", kOnOff, "L2 cache hit rate (accepted, not simulated)"},
      {"sys-profiling", "", kOnOff, "system CPU/memory sampling (accepted, not simulated)"},
      {"sys-sampling-freq", "", {}, "(accepted, not simulated)"},
      {"sys-pid-profiling", "", kOnOff, "(accepted, not simulated)"},
      {"sys-pid-sampling-freq", "", {}, "(accepted, not simulated)"},
      {"sys-cpu-profiling", "", kOnOff, "(accepted, not simulated)"},
      {"sys-cpu-freq", "", {}, "(accepted, not simulated)"},
      {"sys-io-profiling", "", kOnOff, "(accepted, not simulated)"},
      {"sys-io-sampling-freq", "", {}, "(accepted, not simulated)"},
      {"sys-interconnection-profiling", "", kOnOff, "(accepted, not simulated)"},
      {"sys-interconnection-freq", "", {}, "(accepted, not simulated)"},
      {"dvpp-profiling", "", kOnOff, "(accepted, not simulated)"},
      {"dvpp-freq", "", {}, "(accepted, not simulated)"},
      {"host-sys", "", {}, "host system sampling: cpu,mem,disk,network,osrt (accepted)"},
      {"storage-limit", "", {}, "size limit of the output, e.g. 200MB (accepted)"},
      {"type", "", {"text", "db"}, "export type (text only)"},
      {"summary-format", "", {"csv", "json"}, "summary format (csv only)"},
      {"iteration-id", "", {}, "export: iteration (accepted, all are exported)"},
      {"model-id", "", {}, "export: model (accepted, all are exported)"},
      {"delay", "", {}, "start delay in seconds (accepted)"},
      {"duration", "", {}, "collection duration in seconds (accepted)"},
      {"python-path", "", {}, "python for export (not needed)"},
  };
}

int RunApplication(const std::string& application, const fs::path& output,
                   const nlohmann::ordered_json& options) {
  std::error_code error;
  fs::create_directories(output, error);
  if (error) return Fail(1, "cannot create " + output.string() + ": " + error.message());
  const std::set<std::string> before = RunDirsIn(output);
  setenv("PROFILING_MODE", "true", 1);
  setenv("PROFILING_OPTIONS", options.dump().c_str(), 1);
  std::fflush(stdout);
  const int status = std::system(application.c_str());  // NOLINT(cert-env33-c): its purpose
  if (status == -1) return Fail(1, "cannot run the application: " + application);
  int code = 1;
  if (WIFEXITED(status)) code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) code = 128 + WTERMSIG(status);

  std::vector<std::string> made;
  for (const std::string& run : RunDirsIn(output)) {
    if (before.count(run) == 0) made.push_back(run);
  }
  if (made.empty()) {
    Fail(1, "the application (exit status " + std::to_string(code) +
                ") made no profiling run directory in " + output.string() +
                " (does it call aclInit/aclFinalize?)");
    return code != 0 ? code : 1;
  }
  for (const std::string& name : made) {
    const fs::path run = output / name;
    std::cout << "Profiling run: " << run.string() << "\n";
    auto trace = prof::ReadRaw(prof::RawPathOf(run.string()));
    if (!trace.ok()) {
      Fail(0, trace.status().message());
      continue;
    }
    std::cout << prof::SummaryText(*trace) << "\n";
  }
  return code;
}

int Export(const fs::path& output) {
  std::vector<fs::path> runs;
  if (IsRunDir(output)) {
    runs.push_back(output);
  } else {
    for (const std::string& name : RunDirsIn(output)) runs.push_back(output / name);
  }
  if (runs.empty()) return Fail(1, "no PROF_* run directory in " + output.string());
  int failed = 0;
  for (const fs::path& run : runs) {
    auto trace = prof::ReadRaw(prof::RawPathOf(run.string()));
    aclsim::Status exported = trace.ok() ? prof::ExportRun(*trace, run.string()) : trace.status();
    if (!exported.ok()) {
      Fail(0, exported.message());
      ++failed;
      continue;
    }
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(run / "mindstudio_profiler_output")) {
      files.push_back(entry.path().filename().string());
    }
    std::sort(files.begin(), files.end());
    std::cout << "Exported " << run.string() << ":\n";
    for (const std::string& file : files) {
      std::cout << "  mindstudio_profiler_output/" << file << "\n";
    }
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace

static int RunTool(int argc, char** argv) {
  CLI::App app{"msprof (aclsim): profiles an AscendCL application or re-exports its data."};
  app.footer(kFooter);
  std::string application;
  std::string output;
  std::string export_switch = "off";
  app.add_option("--application", application, "the command to profile (run by /bin/sh -c)");
  app.add_option("--output", output, "where run directories go (default: the current directory)");
  app.add_option("--export", export_switch, "on: regenerate the outputs of recorded runs")
      ->check(CLI::IsMember(kOnOff));
  const std::vector<Switch> switches = Switches();
  std::map<std::string, std::string> values;
  std::vector<std::pair<const Switch*, CLI::Option*>> options;
  for (const Switch& s : switches) {
    std::string help = s.help;
    if (*s.default_value != '\0') help += std::string(" (default ") + s.default_value + ")";
    CLI::Option* option = app.add_option(std::string("--") + s.name, values[s.name], help);
    if (!s.values.empty()) option->check(CLI::IsMember(s.values));
    options.emplace_back(&s, option);
  }
  CLI11_PARSE(app, argc, argv);

  std::error_code error;
  fs::path out = output.empty() ? fs::current_path(error) : fs::absolute(output, error);
  if (error) return Fail(1, "bad --output: " + error.message());
  out = out.lexically_normal();
  if (out.has_filename() == false && out.has_parent_path()) out = out.parent_path();

  const bool exporting = export_switch == "on";
  if (exporting && !application.empty())
    return Fail(1, "give --application or --export=on, not both");
  if (exporting) return Export(out);
  if (application.empty())
    return Fail(1, "nothing to do: give --application=\"CMD\" or --export=on (see --help)");

  nlohmann::ordered_json profiling = {{"output", out.string()}};
  for (const auto& [s, option] : options) {
    std::string key = s->name;
    std::replace(key.begin(), key.end(), '-', '_');
    if (option->count() > 0) {
      profiling[key] = values[s->name];
    } else if (*s->default_value != '\0') {
      profiling[key] = s->default_value;
    }
  }
  return RunApplication(application, out, profiling);
}

int main(int argc, char** argv) {
  return aclsim::GuardedMain("msprof", 1, [&] { return RunTool(argc, argv); });
}
