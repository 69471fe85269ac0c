// Tasks: the plain values submitted to a hardware queue.
//
// A task is a kind plus its arguments. The core builds tasks from API calls; a backend
// executes them (functionally, on its own threads) and gives each a simulated duration
// from its cost model. Because tasks are values, a stream in capture mode can later record
// them instead of submitting them, and a model is simply a list of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace aclsim::driver {

enum class TaskKind {
  kMemcpy,       // 1-D copy of `bytes` from src to dst
  kMemcpy2d,     // 2-D copy: height rows of width bytes, with pitches
  kMemset,       // fill `bytes` at dst with byte `value`
  kEventRecord,  // record `event` (timestamp = simulated completion of preceding work)
  kEventWait,    // wait for the latest record of `event` submitted before this wait
  kEventReset,   // reset `event` to the not-recorded state
  kHostFunc,     // run `host_fn` on a backend thread; completes when it returns
  kExternal,     // call `external_start(task_id)` when ready; completes on CompleteExternal
  kKernel,       // run `host_fn` as a kernel's functional body on `engine` with `blocks`
};

// Direction of a copy; picks the DMA engine and the bandwidth of the cost model.
enum class CopyDir {
  kHostToHost,
  kHostToDevice,
  kDeviceToHost,
  kDeviceToDevice,  // same device
  kPeerToPeer,      // device to another device
};

// Compute engines a kernel may run on.
enum class Engine { kAiCore, kAiVector, kAiCpu };

struct Task {
  TaskKind kind = TaskKind::kMemcpy;

  // kMemcpy / kMemcpy2d / kMemset
  void* dst = nullptr;
  const void* src = nullptr;
  size_t bytes = 0;   // kMemcpy/kMemset: bytes; kMemcpy2d: width * height
  size_t dpitch = 0;  // kMemcpy2d
  size_t spitch = 0;  // kMemcpy2d
  size_t width = 0;   // kMemcpy2d
  size_t height = 0;  // kMemcpy2d
  int value = 0;      // kMemset byte value
  CopyDir dir = CopyDir::kHostToDevice;

  // kEventRecord / kEventWait / kEventReset
  uint32_t event = 0;
  // kEventWait: the event may belong to another device of the same backend.
  uint32_t event_device = 0;

  // kHostFunc / kKernel: functional body. kExternal: called with the task id when the
  // task becomes ready (its predecessors are done); must not block.
  std::function<void()> host_fn;
  std::function<void(uint64_t task_id)> external_start;

  // kKernel: where it runs and its size (cost model inputs; see issue "simulator").
  Engine engine = Engine::kAiCore;
  uint32_t blocks = 1;
  uint64_t flops = 0;
  uint64_t bytes_moved = 0;

  // Free-form label for logs and profiles (API name, op name).
  const char* label = "";
};

}  // namespace aclsim::driver
