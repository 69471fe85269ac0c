// Events: flags, record/reset/query/synchronise, simulated timing (elapsed time and
// timestamps), ids and the SoC's event limit.
#include <memory>
#include <set>

#include "api_test.h"

namespace {

using acltest::AclNoInitTest;
using acltest::AclsimConfig;
using acltest::AclTest;
using acltest::Latch;
using acltest::TempFile;

constexpr int kBadParam = ACL_ERROR_INVALID_PARAM;
constexpr int kBadHandle = ACL_ERROR_RT_INVALID_HANDLE;

class EventTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    ASSERT_ACL_OK(aclrtCreateEvent(&destroyed_));
    ASSERT_ACL_OK(aclrtDestroyEvent(destroyed_));
    ASSERT_ACL_OK(aclrtMalloc(&dev_, kMaxBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    host_ = acltest::Pattern(kMaxBytes, 8);
    pinned_ = std::make_unique<acltest::PinnedHost>(host_);  // the host side of async copies
    acltest::ClearRecentErrors();
  }
  void TearDown() override {
    pinned_.reset();
    EXPECT_ACL_OK(aclrtFree(dev_));
    AclTest::TearDown();
  }
  // Simulated milliseconds of an H2D copy of `bytes`, measured with two events.
  float TimeUpload(size_t bytes) {
    aclrtEvent start = nullptr, stop = nullptr;
    EXPECT_ACL_OK(aclrtCreateEvent(&start));
    EXPECT_ACL_OK(aclrtCreateEvent(&stop));
    EXPECT_ACL_OK(aclrtRecordEvent(start, stream_));
    EXPECT_ACL_OK(
        aclrtMemcpyAsync(dev_, kMaxBytes, host_.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
    EXPECT_ACL_OK(aclrtRecordEvent(stop, stream_));
    EXPECT_ACL_OK(aclrtSynchronizeEvent(stop));
    float ms = -1;
    EXPECT_ACL_OK(aclrtEventElapsedTime(&ms, start, stop));
    EXPECT_ACL_OK(aclrtDestroyEvent(start));
    EXPECT_ACL_OK(aclrtDestroyEvent(stop));
    return ms;
  }

  static constexpr size_t kMaxBytes = 16 << 20;
  aclrtStream stream_ = nullptr;
  aclrtEvent destroyed_ = nullptr;
  void* dev_ = nullptr;
  std::vector<uint8_t> host_;
  std::unique_ptr<acltest::PinnedHost> pinned_;
};

TEST_F(EventTest, CreateWithEveryFlag) {
  const uint32_t flags[] = {ACL_EVENT_SYNC,
                            ACL_EVENT_TIME_LINE,
                            ACL_EVENT_CAPTURE_STREAM_PROGRESS,
                            ACL_EVENT_DEVICE_USE_ONLY,
                            ACL_EVENT_EXTERNAL,
                            ACL_EVENT_IPC,
                            ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE};
  for (uint32_t flag : flags) {
    aclrtEvent event = nullptr, event_ex = nullptr;
    ASSERT_ACL_OK(aclrtCreateEventWithFlag(&event, flag));
    ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&event_ex, flag));
    EXPECT_ACL_OK(aclrtRecordEvent(event, stream_));
    EXPECT_ACL_OK(aclrtSynchronizeEvent(event));
    EXPECT_ACL_OK(aclrtDestroyEvent(event));
    EXPECT_ACL_OK(aclrtDestroyEvent(event_ex));
  }
}

TEST_F(EventTest, CreateRefusesBadArguments) {
  aclrtEvent event = nullptr;
  EXPECT_ACL_ERR(kBadParam, aclrtCreateEvent, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtCreateEventWithFlag, nullptr, ACL_EVENT_SYNC);
  EXPECT_ACL_ERR(kBadParam, aclrtCreateEventWithFlag, &event, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtCreateEventWithFlag, &event, 0x4);
  EXPECT_ACL_ERR(kBadParam, aclrtCreateEventWithFlag, &event, 0x80 | ACL_EVENT_SYNC);
  EXPECT_ACL_ERR(kBadParam, aclrtCreateEventExWithFlag, nullptr, ACL_EVENT_SYNC);
  EXPECT_ACL_ERR(kBadParam, aclrtCreateEventExWithFlag, &event, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtCreateEventExWithFlag, &event, 0x100);
}

TEST_F(EventTest, DestroyRefusesNullDestroyedAndWrongKindHandles) {
  aclDataBuffer* buffer = aclCreateDataBuffer(nullptr, 0);
  ASSERT_NE(buffer, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtDestroyEvent, nullptr);
  EXPECT_ACL_ERR(kBadHandle, aclrtDestroyEvent, destroyed_);
  EXPECT_ACL_ERR(kBadHandle, aclrtDestroyEvent, stream_);
  EXPECT_ACL_ERR(kBadHandle, aclrtDestroyEvent, buffer);
  EXPECT_ACL_OK(aclDestroyDataBuffer(buffer));
}

TEST_F(EventTest, DestroyedEventDoesNotAliasANewerEvent) {
  for (int i = 0; i < 20; ++i) {
    aclrtEvent old_event = nullptr, new_event = nullptr;
    ASSERT_ACL_OK(aclrtCreateEvent(&old_event));
    ASSERT_ACL_OK(aclrtDestroyEvent(old_event));
    ASSERT_ACL_OK(aclrtCreateEvent(&new_event));
    EXPECT_NE(old_event, new_event);
    EXPECT_ACL_ERR(kBadHandle, aclrtRecordEvent, old_event, stream_);
    EXPECT_ACL_ERR(kBadHandle, aclrtDestroyEvent, old_event);
    EXPECT_ACL_OK(aclrtDestroyEvent(new_event));
  }
}

TEST_F(EventTest, EventFunctionsRefuseDestroyedAndWrongKindHandles) {
  aclrtEvent good = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&good));
  aclrtEventStatus status;
  aclrtEventRecordedStatus recorded;
  aclrtEventWaitStatus wait;
  float ms = 0;
  uint64_t timestamp = 0;
  uint32_t id = 0;
  for (aclrtEvent bad : {destroyed_, static_cast<aclrtEvent>(stream_)}) {
    EXPECT_ACL_ERR(kBadHandle, aclrtRecordEvent, bad, stream_);
    EXPECT_ACL_ERR(kBadHandle, aclrtResetEvent, bad, stream_);
    EXPECT_ACL_ERR(kBadHandle, aclrtQueryEvent, bad, &status);
    EXPECT_ACL_ERR(kBadHandle, aclrtQueryEventStatus, bad, &recorded);
    EXPECT_ACL_ERR(kBadHandle, aclrtQueryEventWaitStatus, bad, &wait);
    EXPECT_ACL_ERR(kBadHandle, aclrtSynchronizeEvent, bad);
    EXPECT_ACL_ERR(kBadHandle, aclrtSynchronizeEventWithTimeout, bad, 100);
    EXPECT_ACL_ERR(kBadHandle, aclrtEventElapsedTime, &ms, bad, good);
    EXPECT_ACL_ERR(kBadHandle, aclrtEventElapsedTime, &ms, good, bad);
    EXPECT_ACL_ERR(kBadHandle, aclrtEventGetTimestamp, bad, &timestamp);
    EXPECT_ACL_ERR(kBadHandle, aclrtGetEventId, bad, &id);
  }
  // A good event with a bad stream.
  EXPECT_ACL_ERR(kBadHandle, aclrtRecordEvent, good, good);
  EXPECT_ACL_ERR(kBadHandle, aclrtResetEvent, good, good);
  EXPECT_ACL_OK(aclrtDestroyEvent(good));
}

