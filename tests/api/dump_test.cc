// Data dump through the public API, as a CANN user switches it on: aclmdlInitDump /
// aclmdlSetDump / aclmdlFinalizeDump and the aclInit "dump" key for models and single ops,
// aclopStartDumpArgs / aclopStopDumpArgs, the exception dump of a failing kernel, and the
// errors. The files are read back with the format library (src/dfx/dump_file.h,
// docs/dump.md) and compared with what the program computed.
#include <stdlib.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "acl/acl_dump.h"
#include "api_test.h"
#include "dfx/dump_file.h"

namespace {

namespace fs = std::filesystem;
namespace dump = aclsim::dfx::dump;
using acltest::AclNoInitTest;
using acltest::AclTest;
using acltest::ScopedEnv;
using acltest::TempFile;

std::string ModelPath(const char* name) { return std::string(ACLSIM_GRAPH_MODEL_DIR "/") + name; }

const std::vector<float> kX = {1, -2, 3, -4, 5, -6};
const std::vector<float> kY = {0.5F, 1, -1, 2, -8, 1};

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

// A fresh directory for dump files, removed with the object.
class ScratchDir {
 public:
  ScratchDir() {
    path_ = fs::temp_directory_path() /
            ("aclsim_dump_" + std::to_string(getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ScratchDir() { fs::remove_all(path_); }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string str() const { return path_.string(); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Every regular file under `dir` whose path contains `part` (sorted).
std::vector<fs::path> FilesUnder(const fs::path& dir, const std::string& part = "") {
  std::vector<fs::path> files;
  if (!fs::exists(dir)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    if (entry.path().extension() == ".json" && part.empty()) continue;  // configs
    if (entry.path().string().find(part) != std::string::npos) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The dump files under `dir`, parsed, keyed by op type (one per type expected).
std::map<std::string, dump::DumpRecord> RecordsUnder(const fs::path& dir) {
  std::map<std::string, dump::DumpRecord> records;
  for (const auto& file : FilesUnder(dir)) {
    auto record = dump::ReadFile(file.string());
    EXPECT_TRUE(record.ok()) << record.status().message();
    if (!record.ok()) continue;
    EXPECT_EQ(records.count(record->op_type), 0u) << "two dumps of " << record->op_type;
    records[record->op_type] = std::move(record.value());
  }
  return records;
}

// A dump config with `members` inside the "dump" object, written next to the dumps.
std::string DumpConfig(const ScratchDir& dir, const std::string& members) {
  const std::string path = dir.str() + "/dump.json";
  std::ofstream(path) << "{\"dump\": {\"dump_path\": \"" << dir.str() << "\", " << members << "}}";
  return path;
}

const dump::DumpTensor* Find(const dump::DumpRecord& record, dump::TensorKind kind,
                             uint32_t index) {
  for (const auto& tensor : record.tensors) {
    if (tensor.kind == kind && tensor.index == index) return &tensor;
  }
  return nullptr;
}

size_t CountKind(const dump::DumpRecord& record, dump::TensorKind kind) {
  return static_cast<size_t>(std::count_if(record.tensors.begin(), record.tensors.end(),
                                           [kind](const auto& t) { return t.kind == kind; }));
}

// add_relu (make_graph_models.cc): add = x + y (model output "sum"), relu = Relu(add),
// scale = relu * 2 (model output "out"). Runs it once and returns the outputs' bytes.
struct AddReluRun {
  std::vector<uint8_t> out;
  std::vector<uint8_t> sum;
};

AddReluRun RunAddRelu(uint32_t id) {
  aclmdlDataset* in = aclmdlCreateDataset();
  aclmdlDataset* out = aclmdlCreateDataset();
  std::vector<void*> dev;
  auto add = [&](aclmdlDataset* set, const std::vector<float>* values) {
    void* ptr = nullptr;
    EXPECT_ACL_OK(aclrtMalloc(&ptr, 24, ACL_MEM_MALLOC_HUGE_FIRST));
    if (values != nullptr) {
      EXPECT_ACL_OK(aclrtMemcpy(ptr, 24, values->data(), 24, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    EXPECT_ACL_OK(aclmdlAddDatasetBuffer(set, aclCreateDataBuffer(ptr, 24)));
    dev.push_back(ptr);
  };
  add(in, &kX);
  add(in, &kY);
  add(out, nullptr);
  add(out, nullptr);
  EXPECT_ACL_OK(aclmdlExecute(id, in, out));
  AddReluRun run;
  run.out = acltest::Download(dev[2], 24);
  run.sum = acltest::Download(dev[3], 24);
  for (aclmdlDataset* set : {in, out}) {
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(set); ++i) {
      (void)aclDestroyDataBuffer(aclmdlGetDatasetBuffer(set, i));
    }
    (void)aclmdlDestroyDataset(set);
  }
  for (void* ptr : dev) (void)aclrtFree(ptr);
  return run;
}

uint32_t LoadAddRelu() {
  uint32_t id = 0;
  EXPECT_ACL_OK(aclmdlLoadFromFile(ModelPath("add_relu.om").c_str(), &id));
  return id;
}

class DumpTest : public AclTest {};

TEST_F(DumpTest, ModelDumpWritesOneFilePerNodeWithItsOutputs) {
  ScratchDir dir;
  ASSERT_ACL_OK(aclmdlInitDump());
  ASSERT_ACL_OK(aclmdlSetDump(
      DumpConfig(dir, R"("dump_mode": "output", "dump_list": [{"model_name": "add_relu"}])")
          .c_str()));
  const uint32_t id = LoadAddRelu();
  const AddReluRun run = RunAddRelu(id);
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  // Dumping does not change the results.
  for (size_t i = 0; i < 6; ++i) {
    float sum = 0;
    float out = 0;
    std::memcpy(&sum, run.sum.data() + i * 4, 4);
    std::memcpy(&out, run.out.data() + i * 4, 4);
    EXPECT_FLOAT_EQ(sum, kX[i] + kY[i]);
    EXPECT_FLOAT_EQ(out, kX[i] + kY[i] > 0 ? 2 * (kX[i] + kY[i]) : 0.0F);
  }
  // CANN's layout: <dump_path>/<time>/<device>/<model>/<model id>/<step>/<type>.<name>...
  const auto files = FilesUnder(dir.path());
  ASSERT_EQ(files.size(), 3u);
  for (const auto& file : files) {
    const fs::path step = file.parent_path();
    EXPECT_EQ(step.filename(), "0") << file;
    EXPECT_EQ(step.parent_path().filename(), std::to_string(id)) << file;
    EXPECT_EQ(step.parent_path().parent_path().filename(), "add_relu") << file;
    EXPECT_EQ(step.parent_path().parent_path().parent_path().filename(), "0") << file;
    const std::string time =
        step.parent_path().parent_path().parent_path().parent_path().filename().string();
    EXPECT_EQ(time.size(), 14u) << file;  // YYYYMMDDhhmmss
  }
  auto records = RecordsUnder(dir.path());
  ASSERT_EQ(records.size(), 3u);
  const dump::DumpRecord& add = records["Add"];
  EXPECT_EQ(add.op_name, "add");
  EXPECT_EQ(add.model_name, "add_relu");
  EXPECT_EQ(add.model_id, id);
  EXPECT_EQ(add.step, 0u);
  EXPECT_NE(add.task_id, 0u);
  ASSERT_EQ(add.tensors.size(), 1u);  // output mode: outputs only
  const auto* sum = Find(add, dump::TensorKind::kOutput, 0);
  ASSERT_NE(sum, nullptr);
  EXPECT_EQ(sum->dtype, ACL_FLOAT);
  EXPECT_EQ(sum->format, ACL_FORMAT_ND);
  EXPECT_EQ(sum->dims, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(sum->data, run.sum);
  const auto* scaled = Find(records["Mul"], dump::TensorKind::kOutput, 0);
  ASSERT_NE(scaled, nullptr);
  EXPECT_EQ(records["Mul"].op_name, "scale");
  EXPECT_EQ(scaled->data, run.out);
  const auto* relu = Find(records["Relu"], dump::TensorKind::kOutput, 0);
  ASSERT_NE(relu, nullptr);
  std::vector<float> relu_values(6);
  std::memcpy(relu_values.data(), relu->data.data(), 24);
  for (size_t i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(relu_values[i], std::max(kX[i] + kY[i], 0.0F));
  EXPECT_ACL_OK(aclmdlUnload(id));
}

TEST_F(DumpTest, InputModeDumpsInputsOnlyAndAllModeBoth) {
  for (const char* mode : {"input", "all"}) {
    SCOPED_TRACE(mode);
    ScratchDir dir;
    ASSERT_ACL_OK(aclmdlInitDump());
    ASSERT_ACL_OK(
        aclmdlSetDump(DumpConfig(dir, std::string("\"dump_mode\": \"") + mode +
                                          "\", \"dump_list\": [{\"model_name\": \"add_relu\"}]")
                          .c_str()));
    const uint32_t id = LoadAddRelu();
    const AddReluRun run = RunAddRelu(id);
    ASSERT_ACL_OK(aclmdlFinalizeDump());
    auto records = RecordsUnder(dir.path());
    ASSERT_EQ(records.size(), 3u);
    const dump::DumpRecord& add = records["Add"];
    EXPECT_EQ(CountKind(add, dump::TensorKind::kInput), 2u);
    EXPECT_EQ(CountKind(add, dump::TensorKind::kOutput), std::strcmp(mode, "all") == 0 ? 1u : 0u);
    ASSERT_NE(Find(add, dump::TensorKind::kInput, 0), nullptr);
    EXPECT_EQ(Find(add, dump::TensorKind::kInput, 0)->data, Bytes(kX));
    EXPECT_EQ(Find(add, dump::TensorKind::kInput, 1)->data, Bytes(kY));
    // Mul's second input is the constant 2.
    const auto* two = Find(records["Mul"], dump::TensorKind::kInput, 1);
    ASSERT_NE(two, nullptr);
    EXPECT_EQ(two->data, Bytes(std::vector<float>(6, 2.0F)));
    if (std::strcmp(mode, "all") == 0) {
      EXPECT_EQ(Find(records["Mul"], dump::TensorKind::kOutput, 0)->data, run.out);
    }
    EXPECT_ACL_OK(aclmdlUnload(id));
  }
}

TEST_F(DumpTest, LayerListDumpsOnlyTheNamedNodes) {
  ScratchDir dir;
  ASSERT_ACL_OK(aclmdlInitDump());
  ASSERT_ACL_OK(aclmdlSetDump(
      DumpConfig(dir, R"("dump_list": [{"model_name": "add_relu", "layer": ["relu"]}])").c_str()));
  const uint32_t id = LoadAddRelu();
  RunAddRelu(id);
  auto records = RecordsUnder(dir.path());
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records.begin()->first, "Relu");
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  EXPECT_ACL_OK(aclmdlUnload(id));
}

TEST_F(DumpTest, OnlyModelsLoadedAfterSetDumpAreDumped) {
  ScratchDir dir;
  ASSERT_ACL_OK(aclmdlInitDump());
  const uint32_t before = LoadAddRelu();
  ASSERT_ACL_OK(
      aclmdlSetDump(DumpConfig(dir, R"("dump_list": [{"model_name": "add_relu"}])").c_str()));
  RunAddRelu(before);
  EXPECT_TRUE(FilesUnder(dir.path()).empty());
  const uint32_t after = LoadAddRelu();
  RunAddRelu(after);
  EXPECT_EQ(FilesUnder(dir.path(), "/" + std::to_string(after) + "/").size(), 3u);
  EXPECT_EQ(FilesUnder(dir.path()).size(), 3u);
  // A model of another name is not dumped either.
  uint32_t other = 0;
  ASSERT_ACL_OK(aclmdlLoadFromFile(ModelPath("reshape.om").c_str(), &other));
  EXPECT_EQ(FilesUnder(dir.path(), "reshape").size(), 0u);
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  EXPECT_ACL_OK(aclmdlUnload(before));
  EXPECT_ACL_OK(aclmdlUnload(after));
  EXPECT_ACL_OK(aclmdlUnload(other));
}

TEST_F(DumpTest, FinalizeDumpStopsItAndDumpCanStartAgain) {
  ScratchDir dir;
  ASSERT_ACL_OK(aclmdlInitDump());
  ASSERT_ACL_OK(
      aclmdlSetDump(DumpConfig(dir, R"("dump_list": [{"model_name": "add_relu"}])").c_str()));
  const uint32_t id = LoadAddRelu();
  RunAddRelu(id);
  ASSERT_EQ(FilesUnder(dir.path()).size(), 3u);
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  RunAddRelu(id);
  EXPECT_EQ(FilesUnder(dir.path()).size(), 3u);
  // Init again: the model (loaded under the ended configuration) stays undumped.
  ASSERT_ACL_OK(aclmdlInitDump());
  RunAddRelu(id);
  EXPECT_EQ(FilesUnder(dir.path()).size(), 3u);
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  EXPECT_ACL_OK(aclmdlUnload(id));
}

TEST_F(DumpTest, DumpStepSelectsExecutions) {
  ScratchDir dir;
  ASSERT_ACL_OK(aclmdlInitDump());
  ASSERT_ACL_OK(aclmdlSetDump(
      DumpConfig(dir, R"("dump_step": "1|3-4", "dump_list": [{"model_name": "add_relu"}])")
          .c_str()));
  const uint32_t id = LoadAddRelu();
  for (int i = 0; i < 5; ++i) RunAddRelu(id);
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  EXPECT_EQ(FilesUnder(dir.path()).size(), 9u);
  for (int step = 0; step < 5; ++step) {
    const std::string part = "/" + std::to_string(id) + "/" + std::to_string(step) + "/";
    EXPECT_EQ(FilesUnder(dir.path(), part).size(), step == 1 || step >= 3 ? 3u : 0u) << step;
  }
  EXPECT_ACL_OK(aclmdlUnload(id));
}

TEST_F(DumpTest, StatsDataWritesStatisticsInsteadOfTensors) {
  ScratchDir dir;
  ASSERT_ACL_OK(aclmdlInitDump());
  ASSERT_ACL_OK(aclmdlSetDump(DumpConfig(dir, R"("dump_data": "stats", "dump_mode": "all",
                         "dump_list": [{"model_name": "add_relu", "layer": ["add"]}])")
                                  .c_str()));
  const uint32_t id = LoadAddRelu();
  RunAddRelu(id);
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  auto records = RecordsUnder(dir.path());
  ASSERT_EQ(records.size(), 1u);
  const auto* x = Find(records["Add"], dump::TensorKind::kInput, 0);
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->payload, dump::Payload::kStats);
  EXPECT_TRUE(x->data.empty());
  EXPECT_EQ(x->bytes, 24u);
  EXPECT_EQ(x->stats.min, -6);
  EXPECT_EQ(x->stats.max, 5);
  EXPECT_DOUBLE_EQ(x->stats.mean, -0.5);
  EXPECT_EQ(x->stats.count, 6u);
  EXPECT_ACL_OK(aclmdlUnload(id));
}

TEST_F(DumpTest, DynamicShapeModelNodesAreDumpedWithTheirRealShapes) {
  ScratchDir dir;
  ASSERT_ACL_OK(aclmdlInitDump());
  ASSERT_ACL_OK(aclmdlSetDump(
      DumpConfig(dir, R"("dump_list": [{"model_name": "dyn_shape", "layer": ["relu"]}])").c_str()));
  uint32_t id = 0;
  ASSERT_ACL_OK(aclmdlLoadFromFile(ModelPath("dyn_shape.om").c_str(), &id));
  aclmdlDataset* in = aclmdlCreateDataset();
  aclmdlDataset* out = aclmdlCreateDataset();
  void* x = nullptr;
  void* shape = nullptr;
  void* y = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&x, 24, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMalloc(&shape, 16, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMalloc(&y, 24, ACL_MEM_MALLOC_HUGE_FIRST));
  const std::vector<int64_t> dims = {3, 2};
  ASSERT_ACL_OK(aclrtMemcpy(x, 24, kX.data(), 24, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtMemcpy(shape, 16, dims.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(x, 24)));
  ASSERT_ACL_OK(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(shape, 16)));
  ASSERT_ACL_OK(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(y, 24)));
  ASSERT_ACL_OK(aclmdlExecute(id, in, out));
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  auto records = RecordsUnder(dir.path());
  ASSERT_EQ(records.size(), 1u);
  const auto* relu = Find(records["Relu"], dump::TensorKind::kOutput, 0);
  ASSERT_NE(relu, nullptr);
  EXPECT_EQ(relu->dims, dims);
  EXPECT_EQ(relu->data, acltest::Download(y, 24));
  for (aclmdlDataset* set : {in, out}) {
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(set); ++i) {
      (void)aclDestroyDataBuffer(aclmdlGetDatasetBuffer(set, i));
    }
    (void)aclmdlDestroyDataset(set);
  }
  for (void* ptr : {x, shape, y}) (void)aclrtFree(ptr);
  EXPECT_ACL_OK(aclmdlUnload(id));
}

// Add of two float [256] tensors as a single op; returns the output's bytes.
std::vector<uint8_t> RunSingleAdd(aclrtStream stream, const std::vector<float>& a,
                                  const std::vector<float>& b, int64_t n = 256) {
  const size_t bytes = static_cast<size_t>(n) * 4;
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 1, &n, ACL_FORMAT_ND);
  void* dev[3] = {};
  aclDataBuffer* buffers[3] = {};
  for (int i = 0; i < 3; ++i) {
    EXPECT_ACL_OK(aclrtMalloc(&dev[i], bytes, ACL_MEM_MALLOC_NORMAL_ONLY));
    buffers[i] = aclCreateDataBuffer(dev[i], bytes);
  }
  EXPECT_ACL_OK(aclrtMemcpy(dev[0], bytes, a.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_OK(aclrtMemcpy(dev[1], bytes, b.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  aclTensorDesc* in[2] = {desc, desc};
  aclTensorDesc* out[1] = {desc};
  EXPECT_ACL_OK(aclopExecuteV2("Add", 2, in, buffers, 1, out, buffers + 2, nullptr, stream));
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream));
  std::vector<uint8_t> result = acltest::Download(dev[2], bytes);
  for (int i = 0; i < 3; ++i) {
    aclDestroyDataBuffer(buffers[i]);
    aclrtFree(dev[i]);
  }
  aclDestroyTensorDesc(desc);
  return result;
}

std::vector<float> Ramp(size_t n, float start) {
  std::vector<float> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = start + static_cast<float>(i);
  return values;
}

TEST_F(DumpTest, SingleOpsAreDumpedWhileDumpOpSwitchIsOn) {
  ScratchDir dir;
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  const auto a = Ramp(256, 1);
  const auto b = Ramp(256, -100);
  RunSingleAdd(stream, a, b);  // before: not dumped
  ASSERT_ACL_OK(aclmdlInitDump());
  ASSERT_ACL_OK(aclmdlSetDump(
      DumpConfig(dir, R"("dump_list": [], "dump_mode": "all", "dump_op_switch": "on")").c_str()));
  const std::vector<uint8_t> sum = RunSingleAdd(stream, a, b);
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  RunSingleAdd(stream, a, b);  // after: not dumped
  const auto files = FilesUnder(dir.path());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].parent_path().filename(), "single_op");
  EXPECT_EQ(files[0].filename().string().rfind("Add.Add.", 0), 0u) << files[0];
  auto records = RecordsUnder(dir.path());
  const dump::DumpRecord& add = records["Add"];
  EXPECT_TRUE(add.model_name.empty());
  int32_t stream_id = -1;
  ASSERT_ACL_OK(aclrtStreamGetId(stream, &stream_id));
  EXPECT_EQ(add.stream_id, static_cast<uint32_t>(stream_id));
  ASSERT_EQ(add.tensors.size(), 3u);
  EXPECT_EQ(Find(add, dump::TensorKind::kInput, 0)->data, Bytes(a));
  EXPECT_EQ(Find(add, dump::TensorKind::kInput, 1)->data, Bytes(b));
  EXPECT_EQ(Find(add, dump::TensorKind::kOutput, 0)->data, sum);
  EXPECT_EQ(Find(add, dump::TensorKind::kOutput, 0)->dims, (std::vector<int64_t>{256}));
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(DumpTest, SingleOpsAreNotDumpedWithTheSwitchOff) {
  ScratchDir dir;
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclmdlInitDump());
  ASSERT_ACL_OK(aclmdlSetDump(
      DumpConfig(dir, R"("dump_list": [{"model_name": "add_relu"}], "dump_op_switch": "off")")
          .c_str()));
  RunSingleAdd(stream, Ramp(256, 0), Ramp(256, 1));
  EXPECT_TRUE(FilesUnder(dir.path()).empty());
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(DumpTest, DumpArgsWritesOneFilePerDistinctCallUntilStopped) {
  ScratchDir dir;
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  const std::string args = dir.str() + "/args";
  ASSERT_ACL_OK(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, args.c_str()));
  RunSingleAdd(stream, Ramp(256, 0), Ramp(256, 1));
  RunSingleAdd(stream, Ramp(256, 2), Ramp(256, 3));  // same call: no new file
  RunSingleAdd(stream, Ramp(16, 0), Ramp(16, 1), 16);
  ASSERT_ACL_OK(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS));
  RunSingleAdd(stream, Ramp(8, 0), Ramp(8, 1), 8);  // stopped
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(args)) files.push_back(entry.path());
  ASSERT_EQ(files.size(), 2u);
  bool saw_16 = false;
  for (const auto& file : files) {
    EXPECT_EQ(file.extension(), ".json");
    EXPECT_EQ(file.filename().string().rfind("Add.", 0), 0u) << file;
    std::ifstream in(file);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    EXPECT_NE(text.find("\"op_type\": \"Add\""), std::string::npos) << text;
    EXPECT_NE(text.find("\"address\": \"0x"), std::string::npos) << text;
    EXPECT_NE(text.find("\"dtype\": \"float32\""), std::string::npos) << text;
    EXPECT_NE(text.find("\"block_dim\""), std::string::npos) << text;
    saw_16 |= text.find("\"size\": 64") != std::string::npos;
  }
  EXPECT_TRUE(saw_16);
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(DumpTest, DumpArgsRefusesBadArguments) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopStartDumpArgs, 2u, "/tmp");
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopStartDumpArgs, ACL_OP_DUMP_OP_AICORE_ARGS, nullptr);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopStartDumpArgs, ACL_OP_DUMP_OP_AICORE_ARGS, "");
  EXPECT_ACL_ERR(ACL_ERROR_WRITE_FILE, aclopStartDumpArgs, ACL_OP_DUMP_OP_AICORE_ARGS,
                 "/proc/aclsim-no-such-dir/x");
  EXPECT_ACL_ERR(ACL_ERROR_DUMP_NOT_RUN, aclopStopDumpArgs, ACL_OP_DUMP_OP_AICORE_ARGS);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopStopDumpArgs, 7u);
}

TEST_F(DumpTest, MisuseOfInitSetFinalizeGetsTheDocumentedCodes) {
  ScratchDir dir;
  const std::string good = DumpConfig(dir, R"("dump_list": [{"model_name": "add_relu"}])");
  EXPECT_ACL_ERR(ACL_ERROR_DUMP_NOT_RUN, aclmdlSetDump, good.c_str());
  EXPECT_ACL_ERR(ACL_ERROR_DUMP_NOT_RUN, aclmdlFinalizeDump);
  ASSERT_ACL_OK(aclmdlInitDump());
  EXPECT_ACL_ERR(ACL_ERROR_DUMP_ALREADY_RUN, aclmdlInitDump);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlSetDump, nullptr);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_FILE, aclmdlSetDump, "/nonexistent/dump.json");
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_FILE, aclmdlSetDump, "");
  TempFile malformed(
      "{\"dump\": {\"dump_path\": \"/tmp\", \"dump_mode\": \"sideways\", "
      "\"dump_list\": []}}");
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_DUMP_CONFIG, aclmdlSetDump, malformed.path());
  TempFile no_key("{\"profiler\": {}}");
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_DUMP_CONFIG, aclmdlSetDump, no_key.path());
  TempFile not_json("{dump");
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_DUMP_CONFIG, aclmdlSetDump, not_json.path());
  EXPECT_ACL_OK(aclmdlSetDump(good.c_str()));
  EXPECT_ACL_OK(aclmdlSetDump(good.c_str()));  // a second SetDump replaces the first
  EXPECT_ACL_OK(aclmdlFinalizeDump());
  EXPECT_ACL_ERR(ACL_ERROR_DUMP_NOT_RUN, aclmdlFinalizeDump);
}

