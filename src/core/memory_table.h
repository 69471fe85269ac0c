// MemoryTable: the live allocations of one address space (a device, or pinned host memory).
//
// Answers "is [ptr, ptr+bytes) inside one live allocation?" in O(log n), so copies and
// memsets can refuse freed pointers and out-of-bounds ranges before any byte moves.
//
// Thread-safety: all methods may be called concurrently.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string_view>

namespace aclsim::core {

// The memory an allocation came from (aclrtGetMemUsageInfo's regions).
enum class MemRegion : uint8_t { kHbm, kDdr, kCount };
const char* MemRegionName(MemRegion region);

// Bytes taken from a region now and at most so far.
struct RegionUsage {
  size_t current = 0;
  size_t peak = 0;
};

struct Allocation {
  void* base = nullptr;
  size_t size = 0;       // bytes the user asked for (usable size)
  size_t reserved = 0;   // bytes taken from the pool (rounded)
  uint32_t policy = 0;   // aclrtMemMallocPolicy bits as given
  const char* api = "";  // the API call that made it (for leak reports)
  MemRegion region = MemRegion::kHbm;
  size_t page_bytes = 4096;  // page size backing it
};

class MemoryTable {
 public:
  void Insert(const Allocation& allocation);
  // Removes the allocation starting exactly at `base`.
  std::optional<Allocation> Erase(const void* base);
  // The allocation containing the whole range [ptr, ptr+bytes) (bytes may be 0).
  std::optional<Allocation> Find(const void* ptr, size_t bytes) const;
  // Find for `n` ranges under one lock: the index of the first range that is not inside an
  // allocation, or n if all are.
  size_t FindAll(const void* const* ptrs, const size_t* bytes, size_t n) const;
  // Find across adjacent allocations made by `api` (aclrtMapMem: chunks mapped side by side
  // in a reserved range are one region, as they are on the device): the run of allocations
  // from the one containing ptr, each starting where the last ends, that covers the range.
  // Returns the run as one allocation (the first's fields, the run's size).
  std::optional<Allocation> FindRun(const void* ptr, size_t bytes, std::string_view api) const;
  // The allocation containing `ptr`, if any (for error messages).
  std::optional<Allocation> FindContaining(const void* ptr) const;
  size_t Count() const;
  size_t UsedBytes() const;
  // Reserved bytes of `region`: now and the peak since the table was created.
  RegionUsage Usage(MemRegion region) const;
  // Visits every allocation (under the table lock; do not call back into the table).
  void ForEach(const std::function<void(const Allocation&)>& visit) const;
  // Removes and returns everything.
  std::map<uintptr_t, Allocation> TakeAll();

 private:
  std::optional<Allocation> FindContainingLocked(const void* ptr) const;
  mutable std::mutex mu_;
  std::map<uintptr_t, Allocation> by_base_;
  size_t used_ = 0;
  std::array<RegionUsage, static_cast<size_t>(MemRegion::kCount)> regions_{};
};

}  // namespace aclsim::core
