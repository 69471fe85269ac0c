// Reliability, IPC after free: once the exporter frees an exported allocation, an importer's
// mapping keeps the memory it had and never reaches what the exporter allocates next at the
// same address; keys are validated whole. The importer here is the exporting process itself
// (an import through /proc/self, as another process imports): the same mapping, made
// deterministic.
#include <cstdint>
#include <string>
#include <vector>

#include "api_test.h"

namespace {

using acltest::AclTest;
using acltest::Download;

constexpr size_t kKeyLen = 65;

// Exports `dev` and imports the key again; returns the importer's address.
void* ExportAndImport(void* dev, size_t bytes, char (&key)[kKeyLen]) {
  EXPECT_EQ(aclrtIpcMemGetExportKey(dev, bytes, key, sizeof(key), 0), ACL_SUCCESS);
  void* imported = nullptr;
  EXPECT_EQ(aclrtIpcMemImportByKey(&imported, key, 0), ACL_SUCCESS);
  return imported;
}

TEST_F(AclTest, AnImportNeverAliasesWhatTheExporterAllocatesAfterTheFree) {
  for (size_t bytes : {size_t{4096}, size_t{4} << 20}) {  // a cached small block, a segment
    SCOPED_TRACE(bytes);
    void* dev = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    const std::vector<uint8_t> before = acltest::Pattern(4096, 41);
    ASSERT_ACL_OK(aclrtMemcpy(dev, 4096, before.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE));
    char key[kKeyLen] = {};
    void* imported = ExportAndImport(dev, bytes, key);
    ASSERT_NE(imported, nullptr);
    EXPECT_EQ(Download(imported, 4096), before);  // live sharing while both hold it
    // The exporter lets go and allocates again: the same address comes back from the cache.
    ASSERT_ACL_OK(aclrtFree(dev));
    std::vector<void*> again;
    bool reused = false;
    for (int i = 0; i < 16 && !reused; ++i) {
      void* p = nullptr;
      ASSERT_ACL_OK(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
      again.push_back(p);
      reused = p == dev;
    }
    const std::vector<uint8_t> fresh = acltest::Pattern(4096, 42);
    for (void* p : again) {
      ASSERT_ACL_OK(aclrtMemcpy(p, 4096, fresh.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    // The importer writes through its old mapping: the new allocations never see it, and it
    // still reads the memory it had.
    const std::vector<uint8_t> stale = acltest::Pattern(4096, 43);
    ASSERT_ACL_OK(aclrtMemcpy(imported, 4096, stale.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE));
    for (void* p : again) EXPECT_EQ(Download(p, 4096), fresh) << p;
    EXPECT_EQ(Download(imported, 4096), stale);
    ASSERT_ACL_OK(aclrtIpcMemClose(key));  // the export
    ASSERT_ACL_OK(aclrtIpcMemClose(key));  // the import
    for (void* p : again) ASSERT_ACL_OK(aclrtFree(p));
    // A retired block is freed once: a second free is refused.
    EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFree, dev);
  }
}

TEST_F(AclTest, NeighboursOfAnExportedBlockKeepTheirDataThroughItsFree) {
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&a, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMalloc(&b, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  const std::vector<uint8_t> data = acltest::Pattern(4096, 44);
  ASSERT_ACL_OK(aclrtMemcpy(b, 4096, data.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE));
  char key_a[kKeyLen] = {};
  char key_b[kKeyLen] = {};
  void* import_a = ExportAndImport(a, 4096, key_a);
  void* import_b = ExportAndImport(b, 4096, key_b);
  ASSERT_NE(import_b, nullptr);
  // Freeing a while b of the same segment is still exported keeps b shared and intact.
  ASSERT_ACL_OK(aclrtFree(a));
  EXPECT_EQ(Download(b, 4096), data);
  const std::vector<uint8_t> update = acltest::Pattern(4096, 45);
  ASSERT_ACL_OK(aclrtMemcpy(import_b, 4096, update.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_EQ(Download(b, 4096), update);
  ASSERT_ACL_OK(aclrtFree(b));
  for (const char* key : {key_a, key_b}) {
    ASSERT_ACL_OK(aclrtIpcMemClose(key));
    ASSERT_ACL_OK(aclrtIpcMemClose(key));
  }
  (void)import_a;
}

TEST_F(AclTest, ImportKeysAreValidatedWhole) {
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  char key[kKeyLen] = {};
  ASSERT_ACL_OK(aclrtIpcMemGetExportKey(dev, 4096, key, sizeof(key), 0));
  const std::string good(key);
  const std::string prefix = good.substr(0, good.rfind(':', good.rfind(':') - 1) + 1);
  for (const std::string& bad :
       {prefix + "-4096:4096", prefix + "0:-1", prefix + "18446744073709551615:4096",
        prefix + "4096:18446744073709551615", prefix + "0:0", good + "x", good + ":1",
        std::string("aclsim-ipc:1:0:0:4096"), std::string("aclsim-ipc:-5:3:0:4096")}) {
    void* imported = nullptr;
    EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemImportByKey, &imported, bad.c_str(), 0);
    EXPECT_EQ(imported, nullptr) << bad;
  }
  ASSERT_ACL_OK(aclrtIpcMemClose(key));
  ASSERT_ACL_OK(aclrtFree(dev));
}

}  // namespace
