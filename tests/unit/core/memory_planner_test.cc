// MemoryPlanner: crafted lifetime sets with a known optimum, input errors, plan validation,
// determinism, and the shared traces (tests/data/memory-traces): every plan valid, never
// worse than greedy by size, within the figures.
#include "core/memory_planner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace aclsim::core {
namespace {

std::vector<PlanBuffer> Buffers(const std::vector<std::vector<int64_t>>& rows) {
  std::vector<PlanBuffer> buffers;
  for (const auto& r : rows) {
    buffers.push_back(
        {static_cast<int64_t>(buffers.size()), r[0], r[1], static_cast<uint64_t>(r[2])});
  }
  return buffers;
}

Plan PlanOk(const std::vector<PlanBuffer>& buffers, const PlanOptions& options = {}) {
  auto plan = PlanMemory(buffers, options);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_TRUE(ValidatePlan(buffers, plan->offsets).ok());
  return *plan;
}

TEST(MemoryPlannerTest, EmptyInputGivesAnEmptyArena) {
  const Plan plan = PlanOk({});
  EXPECT_EQ(plan.arena, 0u);
  EXPECT_EQ(plan.lower_bound, 0u);
  EXPECT_EQ(plan.total, 0u);
  EXPECT_TRUE(plan.offsets.empty());
}

TEST(MemoryPlannerTest, DisjointLifetimesShareOffsetZero) {
  const auto buffers = Buffers({{0, 1, 10}, {1, 2, 30}, {2, 5, 20}});
  const Plan plan = PlanOk(buffers);
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 0, 0}));
  EXPECT_EQ(plan.arena, 30u);
  EXPECT_EQ(plan.lower_bound, 30u);
  EXPECT_EQ(plan.total, 60u);
}

TEST(MemoryPlannerTest, StaircaseNeedsTwoSlots) {
  // Each buffer overlaps only its neighbours: two slots of 8 bytes alternate.
  std::vector<std::vector<int64_t>> rows;
  for (int64_t i = 0; i < 20; ++i) rows.push_back({i, i + 2, 8});
  const Plan plan = PlanOk(Buffers(rows));
  EXPECT_EQ(plan.lower_bound, 16u);
  EXPECT_EQ(plan.arena, 16u);
}

TEST(MemoryPlannerTest, ReachesTheLowerBoundWhereGreedyBySizeDoesNot) {
  // Greedy by size needs 12 bytes here; the optimum is the lower bound, 8.
  const auto buffers = Buffers({{0, 3, 2}, {3, 5, 4}, {2, 4, 3}, {0, 2, 3}, {0, 3, 3}});
  auto greedy = GreedyBySize(buffers);
  ASSERT_TRUE(greedy.ok());
  EXPECT_EQ(greedy->arena, 12u);
  EXPECT_TRUE(ValidatePlan(buffers, greedy->offsets).ok());
  const Plan plan = PlanOk(buffers);
  EXPECT_EQ(plan.lower_bound, 8u);
  EXPECT_EQ(plan.arena, 8u);
}

TEST(MemoryPlannerTest, ThePeakWindowReachesTheBoundWithoutTheFullSearch) {
  // As above, with the search over all buffers off: the exact plan of the buffers around the
  // peak, with the rest placed around it, reaches the bound.
  const auto buffers = Buffers({{0, 3, 2}, {3, 5, 4}, {2, 4, 3}, {0, 2, 3}, {0, 3, 3}});
  PlanOptions options;
  options.search_max_buffers = 0;
  const Plan plan = PlanOk(buffers, options);
  EXPECT_EQ(plan.arena, 8u);
  EXPECT_EQ(plan.strategy, "peak-window");
}

