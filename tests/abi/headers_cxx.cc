// tests/abi/headers_cxx.cc -- every public header compiles as strict C++ (built once each
// for C++11, 14, 17 and 20 with -Wall -Wextra -pedantic -Werror), the manifest matches the
// headers (manifest_check.inc), and the C++ overloads of acl_rt_api.h forward to the right
// C function with the right arguments.
//
// The C functions the overloads forward to are defined here as recording fakes, so the
// test needs no aclsim library.

#include "acl/acl.h"
#include "acl/acl_base.h"
#include "acl/acl_base_mdl.h"
#include "acl/acl_base_rt.h"
#include "acl/acl_dump.h"
#include "acl/acl_ext.h"
#include "acl/acl_mdl.h"
#include "acl/acl_op.h"
#include "acl/acl_op_compiler.h"
#include "acl/acl_platform.h"
#include "acl/acl_prof.h"
#include "acl/acl_rt.h"
#include "acl/acl_rt_allocator.h"
#include "acl/acl_rt_api.h"
#include "acl/acl_rt_memory_soma.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "acl/error_codes/ge_error_codes.h"
#include "acl/error_codes/rt_error_codes.h"
#include "acl/ops/acl_cblas.h"
#include "error_codes/ge_error_codes.h"
#include "error_codes/rt_error_codes.h"

#include "manifest_check.inc"

#include <cstdio>
#include <cstring>
#include <type_traits>

namespace {

// What the last fake saw.
struct Call {
    const char* name = "";
    const void* p0 = nullptr;
    const void* p1 = nullptr;
    const void* p2 = nullptr;
    unsigned long long u0 = 0;
    unsigned long long u1 = 0;
    unsigned long long u2 = 0;
};
Call g_call;

void record(const char* name, const void* p0 = nullptr, const void* p1 = nullptr, const void* p2 = nullptr,
            unsigned long long u0 = 0, unsigned long long u1 = 0, unsigned long long u2 = 0)
{
    g_call.name = name;
    g_call.p0 = p0;
    g_call.p1 = p1;
    g_call.p2 = p2;
    g_call.u0 = u0;
    g_call.u1 = u1;
    g_call.u2 = u2;
}

int g_failures = 0;

void expect(bool ok, const char* what, int line)
{
    if (!ok) {
        ++g_failures;
        std::printf("FAIL line %d: %s (last call: %s)\n", line, what, g_call.name);
    }
}

#define EXPECT(cond) expect((cond), #cond, __LINE__)
#define EXPECT_CALL(fn) EXPECT(std::strcmp(g_call.name, fn) == 0)

}  // namespace

