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
#include <memory>
#include <string>
#include <vector>

#include "common/inline_vector.h"
#include "common/status.h"

namespace aclsim::driver {

struct TaskFailure;  // driver.h

enum class TaskKind {
  kMemcpy,       // 1-D copy of `bytes` from src to dst
  kMemcpy2d,     // 2-D copy: height rows of width bytes, with pitches
  kMemset,       // fill `bytes` at dst with byte `value`
  kEventRecord,  // record `event` (timestamp = simulated completion of preceding work)
  kEventWait,    // wait for the latest record of `event` submitted before this wait (if none
                 // since creation or the last reset: for the next record)
  kEventReset,   // reset `event` to the not-recorded state
  kHostFunc,     // run `host_fn` on a backend thread; completes when it returns
  kExternal,     // call `external_start(task_id)` when ready; completes on CompleteExternal
  kKernel,       // run `host_fn` as a kernel's functional body on `engine` with `blocks`
  kSignal,       // update a 64-bit cell with `signal_op` and `signal_value`: the counter
                 // `event` (a notify, driver.h CreateCounter) or, if `dst` is set, the 8 bytes
                 // at `dst` (aclrtValueWrite)
  kWaitSignal,   // wait until the same kind of cell satisfies `wait_cmp` against
                 // `signal_value` (evaluated when the wait reaches the head of its queue and
                 // again whenever the cell may have changed); then, with `wait_clear`, set the
                 // cell to 0
};

// kSignal: how the cell changes.
enum class SignalOp : uint8_t { kSet, kAdd, kOr, kAnd };

// kWaitSignal: the condition on the cell x against the task's value v.
enum class WaitCmp : uint8_t {
  kGeq,        // (int64_t)(x - v) >= 0   (ACL_STREAM_WAIT_VALUE_GEQ)
  kEq,         // x == v
  kAnd,        // (x & v) != 0            (a notify waits with v = ~0: x != 0)
  kNor,        // ~(x | v) != 0
  kLess,       // x < v
  kGreater,    // x > v
  kGreaterEq,  // x >= v (unsigned)
  kMaskEq,     // (x & v) == v
};

// True if `x` satisfies `cmp` against `v`.
constexpr bool WaitSatisfied(WaitCmp cmp, uint64_t x, uint64_t v) {
  switch (cmp) {
    case WaitCmp::kGeq:
      return static_cast<int64_t>(x - v) >= 0;
    case WaitCmp::kEq:
      return x == v;
    case WaitCmp::kAnd:
      return (x & v) != 0;
    case WaitCmp::kNor:
      return ~(x | v) != 0;
    case WaitCmp::kLess:
      return x < v;
    case WaitCmp::kGreater:
      return x > v;
    case WaitCmp::kGreaterEq:
      return x >= v;
    case WaitCmp::kMaskEq:
      return (x & v) == v;
  }
  return false;
}

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

// Element type class of a kernel's main computation: picks the cube shape (int8: 16x32x16
// instead of 16x16x16) and the element size of vector work (bytes per element).
enum class DtypeClass { kFp16, kBf16, kFp32, kInt8 };

// Bytes of one element of a dtype class.
constexpr uint64_t DtypeClassBytes(DtypeClass dtype) {
  switch (dtype) {
    case DtypeClass::kInt8:
      return 1;
    case DtypeClass::kFp32:
      return 4;
    case DtypeClass::kFp16:
    case DtypeClass::kBf16:
      return 2;
  }
  return 2;
}

// A device buffer a kernel touches (for the TLB model: its page size is looked up in the
// device's page tables). Addresses the device does not own are ignored.
struct GmBuffer {
  const void* addr = nullptr;
  uint64_t bytes = 0;
};

// KernelWork: what a kernel states about its work, the input of the backend's cost model.
// Every op kernel fills one (the single-op layer computes it from shapes and tiling).
// All counts are totals over the whole kernel (all blocks); the model divides them evenly
// over `Task::blocks`. A zero field means "none of that work".
//
//  * FLOPs by unit (1 multiply-accumulate = 2 flops):
//      cube_flops    matrix work on the cube unit (AI Core): fp16/bf16, or int8 with dtype
//                    kInt8 (kFp32 is charged at the fp16 rate: no primary source for it);
//      vector_flops  element operations on the vector unit (one per element per operation);
//                    the element size comes from `dtype`;
//      scalar_ops    scalar-unit instructions (address arithmetic, loop control);
//      aicpu_elements elements processed by an AI CPU kernel (per-element cost model).
//  * Bytes by path:
//      gm_read_bytes / gm_write_bytes  unique traffic to/from global memory (HBM): the
//                    roofline's bytes and the HBM bandwidth shared with other tasks;
//      gm_to_l1_bytes  all bytes MTE2 loads into L1 (re-reads of tiles included; served at
//                    the L2 rate, the unique part is bounded by gm_read_bytes);
//      l1_to_l0a_bytes / l1_to_l0b_bytes  MTE1 traffic feeding the cube;
//      l0c_to_out_bytes  FixPipe traffic out of the cube's accumulator;
//      ub_bytes      on-chip traffic into/out of the unified buffer other than GM (L1/L0C<->UB).
//  * Pipelining: each block runs `pipeline_steps` (>= 1) iterations of its pipes; with
//    `double_buffered` the pipes overlap (time = sum of one step's pipes + (steps - 1) x the
//    slowest pipe), otherwise they run one after the other (time = steps x sum).
//  * buffers: the device buffers touched (optional; feeds the TLB model: without them no
//    TLB cost is charged).
struct KernelWork {
  DtypeClass dtype = DtypeClass::kFp16;
  uint64_t cube_flops = 0;
  uint64_t vector_flops = 0;
  uint64_t scalar_ops = 0;
  uint64_t aicpu_elements = 0;
  uint64_t gm_read_bytes = 0;
  uint64_t gm_write_bytes = 0;
  uint64_t gm_to_l1_bytes = 0;
  uint64_t l1_to_l0a_bytes = 0;
  uint64_t l1_to_l0b_bytes = 0;
  uint64_t l0c_to_out_bytes = 0;
  uint64_t ub_bytes = 0;
  uint32_t pipeline_steps = 1;
  bool double_buffered = true;
  InlineVector<GmBuffer, 8> buffers;