TEST_F(DumpTest, GetPathAnswersTheDumpPathOnceConfigured) {
  ScratchDir dir;
  acltest::ClearRecentErrors();
  EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);
  EXPECT_RECENT_ERROR_NAMES(acldumpGetPath);
  ASSERT_ACL_OK(aclmdlInitDump());
  ASSERT_ACL_OK(
      aclmdlSetDump(DumpConfig(dir, R"("dump_list": [{"model_name": "add_relu"}])").c_str()));
  const char* path = acldumpGetPath(DATA_DUMP);
  ASSERT_NE(path, nullptr);
  EXPECT_EQ(fs::path(path), dir.path().lexically_normal());
  acltest::ClearRecentErrors();
  EXPECT_EQ(acldumpGetPath(OVERFLOW_DUMP), nullptr);
  EXPECT_RECENT_ERROR_NAMES(acldumpGetPath);
  EXPECT_EQ(acldumpGetPath(static_cast<acldumpType>(42)), nullptr);
  EXPECT_RECENT_ERROR_NAMES(acldumpGetPath);
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);
}

TEST_F(AclNoInitTest, DumpFunctionsNeedAclInit) {
  EXPECT_ACL_ERR(ACL_ERROR_UNINITIALIZE, aclmdlInitDump);
  EXPECT_ACL_ERR(ACL_ERROR_UNINITIALIZE, aclmdlSetDump, "/tmp/x.json");
  EXPECT_ACL_ERR(ACL_ERROR_UNINITIALIZE, aclmdlFinalizeDump);
  EXPECT_ACL_ERR(ACL_ERROR_UNINITIALIZE, aclopStartDumpArgs, ACL_OP_DUMP_OP_AICORE_ARGS, "/tmp");
  EXPECT_ACL_ERR(ACL_ERROR_UNINITIALIZE, aclopStopDumpArgs, ACL_OP_DUMP_OP_AICORE_ARGS);
}

