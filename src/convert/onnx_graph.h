// The ONNX graph as the importer walks it: parsed, opset-upgraded, with the user's input
// shapes applied, shape-inferred, topologically sorted and pruned to what the outputs need.
//
// Thread-safety: plain values.
#pragma once

#include <onnx/onnx_pb.h>

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "convert/graph_builder.h"
#include "convert/onnx_import.h"

namespace aclsim::convert {

struct PreparedGraph {
  onnx::ModelProto model;
  int opset = 0;                            // of the default domain
  std::vector<int> order;                   // indices of model.graph().node() to convert, in order
  std::map<std::string, OutputHint> types;  // ONNX's inferred dtype and dims per tensor name
  // The model outputs: (ModelIo name, tensor name).
  std::vector<std::pair<std::string, std::string>> outputs;
};

// Steps 1 and 2 of onnx_import.h. Errors: kParseModel (not a ModelProto, malformed graph),
// kInvalidParam (an option naming an unknown input or node).
Result<PreparedGraph> PrepareGraph(const void* data, size_t size, std::string_view origin,
                                   const OnnxImportOptions& options);

}  // namespace aclsim::convert
