// TaskPool: recycled memory for the scheduler's task records.
//
// A SimTask (with its shared_ptr control block) is allocated by the submitting thread and
// released in batches by a host call after a worker completed it (the device's graveyard).
// glibc's per-thread cache keeps only a few blocks of a size, so batches of that size would
// go through its arena each time; this pool keeps up to kMaxFree blocks on a free list.
//
// PoolAllocator<T> is an allocator for std::allocate_shared over the process-wide pool; every
// allocation of one size class (the control block with the task) is served from it, others
// fall through to operator new.
//
// Thread-safety: all functions may be called concurrently (a SpinLock around the list).
#pragma once

#include <cstddef>
#include <mutex>
#include <new>

#include "common/spin_lock.h"

namespace aclsim::sim {

class TaskPool {
 public:
  static constexpr size_t kMaxFree = 4096;

  // The pool for blocks of `bytes` (one size per process: the first caller's).
  static TaskPool& Instance() {
    static TaskPool* pool = new TaskPool();  // never destroyed: tasks may outlive statics
    return *pool;
  }

  void* Allocate(size_t bytes) {
    if (bytes <= kBlockBytes) {
      std::lock_guard<SpinLock> lock(mu_);
      if (free_ != nullptr) {
        Node* node = free_;
        free_ = node->next;
        --free_count_;
        return node;
      }
    }
    return ::operator new(bytes <= kBlockBytes ? kBlockBytes : bytes);
  }
  void Deallocate(void* ptr, size_t bytes) {
    if (bytes <= kBlockBytes) {
      std::lock_guard<SpinLock> lock(mu_);
      if (free_count_ < kMaxFree) {
        auto* node = static_cast<Node*>(ptr);
        node->next = free_;
        free_ = node;
        ++free_count_;
        return;
      }
    }
    ::operator delete(ptr);
  }

 private:
  // Large enough for a SimTask with its control block (checked where it is used).
  static constexpr size_t kBlockBytes = 1024;
  struct Node {
    Node* next;
  };
  SpinLock mu_;
  Node* free_ = nullptr;
  size_t free_count_ = 0;
};

template <typename T>
struct PoolAllocator {
  using value_type = T;
  PoolAllocator() = default;
  template <typename U>
  PoolAllocator(const PoolAllocator<U>& /*other*/) {}  // NOLINT(google-explicit-constructor)
  T* allocate(size_t n) { return static_cast<T*>(TaskPool::Instance().Allocate(n * sizeof(T))); }
  void deallocate(T* ptr, size_t n) { TaskPool::Instance().Deallocate(ptr, n * sizeof(T)); }
  template <typename U>
  bool operator==(const PoolAllocator<U>& /*other*/) const {
    return true;
  }
  template <typename U>
  bool operator!=(const PoolAllocator<U>& /*other*/) const {
    return false;
  }
};

}  // namespace aclsim::sim
