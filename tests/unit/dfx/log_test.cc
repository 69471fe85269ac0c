// The logger end to end: environment -> levels -> formatted lines on stdout or in plog files.
#include "dfx/log.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdarg>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "test_env.h"

namespace aclsim::dfx {
namespace {

using testing::FilesUnder;
using testing::ReadFile;
using testing::ReadLines;
using testing::ScopedEnv;
using testing::TempDir;

// [ERROR] ASCENDCL(12345,name):2026-12-01-08:40:57.123.456 [file.cc:123]12350 func: msg
const char* const kLineHead =
    R"(\[(DEBUG|INFO|WARNING|ERROR|EVENT)\] ([A-Z]+)\((\d+),([^)]+)\):)"
    R"(\d{4}-\d{2}-\d{2}-\d{2}:\d{2}:\d{2}\.\d{3}\.\d{3} \[([^:\]]+):(\d+)\](\d+) )";

// Every test starts from a clean logging environment whose files go to a temp dir.
class LogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* const* name = testing::kLogEnvVars; *name != nullptr; ++name) {
      env_.Unset(*name);
    }
    env_.Set("ASCEND_PROCESS_LOG_PATH", dir_.path());
    SetMaxLogFileSizeForTest(0);  // back to 20 MB
    ReloadLogConfigForTest();
  }
  void TearDown() override {
    FlushLogs();
    SetMaxLogFileSizeForTest(0);
  }
  // Applies `vars` and re-reads the environment.
  void Reload(std::initializer_list<std::pair<const char*, std::string>> vars) {
    for (const auto& [name, value] : vars) env_.Set(name, value);
    ReloadLogConfigForTest();
  }
  std::string DebugDir() const { return dir_.path() + "/debug/plog"; }
  std::string RunDir() const { return dir_.path() + "/run/plog"; }

  ScopedEnv env_;
  TempDir dir_;
};

void CallAppLog(int level, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  AppLog(level, "CallAppLog", "/src/app/main.cpp", 77, fmt, args);
  va_end(args);
}

TEST_F(LogTest, DefaultLevelIsErrorAndEventIsOn) {
  EXPECT_TRUE(LogEnabled(Module::kAscendCl, Level::kError));
  EXPECT_FALSE(LogEnabled(Module::kAscendCl, Level::kWarning));
  EXPECT_FALSE(LogEnabled(Module::kRuntime, Level::kDebug));
  EXPECT_TRUE(LogEnabled(Module::kRuntime, Level::kEvent));
  EXPECT_FALSE(LogEnabled(Module::kRuntime, Level::kNull));
}

TEST_F(LogTest, ModuleLevelOverridesGlobal) {
  Reload({{"ASCEND_GLOBAL_LOG_LEVEL", "2"}, {"ASCEND_MODULE_LOG_LEVEL", "RUNTIME=0:ASCENDCL=1"}});
  EXPECT_TRUE(LogEnabled(Module::kRuntime, Level::kDebug));
  EXPECT_FALSE(LogEnabled(Module::kAscendCl, Level::kDebug));
  EXPECT_TRUE(LogEnabled(Module::kAscendCl, Level::kInfo));
  EXPECT_FALSE(LogEnabled(Module::kDrv, Level::kInfo));
  EXPECT_TRUE(LogEnabled(Module::kDrv, Level::kWarning));
}

TEST_F(LogTest, NullLevelSilencesModuleButNotEvents) {
  Reload({{"ASCEND_GLOBAL_LOG_LEVEL", "4"}});
  EXPECT_FALSE(LogEnabled(Module::kAscendCl, Level::kError));
  EXPECT_TRUE(LogEnabled(Module::kAscendCl, Level::kEvent));
  Reload({{"ASCEND_GLOBAL_EVENT_ENABLE", "0"}});
  EXPECT_FALSE(LogEnabled(Module::kAscendCl, Level::kEvent));
}

TEST_F(LogTest, MalformedModuleLevelWarnsOnStderrAndKeepsGlobal) {
  ::testing::internal::CaptureStderr();
  Reload({{"ASCEND_GLOBAL_LOG_LEVEL", "1"}, {"ASCEND_MODULE_LOG_LEVEL", "RUNTIME=0:BOGUS=1"}});
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("[WARNING] SLOG("), std::string::npos) << err;
  EXPECT_NE(err.find("ASCEND_MODULE_LOG_LEVEL"), std::string::npos) << err;
  EXPECT_FALSE(LogEnabled(Module::kRuntime, Level::kDebug));
  EXPECT_TRUE(LogEnabled(Module::kRuntime, Level::kInfo));
}

