// Copies: aclrtMemcpy / aclrtMemcpyAsync for every kind (DEFAULT included), 2-D copies
// with pitches, bad sizes and pointers, and copies across devices with peer access.
#include "api_test.h"

namespace {

using acltest::AclTest;
using acltest::FirstMismatch;
using acltest::Pattern;

constexpr int kBadParam = ACL_ERROR_INVALID_PARAM;
constexpr int kBadHandle = ACL_ERROR_RT_INVALID_HANDLE;

class aclrtMemcpyTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    ASSERT_ACL_OK(aclrtMalloc(&dev_a_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMalloc(&dev_b_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMallocHost(&pinned_, kBytes));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    acltest::ClearRecentErrors();
  }
  void TearDown() override {
    EXPECT_ACL_OK(aclrtFree(dev_a_));
    EXPECT_ACL_OK(aclrtFree(dev_b_));
    EXPECT_ACL_OK(aclrtFreeHost(pinned_));
    AclTest::TearDown();
  }
  std::vector<uint8_t> Download(const void* dev, size_t bytes) {
    std::vector<uint8_t> out(bytes, 0xCD);
    EXPECT_ACL_OK(aclrtMemcpy(out.data(), bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    return out;
  }

  static constexpr size_t kBytes = (1 << 20) + 3;
  void* dev_a_ = nullptr;
  void* dev_b_ = nullptr;
  void* pinned_ = nullptr;
  aclrtStream stream_ = nullptr;
};

// One full trip host -> device -> device -> host (-> host) with the given kinds.
struct KindSet {
  aclrtMemcpyKind h2d, d2d, d2h, h2h;
};

TEST_F(aclrtMemcpyTest, EveryKindCopiesEveryByte) {
  const KindSet sets[] = {
      {ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST,
       ACL_MEMCPY_HOST_TO_HOST},
      {ACL_MEMCPY_DEFAULT, ACL_MEMCPY_DEFAULT, ACL_MEMCPY_DEFAULT, ACL_MEMCPY_DEFAULT},
      {ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
       ACL_MEMCPY_DEVICE_TO_HOST, ACL_MEMCPY_HOST_TO_HOST},
  };
  const size_t sizes[] = {1, 4097, kBytes};
  uint32_t seed = 0;
  for (const KindSet& kinds : sets) {
    for (size_t size : sizes) {
      std::vector<uint8_t> in = Pattern(size, ++seed), out(size, 0), copy(size, 0);
      ASSERT_ACL_OK(aclrtMemcpy(dev_a_, kBytes, in.data(), size, kinds.h2d));
      ASSERT_ACL_OK(aclrtMemcpy(dev_b_, kBytes, dev_a_, size, kinds.d2d));
      ASSERT_ACL_OK(aclrtMemcpy(pinned_, kBytes, dev_b_, size, kinds.d2h));
      ASSERT_ACL_OK(aclrtMemcpy(out.data(), size, pinned_, size, kinds.h2h));
      EXPECT_EQ(FirstMismatch(in.data(), out.data(), size), -1) << "size " << size;
      ASSERT_ACL_OK(aclrtMemcpy(copy.data(), size, in.data(), size, kinds.h2h));  // plain host
      EXPECT_EQ(FirstMismatch(in.data(), copy.data(), size), -1) << "size " << size;
    }
  }
}

TEST_F(aclrtMemcpyTest, CopiesAtOffsetsInsideAnAllocation) {
  std::vector<uint8_t> in = Pattern(kBytes, 11);
  ASSERT_ACL_OK(aclrtMemcpy(dev_a_, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  // Move 1000 bytes from offset 5 to offset 70000 of the same allocation.
  char* base = static_cast<char*>(dev_a_);
  ASSERT_ACL_OK(
      aclrtMemcpy(base + 70000, kBytes - 70000, base + 5, 1000, ACL_MEMCPY_DEVICE_TO_DEVICE));
  std::vector<uint8_t> want = in;
  std::copy(in.begin() + 5, in.begin() + 1005, want.begin() + 70000);
  std::vector<uint8_t> now = Download(dev_a_, kBytes);
  EXPECT_EQ(FirstMismatch(want.data(), now.data(), kBytes), -1);
}

TEST_F(aclrtMemcpyTest, CountLargerThanDestMaxIsInvalidParam) {
  std::vector<uint8_t> in = Pattern(64, 12), out(64, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy, dev_a_, 16, in.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy, out.data(), 16, in.data(), 17, ACL_MEMCPY_HOST_TO_HOST);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpyAsync, dev_a_, 16, in.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE,
                 stream_);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpyAsyncWithCondition, dev_a_, 16, in.data(), 32,
                 ACL_MEMCPY_HOST_TO_DEVICE, stream_);
  EXPECT_EQ(out, std::vector<uint8_t>(64, 0));  // nothing was copied
}

TEST_F(aclrtMemcpyTest, RangesPastTheEndOfAnAllocationAreInvalidParam) {
  std::vector<uint8_t> in = Pattern(kBytes + 64, 13), out(kBytes + 64, 0);
  char* end_a = static_cast<char*>(dev_a_) + kBytes;
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy, end_a - 8, 64, in.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy, out.data(), 64, end_a - 8, 64, ACL_MEMCPY_DEVICE_TO_HOST);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy, dev_b_, kBytes + 1, in.data(), kBytes + 1,
                 ACL_MEMCPY_HOST_TO_DEVICE);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy, dev_b_, kBytes, end_a - 1, 2, ACL_MEMCPY_DEVICE_TO_DEVICE);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpyAsync, end_a - 8, 64, in.data(), 64,
                 ACL_MEMCPY_HOST_TO_DEVICE, stream_);
  // The last byte exactly is fine.
  EXPECT_ACL_OK(aclrtMemcpy(end_a - 1, 1, in.data(), 1, ACL_MEMCPY_HOST_TO_DEVICE));
}

