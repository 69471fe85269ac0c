// acl_prof.h through the public API: aclprofInit .. Start .. Stop .. Finalize around a small
// program writes a run directory (docs/profiling.md) whose raw data and msprof-style outputs
// hold every task of the program with the simulated times the events report; the aclInit
// JSON "profiler" key and PROFILING_MODE switch it on too; misuse gets the documented codes.
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "acl/acl_prof.h"
#include "api_test.h"

namespace {

namespace fs = std::filesystem;

fs::path FreshDir(const char* name) {
  fs::path dir = fs::temp_directory_path() /
                 (std::string("aclsim_prof_") + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// The one PROF_* directory under `dir` (empty path if there is not exactly one).
fs::path OnlyRun(const fs::path& dir) {
  fs::path found;
  int count = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.is_directory() && e.path().filename().string().rfind("PROF_", 0) == 0) {
      found = e.path();
      ++count;
    }
  }
  return count == 1 ? found : fs::path();
}

std::vector<nlohmann::json> RawLines(const fs::path& run, const char* type) {
  std::ifstream in(run / "host" / "data" / "aclsim_trace.jsonl");
  std::vector<nlohmann::json> out;
  std::string line;
  while (std::getline(in, line)) {
    auto j = nlohmann::json::parse(line);
    if (j.value("type", "") == type) out.push_back(j);
  }
  return out;
}

// The text of the output file whose name starts with `prefix`.
std::string Output(const fs::path& run, const std::string& prefix) {
  for (const auto& e : fs::directory_iterator(run / "mindstudio_profiler_output")) {
    if (e.path().filename().string().rfind(prefix, 0) == 0) {
      std::ifstream in(e.path());
      std::stringstream ss;
      ss << in.rdbuf();
      return ss.str();
    }
  }
  return "";
}

// A program: H2D copy, event, Add, event, D2H copy on one stream; returns the events'
// elapsed time (ms).
float RunAddProgram() {
  aclrtStream stream = nullptr;
  EXPECT_ACL_OK(aclrtCreateStream(&stream));
  aclrtEvent start = nullptr;
  aclrtEvent end = nullptr;
  EXPECT_ACL_OK(aclrtCreateEvent(&start));
  EXPECT_ACL_OK(aclrtCreateEvent(&end));
  const int64_t dims[1] = {4096};
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  float* host = nullptr;  // pinned: asynchronous copies need it (the memory checker says so)
  EXPECT_ACL_OK(aclrtMallocHost(reinterpret_cast<void**>(&host), 4096 * 4));
  for (int i = 0; i < 4096; ++i) host[i] = 1.5f;
  void* dev[3] = {};
  aclDataBuffer* buffers[3] = {};
  for (int i = 0; i < 3; ++i) {
    EXPECT_ACL_OK(aclrtMalloc(&dev[i], 4096 * 4, ACL_MEM_MALLOC_NORMAL_ONLY));
    buffers[i] = aclCreateDataBuffer(dev[i], 4096 * 4);
  }
  EXPECT_ACL_OK(
      aclrtMemcpyAsync(dev[0], 4096 * 4, host, 4096 * 4, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  EXPECT_ACL_OK(
      aclrtMemcpyAsync(dev[1], 4096 * 4, host, 4096 * 4, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  EXPECT_ACL_OK(aclrtRecordEvent(start, stream));
  aclTensorDesc* in[2] = {desc, desc};
  aclTensorDesc* out[1] = {desc};
  EXPECT_ACL_OK(aclopExecuteV2("Add", 2, in, buffers, 1, out, buffers + 2, nullptr, stream));
  EXPECT_ACL_OK(aclrtRecordEvent(end, stream));
  EXPECT_ACL_OK(
      aclrtMemcpyAsync(host, 4096 * 4, dev[2], 4096 * 4, ACL_MEMCPY_DEVICE_TO_HOST, stream));
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(host[7], 3.0f);
  float ms = -1;
  EXPECT_ACL_OK(aclrtEventElapsedTime(&ms, start, end));
  for (int i = 0; i < 3; ++i) {
    aclDestroyDataBuffer(buffers[i]);
    aclrtFree(dev[i]);
  }
  aclDestroyTensorDesc(desc);
  EXPECT_ACL_OK(aclrtFreeHost(host));
  EXPECT_ACL_OK(aclrtDestroyEvent(start));
  EXPECT_ACL_OK(aclrtDestroyEvent(end));
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
  return ms;
}

TEST(ProfTest, AclprofRunHoldsEveryTaskWithTheEventsTimes) {
  const fs::path dir = FreshDir("api");
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  const std::string path = dir.string();
  ASSERT_ACL_OK(aclprofInit(path.c_str(), path.size()));
  uint32_t devices[1] = {0};
  aclprofConfig* config = aclprofCreateConfig(devices, 1, ACL_AICORE_PIPE_UTILIZATION, nullptr,
                                              ACL_PROF_ACL_API | ACL_PROF_TASK_TIME);
  ASSERT_NE(config, nullptr) << acltest::TakeRecentErrors();
  ASSERT_ACL_OK(aclprofStart(config));
  void* stamp = aclprofCreateStamp();
  ASSERT_NE(stamp, nullptr);
  ASSERT_ACL_OK(aclprofSetStampTraceMessage(stamp, "add-program", 11));
  ASSERT_ACL_OK(aclprofPush(stamp));
  const float ms = RunAddProgram();
  ASSERT_ACL_OK(aclprofPop());
  ASSERT_ACL_OK(aclprofMark(stamp));
  aclprofDestroyStamp(stamp);
  ASSERT_ACL_OK(aclprofStop(config));
  RunAddProgram();  // not profiled
  ASSERT_ACL_OK(aclprofFinalize());
  ASSERT_ACL_OK(aclprofDestroyConfig(config));
  ASSERT_ACL_OK(aclrtResetDevice(0));
  ASSERT_ACL_OK(aclFinalize());

  const fs::path run = OnlyRun(dir);
  ASSERT_FALSE(run.empty()) << "no single PROF_* directory in " << dir;
  const auto tasks = RawLines(run, "task");
  std::map<std::string, int> kinds;
  std::map<uint64_t, int> ids;
  uint64_t add_start = 0;
  uint64_t add_end = 0;
  std::vector<uint64_t> records;
  for (const auto& t : tasks) {
    ++kinds[t["kind"].get<std::string>()];
    ++ids[t["task_id"].get<uint64_t>()];
    if (t["op_type"] == "Add") {
      add_start = t["start_ns"];
      add_end = t["end_ns"];
      EXPECT_EQ(t["engine"], "AI_VECTOR") << t.dump();
      EXPECT_NE(t["correlation_id"].get<uint64_t>(), 0u);
    }
    if (t["kind"] == "EVENT_RECORD") records.push_back(t["end_ns"]);
  }
  EXPECT_EQ(kinds["KERNEL"], 1);
  EXPECT_EQ(kinds["MEMCPY"], 3);
  EXPECT_EQ(kinds["EVENT_RECORD"], 2);
  for (const auto& [id, n] : ids) EXPECT_EQ(n, 1) << "task " << id;
  ASSERT_EQ(records.size(), 2u);
  // The events' elapsed time is the simulated time between the two records, which enclose Add.
  EXPECT_NEAR(ms * 1e6, static_cast<double>(records[1] - records[0]), 1.0 + ms * 1e6 * 1e-6);
  EXPECT_GE(add_start, records[0]);
  EXPECT_LE(add_end, records[1]);
  EXPECT_GT(add_end, add_start);
  // API calls and the range and marker.
  const auto apis = RawLines(run, "api");
  int executes = 0;
  int mallocs = 0;
  int frees = 0;
  for (const auto& a : apis) {
    executes += a["name"] == "aclopExecuteV2";
    mallocs += a["name"] == "aclrtMalloc";  // (their fast path steps aside while profiling)
    frees += a["name"] == "aclrtFree";
  }
  EXPECT_EQ(executes, 1);
  EXPECT_EQ(mallocs, 3);
  EXPECT_EQ(frees, 3);
  const auto marks = RawLines(run, "mark");
  ASSERT_EQ(marks.size(), 2u);
  EXPECT_EQ(marks[0]["message"], "add-program");
  // The msprof outputs: a timeline with an Add slice and an op_summary naming Add.
  const std::string timeline = Output(run, "msprof_");
  ASSERT_FALSE(timeline.empty());
  const auto trace = nlohmann::json::parse(timeline);
  int add_slices = 0;
  for (const auto& e : trace["traceEvents"])
    add_slices += e.value("name", "") == "Add" && e["ph"] == "X";
  EXPECT_GE(add_slices, 1);
  EXPECT_NE(Output(run, "op_summary_").find("Add"), std::string::npos);
  EXPECT_FALSE(Output(run, "task_time_").empty());
  EXPECT_NE(Output(run, "timeline_").find("<svg"), std::string::npos);
  fs::remove_all(dir);
}

TEST(ProfTest, MisuseGetsTheDocumentedCodes) {
  ASSERT_ACL_OK(aclInit(nullptr));
  uint32_t devices[1] = {0};
  aclprofConfig* config =
      aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME);
  ASSERT_NE(config, nullptr);
  EXPECT_ACL_ERR(ACL_ERROR_PROF_NOT_RUN, aclprofStart, config);
  EXPECT_ACL_ERR(ACL_ERROR_PROF_NOT_RUN, aclprofStop, config);
  EXPECT_ACL_ERR(ACL_ERROR_PROF_NOT_RUN, aclprofFinalize);
  EXPECT_EQ(aclprofCreateConfig(devices, 1, static_cast<aclprofAicoreMetrics>(42), nullptr, 0),
            nullptr);
  EXPECT_RECENT_ERROR_NAMES(aclprofCreateConfig);
  uint32_t bad[1] = {999};
  EXPECT_EQ(aclprofCreateConfig(bad, 1, ACL_AICORE_NONE, nullptr, 0), nullptr);
  EXPECT_RECENT_ERROR_NAMES(aclprofCreateConfig);
  const fs::path dir = FreshDir("misuse");
  const std::string path = dir.string();
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofInit, path.c_str(), 0);
  ASSERT_ACL_OK(aclprofInit(path.c_str(), path.size()));
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_INITIALIZE, aclprofInit, path.c_str(), path.size());
  ASSERT_ACL_OK(aclprofStart(config));
  EXPECT_ACL_ERR(ACL_ERROR_PROF_ALREADY_RUN, aclprofStart, config);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofPop);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofRangeStop, 12345u);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofSetConfig, ACL_PROF_ARGS_MAX, "1", 1);
  EXPECT_ACL_OK(aclprofStop(config));
  EXPECT_ACL_OK(aclprofFinalize());
  EXPECT_ACL_OK(aclprofDestroyConfig(config));
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclprofDestroyConfig, config);
  EXPECT_NE(aclprofStr2Id("x"), 0u);
  EXPECT_EQ(aclprofStr2Id("x"), aclprofStr2Id("x"));
  ASSERT_ACL_OK(aclFinalize());
  EXPECT_FALSE(OnlyRun(dir).empty());
  fs::remove_all(dir);
}

