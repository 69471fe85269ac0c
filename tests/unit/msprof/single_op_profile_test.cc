// The single-op examples (Add, Conv2D) run unmodified under msprof --application: the run's
// timeline has exactly one slice per device task, and its op_summary names the op.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "dfx/prof_export.h"

namespace aclsim::dfx::prof {
namespace {

namespace fs = std::filesystem;

std::string Read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

fs::path OutputFile(const fs::path& run, const std::string& prefix) {
  for (const auto& e : fs::directory_iterator(run / "mindstudio_profiler_output")) {
    if (e.path().filename().string().rfind(prefix, 0) == 0) return e.path();
  }
  return {};
}

// Profiles `application` and checks its timeline and op summary for `op_type`.
void ProfileAndCheck(const std::string& application, const std::string& op_type) {
  const fs::path dir = fs::temp_directory_path() /
                       ("aclsim_single_op_profile_" + op_type + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string command = std::string(MSPROF_PATH) + " --application=" + application +
                              " --output=" + dir.string() + " > " + (dir / "log").string() +
                              " 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << Read(dir / "log");
  EXPECT_NE(Read(dir / "log").find("PASSED"), std::string::npos) << Read(dir / "log");
  fs::path run;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().rfind("PROF_", 0) == 0) run = e.path();
  }
  ASSERT_FALSE(run.empty()) << Read(dir / "log");
  auto trace = ReadRaw(RawPathOf(run.string()));
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  ASSERT_FALSE(trace->tasks.empty());

  const auto timeline = nlohmann::json::parse(Read(OutputFile(run, "msprof_")));
  std::map<uint64_t, int> slices;  // task id -> its slices (event tasks: instants)
  for (const auto& e : timeline["traceEvents"]) {
    if ((e["ph"] == "X" || e["ph"] == "i") && e.value("cat", "") == "task") {
      ++slices[e["args"]["task id"].get<uint64_t>()];
    }
  }
  size_t ops = 0;
  for (const TaskRecord& t : trace->tasks) {
    EXPECT_EQ(slices[t.task_id], 1) << "task " << t.task_id << " (" << t.op_type << ")";
    ops += t.op_type == op_type ? 1 : 0;
  }
  EXPECT_EQ(slices.size(), trace->tasks.size());
  EXPECT_GE(ops, 1u) << "no " << op_type << " task";
  const std::string summary = Read(OutputFile(run, "op_summary_"));
  EXPECT_NE(summary.find("," + op_type + ","), std::string::npos) << summary;
  fs::remove_all(dir);
}

TEST(SingleOpProfileTest, MsprofTimelineAndOpSummaryOfTheAddExample) {
  ProfileAndCheck(ADD_PATH, "Add");
}

TEST(SingleOpProfileTest, MsprofTimelineAndOpSummaryOfTheConv2dExample) {
  ProfileAndCheck(CONV2D_PATH, "Conv2D");
}

}  // namespace
}  // namespace aclsim::dfx::prof
