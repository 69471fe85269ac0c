// Streams: creation with flags and priorities, config handles, destroy (also forced and with
// pending work), synchronisation with timeouts, queries, attributes, waits on events and
// the SoC's stream limit.
#include <set>
#include <thread>

#include "api_test.h"

namespace {

using acltest::AclNoInitTest;
using acltest::AclsimConfig;
using acltest::AclTest;
using acltest::Latch;
using acltest::TempFile;

constexpr int kBadParam = ACL_ERROR_INVALID_PARAM;
constexpr int kBadHandle = ACL_ERROR_RT_INVALID_HANDLE;

class StreamTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    ASSERT_ACL_OK(aclrtCreateEvent(&event_));
    ASSERT_ACL_OK(aclrtCreateStream(&destroyed_));
    ASSERT_ACL_OK(aclrtDestroyStream(destroyed_));
    acltest::ClearRecentErrors();
  }
  aclrtStream stream_ = nullptr;
  aclrtStream destroyed_ = nullptr;
  aclrtEvent event_ = nullptr;
};

TEST_F(StreamTest, CreateAndDestroy) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  EXPECT_NE(stream, nullptr);
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
  EXPECT_ACL_ERR(kBadParam, aclrtCreateStream, nullptr);
}

TEST_F(StreamTest, CreateWithoutContextIsContextNull) {
  std::thread worker([] {
    aclrtStream stream = nullptr;
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateStream, &stream);
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateStreamWithConfig, &stream, 0, 0);
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtSynchronizeStream, nullptr);
    uint32_t count = 0;
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetStreamAvailableNum, &count);
  });
  worker.join();
}

TEST_F(StreamTest, CreateWithConfigKeepsEveryFlagAndPriority) {
  const uint32_t flags[] = {0,
                            ACL_STREAM_FAST_LAUNCH,
                            ACL_STREAM_FAST_SYNC,
                            ACL_STREAM_PERSISTENT,
                            ACL_STREAM_HUGE,
                            ACL_STREAM_CPU_SCHEDULE,
                            ACL_STREAM_DEVICE_USE_ONLY,
                            ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC};
  for (uint32_t flag : flags) {
    for (uint32_t priority = 0; priority <= 7; priority += 7) {
      aclrtStream stream = nullptr;
      ASSERT_ACL_OK(aclrtCreateStreamWithConfig(&stream, priority, flag));
      uint32_t got_flags = 99, got_priority = 99;
      EXPECT_ACL_OK(aclrtStreamGetFlags(stream, &got_flags));
      EXPECT_EQ(got_flags, flag);
      EXPECT_ACL_OK(aclrtStreamGetPriority(stream, &got_priority));
      EXPECT_EQ(got_priority, priority);
      // Every kind of stream runs work.
      std::vector<uint8_t> in = acltest::Pattern(256, flag), out(256, 0);
      EXPECT_ACL_OK(
          aclrtMemcpyAsync(out.data(), 256, in.data(), 256, ACL_MEMCPY_HOST_TO_HOST, stream));
      EXPECT_ACL_OK(aclrtSynchronizeStream(stream));
      EXPECT_EQ(acltest::FirstMismatch(in.data(), out.data(), 256), -1);
      EXPECT_ACL_OK(aclrtDestroyStream(stream));
    }
  }
}

TEST_F(StreamTest, CreateWithConfigRefusesUnknownFlagsAndPriorities) {
  aclrtStream stream = nullptr;
  EXPECT_ACL_ERR(kBadParam, aclrtCreateStreamWithConfig, &stream, 0, 0x40);
  EXPECT_ACL_ERR(kBadParam, aclrtCreateStreamWithConfig, &stream, 0, 0x80000000u);
  EXPECT_ACL_ERR(kBadParam, aclrtCreateStreamWithConfig, &stream, 8, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtCreateStreamWithConfig, &stream, UINT32_MAX, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtCreateStreamWithConfig, nullptr, 0, 0);
}

