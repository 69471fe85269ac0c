// aclInit / aclFinalize / aclFinalizeReference, configuration, versions, errors, SoC name,
// run mode, and every runtime call before aclInit and after aclFinalize.
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <thread>

#include "api_test.h"

namespace {

using acltest::AclNoInitTest;
using acltest::AclsimConfig;
using acltest::ScopedEnv;
using acltest::TempFile;

void Ignore(void*) {}
void IgnoreException(aclrtExceptionInfo*) {}

// Every implemented runtime function refuses to run without an initialised runtime.
// Arguments are otherwise valid, so the only thing wrong is the missing aclInit.
void ExpectEveryRuntimeCallUninitialised() {
  int dummy_object = 0;
  void* fake = &dummy_object;  // never dereferenced: the runtime check comes first
  char host[64] = {0};
  char host2[64] = {0};
  uint32_t u32 = 0;
  int32_t i32 = 0;
  int64_t i64 = 0;
  uint64_t u64 = 0;
  size_t free_bytes = 0, total_bytes = 0;
  float ms = 0;
  void* ptr = nullptr;
  aclrtStream stream = nullptr;
  aclrtEvent event = nullptr;
  aclrtContext context = nullptr;
  aclrtStreamStatus stream_status;
  aclrtEventStatus event_status;
  aclrtEventRecordedStatus recorded_status;
  aclrtEventWaitStatus wait_status;
  aclrtFloatOverflowMode sat_mode;
  aclrtDeviceStatus device_status;
  aclrtUuid uuid;
  aclrtStreamAttrValue attr_value;
  attr_value.failureMode = 0;
  const int kU = ACL_ERROR_UNINITIALIZE;

  // device
  EXPECT_ACL_ERR(kU, aclrtSetDevice, 0);
  EXPECT_ACL_ERR(kU, aclrtResetDevice, 0);
  EXPECT_ACL_ERR(kU, aclrtResetDeviceForce, 0);
  EXPECT_ACL_ERR(kU, aclrtGetDevice, &i32);
  EXPECT_ACL_ERR(kU, aclrtSynchronizeDevice);
  EXPECT_ACL_ERR(kU, aclrtSynchronizeDeviceWithTimeout, 100);
  EXPECT_ACL_ERR(kU, aclrtSetTsDevice, ACL_TS_ID_AICORE);
  EXPECT_ACL_ERR(kU, aclrtGetDeviceCount, &u32);
  EXPECT_ACL_ERR(kU, aclrtDeviceCanAccessPeer, &i32, 0, 1);
  EXPECT_ACL_ERR(kU, aclrtDeviceEnablePeerAccess, 1, 0);
  EXPECT_ACL_ERR(kU, aclrtDeviceDisablePeerAccess, 1);
  EXPECT_ACL_ERR(kU, aclrtDevicePeerAccessStatus, 0, 1, &i32);
  EXPECT_ACL_ERR(kU, aclrtSetDeviceSatMode, ACL_RT_OVERFLOW_MODE_SATURATION);
  EXPECT_ACL_ERR(kU, aclrtGetDeviceSatMode, &sat_mode);
  EXPECT_ACL_ERR(kU, aclrtQueryDeviceStatus, 0, &device_status);
  EXPECT_ACL_ERR(kU, aclrtGetDeviceInfo, 0, ACL_DEV_ATTR_AICORE_CORE_NUM, &i64);
  EXPECT_ACL_ERR(kU, aclGetDeviceCapability, 0, ACL_DEVICE_INFO_AI_CORE_NUM, &i64);
  EXPECT_ACL_ERR(kU, aclrtDeviceGetStreamPriorityRange, &i32, &i32);
  EXPECT_ACL_ERR(kU, aclrtDeviceGetUuid, 0, &uuid);
  EXPECT_ACL_ERR(kU, aclrtGetDevicesTopo, 0, 1, &u64);
  EXPECT_ACL_ERR(kU, aclrtGetLogicDevIdByUserDevId, 0, &i32);
  EXPECT_ACL_ERR(kU, aclrtGetUserDevIdByLogicDevId, 0, &i32);
  EXPECT_ACL_ERR(kU, aclrtGetLogicDevIdByPhyDevId, 0, &i32);
  EXPECT_ACL_ERR(kU, aclrtGetPhyDevIdByLogicDevId, 0, &i32);
  EXPECT_ACL_ERR(kU, aclrtGetUserDevIdByPhyDevId, 0, &i32);
  EXPECT_ACL_ERR(kU, aclrtGetPhyDevIdByUserDevId, 0, &i32);
  // context and system parameters
  EXPECT_ACL_ERR(kU, aclrtCreateContext, &context, 0);
  EXPECT_ACL_ERR(kU, aclrtDestroyContext, fake);
  EXPECT_ACL_ERR(kU, aclrtSetCurrentContext, fake);
  EXPECT_ACL_ERR(kU, aclrtGetCurrentContext, &context);
  EXPECT_ACL_ERR(kU, aclrtCtxGetCurrentDefaultStream, &stream);
  EXPECT_ACL_ERR(kU, aclrtSetSysParamOpt, ACL_OPT_DETERMINISTIC, 1);
  EXPECT_ACL_ERR(kU, aclrtGetSysParamOpt, ACL_OPT_DETERMINISTIC, &i64);
  EXPECT_ACL_ERR(kU, aclrtCtxSetSysParamOpt, ACL_OPT_DETERMINISTIC, 1);
  EXPECT_ACL_ERR(kU, aclrtCtxGetSysParamOpt, ACL_OPT_DETERMINISTIC, &i64);
  EXPECT_ACL_ERR(kU, aclrtGetPrimaryCtxState, 0, &u32, &i32);
  // streams
  EXPECT_ACL_ERR(kU, aclrtCreateStream, &stream);
  EXPECT_ACL_ERR(kU, aclrtCreateStreamWithConfig, &stream, 0, 0);
  aclrtStreamConfigHandle* config = aclrtCreateStreamConfigHandle();  // host-side object
  ASSERT_NE(config, nullptr) << acltest::TakeRecentErrors();
  EXPECT_ACL_ERR(kU, aclrtCreateStreamV2, &stream, config);
  EXPECT_ACL_OK(aclrtDestroyStreamConfigHandle(config));
  EXPECT_ACL_ERR(kU, aclrtDestroyStream, fake);
  EXPECT_ACL_ERR(kU, aclrtDestroyStreamForce, fake);
  EXPECT_ACL_ERR(kU, aclrtSynchronizeStream, fake);
  EXPECT_ACL_ERR(kU, aclrtSynchronizeStreamWithTimeout, fake, 100);
  EXPECT_ACL_ERR(kU, aclrtStreamQuery, fake, &stream_status);
  EXPECT_ACL_ERR(kU, aclrtStreamGetPriority, fake, &u32);
  EXPECT_ACL_ERR(kU, aclrtStreamGetFlags, fake, &u32);
  EXPECT_ACL_ERR(kU, aclrtStreamGetId, fake, &i32);
  EXPECT_ACL_ERR(kU, aclrtSetStreamFailureMode, fake, ACL_STOP_ON_FAILURE);
  EXPECT_ACL_ERR(kU, aclrtStreamWaitEvent, fake, fake);
  EXPECT_ACL_ERR(kU, aclrtGetStreamAvailableNum, &u32);
  EXPECT_ACL_ERR(kU, aclrtSetStreamAttribute, fake, ACL_STREAM_ATTR_FAILURE_MODE, &attr_value);
  EXPECT_ACL_ERR(kU, aclrtGetStreamAttribute, fake, ACL_STREAM_ATTR_FAILURE_MODE, &attr_value);
  // events
  EXPECT_ACL_ERR(kU, aclrtCreateEvent, &event);
  EXPECT_ACL_ERR(kU, aclrtCreateEventWithFlag, &event, ACL_EVENT_SYNC);
  EXPECT_ACL_ERR(kU, aclrtCreateEventExWithFlag, &event, ACL_EVENT_SYNC);
  EXPECT_ACL_ERR(kU, aclrtDestroyEvent, fake);
  EXPECT_ACL_ERR(kU, aclrtRecordEvent, fake, fake);
  EXPECT_ACL_ERR(kU, aclrtResetEvent, fake, fake);
  EXPECT_ACL_ERR(kU, aclrtQueryEvent, fake, &event_status);
  EXPECT_ACL_ERR(kU, aclrtQueryEventStatus, fake, &recorded_status);
  EXPECT_ACL_ERR(kU, aclrtQueryEventWaitStatus, fake, &wait_status);
  EXPECT_ACL_ERR(kU, aclrtSynchronizeEvent, fake);
  EXPECT_ACL_ERR(kU, aclrtSynchronizeEventWithTimeout, fake, 100);
  EXPECT_ACL_ERR(kU, aclrtEventElapsedTime, &ms, fake, fake);
  EXPECT_ACL_ERR(kU, aclrtEventGetTimestamp, fake, &u64);
  EXPECT_ACL_ERR(kU, aclrtGetEventId, fake, &u32);
  EXPECT_ACL_ERR(kU, aclrtGetEventAvailNum, &u32);
  // memory
  EXPECT_ACL_ERR(kU, aclrtMalloc, &ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST);
  EXPECT_ACL_ERR(kU, aclrtMallocAlign32, &ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST);
  EXPECT_ACL_ERR(kU, aclrtFree, fake);
  EXPECT_ACL_ERR(kU, aclrtMallocHost, &ptr, 64);
  EXPECT_ACL_ERR(kU, aclrtFreeHost, fake);
  EXPECT_ACL_ERR(kU, aclrtMemcpy, host, 64, host2, 64, ACL_MEMCPY_HOST_TO_HOST);
  EXPECT_ACL_ERR(kU, aclrtMemcpyAsync, host, 64, host2, 64, ACL_MEMCPY_HOST_TO_HOST, nullptr);
  EXPECT_ACL_ERR(kU, aclrtMemcpyAsyncWithCondition, host, 64, host2, 64, ACL_MEMCPY_HOST_TO_HOST,
                 nullptr);
  EXPECT_ACL_ERR(kU, aclrtMemcpy2d, host, 8, host2, 8, 8, 8, ACL_MEMCPY_HOST_TO_HOST);
  EXPECT_ACL_ERR(kU, aclrtMemcpy2dAsync, host, 8, host2, 8, 8, 8, ACL_MEMCPY_HOST_TO_HOST, nullptr);
  EXPECT_ACL_ERR(kU, aclrtMemset, host, 64, 0, 64);
  EXPECT_ACL_ERR(kU, aclrtMemsetAsync, host, 64, 0, 64, nullptr);
  EXPECT_ACL_ERR(kU, aclrtGetMemInfo, ACL_HBM_MEM, &free_bytes, &total_bytes);
  // callbacks, host functions, exceptions
  EXPECT_ACL_ERR(kU, aclrtSubscribeReport, 1, fake);
  EXPECT_ACL_ERR(kU, aclrtUnSubscribeReport, 1, fake);
  EXPECT_ACL_ERR(kU, aclrtLaunchCallback, Ignore, nullptr, ACL_CALLBACK_BLOCK, fake);
  EXPECT_ACL_ERR(kU, aclrtProcessReport, 10);
  EXPECT_ACL_ERR(kU, aclrtLaunchHostFunc, fake, Ignore, nullptr);
  EXPECT_ACL_ERR(kU, aclrtSetExceptionInfoCallback, IgnoreException);
  // base
  acltest::ClearRecentErrors();
  EXPECT_EQ(aclrtGetSocName(), nullptr);
  EXPECT_RECENT_ERROR_NAMES(aclrtGetSocName);
}

TEST_F(AclNoInitTest, EveryRuntimeCallBeforeInitIsUninitialize) {
  ExpectEveryRuntimeCallUninitialised();
}

TEST_F(AclNoInitTest, EveryRuntimeCallAfterFinalizeIsUninitialize) {
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclFinalize());
  ExpectEveryRuntimeCallUninitialised();
}