// ---- recording fakes of the C functions acl_rt_api.h forwards to ----
extern "C" {

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout)
{
    record("aclrtSynchronizeDeviceWithTimeout", nullptr, nullptr, nullptr, static_cast<unsigned long long>(timeout));
    return ACL_SUCCESS;
}
aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout)
{
    record("aclrtSynchronizeStreamWithTimeout", stream, nullptr, nullptr, static_cast<unsigned long long>(timeout));
    return ACL_SUCCESS;
}
aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout)
{
    record("aclrtSynchronizeEventWithTimeout", event, nullptr, nullptr, static_cast<unsigned long long>(timeout));
    return ACL_SUCCESS;
}
aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout)
{
    record("aclrtStreamWaitEventWithTimeout", stream, event, nullptr, static_cast<unsigned long long>(timeout));
    return ACL_SUCCESS;
}
aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag)
{
    record("aclrtCreateStreamWithConfig", stream, nullptr, nullptr, priority, flag);
    return ACL_SUCCESS;
}
aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t* actualTimeout)
{
    record("aclrtSetOpExecuteTimeOutV2", actualTimeout, nullptr, nullptr, timeout);
    return ACL_SUCCESS;
}
aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag)
{
    record("aclrtCreateEventExWithFlag", event, nullptr, nullptr, flag);
    return ACL_SUCCESS;
}
aclError aclrtMallocWithCfg(void** devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig* cfg)
{
    record("aclrtMallocWithCfg", devPtr, cfg, nullptr, size, static_cast<unsigned long long>(policy));
    return ACL_SUCCESS;
}
aclError aclrtMallocHostWithCfg(void** ptr, uint64_t size, aclrtMallocConfig* cfg)
{
    record("aclrtMallocHostWithCfg", ptr, cfg, nullptr, size);
    return ACL_SUCCESS;
}
aclError aclrtMemAllocManaged(void** ptr, uint64_t size, uint32_t flag)
{
    record("aclrtMemAllocManaged", ptr, nullptr, nullptr, size, flag);
    return ACL_SUCCESS;
}
aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind)
{
    record("aclrtMemcpy", dst, src, nullptr, destMax, count, static_cast<unsigned long long>(kind));
    return ACL_SUCCESS;
}
aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream)
{
    record("aclrtMemcpyAsync", dst, src, stream, destMax, count, static_cast<unsigned long long>(kind));
    return ACL_SUCCESS;
}
aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                       aclrtMemcpyKind kind)
{
    record("aclrtMemcpy2d", dst, src, nullptr, dpitch + spitch, width * height, static_cast<unsigned long long>(kind));
    return ACL_SUCCESS;
}
aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                            aclrtMemcpyKind kind, aclrtStream stream)
{
    record("aclrtMemcpy2dAsync", dst, src, stream, dpitch + spitch, width * height,
           static_cast<unsigned long long>(kind));
    return ACL_SUCCESS;
}
aclError aclrtMemcpyBatch(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
                          aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs, size_t* failIndex)
{
    (void)destMaxs;
    (void)sizes;
    (void)attrs;
    record("aclrtMemcpyBatch", dsts, srcs, failIndex, numBatches, numAttrs, attrsIndexes[0]);
    return ACL_SUCCESS;
}
aclError aclrtMemcpyBatchV2(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
                            aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs)
{
    (void)destMaxs;
    (void)sizes;
    record("aclrtMemcpyBatchV2", dsts, srcs, nullptr, numBatches, numAttrs, attrsIndexes[0]);
    g_call.p2 = attrs;
    return ACL_SUCCESS;
}
aclError aclrtMemcpyBatchAsync(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
                               aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs, size_t* failIndex,
                               aclrtStream stream)
{
    (void)destMaxs;
    (void)sizes;
    (void)attrs;
    (void)stream;
    record("aclrtMemcpyBatchAsync", dsts, srcs, failIndex, numBatches, numAttrs, attrsIndexes[0]);
    return ACL_SUCCESS;
}
aclError aclrtMemcpyBatchAsyncV2(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
                                 aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs,
                                 aclrtStream stream)
{
    (void)destMaxs;
    (void)sizes;
    (void)attrs;
    record("aclrtMemcpyBatchAsyncV2", dsts, srcs, stream, numBatches, numAttrs, attrsIndexes[0]);
    return ACL_SUCCESS;
}
aclError aclrtPointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes)
{
    record("aclrtPointerGetAttributes", ptr, attributes);
    return ACL_SUCCESS;
}
aclError aclrtHostRegister(void* ptr, uint64_t size, aclrtHostRegisterType type, void** devPtr)
{
    record("aclrtHostRegister", ptr, devPtr, nullptr, size, static_cast<unsigned long long>(type));
    return ACL_SUCCESS;
}
aclError aclrtHostRegisterV2(void* ptr, uint64_t size, uint32_t flag)
{
    record("aclrtHostRegisterV2", ptr, nullptr, nullptr, size, flag);
    return ACL_SUCCESS;
}
aclError aclrtHostGetDevicePointer(void* pHost, void** pDevice, uint32_t flag)
{
    record("aclrtHostGetDevicePointer", pHost, pDevice, nullptr, flag);
    return ACL_SUCCESS;
}
aclError aclrtHostUnregister(void* ptr)
{
    record("aclrtHostUnregister", ptr);
    return ACL_SUCCESS;
}
aclError aclrtMemManagedPrefetchAsync(const void* ptr, size_t size, aclrtMemManagedLocation location, uint32_t flags,
                                      aclrtStream stream)
{
    record("aclrtMemManagedPrefetchAsync", ptr, stream, nullptr, size, static_cast<unsigned long long>(location.id),
           flags);
    return ACL_SUCCESS;
}
aclError aclrtMemManagedPrefetchBatchAsync(const void** ptrs, size_t* sizes, size_t count,
                                           aclrtMemManagedLocation* prefetchLocs, size_t* prefetchLocIdxs,
                                           size_t numPrefetchLocs, uint64_t flags, aclrtStream stream)
{
    (void)sizes;
    (void)stream;
    record("aclrtMemManagedPrefetchBatchAsync", ptrs, prefetchLocs, nullptr, count, numPrefetchLocs,
           flags + prefetchLocIdxs[0]);
    return ACL_SUCCESS;
}
aclError aclrtGetSymbolAddress(const void* symbol, void** devPtr)
{
    record("aclrtGetSymbolAddress", symbol, devPtr);
    return ACL_SUCCESS;
}
aclError aclrtGetSymbolSize(const void* symbol, size_t* size)
{
    record("aclrtGetSymbolSize", symbol, size);
    return ACL_SUCCESS;
}
aclError aclrtMemcpyFromSymbol(void* dst, size_t dstMax, const void* symbol, size_t count, size_t offset,
                               aclrtMemcpyKind kind)
{
    record("aclrtMemcpyFromSymbol", dst, symbol, nullptr, dstMax, count + offset, static_cast<unsigned long long>(kind));
    return ACL_SUCCESS;
}
aclError aclrtMemcpyFromSymbolAsync(void* dst, size_t dstMax, const void* symbol, size_t count, size_t offset,
                                    aclrtMemcpyKind kind, aclrtStream stream)
{
    record("aclrtMemcpyFromSymbolAsync", dst, symbol, stream, dstMax, count + offset,
           static_cast<unsigned long long>(kind));
    return ACL_SUCCESS;
}
aclError aclrtMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset, aclrtMemcpyKind kind)
{
    record("aclrtMemcpyToSymbol", symbol, src, nullptr, count, offset, static_cast<unsigned long long>(kind));
    return ACL_SUCCESS;
}
aclError aclrtMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset,
                                  aclrtMemcpyKind kind, aclrtStream stream)
{
    record("aclrtMemcpyToSymbolAsync", symbol, src, stream, count, offset, static_cast<unsigned long long>(kind));
    return ACL_SUCCESS;
}

}  // extern "C"

