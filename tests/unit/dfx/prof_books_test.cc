// The profiling state a runtime owns: ranges and named ids (prof_marks.h), model
// subscriptions (prof_subscriptions.h).
#include <gtest/gtest.h>
#include <unistd.h>

#include "dfx/prof_marks.h"
#include "dfx/prof_subscriptions.h"
#include "dfx/profiler.h"

namespace aclsim::dfx::prof {
namespace {

MarkRecord Range(std::string message, uint64_t thread_id) {
  MarkRecord mark;
  mark.message = std::move(message);
  mark.thread_id = thread_id;
  mark.range = true;
  return mark;
}

TEST(RangeBookTest, StacksArePerThreadAndPerKind) {
  RangeBook book;
  book.Push(RangeBook::Stack::kPush, Range("a", 1));
  book.Push(RangeBook::Stack::kPush, Range("b", 1));
  book.Push(RangeBook::Stack::kPushEx, Range("ex", 1));
  book.Push(RangeBook::Stack::kPush, Range("other thread", 2));
  EXPECT_EQ(book.Pop(RangeBook::Stack::kPush, 1)->message, "b");
  EXPECT_EQ(book.Pop(RangeBook::Stack::kPush, 1)->message, "a");
  EXPECT_FALSE(book.Pop(RangeBook::Stack::kPush, 1));
  EXPECT_EQ(book.Pop(RangeBook::Stack::kPushEx, 1)->message, "ex");
  EXPECT_EQ(book.Pop(RangeBook::Stack::kPush, 2)->message, "other thread");
  EXPECT_FALSE(book.Pop(RangeBook::Stack::kPushEx, 3));
}

TEST(RangeBookTest, RangesByIdStartAtOneAndStopOnce) {
  RangeBook book;
  EXPECT_EQ(book.Start(Range("x", 1)), 1u);
  EXPECT_EQ(book.Start(Range("y", 1)), 2u);
  EXPECT_EQ(book.Stop(1)->message, "x");
  EXPECT_FALSE(book.Stop(1));
  EXPECT_FALSE(book.Stop(7));
  EXPECT_EQ(book.Stop(2)->message, "y");
}

TEST(RangeBookTest, NamesKeepTheFirstMessageOfAnId) {
  RangeBook book;
  EXPECT_FALSE(book.NameOf(5));
  book.Name(5, "first");
  book.Name(5, "second");
  EXPECT_EQ(book.NameOf(5), "first");
}

TEST(RangeBookTest, MessageIdsAreStableHashesAndNeverZero) {
  EXPECT_EQ(MessageId("MatMul"), MessageId("MatMul"));
  EXPECT_NE(MessageId("MatMul"), MessageId("Add"));
  EXPECT_EQ(MessageId(""), 1469598103934665603ULL);  // FNV-1a offset basis
  EXPECT_NE(MessageId("a"), 0u);
}

TEST(SubscriptionBookTest, SubscribesOnceAndEndsWithTheBook) {
  int fds[2] = {-1, -1};
  ASSERT_EQ(::pipe(fds), 0);
  {
    SubscriptionBook book;
    ASSERT_TRUE(book.Add(41, {fds[1], true}).ok());
    EXPECT_EQ(book.Add(41, {fds[1], true}).code(), StatusCode::kProfRepeatSubscribe);
    EXPECT_TRUE(book.Has(41));
    EXPECT_TRUE(Profiler::Get().IsSubscribed(41));
    int delivered = -1;
    EXPECT_TRUE(book.Deliver(41,
                             [&](const SubscriptionBook::Subscription& s) {
                               delivered = s.fd;
                               return Status::Ok();
                             })
                    .ok());
    EXPECT_EQ(delivered, fds[1]);
    EXPECT_TRUE(book.Deliver(42,
                             [](const SubscriptionBook::Subscription&) {
                               return Status(StatusCode::kInternal, "not called");
                             })
                    .ok());
  }
  // The book's end (aclFinalize) untraces the model but leaves the pipe to the program.
  EXPECT_FALSE(Profiler::Get().IsSubscribed(41));
  EXPECT_EQ(::close(fds[1]), 0);
  EXPECT_EQ(::close(fds[0]), 0);
}

TEST(SubscriptionBookTest, RemoveUntracesAndClosesThePipe) {
  int fds[2] = {-1, -1};
  ASSERT_EQ(::pipe(fds), 0);
  SubscriptionBook book;
  ASSERT_TRUE(book.Add(43, {fds[1], false}).ok());
  EXPECT_TRUE(book.Remove(43));
  EXPECT_FALSE(book.Remove(43));
  EXPECT_FALSE(book.Has(43));
  EXPECT_FALSE(Profiler::Get().IsSubscribed(43));
  char byte = 0;
  EXPECT_EQ(::read(fds[0], &byte, 1), 0);  // end of file: the write end is closed
  EXPECT_EQ(::close(fds[0]), 0);
}

}  // namespace
}  // namespace aclsim::dfx::prof
