// The single-op examples (Add, Conv2D) run unmodified under msprof --application: the run's
// timeline has exactly one slice per device task, and its op_summary names the op.
#include <gtest/gtest.h>

#include <string>

#include "dfx/prof_export.h"
#include "profile_run.h"

namespace aclsim::dfx::prof {
namespace {

using msprof_run::OutputFile;
using msprof_run::ProfiledRun;
using msprof_run::ReadText;

// Profiles `application` and checks its timeline and op summary for `op_type`.
void ProfileAndCheck(const std::string& application, const std::string& op_type) {
  ProfiledRun profiled;
  msprof_run::ProfileApplication(application, "single_op_" + op_type, &profiled);
  ASSERT_TRUE(profiled.exited_ok) << profiled.log;
  EXPECT_NE(profiled.log.find("PASSED"), std::string::npos) << profiled.log;
  ASSERT_FALSE(profiled.run.empty()) << profiled.log;
  const auto& run = profiled.run;
  auto trace = ReadRaw(RawPathOf(run.string()));
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  ASSERT_FALSE(trace->tasks.empty());

  auto slices = msprof_run::TaskSlices(run);  // task id -> its slices
  size_t ops = 0;
  for (const TaskRecord& t : trace->tasks) {
    EXPECT_EQ(slices[t.task_id], 1) << "task " << t.task_id << " (" << t.op_type << ")";
    ops += t.op_type == op_type ? 1 : 0;
  }
  EXPECT_EQ(slices.size(), trace->tasks.size());
  EXPECT_GE(ops, 1u) << "no " << op_type << " task";
  const std::string summary = ReadText(OutputFile(run, "op_summary_"));
  EXPECT_NE(summary.find("," + op_type + ","), std::string::npos) << summary;
}

TEST(SingleOpProfileTest, MsprofTimelineAndOpSummaryOfTheAddExample) {
  ProfileAndCheck(ADD_PATH, "Add");
}

TEST(SingleOpProfileTest, MsprofTimelineAndOpSummaryOfTheConv2dExample) {
  ProfileAndCheck(CONV2D_PATH, "Conv2D");
}

}  // namespace
}  // namespace aclsim::dfx::prof