namespace {

void TimeoutOverloads()
{
    int s = 0;
    int e = 0;
    aclrtStream stream = &s;
    aclrtEvent event = &e;

    EXPECT(aclrtSynchronizeDevice(5) == ACL_SUCCESS);
    EXPECT_CALL("aclrtSynchronizeDeviceWithTimeout");
    EXPECT(g_call.u0 == 5);

    aclrtSynchronizeStream(stream, 7);
    EXPECT_CALL("aclrtSynchronizeStreamWithTimeout");
    EXPECT(g_call.p0 == stream && g_call.u0 == 7);

    aclrtSynchronizeEvent(event, 9);
    EXPECT_CALL("aclrtSynchronizeEventWithTimeout");
    EXPECT(g_call.p0 == event && g_call.u0 == 9);

    aclrtStreamWaitEvent(stream, event, 11);
    EXPECT_CALL("aclrtStreamWaitEventWithTimeout");
    EXPECT(g_call.p0 == stream && g_call.p1 == event && g_call.u0 == 11);

    aclrtStream created = nullptr;
    aclrtCreateStream(&created, 1U, ACL_STREAM_FAST_LAUNCH);
    EXPECT_CALL("aclrtCreateStreamWithConfig");
    EXPECT(g_call.p0 == &created && g_call.u0 == 1 && g_call.u1 == ACL_STREAM_FAST_LAUNCH);

    uint64_t actual = 0;
    aclrtSetOpExecuteTimeOut(static_cast<uint64_t>(100), &actual);
    EXPECT_CALL("aclrtSetOpExecuteTimeOutV2");
    EXPECT(g_call.p0 == &actual && g_call.u0 == 100);

    aclrtEvent ev = nullptr;
    aclrtCreateEvent(&ev, ACL_EVENT_SYNC);
    EXPECT_CALL("aclrtCreateEventExWithFlag");
    EXPECT(g_call.p0 == &ev && g_call.u0 == ACL_EVENT_SYNC);
}

void AllocationOverloads()
{
    float* fp = nullptr;
    aclrtMalloc(&fp, 64);
    EXPECT_CALL("aclrtMallocWithCfg");
    EXPECT(g_call.p0 == static_cast<void*>(&fp) && g_call.p1 == nullptr && g_call.u0 == 64 &&
           g_call.u1 == ACL_MEM_MALLOC_HUGE_FIRST);

    aclrtMallocConfig cfg;
    std::memset(&cfg, 0, sizeof(cfg));
    aclrtMalloc(&fp, 128, ACL_MEM_MALLOC_NORMAL_ONLY, &cfg);
    EXPECT_CALL("aclrtMallocWithCfg");
    EXPECT(g_call.p1 == &cfg && g_call.u0 == 128 && g_call.u1 == ACL_MEM_MALLOC_NORMAL_ONLY);

    int* ip = nullptr;
    aclrtMallocHost(&ip, 32);
    EXPECT_CALL("aclrtMallocHostWithCfg");
    EXPECT(g_call.p0 == static_cast<void*>(&ip) && g_call.u0 == 32);

    aclrtMemAllocManaged(&fp, 16);
    EXPECT_CALL("aclrtMemAllocManaged");
    EXPECT(g_call.u0 == 16 && g_call.u1 == ACL_RT_MEM_ATTACH_GLOBAL);
}

void CopyOverloads()
{
    float dst[4] = {0, 0, 0, 0};
    const int src[4] = {1, 2, 3, 4};
    int s = 0;
    aclrtStream stream = &s;

    aclrtMemcpy(dst, sizeof(dst), src, sizeof(src), ACL_MEMCPY_HOST_TO_HOST);
    EXPECT_CALL("aclrtMemcpy");
    EXPECT(g_call.p0 == dst && g_call.p1 == src && g_call.u0 == 16 && g_call.u1 == 16);

    aclrtMemcpyAsync(dst, sizeof(dst), src, sizeof(src), ACL_MEMCPY_HOST_TO_DEVICE, stream);
    EXPECT_CALL("aclrtMemcpyAsync");
    EXPECT(g_call.p2 == stream && g_call.u2 == ACL_MEMCPY_HOST_TO_DEVICE);

    aclrtMemcpy2d(dst, 8, src, 8, 8, 2, ACL_MEMCPY_DEVICE_TO_HOST);
    EXPECT_CALL("aclrtMemcpy2d");
    EXPECT(g_call.u0 == 16 && g_call.u1 == 16);

    aclrtMemcpy2dAsync(dst, 8, src, 8, 8, 2, ACL_MEMCPY_DEVICE_TO_DEVICE, stream);
    EXPECT_CALL("aclrtMemcpy2dAsync");
    EXPECT(g_call.p2 == stream);

    // the C function itself stays callable with void pointers
    void* vdst = dst;
    const void* vsrc = src;
    aclrtMemcpy(vdst, 4, vsrc, 4, ACL_MEMCPY_HOST_TO_HOST);
    EXPECT_CALL("aclrtMemcpy");
}

void BatchOverloads()
{
    float a = 0;
    float b = 0;
    float* dsts[1] = {&a};
    float* srcs[1] = {&b};
    size_t destMaxs[1] = {4};
    size_t sizes[1] = {4};
    aclrtMemcpyBatchAttr attrs[2];
    std::memset(attrs, 0, sizeof(attrs));
    size_t attrsIndexes[2] = {0, 0};
    size_t failIndex = 0;
    int s = 0;
    aclrtStream stream = &s;

    aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 1, attrs, attrsIndexes, 2);
    EXPECT_CALL("aclrtMemcpyBatchV2");
    EXPECT(g_call.p0 == static_cast<void*>(dsts) && g_call.p1 == static_cast<void*>(srcs) && g_call.u1 == 2);

    aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 1, attrs, attrsIndexes, 2, &failIndex);
    EXPECT_CALL("aclrtMemcpyBatch");
    EXPECT(g_call.p2 == &failIndex);

    aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 1, attrs[0]);
    EXPECT_CALL("aclrtMemcpyBatchV2");
    EXPECT(g_call.u0 == 1 && g_call.u1 == 1 && g_call.u2 == 0);

    aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 1, attrs[0], &failIndex);
    EXPECT_CALL("aclrtMemcpyBatch");
    EXPECT(g_call.p2 == &failIndex && g_call.u1 == 1);

    aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 1, attrs, attrsIndexes, 2, stream);
    EXPECT_CALL("aclrtMemcpyBatchAsyncV2");
    EXPECT(g_call.p2 == stream && g_call.u1 == 2);

    aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 1, attrs, attrsIndexes, 2, &failIndex, stream);
    EXPECT_CALL("aclrtMemcpyBatchAsync");
    EXPECT(g_call.p2 == &failIndex);

    aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 1, attrs[1], stream);
    EXPECT_CALL("aclrtMemcpyBatchAsyncV2");
    EXPECT(g_call.u1 == 1);

    aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 1, attrs[1], &failIndex, stream);
    EXPECT_CALL("aclrtMemcpyBatchAsync");
    EXPECT(g_call.p2 == &failIndex && g_call.u1 == 1);
}

