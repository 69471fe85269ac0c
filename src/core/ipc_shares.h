// The allocations of a device exported by IPC (aclrtIpcMemGetExportKey), and what freeing them
// does. The backend shares a whole allocation of its own (a segment of the caching allocator,
// which may hold several blocks); an importer maps it. A freed exported block must never be
// handed out again while an importer could still write it, so it is retired instead: kept out
// of the allocator until no block of its segment is exported any more, when the segment is
// unshared (private pages again; the importers keep the shared ones) and every retired block
// of it is freed for real. docs/errors.md, "Hostile input", IPC.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <vector>

namespace aclsim::core {

class IpcShares {
 public:
  // Block `base` of the backend allocation at `segment` was exported (idempotent).
  void Exported(void* base, uintptr_t segment) {
    std::lock_guard<std::mutex> lock(mu_);
    Segment& s = segments_[segment];
    if (s.live.insert(base).second) blocks_.emplace(base, segment);
    any_.store(true, std::memory_order_release);
  }
  // True if any block of the device was ever exported (the free fast path's one check).
  bool any() const { return any_.load(std::memory_order_acquire); }

  struct FreePlan {
    bool exported = false;       // `ptr` is (or was) an exported block: do not free it now
    bool already_freed = false;  // it was retired before: a double free
    uintptr_t segment = 0;       // to unshare, when `release` is not empty
    std::vector<void*> release;  // the retired blocks to free for real now
  };
  // What aclrtFree(ptr) must do.
  FreePlan OnFree(void* ptr) {
    FreePlan plan;
    std::lock_guard<std::mutex> lock(mu_);
    auto block = blocks_.find(ptr);
    if (block == blocks_.end()) return plan;
    plan.exported = true;
    Segment& s = segments_[block->second];
    if (s.live.erase(ptr) == 0) {
      plan.already_freed = true;
      return plan;
    }
    s.retired.push_back(ptr);
    if (!s.live.empty()) return plan;
    plan.segment = block->second;
    plan.release = std::move(s.retired);
    for (void* p : plan.release) blocks_.erase(p);
    segments_.erase(plan.segment);
    return plan;
  }
  // Forgets everything (the device is released: its memory goes with it).
  void Clear() {
    std::lock_guard<std::mutex> lock(mu_);
    segments_.clear();
    blocks_.clear();
  }

 private:
  struct Segment {
    std::set<void*> live;        // exported blocks not freed yet
    std::vector<void*> retired;  // exported blocks freed by the program, still held
  };
  std::mutex mu_;
  std::atomic<bool> any_{false};
  std::map<uintptr_t, Segment> segments_;
  std::map<void*, uintptr_t> blocks_;  // every exported block (live or retired) -> its segment
};

}  // namespace aclsim::core