TEST(MemoryPlannerTest, PeakWindowPlansAreValidOnRandomLifetimes) {
  // Long-lived buffers through a busy middle: the window step runs (the search over all
  // buffers is off) and whatever it keeps must be valid and never worse than greedy by size.
  std::mt19937_64 rng(7);
  int window_plans = 0;
  for (int round = 0; round < 200; ++round) {
    std::vector<PlanBuffer> buffers;
    const int n = 20 + static_cast<int>(rng() % 60);
    for (int i = 0; i < n; ++i) {
      const bool through = rng() % 4 == 0;
      const int64_t lower =
          through ? static_cast<int64_t>(rng() % 10) : static_cast<int64_t>(rng() % 100);
      const int64_t upper = through ? 90 + static_cast<int64_t>(rng() % 10)
                                    : lower + 1 + static_cast<int64_t>(rng() % 12);
      buffers.push_back({i, lower, upper, 1 + rng() % 64});
    }
    PlanOptions options;
    options.search_max_buffers = 0;
    const Plan plan = PlanOk(buffers, options);
    auto greedy = GreedyBySize(buffers);
    ASSERT_TRUE(greedy.ok());
    EXPECT_LE(plan.arena, greedy->arena);
    EXPECT_GE(plan.arena, plan.lower_bound);
    window_plans += plan.strategy == "peak-window";
  }
  EXPECT_GT(window_plans, 0);  // the inputs do exercise it
}

TEST(MemoryPlannerTest, ZeroSizeBuffersTakeNoSpace) {
  const auto buffers = Buffers({{0, 4, 0}, {0, 4, 16}, {2, 6, 0}, {1, 3, 16}});
  const Plan plan = PlanOk(buffers);
  EXPECT_EQ(plan.offsets[0], 0u);
  EXPECT_EQ(plan.offsets[2], 0u);
  EXPECT_EQ(plan.lower_bound, 32u);
  EXPECT_EQ(plan.arena, 32u);
}

TEST(MemoryPlannerTest, AlignmentRoundsOffsetsAndSizes) {
  const auto buffers = Buffers({{0, 2, 1}, {0, 2, 3}, {1, 3, 100}});
  PlanOptions options;
  options.alignment = 64;
  const Plan plan = PlanOk(buffers, options);
  for (const uint64_t offset : plan.offsets) EXPECT_EQ(offset % 64, 0u);
  EXPECT_EQ(plan.lower_bound, 64u + 64u + 128u);
  EXPECT_EQ(plan.arena, plan.lower_bound);
  EXPECT_EQ(plan.total, 256u);
  EXPECT_EQ(LowerBound(buffers, 64), plan.lower_bound);
  EXPECT_EQ(LowerBound(buffers), 104u);
}

TEST(MemoryPlannerTest, InvalidLifetimesAndAlignmentAreErrors) {
  auto empty = PlanMemory(Buffers({{3, 3, 8}}));
  EXPECT_EQ(empty.status().code(), StatusCode::kInvalidParam);
  EXPECT_NE(empty.status().message().find("buffer 0"), std::string::npos);
  EXPECT_FALSE(PlanMemory(Buffers({{5, 2, 8}})).ok());
  EXPECT_FALSE(PlanMemory(Buffers({{-1, 2, 8}})).ok());
  EXPECT_FALSE(GreedyBySize(Buffers({{4, 1, 8}})).ok());
  PlanOptions options;
  options.alignment = 48;
  EXPECT_FALSE(PlanMemory(Buffers({{0, 1, 8}}), options).ok());
  options.alignment = 0;
  EXPECT_FALSE(PlanMemory(Buffers({{0, 1, 8}}), options).ok());
}

TEST(MemoryPlannerTest, SizesThatOverflowAreErrors) {
  auto buffers = Buffers({{0, 1, 8}, {0, 1, 8}});
  buffers[0].size = buffers[1].size = uint64_t{1} << 63;
  EXPECT_FALSE(PlanMemory(buffers).ok());
}