TEST(ProfTest, ProfilingModeEnvironmentProfilesTheWholeProgram) {
  const fs::path dir = FreshDir("env");
  const std::string options = "{\"output\":\"" + dir.string() + "\",\"task_time\":\"on\"}";
  ASSERT_EQ(setenv("PROFILING_MODE", "true", 1), 0);
  ASSERT_EQ(setenv("PROFILING_OPTIONS", options.c_str(), 1), 0);
  const aclError init = aclInit(nullptr);
  unsetenv("PROFILING_MODE");
  unsetenv("PROFILING_OPTIONS");
  ASSERT_ACL_OK(init);
  ASSERT_ACL_OK(aclrtSetDevice(0));
  const std::string path = dir.string();
  EXPECT_ACL_ERR(ACL_ERROR_PROF_API_CONFLICT, aclprofInit, path.c_str(), path.size());
  RunAddProgram();
  ASSERT_ACL_OK(aclrtResetDevice(0));
  ASSERT_ACL_OK(aclFinalize());
  const fs::path run = OnlyRun(dir);
  ASSERT_FALSE(run.empty());
  int kernels = 0;
  for (const auto& t : RawLines(run, "task")) kernels += t["kind"] == "KERNEL";
  EXPECT_EQ(kernels, 1);
  fs::remove_all(dir);
}

TEST(ProfTest, AclInitProfilerKeyProfilesTheWholeProgram) {
  const fs::path dir = FreshDir("json");
  const fs::path config = dir / "acl.json";
  {
    std::ofstream out(config);
    out << "{\"profiler\": {\"switch\": \"on\", \"output\": \"" << (dir / "out").string()
        << "\", \"aic_metrics\": \"PipeUtilization\"}}";
  }
  ASSERT_ACL_OK(aclInit(config.string().c_str()));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  RunAddProgram();
  ASSERT_ACL_OK(aclrtResetDevice(0));
  ASSERT_ACL_OK(aclFinalize());
  const fs::path run = OnlyRun(dir / "out");
  ASSERT_FALSE(run.empty());
  EXPECT_NE(Output(run, "op_summary_").find("Add"), std::string::npos);
  // A malformed key fails aclInit and leaves nothing initialised.
  {
    std::ofstream out(config);
    out << "{\"profiler\": {\"switch\": \"on\", \"output\": 7}}";
  }
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PROFILING_CONFIG, aclInit, config.string().c_str());
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
  fs::remove_all(dir);
}

}  // namespace