TEST_F(EventTest, EventFunctionsRefuseNullArguments) {
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  aclrtEventStatus status;
  aclrtEventRecordedStatus recorded;
  aclrtEventWaitStatus wait;
  float ms = 0;
  uint64_t timestamp = 0;
  uint32_t id = 0;
  EXPECT_ACL_ERR(kBadParam, aclrtRecordEvent, nullptr, stream_);
  EXPECT_ACL_ERR(kBadParam, aclrtResetEvent, nullptr, stream_);
  EXPECT_ACL_ERR(kBadParam, aclrtQueryEvent, nullptr, &status);
  EXPECT_ACL_ERR(kBadParam, aclrtQueryEvent, event, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtQueryEventStatus, nullptr, &recorded);
  EXPECT_ACL_ERR(kBadParam, aclrtQueryEventStatus, event, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtQueryEventWaitStatus, nullptr, &wait);
  EXPECT_ACL_ERR(kBadParam, aclrtQueryEventWaitStatus, event, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtSynchronizeEvent, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtSynchronizeEventWithTimeout, nullptr, 100);
  EXPECT_ACL_ERR(kBadParam, aclrtEventElapsedTime, nullptr, event, event);
  EXPECT_ACL_ERR(kBadParam, aclrtEventElapsedTime, &ms, nullptr, event);
  EXPECT_ACL_ERR(kBadParam, aclrtEventElapsedTime, &ms, event, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtEventGetTimestamp, nullptr, &timestamp);
  EXPECT_ACL_ERR(kBadParam, aclrtEventGetTimestamp, event, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtGetEventId, nullptr, &id);
  EXPECT_ACL_ERR(kBadParam, aclrtGetEventId, event, nullptr);
  EXPECT_ACL_ERR(kBadParam, aclrtGetEventAvailNum, nullptr);
  EXPECT_ACL_OK(aclrtDestroyEvent(event));
}

