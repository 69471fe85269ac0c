// The msprof command (tools/msprof) run as a process.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "dfx/prof_export.h"
#include "prof_test_trace.h"

namespace aclsim::dfx::prof {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRunName = "PROF_000001_20261202030405678_ABCDEFGHIJKLMNOP";

class MsprofTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("aclsim_msprof_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A run directory as the runtime leaves it, but with raw data only.
  fs::path FakeRun(const std::string& name = kRunName) {
    const fs::path run = dir_ / name;
    fs::create_directories(run / "host" / "data");
    EXPECT_TRUE(WriteRaw(testing::PipelineTrace(), RawPathOf(run.string())).ok());
    return run;
  }
  // Runs msprof with `args`; returns its exit status, stdout+stderr in *output.
  int Msprof(const std::string& args, std::string* output) {
    const fs::path log = dir_ / "msprof.log";
    const std::string command =
        std::string(MSPROF_PATH) + " " + args + " > " + log.string() + " 2>&1";
    const int status = std::system(command.c_str());
    *output = Read(log);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  static std::string Read(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  fs::path dir_;
};

TEST_F(MsprofTest, ExportRegeneratesTheOutputsOfEveryRun) {
  const fs::path first = FakeRun();
  const fs::path second = FakeRun("PROF_000002_20261202030405999_ABCDEFGHIJKLMNOQ");
  std::string output;
  ASSERT_EQ(Msprof("--export=on --output=" + dir_.string(), &output), 0) << output;
  for (const fs::path& run : {first, second}) {
    const std::string ts = run.filename().string().substr(12, 14);
    for (const std::string& file : {"msprof_" + ts + ".json", "op_summary_" + ts + ".csv",
                                    "timeline_" + ts + ".svg", "summary_" + ts + ".txt"}) {
      EXPECT_TRUE(fs::is_regular_file(run / "mindstudio_profiler_output" / file)) << file;
    }
  }
  EXPECT_NE(output.find("mindstudio_profiler_output/op_summary_20261202030405.csv"),
            std::string::npos)
      << output;
}

TEST_F(MsprofTest, ExportOfOneRunDirectory) {
  const fs::path run = FakeRun();
  std::string output;
  ASSERT_EQ(Msprof("--export=on --output=" + run.string(), &output), 0) << output;
  EXPECT_TRUE(
      fs::is_regular_file(run / "mindstudio_profiler_output" / "task_time_20261202030405.csv"));
}

TEST_F(MsprofTest, ExportRefusesMalformedRawDataNamingTheLine) {
  const fs::path run = FakeRun();
  std::ofstream(RawPathOf(run.string()), std::ios::app) << "garbage\n";
  std::string output;
  EXPECT_EQ(Msprof("--export=on --output=" + dir_.string(), &output), 1);
  EXPECT_NE(output.find("aclsim_trace.jsonl:26: not a JSON object"), std::string::npos) << output;
}

TEST_F(MsprofTest, ExportWithoutRunDirectoriesFails) {
  std::string output;
  EXPECT_EQ(Msprof("--export=on --output=" + dir_.string(), &output), 1);
  EXPECT_NE(output.find("no PROF_* run directory"), std::string::npos) << output;
  fs::create_directories(dir_ / kRunName);  // no raw data
  EXPECT_EQ(Msprof("--export=on --output=" + dir_.string(), &output), 1);
  EXPECT_NE(output.find("cannot read"), std::string::npos) << output;
}

TEST_F(MsprofTest, ApplicationRunsWithProfilingOptionsAndItsExitStatus) {
  // The "application" plays the runtime: saves its options and makes a run directory.
  const fs::path raw = dir_ / "raw.jsonl";
  ASSERT_TRUE(WriteRaw(testing::PipelineTrace(), raw.string()).ok());
  const fs::path out = dir_ / "out";
  const std::string run = (out / kRunName / "host" / "data").string();
  const std::string app = "echo \"$PROFILING_MODE $PROFILING_OPTIONS\" > " +
                          (dir_ / "env.txt").string() + "; mkdir -p " + run + " && cp " +
                          raw.string() + " " + run + "/aclsim_trace.jsonl; exit 3";
  std::string output;
  EXPECT_EQ(Msprof("--application='" + app + "' --output=" + out.string() +
                       " --aic-metrics=Memory --aicpu=on --sys-hardware-mem=on",
                   &output),
            3)
      << output;
  EXPECT_NE(output.find("Profiling run: " + (out / kRunName).string()), std::string::npos)
      << output;
  EXPECT_NE(output.find("The stream that waited most: Stream 2"), std::string::npos) << output;

  const std::string env = Read(dir_ / "env.txt");
  ASSERT_EQ(env.rfind("true ", 0), 0U) << env;
  const auto options = nlohmann::json::parse(env.substr(5), nullptr, false);
  ASSERT_TRUE(options.is_object()) << env;
  EXPECT_EQ(options["output"], out.string());
  EXPECT_EQ(options["aic_metrics"], "Memory");
  EXPECT_EQ(options["aicpu"], "on");
  EXPECT_EQ(options["sys_hardware_mem"], "on");
  EXPECT_EQ(options["task_time"], "on");
  EXPECT_EQ(options["ascendcl"], "on");
  EXPECT_FALSE(options.contains("hccl"));  // not given, no default
}

TEST_F(MsprofTest, ApplicationThatMakesNoRunFails) {
  std::string output;
  EXPECT_EQ(Msprof("--application=true --output=" + dir_.string(), &output), 1);
  EXPECT_NE(output.find("made no profiling run directory"), std::string::npos) << output;
}

TEST_F(MsprofTest, UnknownSwitchesAndBadValuesAreRefused) {
  std::string output;
  EXPECT_NE(Msprof("--application=true --no-such-switch=on", &output), 0);
  EXPECT_NE(output.find("--no-such-switch"), std::string::npos) << output;
  EXPECT_NE(Msprof("--application=true --ascendcl=maybe", &output), 0);
  EXPECT_NE(Msprof("", &output), 0);
  EXPECT_NE(output.find("nothing to do"), std::string::npos) << output;
}

}  // namespace
}  // namespace aclsim::dfx::prof
