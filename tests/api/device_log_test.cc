// Device-side logs and status through the public API: a program that opens a device, runs
// tasks (one of them failing by fault injection) and resets it leaves, under the log root,
//   debug/device-<id>/device-<pid>_<stamp>.log   (open, failures, trace lines, close)
//   npu/device-<id>/status.json                  (counters, last failure, health)
// and the device's settings (npu/device-<id>/log_config.json, written here as msnpureport
// writes it) choose what the device log holds.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "api_test.h"

namespace {

namespace fs = std::filesystem;
using acltest::AclNoInitTest;
using acltest::AclsimConfig;
using acltest::ScopedEnv;
using acltest::TempFile;

// A fresh log root for one test, set as ASCEND_PROCESS_LOG_PATH.
class LogRoot {
 public:
  LogRoot()
      : path_(fs::temp_directory_path() /
              ("aclsim_devlog_" + std::to_string(getpid()) + "_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name())),
        env_("ASCEND_PROCESS_LOG_PATH", path_.c_str()) {
    fs::remove_all(path_);
  }
  ~LogRoot() { fs::remove_all(path_); }
  LogRoot(const LogRoot&) = delete;
  LogRoot& operator=(const LogRoot&) = delete;
  const fs::path& path() const { return path_; }

  // Writes npu/device-<id>/log_config.json.
  void Configure(int id, const std::string& json) const {
    const fs::path dir = path_ / "npu" / ("device-" + std::to_string(id));
    fs::create_directories(dir);
    std::ofstream(dir / "log_config.json") << json;
  }
  // Every device log line of device `id` (all files of this process).
  std::vector<std::string> Lines(int id) const {
    std::vector<std::string> lines;
    const fs::path dir = path_ / "debug" / ("device-" + std::to_string(id));
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(dir, error)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("device-" + std::to_string(getpid()) + "_", 0) != 0) continue;
      std::ifstream in(entry.path());
      for (std::string line; std::getline(in, line);) lines.push_back(line);
    }
    return lines;
  }
  nlohmann::json Status(int id) const {
    std::ifstream in(path_ / "npu" / ("device-" + std::to_string(id)) / "status.json");
    std::stringstream text;
    text << in.rdbuf();
    return nlohmann::json::parse(text.str(), nullptr, false);
  }