TEST_F(AclNoInitTest, InitWithNullUsesDefaults) {
  ASSERT_ACL_OK(aclInit(nullptr));
  uint32_t count = 0;
  EXPECT_ACL_OK(aclrtGetDeviceCount(&count));
  EXPECT_EQ(count, 8u);
  EXPECT_ACL_OK(aclrtSetDevice(0));
  const char* soc = aclrtGetSocName();
  ASSERT_NE(soc, nullptr);
  EXPECT_STREQ(soc, "Ascend910B2");
  EXPECT_ACL_OK(aclFinalize());
}

TEST_F(AclNoInitTest, InitWithEmptyJsonObjectUsesDefaults) {
  TempFile config("{}");
  ASSERT_ACL_OK(aclInit(config.path()));
  uint32_t count = 0;
  EXPECT_ACL_OK(aclrtGetDeviceCount(&count));
  EXPECT_EQ(count, 8u);
  EXPECT_ACL_OK(aclFinalize());
}

TEST_F(AclNoInitTest, InitWithMissingFileIsInvalidFileAndInitialisesNothing) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_FILE, aclInit, "/nonexistent/aclsim/acl.json");
  EXPECT_ACL_ERR(ACL_ERROR_UNINITIALIZE, aclrtSetDevice, 0);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_FILE, aclInit, "");
  ASSERT_ACL_OK(aclInit(nullptr));  // not REPEAT_INITIALIZE: nothing was initialised
}

