// Graph models: the `.om` files `atc --model=... --framework=5` writes and aclmdlLoadFromFile /
// aclmdlLoadFromMem read (format: docs/om-format.md, "Graph models").
//
// A ModelFile is the whole model as both sides need it:
//  * a tensor table: every value of the graph -- model inputs, constants, node outputs -- as a
//    ops::TensorDesc whose `name` is the tensor's (non-empty, unique) name. Constants hold
//    no TensorDesc::value; they reference a 64-byte-aligned byte range of the weights blob.
//  * nodes in execution order: op type, node name, attributes, input tensor ids (-1 for an
//    omitted optional input) and output tensor ids. Each tensor is produced once, and a node
//    reads only model inputs, constants and outputs of earlier nodes, so the executor can run
//    the list front to back and the memory planner can derive lifetimes (TensorLifetimes).
//  * the model's inputs and outputs: tensor ids with the names aclmdlGetInputNameByIndex /
//    aclmdlGetOutputNameByIndex report; dims may hold -1 (dynamic).
//  * dynamic gears, as atc's --dynamic_batch_size / --dynamic_image_size / --dynamic_dims
//    give them, and the model inputs they fill in.
//
// ParseModel checks everything ValidateModel checks, so a parsed model is always valid; atc
// runs ValidateModel before SerializeModel.
//
// Thread-safety: every function here is pure; a ModelFile is a plain value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "ops/types.h"

namespace aclsim::core {

// Constant offsets in the weights blob are multiples of this.
inline constexpr uint64_t kModelWeightAlign = 64;
// Sanity bounds (on top of "no count larger than the bytes left").
inline constexpr size_t kModelMaxTensors = size_t{1} << 22;
inline constexpr size_t kModelMaxNodes = size_t{1} << 22;
inline constexpr size_t kModelMaxNodeIo = 4096;  // inputs or outputs of one node
inline constexpr size_t kModelMaxIo = 4096;      // model inputs or outputs
inline constexpr size_t kModelMaxGears = 100;    // CANN's limit on dynamic gears

// A byte range of ModelFile::weights.
struct WeightRange {
  uint64_t offset = 0;  // multiple of kModelWeightAlign
  uint64_t size = 0;    // == the descriptor's byte size
};

struct ModelTensor {
  ops::TensorDesc desc;                 // desc.name is the tensor's name; desc.value unset
  std::optional<WeightRange> constant;  // set for constants (weights, initializers)
};

struct ModelNode {
  std::string type;              // op type, as in the op library ("Conv2D")
  std::string name;              // node name (non-empty, unique)
  ops::AttrMap attrs;            // as atc converted them
  std::vector<int32_t> inputs;   // tensor ids; -1 = omitted optional input
  std::vector<int32_t> outputs;  // tensor ids, each produced by this node only
};

// A model input or output.
struct ModelIo {
  std::string name;    // non-empty, unique among the inputs (outputs)
  int32_t tensor = 0;  // id in ModelFile::tensors
};

enum class GearKind : uint8_t {
  kNone = 0,       // static model (or dynamic shapes without gears)
  kBatch = 1,      // --dynamic_batch_size: each gear {batch}
  kImageSize = 2,  // --dynamic_image_size: each gear {height, width}
  kDims = 3,       // --dynamic_dims: each gear one value per -1 dim of `inputs`, in order
};

// The gears of a dynamic model. `inputs` are the indices into ModelFile::inputs whose -1
// dims a gear fills in: every model input with a -1 dim, ascending. kBatch: each listed input
// has exactly one -1 dim, all take the gear's batch; kImageSize: exactly two, taking height
// then width; kDims: any number, the gear holds one value per -1 over the inputs in order.
// Between 1 and kModelMaxGears gears, all values > 0, no gear twice.
struct DynamicGears {
  GearKind kind = GearKind::kNone;
  std::vector<int32_t> inputs;
  std::vector<std::vector<int64_t>> gears;
};

struct ModelFile {
  std::string name;         // model name (the source model's graph name)
  std::string soc_version;  // the --soc_version it was built for
  std::vector<ModelTensor> tensors;
  std::vector<ModelNode> nodes;  // execution order
  std::vector<ModelIo> inputs;
  std::vector<ModelIo> outputs;
  DynamicGears gears;
  std::vector<uint8_t> weights;  // constants' bytes (see WeightRange)
};

// Checks every rule of docs/om-format.md ("Graph models", "Validation"): kParseModel with a
// message "model <origin>: <field or node>: <problem>" for the first violation found.
Status ValidateModel(const ModelFile& model, std::string_view origin);

// The bytes of a model file (does not validate; call ValidateModel first).
std::vector<uint8_t> SerializeModel(const ModelFile& model);

// Parses and validates a model file's bytes:
//   kReadModelFailure  shorter than the header or than the payload the header announces;
//   kParseModel        anything else: a CANN `.om` (the message says to convert the source
//                      model with aclsim's atc), wrong magic, version or kind, CRC mismatch,
//                      fields running past the payload or bytes left after it, unknown
//                      dtype / format / attribute tag, absurd counts, and every rule of
//                      ValidateModel.
// Every message names `origin` and the field or node.
Result<ModelFile> ParseModel(const void* data, size_t size, std::string_view origin);

// Reads and parses a file: kInvalidFile naming the path when it is missing or unreadable,
// else as ParseModel with the path as origin.
Result<ModelFile> LoadModelFile(const std::string& path);

// True if the bytes start like an offline model of CANN's (GE's) own format.
bool LooksLikeCannModel(const void* data, size_t size);

// The concrete dims of every model input under gear `gear` of a valid model (inputs without
// -1 dims keep theirs). `gear` < model.gears.gears.size().
std::vector<std::vector<int64_t>> GearInputDims(const ModelFile& model, size_t gear);

// Lifetime of each tensor in node steps, for the memory planner: produced before node
// `first` runs (-1: a model input or a constant, alive from the start) and last read by node
// `last` (nodes.size(): a model output, alive to the end; equal to `first` when never read).
struct TensorLifetime {
  int64_t first = -1;
  int64_t last = -1;
};
std::vector<TensorLifetime> TensorLifetimes(const ModelFile& model);

}  // namespace aclsim::core
