// The op library: CANN's op types as the core, atc and every backend use them.
//
// One OpDef per op type (ops/op_def.h), registered by the op groups listed in
// ops/op_groups.def. The library checks a call against the op's prototype, infers its output
// descriptors and compiles it into an OpKernel (ops/op_kernel.h) for a device's properties.
// It knows no backend: a backend runs the kernel's Run on its own threads and charges the
// kernel's work() to its cost model.
//
// Thread-safety: immutable after construction; use from any thread.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "driver/device_props.h"
#include "ops/op_kernel.h"
#include "ops/types.h"

namespace aclsim::ops {

class OpRegistry;

class OpLibrary {
 public:
  // A library of every built-in op group.
  OpLibrary();
  ~OpLibrary();
  OpLibrary(const OpLibrary&) = delete;
  OpLibrary& operator=(const OpLibrary&) = delete;

  // The process-wide library of built-in ops (immutable, so every user shares it).
  static const OpLibrary& Builtin();

  bool HasOp(std::string_view type) const;
  std::vector<std::string> OpTypes() const;
  // Indices of the inputs whose values the op needs to infer shapes or compile (perm of
  // Transpose, axes of ReduceSum, ...). The core supplies their TensorDesc::value.
  std::vector<size_t> ValueInputs(std::string_view type) const;
  // Checks `call` against the op's prototype (input count and order, dtypes, formats,
  // attribute types; unknown attributes are ignored), fills in defaulted attributes and
  // infers the output descriptors: outputs given with unknown or empty dims receive them,
  // outputs given with dims are checked. Errors name the op, the tensor and the reason:
  //   kOpTypeNotMatch (unknown type), kOpInputNotMatch / kOpOutputNotMatch (count, shape),
  //   kOpAttrNotMatch (missing or mistyped attribute), kInvalidParam (bad values).
  Status InferShape(OpCall* call) const;
  // Compiles a call whose shapes are all known (InferShape is applied first).
  Result<std::shared_ptr<const OpKernel>> Compile(const OpCall& call,
                                                  const driver::DeviceProps& props) const;

  // The op definitions (op tables, tools).
  const OpRegistry& registry() const { return *registry_; }

 private:
  std::unique_ptr<OpRegistry> registry_;
};

}  // namespace aclsim::ops