TEST_F(AclNoInitTest, InitWithADirectoryADeviceOrAFifoIsInvalidFileAtOnce) {
  const std::string fifo =
      (std::filesystem::temp_directory_path() / ("aclsim_init_" + std::to_string(::getpid())))
          .string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path :
       {std::filesystem::temp_directory_path().string(), std::string("/dev/zero"), fifo}) {
    acltest::ClearRecentErrors();
    EXPECT_EQ(aclInit(path.c_str()), ACL_ERROR_INVALID_FILE) << path;
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr) << path;
    EXPECT_NE(std::string(message).find("not a file"), std::string::npos) << message;
    EXPECT_ACL_ERR(ACL_ERROR_UNINITIALIZE, aclrtSetDevice, 0);
  }
  std::filesystem::remove(fifo);
  ASSERT_ACL_OK(aclInit(nullptr));
  uint32_t model_id = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_FILE, aclmdlLoadFromFile,
                 std::filesystem::temp_directory_path().c_str(), &model_id);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_FILE, aclmdlLoadFromFile, "/dev/zero", &model_id);
  ASSERT_ACL_OK(aclFinalize());
}

TEST_F(AclNoInitTest, InitWithMalformedJsonIsParseFileAndInitialisesNothing) {
  TempFile config("{\"aclsim\": {\"device_count\": 2,");
  EXPECT_ACL_ERR(ACL_ERROR_PARSE_FILE, aclInit, config.path());
  EXPECT_ACL_ERR(ACL_ERROR_UNINITIALIZE, aclrtSetDevice, 0);
  uint32_t count = 0;
  EXPECT_ACL_ERR(ACL_ERROR_UNINITIALIZE, aclrtGetDeviceCount, &count);
  ASSERT_ACL_OK(aclInit(nullptr));
  EXPECT_ACL_OK(aclrtGetDeviceCount(&count));
  EXPECT_EQ(count, 8u);  // the malformed file's device_count did not leak into this runtime
}

