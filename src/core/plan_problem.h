// The MemoryPlanner's internal view of its input (private to src/core/memory_planner*.cc and
// plan_*.cc; not part of the planner's API).
//
// A Problem holds the lifetimes, the sizes rounded up to the alignment, and the conflict
// graph: for every buffer the buffers whose lifetimes overlap its own, in compressed sparse
// rows. Zero-size buffers have no conflicts (they occupy no bytes) and are placed at 0.
// Memory: O(n + conflicting pairs); time to build: O(n log n + conflicting pairs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/memory_planner.h"

namespace aclsim::core::plan {

struct Problem {
  std::vector<int64_t> lower;
  std::vector<int64_t> upper;
  std::vector<uint64_t> size;     // rounded up to the alignment
  std::vector<size_t> adj_begin;  // n + 1 entries: buffer i's conflicts are
  std::vector<uint32_t> adj;      // adj[adj_begin[i] .. adj_begin[i + 1])
  uint64_t lower_bound = 0;
  uint64_t total = 0;

  size_t count() const { return size.size(); }
  const uint32_t* ConflictsBegin(size_t i) const { return adj.data() + adj_begin[i]; }
  const uint32_t* ConflictsEnd(size_t i) const { return adj.data() + adj_begin[i + 1]; }
};

// Checks the input (lifetimes, alignment, size overflow) and builds the problem.
Status BuildProblem(const std::vector<PlanBuffer>& buffers, uint64_t alignment, Problem* problem);

// How a buffer chooses among the gaps it fits in.
enum class Fit {
  kFirst,  // the lowest gap (TFLite's greedy by size)
  kBest,   // the smallest gap; the lowest of equal ones; on top if none fits
};

// Places the buffers one by one in `order` (indices into the problem; every non-zero-size
// buffer exactly once), each in a gap among the already placed buffers it conflicts with.
// Writes offsets[i] for every buffer in `order` and returns the arena. `scratch` is reused
// between calls to avoid allocation.
uint64_t PlaceInOrder(const Problem& problem, const std::vector<uint32_t>& order, Fit fit,
                      std::vector<uint64_t>* offsets,
                      std::vector<std::pair<uint64_t, uint64_t>>* scratch);

// The arena of a complete assignment: max(offset + size).
uint64_t ArenaOf(const Problem& problem, const std::vector<uint64_t>& offsets);

// Branch and bound over canonical placements (buffers placed in non-decreasing offset
// order, each on top of the buffers below it), looking for a plan whose arena is at most
// `capacity`. Visits at most `*node_budget` search nodes and subtracts the nodes it used.
// Returns true and fills `offsets` when it finds one; false when it proves there is none or
// runs out of nodes.
bool SearchWithin(const Problem& problem, uint64_t capacity, uint64_t* node_budget,
                  std::vector<uint64_t>* offsets);

}  // namespace aclsim::core::plan