void PointerAndRegisterOverloads()
{
    double host[2] = {0, 0};
    double* dev = nullptr;
    aclrtPtrAttributes attrs;

    aclrtPointerGetAttributes(host, &attrs);
    EXPECT_CALL("aclrtPointerGetAttributes");
    EXPECT(g_call.p0 == host && g_call.p1 == &attrs);

    aclrtHostRegister(host, sizeof(host), ACL_HOST_REGISTER_MAPPED, &dev);
    EXPECT_CALL("aclrtHostRegister");
    EXPECT(g_call.p0 == host && g_call.p1 == static_cast<void*>(&dev) && g_call.u0 == sizeof(host));

    aclrtHostRegister(host, sizeof(host), static_cast<uint32_t>(ACL_HOST_REG_MAPPED));
    EXPECT_CALL("aclrtHostRegisterV2");
    EXPECT(g_call.u1 == ACL_HOST_REG_MAPPED);

    aclrtHostGetDevicePointer(host, &dev, 0U);
    EXPECT_CALL("aclrtHostGetDevicePointer");
    EXPECT(g_call.p0 == host);

    aclrtHostUnregister(host);
    EXPECT_CALL("aclrtHostUnregister");
    EXPECT(g_call.p0 == host);
}

void PrefetchOverloads()
{
    const float data[2] = {1, 2};
    const float* ptrs[1] = {data};
    size_t sizes[1] = {sizeof(data)};
    aclrtMemManagedLocation loc;
    loc.type = ACL_MEM_LOCATIONTYPE_DEVICE;
    loc.id = 3;
    size_t locIdx[1] = {0};
    int s = 0;
    aclrtStream stream = &s;

    aclrtMemManagedPrefetchAsync(data, sizeof(data), loc, 0U, stream);
    EXPECT_CALL("aclrtMemManagedPrefetchAsync");
    EXPECT(g_call.p0 == data && g_call.u1 == 3);

    aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 1, &loc, locIdx, 1, 0, stream);
    EXPECT_CALL("aclrtMemManagedPrefetchBatchAsync");
    EXPECT(g_call.p1 == &loc && g_call.u1 == 1);

    aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 1, loc, 0, stream);
    EXPECT_CALL("aclrtMemManagedPrefetchBatchAsync");
    EXPECT(g_call.u0 == 1 && g_call.u1 == 1 && g_call.u2 == 0);
}