 private:
  fs::path path_;
  ScopedEnv env_;
};

size_t CountContaining(const std::vector<std::string>& lines, const std::string& text) {
  size_t n = 0;
  for (const std::string& line : lines) n += line.find(text) != std::string::npos ? 1 : 0;
  return n;
}

// Runs `count` Add ops (each synchronised) on a fresh stream of the current device; returns
// the status of the last call made.
aclError RunAdds(int count) {
  aclrtStream stream = nullptr;
  EXPECT_ACL_OK(aclrtCreateStream(&stream));
  const int64_t dims[1] = {64};
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  void* dev[3] = {};
  aclDataBuffer* buffers[3] = {};
  aclError setup = ACL_SUCCESS;
  for (int i = 0; i < 3; ++i) {
    // Written before the Adds read it (the memory checker's pass); the memset is a device task
    // too, so an injected fault may already fail it (a lost device fails every later call).
    if (setup == ACL_SUCCESS) setup = aclrtMalloc(&dev[i], 256, ACL_MEM_MALLOC_NORMAL_ONLY);
    if (setup == ACL_SUCCESS) setup = aclrtMemset(dev[i], 256, 0, 256);
    buffers[i] = aclCreateDataBuffer(dev[i], 256);
  }
  aclTensorDesc* in[2] = {desc, desc};
  aclTensorDesc* out[1] = {desc};
  aclError last = setup;
  for (int i = 0; i < count && setup == ACL_SUCCESS; ++i) {
    last = aclopExecuteV2("Add", 2, in, buffers, 1, out, buffers + 2, nullptr, stream);
    if (last != ACL_SUCCESS) break;  // a lost device fails every later call
    last = aclrtSynchronizeStream(stream);
  }
  for (int i = 0; i < 3; ++i) {
    aclDestroyDataBuffer(buffers[i]);
    if (dev[i] != nullptr) (void)aclrtFree(dev[i]);
  }
  aclDestroyTensorDesc(desc);
  (void)aclrtDestroyStream(stream);
  return last;
}

TEST_F(AclNoInitTest, DeviceLogHasTheOpenAndTheCloseWithItsCounters) {
  LogRoot root;
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_OK(RunAdds(2));
  ASSERT_ACL_OK(aclrtResetDevice(0));
  const std::vector<std::string> lines = root.Lines(0);
  ASSERT_EQ(CountContaining(lines, "device 0 open: SoC Ascend"), 1u);
  EXPECT_EQ(CountContaining(lines, "[EVENT] DRV("), 2u);
  EXPECT_EQ(CountContaining(lines, "device 0 close: tasks submitted"), 1u);
  EXPECT_EQ(CountContaining(lines, "[DEBUG]"), 0u);  // the default level is ERROR
  const nlohmann::json status = root.Status(0);
  ASSERT_TRUE(status.is_object());
  EXPECT_EQ(status["health"], "OK");
  EXPECT_EQ(status["pid"], getpid());
  EXPECT_GE(status["tasks_completed"].get<uint64_t>(), 2u);
  EXPECT_EQ(status["tasks_failed"], 0u);
  EXPECT_TRUE(status["last_failure"].is_null());
  EXPECT_NE(status["close_time"], "");
  EXPECT_GT(status["sim_time_ns"].get<uint64_t>(), 0u);
}

TEST_F(AclNoInitTest, FailingTaskIsInTheDeviceLogAndTheStatus) {
  LogRoot root;
  TempFile config(AclsimConfig("\"fault_aicore_exception\": \"2\""));
  ASSERT_ACL_OK(aclInit(config.path()));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_EQ(RunAdds(3), ACL_SUCCESS);  // the 2nd kernel fails; the 3rd succeeds again
  // Written after the failure, before the device closes.
  nlohmann::json status = root.Status(0);
  ASSERT_TRUE(status.is_object());
  EXPECT_EQ(status["health"], "Warning");
  EXPECT_EQ(status["close_time"], "");
  ASSERT_ACL_OK(aclrtResetDevice(0));
  const std::vector<std::string> lines = root.Lines(0);
  EXPECT_EQ(CountContaining(lines, "[ERROR] TSCH("), 1u);
  EXPECT_EQ(CountContaining(lines, "op_name=Add, error_code=507015"), 1u);
  EXPECT_EQ(CountContaining(lines, "[ERROR] DRV("), 1u);  // the injected fault
  status = root.Status(0);
  EXPECT_EQ(status["health"], "Warning");
  EXPECT_EQ(status["tasks_failed"], 1u);
  ASSERT_TRUE(status["last_failure"].is_object());
  EXPECT_EQ(status["last_failure"]["error_code"], 507015u);
  EXPECT_EQ(status["last_failure"]["op_name"], "Add");
  EXPECT_GT(status["last_failure"]["task_id"].get<uint64_t>(), 0u);
}

TEST_F(AclNoInitTest, LostDeviceSetsTheHealthToAlarm) {
  LogRoot root;
  TempFile config(AclsimConfig("\"fault_device_lost\": \"3\""));
  ASSERT_ACL_OK(aclInit(config.path()));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_NE(RunAdds(3), ACL_SUCCESS);
  (void)aclrtResetDeviceForce(0);
  EXPECT_EQ(root.Status(0)["health"], "Alarm");
  EXPECT_EQ(CountContaining(root.Lines(0), "device 0 lost"), 1u);
}

TEST_F(AclNoInitTest, TaskTraceWritesOneDebugLinePerCompletedTask) {
  LogRoot root;
  root.Configure(0, R"({"task_trace": true})");
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_OK(RunAdds(4));
  ASSERT_ACL_OK(aclrtResetDevice(0));
  const std::vector<std::string> lines = root.Lines(0);
  EXPECT_EQ(CountContaining(lines, "op_name=Add, start_ns="), 4u);
  const size_t traced = CountContaining(lines, "[DEBUG] TSCH(");
  const nlohmann::json status = root.Status(0);
  EXPECT_EQ(traced, status["tasks_completed"].get<uint64_t>());
}

TEST_F(AclNoInitTest, DeviceSettingsSilenceTheDeviceLog) {
  LogRoot root;
  root.Configure(0, R"({"global_level": "null", "event": false})");
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_OK(RunAdds(1));
  ASSERT_ACL_OK(aclrtResetDevice(0));
  EXPECT_TRUE(root.Lines(0).empty());
  EXPECT_TRUE(root.Status(0).is_object());  // the status is written whatever the level
}

TEST_F(AclNoInitTest, HostLogLevelDoesNotChangeTheDeviceLevel) {
  LogRoot root;
  ScopedEnv level("ASCEND_GLOBAL_LOG_LEVEL", "0");
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_OK(RunAdds(1));
  ASSERT_ACL_OK(aclrtResetDevice(0));
  EXPECT_EQ(CountContaining(root.Lines(0), "[DEBUG]"), 0u);
}

TEST_F(AclNoInitTest, MalformedDeviceSettingsKeepTheDefaults) {
  LogRoot root;
  root.Configure(0, R"({"global_level": "loud"})");
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtResetDevice(0));
  EXPECT_EQ(CountContaining(root.Lines(0), "device 0 open"), 1u);
}

}  // namespace