  // True if no work field is set (then the legacy Task::flops / bytes_moved are used).
  bool empty() const {
    return cube_flops == 0 && vector_flops == 0 && scalar_ops == 0 && aicpu_elements == 0 &&
           gm_read_bytes == 0 && gm_write_bytes == 0 && gm_to_l1_bytes == 0 &&
           l1_to_l0a_bytes == 0 && l1_to_l0b_bytes == 0 && l0c_to_out_bytes == 0 && ub_bytes == 0;
  }
};

struct Task {
  TaskKind kind = TaskKind::kMemcpy;

  // kMemcpy / kMemcpy2d / kMemset
  void* dst = nullptr;
  const void* src = nullptr;
  size_t bytes = 0;         // kMemcpy/kMemset: bytes; kMemcpy2d: width * height
  size_t dpitch = 0;        // kMemcpy2d
  size_t spitch = 0;        // kMemcpy2d
  size_t width = 0;         // kMemcpy2d
  size_t height = 0;        // kMemcpy2d
  int value = 0;            // kMemset byte value, or the 32-bit pattern when value_bytes is 4
  uint8_t value_bytes = 1;  // kMemset: 1 (bytes) or 4 (32-bit elements; bytes % 4 == 0)
  CopyDir dir = CopyDir::kHostToDevice;
  // What the task owns until it is destroyed: an async copy's staged source (the core copies
  // pageable host memory at enqueue, so `src` points into this).
  std::shared_ptr<const void> keep_alive;

  // kEventRecord / kEventWait / kEventReset
  uint32_t event = 0;
  // kEventWait: the event may belong to another device of the same backend.
  uint32_t event_device = 0;
  // kEventWait / kWaitSignal: wall-clock milliseconds the wait may block once it has reached
  // the head of its queue (0: forever). On expiry the task fails with kWaitTimeoutCode
  // (driver.h) and the queue goes on. A wall-clock measure: what is waited for is recorded
  // by the host program, whose progress simulated time does not know.
  uint32_t wait_timeout_ms = 0;

  // kSignal / kWaitSignal (`event` is the counter when `dst` is null).
  SignalOp signal_op = SignalOp::kSet;
  WaitCmp wait_cmp = WaitCmp::kEq;
  bool wait_clear = false;
  uint64_t signal_value = 0;

  // kHostFunc / kKernel: functional body. kExternal: called with the task id when the
  // task becomes ready (its predecessors are done); must not block.
  std::function<void()> host_fn;
  // kKernel alternative to host_fn: a body that can fail. A failure fails the task with
  // kTaskFailed and the engine's exception code (AI Core 507015, vector core 507035,
  // AI CPU 507018), its message naming the kernel's error.
  std::function<Status()> kernel_fn;
  std::function<void(uint64_t task_id)> external_start;
  // kKernel, optional: called by the backend when the task fails (a failing body or an
  // injected fault; not when it is dropped or the device is lost), on the thread and with the
  // buffers that the body would have used, before the failure handler and before the task
  // completes. The core writes the exception dump with it (core/data_dump.h).
  std::function<void(const TaskFailure&)> on_failure;

  // kKernel: where it runs, its block count and its work (cost model inputs).
  // `work` is the full description (see KernelWork). If work.empty(), the legacy pair is
  // used: `flops` on the engine's main unit (cube for kAiCore, vector for kAiVector, AI CPU
  // flops for kAiCpu) and `bytes_moved` as GM reads. Blocks are spread over the engine's
  // cores: a kernel runs ceil(blocks / cores granted) waves of one block's time.
  Engine engine = Engine::kAiCore;
  uint32_t blocks = 1;
  uint64_t flops = 0;
  uint64_t bytes_moved = 0;
  KernelWork work;
  // kKernel: the op execute timeout (aclrtSetOpExecuteTimeOut*) in simulated ns, 0 = none. A
  // kernel whose simulated duration (alone on its engine) exceeds it is stopped at the timeout
  // and fails with the engine's timeout code (AI Core 507014, vector core 507034, AI CPU
  // 507017) instead of running its body. Simulated time, so deterministic.
  uint64_t exec_timeout_ns = 0;

  // Free-form label for logs and profiles (API name, op type).
  const char* label = "";

  // Profiling (Device::SetTaskTracer): only tasks submitted with `traced` set are traced;
  // the core sets it while profiling is on and then makes `label` and `op_name` strings that
  // live as long as the process. op_name: a model's node name (null: the label);
  // correlation: the id of the API call that launched the task; model_id: 0 = none.
  const char* op_name = nullptr;
  uint64_t correlation = 0;
  uint32_t model_id = 0;
  bool traced = false;
};

}  // namespace aclsim::driver
