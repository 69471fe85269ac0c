// The aclnn executor: what an operator's first phase (aclnnXxxGetWorkspaceSize) builds and
// its second phase (aclnnXxx) launches.
//
// An executor is a short program of op-library kernels (ops/op_library.h), compiled for the
// current device when the first phase runs, over three kinds of buffer:
//   * the call's tensors (slots): the device storage of each aclTensor argument, copied from
//     the aclTensor when the first phase ran (the caller may destroy it right after);
//   * the workspace: temporaries (contiguous copies of strided views, casts, intermediate
//     results) at offsets the builder chose; its size is what the first phase reports, and
//     the caller passes that much device memory to the second phase;
//   * constants held by the kernels themselves (view sizes and strides).
// The second phase enqueues the kernels on the stream in order, as kKernel tasks named
// "<aclnn op>_<kernel type>" in profiles; the caller may reuse the workspace for the next op
// in stream order.
//
// An executor runs once unless made repeatable (aclSetAclOpExecutorRepeatable); then it can
// be launched again, after aclSet*TensorAddr updated the addresses of its tensors.
//
// Thread-safety: an executor is used by one thread at a time (as in CANN); Launch may run
// concurrently with other executors' launches.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "core/handle_table.h"
#include "core/nn/objects.h"
#include "ops/op_kernel.h"

namespace aclsim::core {
class Stream;
}

namespace aclsim::core::nn {

// Where a kernel's buffer is, resolved when the executor is launched.
struct Ref {
  enum class Kind : uint8_t { kNone, kSlot, kWorkspace, kConst };
  Kind kind = Kind::kNone;
  uint32_t slot = 0;    // kSlot
  uint64_t offset = 0;  // bytes from the slot's data or from the workspace
  uint64_t size = 0;    // bytes
};

struct Step {
  std::shared_ptr<const ops::OpKernel> kernel;
  std::vector<Ref> inputs;
  std::vector<Ref> outputs;
  std::string op_name;  // "<aclnn op>_<kernel type>" (profiles)
};

// One tensor argument of the call: its address, updatable for repeatable executors.
struct Slot {
  void* data = nullptr;
  uint64_t extent = 0;  // bytes of the storage the executor touches from `data`
};

class Executor {
 public:
  static constexpr HandleKind kHandleKind = HandleKind::kNnExecutor;

  std::string name;  // "aclnnAdd"
  std::vector<Slot> slots;
  // Slot of each input / output tensor argument in prototype order; -1 for an absent
  // optional one. An in-place tensor (selfRef) is in both lists.
  std::vector<int32_t> input_slots;
  std::vector<int32_t> output_slots;
  // Tensor-list parameters: for parameter `ir_index` (its position in the prototype), the
  // slots of its members.
  struct ListParam {
    size_t ir_index = 0;
    bool is_output = false;
    std::vector<int32_t> slots;
  };
  std::vector<ListParam> lists;
  std::vector<Step> steps;
  uint64_t workspace_size = 0;
  std::atomic<bool> repeatable{false};
  std::atomic<bool> launched{false};
  // The tensor object each slot was made from, while the first phase runs (the executor
  // cache maps slots to a later call's tensors with it); never dereferenced.
  std::vector<const void*> slot_sources;

  // A fresh (single-use, not launched) copy sharing the compiled kernels.
  std::shared_ptr<Executor> Clone() const;

  // Enqueues every step on `stream`. The workspace must hold workspace_size bytes.
  Status Launch(Stream& stream, void* workspace, uint64_t workspace_size_given) const;
};

}  // namespace aclsim::core::nn
