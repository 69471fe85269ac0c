// Issue 7's acceptance, end to end: the unmodified two-stream pipeline example run under
// msprof --application yields a run whose timeline has a slice per device task, whose
// op_summary names the Add op it ran, and whose tasks show the copy stream uploading while the
// work stream computes (the overlap the SVG picture shows).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
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

// The generated file of `run` whose name starts with `prefix`.
fs::path OutputFile(const fs::path& run, const std::string& prefix) {
  for (const auto& e : fs::directory_iterator(run / "mindstudio_profiler_output")) {
    if (e.path().filename().string().rfind(prefix, 0) == 0) return e.path();
  }
  return {};
}

TEST(PipelineProfileTest, MsprofShowsTheCopyComputeOverlapOfTheTwoStreamPipeline) {
  const fs::path dir =
      fs::temp_directory_path() / ("aclsim_pipeline_profile_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string command = std::string(MSPROF_PATH) + " --application=" + PIPELINE_PATH +
                              " --output=" + dir.string() + " > " + (dir / "log").string() +
                              " 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << Read(dir / "log");
  fs::path run;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().rfind("PROF_", 0) == 0) run = e.path();
  }
  ASSERT_FALSE(run.empty()) << Read(dir / "log");
  auto trace = ReadRaw(RawPathOf(run.string()));
  ASSERT_TRUE(trace.ok()) << trace.status().message();

  // Every task appears exactly once, as a slice on its stream's track.
  const auto timeline = nlohmann::json::parse(Read(OutputFile(run, "msprof_")));
  std::map<uint64_t, int> slices;  // task id -> its slices (event tasks: instants)
  for (const auto& e : timeline["traceEvents"]) {
    if ((e["ph"] == "X" || e["ph"] == "i") && e.value("cat", "") == "task") {
      ++slices[e["args"]["task id"].get<uint64_t>()];
    }
  }
  size_t adds = 0;
  for (const TaskRecord& t : trace->tasks) {
    EXPECT_EQ(slices[t.task_id], 1) << "task " << t.task_id << " (" << t.op_type << ")";
    adds += t.op_type == "Add";
  }
  EXPECT_EQ(adds, 8u);  // the batched pipeline's 8 batches
  EXPECT_NE(Read(OutputFile(run, "op_summary_")).find(",Add,"), std::string::npos);

  // An Add on the work stream runs while an upload on the copy stream is in flight.
  size_t overlaps = 0;
  for (const TaskRecord& k : trace->tasks) {
    if (k.op_type != "Add") continue;
    for (const TaskRecord& c : trace->tasks) {
      if (c.kind != "MEMCPY" || c.stream_id == k.stream_id || c.engine != "DMA") continue;
      if (c.start_ns < k.end_ns && k.start_ns < c.end_ns) ++overlaps;
    }
  }
  EXPECT_GE(overlaps, 3u) << "no copy/compute overlap in the pipeline's profile";
  const std::string svg = Read(OutputFile(run, "timeline_"));
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("Add"), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace aclsim::dfx::prof