TEST_F(AclNoInitTest, AclInitDumpKeyDumpsModelsFromTheStart) {
  ScratchDir dir;
  const std::string config = DumpConfig(dir, R"("dump_list": [{"model_name": "add_relu"}])");
  ASSERT_ACL_OK(aclInit(config.c_str()));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  // Dump is initialised by the config: aclmdlInitDump refuses (CANN).
  EXPECT_ACL_ERR(ACL_ERROR_DUMP_ALREADY_RUN, aclmdlInitDump);
  const uint32_t id = LoadAddRelu();
  RunAddRelu(id);
  EXPECT_EQ(FilesUnder(dir.path()).size(), 3u);
  EXPECT_ACL_OK(aclmdlUnload(id));
}

TEST_F(AclNoInitTest, AclInitRefusesAMalformedDumpKey) {
  TempFile config("{\"dump\": {\"dump_path\": \"/tmp\", \"dump_list\": [], \"dump_step\": \"x\"}}");
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_DUMP_CONFIG, aclInit, config.path());
  // Nothing was initialised: a good aclInit works.
  EXPECT_ACL_OK(aclInit(nullptr));
}

// The exception dump: NPU_COLLECT_PATH set, the device's 2nd kernel raises an AI Core
// exception; the failing kernel's inputs land in <path>/extra-info/data-dump/<device>/.
TEST_F(AclNoInitTest, ExceptionDumpWritesTheFailingKernelsInputs) {
  ScratchDir dir;
  const ScopedEnv collect("NPU_COLLECT_PATH", dir.str().c_str());
  TempFile config(acltest::AclsimConfig("\"fault_aicore_exception\": \"2\""));
  ASSERT_ACL_OK(aclInit(config.path()));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  int64_t n = 64;
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 1, &n, ACL_FORMAT_ND);
  void* dev[3] = {};
  aclDataBuffer* buffers[3] = {};
  const auto a = Ramp(64, 3);
  for (int i = 0; i < 3; ++i) {
    ASSERT_ACL_OK(aclrtMalloc(&dev[i], 256, ACL_MEM_MALLOC_NORMAL_ONLY));
    ASSERT_ACL_OK(aclrtMemcpy(dev[i], 256, a.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE));
    buffers[i] = aclCreateDataBuffer(dev[i], 256);
  }
  aclTensorDesc* in[2] = {desc, desc};
  aclTensorDesc* out[1] = {desc};
  ASSERT_ACL_OK(aclopExecuteV2("Add", 2, in, buffers, 1, out, buffers + 2, nullptr, stream));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_TRUE(FilesUnder(dir.path()).empty());  // a kernel that works is not dumped
  ASSERT_ACL_OK(aclopExecuteV2("Mul", 2, in, buffers, 1, out, buffers + 2, nullptr, stream));
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
  const auto files = FilesUnder(dir.path());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].parent_path(), dir.path() / "extra-info" / "data-dump" / "0");
  const char* base = acldumpGetPath(AIC_ERR_BRIEF_DUMP);
  ASSERT_NE(base, nullptr);
  EXPECT_EQ(fs::path(base), (dir.path() / "extra-info" / "data-dump").lexically_normal());
  EXPECT_EQ(files[0].filename().string().rfind("Mul.Mul.", 0), 0u) << files[0];
  auto record = dump::ReadFile(files[0].string());
  ASSERT_TRUE(record.ok()) << record.status().message();
  EXPECT_NE(record->flags & dump::kFlagException, 0u);
  EXPECT_NE(record->task_id, 0u);
  ASSERT_NE(Find(*record, dump::TensorKind::kInput, 0), nullptr);
  EXPECT_EQ(Find(*record, dump::TensorKind::kInput, 0)->data, Bytes(a));
  // The output holds what Add wrote into it (Mul never ran).
  std::vector<float> doubled(64);
  for (size_t i = 0; i < 64; ++i) doubled[i] = 2 * a[i];
  ASSERT_NE(Find(*record, dump::TensorKind::kOutput, 0), nullptr);
  EXPECT_EQ(Find(*record, dump::TensorKind::kOutput, 0)->data, Bytes(doubled));
  for (int i = 0; i < 3; ++i) {
    aclDestroyDataBuffer(buffers[i]);
    aclrtFree(dev[i]);
  }
  aclDestroyTensorDesc(desc);
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(AclNoInitTest, ExceptionDumpIsOffWithoutNpuCollectPathOrAScene) {
  ScratchDir dir;
  const ScopedEnv collect("NPU_COLLECT_PATH", nullptr);
  const ScopedEnv work("ASCEND_WORK_PATH", dir.str().c_str());
  TempFile config(acltest::AclsimConfig("\"fault_aicore_exception\": \"1\""));
  ASSERT_ACL_OK(aclInit(config.path()));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  int64_t n = 4;
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 1, &n, ACL_FORMAT_ND);
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 16, ACL_MEM_MALLOC_NORMAL_ONLY));
  aclDataBuffer* buffer = aclCreateDataBuffer(dev, 16);
  aclTensorDesc* in[2] = {desc, desc};
  aclTensorDesc* out[1] = {desc};
  aclDataBuffer* ins[2] = {buffer, buffer};
  aclDataBuffer* outs[1] = {buffer};
  ASSERT_ACL_OK(aclopExecuteV2("Add", 2, in, ins, 1, out, outs, nullptr, stream));
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_TRUE(FilesUnder(dir.path()).empty());
  aclDestroyDataBuffer(buffer);
  aclrtFree(dev);
  aclDestroyTensorDesc(desc);
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
}

}  // namespace