TEST_F(AclNoInitTest, InitWithNonObjectJsonIsParseFile) {
  TempFile config("[1, 2, 3]");
  EXPECT_ACL_ERR(ACL_ERROR_PARSE_FILE, aclInit, config.path());
  EXPECT_ACL_ERR(ACL_ERROR_UNINITIALIZE, aclrtSetDevice, 0);
}

TEST_F(AclNoInitTest, InitWithWrongTypeForKnownKeyIsParseFile) {
  TempFile not_object("{\"aclsim\": 5}");
  EXPECT_ACL_ERR(ACL_ERROR_PARSE_FILE, aclInit, not_object.path());
  TempFile bad_default("{\"defaultDevice\": {\"default_device\": \"zero\"}}");
  EXPECT_ACL_ERR(ACL_ERROR_PARSE_FILE, aclInit, bad_default.path());
  TempFile bad_mode("{\"err_msg_mode\": \"7\"}");
  EXPECT_ACL_ERR(ACL_ERROR_PARSE_FILE, aclInit, bad_mode.path());
  EXPECT_ACL_ERR(ACL_ERROR_UNINITIALIZE, aclrtSetDevice, 0);
}

std::string Nested(int depth, char open, char close, const char* leaf) {
  std::string inner = leaf;
  for (int i = 0; i < depth; ++i) {
    inner = open == '{' ? std::string("{\"k\": ") + inner + "}" : std::string("[") + inner + "]";
  }
  (void)close;
  return inner;
}

