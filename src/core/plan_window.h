// The peak window: an exact plan for the buffers around the peak of live bytes, the rest
// placed around it (private to the MemoryPlanner's sources; docs/memory-planner.md).
//
// At the peak every live buffer must tile [0, lower bound) exactly, and the constraints that
// make greedy orders miss that are local: a buffer born just after the peak fits only where
// two that die just before it lay, so those must be neighbours. The window is some sections
// on either side of the peak. Its buffers that live through the whole window can go to the
// bottom of the arena, stacked in any order (in any plan of the window, moving such a buffer
// to offset 0 and shifting up everything that was below it keeps the plan valid: they all
// conflict with it, so they lay wholly below it). That leaves a handful of buffers whose
// lifetimes start or end inside the window: the search (plan_search) places them exactly on
// top of that base, within the lower bound, in a few hundred nodes. Outside the window the
// live bytes usually stay below the peak; there the other buffers are placed around the fixed
// ones by first fit (which may or may not fit them within the bound).
#pragma once

#include <cstdint>
#include <vector>

#include "core/plan_place.h"
#include "core/plan_problem.h"

namespace aclsim::core::plan {

// Tries to beat `*arena` this way; `order` is an ordering of all non-zero-size buffers (the
// ones outside the window are placed in it). Uses at most `*node_budget` search nodes and
// subtracts those it used. Returns true and replaces *arena and *offsets when the plan it
// finds is smaller.
bool PlanAroundPeak(const Problem& problem, Placer* placer, const std::vector<uint32_t>& order,
                    uint64_t* node_budget, uint64_t* arena, std::vector<uint64_t>* offsets);

}  // namespace aclsim::core::plan