TEST_F(EventTest, QueryReportsRecordProgress) {
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  aclrtEventStatus status = ACL_EVENT_STATUS_RESERVED;
  aclrtEventRecordedStatus recorded = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  aclrtEventWaitStatus wait = ACL_EVENT_WAIT_STATUS_RESERVED;
  // Never recorded: nothing to wait for, but no completed record either.
  ASSERT_ACL_OK(aclrtQueryEvent(event, &status));
  EXPECT_EQ(status, ACL_EVENT_STATUS_COMPLETE);
  ASSERT_ACL_OK(aclrtQueryEventStatus(event, &recorded));
  EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  // Recorded behind a blocked host function: not ready.
  Latch latch;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, Latch::WaitFn, &latch));
  ASSERT_ACL_OK(aclrtRecordEvent(event, stream_));
  ASSERT_ACL_OK(aclrtQueryEvent(event, &status));
  EXPECT_EQ(status, ACL_EVENT_STATUS_NOT_READY);
  ASSERT_ACL_OK(aclrtQueryEventStatus(event, &recorded));
  EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  ASSERT_ACL_OK(aclrtQueryEventWaitStatus(event, &wait));
  EXPECT_EQ(wait, ACL_EVENT_WAIT_STATUS_NOT_READY);
  float ms = 0;
  EXPECT_ACL_ERR(ACL_ERROR_RT_EVENT_NOT_COMPLETE, aclrtEventElapsedTime, &ms, event, event);
  latch.Release();
  ASSERT_ACL_OK(aclrtSynchronizeEvent(event));
  ASSERT_ACL_OK(aclrtQueryEvent(event, &status));
  EXPECT_EQ(status, ACL_EVENT_STATUS_COMPLETE);
  ASSERT_ACL_OK(aclrtQueryEventStatus(event, &recorded));
  EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  ASSERT_ACL_OK(aclrtQueryEventWaitStatus(event, &wait));
  EXPECT_EQ(wait, ACL_EVENT_WAIT_STATUS_COMPLETE);
  EXPECT_ACL_OK(aclrtDestroyEvent(event));
}

TEST_F(EventTest, ResetForgetsTheRecord) {
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  ASSERT_ACL_OK(aclrtRecordEvent(event, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeEvent(event));
  aclrtEventRecordedStatus recorded = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  ASSERT_ACL_OK(aclrtQueryEventStatus(event, &recorded));
  EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  ASSERT_ACL_OK(aclrtResetEvent(event, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtQueryEventStatus(event, &recorded));
  EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  uint64_t timestamp = 0;
  EXPECT_ACL_ERR(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, aclrtEventGetTimestamp, event, &timestamp);
  // Record again after the reset: usable for timing again.
  ASSERT_ACL_OK(aclrtRecordEvent(event, nullptr));  // on the default stream
  ASSERT_ACL_OK(aclrtSynchronizeEvent(event));
  EXPECT_ACL_OK(aclrtEventGetTimestamp(event, &timestamp));
  EXPECT_ACL_OK(aclrtDestroyEvent(event));
}

TEST_F(EventTest, SynchronizeEventWithTimeout) {
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  EXPECT_ACL_OK(aclrtSynchronizeEventWithTimeout(event, 10));  // never recorded: at once
  Latch latch;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, Latch::WaitFn, &latch));
  ASSERT_ACL_OK(aclrtRecordEvent(event, stream_));
  EXPECT_ACL_ERR(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, aclrtSynchronizeEventWithTimeout, event, 20);
  latch.Release();
  EXPECT_ACL_OK(aclrtSynchronizeEventWithTimeout(event, -1));
  EXPECT_ACL_ERR(kBadParam, aclrtSynchronizeEventWithTimeout, event, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtSynchronizeEventWithTimeout, event, -5);
  EXPECT_ACL_OK(aclrtDestroyEvent(event));
}

TEST_F(EventTest, ElapsedTimeGrowsWithBytesCopied) {
  float previous = 0;
  for (size_t bytes = 4096; bytes <= kMaxBytes; bytes *= 4) {
    const float ms = TimeUpload(bytes);
    EXPECT_GT(ms, previous) << bytes << " bytes";
    previous = ms;
  }
  // The same copy takes the same simulated time, every time.
  EXPECT_EQ(TimeUpload(1 << 20), TimeUpload(1 << 20));
}