TEST_F(AclNoInitTest, InitWithJsonNestedTenDeepIsAccepted) {
  TempFile objects(Nested(10, '{', '}', "1"));
  ASSERT_ACL_OK(aclInit(objects.path()));
  ASSERT_ACL_OK(aclFinalize());
  TempFile arrays("{\"k\": " + Nested(10, '[', ']', "1") + "}");
  ASSERT_ACL_OK(aclInit(arrays.path()));
  ASSERT_ACL_OK(aclFinalize());
}

TEST_F(AclNoInitTest, InitWithJsonNestedTooDeepIsParseFile) {
  TempFile objects(Nested(11, '{', '}', "1"));
  EXPECT_ACL_ERR(ACL_ERROR_PARSE_FILE, aclInit, objects.path());
  TempFile arrays("{\"k\": " + Nested(11, '[', ']', "1") + "}");
  EXPECT_ACL_ERR(ACL_ERROR_PARSE_FILE, aclInit, arrays.path());
  EXPECT_ACL_ERR(ACL_ERROR_UNINITIALIZE, aclrtSetDevice, 0);
}

TEST_F(AclNoInitTest, InitWithUnknownSocFailsAndInitialisesNothing) {
  TempFile config(AclsimConfig("\"soc\": \"Ascend999\""));
  acltest::ClearRecentErrors();
  EXPECT_NE(aclInit(config.path()), ACL_SUCCESS);
  EXPECT_RECENT_ERROR_NAMES(aclInit);
  EXPECT_ACL_ERR(ACL_ERROR_UNINITIALIZE, aclrtSetDevice, 0);
}

TEST_F(AclNoInitTest, InitWithUnknownBackendFailsAndInitialisesNothing) {
  TempFile config(AclsimConfig("\"driver\": \"no-such-driver\""));
  acltest::ClearRecentErrors();
  EXPECT_NE(aclInit(config.path()), ACL_SUCCESS);
  EXPECT_RECENT_ERROR_NAMES(aclInit);
  EXPECT_ACL_ERR(ACL_ERROR_UNINITIALIZE, aclrtSetDevice, 0);
}

TEST_F(AclNoInitTest, RepeatedInitIsRepeatInitializeAndKeepsFirstConfig) {
  TempFile config(AclsimConfig("\"device_count\": 2"));
  ASSERT_ACL_OK(aclInit(config.path()));
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_INITIALIZE, aclInit, nullptr);
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_INITIALIZE, aclInit, config.path());
  uint32_t count = 0;
  EXPECT_ACL_OK(aclrtGetDeviceCount(&count));
  EXPECT_EQ(count, 2u);
  EXPECT_ACL_OK(aclFinalize());
}

TEST_F(AclNoInitTest, FinalizeTwiceIsRepeatFinalize) {
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclFinalize());
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_FINALIZE, aclFinalize);
}

TEST_F(AclNoInitTest, FinalizeWithoutInitIsRepeatFinalize) {
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_FINALIZE, aclFinalize);
  uint64_t refs = 99;
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_FINALIZE, aclFinalizeReference, &refs);
}

