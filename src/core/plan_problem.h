// The MemoryPlanner's internal view of its input (private to src/core/memory_planner*.cc and
// plan_*.cc; not part of the planner's API).
//
// A Problem holds the lifetimes, the sizes rounded up to the alignment, and the lifetimes on
// a compressed time axis (sections: the stretches between consecutive distinct bounds).
// Memory and time to build: O(n log n). The conflict graph (for every buffer the buffers
// whose lifetimes overlap its own, in compressed sparse rows; O(conflicting pairs)) is built
// only on request, for the search on small inputs. Zero-size buffers have no conflicts
// (they occupy no bytes) and are placed at 0.
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
  std::vector<uint64_t> size;  // rounded up to the alignment
  // Buffer i lives over sections [first_section[i], end_section[i]) of `sections`.
  std::vector<uint32_t> first_section, end_section;
  uint32_t sections = 0;
  std::vector<size_t> adj_begin;  // after BuildConflicts, n + 1 entries: buffer i's
  std::vector<uint32_t> adj;      // conflicts are adj[adj_begin[i] .. adj_begin[i + 1])
  uint64_t lower_bound = 0;
  uint64_t total = 0;

  size_t count() const { return size.size(); }
  const uint32_t* ConflictsBegin(size_t i) const { return adj.data() + adj_begin[i]; }
  const uint32_t* ConflictsEnd(size_t i) const { return adj.data() + adj_begin[i + 1]; }
};

// Checks the input (lifetimes, alignment, size overflow) and builds the problem (without
// the conflict graph).
Status BuildProblem(const std::vector<PlanBuffer>& buffers, uint64_t alignment, Problem* problem);

// Fills problem->adj_begin and problem->adj. O(n log n + conflicting pairs).
void BuildConflicts(Problem* problem);

// The arena of a complete assignment: max(offset + size).
uint64_t ArenaOf(const Problem& problem, const std::vector<uint64_t>& offsets);

// The bytes live in each section (problem.sections entries).
std::vector<uint64_t> LivePerSection(const Problem& problem);

// Branch and bound over canonical placements (buffers placed in non-decreasing offset
// order, each on top of the buffers below it), looking for a plan whose arena is at most
// `capacity`. Visits at most `*node_budget` search nodes and subtracts the nodes it used.
// Returns true and fills `offsets` when it finds one; false when it proves there is none or
// runs out of nodes.
bool SearchWithin(const Problem& problem, uint64_t capacity, uint64_t* node_budget,
                  std::vector<uint64_t>* offsets);

}  // namespace aclsim::core::plan
