// Issue 7's acceptance, end to end: the unmodified two-stream pipeline example run under
// msprof --application yields a run whose timeline has a slice per device task, whose
// op_summary names the Add op it ran, and whose tasks show the copy stream uploading while the
// work stream computes (the overlap the SVG picture shows).
#include <gtest/gtest.h>

#include <string>

#include "dfx/prof_export.h"
#include "profile_run.h"

namespace aclsim::dfx::prof {
namespace {

using msprof_run::OutputFile;
using msprof_run::ProfiledRun;
using msprof_run::ReadText;

TEST(PipelineProfileTest, MsprofShowsTheCopyComputeOverlapOfTheTwoStreamPipeline) {
  ProfiledRun profiled;
  msprof_run::ProfileApplication(PIPELINE_PATH, "pipeline", &profiled);
  ASSERT_TRUE(profiled.exited_ok) << profiled.log;
  ASSERT_FALSE(profiled.run.empty()) << profiled.log;
  const auto& run = profiled.run;
  auto trace = ReadRaw(RawPathOf(run.string()));
  ASSERT_TRUE(trace.ok()) << trace.status().message();

  // Every task appears exactly once, as a slice on its stream's track.
  auto slices = msprof_run::TaskSlices(run);  // task id -> its slices
  size_t adds = 0;
  for (const TaskRecord& t : trace->tasks) {
    EXPECT_EQ(slices[t.task_id], 1) << "task " << t.task_id << " (" << t.op_type << ")";
    adds += t.op_type == "Add";
  }
  EXPECT_EQ(adds, 8u);  // the batched pipeline's 8 batches
  EXPECT_NE(ReadText(OutputFile(run, "op_summary_")).find(",Add,"), std::string::npos);

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
  const std::string svg = ReadText(OutputFile(run, "timeline_"));
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("Add"), std::string::npos);
}

}  // namespace
}  // namespace aclsim::dfx::prof