float g_symbol = 0;

void SymbolOverloads()
{
    void* devPtr = nullptr;
    size_t size = 0;
    float buf = 0;
    int s = 0;
    aclrtStream stream = &s;

    aclrtGetSymbolAddress(g_symbol, &devPtr);
    EXPECT_CALL("aclrtGetSymbolAddress");
    EXPECT(g_call.p0 == &g_symbol);

    aclrtGetSymbolSize(g_symbol, &size);
    EXPECT_CALL("aclrtGetSymbolSize");
    EXPECT(g_call.p0 == &g_symbol && g_call.p1 == &size);

    aclrtMemcpyFromSymbol(&buf, sizeof(buf), g_symbol, sizeof(buf), 0, ACL_MEMCPY_DEVICE_TO_HOST);
    EXPECT_CALL("aclrtMemcpyFromSymbol");
    EXPECT(g_call.p1 == &g_symbol);

    aclrtMemcpyFromSymbolAsync(&buf, sizeof(buf), g_symbol, sizeof(buf), 0, ACL_MEMCPY_DEVICE_TO_HOST, stream);
    EXPECT_CALL("aclrtMemcpyFromSymbolAsync");
    EXPECT(g_call.p1 == &g_symbol && g_call.p2 == stream);

    aclrtMemcpyToSymbol(g_symbol, &buf, sizeof(buf), 0, ACL_MEMCPY_HOST_TO_DEVICE);
    EXPECT_CALL("aclrtMemcpyToSymbol");
    EXPECT(g_call.p0 == &g_symbol && g_call.p1 == &buf);

    aclrtMemcpyToSymbolAsync(g_symbol, &buf, sizeof(buf), 0, ACL_MEMCPY_HOST_TO_DEVICE, stream);
    EXPECT_CALL("aclrtMemcpyToSymbolAsync");
    EXPECT(g_call.p0 == &g_symbol && g_call.p2 == stream);
}

void Types()
{
#ifndef __BISHENG_CCEC__
    constexpr dim3 grid(4);
    static_assert(grid.x == 4 && grid.y == 1 && grid.z == 1, "dim3 defaults");
    constexpr dim3 block(2, 3, 5);
    static_assert(block.x * block.y * block.z == 30, "dim3 ctor");
    static_assert(sizeof(dim3) == 12, "dim3 size");
    static_assert(std::is_standard_layout<dim3>::value, "dim3 stays a C struct");
#endif
    static_assert(sizeof(acldumpChunk) == 4120, "acldumpChunk size");
    static_assert(offsetof(acldumpChunk, dataBuf) == 4116, "acldumpChunk.dataBuf");
    static_assert(sizeof(aclmdlRITaskParams) == 200, "aclmdlRITaskParams size");
    static_assert(std::is_same<decltype(ACL_ERROR_INVALID_PARAM), const int>::value, "static const int");
    static_assert(std::is_same<decltype(ACL_ERROR_GE_PARAM_INVALID), const uint32_t>::value, "static const uint32_t");

    aclmdlRITaskParams task;
    std::memset(&task, 0, sizeof(task));
    task.eventRecordTaskParams.recordFlag = 7;
    EXPECT(task.eventWaitTaskParams.waitFlag == 7);

    acltdtTensorType t = ACL_TENSOR_DATA_END_OF_SEQUENCE;
    EXPECT(t == 1);
}

}  // namespace

int main()
{
    TimeoutOverloads();
    AllocationOverloads();
    CopyOverloads();
    BatchOverloads();
    PointerAndRegisterOverloads();
    PrefetchOverloads();
    SymbolOverloads();
    Types();
    std::printf("headers_cxx (C++%ld): %s\n", static_cast<long>(__cplusplus), g_failures == 0 ? "ok" : "FAILED");
    return g_failures == 0 ? 0 : 1;
}
