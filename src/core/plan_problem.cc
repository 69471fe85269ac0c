// The planner's problem: input checks, the compressed time axis, the conflict graph.
#include "core/plan_problem.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <limits>
#include <queue>

namespace aclsim::core::plan {
namespace {

uint64_t RoundUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// Calls visit(a, b) once for every pair of non-zero-size buffers whose lifetimes overlap.
// A sweep by start time keeps the live set; a heap by end time retires buffers.
template <typename Visit>
void ForEachConflict(const Problem& problem, const std::vector<uint32_t>& by_lower, Visit&& visit) {
  using Ending = std::pair<int64_t, uint32_t>;
  std::priority_queue<Ending, std::vector<Ending>, std::greater<>> ending;
  std::vector<uint32_t> live;
  std::vector<uint32_t> slot(problem.count());
  for (const uint32_t b : by_lower) {
    while (!ending.empty() && ending.top().first <= problem.lower[b]) {
      const uint32_t gone = ending.top().second;
      ending.pop();
      const uint32_t moved = live.back();
      live[slot[gone]] = moved;
      slot[moved] = slot[gone];
      live.pop_back();
    }
    for (const uint32_t other : live) visit(other, b);
    slot[b] = static_cast<uint32_t>(live.size());
    live.push_back(b);
    ending.emplace(problem.upper[b], b);
  }
}

}  // namespace

Status BuildProblem(const std::vector<PlanBuffer>& buffers, uint64_t alignment, Problem* problem) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    return Err(StatusCode::kInvalidParam, "alignment {} is not a power of two", alignment);
  }
  if (buffers.size() >= std::numeric_limits<uint32_t>::max()) {
    return Err(StatusCode::kInvalidParam, "{} buffers are more than the planner takes",
               buffers.size());
  }
  const size_t n = buffers.size();
  problem->lower.resize(n);
  problem->upper.resize(n);
  problem->size.resize(n);
  problem->total = 0;
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  for (size_t i = 0; i < n; ++i) {
    const PlanBuffer& b = buffers[i];
    if (b.lower < 0 || b.upper <= b.lower) {
      return Err(StatusCode::kInvalidParam,
                 "buffer {} has lifetime [{}, {}): need 0 <= lower < upper", b.id, b.lower,
                 b.upper);
    }
    if (b.size > kMax - (alignment - 1)) {
      return Err(StatusCode::kInvalidParam, "buffer {} size {} overflows", b.id, b.size);
    }
    const uint64_t size = RoundUp(b.size, alignment);
    if (size > kMax - problem->total) {
      return Err(StatusCode::kInvalidParam, "the sizes overflow 64 bits at buffer {}", b.id);
    }
    problem->lower[i] = b.lower;
    problem->upper[i] = b.upper;
    problem->size[i] = size;
    problem->total += size;
  }

  // Peak of live bytes: ends before starts at equal times (lifetimes are half-open).
  std::vector<std::pair<int64_t, int64_t>> events;  // (time, +/-(index + 1))
  events.reserve(2 * n);
  for (size_t i = 0; i < n; ++i) {
    if (problem->size[i] == 0) continue;
    const auto signed_index = static_cast<int64_t>(i) + 1;
    events.emplace_back(problem->lower[i], signed_index);
    events.emplace_back(problem->upper[i], -signed_index);
  }
  std::sort(events.begin(), events.end());
  uint64_t live = 0;
  problem->lower_bound = 0;
  // The sections: a new one starts at every distinct time of an event.
  problem->first_section.assign(n, 0);
  problem->end_section.assign(n, 0);
  uint32_t section = 0;
  for (size_t e = 0; e < events.size(); ++e) {
    const auto& [time, signed_index] = events[e];
    if (e > 0 && time != events[e - 1].first) ++section;
    const auto i = static_cast<size_t>(std::abs(signed_index) - 1);
    if (signed_index > 0) {
      live += problem->size[i];
      problem->lower_bound = std::max(problem->lower_bound, live);
      problem->first_section[i] = section;
    } else {
      live -= problem->size[i];
      problem->end_section[i] = section;
    }
  }
  problem->sections = events.empty() ? 0 : section;  // the last time starts no section
  problem->adj_begin.clear();
  problem->adj.clear();
  return Status::Ok();
}

void BuildConflicts(Problem* problem) {
  const size_t n = problem->count();
  std::vector<uint32_t> by_lower;
  by_lower.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (problem->size[i] != 0) by_lower.push_back(static_cast<uint32_t>(i));
  }
  // Two sweeps: count, then fill.
  std::stable_sort(by_lower.begin(), by_lower.end(), [problem](uint32_t a, uint32_t b) {
    return problem->lower[a] < problem->lower[b];
  });
  std::vector<size_t> degree(n + 1, 0);
  ForEachConflict(*problem, by_lower, [&degree](uint32_t a, uint32_t b) {
    ++degree[a];
    ++degree[b];
  });
  problem->adj_begin.assign(n + 1, 0);
  for (size_t i = 0; i < n; ++i) problem->adj_begin[i + 1] = problem->adj_begin[i] + degree[i];
  problem->adj.resize(problem->adj_begin[n]);
  std::vector<size_t> fill(problem->adj_begin.begin(), problem->adj_begin.end() - 1);
  ForEachConflict(*problem, by_lower, [problem, &fill](uint32_t a, uint32_t b) {
    problem->adj[fill[a]++] = b;
    problem->adj[fill[b]++] = a;
  });
}

uint64_t ArenaOf(const Problem& problem, const std::vector<uint64_t>& offsets) {
  uint64_t arena = 0;
  for (size_t i = 0; i < problem.count(); ++i) {
    if (problem.size[i] != 0) arena = std::max(arena, offsets[i] + problem.size[i]);
  }
  return arena;
}

std::vector<uint64_t> LivePerSection(const Problem& problem) {
  std::vector<uint64_t> up(problem.sections + 1, 0), down(problem.sections + 1, 0);
  for (size_t i = 0; i < problem.count(); ++i) {
    up[problem.first_section[i]] += problem.size[i];
    down[problem.end_section[i]] += problem.size[i];
  }
  std::vector<uint64_t> live(problem.sections);
  uint64_t bytes = 0;
  for (size_t s = 0; s < problem.sections; ++s) {
    bytes = bytes + up[s] - down[s];
    live[s] = bytes;
  }
  return live;
}

}  // namespace aclsim::core::plan