TEST(MemoryPlannerTest, ValidatePlanNamesTheOverlappingPair) {
  const auto buffers = Buffers({{0, 2, 8}, {2, 4, 8}, {1, 3, 8}});
  // 0 and 1 never meet; 2 meets both.
  EXPECT_TRUE(ValidatePlan(buffers, {0, 0, 8}).ok());
  PlanConflict conflict;
  const Status bad = ValidatePlan(buffers, {0, 0, 4}, &conflict);
  EXPECT_EQ(bad.code(), StatusCode::kInvalidParam);
  EXPECT_EQ(conflict.first, 0u);
  EXPECT_EQ(conflict.second, 2u);
  EXPECT_FALSE(ValidatePlan(buffers, {0, 0}).ok());
  // Half-open lifetimes: ending and starting at the same step is no conflict.
  EXPECT_TRUE(ValidatePlan(Buffers({{0, 2, 8}, {2, 3, 8}}), {0, 0}).ok());
}

// TFLite's greedy by size written the plain way: every placed buffer is checked for a time
// overlap, the overlapping ranges sorted by offset, the first gap taken.
std::vector<uint64_t> NaiveGreedyBySize(const std::vector<PlanBuffer>& buffers) {
  std::vector<size_t> order;
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].size != 0) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return buffers[b].size < buffers[a].size; });
  std::vector<uint64_t> offsets(buffers.size(), 0);
  std::vector<size_t> placed;
  for (const size_t b : order) {
    std::vector<std::pair<uint64_t, uint64_t>> taken;
    for (const size_t o : placed) {
      if (buffers[o].lower < buffers[b].upper && buffers[b].lower < buffers[o].upper) {
        taken.emplace_back(offsets[o], offsets[o] + buffers[o].size);
      }
    }
    std::sort(taken.begin(), taken.end());
    uint64_t cursor = 0;
    for (const auto& [offset, end] : taken) {
      if (offset >= cursor + buffers[b].size) break;
      cursor = std::max(cursor, end);
    }
    offsets[b] = cursor;
    placed.push_back(b);
  }
  return offsets;
}

TEST(MemoryPlannerTest, GreedyBySizeMatchesANaiveScanOnRandomLifetimes) {
  // The placement structure must give exactly the plan of the pairwise scan.
  std::mt19937_64 rng(7);
  for (int round = 0; round < 50; ++round) {
    std::vector<PlanBuffer> buffers;
    const int count = 20 + static_cast<int>(rng() % 200);
    const int steps = 5 + static_cast<int>(rng() % 100);
    for (int i = 0; i < count; ++i) {
      const auto lower = static_cast<int64_t>(rng() % static_cast<uint64_t>(steps));
      const auto length = static_cast<int64_t>(1 + rng() % (round % 2 == 0 ? 8 : 60));
      const uint64_t size = (rng() % 10 == 0) ? 0 : 1 + rng() % 64;
      buffers.push_back({i, lower, lower + length, size});
    }
    auto greedy = GreedyBySize(buffers);
    ASSERT_TRUE(greedy.ok());
    EXPECT_EQ(greedy->offsets, NaiveGreedyBySize(buffers)) << "round " << round;
    PlanOptions options;
    options.search_nodes = 0;
    const Plan plan = PlanOk(buffers, options);
    EXPECT_LE(plan.arena, greedy->arena);
  }
}

TEST(MemoryPlannerTest, GreedyBySizeMatchesANaiveScanOnEveryTinyTimeAxis) {
  // One to a few sections: the placement tree's smallest shapes (a single node, uneven
  // splits) give the plan of the pairwise scan too.
  std::mt19937_64 rng(11);
  for (int round = 0; round < 200; ++round) {
    std::vector<PlanBuffer> buffers;
    const int count = 1 + round % 7;
    const int steps = 1 + round % 5;
    for (int i = 0; i < count; ++i) {
      const auto lower = static_cast<int64_t>(rng() % static_cast<uint64_t>(steps));
      const auto length = static_cast<int64_t>(1 + rng() % 3);
      buffers.push_back({i, lower, lower + length, 1 + rng() % 16});
    }
    auto greedy = GreedyBySize(buffers);
    ASSERT_TRUE(greedy.ok());
    EXPECT_EQ(greedy->offsets, NaiveGreedyBySize(buffers)) << "round " << round;
    const Plan plan = PlanOk(buffers);
    EXPECT_LE(plan.arena, greedy->arena);
  }
}

