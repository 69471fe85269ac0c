// Runs a program under msprof --application (MSPROF_PATH, a compile definition of the test) and
// reads what the run wrote: shared by the tests that profile the examples.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace aclsim::dfx::prof::msprof_run {

namespace fs = std::filesystem;

inline std::string ReadText(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The generated file of `run` whose name starts with `prefix`.
inline fs::path OutputFile(const fs::path& run, const std::string& prefix) {
  for (const auto& e : fs::directory_iterator(run / "mindstudio_profiler_output")) {
    if (e.path().filename().string().rfind(prefix, 0) == 0) return e.path();
  }
  return {};
}

// One msprof run in a fresh scratch directory, removed when this goes away.
struct ProfiledRun {
  fs::path dir;            // the --output directory
  fs::path run;            // its PROF_* run directory (empty if msprof made none)
  std::string log;         // msprof's and the program's output
  bool exited_ok = false;  // msprof exited with status 0

  ProfiledRun() = default;
  ProfiledRun(const ProfiledRun&) = delete;
  ProfiledRun& operator=(const ProfiledRun&) = delete;
  ~ProfiledRun() {
    std::error_code ignored;
    if (!dir.empty()) fs::remove_all(dir, ignored);
  }
};

// Runs `application` under msprof with its output in a scratch directory named after `tag`.
inline void ProfileApplication(const std::string& application, const std::string& tag,
                               ProfiledRun* out) {
  out->dir = fs::temp_directory_path() / ("aclsim_profile_" + tag + "_" + std::to_string(getpid()));
  fs::remove_all(out->dir);
  fs::create_directories(out->dir);
  const std::string command = std::string(MSPROF_PATH) + " --application=" + application +
                              " --output=" + out->dir.string() + " > " +
                              (out->dir / "log").string() + " 2>&1";
  const int status = std::system(command.c_str());
  out->exited_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  out->log = ReadText(out->dir / "log");
  for (const auto& e : fs::directory_iterator(out->dir)) {
    if (e.path().filename().string().rfind("PROF_", 0) == 0) out->run = e.path();
  }
}

// Task id -> the number of its slices in the run's timeline (event tasks: instants).
inline std::map<uint64_t, int> TaskSlices(const fs::path& run) {
  const auto timeline = nlohmann::json::parse(ReadText(OutputFile(run, "msprof_")));
  std::map<uint64_t, int> slices;
  for (const auto& e : timeline["traceEvents"]) {
    if ((e["ph"] == "X" || e["ph"] == "i") && e.value("cat", "") == "task") {
      ++slices[e["args"]["task id"].get<uint64_t>()];
    }
  }
  return slices;
}

}  // namespace aclsim::dfx::prof::msprof_run
