// Functional correctness of copies, 2-D copies and memsets, byte for byte.
#include "conformance.h"

namespace aclsim::driver::conformance {
namespace {

class CopyTest : public DriverTest {};

TEST_P(CopyTest, EveryDirectionCopiesExactly) {
  auto d1 = OpenDevice(*driver_, 1);
  ASSERT_NE(d1, nullptr);
  QueueId q = NewQueue(dev());
  for (size_t bytes : {size_t{1}, size_t{7}, size_t{4096}, size_t{4097}, size_t{3 * kMiB + 5}}) {
    SCOPED_TRACE(testing::Message() << bytes << " bytes");
    std::vector<uint8_t> src = Pattern(bytes, static_cast<uint32_t>(bytes));
    std::vector<uint8_t> h2h(bytes, 0);
    std::vector<uint8_t> back(bytes, 0);
    void* a = Alloc(dev(), bytes);
    void* b = Alloc(dev(), bytes);
    void* peer = Alloc(*d1, bytes);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    ASSERT_NE(peer, nullptr);
    SubmitOk(dev(), q, CopyTask(h2h.data(), src.data(), bytes, CopyDir::kHostToHost));
    SubmitOk(dev(), q, CopyTask(a, h2h.data(), bytes, CopyDir::kHostToDevice));
    SubmitOk(dev(), q, CopyTask(b, a, bytes, CopyDir::kDeviceToDevice));
    SubmitOk(dev(), q, CopyTask(peer, b, bytes, CopyDir::kPeerToPeer));
    SubmitOk(dev(), q, CopyTask(back.data(), peer, bytes, CopyDir::kDeviceToHost));
    SyncOk(dev(), q);
    EXPECT_EQ(h2h, src);
    EXPECT_EQ(back, src);
    EXPECT_EQ(std::memcmp(a, src.data(), bytes), 0);
    EXPECT_EQ(std::memcmp(peer, src.data(), bytes), 0);
    ACLSIM_EXPECT_OK(dev().FreePhysical(a));
    ACLSIM_EXPECT_OK(dev().FreePhysical(b));
    ACLSIM_EXPECT_OK(d1->FreePhysical(peer));
  }
}

// A copy touches exactly its destination bytes.
TEST_P(CopyTest, CopyDoesNotTouchNeighbouringBytes) {
  QueueId q = NewQueue(dev());
  constexpr size_t kBytes = 16 * kKiB;
  auto* d = static_cast<uint8_t*>(Alloc(dev(), kBytes));
  ASSERT_NE(d, nullptr);
  SubmitOk(dev(), q, MemsetTask(d, 0xEE, kBytes));
  std::vector<uint8_t> src = Pattern(1000, 3);
  SubmitOk(dev(), q, CopyTask(d + 123, src.data(), src.size(), CopyDir::kHostToDevice));
  std::vector<uint8_t> out(kBytes);
  SubmitOk(dev(), q, CopyTask(out.data(), d, kBytes, CopyDir::kDeviceToHost));
  SyncOk(dev(), q);
  for (size_t i = 0; i < kBytes; ++i) {
    const uint8_t want = i >= 123 && i < 1123 ? src[i - 123] : 0xEE;
    ASSERT_EQ(out[i], want) << "byte " << i;
  }
}

TEST_P(CopyTest, ZeroByteTasksComplete) {
  QueueId q = NewQueue(dev());
  uint8_t host = 0x11;
  auto* d = static_cast<uint8_t*>(Alloc(dev(), 4096));
  ASSERT_NE(d, nullptr);
  d[0] = 0x22;
  SubmitOk(dev(), q, CopyTask(d, &host, 0, CopyDir::kHostToDevice));
  SubmitOk(dev(), q, MemsetTask(d, 0x33, 0));
  SubmitOk(dev(), q, Copy2dTask(d, 16, &host, 16, 0, 0, CopyDir::kHostToDevice));
  SyncOk(dev(), q);
  EXPECT_EQ(d[0], 0x22);
}

TEST_P(CopyTest, MemsetFillsExactlyItsRangeWithTheByteValue) {
  QueueId q = NewQueue(dev());
  constexpr size_t kBytes = 64 * kKiB;
  auto* d = static_cast<uint8_t*>(Alloc(dev(), kBytes));
  ASSERT_NE(d, nullptr);
  std::vector<uint8_t> out(kBytes);
  for (int value : {0x00, 0x01, 0x7F, 0x80, 0xFF}) {
    SCOPED_TRACE(value);
    SubmitOk(dev(), q, MemsetTask(d, 0xA5, kBytes));
    SubmitOk(dev(), q, MemsetTask(d + 333, value, 40000));
    SubmitOk(dev(), q, CopyTask(out.data(), d, kBytes, CopyDir::kDeviceToHost));
    SyncOk(dev(), q);
    for (size_t i = 0; i < kBytes; ++i) {
      const uint8_t want = i >= 333 && i < 40333 ? static_cast<uint8_t>(value) : 0xA5;
      ASSERT_EQ(out[i], want) << "byte " << i;
    }
  }
}

// 2-D copy: height rows of width bytes; bytes between rows (pitch - width) are untouched.
TEST_P(CopyTest, Copy2dCopiesRowsAndLeavesPaddingAlone) {
  QueueId q = NewQueue(dev());
  constexpr size_t kWidth = 40;
  constexpr size_t kHeight = 37;
  constexpr size_t kSpitch = 48;
  constexpr size_t kDpitch = 100;
  const size_t src_bytes = kSpitch * kHeight;
  const size_t dst_bytes = kDpitch * kHeight;
  std::vector<uint8_t> src = Pattern(src_bytes, 77);
  auto* d = static_cast<uint8_t*>(Alloc(dev(), dst_bytes));
  auto* d2 = static_cast<uint8_t*>(Alloc(dev(), src_bytes));
  ASSERT_NE(d, nullptr);
  ASSERT_NE(d2, nullptr);
  std::vector<uint8_t> back(src_bytes, 0xCC);
  SubmitOk(dev(), q, MemsetTask(d, 0xEE, dst_bytes));
  // Host -> device with a wider destination pitch.
  SubmitOk(dev(), q,
           Copy2dTask(d, kDpitch, src.data(), kSpitch, kWidth, kHeight, CopyDir::kHostToDevice));
  // Device -> device back to the narrow pitch, then to the host.
  SubmitOk(dev(), q, MemsetTask(d2, 0xDD, src_bytes));
  SubmitOk(dev(), q,
           Copy2dTask(d2, kSpitch, d, kDpitch, kWidth, kHeight, CopyDir::kDeviceToDevice));
  SubmitOk(dev(), q,
           Copy2dTask(back.data(), kSpitch, d2, kSpitch, kSpitch, kHeight, CopyDir::kDeviceToHost));
  SyncOk(dev(), q);
  for (size_t row = 0; row < kHeight; ++row) {
    for (size_t col = 0; col < kDpitch; ++col) {
      const uint8_t want = col < kWidth ? src[row * kSpitch + col] : 0xEE;
      ASSERT_EQ(d[row * kDpitch + col], want) << "dst row " << row << " col " << col;
    }
    for (size_t col = 0; col < kSpitch; ++col) {
      const uint8_t want = col < kWidth ? src[row * kSpitch + col] : 0xDD;
      ASSERT_EQ(back[row * kSpitch + col], want) << "back row " << row << " col " << col;
    }
  }
}

// Copies into device memory written by host code, and host code reading device memory
// after a sync (device memory is host-addressable).
TEST_P(CopyTest, HostSeesDeviceMemoryAfterSync) {
  QueueId q = NewQueue(dev());
  constexpr size_t kBytes = 8192;
  auto* d = static_cast<uint8_t*>(Alloc(dev(), kBytes));
  ASSERT_NE(d, nullptr);
  std::vector<uint8_t> src = Pattern(kBytes, 5);
  std::memcpy(d, src.data(), kBytes);
  void* d2 = Alloc(dev(), kBytes);
  SubmitOk(dev(), q, CopyTask(d2, d, kBytes, CopyDir::kDeviceToDevice));
  SyncOk(dev(), q);
  EXPECT_EQ(std::memcmp(d2, src.data(), kBytes), 0);
}

ACLSIM_CONFORMANCE_SUITE(CopyTest);

}  // namespace
}  // namespace aclsim::driver::conformance
