// A compiled op as a backend runs it: the buffers a kernel receives and the kernel itself.
//
// Thread-safety: an OpKernel is immutable; Run may be called from any thread concurrently.
#pragma once

#include <cstddef>
#include <vector>

#include "common/status.h"
#include "driver/task.h"
#include "ops/types.h"

namespace aclsim::ops {

// A buffer handed to a kernel: the program's device (or host) address and its size.
struct KernelBuffer {
  void* data = nullptr;
  size_t size = 0;
};

// A view of consecutive KernelBuffers (a vector's, or any array's).
class KernelBufferSpan {
 public:
  KernelBufferSpan() = default;
  KernelBufferSpan(const KernelBuffer* items, size_t count) : items_(items), count_(count) {}
  KernelBufferSpan(const std::vector<KernelBuffer>& items)  // NOLINT: converts like a span
      : items_(items.data()), count_(items.size()) {}
  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  const KernelBuffer& operator[](size_t i) const { return items_[i]; }
  const KernelBuffer* begin() const { return items_; }
  const KernelBuffer* end() const { return items_ + count_; }

 private:
  const KernelBuffer* items_ = nullptr;
  size_t count_ = 0;
};

// A compiled op: one concrete shape signature, ready to run. Produced by OpLibrary::Compile.
class OpKernel {
 public:
  virtual ~OpKernel() = default;
  // The resolved call: attributes with defaults filled in, output descriptors inferred.
  virtual const OpCall& call() const = 0;
  virtual driver::Engine engine() const = 0;
  virtual uint32_t blocks() const = 0;
  // The kernel's work for the cost model (buffers are filled in by the caller).
  virtual driver::KernelWork work() const = 0;
  // True if output shapes are known only after running (NonZero, Where, Unique, ...).
  virtual bool dynamic_output_shape() const = 0;
  // The functional body, run on a backend thread. `inputs` has one entry per call().inputs
  // (absent optional inputs: {nullptr, 0}); buffers were checked against the descriptors'
  // byte sizes. For dynamic_output_shape() kernels `output_dims` receives each output's
  // real shape; otherwise it is left alone (may be nullptr).
  virtual Status Run(KernelBufferSpan inputs, KernelBufferSpan outputs,
                     std::vector<std::vector<int64_t>>* output_dims) const = 0;
};

}  // namespace aclsim::ops