TEST_F(aclrtMemcpyTest, FreedDevicePointersAreInvalidParam) {
  void* freed = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&freed, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtFree(freed));
  std::vector<uint8_t> host(4096, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy, freed, 4096, host.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy, host.data(), 4096, freed, 4096, ACL_MEMCPY_DEVICE_TO_HOST);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy, dev_a_, 4096, freed, 4096, ACL_MEMCPY_DEFAULT);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpyAsync, freed, 4096, host.data(), 4096,
                 ACL_MEMCPY_HOST_TO_DEVICE, stream_);
}

TEST_F(aclrtMemcpyTest, NullPointersAreInvalidParam) {
  std::vector<uint8_t> host(64, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy, nullptr, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy, dev_a_, 64, nullptr, 64, ACL_MEMCPY_HOST_TO_DEVICE);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpyAsync, nullptr, 64, host.data(), 64,
                 ACL_MEMCPY_HOST_TO_DEVICE, stream_);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpyAsync, dev_a_, 64, nullptr, 64, ACL_MEMCPY_HOST_TO_DEVICE,
                 stream_);
}

TEST_F(aclrtMemcpyTest, KindThatContradictsTheAddressesIsInvalidParam) {
  std::vector<uint8_t> host(64, 0), host2(64, 0);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy, dev_a_, 64, host.data(), 64, ACL_MEMCPY_DEVICE_TO_HOST);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy, host.data(), 64, dev_a_, 64, ACL_MEMCPY_HOST_TO_DEVICE);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy, host.data(), 64, host2.data(), 64,
                 ACL_MEMCPY_DEVICE_TO_DEVICE);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy, dev_a_, 64, dev_b_, 64, ACL_MEMCPY_HOST_TO_HOST);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpyAsync, dev_a_, 64, host.data(), 64,
                 ACL_MEMCPY_DEVICE_TO_HOST, stream_);
}

TEST_F(aclrtMemcpyTest, InvalidKindIsInvalidParam) {
  std::vector<uint8_t> host(64, 0);
  for (int kind : {-1, 8, 99}) {
    EXPECT_ACL_ERR(kBadParam, aclrtMemcpy, dev_a_, 64, host.data(), 64,
                   static_cast<aclrtMemcpyKind>(kind));
    EXPECT_ACL_ERR(kBadParam, aclrtMemcpyAsync, dev_a_, 64, host.data(), 64,
                   static_cast<aclrtMemcpyKind>(kind), stream_);
    EXPECT_ACL_ERR(kBadParam, aclrtMemcpy2d, dev_a_, 8, host.data(), 8, 8, 8,
                   static_cast<aclrtMemcpyKind>(kind));
  }
}