TEST_F(AclNoInitTest, FinalizeReferenceDropsOneInitAtATime) {
  ASSERT_ACL_OK(aclInit(nullptr));
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  uint32_t count = 0;
  uint64_t refs = 99;
  ASSERT_ACL_OK(aclFinalizeReference(&refs));
  EXPECT_EQ(refs, 2u);
  EXPECT_ACL_OK(aclrtGetDeviceCount(&count));    // still initialised
  ASSERT_ACL_OK(aclFinalizeReference(nullptr));  // refCount is optional
  ASSERT_ACL_OK(aclFinalizeReference(&refs));
  EXPECT_EQ(refs, 0u);
  EXPECT_ACL_ERR(ACL_ERROR_UNINITIALIZE, aclrtGetDeviceCount, &count);
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_FINALIZE, aclFinalizeReference, &refs);
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_FINALIZE, aclFinalize);
}

TEST_F(AclNoInitTest, FinalizeDropsEveryReference) {
  ASSERT_ACL_OK(aclInit(nullptr));
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  ASSERT_ACL_OK(aclFinalize());
  uint32_t count = 0;
  EXPECT_ACL_ERR(ACL_ERROR_UNINITIALIZE, aclrtGetDeviceCount, &count);
  uint64_t refs = 0;
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_FINALIZE, aclFinalizeReference, &refs);
}

TEST_F(AclNoInitTest, FinalizeInvalidatesHandlesOfTheOldRuntime) {
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  ASSERT_ACL_OK(aclFinalize());
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclrtSynchronizeStream, stream);
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclrtDestroyStream, stream);
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclrtDestroyEvent, event);
  // The new runtime works.
  aclrtStream fresh = nullptr;
  EXPECT_ACL_OK(aclrtCreateStream(&fresh));
  EXPECT_ACL_OK(aclrtDestroyStream(fresh));
}

TEST_F(AclNoInitTest, EnvironmentConfiguresBackendAndJsonWins) {
  ScopedEnv count_env("ACLSIM_DEVICE_COUNT", "5");
  ScopedEnv soc_env("ACLSIM_SOC", "Ascend310P3");
  ASSERT_ACL_OK(aclInit(nullptr));
  uint32_t count = 0;
  EXPECT_ACL_OK(aclrtGetDeviceCount(&count));
  EXPECT_EQ(count, 5u);
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_NE(aclrtGetSocName(), nullptr);
  EXPECT_STREQ(aclrtGetSocName(), "Ascend310P3");
  ASSERT_ACL_OK(aclFinalize());

  TempFile config(AclsimConfig("\"device_count\": 3, \"soc\": \"Ascend910B4\""));
  ASSERT_ACL_OK(aclInit(config.path()));
  EXPECT_ACL_OK(aclrtGetDeviceCount(&count));
  EXPECT_EQ(count, 3u);
  ASSERT_ACL_OK(aclrtSetDevice(2));
  ASSERT_NE(aclrtGetSocName(), nullptr);
  EXPECT_STREQ(aclrtGetSocName(), "Ascend910B4");
}