TEST_F(EventTest, ElapsedTimeOfDeviceCopiesIsShorterThanHostCopies) {
  // HBM bandwidth is far above PCIe bandwidth.
  const size_t kBytes = 8 << 20;
  aclrtEvent e0 = nullptr, e1 = nullptr, e2 = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e0));
  ASSERT_ACL_OK(aclrtCreateEvent(&e1));
  ASSERT_ACL_OK(aclrtCreateEvent(&e2));
  ASSERT_ACL_OK(aclrtRecordEvent(e0, stream_));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(dev_, kBytes, host_.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  ASSERT_ACL_OK(aclrtRecordEvent(e1, stream_));
  ASSERT_ACL_OK(aclrtMemcpyAsync(static_cast<char*>(dev_) + kBytes, kBytes, dev_, kBytes,
                                 ACL_MEMCPY_DEVICE_TO_DEVICE, stream_));
  ASSERT_ACL_OK(aclrtRecordEvent(e2, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  float h2d = 0, d2d = 0;
  ASSERT_ACL_OK(aclrtEventElapsedTime(&h2d, e0, e1));
  ASSERT_ACL_OK(aclrtEventElapsedTime(&d2d, e1, e2));
  EXPECT_GT(h2d, 0);
  EXPECT_GT(d2d, 0);
  EXPECT_LT(d2d, h2d);
  for (aclrtEvent e : {e0, e1, e2}) EXPECT_ACL_OK(aclrtDestroyEvent(e));
}

TEST_F(EventTest, TimestampsMatchElapsedTime) {
  aclrtEvent start = nullptr, stop = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventWithFlag(&start, ACL_EVENT_TIME_LINE));
  ASSERT_ACL_OK(aclrtCreateEventWithFlag(&stop, ACL_EVENT_TIME_LINE));
  ASSERT_ACL_OK(aclrtRecordEvent(start, stream_));
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev_, kMaxBytes, host_.data(), kMaxBytes,
                                 ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  ASSERT_ACL_OK(aclrtRecordEvent(stop, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  uint64_t t0 = 0, t1 = 0;
  ASSERT_ACL_OK(aclrtEventGetTimestamp(start, &t0));
  ASSERT_ACL_OK(aclrtEventGetTimestamp(stop, &t1));
  EXPECT_GT(t1, t0);
  float ms = 0;
  ASSERT_ACL_OK(aclrtEventElapsedTime(&ms, start, stop));
  const double us = static_cast<double>(t1 - t0);
  EXPECT_NEAR(ms * 1000.0, us, 1.0 + us * 1e-6);  // timestamps are whole microseconds
  // Elapsed time the other way round is negative.
  float back = 0;
  ASSERT_ACL_OK(aclrtEventElapsedTime(&back, stop, start));
  EXPECT_EQ(back, -ms);
  EXPECT_ACL_OK(aclrtDestroyEvent(start));
  EXPECT_ACL_OK(aclrtDestroyEvent(stop));
}

TEST_F(EventTest, EventsWithoutTimeLineRefuseTiming) {
  aclrtEvent timed = nullptr, untimed = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventWithFlag(&timed, ACL_EVENT_TIME_LINE));
  ASSERT_ACL_OK(aclrtCreateEventWithFlag(&untimed, ACL_EVENT_SYNC));
  ASSERT_ACL_OK(aclrtRecordEvent(timed, stream_));
  ASSERT_ACL_OK(aclrtRecordEvent(untimed, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  float ms = 0;
  uint64_t timestamp = 0;
  EXPECT_ACL_ERR(kBadParam, aclrtEventElapsedTime, &ms, timed, untimed);
  EXPECT_ACL_ERR(kBadParam, aclrtEventElapsedTime, &ms, untimed, timed);
  EXPECT_ACL_ERR(kBadParam, aclrtEventGetTimestamp, untimed, &timestamp);
  EXPECT_ACL_OK(aclrtDestroyEvent(timed));
  EXPECT_ACL_OK(aclrtDestroyEvent(untimed));
}

TEST_F(EventTest, TimingNeedsRecordedEvents) {
  aclrtEvent recorded = nullptr, fresh = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&recorded));
  ASSERT_ACL_OK(aclrtCreateEvent(&fresh));
  ASSERT_ACL_OK(aclrtRecordEvent(recorded, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  float ms = 0;
  uint64_t timestamp = 0;
  EXPECT_ACL_ERR(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, aclrtEventElapsedTime, &ms, recorded, fresh);
  EXPECT_ACL_ERR(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, aclrtEventElapsedTime, &ms, fresh, recorded);
  EXPECT_ACL_ERR(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, aclrtEventGetTimestamp, fresh, &timestamp);
  EXPECT_ACL_OK(aclrtDestroyEvent(recorded));
  EXPECT_ACL_OK(aclrtDestroyEvent(fresh));
}

TEST_F(EventTest, WaitOnAnotherStreamStartsAfterTheRecord) {
  aclrtStream other = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&other));
  aclrtEvent produced = nullptr, consumed = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&produced));
  ASSERT_ACL_OK(aclrtCreateEvent(&consumed));
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev_, kMaxBytes, host_.data(), kMaxBytes,
                                 ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  ASSERT_ACL_OK(aclrtRecordEvent(produced, stream_));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(other, produced));
  ASSERT_ACL_OK(aclrtRecordEvent(consumed, other));
  ASSERT_ACL_OK(aclrtSynchronizeStream(other));
  float ms = -1;
  ASSERT_ACL_OK(aclrtEventElapsedTime(&ms, produced, consumed));
  EXPECT_GE(ms, 0.0f);  // the waiting stream's record is not earlier than the producer's
  EXPECT_ACL_OK(aclrtDestroyEvent(produced));
  EXPECT_ACL_OK(aclrtDestroyEvent(consumed));
  EXPECT_ACL_OK(aclrtDestroyStream(other));
}

