// Contexts: explicit and default contexts, the thread-local current context, default
// streams, system parameters, primary context state.
#include <thread>

#include "api_test.h"

namespace {

using acltest::AclTest;

constexpr int kBadParam = ACL_ERROR_INVALID_PARAM;
constexpr int kBadHandle = ACL_ERROR_RT_INVALID_HANDLE;

int32_t CurrentDevice() {
  int32_t device = -1;
  EXPECT_ACL_OK(aclrtGetDevice(&device));
  return device;
}

TEST_F(AclTest, SetDeviceMakesTheDefaultContextCurrent) {
  aclrtContext context = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&context));
  EXPECT_NE(context, nullptr);
  aclrtContext again = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&again));
  EXPECT_EQ(context, again);
  EXPECT_ACL_ERR(kBadParam, aclrtGetCurrentContext, nullptr);
}

TEST_F(AclTest, CreateContextMakesItCurrentOnItsDevice) {
  aclrtContext default_ctx = nullptr, ctx = nullptr, current = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&default_ctx));
  ASSERT_ACL_OK(aclrtCreateContext(&ctx, 2));
  EXPECT_NE(ctx, default_ctx);
  ASSERT_ACL_OK(aclrtGetCurrentContext(&current));
  EXPECT_EQ(current, ctx);
  EXPECT_EQ(CurrentDevice(), 2);
  ASSERT_ACL_OK(aclrtSetCurrentContext(default_ctx));
  EXPECT_EQ(CurrentDevice(), 0);
  ASSERT_ACL_OK(aclrtSetCurrentContext(ctx));
  EXPECT_EQ(CurrentDevice(), 2);
  ASSERT_ACL_OK(aclrtDestroyContext(ctx));
}

TEST_F(AclTest, CreateContextRefusesBadArguments) {
  aclrtContext ctx = nullptr;
  EXPECT_ACL_ERR(kBadParam, aclrtCreateContext, nullptr, 0);
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtCreateContext, &ctx, 8);
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtCreateContext, &ctx, -1);
}

TEST_F(AclTest, DestroyedContextIsNoLongerCurrentOrUsable) {
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&ctx, 1));
  ASSERT_ACL_OK(aclrtDestroyContext(ctx));
  aclrtContext current = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext, &current);
  aclrtStream stream = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateStream, &stream);
  EXPECT_ACL_ERR(kBadHandle, aclrtSetCurrentContext, ctx);
  EXPECT_ACL_ERR(kBadHandle, aclrtDestroyContext, ctx);
}

TEST_F(AclTest, DestroyedContextDoesNotAliasANewerContext) {
  for (int i = 0; i < 10; ++i) {
    aclrtContext old_ctx = nullptr, new_ctx = nullptr;
    ASSERT_ACL_OK(aclrtCreateContext(&old_ctx, 1));
    ASSERT_ACL_OK(aclrtDestroyContext(old_ctx));
    ASSERT_ACL_OK(aclrtCreateContext(&new_ctx, 1));
    EXPECT_NE(old_ctx, new_ctx);
    EXPECT_ACL_ERR(kBadHandle, aclrtDestroyContext, old_ctx);
    EXPECT_ACL_OK(aclrtDestroyContext(new_ctx));
  }
}

TEST_F(AclTest, ContextFunctionsRefuseNullAndWrongKindHandles) {
  aclrtStream stream = nullptr;
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  int not_a_handle = 0;
  EXPECT_ACL_ERR(kBadParam, aclrtDestroyContext, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtSetCurrentContext, nullptr);
  EXPECT_ACL_ERR(kBadHandle, aclrtDestroyContext, stream);
  EXPECT_ACL_ERR(kBadHandle, aclrtSetCurrentContext, stream);
  EXPECT_ACL_ERR(kBadHandle, aclrtSetCurrentContext, event);
  EXPECT_ACL_ERR(kBadHandle, aclrtDestroyContext, &not_a_handle);
  aclDataBuffer* buffer = aclCreateDataBuffer(nullptr, 0);
  ASSERT_NE(buffer, nullptr);
  EXPECT_ACL_ERR(kBadHandle, aclrtSetCurrentContext, buffer);
  EXPECT_ACL_OK(aclDestroyDataBuffer(buffer));
  // The failed calls did not change the current context.
  EXPECT_EQ(CurrentDevice(), 0);
}

