// Graph models through the public API only, as a model runner uses them: query sizes, load
// (file, memory, with memory, with a config handle), describe, bind datasets, execute
// (synchronously and on a stream), read the outputs back, unload. The models are written at
// build time by make_graph_models.cc.
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "acl/acl_ext.h"
#include "api_test.h"
#include "device_dataset.h"

namespace {

using acltest::AclNoInitTest;
using acltest::AclsimConfig;
using acltest::AclTest;
using acltest::DeviceDataset;
using acltest::TempFile;

constexpr int kBadParam = ACL_ERROR_INVALID_PARAM;

std::string ModelPath(const char* name) { return std::string(ACLSIM_GRAPH_MODEL_DIR "/") + name; }

std::vector<char> ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class ModelTest : public AclTest {};

const std::vector<float> kX = {1, -2, 3, -4, 5, -6};
const std::vector<float> kY = {0.5F, 1, -1, 2, -8, 1};

// Runs add_relu with kX, kY and checks both outputs.
void ExpectAddRelu(uint32_t id, aclrtStream stream) {
  DeviceDataset in;
  DeviceDataset out;
  in.AddFilled(kX);
  in.AddFilled(kY);
  out.Add(6 * sizeof(float));
  out.Add(6 * sizeof(float));
  if (stream == nullptr) {
    ASSERT_ACL_OK(aclmdlExecute(id, in.get(), out.get()));
  } else {
    ASSERT_ACL_OK(aclmdlExecuteAsync(id, in.get(), out.get(), stream));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  }
  const auto result = out.Read<float>(0, 6);
  const auto sum = out.Read<float>(1, 6);
  for (size_t i = 0; i < 6; ++i) {
    const float s = kX[i] + kY[i];
    EXPECT_FLOAT_EQ(sum[i], s) << i;
    EXPECT_FLOAT_EQ(result[i], s > 0 ? 2 * s : 0.0F) << i;
  }
}

TEST_F(ModelTest, LoadsFromFileExecutesAndUnloads) {
  uint32_t id = 0;
  ASSERT_ACL_OK(aclmdlLoadFromFile(ModelPath("add_relu.om").c_str(), &id));
  EXPECT_NE(id, 0u);
  ExpectAddRelu(id, nullptr);
  ExpectAddRelu(id, nullptr);  // the work memory is reused
  EXPECT_ACL_OK(aclmdlUnload(id));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_MODEL_ID, aclmdlUnload, id);
}

TEST_F(ModelTest, ExecutesAsynchronouslyOnStreams) {
  uint32_t id = 0;
  ASSERT_ACL_OK(aclmdlLoadFromFile(ModelPath("add_relu.om").c_str(), &id));
  aclrtStream a = nullptr;
  aclrtStream b = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&a));
  ASSERT_ACL_OK(aclrtCreateStream(&b));
  ExpectAddRelu(id, a);
  ExpectAddRelu(id, b);  // waits for the execution on `a` (shared work memory)
  ExpectAddRelu(id, a);
  EXPECT_ACL_OK(aclrtDestroyStream(a));
  EXPECT_ACL_OK(aclrtDestroyStream(b));
  EXPECT_ACL_OK(aclmdlUnload(id));
}

