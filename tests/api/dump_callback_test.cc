// acl_dump.h's callback and exception-info functions through the public API:
// acldumpRegCallback delivers the data-dump files as acldumpChunk messages instead of writing
// them (CANN: flag 0, "do not write to disk", the only flag supported), in chunks of at most
// 1 MiB; a callback that returns non-zero stops that file; acldumpUnregCallback restores the
// files. acldumpSaveExceptionInfo writes the given tensors (device or host, PTR / PTR_PTR /
// RAW) as a dump file to the directory acldumpGetExceptionInfoPath answers. The files and
// chunks are parsed with the format library (src/dfx/dump_file.h, docs/dump.md).
#include <stdlib.h>
#include <unistd.h>

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
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

class ScratchDir {
 public:
  ScratchDir()
      : path_(fs::temp_directory_path() /
              ("aclsim_dumpcb_" + std::to_string(getpid()) + "_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ScratchDir() { fs::remove_all(path_); }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Dump files under `dir` (the config file excluded).
size_t DumpFilesUnder(const fs::path& dir) {
  size_t n = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    n += entry.is_regular_file() && entry.path().extension() != ".json" ? 1 : 0;
  }
  return n;
}

std::string SingleOpDumpConfig(const ScratchDir& dir) {
  const std::string path = (dir.path() / "dump.json").string();
  std::ofstream(path) << R"({"dump": {"dump_path": ")" << dir.path().string()
                      << R"(", "dump_list": [], "dump_mode": "all", "dump_op_switch": "on"}})";
  return path;
}

// What the callback received.
struct Received {
  std::mutex mu;
  std::map<std::string, std::vector<uint8_t>> files;  // by fileName, chunks concatenated
  std::map<std::string, int> chunks;
  std::map<std::string, bool> complete;  // isLastChunk seen
  bool offsets_ok = true;
  bool sizes_ok = true;
  int32_t answer = 0;  // what the callback returns
};
Received g_received;

int32_t OnChunk(const acldumpChunk* chunk, int32_t len) {
  std::lock_guard<std::mutex> lock(g_received.mu);
  const std::string name = chunk->fileName;
  std::vector<uint8_t>& bytes = g_received.files[name];
  if (chunk->offset != static_cast<int64_t>(bytes.size())) g_received.offsets_ok = false;
  if (chunk->bufLen > (1u << 20) ||
      static_cast<size_t>(len) != offsetof(acldumpChunk, dataBuf) + chunk->bufLen ||
      chunk->flag != 0) {
    g_received.sizes_ok = false;
  }
  bytes.insert(bytes.end(), chunk->dataBuf, chunk->dataBuf + chunk->bufLen);
  ++g_received.chunks[name];
  if (chunk->isLastChunk != 0) g_received.complete[name] = true;
  return g_received.answer;
}

void ResetReceived(int32_t answer) {
  std::lock_guard<std::mutex> lock(g_received.mu);
  g_received.files.clear();
  g_received.chunks.clear();
  g_received.complete.clear();
  g_received.offsets_ok = g_received.sizes_ok = true;
  g_received.answer = answer;
}

// One Add of `n` floats on `stream` (synchronised).
void RunAdd(aclrtStream stream, size_t n) {
  const int64_t dims[1] = {static_cast<int64_t>(n)};
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  void* dev[3] = {};
  aclDataBuffer* buffers[3] = {};
  for (int i = 0; i < 3; ++i) {
    ASSERT_ACL_OK(aclrtMalloc(&dev[i], n * 4, ACL_MEM_MALLOC_NORMAL_ONLY));
    ASSERT_ACL_OK(aclrtMemset(dev[i], n * 4, i, n * 4));
    buffers[i] = aclCreateDataBuffer(dev[i], n * 4);
  }
  aclTensorDesc* in[2] = {desc, desc};
  aclTensorDesc* out[1] = {desc};
  EXPECT_ACL_OK(aclopExecuteV2("Add", 2, in, buffers, 1, out, buffers + 2, nullptr, stream));
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream));
  for (int i = 0; i < 3; ++i) {
    aclDestroyDataBuffer(buffers[i]);
    aclrtFree(dev[i]);
  }
  aclDestroyTensorDesc(desc);
}

