// RangeAllocator: first-fit allocation of aligned ranges of offsets in [0, capacity).
//
// Bookkeeping only (no memory is touched): DeviceMemory uses one per pool and maps the
// offsets onto its reserved address range. Free ranges are kept sorted by offset and
// coalesced with their neighbours on release, so freeing everything restores one range.
//
// Thread-safety: none; the owner serialises calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>

namespace aclsim::sim {

class RangeAllocator {
 public:
  explicit RangeAllocator(uint64_t capacity);

  // Finds the lowest offset aligned to `alignment` (a power of two) with `size` free bytes,
  // marks it used and returns it; nullopt if no free range fits. `size` > 0.
  std::optional<uint64_t> Allocate(uint64_t size, uint64_t alignment);
  // Releases the range starting at `offset`; returns its size, or 0 if `offset` is not the
  // start of a live allocation (nothing changes then).
  uint64_t Release(uint64_t offset);

  uint64_t capacity() const { return capacity_; }
  uint64_t used_bytes() const { return used_; }
  uint64_t free_bytes() const { return capacity_ - used_; }
  uint64_t largest_free_range() const;
  size_t free_range_count() const { return free_.size(); }
  size_t allocation_count() const { return used_ranges_.size(); }

 private:
  uint64_t capacity_;
  uint64_t used_ = 0;
  std::map<uint64_t, uint64_t> free_;         // offset -> size, disjoint, never adjacent
  std::map<uint64_t, uint64_t> used_ranges_;  // offset -> size
};

}  // namespace aclsim::sim