TEST_F(AclTest, DefaultContextCannotBeDestroyed) {
  aclrtContext default_ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&default_ctx));
  EXPECT_ACL_ERR(kBadParam, aclrtDestroyContext, default_ctx);
  EXPECT_EQ(CurrentDevice(), 0);
}

TEST_F(AclTest, NewThreadHasNoContextUntilItSetsOne) {
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&ctx, 1));
  std::thread worker([ctx] {
    aclrtContext current = nullptr;
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext, &current);
    aclrtStream stream = nullptr;
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateStream, &stream);
    void* ptr = nullptr;
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtMalloc, &ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    ASSERT_ACL_OK(aclrtSetCurrentContext(ctx));
    ASSERT_ACL_OK(aclrtGetCurrentContext(&current));
    EXPECT_EQ(current, ctx);
    EXPECT_EQ(CurrentDevice(), 1);
    // The shared context is fully usable on this thread.
    ASSERT_ACL_OK(aclrtCreateStream(&stream));
    const size_t kBytes = 4096;
    std::vector<uint8_t> in = acltest::Pattern(kBytes, 3), out(kBytes, 0);
    acltest::PinnedHost pinned_in(in), pinned_out(out);
    ASSERT_ACL_OK(aclrtMalloc(&ptr, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(
        aclrtMemcpyAsync(ptr, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    ASSERT_ACL_OK(
        aclrtMemcpyAsync(out.data(), kBytes, ptr, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
    EXPECT_EQ(acltest::FirstMismatch(in.data(), out.data(), kBytes), -1);
    EXPECT_ACL_OK(aclrtFree(ptr));
    EXPECT_ACL_OK(aclrtDestroyStream(stream));
  });
  worker.join();
  // CreateContext made ctx current here; the worker's calls did not change that.
  aclrtContext current = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&current));
  EXPECT_EQ(current, ctx);
  EXPECT_ACL_OK(aclrtDestroyContext(ctx));
}

TEST_F(AclTest, EachContextHasItsOwnDefaultStream) {
  aclrtStream default0 = nullptr, default1 = nullptr, again = nullptr;
  ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&default0));
  EXPECT_NE(default0, nullptr);
  ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&again));
  EXPECT_EQ(default0, again);
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&ctx, 0));
  ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&default1));
  EXPECT_NE(default0, default1);
  // A default stream is a stream (usable by handle) but cannot be destroyed.
  EXPECT_ACL_OK(aclrtSynchronizeStream(default1));
  EXPECT_ACL_ERR(kBadParam, aclrtDestroyStream, default1);
  EXPECT_ACL_ERR(kBadParam, aclrtDestroyStreamForce, default1);
  EXPECT_ACL_ERR(kBadParam, aclrtCtxGetCurrentDefaultStream, nullptr);
  ASSERT_ACL_OK(aclrtDestroyContext(ctx));
  // Destroying the context released its default stream.
  EXPECT_ACL_ERR(kBadHandle, aclrtSynchronizeStream, default1);
}

