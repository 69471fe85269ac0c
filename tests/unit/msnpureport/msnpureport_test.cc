// msnpureport end to end, in a scratch log root (ASCEND_PROCESS_LOG_PATH): settings set and
// printed, usage errors (exit 2) and unknown devices (exit 1), the status after the single-op
// Add example ran into an injected AI Core exception, the task trace, and the export layout.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::string Read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Outcome {
  int code = -1;
  std::string out;  // stdout and stderr
};

class MsnpureportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("aclsim_msnpureport_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "cwd");
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path root() const { return dir_ / "log"; }

  // Runs `command` (with `env` before it) in dir_/cwd with the log root set.
  Outcome Shell(const std::string& command, const std::string& env = "") const {
    const fs::path out = dir_ / "out.txt";
    const std::string line = "cd " + (dir_ / "cwd").string() +
                             " && ASCEND_PROCESS_LOG_PATH=" + root().string() + " " + env + " " +
                             command + " > " + out.string() + " 2>&1";
    const int status = std::system(line.c_str());
    Outcome run;
    run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.out = Read(out);
    return run;
  }
  Outcome Tool(const std::string& args) const {
    return Shell(std::string(MSNPUREPORT_PATH) + " " + args);
  }

  fs::path dir_;
};

TEST_F(MsnpureportTest, SetsTheDeviceLogSettingsAndPrintsThem) {
  Outcome run = Tool("-d 1 -g info");
  ASSERT_EQ(run.code, 0) << run.out;
  const auto config = nlohmann::json::parse(Read(root() / "npu" / "device-1" / "log_config.json"));
  EXPECT_EQ(config["global_level"], "info");
  run = Tool("-d 1 -m TSCH:debug -m drv:ERROR -e disable -t on");
  ASSERT_EQ(run.code, 0) << run.out;
  run = Tool("-d 1 -r");
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find("global level: info"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("TSCH=debug DRV=error AICPU=info (global)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("event log: disable"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("task trace: on"), std::string::npos) << run.out;
  // Without -d: device 0, untouched so far: the defaults.
  run = Tool("-r");
  EXPECT_NE(run.out.find("device 0 log settings"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("global level: error"), std::string::npos) << run.out;
}

TEST_F(MsnpureportTest, UsageErrorsExitTwoWithTheUsage) {
  for (const char* args : {"-g loud", "-m TSCH", "-m FOO:info", "-m TSCH:loud", "-e maybe",
                           "-t yes", "--bogus", "-d x", "report"}) {
    const Outcome run = Tool(args);
    EXPECT_EQ(run.code, 2) << args << ": " << run.out;
    EXPECT_NE(run.out.find("msnpureport"), std::string::npos) << args << ": " << run.out;
  }
  const Outcome help = Tool("-h");
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("-g"), std::string::npos) << help.out;
  EXPECT_FALSE(fs::exists(root() / "npu"));  // nothing was written
}

TEST_F(MsnpureportTest, UnknownDevicesAndMissingDataExitOne) {
  Outcome run = Tool("-d 99 -g info");
  EXPECT_EQ(run.code, 1) << run.out;
  EXPECT_NE(run.out.find("device 99 does not exist"), std::string::npos) << run.out;
  run = Tool("-d -1 -s");
  EXPECT_EQ(run.code, 1) << run.out;
  run = Tool("-s -d 3");
  EXPECT_EQ(run.code, 1) << run.out;
  EXPECT_NE(run.out.find("device 3 has no status"), std::string::npos) << run.out;
  run = Tool("");
  EXPECT_EQ(run.code, 1) << run.out;
  EXPECT_NE(run.out.find("no device has logs"), std::string::npos) << run.out;
}

TEST_F(MsnpureportTest, StatusAfterARunWithAFailingTask) {
  const Outcome app = Shell(ADD_PATH, "ACLSIM_FAULT_AICORE_EXCEPTION=1");
  EXPECT_NE(app.code, 0) << app.out;  // the example reports the failed Add
  const Outcome run = Tool("-s");
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find("device 0 status"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("health: Warning"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("last process: single_op_add"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("failed 1"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("last failure: error 507015"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("(op Add)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("simulated time: "), std::string::npos) << run.out;

  // A clean run afterwards: OK, closed, nothing failed.
  ASSERT_EQ(Shell(ADD_PATH).code, 0);
  const Outcome again = Tool("-s -d 0");
  EXPECT_NE(again.out.find("health: OK"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("failed 0"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find(", closed "), std::string::npos) << again.out;
}

TEST_F(MsnpureportTest, TaskTraceOnPutsOneLinePerTaskInTheDeviceLog) {
  ASSERT_EQ(Tool("-t on").code, 0);
  ASSERT_EQ(Shell(ADD_PATH).code, 0);
  std::string text;
  for (const auto& e : fs::directory_iterator(root() / "debug" / "device-0"))
    text += Read(e.path());
  EXPECT_NE(text.find("[DEBUG] TSCH("), std::string::npos) << text;
  EXPECT_NE(text.find("op_name=Add, start_ns="), std::string::npos) << text;
  ASSERT_EQ(Tool("-t off").code, 0);
}

TEST_F(MsnpureportTest, ExportCopiesTheDeviceLogsAndStatus) {
  ASSERT_EQ(Shell(ADD_PATH).code, 0);
  for (const char* args : {"", "-f", "report -a", "-d 0"}) {
    fs::remove_all(dir_ / "cwd");
    fs::create_directories(dir_ / "cwd");
    const Outcome run = Tool(args);
    ASSERT_EQ(run.code, 0) << args << ": " << run.out;
    std::vector<fs::path> exports;
    for (const auto& e : fs::directory_iterator(dir_ / "cwd")) exports.push_back(e.path());
    ASSERT_EQ(exports.size(), 1u) << args;
    const fs::path out = exports[0];
    EXPECT_EQ(out.filename().string().size(), std::string("2026-12-01-10-00-00").size());
    const fs::path logs = out / "slog" / "dev-os-0" / "debug" / "device-0";
    size_t files = 0;
    for (const auto& e : fs::directory_iterator(logs)) {
      ++files;
      EXPECT_EQ(e.path().filename().string().rfind("device-", 0), 0u) << e.path();
      EXPECT_NE(Read(e.path()).find("device 0 open"), std::string::npos);
    }
    EXPECT_EQ(files, 1u) << args;
    const auto status =
        nlohmann::json::parse(Read(out / "module_info" / "device-0" / "status.json"));
    EXPECT_EQ(status["health"], "OK") << args;
  }
}

}  // namespace