TEST_F(EventTest, RecordOnAnotherDevicesStreamIsResourceNotMatch) {
  aclrtEvent event0 = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event0));
  aclrtContext ctx1 = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&ctx1, 1));
  aclrtStream stream1 = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream1));
  EXPECT_ACL_ERR(ACL_ERROR_RESOURCE_NOT_MATCH, aclrtRecordEvent, event0, stream1);
  EXPECT_ACL_ERR(ACL_ERROR_RESOURCE_NOT_MATCH, aclrtResetEvent, event0, stream1);
  EXPECT_ACL_OK(aclrtDestroyStream(stream1));
  EXPECT_ACL_OK(aclrtDestroyContext(ctx1));
  EXPECT_ACL_OK(aclrtDestroyEvent(event0));
}

TEST_F(EventTest, EventIdsAreDistinctAndAvailableCountTracksEvents) {
  uint32_t available = 0;
  ASSERT_ACL_OK(aclrtGetEventAvailNum(&available));
  EXPECT_EQ(available, 65536u);  // Ascend910B2, nothing created yet
  std::set<uint32_t> ids;
  std::vector<aclrtEvent> events(8);
  for (auto& event : events) {
    ASSERT_ACL_OK(aclrtCreateEvent(&event));
    uint32_t id = 0;
    ASSERT_ACL_OK(aclrtGetEventId(event, &id));
    EXPECT_TRUE(ids.insert(id).second) << "duplicate event id " << id;
  }
  uint32_t now = 0;
  ASSERT_ACL_OK(aclrtGetEventAvailNum(&now));
  EXPECT_EQ(now, available - 8);
  for (auto event : events) EXPECT_ACL_OK(aclrtDestroyEvent(event));
  ASSERT_ACL_OK(aclrtGetEventAvailNum(&now));
  EXPECT_EQ(now, available);
}

TEST_F(AclNoInitTest, EventLimitOfAscend310P3Is1023) {
  TempFile config(AclsimConfig("\"soc\": \"Ascend310P3\""));
  ASSERT_ACL_OK(aclInit(config.path()));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  uint32_t available = 0;
  ASSERT_ACL_OK(aclrtGetEventAvailNum(&available));
  EXPECT_EQ(available, 1023u);
  std::vector<aclrtEvent> events;
  for (;;) {
    aclrtEvent event = nullptr;
    acltest::ClearRecentErrors();
    const aclError err = aclrtCreateEvent(&event);
    if (err != ACL_SUCCESS) {
      EXPECT_EQ(err, ACL_ERROR_RT_NO_EVENT_RESOURCE);
      EXPECT_TRUE(acltest::RecentErrorNames("aclrtCreateEvent"));
      break;
    }
    events.push_back(event);
    ASSERT_LE(events.size(), 1023u) << "no event limit";
  }
  EXPECT_EQ(events.size(), 1023u);
  ASSERT_ACL_OK(aclrtGetEventAvailNum(&available));
  EXPECT_EQ(available, 0u);
  ASSERT_ACL_OK(aclrtDestroyEvent(events.back()));
  events.pop_back();
  aclrtEvent again = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&again));
  events.push_back(again);
  for (aclrtEvent event : events) ASSERT_ACL_OK(aclrtDestroyEvent(event));
}

}  // namespace
