// Profiling records: what one profiling run collected, as plain values.
//
// The runtime (src/core, src/api) fills a Trace while profiling is on (dfx/profiler.h);
// at the end of the run it is written as raw data (one JSON object per line, see
// prof_export.h) and the msprof-style outputs are generated from it. `msprof --export`
// reads the raw data back and regenerates the outputs.
//
// Times are simulated nanoseconds (the simulator's clock, the one aclrtEventElapsedTime
// reports): identical on any host at any load.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace aclsim::dfx::prof {

// One device task (a kernel, copy, memset, event record/wait/reset, host callback).
struct TaskRecord {
  uint32_t device_id = 0;
  uint32_t stream_id = 0;  // the device queue of the stream
  uint64_t task_id = 0;    // unique per device, in submission order
  // "KERNEL", "MEMCPY", "MEMCPY2D", "MEMSET", "EVENT_RECORD", "EVENT_WAIT", "EVENT_RESET",
  // "HOST_FUNC", "EXTERNAL".
  std::string kind;
  // Where it ran: "AI_CORE", "AI_VECTOR", "AI_CPU", "DMA" (copies, memsets), "STREAM"
  // (event tasks: the stream's scheduler), "HOST" (host callbacks).
  std::string engine;
  std::string op_type;    // kernels: CANN op type ("Add"); others: the API that made it
  std::string op_name;    // kernels of a model: the node name; else the op type
  uint32_t model_id = 0;  // model the task belongs to (0: none)
  // ready: the stream reached the task (its predecessor ended and it was submitted);
  // start - ready is time spent waiting (for an event record, or for a free engine);
  // end - start is the execution.
  uint64_t ready_ns = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint32_t blocks = 0;          // kernels: block dim
  uint64_t bytes = 0;           // copies/memsets: bytes; kernels: global-memory bytes read+written
  uint64_t flops = 0;           // kernels: cube + vector flops
  uint64_t cube_ns = 0;         // kernels: cube unit busy time (at the cores used)
  uint64_t vector_ns = 0;       // kernels: vector unit busy time
  uint32_t event_id = 0;        // event tasks: the event
  uint64_t correlation_id = 0;  // ApiRecord::id of the API call that launched it (0: none)
  bool failed = false;          // the task failed (exception)
};

// One host API call (aclrtMemcpyAsync, aclopExecuteV2, ...), on the thread that made it.
struct ApiRecord {
  uint64_t id = 0;  // > 0, unique in the run
  std::string name;
  uint64_t thread_id = 0;  // the OS thread id (gettid)
  uint64_t start_ns = 0;   // the thread's simulated host clock
  uint64_t end_ns = 0;
};

// A marker (aclprofMark, aclprofMarkEx) or a range (aclprofPush/Pop, RangeStart/Stop,
// RangePushEx/Pop): a range has end_ns >= start_ns, a marker end_ns == start_ns.
struct MarkRecord {
  std::string message;
  uint64_t thread_id = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  bool range = false;
  int64_t stream_id = -1;  // aclprofMarkEx: the stream's queue; else -1
  uint32_t device_id = 0;
};

// Device memory after an allocation or free (counter tracks): in use, held from the driver,
// held but free (neither in use nor waiting for in-flight tasks), and the largest free block.
// Fragmentation = 1 - largest_free / bytes_free (0 when nothing is free).
struct MemoryRecord {
  uint32_t device_id = 0;
  uint64_t ns = 0;  // the allocating thread's simulated host clock
  uint64_t bytes_in_use = 0;
  uint64_t bytes_reserved = 0;
  uint64_t bytes_free = 0;
  uint64_t largest_free = 0;
  double fragmentation() const {
    return bytes_free == 0
               ? 0.0
               : 1.0 - static_cast<double>(largest_free) / static_cast<double>(bytes_free);
  }
};

// Facts about the run.
struct RunInfo {
  std::string soc_version;  // "Ascend910B2"
  uint32_t pid = 0;
  std::string command;       // the program (argv[0]) when known
  std::string start_time;    // wall clock at the start, "YYYY-MM-DD hh:mm:ss"
  uint64_t aic_metrics = 1;  // aclprofAicoreMetrics of the config
  uint64_t data_types = 0;   // ACL_PROF_* bits of the config
};

struct Trace {
  RunInfo info;
  std::vector<TaskRecord> tasks;
  std::vector<ApiRecord> apis;
  std::vector<MarkRecord> marks;
  std::vector<MemoryRecord> memory;
};

}  // namespace aclsim::dfx::prof