TEST_F(StreamTest, ConfigHandleConfiguresCreateStreamV2) {
  aclrtStreamConfigHandle* config = aclrtCreateStreamConfigHandle();
  ASSERT_NE(config, nullptr);
  uint32_t priority = 3;
  size_t flag = ACL_STREAM_FAST_SYNC;
  ASSERT_ACL_OK(
      aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY, &priority, sizeof(priority)));
  ASSERT_ACL_OK(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_FLAG, &flag, sizeof(flag)));
  size_t work_size = 0;
  void* work_ptr = nullptr;
  EXPECT_ACL_OK(
      aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_WORK_SIZE, &work_size, sizeof(work_size)));
  EXPECT_ACL_OK(
      aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_WORK_ADDR_PTR, &work_ptr, sizeof(work_ptr)));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStreamV2(&stream, config));
  uint32_t got = 0;
  EXPECT_ACL_OK(aclrtStreamGetPriority(stream, &got));
  EXPECT_EQ(got, 3u);
  EXPECT_ACL_OK(aclrtStreamGetFlags(stream, &got));
  EXPECT_EQ(got, static_cast<uint32_t>(ACL_STREAM_FAST_SYNC));
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
  EXPECT_ACL_OK(aclrtDestroyStreamConfigHandle(config));
}

TEST_F(StreamTest, ConfigHandleRefusesBadArguments) {
  aclrtStreamConfigHandle* config = aclrtCreateStreamConfigHandle();
  ASSERT_NE(config, nullptr);
  uint32_t priority = 1;
  EXPECT_ACL_ERR(kBadParam, aclrtSetStreamConfigOpt, config, ACL_RT_STREAM_PRIORITY, &priority,
                 sizeof(priority) + 1);
  EXPECT_ACL_ERR(kBadParam, aclrtSetStreamConfigOpt, config, ACL_RT_STREAM_PRIORITY, nullptr,
                 sizeof(priority));
  EXPECT_ACL_ERR(kBadParam, aclrtSetStreamConfigOpt, config, static_cast<aclrtStreamConfigAttr>(77),
                 &priority, sizeof(priority));
  EXPECT_ACL_ERR(kBadParam, aclrtSetStreamConfigOpt, nullptr, ACL_RT_STREAM_PRIORITY, &priority,
                 sizeof(priority));
  EXPECT_ACL_ERR(kBadHandle, aclrtSetStreamConfigOpt,
                 reinterpret_cast<aclrtStreamConfigHandle*>(stream_), ACL_RT_STREAM_PRIORITY,
                 &priority, sizeof(priority));
  priority = 9;  // out of the device's range: refused when the stream is created
  ASSERT_ACL_OK(
      aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY, &priority, sizeof(priority)));
  aclrtStream stream = nullptr;
  EXPECT_ACL_ERR(kBadParam, aclrtCreateStreamV2, &stream, config);
  EXPECT_ACL_ERR(kBadParam, aclrtCreateStreamV2, nullptr, config);
  EXPECT_ACL_ERR(kBadParam, aclrtCreateStreamV2, &stream, nullptr);
  EXPECT_ACL_ERR(kBadHandle, aclrtCreateStreamV2, &stream,
                 reinterpret_cast<aclrtStreamConfigHandle*>(event_));
  ASSERT_ACL_OK(aclrtDestroyStreamConfigHandle(config));
  EXPECT_ACL_ERR(kBadHandle, aclrtDestroyStreamConfigHandle, config);
  EXPECT_ACL_ERR(kBadHandle, aclrtCreateStreamV2, &stream, config);
  EXPECT_ACL_ERR(kBadParam, aclrtDestroyStreamConfigHandle, nullptr);
}

TEST_F(StreamTest, DestroyRefusesNullDestroyedAndWrongKindHandles) {
  aclrtContext context = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&context));
  EXPECT_ACL_ERR(kBadParam, aclrtDestroyStream, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtDestroyStreamForce, nullptr);
  EXPECT_ACL_ERR(kBadHandle, aclrtDestroyStream, destroyed_);
  EXPECT_ACL_ERR(kBadHandle, aclrtDestroyStreamForce, destroyed_);
  EXPECT_ACL_ERR(kBadHandle, aclrtDestroyStream, event_);
  EXPECT_ACL_ERR(kBadHandle, aclrtDestroyStream, context);
  EXPECT_ACL_ERR(kBadHandle, aclrtDestroyStreamForce, event_);
  // The stream that was not destroyed still works.
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
}