TEST_F(LogTest, StdoutModePrintsCannFormattedLine) {
  Reload({{"ASCEND_SLOG_PRINT_TO_STDOUT", "1"}});
  ::testing::internal::CaptureStdout();
  const int line = __LINE__ + 1;
  ACLSIM_LOG_ERROR(Module::kAscendCl, "hello {} {}", 42, "world");
  const std::string out = ::testing::internal::GetCapturedStdout();

  std::smatch m;
  ASSERT_TRUE(std::regex_match(out, m, std::regex(std::string(kLineHead) + R"((\w+): (.*)\n)")))
      << out;
  EXPECT_EQ(m[1], "ERROR");
  EXPECT_EQ(m[2], "ASCENDCL");
  EXPECT_EQ(m[3], std::to_string(getpid()));
  EXPECT_EQ(m[4], program_invocation_short_name);
  EXPECT_EQ(m[5], "log_test.cc");
  EXPECT_EQ(m[6], std::to_string(line));
  EXPECT_EQ(m[7], std::to_string(gettid()));
  EXPECT_EQ(m[8], "TestBody");
  EXPECT_EQ(m[9], "hello 42 world");
  EXPECT_TRUE(FilesUnder(dir_.path()).empty());
}

TEST_F(LogTest, StdoutModeNewVariableWinsOverDeprecated) {
  Reload({{"ASCEND_SLOG_PRINT_TO_STDOUT", "1"}, {"ASCEND_LOG_PRINT_TO_STDOUT", "0"}});
  ::testing::internal::CaptureStdout();
  ACLSIM_LOG_ERROR(Module::kAscendCl, "to the file");
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "");
  FlushLogs();
  EXPECT_EQ(FilesUnder(DebugDir()).size(), 1u);
}

TEST_F(LogTest, LevelFilteringOnStdout) {
  Reload({{"ASCEND_LOG_PRINT_TO_STDOUT", "1"}, {"ASCEND_MODULE_LOG_LEVEL", "SIM=1"}});
  ::testing::internal::CaptureStdout();
  ACLSIM_LOG_DEBUG(Module::kSim, "sim debug");
  ACLSIM_LOG_INFO(Module::kSim, "sim info");
  ACLSIM_LOG_WARN(Module::kRuntime, "runtime warning");
  ACLSIM_LOG_ERROR(Module::kRuntime, "runtime error");
  ACLSIM_LOG_EVENT(Module::kRuntime, "runtime event");
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(out.find("sim debug"), std::string::npos);
  EXPECT_NE(out.find("[INFO] SIM("), std::string::npos);
  EXPECT_EQ(out.find("runtime warning"), std::string::npos);
  EXPECT_NE(out.find("[ERROR] RUNTIME("), std::string::npos);
  EXPECT_NE(out.find("[EVENT] RUNTIME("), std::string::npos);
}

TEST_F(LogTest, DisabledLineDoesNotEvaluateArguments) {
  int evaluated = 0;
  auto count = [&evaluated] { return ++evaluated; };
  ACLSIM_LOG_DEBUG(Module::kRuntime, "{}", count());
  EXPECT_EQ(evaluated, 0);
}

TEST_F(LogTest, NothingLoggedCreatesNoFilesOrDirectories) {
  ACLSIM_LOG_DEBUG(Module::kRuntime, "filtered");
  ACLSIM_LOG_INFO(Module::kAscendCl, "filtered");
  FlushLogs();
  ReloadLogConfigForTest();
  EXPECT_TRUE(std::filesystem::is_empty(dir_.path()));
}

TEST_F(LogTest, FileModeWritesDebugPlogWithCannNameAndFormat) {
  ACLSIM_LOG_ERROR(Module::kRuntime, "device {} out of memory", 3);
  FlushLogs();
  const std::vector<std::string> files = FilesUnder(dir_.path());
  ASSERT_EQ(files.size(), 1u);
  const std::string expected_dir = DebugDir() + "/";
  ASSERT_EQ(files[0].rfind(expected_dir, 0), 0u) << files[0];
  const std::string name = files[0].substr(expected_dir.size());
  EXPECT_TRUE(
      std::regex_match(name, std::regex("plog-" + std::to_string(getpid()) + R"(_20\d{15}\.log)")))
      << name;
  const std::vector<std::string> lines = ReadLines(files[0]);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(std::regex_match(
      lines[0], std::regex(std::string(kLineHead) + "TestBody: device 3 out of memory")))
      << lines[0];
}