TEST_F(ModelTest, LoadsFromMemoryAndWithProgramMemory) {
  const std::vector<char> bytes = ReadAll(ModelPath("add_relu.om"));
  ASSERT_FALSE(bytes.empty());
  size_t work = 0;
  size_t weight = 0;
  ASSERT_ACL_OK(aclmdlQuerySizeFromMem(bytes.data(), bytes.size(), &work, &weight));
  EXPECT_GT(work, 0u);  // relu's output is an intermediate
  EXPECT_GE(weight, 6 * sizeof(float));
  size_t file_work = 0;
  size_t file_weight = 0;
  ASSERT_ACL_OK(aclmdlQuerySize(ModelPath("add_relu.om").c_str(), &file_work, &file_weight));
  EXPECT_EQ(file_work, work);
  EXPECT_EQ(file_weight, weight);

  uint32_t id = 0;
  ASSERT_ACL_OK(aclmdlLoadFromMem(bytes.data(), bytes.size(), &id));
  ExpectAddRelu(id, nullptr);
  EXPECT_ACL_OK(aclmdlUnload(id));

  void* work_ptr = nullptr;
  void* weight_ptr = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&work_ptr, work, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMalloc(&weight_ptr, weight, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_ERR(ACL_ERROR_MODEL_SIZE_INVALID, aclmdlLoadFromMemWithMem, bytes.data(), bytes.size(),
                 &id, work_ptr, work - 1, weight_ptr, weight);
  ASSERT_ACL_OK(aclmdlLoadFromMemWithMem(bytes.data(), bytes.size(), &id, work_ptr, work,
                                         weight_ptr, weight));
  ExpectAddRelu(id, nullptr);
  EXPECT_ACL_OK(aclmdlUnload(id));
  ASSERT_ACL_OK(aclmdlLoadFromFileWithMem(ModelPath("add_relu.om").c_str(), &id, work_ptr, work,
                                          weight_ptr, weight));
  ExpectAddRelu(id, nullptr);
  EXPECT_ACL_OK(aclmdlUnload(id));
  EXPECT_ACL_OK(aclrtFree(work_ptr));  // the program's memory stays the program's
  EXPECT_ACL_OK(aclrtFree(weight_ptr));
}

TEST_F(ModelTest, ReportsItsMemoryPlan) {
  uint32_t id = 0;
  ASSERT_ACL_OK(aclmdlLoadFromFile(ModelPath("add_relu.om").c_str(), &id));
  size_t arena = 0;
  size_t total = 0;
  size_t lower = 0;
  ASSERT_ACL_OK(aclextModelGetMemoryPlan(id, &arena, &total, &lower));
  size_t work = 0;
  size_t weight = 0;
  ASSERT_ACL_OK(aclmdlQuerySize(ModelPath("add_relu.om").c_str(), &work, &weight));
  EXPECT_EQ(arena, work);
  // relu's output, the only intermediate (sum and out are outputs), counts rounded up to
  // the arena alignment (512 bytes).
  EXPECT_EQ(total, 512u);
  EXPECT_LE(lower, arena);
  EXPECT_ACL_OK(aclmdlUnload(id));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_MODEL_ID, aclextModelGetMemoryPlan, id, &arena, nullptr,
                 nullptr);
}

TEST_F(ModelTest, LoadsWithAConfigHandle) {
  aclmdlConfigHandle* config = aclmdlCreateConfigHandle();
  ASSERT_NE(config, nullptr);
  const std::string path = ModelPath("add_relu.om");
  const char* path_ptr = path.c_str();
  size_t type = ACL_MDL_LOAD_FROM_FILE;
  ASSERT_ACL_OK(aclmdlSetConfigOpt(config, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof(type)));
  ASSERT_ACL_OK(aclmdlSetConfigOpt(config, ACL_MDL_PATH_PTR, &path_ptr, sizeof(path_ptr)));
  uint32_t id = 0;
  ASSERT_ACL_OK(aclmdlLoadWithConfig(config, &id));
  ExpectAddRelu(id, nullptr);
  EXPECT_ACL_OK(aclmdlUnload(id));
  EXPECT_ACL_OK(aclmdlDestroyConfigHandle(config));
}