TEST_F(StreamTest, DestroyWithPendingWorkCompletesIt) {
  const size_t kBytes = 2 << 20;
  std::vector<uint8_t> in = acltest::Pattern(kBytes, 4), out(kBytes, 0);
  acltest::PinnedHost pinned_in(in), pinned_out(out);
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(dev, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(out.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream_));
  ASSERT_ACL_OK(aclrtDestroyStream(stream_));  // waits for the copies
  EXPECT_EQ(acltest::FirstMismatch(in.data(), out.data(), kBytes), -1);
  EXPECT_ACL_OK(aclrtFree(dev));
}

TEST_F(StreamTest, DestroyForceDropsWorkThatHasNotStarted) {
  const size_t kBytes = 4096;
  std::vector<uint8_t> in = acltest::Pattern(kBytes, 5), out(kBytes, 0);
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemcpy(dev, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  aclrtEvent never = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&never));
  // The stream waits for an event nobody records, so the memset behind it cannot start.
  ASSERT_ACL_OK(aclrtStreamWaitEvent(stream_, never));
  ASSERT_ACL_OK(aclrtMemsetAsync(dev, kBytes, 0, kBytes, stream_));
  aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
  ASSERT_ACL_OK(aclrtStreamQuery(stream_, &status));
  EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
  ASSERT_ACL_OK(aclrtDestroyStreamForce(stream_));
  ASSERT_ACL_OK(aclrtMemcpy(out.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(acltest::FirstMismatch(in.data(), out.data(), kBytes), -1);  // memset dropped
  EXPECT_ACL_ERR(kBadHandle, aclrtSynchronizeStream, stream_);
  EXPECT_ACL_OK(aclrtDestroyEvent(never));
  EXPECT_ACL_OK(aclrtFree(dev));
}

TEST_F(StreamTest, DestroyedStreamDoesNotAliasANewerStream) {
  // A newer stream must not answer to the destroyed one's handle, even if created right
  // after it.
  for (int i = 0; i < 20; ++i) {
    aclrtStream old_stream = nullptr, new_stream = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&old_stream));
    ASSERT_ACL_OK(aclrtDestroyStream(old_stream));
    ASSERT_ACL_OK(aclrtCreateStream(&new_stream));
    EXPECT_NE(old_stream, new_stream);
    EXPECT_ACL_ERR(kBadHandle, aclrtSynchronizeStream, old_stream);
    EXPECT_ACL_ERR(kBadHandle, aclrtDestroyStream, old_stream);
    EXPECT_ACL_OK(aclrtDestroyStream(new_stream));  // still alive: the stale destroy missed it
  }
}

TEST_F(StreamTest, NullStreamIsTheDefaultStream) {
  const size_t kBytes = 8192;
  std::vector<uint8_t> in = acltest::Pattern(kBytes, 6), out(kBytes, 0);
  acltest::PinnedHost pinned_in(in), pinned_out(out);
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(dev, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, nullptr));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(out.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(acltest::FirstMismatch(in.data(), out.data(), kBytes), -1);
  aclrtStreamStatus status = ACL_STREAM_STATUS_NOT_READY;
  EXPECT_ACL_OK(aclrtStreamQuery(nullptr, &status));
  EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
  uint32_t flags = 99;
  EXPECT_ACL_OK(aclrtStreamGetFlags(nullptr, &flags));
  EXPECT_EQ(flags, 0u);
  EXPECT_ACL_OK(aclrtFree(dev));
}

