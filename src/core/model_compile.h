// Model compilation: a graph model (core/model_file.h) made ready to run on a device kind.
//
// CompileModel resolves, for every dynamic gear of a model (one pass for a static model),
// every tensor's descriptor by inferring shapes node after node, compiles every node into an
// OpKernel of the backend's op library, and plans the memory of the intermediate tensors
// (every node output that is not a model output) in one arena with the MemoryPlanner. What
// it produces is all aclmdlQuerySize needs and all the loader needs besides device memory.
//
// Where each tensor lives when the model runs (TensorPlace):
//   kInput     the program's input buffer `index` (dataset of the execution);
//   kOutput    the program's output buffer `index`: the node that produces it writes there;
//   kConstant  the model's weights memory at `offset` (ModelFile::weights, as loaded);
//   kArena     the model's work memory at the gear's offsets[tensor];
//   kUnused    neither read nor produced by a node (a constant nobody reads, ...).
// A model output that no node produces (a model input or a constant passed through), or a
// tensor listed as an output twice, is filled by a device copy at the end of an execution
// (OutputCopy).
//
// Values an op needs to compile (the shape of Reshape, the perm of Transpose: ValueInputs
// of the op library) are usually constants of the model (atc folds the computations that
// give them). A model where such a value is a model input or a computed tensor has shapes
// that depend on input values ("dynamic shapes"): it is not compiled ahead; the loader runs
// it node by node (model_runner.h). An op whose output shapes depend on its data (NonZero,
// ...) is refused with kFeatureUnsupported naming the node, as is a dynamic-shape model
// with gears.
//
// Thread-safety: CompileModel is pure; a CompiledModel is immutable once returned.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "core/model_file.h"
#include "driver/device_props.h"
#include "ops/op_library.h"

namespace aclsim::core {

// Offsets in the work arena are multiples of this (the AI Core's 512-byte burst).
inline constexpr uint64_t kModelArenaAlign = 512;

enum class TensorPlace : uint8_t { kUnused, kInput, kOutput, kConstant, kArena };

struct TensorRole {
  TensorPlace place = TensorPlace::kUnused;
  uint32_t index = 0;  // kInput / kOutput: the model input / output index
};

// A model output filled by copying `tensor` after the nodes ran.
struct OutputCopy {
  uint32_t output = 0;
  int32_t tensor = 0;
};

// One gear (the only one of a static model): resolved descriptors, kernels and the plan.
struct ModelGear {
  std::vector<int64_t> values;           // the gear's values (empty: static model)
  std::vector<ops::TensorDesc> tensors;  // every tensor, shapes resolved
  std::vector<std::shared_ptr<const ops::OpKernel>> kernels;  // one per node
  std::vector<uint64_t> offsets;  // per tensor; meaningful for kArena only
  uint64_t arena = 0;             // work bytes of this gear
  uint64_t lower_bound = 0;       // the planner's figures (for reports)
  uint64_t total = 0;
};

struct CompiledModel {
  std::shared_ptr<const ModelFile> file;
  std::vector<TensorRole> roles;  // per tensor
  std::vector<OutputCopy> output_copies;
  std::vector<ModelGear> gears;  // gear order of file->gears (one for a static model)
  uint64_t work_size = 0;        // the largest arena of any gear (0 if no intermediates)
  uint64_t weight_size = 0;      // bytes of the weights memory
  bool dynamic_shapes = false;   // compiled per execution (gears[0] holds the file's descs)
  std::vector<TensorLifetime> lifetimes;  // per tensor (TensorLifetimes)
  size_t largest_gear = 0;  // the gear with the most input bytes (what the descriptors
                            // of a dynamic model report before an execution)

  // The byte size of model input / output `index` under gear `gear`.
  size_t InputBytes(size_t index, size_t gear) const;
  size_t OutputBytes(size_t index, size_t gear) const;
  const ops::TensorDesc& InputDesc(size_t index, size_t gear) const;
  const ops::TensorDesc& OutputDesc(size_t index, size_t gear) const;
};

// Compiles `file` for a device described by `props`. Errors name the model and the node:
// the op library's (kOpTypeNotMatch, kOpInputNotMatch, ...), kFeatureUnsupported (see above),
// kParseModel for a model whose shapes do not resolve.
Result<std::shared_ptr<const CompiledModel>> CompileModel(std::shared_ptr<const ModelFile> file,
                                                          const ops::OpLibrary& library,
                                                          const driver::DeviceProps& props);

}  // namespace aclsim::core
