// aclnn operators under the profiler (acl_prof.h): each kernel an executor launches is a task
// named after its aclnn operator and kernel ("aclnnAdd_Add"), with the kernel as its op type,
// in the raw trace, the op summary and the timeline.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "acl/acl_prof.h"
#include "aclnn_test.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_matmul.h"

namespace {

namespace fs = std::filesystem;
using aclnntest::AclnnTest;
using aclnntest::DeviceArray;

// The text of the file under `run`/mindstudio_profiler_output whose name starts with `prefix`.
std::string ProfOutput(const fs::path& run, const std::string& prefix) {
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

TEST_F(AclnnTest, ProfiledOperatorsCarryTheirAclnnNames) {
  const fs::path dir =
      fs::temp_directory_path() / ("aclsim_aclnn_prof_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = dir.string();
  ASSERT_EQ(aclprofInit(path.c_str(), path.size()), ACL_SUCCESS);
  uint32_t devices[1] = {0};
  aclprofConfig* config = aclprofCreateConfig(devices, 1, ACL_AICORE_PIPE_UTILIZATION, nullptr,
                                              ACL_PROF_ACL_API | ACL_PROF_TASK_TIME);
  ASSERT_NE(config, nullptr);
  ASSERT_EQ(aclprofStart(config), ACL_SUCCESS);
  DeviceArray<float> a(std::vector<float>(64, 1)), b(std::vector<float>(64, 2)),
      c(std::vector<float>(64));
  float one_value = 1;
  aclScalar* one = aclCreateScalar(&one_value, ACL_FLOAT);
  ASSERT_EQ(ACLNN_RUN(stream_, Add, a.View({8, 8}, ACL_FLOAT), b.View({8, 8}, ACL_FLOAT), one,
                      c.View({8, 8}, ACL_FLOAT)),
            ACLNN_SUCCESS);
  ASSERT_EQ(ACLNN_RUN(stream_, Matmul, a.View({8, 8}, ACL_FLOAT), b.View({8, 8}, ACL_FLOAT),
                      c.View({8, 8}, ACL_FLOAT), 0),
            ACLNN_SUCCESS);
  aclDestroyScalar(one);
  ASSERT_EQ(aclprofStop(config), ACL_SUCCESS);
  ASSERT_EQ(aclprofFinalize(), ACL_SUCCESS);
  ASSERT_EQ(aclprofDestroyConfig(config), ACL_SUCCESS);

  fs::path run;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().rfind("PROF_", 0) == 0) run = e.path();
  }
  ASSERT_FALSE(run.empty());
  std::ifstream raw(run / "host" / "data" / "aclsim_trace.jsonl");
  std::string line;
  std::map<std::string, std::string> kernels;  // op name -> op type
  while (std::getline(raw, line)) {
    const auto j = nlohmann::json::parse(line);
    if (j.value("type", "") == "task" && j.value("kind", "") == "KERNEL") {
      kernels[j["op_name"].get<std::string>()] = j["op_type"].get<std::string>();
    }
  }
  EXPECT_EQ(kernels["aclnnAdd_Add"], "Add");
  EXPECT_EQ(kernels["aclnnMatmul_BatchMatMulV2"], "BatchMatMulV2");
  const std::string summary = ProfOutput(run, "op_summary_");
  EXPECT_NE(summary.find("aclnnAdd_Add"), std::string::npos) << summary;
  EXPECT_NE(summary.find("aclnnMatmul_BatchMatMulV2"), std::string::npos) << summary;
  EXPECT_NE(ProfOutput(run, "msprof_").find("aclnnAdd_Add"), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