TEST_F(StreamTest, StreamFunctionsRefuseDestroyedAndWrongKindHandles) {
  aclrtStreamStatus status;
  uint32_t u32 = 0;
  int32_t id = 0;
  aclrtStreamAttrValue value;
  value.failureMode = ACL_STOP_ON_FAILURE;
  aclrtContext context = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&context));
  for (aclrtStream bad :
       {destroyed_, static_cast<aclrtStream>(event_), static_cast<aclrtStream>(context)}) {
    EXPECT_ACL_ERR(kBadHandle, aclrtSynchronizeStream, bad);
    EXPECT_ACL_ERR(kBadHandle, aclrtSynchronizeStreamWithTimeout, bad, 100);
    EXPECT_ACL_ERR(kBadHandle, aclrtStreamQuery, bad, &status);
    EXPECT_ACL_ERR(kBadHandle, aclrtStreamGetPriority, bad, &u32);
    EXPECT_ACL_ERR(kBadHandle, aclrtStreamGetFlags, bad, &u32);
    EXPECT_ACL_ERR(kBadHandle, aclrtStreamGetId, bad, &id);
    EXPECT_ACL_ERR(kBadHandle, aclrtSetStreamFailureMode, bad, ACL_STOP_ON_FAILURE);
    EXPECT_ACL_ERR(kBadHandle, aclrtStreamWaitEvent, bad, event_);
    EXPECT_ACL_ERR(kBadHandle, aclrtSetStreamAttribute, bad, ACL_STREAM_ATTR_FAILURE_MODE, &value);
    EXPECT_ACL_ERR(kBadHandle, aclrtGetStreamAttribute, bad, ACL_STREAM_ATTR_FAILURE_MODE, &value);
  }
}

TEST_F(StreamTest, StreamQueriesRefuseNullOutputs) {
  EXPECT_ACL_ERR(kBadParam, aclrtStreamQuery, stream_, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtStreamGetPriority, stream_, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtStreamGetFlags, stream_, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtStreamGetId, stream_, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtGetStreamAvailableNum, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtSetStreamAttribute, stream_, ACL_STREAM_ATTR_FAILURE_MODE,
                 nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtGetStreamAttribute, stream_, ACL_STREAM_ATTR_FAILURE_MODE,
                 nullptr);
}

TEST_F(StreamTest, SynchronizeWithTimeoutExpiresWhileAHostFunctionBlocks) {
  Latch latch;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, Latch::WaitFn, &latch));
  EXPECT_ACL_ERR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout, stream_, 20);
  aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
  EXPECT_ACL_OK(aclrtStreamQuery(stream_, &status));
  EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
  latch.Release();
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream_, -1));
  EXPECT_ACL_OK(aclrtStreamQuery(stream_, &status));
  EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
}

TEST_F(StreamTest, SynchronizeWithTimeoutRefusesInvalidTimeouts) {
  EXPECT_ACL_ERR(kBadParam, aclrtSynchronizeStreamWithTimeout, stream_, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtSynchronizeStreamWithTimeout, stream_, -2);
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream_, 1000));
}

TEST_F(StreamTest, StreamIdsAreDistinct) {
  std::set<int32_t> ids;
  std::vector<aclrtStream> streams(16);
  for (auto& stream : streams) {
    ASSERT_ACL_OK(aclrtCreateStream(&stream));
    int32_t id = -1;
    ASSERT_ACL_OK(aclrtStreamGetId(stream, &id));
    EXPECT_GE(id, 0);
    EXPECT_TRUE(ids.insert(id).second) << "duplicate stream id " << id;
  }
  for (auto stream : streams) EXPECT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(StreamTest, FailureModeIsSetAndReadBack) {
  ASSERT_ACL_OK(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE));
  aclrtStreamAttrValue value;
  std::memset(&value, 0xff, sizeof(value));
  ASSERT_ACL_OK(aclrtGetStreamAttribute(stream_, ACL_STREAM_ATTR_FAILURE_MODE, &value));
  EXPECT_EQ(value.failureMode, static_cast<uint64_t>(ACL_STOP_ON_FAILURE));
  value.failureMode = ACL_CONTINUE_ON_FAILURE;
  ASSERT_ACL_OK(aclrtSetStreamAttribute(stream_, ACL_STREAM_ATTR_FAILURE_MODE, &value));
  ASSERT_ACL_OK(aclrtGetStreamAttribute(stream_, ACL_STREAM_ATTR_FAILURE_MODE, &value));
  EXPECT_EQ(value.failureMode, static_cast<uint64_t>(ACL_CONTINUE_ON_FAILURE));
  EXPECT_ACL_ERR(kBadParam, aclrtSetStreamFailureMode, stream_, 2);
  EXPECT_ACL_ERR(kBadParam, aclrtSetStreamFailureMode, nullptr, ACL_STOP_ON_FAILURE);
  value.failureMode = 5;
  EXPECT_ACL_ERR(kBadParam, aclrtSetStreamAttribute, stream_, ACL_STREAM_ATTR_FAILURE_MODE, &value);
}

