// IPC memory between two processes: export a key, import it in a second process (this test
// program run again), read and write the same device memory, close.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "api_test.h"

namespace {

using acltest::AclTest;

constexpr int kBadParam = ACL_ERROR_INVALID_PARAM;
constexpr size_t kBytes = 1 << 20;
constexpr size_t kKeyLen = 65;

using acltest::Download;

// The second process of IpcMemoryIsSharedBetweenProcesses.
TEST_F(AclTest, IpcChild) {
  const char* key = std::getenv("ACLSIM_TEST_IPC_KEY");
  if (key == nullptr) GTEST_SKIP() << "run by IpcMemoryIsSharedBetweenProcesses";
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtIpcMemImportByKey(&dev, key, 0));
  EXPECT_EQ(Download(dev, 4096), acltest::Pattern(4096, 31));
  const std::vector<uint8_t> answer = acltest::Pattern(4096, 32);
  ASSERT_ACL_OK(aclrtMemcpy(static_cast<char*>(dev) + 8192, 4096, answer.data(), 4096,
                            ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERR(kBadParam, aclrtIpcMemImportByKey, &dev, key, 0);  // already imported
  ASSERT_ACL_OK(aclrtIpcMemClose(key));
}

TEST_F(AclTest, IpcMemoryIsSharedBetweenProcesses) {
  if (std::getenv("ACLSIM_TEST_IPC_KEY") != nullptr) GTEST_SKIP() << "child process";
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  void* neighbour = nullptr;  // shares the segment: moving it must not lose its data
  ASSERT_ACL_OK(aclrtMalloc(&neighbour, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  const std::vector<uint8_t> near = acltest::Pattern(4096, 33);
  ASSERT_ACL_OK(aclrtMemcpy(neighbour, 4096, near.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE));
  const std::vector<uint8_t> data = acltest::Pattern(4096, 31);
  ASSERT_ACL_OK(aclrtMemcpy(dev, 4096, data.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE));
  char key[kKeyLen] = {};
  ASSERT_ACL_OK(aclrtIpcMemGetExportKey(dev, kBytes, key, sizeof(key), 0));
  int32_t pid = getpid();
  ASSERT_ACL_OK(aclrtIpcMemSetImportPid(key, &pid, 1));
  ASSERT_ACL_OK(aclrtIpcMemSetAttr(key, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 0));
  EXPECT_EQ(Download(neighbour, 4096), near);  // unchanged by the export

  const std::string command = std::string("ACLSIM_TEST_IPC_KEY=") + key + " /proc/" +
                              std::to_string(getpid()) +
                              "/exe --gtest_filter=AclTest.IpcChild > /dev/null 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << command;
  EXPECT_EQ(WEXITSTATUS(status), 0) << command;
  EXPECT_EQ(Download(static_cast<char*>(dev) + 8192, 4096), acltest::Pattern(4096, 32));

  ASSERT_ACL_OK(aclrtIpcMemClose(key));
  ASSERT_ACL_OK(aclrtFree(dev));
  ASSERT_ACL_OK(aclrtFree(neighbour));
}

TEST_F(AclTest, IpcMisuseIsRefusedWithAMessage) {
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  char key[kKeyLen] = {};
  EXPECT_ACL_ERR(kBadParam, aclrtIpcMemGetExportKey, dev, 8192, key, sizeof(key), 0);
  EXPECT_ACL_ERR(kBadParam, aclrtIpcMemGetExportKey, dev, 4096, key, 4, 0);  // too short
  EXPECT_ACL_ERR(kBadParam, aclrtIpcMemGetExportKey, dev, 4096, key, sizeof(key), 0x8);
  std::vector<uint8_t> host(64);
  EXPECT_ACL_ERR(kBadParam, aclrtIpcMemGetExportKey, host.data(), 64, key, sizeof(key), 0);
  void* imported = nullptr;
  EXPECT_ACL_ERR(kBadParam, aclrtIpcMemImportByKey, &imported, "not a key", 0);
  EXPECT_ACL_ERR(kBadParam, aclrtIpcMemImportByKey, &imported, "aclsim-ipc:1:999:0:64", 0);
  // A real key with its offset or size forged: negative, past the end, or wrapping the sum.
  char real[kKeyLen] = {};
  ASSERT_ACL_OK(aclrtIpcMemGetExportKey(dev, 4096, real, sizeof(real), 0));
  std::string text(real);
  const size_t size_at = text.rfind(':');
  const size_t offset_at = text.rfind(':', size_at - 1);
  const std::string head = text.substr(0, offset_at + 1);
  for (const std::string& forged :
       {head + "-4096:4096", head + "0:-1", head + "18446744073709551615:4096",
        head + "4096:18446744073709547520", head + "0:1099511627776"}) {
    EXPECT_ACL_ERR(kBadParam, aclrtIpcMemImportByKey, &imported, forged.c_str(), 0);
    EXPECT_EQ(imported, nullptr) << forged;
  }
  EXPECT_ACL_ERR(kBadParam, aclrtIpcMemClose, "aclsim-ipc:1:999:0:64");
  EXPECT_ACL_ERR(kBadParam, aclrtIpcMemClose, nullptr);
  ASSERT_ACL_OK(aclrtFree(dev));
}

}  // namespace