TEST_F(aclrtMemcpyTest, PitchesWhoseSpanWrapsAreInvalidParam) {
  // pitch x (height - 1) + width past 2^64 must not wrap into a small, "valid" range.
  std::vector<uint8_t> host(64, 0);
  const size_t huge = size_t{1} << 63;
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy2d, dev_a_, huge, host.data(), 8, 8, 3,
                 ACL_MEMCPY_HOST_TO_DEVICE);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy2d, dev_a_, 8, host.data(), huge, 8, 3,
                 ACL_MEMCPY_HOST_TO_DEVICE);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy2dAsync, host.data(), SIZE_MAX, dev_a_, 8, 8, 2,
                 ACL_MEMCPY_DEVICE_TO_HOST, stream_);
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream_));
}

TEST_F(aclrtMemcpyTest, ZeroCountCopiesNothing) {
  std::vector<uint8_t> host(16, 7);
  EXPECT_ACL_OK(aclrtMemcpy(dev_a_, kBytes, host.data(), 0, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_OK(aclrtMemcpy(host.data(), 16, dev_a_, 0, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(host, std::vector<uint8_t>(16, 7));
}

TEST_F(aclrtMemcpyTest, AsyncCopiesEveryKindOnAStream) {
  std::vector<uint8_t> in = Pattern(kBytes, 14), out(kBytes, 0), h2h(kBytes, 0);
  acltest::PinnedHost pinned_in(in);  // host-to-host copies need no pinned memory
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(dev_a_, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(dev_b_, kBytes, dev_a_, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, stream_));
  ASSERT_ACL_OK(aclrtMemcpyAsyncWithCondition(pinned_, kBytes, dev_b_, kBytes,
                                              ACL_MEMCPY_DEVICE_TO_HOST, stream_));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(out.data(), kBytes, pinned_, kBytes, ACL_MEMCPY_HOST_TO_HOST, stream_));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(h2h.data(), kBytes, out.data(), kBytes, ACL_MEMCPY_DEFAULT, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(FirstMismatch(in.data(), out.data(), kBytes), -1);
  EXPECT_EQ(FirstMismatch(in.data(), h2h.data(), kBytes), -1);
}

TEST_F(aclrtMemcpyTest, AsyncRefusesDestroyedAndWrongKindStreams) {
  aclrtStream destroyed = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&destroyed));
  ASSERT_ACL_OK(aclrtDestroyStream(destroyed));
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&event));
  std::vector<uint8_t> host(64, 0);
  EXPECT_ACL_ERR(kBadHandle, aclrtMemcpyAsync, dev_a_, 64, host.data(), 64,
                 ACL_MEMCPY_HOST_TO_DEVICE, destroyed);
  EXPECT_ACL_ERR(kBadHandle, aclrtMemcpyAsync, dev_a_, 64, host.data(), 64,
                 ACL_MEMCPY_HOST_TO_DEVICE, event);
  EXPECT_ACL_ERR(kBadHandle, aclrtMemcpy2dAsync, dev_a_, 8, host.data(), 8, 8, 8,
                 ACL_MEMCPY_HOST_TO_DEVICE, destroyed);
  EXPECT_ACL_OK(aclrtDestroyEvent(event));
}

// 2-D copies: `height` rows of `width` bytes between pitched buffers.
class aclrtMemcpy2dTest : public aclrtMemcpyTest {
 protected:
  static constexpr size_t kWidth = 80, kHeight = 7, kSpitch = 100, kDpitch = 128;
  // Expects `got` (dpitch layout) to hold the rows of `src` (spitch layout) and `background`
  // everywhere else.
  static void ExpectRows(const std::vector<uint8_t>& got, const std::vector<uint8_t>& src,
                         size_t dpitch, size_t spitch, const std::vector<uint8_t>& background) {
    for (size_t i = 0; i < got.size(); ++i) {
      const size_t row = i / dpitch, col = i % dpitch;
      const bool inside = row < kHeight && col < kWidth;
      const uint8_t want = inside ? src[row * spitch + col] : background[i];
      ASSERT_EQ(got[i], want) << "byte " << i << " (row " << row << ", col " << col << ")";
    }
  }
};