TEST_F(ModelTest, DescribesInputsAndOutputs) {
  uint32_t id = 0;
  ASSERT_ACL_OK(aclmdlLoadFromFile(ModelPath("add_relu.om").c_str(), &id));
  aclmdlDesc* desc = aclmdlCreateDesc();
  ASSERT_NE(desc, nullptr);
  EXPECT_EQ(aclmdlGetNumInputs(desc), 0u);  // not filled yet
  ASSERT_ACL_OK(aclmdlGetDesc(desc, id));
  EXPECT_EQ(aclmdlGetNumInputs(desc), 2u);
  EXPECT_EQ(aclmdlGetNumOutputs(desc), 2u);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 0), 24u);
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc, 1), 24u);
  EXPECT_STREQ(aclmdlGetInputNameByIndex(desc, 1), "y");
  EXPECT_STREQ(aclmdlGetOutputNameByIndex(desc, 0), "out");
  EXPECT_EQ(aclmdlGetInputDataType(desc, 0), ACL_FLOAT);
  EXPECT_EQ(aclmdlGetOutputFormat(desc, 0), ACL_FORMAT_ND);
  aclmdlIODims dims = {};
  ASSERT_ACL_OK(aclmdlGetInputDims(desc, 0, &dims));
  EXPECT_STREQ(dims.name, "x");
  ASSERT_EQ(dims.dimCount, 2u);
  EXPECT_EQ(dims.dims[0], 2);
  EXPECT_EQ(dims.dims[1], 3);
  ASSERT_ACL_OK(aclmdlGetOutputDims(desc, 1, &dims));
  EXPECT_STREQ(dims.name, "sum");
  size_t index = 99;
  ASSERT_ACL_OK(aclmdlGetOutputIndexByName(desc, "sum", &index));
  EXPECT_EQ(index, 1u);
  EXPECT_ACL_ERR(kBadParam, aclmdlGetInputIndexByName, desc, "nope", &index);
  EXPECT_STREQ(aclmdlGetOpAttr(desc, "scale", "unused_note"), "kept for aclmdlGetOpAttr");
  EXPECT_EQ(aclmdlGetOpAttr(desc, "scale", "missing"), nullptr);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 2), 0u);
  EXPECT_RECENT_ERROR_NAMES(aclmdlGetInputSizeByIndex);
  aclmdlBatch batch = {};
  ASSERT_ACL_OK(aclmdlGetDynamicBatch(desc, &batch));
  EXPECT_EQ(batch.batchCount, 0u);

  aclmdlDesc* from_file = aclmdlCreateDesc();
  ASSERT_ACL_OK(aclmdlGetDescFromFile(from_file, ModelPath("add_relu.om").c_str()));
  EXPECT_EQ(aclmdlGetNumInputs(from_file), 2u);
  EXPECT_ACL_OK(aclmdlDestroyDesc(from_file));
  EXPECT_ACL_OK(aclmdlDestroyDesc(desc));
  EXPECT_ACL_OK(aclmdlUnload(id));
}

TEST_F(ModelTest, FillsPassThroughOutputsByCopies) {
  uint32_t id = 0;
  ASSERT_ACL_OK(aclmdlLoadFromFile(ModelPath("passthrough.om").c_str(), &id));
  DeviceDataset in;
  DeviceDataset out;
  in.AddFilled(std::vector<int32_t>{1, 2, 3, 4});
  out.Add(16);
  out.Add(16);
  ASSERT_ACL_OK(aclmdlExecute(id, in.get(), out.get()));
  EXPECT_EQ(out.Read<int32_t>(0, 4), (std::vector<int32_t>{1, 2, 3, 4}));
  EXPECT_EQ(out.Read<int32_t>(1, 4), (std::vector<int32_t>{7, 8, 9, 10}));
  EXPECT_ACL_OK(aclmdlUnload(id));
}

TEST_F(ModelTest, ReadsConstantShapesFromTheWeights) {
  uint32_t id = 0;
  ASSERT_ACL_OK(aclmdlLoadFromFile(ModelPath("reshape.om").c_str(), &id));
  aclmdlDesc* desc = aclmdlCreateDesc();
  ASSERT_ACL_OK(aclmdlGetDesc(desc, id));
  aclmdlIODims dims = {};
  ASSERT_ACL_OK(aclmdlGetOutputDims(desc, 0, &dims));
  ASSERT_EQ(dims.dimCount, 2u);
  EXPECT_EQ(dims.dims[0], 3);
  EXPECT_EQ(dims.dims[1], 2);
  DeviceDataset in;
  DeviceDataset out;
  in.AddFilled(kX);
  out.Add(24);
  ASSERT_ACL_OK(aclmdlExecute(id, in.get(), out.get()));
  EXPECT_EQ(out.Read<float>(0, 6), (std::vector<float>{1, 0, 3, 0, 5, 0}));
  EXPECT_ACL_OK(aclmdlDestroyDesc(desc));
  EXPECT_ACL_OK(aclmdlUnload(id));
}