TEST_F(LogTest, EventGoesToRunPlog) {
  ACLSIM_LOG_EVENT(Module::kAscendCl, "aclInit done");
  const std::vector<std::string> files = FilesUnder(dir_.path());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].rfind(RunDir() + "/plog-", 0), 0u) << files[0];
  EXPECT_NE(ReadFile(files[0]).find("[EVENT] ASCENDCL("), std::string::npos);
}

TEST_F(LogTest, WorkPathIsUsedWhenProcessLogPathIsUnset) {
  env_.Unset("ASCEND_PROCESS_LOG_PATH");
  Reload({{"ASCEND_WORK_PATH", dir_.path()}});
  ACLSIM_LOG_ERROR(Module::kDrv, "x");
  FlushLogs();
  const std::vector<std::string> files = FilesUnder(dir_.path());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].rfind(dir_.path() + "/log/debug/plog/plog-", 0), 0u) << files[0];
}

TEST_F(LogTest, RotationKeepsHostLogFileNumFiles) {
  SetMaxLogFileSizeForTest(1024);
  Reload({{"ASCEND_HOST_LOG_FILE_NUM", "3"}, {"ASCEND_GLOBAL_LOG_LEVEL", "0"}});
  const std::string payload(200, 'x');
  for (int i = 0; i < 200; ++i) ACLSIM_LOG_INFO(Module::kRuntime, "{} {}", i, payload);
  FlushLogs();
  const std::vector<std::string> files = FilesUnder(DebugDir());
  ASSERT_EQ(files.size(), 3u);
  size_t lines = 0;
  for (const std::string& file : files) {
    EXPECT_LE(std::filesystem::file_size(file), 1024u) << file;
    lines += ReadLines(file).size();
  }
  // The newest lines survive, the oldest were deleted with their files.
  EXPECT_NE(ReadFile(files.back()).find("]" + std::to_string(gettid()) + " TestBody: 199 "),
            std::string::npos);
  EXPECT_LT(lines, 200u);
}

TEST_F(LogTest, SyncSaveFlushesEveryLine) {
  Reload({{"ASCEND_LOG_SYNC_SAVE", "1"}, {"ASCEND_GLOBAL_LOG_LEVEL", "0"}});
  ACLSIM_LOG_DEBUG(Module::kGe, "no flush needed");
  const std::vector<std::string> files = FilesUnder(DebugDir());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_NE(ReadFile(files[0]).find("no flush needed"), std::string::npos);
}

TEST_F(LogTest, UncreatableDirectoryFallsBackToStderr) {
  const std::string blocker = dir_.path() + "/not_a_dir";
  std::ofstream(blocker) << "x";
  Reload({{"ASCEND_PROCESS_LOG_PATH", blocker}});
  ::testing::internal::CaptureStderr();
  ACLSIM_LOG_ERROR(Module::kAscendCl, "first");
  ACLSIM_LOG_ERROR(Module::kAscendCl, "second");
  FlushLogs();
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("TestBody: first\n"), std::string::npos) << err;
  EXPECT_NE(err.find("TestBody: second\n"), std::string::npos) << err;
  EXPECT_EQ(FilesUnder(dir_.path()).size(), 1u);  // just the blocker
}

TEST_F(LogTest, AppLogFormatsPrintfArguments) {
  Reload({{"ASCEND_LOG_PRINT_TO_STDOUT", "1"}, {"ASCEND_GLOBAL_LOG_LEVEL", "1"}});
  ::testing::internal::CaptureStdout();
  CallAppLog(1, "%s has %d items, %.2f%% done, %lu bytes", "queue", 7, 12.5, 4096ul);
  CallAppLog(0, "debug is below INFO");
  CallAppLog(9, "invalid level");
  AppLog(3, nullptr, "f.c", 1, "null func", nullptr);
  const std::string out = ::testing::internal::GetCapturedStdout();
  std::smatch m;
  ASSERT_TRUE(std::regex_match(out, m, std::regex(std::string(kLineHead) + R"((\w+): (.*)\n)")))
      << out;
  EXPECT_EQ(m[1], "INFO");
  EXPECT_EQ(m[2], "APP");
  EXPECT_EQ(m[5], "main.cpp");
  EXPECT_EQ(m[6], "77");
  EXPECT_EQ(m[8], "CallAppLog");
  EXPECT_EQ(m[9], "queue has 7 items, 12.50% done, 4096 bytes");
}