TEST_F(AclTest, StreamsFollowTheirContextsDevice) {
  aclrtContext ctx0 = nullptr, ctx1 = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx0));
  void* dev0 = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev0, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtCreateContext(&ctx1, 1));
  aclrtStream stream1 = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream1));
  std::vector<uint8_t> host(4096, 1);
  // Device-0 memory with a device-1 stream.
  EXPECT_ACL_ERR(ACL_ERROR_RESOURCE_NOT_MATCH, aclrtMemcpyAsync, dev0, 4096, host.data(), 4096,
                 ACL_MEMCPY_HOST_TO_DEVICE, stream1);
  EXPECT_ACL_ERR(ACL_ERROR_RESOURCE_NOT_MATCH, aclrtMemsetAsync, dev0, 4096, 0, 4096, stream1);
  ASSERT_ACL_OK(aclrtSetCurrentContext(ctx0));
  EXPECT_ACL_OK(aclrtFree(dev0));
  EXPECT_ACL_OK(aclrtDestroyStream(stream1));  // streams are destroyed by handle, any context
  EXPECT_ACL_OK(aclrtDestroyContext(ctx1));
}

TEST_F(AclTest, ContextKeepsItsDeviceOpenAfterResetDevice) {
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&ctx, 0));
  // The explicit context holds its own reference on device 0.
  ASSERT_ACL_OK(aclrtResetDevice(0));
  ASSERT_ACL_OK(aclrtSetCurrentContext(ctx));
  void* ptr = nullptr;
  EXPECT_ACL_OK(aclrtMalloc(&ptr, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_OK(aclrtFree(ptr));
  EXPECT_ACL_OK(aclrtDestroyContext(ctx));
}

TEST_F(AclTest, SystemParametersAreNotSetUntilSet) {
  int64_t value = -1;
  EXPECT_ACL_ERR(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, aclrtGetSysParamOpt, ACL_OPT_DETERMINISTIC,
                 &value);
  ASSERT_ACL_OK(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1));
  ASSERT_ACL_OK(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value));
  EXPECT_EQ(value, 1);
  ASSERT_ACL_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 7));
  ASSERT_ACL_OK(aclrtGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &value));
  EXPECT_EQ(value, 7);
  EXPECT_ACL_ERR(kBadParam, aclrtGetSysParamOpt, ACL_OPT_DETERMINISTIC, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtSetSysParamOpt, static_cast<aclSysParamOpt>(99), 1);
  EXPECT_ACL_ERR(kBadParam, aclrtGetSysParamOpt, static_cast<aclSysParamOpt>(-1), &value);
}

TEST_F(AclTest, ContextSystemParametersArePerContext) {
  int64_t value = -1;
  EXPECT_ACL_ERR(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, aclrtCtxGetSysParamOpt, ACL_OPT_DETERMINISTIC,
                 &value);
  ASSERT_ACL_OK(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1));
  ASSERT_ACL_OK(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value));
  EXPECT_EQ(value, 1);
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&ctx, 0));
  EXPECT_ACL_ERR(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, aclrtCtxGetSysParamOpt, ACL_OPT_DETERMINISTIC,
                 &value);
  EXPECT_ACL_ERR(kBadParam, aclrtCtxGetSysParamOpt, ACL_OPT_DETERMINISTIC, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtCtxSetSysParamOpt, static_cast<aclSysParamOpt>(99), 1);
  EXPECT_ACL_OK(aclrtDestroyContext(ctx));
  std::thread worker([] {
    int64_t v = 0;
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCtxGetSysParamOpt, ACL_OPT_DETERMINISTIC, &v);
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCtxSetSysParamOpt, ACL_OPT_DETERMINISTIC, 1);
  });
  worker.join();
}

TEST_F(AclTest, PrimaryContextIsActiveOnlyOnSetDevices) {
  uint32_t flags = 99;
  int32_t active = -1;
  ASSERT_ACL_OK(aclrtGetPrimaryCtxState(0, &flags, &active));
  EXPECT_EQ(active, 1);
  EXPECT_EQ(flags, 0u);
  ASSERT_ACL_OK(aclrtGetPrimaryCtxState(5, &flags, &active));
  EXPECT_EQ(active, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtGetPrimaryCtxState, 0, nullptr, &active);
  EXPECT_ACL_ERR(kBadParam, aclrtGetPrimaryCtxState, 0, &flags, nullptr);
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetPrimaryCtxState, 8, &flags, &active);
}

}  // namespace
