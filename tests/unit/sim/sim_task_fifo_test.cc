// TaskFifo (a queue's pending tasks): order through wrap-arounds and growth, removal from
// the middle, iteration, and release of what it held.
#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <random>
#include <vector>

#include "sim/task_fifo.h"

namespace aclsim::sim {
namespace {

std::vector<int> Contents(const TaskFifo<std::shared_ptr<int>>& fifo) {
  std::vector<int> out;
  for (const auto& p : fifo) out.push_back(*p);
  return out;
}

TEST(SimTaskFifoTest, BehavesLikeADequeThroughWrapsAndGrowth) {
  TaskFifo<std::shared_ptr<int>> fifo;
  std::deque<int> model;
  std::mt19937 rng(5);
  int next = 0;
  for (int step = 0; step < 20000; ++step) {
    // Phases that grow the queue past several capacities and drain it again.
    const bool grow = (step / 2500) % 2 == 0;
    if (model.empty() || rng() % 10 < (grow ? 7u : 3u)) {
      fifo.push_back(std::make_shared<int>(next));
      model.push_back(next++);
    } else {
      ASSERT_EQ(*fifo.front(), model.front());
      fifo.pop_front();
      model.pop_front();
    }
    ASSERT_EQ(fifo.size(), model.size());
    ASSERT_EQ(fifo.empty(), model.empty());
  }
  EXPECT_EQ(Contents(fifo), std::vector<int>(model.begin(), model.end()));
}

TEST(SimTaskFifoTest, EraseFirstKeepsTheOrderOfTheOthers) {
  TaskFifo<std::shared_ptr<int>> fifo;
  std::vector<std::shared_ptr<int>> items;
  for (int i = 0; i < 100; ++i) {
    items.push_back(std::make_shared<int>(i));
    fifo.push_back(items.back());
  }
  for (int i = 0; i < 40; ++i) fifo.pop_front();  // the ring's start is now inside
  for (int i = 100; i < 150; ++i) {
    items.push_back(std::make_shared<int>(i));
    fifo.push_back(items.back());  // wraps around the ring's end
  }
  fifo.EraseFirst([&](const std::shared_ptr<int>& p) { return p == items[120]; });
  fifo.EraseFirst([&](const std::shared_ptr<int>& p) { return p == items[3]; });  // not there
  std::vector<int> expected;
  for (int i = 40; i < 150; ++i) {
    if (i != 120) expected.push_back(i);
  }
  EXPECT_EQ(Contents(fifo), expected);
  EXPECT_EQ(items[120].use_count(), 1);  // released, not just moved past the end
  while (!fifo.empty()) fifo.pop_front();
  for (const auto& item : items) EXPECT_EQ(item.use_count(), 1);
}

}  // namespace
}  // namespace aclsim::sim