TEST_F(LogTest, AppLogNeedsBothAscendclAndAppLevels) {
  Reload({{"ASCEND_LOG_PRINT_TO_STDOUT", "1"}, {"ASCEND_MODULE_LOG_LEVEL", "APP=0"}});
  ::testing::internal::CaptureStdout();
  CallAppLog(0, "hidden: ASCENDCL is still at ERROR");
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "");
}

TEST_F(LogTest, AppLogLongMessageIsNotTruncated) {
  Reload({{"ASCEND_LOG_PRINT_TO_STDOUT", "1"}});
  const std::string long_text(5000, 'z');
  ::testing::internal::CaptureStdout();
  CallAppLog(3, "<%s>", long_text.c_str());
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("<" + long_text + ">\n"), std::string::npos);
}

TEST_F(LogTest, ConcurrentLoggingLosesNoLines) {
  Reload({{"ASCEND_GLOBAL_LOG_LEVEL", "1"}});
  constexpr int kThreads = 8;
  constexpr int kLinesPerThread = 2000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < kLinesPerThread; ++i) {
        ACLSIM_LOG_INFO(Module::kSim, "thread {} line {}", t, i);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  FlushLogs();

  std::set<std::pair<int, int>> seen;
  const std::regex body(std::string(kLineHead) + R"(operator\(\): thread (\d+) line (\d+))");
  size_t total = 0;
  for (const std::string& file : FilesUnder(DebugDir())) {
    for (const std::string& line : ReadLines(file)) {
      ++total;
      std::smatch m;
      ASSERT_TRUE(std::regex_match(line, m, body)) << line;
      seen.emplace(std::stoi(m[8]), std::stoi(m[9]));
    }
  }
  EXPECT_EQ(total, static_cast<size_t>(kThreads * kLinesPerThread));
  EXPECT_EQ(seen.size(), static_cast<size_t>(kThreads * kLinesPerThread));
}

TEST_F(LogTest, ForkedChildWritesItsOwnPlogFile) {
  Reload({{"ASCEND_GLOBAL_LOG_LEVEL", "1"}});
  ACLSIM_LOG_INFO(Module::kRuntime, "parent before fork");  // buffered, not yet flushed
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ACLSIM_LOG_INFO(Module::kRuntime, "child line");
    FlushLogs();
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  ACLSIM_LOG_INFO(Module::kRuntime, "parent after fork");
  FlushLogs();

  const std::vector<std::string> files = FilesUnder(DebugDir());
  ASSERT_EQ(files.size(), 2u);
  std::string parent_text;
  std::string child_text;
  for (const std::string& file : files) {
    if (file.find("/plog-" + std::to_string(child) + "_") != std::string::npos) {
      child_text = ReadFile(file);
    } else {
      parent_text = ReadFile(file);
    }
  }
  EXPECT_EQ(ReadLines(files[0]).size() + ReadLines(files[1]).size(), 3u);
  EXPECT_NE(child_text.find("RUNTIME(" + std::to_string(child) + ","), std::string::npos);
  EXPECT_NE(child_text.find("child line"), std::string::npos);
  EXPECT_EQ(child_text.find("parent"), std::string::npos);
  EXPECT_NE(parent_text.find("parent before fork"), std::string::npos);
  EXPECT_NE(parent_text.find("parent after fork"), std::string::npos);
}

TEST_F(LogTest, TrailingNewlineIsNotDoubled) {
  Reload({{"ASCEND_LOG_PRINT_TO_STDOUT", "1"}});
  ::testing::internal::CaptureStdout();
  LogWrite(Module::kGe, Level::kError, "a/b/c.cc", 5, nullptr, "message\n");
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_TRUE(std::regex_match(out, std::regex(std::string(kLineHead) + "message\n"))) << out;
  EXPECT_NE(out.find(" [c.cc:5]"), std::string::npos);
}

}  // namespace
}  // namespace aclsim::dfx