TEST_F(AclNoInitTest, DefaultDeviceKeySetsTheDeviceImplicitly) {
  TempFile config("{\"defaultDevice\": {\"default_device\": \"1\"}}");
  ASSERT_ACL_OK(aclInit(config.path()));
  int32_t device = -1;
  EXPECT_ACL_OK(aclrtGetDevice(&device));
  EXPECT_EQ(device, 1);
  void* ptr = nullptr;
  EXPECT_ACL_OK(aclrtMalloc(&ptr, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_OK(aclrtFree(ptr));
  // An explicit aclrtSetDevice wins.
  EXPECT_ACL_OK(aclrtSetDevice(3));
  EXPECT_ACL_OK(aclrtGetDevice(&device));
  EXPECT_EQ(device, 3);
}

TEST_F(AclNoInitTest, RecentErrorMessageIsPerThreadByDefault) {
  ASSERT_ACL_OK(aclInit(nullptr));
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
  std::thread other([] {
    EXPECT_EQ(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_TRUE(acltest::RecentErrorNames("aclrtSetDevice"));
  });
  other.join();
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);  // the other thread's message is not ours
}

TEST_F(AclNoInitTest, RecentErrorMessageIsPerProcessWithErrMsgMode1) {
  TempFile config("{\"err_msg_mode\": \"1\"}");
  ASSERT_ACL_OK(aclInit(config.path()));
  std::thread other([] { EXPECT_EQ(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID); });
  other.join();
  EXPECT_TRUE(acltest::RecentErrorNames("aclrtSetDevice"));
  ASSERT_ACL_OK(aclFinalize());
  ASSERT_ACL_OK(aclInit(nullptr));  // back to per-thread for the other tests
}

TEST_F(AclNoInitTest, RecentErrorMessageIsClearedByReadingAndNewestFirst) {
  ASSERT_ACL_OK(aclInit(nullptr));
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
  EXPECT_EQ(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtCreateStream(nullptr), ACL_ERROR_INVALID_PARAM);
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(msg, nullptr);
  std::string all(msg);
  const size_t newline = all.find('\n');
  ASSERT_NE(newline, std::string::npos) << all;
  EXPECT_NE(all.substr(0, newline).find("aclrtCreateStream"), std::string::npos) << all;
  EXPECT_NE(all.substr(newline + 1).find("aclrtSetDevice"), std::string::npos) << all;
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}

TEST_F(AclNoInitTest, LastErrorIsPeekedAndCleared) {
  ASSERT_ACL_OK(aclInit(nullptr));
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDevice(1000), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
}

TEST_F(AclNoInitTest, LastErrorWithBadLevelIsInvalidParam) {
  ASSERT_ACL_OK(aclInit(nullptr));
  EXPECT_EQ(aclrtSetDevice(1000), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtPeekAtLastError,
                 static_cast<aclrtLastErrLevel>(ACL_RT_THREAD_LEVEL + 7));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetLastError, static_cast<aclrtLastErrLevel>(-1));
  // A call with a bad level neither clears nor replaces the thread's last error.
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
}

TEST_F(AclNoInitTest, GetVersionReportsHeaderVersion) {
  int32_t major = -1, minor = -1, patch = -1;
  ASSERT_ACL_OK(aclrtGetVersion(&major, &minor, &patch));
  EXPECT_EQ(major, ACL_MAJOR_VERSION);
  EXPECT_EQ(minor, ACL_MINOR_VERSION);
  EXPECT_EQ(patch, ACL_PATCH_VERSION);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetVersion, nullptr, &minor, &patch);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetVersion, &major, nullptr, &patch);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetVersion, &major, &minor, nullptr);
}

TEST_F(AclNoInitTest, GetCannVersionFillsEveryPackageName) {
  for (int name = ACL_PKG_NAME_CANN; name <= ACL_PKG_NAME_DRIVER; ++name) {
    aclCANNPackageVersion version;
    std::memset(&version, 0x7f, sizeof(version));
    ASSERT_ACL_OK(aclsysGetCANNVersion(static_cast<aclCANNPackageName>(name), &version));
    EXPECT_GT(std::strlen(version.version), 0u);
    EXPECT_LT(std::strlen(version.version), sizeof(version.version));
    EXPECT_GT(std::strlen(version.majorVersion), 0u);
  }
  aclCANNPackageVersion version;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclsysGetCANNVersion, ACL_PKG_NAME_CANN, nullptr);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclsysGetCANNVersion,
                 static_cast<aclCANNPackageName>(ACL_PKG_NAME_DRIVER + 1), &version);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclsysGetCANNVersion, static_cast<aclCANNPackageName>(-1),
                 &version);
}

TEST_F(AclNoInitTest, GetRunModeIsHost) {
  ASSERT_ACL_OK(aclInit(nullptr));
  aclrtRunMode mode = ACL_DEVICE;
  ASSERT_ACL_OK(aclrtGetRunMode(&mode));
  EXPECT_EQ(mode, ACL_HOST);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetRunMode, nullptr);
}

TEST_F(AclNoInitTest, GetSocNameFollowsTheCurrentDevicesSoc) {
  TempFile config(AclsimConfig("\"soc\": \"Ascend310P3\""));
  ASSERT_ACL_OK(aclInit(config.path()));
  ASSERT_ACL_OK(aclrtSetDevice(1));
  const char* first = aclrtGetSocName();
  ASSERT_NE(first, nullptr);
  EXPECT_STREQ(first, "Ascend310P3");
  EXPECT_EQ(aclrtGetSocName(), first);  // a stable pointer
}

}  // namespace