class DumpCallbackTest : public AclTest {
 protected:
  void TearDown() override {
    acldumpUnregCallback();
    AclTest::TearDown();
  }
};

TEST_F(DumpCallbackTest, RegisteredCallbackGetsTheDumpFilesInsteadOfTheDisk) {
  ScratchDir dir;
  ResetReceived(0);
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclmdlInitDump());
  ASSERT_ACL_OK(aclmdlSetDump(SingleOpDumpConfig(dir).c_str()));
  ASSERT_ACL_OK(acldumpRegCallback(OnChunk, 0));
  RunAdd(stream, 256);
  EXPECT_EQ(DumpFilesUnder(dir.path()), 0u);
  {
    std::lock_guard<std::mutex> lock(g_received.mu);
    ASSERT_EQ(g_received.files.size(), 1u);
    const auto& [name, bytes] = *g_received.files.begin();
    // The path the file would have had.
    EXPECT_EQ(name.rfind(dir.path().string() + "/", 0), 0u) << name;
    EXPECT_NE(name.find("/single_op/Add.Add."), std::string::npos) << name;
    EXPECT_EQ(g_received.chunks[name], 1);
    EXPECT_TRUE(g_received.complete[name]);
    EXPECT_TRUE(g_received.offsets_ok);
    EXPECT_TRUE(g_received.sizes_ok);
    auto record = dump::Decode(bytes.data(), bytes.size(), name);
    ASSERT_TRUE(record.ok()) << record.status().message();
    EXPECT_EQ(record->op_type, "Add");
    EXPECT_EQ(record->tensors.size(), 3u);
  }
  // Unregistered: files again.
  acldumpUnregCallback();
  RunAdd(stream, 256);
  EXPECT_EQ(DumpFilesUnder(dir.path()), 1u);
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(DumpCallbackTest, LargeFilesComeInChunksOfAtMostOneMebibyte) {
  ScratchDir dir;
  ResetReceived(0);
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclmdlInitDump());
  ASSERT_ACL_OK(aclmdlSetDump(SingleOpDumpConfig(dir).c_str()));
  ASSERT_ACL_OK(acldumpRegCallback(OnChunk, 0));
  RunAdd(stream, 1 << 20);  // 3 tensors of 4 MiB
  {
    std::lock_guard<std::mutex> lock(g_received.mu);
    ASSERT_EQ(g_received.files.size(), 1u);
    const auto& [name, bytes] = *g_received.files.begin();
    EXPECT_GT(bytes.size(), 12u << 20);
    EXPECT_EQ(static_cast<size_t>(g_received.chunks[name]), (bytes.size() + (1u << 20) - 1) >> 20);
    EXPECT_TRUE(g_received.complete[name]);
    EXPECT_TRUE(g_received.offsets_ok);
    EXPECT_TRUE(g_received.sizes_ok);
    auto record = dump::Decode(bytes.data(), bytes.size(), name);
    ASSERT_TRUE(record.ok()) << record.status().message();
    EXPECT_EQ(record->tensors.at(0).data.size(), 4u << 20);
  }
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(DumpCallbackTest, CallbackReturningNonZeroStopsThatFileOnly) {
  ScratchDir dir;
  ResetReceived(1);
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclmdlInitDump());
  ASSERT_ACL_OK(aclmdlSetDump(SingleOpDumpConfig(dir).c_str()));
  ASSERT_ACL_OK(acldumpRegCallback(OnChunk, 0));
  RunAdd(stream, 1 << 20);
  RunAdd(stream, 1 << 20);
  {
    std::lock_guard<std::mutex> lock(g_received.mu);
    ASSERT_EQ(g_received.files.size(), 2u);  // each file was offered
    for (const auto& [name, count] : g_received.chunks) {
      EXPECT_EQ(count, 1) << name;  // and stopped after its first chunk
      EXPECT_FALSE(g_received.complete[name]);
    }
  }
  EXPECT_EQ(DumpFilesUnder(dir.path()), 0u);
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(DumpCallbackTest, RegCallbackRefusesNullAndUnsupportedFlags) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acldumpRegCallback, nullptr, 0);
  acltest::ClearRecentErrors();
  EXPECT_EQ(acldumpRegCallback(OnChunk, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(acltest::TakeRecentErrors().find("only 0"), std::string::npos);
}

TEST_F(AclNoInitTest, DumpCallbackCanBeRegisteredBeforeAclInit) {
  EXPECT_ACL_OK(acldumpRegCallback(OnChunk, 0));
  acldumpUnregCallback();
  acldumpUnregCallback();  // twice: harmless
}

// ---- exception info ---------------------------------------------------------------------

acldumpTensorInfo Info(acldumpTensorType type, void* addr, size_t bytes,
                       acldumpTensorAddressType addr_type, acldumpTensorPlacement placement,
                       std::vector<uint64_t> shape) {
  acldumpTensorInfo info;
  std::memset(&info, 0, sizeof(info));
  info.type = type;
  info.tensorSize = bytes;
  info.format = ACL_FORMAT_ND;
  info.dataType = ACL_FLOAT;
  info.tensorAddr = static_cast<int64_t*>(addr);
  info.addrType = addr_type;
  info.placement = placement;
  info.shapeNum = static_cast<uint32_t>(shape.size());
  for (size_t i = 0; i < shape.size() && i < ACL_DUMP_MAX_SHAPE_NUM; ++i) info.shape[i] = shape[i];
  return info;
}

std::string ExceptionInfoPath() {
  char path[ACL_DUMP_MAX_FILE_PATH_LENGTH] = {};
  EXPECT_ACL_OK(acldumpGetExceptionInfoPath(path, sizeof(path)));
  return path;
}

TEST_F(AclNoInitTest, SaveExceptionInfoWritesDeviceAndHostTensorsToTheExceptionInfoPath) {
  ScratchDir dir;
  ScopedEnv collect("NPU_COLLECT_PATH", dir.path().c_str());
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  const std::string info_dir = ExceptionInfoPath();
  EXPECT_EQ(info_dir, (dir.path() / "extra-info" / "data-dump").string());
  EXPECT_STREQ(acldumpGetPath(AIC_ERR_BRIEF_DUMP), info_dir.c_str());

  std::vector<float> device_values = {1, 2, 3, 4, 5, 6};
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 24, ACL_MEM_MALLOC_NORMAL_ONLY));
  ASSERT_ACL_OK(aclrtMemcpy(dev, 24, device_values.data(), 24, ACL_MEMCPY_HOST_TO_DEVICE));
  std::vector<float> host_values = {-1, -2};
  void* host_pointer = host_values.data();
  std::vector<uint8_t> raw = {9, 8, 7};
  const acldumpTensorInfo tensors[] = {
      Info(ACL_DUMP_TENSOR_INPUT, dev, 24, ACL_DUMP_ADDR_PTR, ACL_DUMP_PLACEMENT_DEVICE, {2, 3}),
      Info(ACL_DUMP_TENSOR_OUTPUT, &host_pointer, 8, ACL_DUMP_ADDR_PTR_PTR, ACL_DUMP_PLACEMENT_HOST,
           {2}),
      Info(ACL_DUMP_TENSOR_WORKSPACE, raw.data(), 3, ACL_DUMP_ADDR_RAW, ACL_DUMP_PLACEMENT_HOST,
           {7, 7}),
  };
  ASSERT_ACL_OK(acldumpSaveExceptionInfo("my_kernel.bin", "MyKernel", tensors, 3));
  auto record = dump::ReadFile(info_dir + "/my_kernel.bin");
  ASSERT_TRUE(record.ok()) << record.status().message();
  EXPECT_EQ(record->flags & dump::kFlagException, dump::kFlagException);
  EXPECT_EQ(record->op_type, "MyKernel");
  EXPECT_EQ(record->op_name, "my_kernel.bin");
  ASSERT_EQ(record->tensors.size(), 3u);
  const auto& in = record->tensors[0];
  EXPECT_EQ(in.kind, dump::TensorKind::kInput);
  EXPECT_EQ(in.dims, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(in.dtype, ACL_FLOAT);
  EXPECT_EQ(in.data.size(), 24u);
  EXPECT_EQ(std::memcmp(in.data.data(), device_values.data(), 24), 0);
  const auto& out = record->tensors[1];
  EXPECT_EQ(out.kind, dump::TensorKind::kOutput);
  EXPECT_EQ(std::memcmp(out.data.data(), host_values.data(), 8), 0);
  EXPECT_EQ(out.address, reinterpret_cast<uintptr_t>(host_values.data()));
  const auto& work = record->tensors[2];
  EXPECT_EQ(work.kind, dump::TensorKind::kWorkspace);
  EXPECT_EQ(work.dtype, ACL_UINT8);
  EXPECT_EQ(work.dims, (std::vector<int64_t>{3}));
  EXPECT_EQ(work.data, raw);
  EXPECT_ACL_OK(aclrtFree(dev));
}

