// aclGetRecentErrMsg semantics: read-and-clear, newest first, NULL when empty, per thread
// or per process (err_msg_mode).
#include "dfx/error_message.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

namespace aclsim::dfx {
namespace {

class RecentErrMsgTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SetErrMsgMode(kErrMsgPerThread);
    ClearRecentError();
  }
  void TearDown() override {
    SetErrMsgMode(kErrMsgPerProcess);
    ClearRecentError();
    SetErrMsgMode(kErrMsgPerThread);
    ClearRecentError();
  }
};

std::string Take() {
  const char* msg = RecentErrorCStr();
  return msg == nullptr ? std::string("<null>") : std::string(msg);
}

TEST_F(RecentErrMsgTest, NullWhenNothingFailed) { EXPECT_EQ(RecentErrorCStr(), nullptr); }

TEST_F(RecentErrMsgTest, ReadingClears) {
  SetRecentError("aclrtMalloc: size 0 is invalid");
  EXPECT_EQ(Take(), "aclrtMalloc: size 0 is invalid");
  EXPECT_EQ(RecentErrorCStr(), nullptr);
}

TEST_F(RecentErrMsgTest, AccumulatesNewestFirst) {
  SetRecentError("first");
  SetRecentError("second");
  SetRecentError("third");
  EXPECT_EQ(Take(), "third\nsecond\nfirst");
}

TEST_F(RecentErrMsgTest, IdenticalMessagesAreRecordedOnce) {
  SetRecentError("same");
  SetRecentError("other");
  SetRecentError("same");
  EXPECT_EQ(Take(), "other\nsame");
}

TEST_F(RecentErrMsgTest, EmptyMessageIsIgnored) {
  SetRecentError("");
  EXPECT_EQ(RecentErrorCStr(), nullptr);
}

TEST_F(RecentErrMsgTest, PointerStaysValidUntilNextCallOnSameThread) {
  SetRecentError("kept");
  const char* first = RecentErrorCStr();
  ASSERT_NE(first, nullptr);
  SetRecentError("later");  // recording does not touch the returned string
  std::thread([] {
    SetRecentError("other thread");
    (void)RecentErrorCStr();
  }).join();
  EXPECT_STREQ(first, "kept");
  EXPECT_STREQ(RecentErrorCStr(), "later");
}

TEST_F(RecentErrMsgTest, ClearDropsPending) {
  SetRecentError("x");
  ClearRecentError();
  EXPECT_EQ(RecentErrorCStr(), nullptr);
}

TEST_F(RecentErrMsgTest, PerThreadModeIsolatesThreads) {
  SetRecentError("main failure");
  std::string seen_in_worker;
  std::thread([&seen_in_worker] {
    seen_in_worker = Take();
    SetRecentError("worker failure");
    EXPECT_EQ(Take(), "worker failure");
  }).join();
  EXPECT_EQ(seen_in_worker, "<null>");
  EXPECT_EQ(Take(), "main failure");
}

TEST_F(RecentErrMsgTest, PerProcessModeSharesAcrossThreadsAndNamesTheThread) {
  SetErrMsgMode(kErrMsgPerProcess);
  EXPECT_EQ(GetErrMsgMode(), kErrMsgPerProcess);
  pid_t worker_tid = 0;
  std::thread([&worker_tid] {
    worker_tid = gettid();
    SetRecentError("worker failure");
  }).join();
  SetRecentError("main failure");
  EXPECT_EQ(Take(), "main failure[THREAD:" + std::to_string(gettid()) + "]\n" +
                        "worker failure[THREAD:" + std::to_string(worker_tid) + "]");
  std::string after;
  std::thread([&after] { after = Take(); }).join();
  EXPECT_EQ(after, "<null>");
}

TEST_F(RecentErrMsgTest, ModeSwitchKeepsMessagesInTheirScope) {
  SetRecentError("thread scoped");
  SetErrMsgMode(kErrMsgPerProcess);
  EXPECT_EQ(RecentErrorCStr(), nullptr);
  SetErrMsgMode(kErrMsgPerThread);
  EXPECT_EQ(Take(), "thread scoped");
}

TEST_F(RecentErrMsgTest, InvalidModeIsIgnored) {
  SetErrMsgMode(7);
  EXPECT_EQ(GetErrMsgMode(), kErrMsgPerThread);
  SetErrMsgMode(-1);
  EXPECT_EQ(GetErrMsgMode(), kErrMsgPerThread);
}

TEST_F(RecentErrMsgTest, KeepsTheNewestWhenFull) {
  for (size_t i = 0; i < kMaxRecentErrors + 5; ++i) SetRecentError("e" + std::to_string(i));
  const std::string all = Take();
  EXPECT_EQ(all.rfind("e" + std::to_string(kMaxRecentErrors + 4), 0), 0u);
  EXPECT_EQ(all.find("e4\n"), std::string::npos);
  EXPECT_NE(all.find("\ne5"), std::string::npos);
}

TEST_F(RecentErrMsgTest, ConcurrentPerProcessRecordingIsSafe) {
  SetErrMsgMode(kErrMsgPerProcess);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < 50; ++i) {
        SetRecentError("t" + std::to_string(t) + " e" + std::to_string(i));
        if (i % 10 == 0) (void)RecentErrorCStr();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  (void)RecentErrorCStr();
  EXPECT_EQ(RecentErrorCStr(), nullptr);
}

}  // namespace
}  // namespace aclsim::dfx
