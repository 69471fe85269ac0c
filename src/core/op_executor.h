// Single-op execution: compile (through the OpCache) and launch one op on a stream.
//
// The op library (ops/op_library.h, backend-neutral) validates the call, infers output
// shapes and compiles it for the device's properties; the kernel runs as a kKernel task whose body
// is OpKernel::Run over the program's buffers. Inputs placed in host memory (ACL_MEMTYPE_HOST*) are
// copied when the op is launched, so the program may reuse that memory at once; values an op needs
// at compile time (perm, axes, ...) are read from constants, host buffers, or -- for device buffers
// -- after synchronising the stream.
//
// Simulated host cost: a full compile adds kCompileNs to the calling thread's clock, an
// incremental one (cached binary, new shape) kRetileNs; a cache hit adds nothing beyond the
// launch.
//
// Thread-safety: all functions may be called concurrently.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "core/data_dump.h"
#include "core/objects.h"
#include "core/op_launch_memo.h"
#include "core/runtime.h"
#include "ops/op_library.h"

namespace aclsim::core {

inline constexpr uint64_t kCompileNs = 2'000'000;
inline constexpr uint64_t kRetileNs = 50'000;

// A buffer of an op call.
struct OpBuffer {
  void* data = nullptr;
  size_t size = 0;
  bool on_host = false;  // host memory (placement ACL_MEMTYPE_HOST*)
};

struct OpTensorArg {
  ops::TensorDesc desc;  // as the program described it
  bool on_host = false;  // buffer is host memory (placement ACL_MEMTYPE_HOST*)
  void* data = nullptr;
  size_t size = 0;
};

struct OpLaunch {
  std::string type;
  std::vector<OpTensorArg> inputs;
  std::vector<OpTensorArg> outputs;
  ops::AttrMap attrs;
};

// The op library a runtime compiles single ops and models with: the built-in one
// (ops::OpLibrary::Builtin; backend-neutral, so every backend runs the same kernels).
const ops::OpLibrary& OpLibraryOf(Runtime& runtime);

// Validates a call and infers its outputs without compiling (aclopInferShape).
Status InferOp(Runtime& runtime, ops::OpCall* call);

// aclopCompile: validates the call; with every shape known, compiles it into the cache.
Status CompileOp(Runtime& runtime, Device& device, ops::OpCall call);

// Compiles (cached) and enqueues `launch` on `stream`. `resolved_outputs`, if not null,
// receives the output descriptors as the op produces them; for ops whose output shapes
// depend on the data (NonZero, ...) the stream is synchronised first to learn them.
// `dump`, if not null, is what to dump of this launch (core/data_dump.h: single ops pass
// DataDump::SingleOpTarget(), the model runner a node's target); null adds no work.
Status ExecuteOp(Runtime& runtime, Stream& stream, OpLaunch launch,
                 std::vector<ops::TensorDesc>* resolved_outputs, const DumpTarget* dump = nullptr);

// Compiles `call` through the OpCache for an op whose binary is prebuilt (the aclnn operators'
// kernels): a miss adds kRetileNs (tiling) to the calling thread's clock, not kCompileNs.
Result<std::shared_ptr<const ops::OpKernel>> CompilePrebuilt(Runtime& runtime, Device& device,
                                                             const ops::OpCall& call);

// Enqueues a kernel compiled by the caller (the model executor) on `stream`, with the buffers
// checked against the kernel's descriptors as ExecuteOp checks them. `inputs` has one entry
// per kernel input ({nullptr, 0} for an omitted optional one), `outputs` one per output.
// `dump` as for ExecuteOp.
Status LaunchCompiled(Stream& stream, const std::shared_ptr<const ops::OpKernel>& kernel,
                      const OpBuffer* inputs, size_t num_inputs, const OpBuffer* outputs,
                      size_t num_outputs, const DumpTarget* dump = nullptr);

// The output descriptors of a launched kernel as it produces them (without copying the
// kernel's own when they do not depend on the data).
struct ResolvedOutputs {
  std::shared_ptr<const ops::OpKernel> kernel;
  std::vector<ops::TensorDesc> dynamic;  // kernels with data-dependent output shapes
  const std::vector<ops::TensorDesc>& descs() const {
    return kernel->dynamic_output_shape() ? dynamic : kernel->call().outputs;
  }
};

// The fast path of ExecuteOp for callers that hold the descriptors: if this thread launched
// an identical call recently and its kernel is still cached (op_launch_memo.h), checks the
// buffers, enqueues it and sets *launched (the Status is the launch's); otherwise does
// nothing and leaves *launched false. inputs / outputs: call.num_inputs / num_outputs.
// Why both exist: ExecuteOp takes the call by value (an OpLaunch: copied descriptors and
// attributes) because it validates, infers and may compile it; a remembered call needs none
// of that, and copying its descriptors would cost more than the launch. Both enqueue through
// the same launch (buffer checks, host-input staging, the kKernel task, dump), so a call runs
// identically on either path; the API's aclopExecute(V2) tries this one first
// (src/api/op.cc, ExecuteRememberedCall: handle lookups without copies) and falls back to
// ExecuteOp, which reports every error.
// `resolved`, if not null, receives the outputs as ExecuteOp's resolved_outputs would;
// `dump` as for ExecuteOp.
Status ExecuteRemembered(Runtime& runtime, Stream& stream, const OpCallDescs& call,
                         const OpBuffer* inputs, const OpBuffer* outputs, ResolvedOutputs* resolved,
                         bool* launched, const DumpTarget* dump = nullptr);

}  // namespace aclsim::core
