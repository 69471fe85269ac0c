// Exports: every function of the manifest can be found with dlsym(), as programs that load
// AscendCL dynamically do, and functions not implemented yet answer
// ACL_ERROR_API_NOT_SUPPORT with a message naming them.
//
// The manifest (src/api/manifest/acl_api.def) is read here as data through an X-macro; the
// test otherwise uses only the public headers.
#include <dlfcn.h>

#include <cstring>
#include <functional>
#include <set>
#include <string>

#include "acl/acl_prof.h"
#include "acl/acl_tdt.h"
#include "api_test.h"

namespace {

struct ManifestEntry {
  const char* name;
  bool implemented;
};

#define VOID_RET
#define ACL_FN(status, header, lib, ret, name, params, fail) \
  {#name, std::strcmp(#status, "IMPL") == 0},
const ManifestEntry kManifest[] = {
#include "api/manifest/acl_api.def"
};
#undef ACL_FN
#undef VOID_RET

constexpr size_t kManifestSize = sizeof(kManifest) / sizeof(kManifest[0]);

const ManifestEntry* FindEntry(const char* name) {
  for (const ManifestEntry& entry : kManifest) {
    if (std::strcmp(entry.name, name) == 0) return &entry;
  }
  return nullptr;
}

class LibraryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    handle_ = dlopen(ACLSIM_LIBASCENDCL_PATH, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle_, nullptr) << dlerror();
  }
  void TearDown() override {
    if (handle_ != nullptr) dlclose(handle_);
  }
  void* handle_ = nullptr;
};

TEST_F(LibraryTest, ManifestListsEveryInventoryFunctionOnce) {
  EXPECT_EQ(kManifestSize, 690u);
  std::set<std::string> names;
  for (const ManifestEntry& entry : kManifest) {
    EXPECT_TRUE(names.insert(entry.name).second) << "listed twice: " << entry.name;
    EXPECT_EQ(std::strncmp(entry.name, "acl", 3), 0) << entry.name;
  }
}

TEST_F(LibraryTest, DlsymFindsEveryManifestFunction) {
  size_t found = 0;
  for (const ManifestEntry& entry : kManifest) {
    dlerror();
    void* symbol = dlsym(handle_, entry.name);
    EXPECT_NE(symbol, nullptr) << entry.name << ": " << dlerror();
    found += symbol != nullptr ? 1 : 0;
  }
  EXPECT_EQ(found, kManifestSize);
}

TEST_F(LibraryTest, DlsymFindsNoInternalSymbols) {
  for (const char* name : {"aclsim_internal_does_not_exist", "_ZN6aclsim4core7Runtime4InitEPKc",
                           "spdlog_version", "main"}) {
    EXPECT_EQ(dlsym(handle_, name), nullptr) << name;
  }
}

TEST_F(LibraryTest, DynamicallyLoadedFunctionsWork) {
  using InitFn = aclError (*)(const char*);
  using FinalizeFn = aclError (*)();
  using CountFn = aclError (*)(uint32_t*);
  auto init = reinterpret_cast<InitFn>(dlsym(handle_, "aclInit"));
  auto finalize = reinterpret_cast<FinalizeFn>(dlsym(handle_, "aclFinalize"));
  auto count = reinterpret_cast<CountFn>(dlsym(handle_, "aclrtGetDeviceCount"));
  ASSERT_NE(init, nullptr);
  ASSERT_NE(finalize, nullptr);
  ASSERT_NE(count, nullptr);
  ASSERT_EQ(init(nullptr), ACL_SUCCESS);
  uint32_t devices = 0;
  EXPECT_EQ(count(&devices), ACL_SUCCESS);
  EXPECT_EQ(devices, 8u);
  EXPECT_EQ(finalize(), ACL_SUCCESS);
}

TEST_F(LibraryTest, CannLibraryNamesResolveTheirFunctions) {
  std::string dir = ACLSIM_LIBASCENDCL_PATH;
  dir = dir.substr(0, dir.rfind('/'));
  const std::pair<const char*, const char*> libraries[] = {
      {"libacl_rt.so", "aclrtMalloc"},
      {"libacl_op_compiler.so", "aclopCompile"},
      {"libacl_cblas.so", "aclblasGemmEx"},
      {"libmsprofiler.so", "aclprofInit"},
      {"libacl_mdl.so", "aclmdlLoadFromFile"},
      {"libacl_tdt_channel.so", "acltdtCreateChannel"},
      {"libacl_tdt_queue.so", "acltdtCreateQueue"},
  };
  for (const auto& [library, function] : libraries) {
    const std::string path = dir + "/" + library;
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle, nullptr) << path << ": " << dlerror();
    EXPECT_NE(dlsym(handle, function), nullptr) << library << " " << function;
    dlclose(handle);
  }
}

// Functions the manifest marks STUB answer "not supported" with a message naming them. The
// candidates have simple signatures; one that has been implemented since is skipped.
TEST(NotSupportedTest, StubFunctionsReturnApiNotSupportWithAMessage) {
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  int32_t i32 = 0;
  uint32_t u32 = 0;
  uint64_t u64 = 0;
  aclrtLabel label = nullptr;
  aclrtNotify notify = nullptr;
  aclrtUtilizationInfo utilization;
  std::memset(&utilization, 0, sizeof(utilization));
  const std::pair<const char*, std::function<aclError()>> candidates[] = {
      {"aclGetCannAttribute", [&] { return aclGetCannAttribute(ACL_CANN_ATTR_BF16, &i32); }},
      {"aclrtGetGroupCount", [&] { return aclrtGetGroupCount(&u32); }},
      {"aclrtSetGroup", [&] { return aclrtSetGroup(0); }},
      {"aclrtGetDeviceUtilizationRate",
       [&] { return aclrtGetDeviceUtilizationRate(0, &utilization); }},
      {"aclrtCreateLabel", [&] { return aclrtCreateLabel(&label); }},
      {"aclrtCreateNotify", [&] { return aclrtCreateNotify(&notify, 0); }},
      {"aclrtGetOpTimeOutInterval", [&] { return aclrtGetOpTimeOutInterval(&u64); }},
      {"aclprofFinalize", [&] { return aclprofFinalize(); }},
  };
  int checked = 0;
  for (const auto& [name, call] : candidates) {
    const ManifestEntry* entry = FindEntry(name);
    ASSERT_NE(entry, nullptr) << name << " is not in the manifest";
    if (entry->implemented) continue;  // implemented meanwhile: its own tests cover it
    acltest::ClearRecentErrors();
    EXPECT_EQ(call(), ACL_ERROR_API_NOT_SUPPORT) << name;
    EXPECT_TRUE(acltest::RecentErrorNames(name));
    EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_API_NOT_SUPPORT) << name;
    ++checked;
  }
  EXPECT_GE(checked, 3) << "pick new STUB candidates: most of these are implemented now";
  acltest::AclTest::Shutdown();
}

TEST(NotSupportedTest, StubsThatReturnPointersReturnNullWithAMessage) {
  const ManifestEntry* entry = FindEntry("acltdtCreateChannel");
  ASSERT_NE(entry, nullptr);
  if (entry->implemented) GTEST_SKIP() << "acltdtCreateChannel is implemented now";
  acltest::ClearRecentErrors();
  EXPECT_EQ(acltdtCreateChannel(0, "channel"), nullptr);
  EXPECT_RECENT_ERROR_NAMES(acltdtCreateChannel);
}

}  // namespace
