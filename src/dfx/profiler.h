// Profiler: the records of the current profiling run (dfx/prof_records.h).
//
// One per process. While active, the runtime adds a record for every traced device task, every
// API call, marker, range and device-memory change; Stop ends collection (the records are
// kept) and Take hands them over to be written (prof_export.h). Who switches profiling on
// (aclprofStart, the aclInit JSON "profiler" key, PROFILING_MODE) is the API layer's business.
//
// Thread-safety: every method may be called concurrently; active() is one relaxed atomic
// load, so the hot paths test it first.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "common/status.h"
#include "dfx/prof_records.h"

namespace aclsim::dfx::prof {

class Profiler {
 public:
  static Profiler& Get();

  bool active() const { return Active(); }
  // The same, without touching the instance (no guard of a function-local static): for hot
  // paths (every API call checks it).
  static bool Active() { return active_.load(std::memory_order_relaxed); }
  // Starts a run with `info` (kProfAlreadyRun if one is active). Records of an earlier run
  // that were not taken are dropped.
  Status Start(const RunInfo& info);
  // Ends collection; the records stay until Take.
  void Stop();
  // The records of the last run (the trace is left empty).
  Trace Take();

  // Record adders: no-ops while not active.
  void AddTask(TaskRecord record);
  void AddApi(ApiRecord record);
  void AddMark(MarkRecord record);
  void AddMemory(MemoryRecord record);

  // Model subscriptions (aclprofModelSubscribe): the kernels of a subscribed model are traced
  // whether or not a run is active, and their records kept for the subscriber until taken.
  void Subscribe(uint32_t model_id);
  void Unsubscribe(uint32_t model_id);
  bool subscribed_any() const { return subscriptions_.load(std::memory_order_relaxed) > 0; }
  bool IsSubscribed(uint32_t model_id);
  std::vector<TaskRecord> TakeSubscribed(uint32_t model_id);

  // A fresh API call id (> 0).
  uint64_t NextApiId() { return next_api_id_.fetch_add(1, std::memory_order_relaxed); }
  // A copy of `text` that lives as long as the process (labels of traced tasks outlive the
  // kernels that owned them). Null stays null.
  const char* Intern(const char* text);

 private:
  static std::atomic<bool> active_;  // one profiler per process
  std::atomic<uint64_t> next_api_id_{1};
  std::mutex mu_;
  Trace trace_;
  std::atomic<int> subscriptions_{0};
  std::map<uint32_t, std::vector<TaskRecord>> subscribed_;  // model id -> records not taken
  std::mutex intern_mu_;
  std::unordered_set<std::string> interned_;
};

// The id of the API call the calling thread is in (0: none); set by the API layer around each
// call while profiling, read by the core when it launches a task.
uint64_t CurrentApiCall();
void SetCurrentApiCall(uint64_t id);

// The calling thread's OS id (gettid).
uint64_t OsThreadId();

}  // namespace aclsim::dfx::prof
