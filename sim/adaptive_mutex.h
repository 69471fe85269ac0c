// AdaptiveMutex: a mutex that spins briefly before it sleeps (glibc's adaptive pthread
// mutex). The scheduler's lock is held for short sections by an API thread and a worker in
// turn; with a plain mutex the waiter sleeps and pays a wake-up each time.
//
// A Lockable (lock / try_lock / unlock) for std::unique_lock; waits use
// std::condition_variable_any.
#pragma once

#include <pthread.h>

namespace aclsim::sim {

class AdaptiveMutex {
 public:
  AdaptiveMutex() {
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
#if defined(PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP) || defined(__GLIBC__)
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
#endif
    pthread_mutex_init(&mu_, &attr);
    pthread_mutexattr_destroy(&attr);
  }
  ~AdaptiveMutex() { pthread_mutex_destroy(&mu_); }
  AdaptiveMutex(const AdaptiveMutex&) = delete;
  AdaptiveMutex& operator=(const AdaptiveMutex&) = delete;

  void lock() { pthread_mutex_lock(&mu_); }
  bool try_lock() { return pthread_mutex_trylock(&mu_) == 0; }
  void unlock() { pthread_mutex_unlock(&mu_); }

 private:
  pthread_mutex_t mu_;
};

}  // namespace aclsim::sim