TEST_F(ModelTest, RunsTheGearSelectedOnTheDataset) {
  uint32_t id = 0;
  ASSERT_ACL_OK(aclmdlLoadFromFile(ModelPath("dyn_batch.om").c_str(), &id));
  aclmdlDesc* desc = aclmdlCreateDesc();
  ASSERT_ACL_OK(aclmdlGetDesc(desc, id));
  ASSERT_EQ(aclmdlGetNumInputs(desc), 2u);  // x and the gear input
  EXPECT_STREQ(aclmdlGetInputNameByIndex(desc, 1), ACL_DYNAMIC_TENSOR_NAME);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 0), 4u * 4 * sizeof(float));  // largest gear
  aclmdlBatch batch = {};
  ASSERT_ACL_OK(aclmdlGetDynamicBatch(desc, &batch));
  ASSERT_EQ(batch.batchCount, 3u);
  EXPECT_EQ(batch.batch[2], 4u);
  aclmdlIODims dims = {};
  ASSERT_ACL_OK(aclmdlGetInputDims(desc, 0, &dims));
  EXPECT_EQ(dims.dims[0], -1);
  size_t gear_index = 0;
  ASSERT_ACL_OK(aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &gear_index));
  EXPECT_EQ(gear_index, 1u);

  DeviceDataset in;
  DeviceDataset out;
  in.AddFilled(std::vector<float>{-1, 2, -3, 4, 5, -6, 7, -8, 0, 0, 0, 0, 0, 0, 0, 0});
  in.Add(aclmdlGetInputSizeByIndex(desc, 1));
  out.Add(aclmdlGetOutputSizeByIndex(desc, 0));
  EXPECT_ACL_ERR(kBadParam, aclmdlExecute, id, in.get(), out.get());  // no gear selected
  EXPECT_ACL_ERR(kBadParam, aclmdlSetDynamicBatchSize, id, in.get(), gear_index, 3);
  EXPECT_ACL_ERR(ACL_ERROR_MODEL_NOT_DYNAMIC, aclmdlSetDynamicHWSize, id, in.get(), gear_index, 2,
                 2);
  ASSERT_ACL_OK(aclmdlSetDynamicBatchSize(id, in.get(), gear_index, 2));
  ASSERT_ACL_OK(aclmdlExecute(id, in.get(), out.get()));
  EXPECT_EQ(out.Read<float>(0, 8), (std::vector<float>{0, 2, 0, 4, 5, 0, 7, 0}));
  EXPECT_EQ(in.Read<int64_t>(1, 1), (std::vector<int64_t>{2}));
  ASSERT_ACL_OK(aclmdlGetCurOutputDims(desc, 0, &dims));
  ASSERT_EQ(dims.dimCount, 2u);
  EXPECT_EQ(dims.dims[0], 2);
  aclTensorDesc* real = aclmdlGetDatasetTensorDesc(out.get(), 0);
  ASSERT_NE(real, nullptr);
  EXPECT_EQ(aclGetTensorDescElementCount(real), 8u);
  EXPECT_ACL_OK(aclmdlDestroyDesc(desc));
  EXPECT_ACL_OK(aclmdlUnload(id));
}

// dyn_shape.om (node by node: each execution infers its shapes from the input values):
// two shapes run and report their real output dims; an output buffer too small fails.
void ExpectDynamicShapesRun() {
  uint32_t id = 0;
  ASSERT_ACL_OK(aclmdlLoadFromFile(ModelPath("dyn_shape.om").c_str(), &id));
  aclmdlDesc* desc = aclmdlCreateDesc();
  ASSERT_ACL_OK(aclmdlGetDesc(desc, id));
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc, 0), 0u);  // known only when it runs
  for (const std::vector<int64_t>& shape : {std::vector<int64_t>{3, 2}, {1, 6}}) {
    DeviceDataset in;
    DeviceDataset out;
    in.AddFilled(kX);
    in.AddFilled(shape);
    out.Add(64);
    ASSERT_ACL_OK(aclmdlExecute(id, in.get(), out.get()));
    EXPECT_EQ(out.Read<float>(0, 6), (std::vector<float>{1, 0, 3, 0, 5, 0}));
    aclmdlIODims dims = {};
    ASSERT_ACL_OK(aclmdlGetCurOutputDims(desc, 0, &dims));
    ASSERT_EQ(dims.dimCount, 2u);
    EXPECT_EQ(dims.dims[0], shape[0]);
    EXPECT_EQ(dims.dims[1], shape[1]);
    aclTensorDesc* real = aclmdlGetDatasetTensorDesc(out.get(), 0);
    ASSERT_NE(real, nullptr);
    EXPECT_EQ(aclGetTensorDescDim(real, 0), shape[0]);
  }
  DeviceDataset in;
  DeviceDataset out;
  in.AddFilled(kX);
  in.AddFilled(std::vector<int64_t>{2, 3});
  out.Add(8);  // too small for this execution's 24 bytes
  EXPECT_ACL_ERR(ACL_ERROR_MODEL_OUTPUT_NOT_MATCH, aclmdlExecute, id, in.get(), out.get());
  EXPECT_ACL_OK(aclmdlDestroyDesc(desc));
  EXPECT_ACL_OK(aclmdlUnload(id));
}

