// The ONNX importer: an ONNX model (ModelProto bytes) becomes a graph model
// (core::ModelFile, docs/om-format.md "Graph models"), as `atc --model=M.onnx --framework=5`
// converts it. What it does, in order (docs/atc.md has the user's view):
//
//  1. Parses the bytes with libonnx's protobuf messages. Models whose default-domain opset is
//     below 9 are first upgraded to opset 9 with libonnx's version converter when the graph is
//     well formed (libonnx's checker, every tensor defined before use) and the converter
//     succeeds; otherwise the original is converted as it is, with a warning (the mapping
//     knows the older forms of the ops it maps too).
//  2. Applies `input_shapes` to the graph inputs, runs libonnx's shape inference (its dtypes
//     and ranks fill in what the op library cannot infer for dynamic shapes), topologically
//     sorts the nodes and drops nodes that no model output needs.
//  3. Converts each node to one or more CANN ops (cann_ops.md section 2; the table is in
//     onnx_ops.cc / onnx_ops_nn.cc). Every converted op goes through OpLibrary::InferShape,
//     which fills its outputs' descriptors and refuses dtype or shape combinations the op
//     does not accept. Nodes whose inputs are all known at convert time (initializers,
//     Constant nodes, Shape of a statically shaped tensor, and anything computed from those)
//     are evaluated on the host with the op library's own kernels and become constants
//     (constant folding): pytorch's Shape -> Gather -> Unsqueeze -> Concat -> Reshape chains
//     disappear from static models. Folding stops at 64 MiB per op and 1 GiB per import.
//  4. Collects every problem before failing: one error lists all unsupported ONNX op types
//     with their node names (CANN's E16002) and every node whose form or dtypes cannot be
//     converted, with the reason.
//  5. Fills the ModelFile: constants in the 64-byte-aligned weights blob, nodes in execution
//     order with unique names, model inputs named as the ONNX graph inputs (initializers
//     excluded), outputs as the graph outputs or `out_nodes`, and the dynamic gears.
//
// Errors (messages start with the origin and name the node, input or option):
//   kParseModel     the bytes are not an ONNX ModelProto, or the graph is malformed (a node
//                   reads a tensor nothing produces, a cycle, a bad initializer, ...);
//   kInvalidFile    (ImportOnnxFile) the file is missing or unreadable;
//   kInvalidParam   an option does not fit the model (input_shapes names an unknown input,
//                   gears without -1 dims, an out_nodes entry naming no node, ...);
//   kOpTypeNotMatch the model uses ONNX ops (or forms of them) the converter or the op library
//                   does not support: one message lists all of them;
//   other codes     from OpLibrary::InferShape (kOpInputNotMatch, ...) when a converted op
//                   refuses its inputs, again one message listing every such node.
// Nothing libonnx or protobuf throws escapes: exceptions become kParseModel.
//
// Thread-safety: ImportOnnx is reentrant; the options and the op library are only read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "core/model_file.h"
#include "ops/op_library.h"

namespace aclsim::convert {

// atc's --precision_mode. CANN's atc defaults to force_fp16; aclsim's default is
// must_keep_origin_dtype so that converted models compute in the model's own dtypes and
// match ONNX reference outputs at fp32 tolerances (a documented deviation from CANN).
//   kForceFp32, kMustKeepOriginDtype: every op keeps the model's dtypes.
//   kForceFp16, kAllowFp32ToFp16, kAllowMixPrecision: the cube ops (Conv2D,
//     Conv2DTranspose, MatMulV2, BatchMatMulV2) run in float16 when the model gives them
//     float32: Cast nodes convert their float32 inputs to float16 (folded into float16
//     weights for constants) and their output back to float32. Other ops keep their dtypes.
enum class PrecisionMode {
  kForceFp16,
  kAllowFp32ToFp16,
  kMustKeepOriginDtype,
  kForceFp32,
  kAllowMixPrecision,
};

// Parses a --precision_mode value ("force_fp16", ...); kInvalidParam for anything else.
Result<PrecisionMode> ParsePrecisionMode(std::string_view text);

struct OnnxImportOptions {
  // Recorded in ModelFile::soc_version.
  std::string soc_version;
  // --input_shape "a:1,3,224,224;b:1,10": dims per graph input by name (-1 = dynamic). Inputs
  // not listed keep the model's dims (symbolic or missing dims become -1).
  std::vector<std::pair<std::string, std::vector<int64_t>>> input_shapes;
  // --input_format: the format of 4-D (NCHW, NHWC) or 5-D (NCDHW) model inputs; ND leaves
  // every input ND. Only the descriptor's tag: the data are not transposed.
  ops::Format input_format = ops::Format::kNchw;
  // At most one of the three gear options may be given (kInvalidParam otherwise).
  // --dynamic_batch_size "1,2,4": each model input with a -1 dim must have exactly one.
  std::vector<int64_t> dynamic_batch_size;
  // --dynamic_image_size "224,224;448,448": each model input with -1 dims has exactly two.
  std::vector<std::pair<int64_t, int64_t>> dynamic_image_size;
  // --dynamic_dims "1,2;4,8": one value per -1 dim over the inputs in order.
  std::vector<std::vector<int64_t>> dynamic_dims;
  // --out_nodes "node:0;node2:1": model outputs as (ONNX node name, output index); empty =
  // the graph outputs.
  std::vector<std::pair<std::string, int>> out_nodes;
  PrecisionMode precision_mode = PrecisionMode::kMustKeepOriginDtype;
  // Called after each converted node (done, total) and once with done == total; optional.
  std::function<void(size_t done, size_t total)> progress;
  // Non-fatal notes (a failed opset upgrade, ignored attributes); optional.
  std::function<void(const std::string& message)> warning;
};

// Converts the ModelProto in [data, data + size). `origin` names the model in messages (the
// file path). `ops` is the op library the model will run on (the simulator's for atc).
// The result passes core::ValidateModel.
Result<core::ModelFile> ImportOnnx(const void* data, size_t size, std::string_view origin,
                                   const OnnxImportOptions& options, const ops::OpLibrary& ops);

// Reads `path` (kInvalidFile naming it when missing or unreadable) and imports it.
Result<core::ModelFile> ImportOnnxFile(const std::string& path, const OnnxImportOptions& options,
                                       const ops::OpLibrary& ops);

}  // namespace aclsim::convert