TEST_F(AclNoInitTest, SaveExceptionInfoRefusesBadArgumentsWithMessages) {
  ScratchDir dir;
  ScopedEnv collect("NPU_COLLECT_PATH", dir.path().c_str());
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  std::vector<float> host(4, 1.0F);
  acldumpTensorInfo good =
      Info(ACL_DUMP_TENSOR_INPUT, host.data(), 16, ACL_DUMP_ADDR_PTR, ACL_DUMP_PLACEMENT_HOST, {4});
  auto refused = [&](const char* name, const acldumpTensorInfo* tensors, size_t count,
                     const char* message) {
    acltest::ClearRecentErrors();
    EXPECT_EQ(acldumpSaveExceptionInfo(name, "tag", tensors, count), ACL_ERROR_INVALID_PARAM)
        << message;
    const std::string text = acltest::TakeRecentErrors();
    EXPECT_NE(text.find("acldumpSaveExceptionInfo"), std::string::npos) << text;
    EXPECT_NE(text.find(message), std::string::npos) << text;
  };
  refused("x", nullptr, 1, "tensors must not be NULL");
  refused("x", &good, 0, "tensorCount 0");
  refused("a/b", &good, 1, "not a plain file name");
  refused("..", &good, 1, "not a plain file name");
  acldumpTensorInfo bad = good;
  bad.shapeNum = ACL_DUMP_MAX_SHAPE_NUM + 1;
  refused("x", &bad, 1, "ACL_DUMP_MAX_SHAPE_NUM");
  bad = good;
  bad.placement = ACL_DUMP_PLACEMENT_END;
  refused("x", &bad, 1, "placement");
  bad = good;
  bad.placement = ACL_DUMP_PLACEMENT_DEVICE;  // host memory said to be on the device
  refused("x", &bad, 1, "is not device memory");
  bad = good;
  bad.tensorAddr = nullptr;
  refused("x", &bad, 1, "tensorAddr is NULL");
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acldumpSaveExceptionInfo, nullptr, "tag", &good,
                 size_t{1});
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acldumpSaveExceptionInfo, "x", nullptr, &good, size_t{1});
  // A device range past the end of its allocation.
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 16, ACL_MEM_MALLOC_NORMAL_ONLY));
  bad = Info(ACL_DUMP_TENSOR_INPUT, dev, 4096, ACL_DUMP_ADDR_PTR, ACL_DUMP_PLACEMENT_DEVICE, {});
  refused("x", &bad, 1, "tensors[0]");
  EXPECT_ACL_OK(aclrtFree(dev));
  EXPECT_FALSE(fs::exists(dir.path() / "extra-info" / "data-dump" / "x"));
}

TEST_F(AclNoInitTest, GetExceptionInfoPathRefusesNullAndShortBuffers) {
  EXPECT_ACL_ERR(ACL_ERROR_UNINITIALIZE, acldumpGetExceptionInfoPath, std::vector<char>(64).data(),
                 size_t{64});
  ASSERT_ACL_OK(aclInit(nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acldumpGetExceptionInfoPath, nullptr, size_t{64});
  char small[4] = {};
  acltest::ClearRecentErrors();
  EXPECT_EQ(acldumpGetExceptionInfoPath(small, sizeof(small)), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(acltest::TakeRecentErrors().find("is too small"), std::string::npos);
  // Without NPU_COLLECT_PATH: under ASCEND_WORK_PATH or the working directory.
  const std::string path = ExceptionInfoPath();
  EXPECT_EQ(path.size() - path.rfind("/extra-info/data-dump"),
            std::strlen("/extra-info/data-dump"));
}

}  // namespace