TEST_F(StreamTest, PriorityAttributeMatchesCreationPriority) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStreamWithConfig(&stream, 5, 0));
  aclrtStreamAttrValue value;
  ASSERT_ACL_OK(aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, &value));
  EXPECT_EQ(value.streamPriority, 5u);
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtGetStreamAttribute, stream,
                 static_cast<aclrtStreamAttr>(999), &value);
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtSetStreamAttribute, stream,
                 static_cast<aclrtStreamAttr>(999), &value);
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
}

// Uploads on a low- and a high-priority stream contend for the one host-to-device DMA
// channel; all low-priority ones are enqueued first. The high-priority stream's uploads go
// as soon as the running one ends, so it finishes first; with equal priorities it finishes
// last. Returns {low, high} completion timestamps (us).
std::pair<uint64_t, uint64_t> ContendedUploads(uint32_t low_priority, uint32_t high_priority) {
  constexpr size_t kBytes = 8 << 20;
  constexpr int kCopies = 4;
  void* host = nullptr;
  void* dev = nullptr;
  EXPECT_ACL_OK(aclrtMallocHost(&host, kBytes));
  EXPECT_ACL_OK(aclrtMalloc(&dev, 2 * kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  std::memset(host, 0x5A, kBytes);
  aclrtStream low = nullptr, high = nullptr;
  EXPECT_ACL_OK(aclrtCreateStreamWithConfig(&low, low_priority, 0));
  EXPECT_ACL_OK(aclrtCreateStreamWithConfig(&high, high_priority, 0));
  aclrtEvent low_done = nullptr, high_done = nullptr;
  EXPECT_ACL_OK(aclrtCreateEvent(&low_done));
  EXPECT_ACL_OK(aclrtCreateEvent(&high_done));
  auto* second = static_cast<uint8_t*>(dev) + kBytes;
  for (int i = 0; i < kCopies; ++i) {
    EXPECT_ACL_OK(aclrtMemcpyAsync(dev, kBytes, host, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, low));
  }
  EXPECT_ACL_OK(aclrtRecordEvent(low_done, low));
  for (int i = 0; i < kCopies; ++i) {
    EXPECT_ACL_OK(aclrtMemcpyAsync(second, kBytes, host, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, high));
  }
  EXPECT_ACL_OK(aclrtRecordEvent(high_done, high));
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
  std::pair<uint64_t, uint64_t> stamps;
  EXPECT_ACL_OK(aclrtEventGetTimestamp(low_done, &stamps.first));
  EXPECT_ACL_OK(aclrtEventGetTimestamp(high_done, &stamps.second));
  EXPECT_ACL_OK(aclrtDestroyEvent(low_done));
  EXPECT_ACL_OK(aclrtDestroyEvent(high_done));
  EXPECT_ACL_OK(aclrtDestroyStream(low));
  EXPECT_ACL_OK(aclrtDestroyStream(high));
  EXPECT_ACL_OK(aclrtFree(dev));
  EXPECT_ACL_OK(aclrtFreeHost(host));
  return stamps;
}

TEST_F(StreamTest, HigherPriorityStreamIsServedFirst) {
  int32_t least = 0, greatest = 0;
  ASSERT_ACL_OK(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
  const auto [low, high] =
      ContendedUploads(static_cast<uint32_t>(least), static_cast<uint32_t>(greatest));
  EXPECT_LT(high, low);
  // Three of the four low-priority uploads waited for the four high-priority ones.
  const auto [first, second] = ContendedUploads(3, 3);
  EXPECT_LT(first, second);
  EXPECT_NEAR(static_cast<double>(low - high), 0.75 * static_cast<double>(second - first),
              0.05 * static_cast<double>(second - first));
}

TEST_F(StreamTest, WaitEventOrdersAcrossStreams) {
  const size_t kBytes = 1 << 20;
  std::vector<uint8_t> in = acltest::Pattern(kBytes, 7), out(kBytes, 0);
  acltest::PinnedHost pinned_in(in), pinned_out(out);
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  aclrtStream consumer = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&consumer));
  Latch latch;
  // Producer: held by a host function, then uploads and records.
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, Latch::WaitFn, &latch));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(dev, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  ASSERT_ACL_OK(aclrtRecordEvent(event_, stream_));
  // Consumer: waits for the upload, then downloads.
  ASSERT_ACL_OK(aclrtStreamWaitEvent(consumer, event_));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(out.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, consumer));
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(consumer, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
  EXPECT_ACL_OK(aclrtStreamQuery(consumer, &status));
  EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
  latch.Release();
  ASSERT_ACL_OK(aclrtSynchronizeStream(consumer));
  EXPECT_EQ(acltest::FirstMismatch(in.data(), out.data(), kBytes), -1);
  EXPECT_ACL_OK(aclrtDestroyStream(consumer));
  EXPECT_ACL_OK(aclrtFree(dev));
}

