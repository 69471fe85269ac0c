// SpinLock: a lock for short critical sections on hot paths (aclrtMalloc / aclrtFree).
//
// Uncontended, lock() is one atomic exchange and unlock() one release store: about half the
// cost of a pthread mutex, which needs an atomic read-modify-write on both sides. A waiter
// spins briefly (with a CPU pause) and then yields the processor between tries, so a holder
// that is slow now and then (a call into the driver) costs the waiters CPU time, not
// correctness. Not fair; not recursive.
//
// A Lockable for std::lock_guard / std::unique_lock.
#pragma once

#include <atomic>
#include <thread>

namespace aclsim {

class SpinLock {
 public:
  void lock() {
    if (__builtin_expect(!locked_.exchange(true, std::memory_order_acquire), 1)) return;
    LockContended();
  }
  bool try_lock() {
    return !locked_.load(std::memory_order_relaxed) &&
           !locked_.exchange(true, std::memory_order_acquire);
  }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  static constexpr int kSpinsBeforeYield = 128;
  // Out of line, so that lock() inlines as one exchange and a branch.
  [[gnu::noinline]] void LockContended() {
    for (int spins = 0;; ++spins) {
      // Wait on a plain load (no cache-line ping-pong), then try again.
      while (locked_.load(std::memory_order_relaxed)) {
        if (spins < kSpinsBeforeYield) {
          Pause();
          ++spins;
        } else {
          std::this_thread::yield();
        }
      }
      if (!locked_.exchange(true, std::memory_order_acquire)) return;
    }
  }
  static void Pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield" ::: "memory");
#endif
  }
  std::atomic<bool> locked_{false};
};

}  // namespace aclsim