TEST_F(aclrtMemcpy2dTest, HostToDeviceKeepsPitchPadding) {
  std::vector<uint8_t> src = Pattern(kSpitch * kHeight, 15);
  std::vector<uint8_t> background = Pattern(kBytes, 16);
  ASSERT_ACL_OK(aclrtMemcpy(dev_a_, kBytes, background.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtMemcpy2d(dev_a_, kDpitch, src.data(), kSpitch, kWidth, kHeight,
                              ACL_MEMCPY_HOST_TO_DEVICE));
  ExpectRows(Download(dev_a_, kBytes), src, kDpitch, kSpitch, background);
}

TEST_F(aclrtMemcpy2dTest, DeviceToHostAndDeviceToDevice) {
  std::vector<uint8_t> src = Pattern(kBytes, 17);
  ASSERT_ACL_OK(aclrtMemcpy(dev_a_, kBytes, src.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  std::vector<uint8_t> background(kBytes, 0x33);
  ASSERT_ACL_OK(aclrtMemcpy(dev_b_, kBytes, background.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtMemcpy2d(dev_b_, kDpitch, dev_a_, kSpitch, kWidth, kHeight,
                              ACL_MEMCPY_DEVICE_TO_DEVICE));
  ExpectRows(Download(dev_b_, kBytes), src, kDpitch, kSpitch, background);
  std::vector<uint8_t> host(kDpitch * kHeight, 0x44);
  const std::vector<uint8_t> host_background = host;
  ASSERT_ACL_OK(
      aclrtMemcpy2d(host.data(), kDpitch, dev_a_, kSpitch, kWidth, kHeight, ACL_MEMCPY_DEFAULT));
  ExpectRows(host, src, kDpitch, kSpitch, host_background);
}

TEST_F(aclrtMemcpy2dTest, AsyncCopiesOnAStream) {
  std::vector<uint8_t> src = Pattern(kSpitch * kHeight, 18);
  std::vector<uint8_t> background(kBytes, 0x55);
  ASSERT_ACL_OK(aclrtMemcpy(dev_a_, kBytes, background.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  acltest::PinnedHost pinned_src(src);
  ASSERT_ACL_OK(aclrtMemcpy2dAsync(dev_a_, kDpitch, src.data(), kSpitch, kWidth, kHeight,
                                   ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  std::vector<uint8_t> back(kDpitch * kHeight, 0);
  acltest::PinnedHost pinned_back(back);
  ASSERT_ACL_OK(aclrtMemcpyAsync(back.data(), back.size(), dev_a_, back.size(),
                                 ACL_MEMCPY_DEVICE_TO_HOST, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ExpectRows(back, src, kDpitch, kSpitch, background);
}

TEST_F(aclrtMemcpy2dTest, RefusesBadShapesAndRanges) {
  std::vector<uint8_t> host(kSpitch * kHeight, 0);
  // width wider than a pitch
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy2d, dev_a_, 64, host.data(), kSpitch, 65, 2,
                 ACL_MEMCPY_HOST_TO_DEVICE);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy2d, dev_a_, kDpitch, host.data(), 64, 65, 2,
                 ACL_MEMCPY_HOST_TO_DEVICE);
  // empty shapes
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy2d, dev_a_, kDpitch, host.data(), kSpitch, 0, 2,
                 ACL_MEMCPY_HOST_TO_DEVICE);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy2d, dev_a_, kDpitch, host.data(), kSpitch, 8, 0,
                 ACL_MEMCPY_HOST_TO_DEVICE);
  // the last row would end past the allocation
  char* near_end = static_cast<char*>(dev_a_) + kBytes - kDpitch * (kHeight - 1) - kWidth + 1;
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy2d, near_end, kDpitch, host.data(), kSpitch, kWidth, kHeight,
                 ACL_MEMCPY_HOST_TO_DEVICE);
  EXPECT_ACL_OK(aclrtMemcpy2d(near_end - 1, kDpitch, host.data(), kSpitch, kWidth, kHeight,
                              ACL_MEMCPY_HOST_TO_DEVICE));
  // NULL pointers and contradicting kinds
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy2d, nullptr, kDpitch, host.data(), kSpitch, 8, 2,
                 ACL_MEMCPY_HOST_TO_DEVICE);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy2d, dev_a_, kDpitch, nullptr, kSpitch, 8, 2,
                 ACL_MEMCPY_HOST_TO_DEVICE);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy2d, dev_a_, kDpitch, host.data(), kSpitch, 8, 2,
                 ACL_MEMCPY_DEVICE_TO_HOST);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy2dAsync, dev_a_, 64, host.data(), kSpitch, 65, 2,
                 ACL_MEMCPY_HOST_TO_DEVICE, stream_);
  EXPECT_ACL_ERR(kBadParam, aclrtMemcpy2dAsync, nullptr, kDpitch, host.data(), kSpitch, 8, 2,
                 ACL_MEMCPY_HOST_TO_DEVICE, stream_);
}

// Copies between device 0 and device 1.
class PeerCopyTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    ASSERT_ACL_OK(aclrtSetDevice(1));
    ASSERT_ACL_OK(aclrtMalloc(&dev1_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMemset(dev1_, kBytes, 0, kBytes));  // defined contents for Device1Holds
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtMalloc(&dev0_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMemcpy(dev0_, kBytes, in_.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    acltest::ClearRecentErrors();
  }
  bool Device1Holds(const std::vector<uint8_t>& want) {
    std::vector<uint8_t> out(kBytes, 0);
    EXPECT_ACL_OK(aclrtMemcpy(out.data(), kBytes, dev1_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    return FirstMismatch(want.data(), out.data(), kBytes) == -1;
  }
  static constexpr size_t kBytes = 256 << 10;
  std::vector<uint8_t> in_ = Pattern(kBytes, 19);
  void* dev0_ = nullptr;
  void* dev1_ = nullptr;
};

TEST_F(PeerCopyTest, CrossDeviceCopyNeedsPeerAccess) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  EXPECT_ACL_ERR(ACL_ERROR_RT_NO_PERMISSION, aclrtMemcpy, dev1_, kBytes, dev0_, kBytes,
                 ACL_MEMCPY_DEVICE_TO_DEVICE);
  EXPECT_ACL_ERR(ACL_ERROR_RT_NO_PERMISSION, aclrtMemcpy, dev1_, kBytes, dev0_, kBytes,
                 ACL_MEMCPY_DEFAULT);
  EXPECT_ACL_ERR(ACL_ERROR_RT_NO_PERMISSION, aclrtMemcpyAsync, dev1_, kBytes, dev0_, kBytes,
                 ACL_MEMCPY_DEVICE_TO_DEVICE, stream);
  EXPECT_ACL_ERR(ACL_ERROR_RT_NO_PERMISSION, aclrtMemcpy2d, dev1_, 64, dev0_, 64, 64, 4,
                 ACL_MEMCPY_DEVICE_TO_DEVICE);
  EXPECT_FALSE(Device1Holds(in_));  // nothing was copied
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(PeerCopyTest, CrossDeviceCopyWorksAfterEnablePeerAccess) {
  ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
  ASSERT_ACL_OK(aclrtMemcpy(dev1_, kBytes, dev0_, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
  EXPECT_TRUE(Device1Holds(in_));
  // Async on a device-0 stream, and back the other way.
  std::vector<uint8_t> other = Pattern(kBytes, 20);
  ASSERT_ACL_OK(aclrtMemcpy(dev0_, kBytes, other.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev1_, kBytes, dev0_, kBytes, ACL_MEMCPY_DEFAULT, stream));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_TRUE(Device1Holds(other));
  ASSERT_ACL_OK(aclrtMemcpy(dev0_, kBytes, in_.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtMemcpy(dev0_, kBytes, dev1_, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
  std::vector<uint8_t> back(kBytes, 0);
  ASSERT_ACL_OK(aclrtMemcpy(back.data(), kBytes, dev0_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(FirstMismatch(back.data(), other.data(), kBytes), -1);
  // Disabled again: refused again.
  ASSERT_ACL_OK(aclrtDeviceDisablePeerAccess(1));
  EXPECT_ACL_ERR(ACL_ERROR_RT_NO_PERMISSION, aclrtMemcpy, dev1_, kBytes, dev0_, kBytes,
                 ACL_MEMCPY_DEVICE_TO_DEVICE);
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(PeerCopyTest, AsyncCopyOnAStreamOfAThirdDeviceIsResourceNotMatch) {
  ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
  aclrtContext ctx2 = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&ctx2, 2));
  aclrtStream stream2 = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream2));
  EXPECT_ACL_ERR(ACL_ERROR_RESOURCE_NOT_MATCH, aclrtMemcpyAsync, dev1_, kBytes, dev0_, kBytes,
                 ACL_MEMCPY_DEVICE_TO_DEVICE, stream2);
  EXPECT_ACL_OK(aclrtDestroyStream(stream2));
  EXPECT_ACL_OK(aclrtDestroyContext(ctx2));
}

}  // namespace