TEST_F(ModelTest, RunsModelsWhoseShapesDependOnInputValues) { ExpectDynamicShapesRun(); }

// Node-by-node execution frees its intermediates once their last reader is enqueued (stream
// ordered): the memory checker must not report it.
TEST_F(AclNoInitTest, DynamicShapeModelsRunCleanUnderTheMemoryChecker) {
  TempFile config(AclsimConfig("\"memcheck\": 1"));
  ASSERT_ACL_OK(aclInit(config.path()));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ExpectDynamicShapesRun();
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
}

TEST_F(ModelTest, InputsHaveNoAipp) {
  uint32_t id = 0;
  ASSERT_ACL_OK(aclmdlLoadFromFile(ModelPath("add_relu.om").c_str(), &id));
  aclmdlInputAippType type = ACL_DYNAMIC_AIPP_NODE;
  size_t attached = 0;
  ASSERT_ACL_OK(aclmdlGetAippType(id, 1, &type, &attached));
  EXPECT_EQ(type, ACL_DATA_WITHOUT_AIPP);
  EXPECT_EQ(attached, static_cast<size_t>(ACL_INVALID_NODE_INDEX));
  EXPECT_ACL_ERR(kBadParam, aclmdlGetAippType, id, 2, &type, &attached);
  aclAippInfo info;
  EXPECT_ACL_ERR(ACL_ERROR_NOT_STATIC_AIPP, aclmdlGetFirstAippInfo, id, 0, &info);
  EXPECT_ACL_OK(aclmdlUnload(id));
}

TEST_F(ModelTest, RefusesBadModelsAndBadBindings) {
  uint32_t id = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_FILE, aclmdlLoadFromFile, "/nonexistent/model.om", &id);
  EXPECT_ACL_ERR(kBadParam, aclmdlLoadFromFile, nullptr, &id);
  const char junk[] = "definitely not a model, but long enough to have a header";
  EXPECT_NE(aclmdlLoadFromMem(junk, sizeof(junk), &id), ACL_SUCCESS);
  EXPECT_RECENT_ERROR_NAMES(aclmdlLoadFromMem);
  std::vector<char> bytes = ReadAll(ModelPath("add_relu.om"));
  EXPECT_ACL_ERR(ACL_ERROR_READ_MODEL_FAILURE, aclmdlLoadFromMem, bytes.data(), bytes.size() / 2,
                 &id);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_MODEL_ID, aclmdlExecute, 12345u, nullptr, nullptr);

  ASSERT_ACL_OK(aclmdlLoadFromFile(ModelPath("add_relu.om").c_str(), &id));
  DeviceDataset in;
  DeviceDataset out;
  in.AddFilled(kX);
  out.Add(24);
  out.Add(24);
  EXPECT_ACL_ERR(ACL_ERROR_MODEL_INPUT_NOT_MATCH, aclmdlExecute, id, in.get(), out.get());
  in.Add(8);  // too small for y
  EXPECT_ACL_ERR(ACL_ERROR_MODEL_INPUT_NOT_MATCH, aclmdlExecute, id, in.get(), out.get());
  EXPECT_ACL_ERR(kBadParam, aclmdlExecute, id, nullptr, out.get());
  EXPECT_ACL_OK(aclmdlUnload(id));
}

}  // namespace