TEST_F(StreamTest, WaitEventRefusesBadEvents) {
  aclrtEvent destroyed = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&destroyed));
  ASSERT_ACL_OK(aclrtDestroyEvent(destroyed));
  EXPECT_ACL_ERR(kBadParam, aclrtStreamWaitEvent, stream_, nullptr);
  EXPECT_ACL_ERR(kBadHandle, aclrtStreamWaitEvent, stream_, destroyed);
  EXPECT_ACL_ERR(kBadHandle, aclrtStreamWaitEvent, stream_, stream_);
}

// Creates streams until the SoC's limit; checks the available count all the way.
void ExpectStreamLimit(uint32_t soc_limit) {
  uint32_t available = 0;
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&available));
  // The default stream and the runtime's internal copy stream count (as in CANN).
  EXPECT_EQ(available, soc_limit - 2);
  std::vector<aclrtStream> streams;
  for (;;) {
    aclrtStream stream = nullptr;
    acltest::ClearRecentErrors();
    const aclError err = aclrtCreateStream(&stream);
    if (err != ACL_SUCCESS) {
      EXPECT_EQ(err, ACL_ERROR_RT_NO_STREAM_RESOURCE);
      EXPECT_TRUE(acltest::RecentErrorNames("aclrtCreateStream"));
      break;
    }
    streams.push_back(stream);
    ASSERT_LE(streams.size(), soc_limit) << "no stream limit";
  }
  EXPECT_EQ(streams.size(), available);
  uint32_t left = 99;
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&left));
  EXPECT_EQ(left, 0u);
  // A destroyed stream's slot can be used again.
  ASSERT_ACL_OK(aclrtDestroyStream(streams.back()));
  streams.pop_back();
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&left));
  EXPECT_EQ(left, 1u);
  aclrtStream again = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&again));
  streams.push_back(again);
  // Each device has its own limit.
  ASSERT_ACL_OK(aclrtSetDevice(1));
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&left));
  EXPECT_EQ(left, soc_limit - 2);
  ASSERT_ACL_OK(aclrtSetDevice(0));
  for (aclrtStream stream : streams) ASSERT_ACL_OK(aclrtDestroyStream(stream));
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&left));
  EXPECT_EQ(left, soc_limit - 2);
}

TEST_F(AclTest, StreamLimitOfAscend910B2Is1984) { ExpectStreamLimit(1984); }

TEST_F(AclNoInitTest, StreamLimitOfAscend310P3Is1024) {
  TempFile config(AclsimConfig("\"soc\": \"Ascend310P3\""));
  ASSERT_ACL_OK(aclInit(config.path()));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ExpectStreamLimit(1024);
}

}  // namespace