// The shared traces.
struct Trace {
  const char* file;
  double max_ratio;       // arena / lower bound this planner reaches with that budget
  uint64_t search_nodes;  // the search budget; the challenging ones get a small one to keep
                          // the suite fast (the bench measures the default budget)
};

std::vector<PlanBuffer> ReadTrace(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::string line;
  std::getline(in, line);
  std::vector<PlanBuffer> buffers;
  while (std::getline(in, line)) {
    PlanBuffer b;
    char comma = 0;
    std::istringstream row(line);
    row >> b.id >> comma >> b.lower >> comma >> b.upper >> comma >> b.size;
    buffers.push_back(b);
  }
  return buffers;
}

constexpr uint64_t kDefaultNodes = PlanOptions{}.search_nodes;

class MemoryPlannerTraceTest : public testing::TestWithParam<Trace> {};

TEST_P(MemoryPlannerTraceTest, PlanIsValidNoWorseThanGreedyAndNearTheLowerBound) {
  const auto buffers = ReadTrace(std::string(ACLSIM_TRACE_DIR) + "/" + GetParam().file);
  ASSERT_FALSE(buffers.empty());
  PlanOptions options;
  options.search_nodes = GetParam().search_nodes;
  const Plan plan = PlanOk(buffers, options);
  auto greedy = GreedyBySize(buffers);
  ASSERT_TRUE(greedy.ok());
  EXPECT_TRUE(ValidatePlan(buffers, greedy->offsets).ok());
  EXPECT_LE(plan.arena, greedy->arena);
  EXPECT_EQ(plan.lower_bound, LowerBound(buffers));
  EXPECT_GE(plan.arena, plan.lower_bound);
  const double ratio = static_cast<double>(plan.arena) / static_cast<double>(plan.lower_bound);
  std::printf("%s: arena/lb %.4f, greedy %.4f, %s\n", GetParam().file, ratio,
              static_cast<double>(greedy->arena) / static_cast<double>(plan.lower_bound),
              plan.strategy.c_str());
  EXPECT_LE(ratio, GetParam().max_ratio);
}

INSTANTIATE_TEST_SUITE_P(Shared, MemoryPlannerTraceTest,
                         testing::Values(Trace{"somas/resnet50.csv", 1.0, kDefaultNodes},
                                         Trace{"somas/tiny_bert.csv", 1.0, kDefaultNodes},
                                         Trace{"somas/bert_base.csv", 1.0, kDefaultNodes},
                                         Trace{"somas/pangu_2.6B.csv", 1.0, kDefaultNodes},
                                         Trace{"challenging/A.1048576.csv", 1.09, 5000},
                                         Trace{"challenging/B.1048576.csv", 1.09, 5000},
                                         Trace{"challenging/C.1048576.csv", 1.0, 5000},
                                         Trace{"challenging/D.1048576.csv", 1.14, 5000},
                                         Trace{"challenging/E.1048576.csv", 1.23, 5000},
                                         Trace{"challenging/F.1048576.csv", 1.16, 5000}),
                         [](const testing::TestParamInfo<Trace>& info) {
                           std::string name = info.param.file;
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(MemoryPlannerTest, SamePlanOnEveryRun) {
  const auto buffers = ReadTrace(std::string(ACLSIM_TRACE_DIR) + "/challenging/A.1048576.csv");
  PlanOptions options;
  options.search_nodes = 5000;
  const Plan first = PlanOk(buffers, options);
  const Plan second = PlanOk(buffers, options);
  EXPECT_EQ(first.offsets, second.offsets);
  EXPECT_EQ(first.arena, second.arena);
  EXPECT_EQ(first.strategy, second.strategy);
}

}  // namespace
}  // namespace aclsim::core
