// MemoryPlanner: offsets for buffers with known lifetimes in one arena (issue 6, item 3).
//
// The model loader knows, for every intermediate tensor and op workspace, the first and the
// last task that uses it. Two buffers whose lifetimes overlap may not overlap in memory;
// buffers that are never live together may share bytes. PlanMemory picks an offset for each
// buffer so that the arena (the highest end of any buffer) is as small as it can find.
//
// Figures of a plan:
//   arena        max(offset + size), rounded up to the alignment;
//   lower_bound  the peak, over time, of the live bytes: no plan can have a smaller arena;
//   total        the sum of all sizes: the arena of a plan without any reuse.
//
// The search is deterministic: it is bounded by a count of search steps, never by wall-clock
// time, so one input gives the same plan on every host. See docs/memory-planner.md for the
// algorithm and its figures on the shared traces.
//
// Thread-safety: every function is pure (no shared state); calls may run concurrently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace aclsim::core {

// One buffer: live over the half-open step interval [lower, upper), `size` bytes.
// `id` is the caller's name for it; the planner only echoes it in messages.
struct PlanBuffer {
  int64_t id = 0;
  int64_t lower = 0;
  int64_t upper = 0;
  uint64_t size = 0;
};

struct PlanOptions {
  // Every offset is a multiple of this (a power of two, >= 1), and every size counts as
  // rounded up to it. The loader passes 64 or 512.
  uint64_t alignment = 1;
  // The work bound of the improvement search (branch and bound over canonical placements),
  // in search nodes. 0 turns the search off (heuristic orderings only). The search runs only
  // while the best heuristic plan is above the lower bound and the input has at most
  // `search_max_buffers` buffers.
  uint64_t search_nodes = 100'000;
  size_t search_max_buffers = 2000;
};

struct Plan {
  std::vector<uint64_t> offsets;  // one per input buffer, in input order
  uint64_t arena = 0;
  uint64_t lower_bound = 0;
  uint64_t total = 0;
  std::string strategy;  // which ordering or search produced the plan (for reports)
};

// The best plan the planner finds. It is never larger than GreedyBySize's on the same input.
// Errors: kInvalidParam when a buffer has upper <= lower or a negative bound, when the
// alignment is not a power of two, or when the sizes overflow 64 bits; the message names
// the buffer by id.
Result<Plan> PlanMemory(const std::vector<PlanBuffer>& buffers, const PlanOptions& options = {});

// The baseline: TFLite's greedy-by-size planner. Buffers in order of decreasing size (ties:
// input order); each goes to the lowest offset where it fits among the already placed
// buffers whose lifetimes overlap its own (first fit). Same errors as PlanMemory.
Result<Plan> GreedyBySize(const std::vector<PlanBuffer>& buffers, uint64_t alignment = 1);

// The peak of live bytes (sizes rounded up to `alignment`); assumes valid lifetimes.
uint64_t LowerBound(const std::vector<PlanBuffer>& buffers, uint64_t alignment = 1);

// Checks a plan: one offset per buffer, and no two buffers that are live at the same time
// overlap in memory (zero-size buffers overlap nothing). On failure returns kInvalidParam
// naming the first offending pair (in time order) and, if `conflict` is not null, stores
// their input indices there.
struct PlanConflict {
  size_t first = 0;
  size_t second = 0;
};
Status ValidatePlan(const std::vector<PlanBuffer>& buffers, const std::vector<uint64_t>& offsets,
                    PlanConflict* conflict = nullptr);

}  // namespace aclsim::core
