// ImportOnnx: steps 3 to 5 of onnx_import.h (the graph preparation is in onnx_graph.cc, the
// op mapping in onnx_ops*.cc, constants and folding in graph_builder.cc).
#include "convert/onnx_import.h"

#include <fmt/format.h>

#include <exception>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "common/read_file.h"
#include "convert/graph_builder.h"
#include "convert/onnx_graph.h"
#include "convert/onnx_ops.h"

namespace aclsim::convert {

using ops::DataType;
using ops::Format;

namespace {

size_t UnknownDims(const std::vector<int64_t>& dims) {
  size_t n = 0;
  for (int64_t d : dims) n += d < 0 ? 1 : 0;
  return n;
}

Format InputFormat(Format wanted, size_t rank) {
  if ((wanted == Format::kNchw || wanted == Format::kNhwc) && rank == 4) return wanted;
  if (wanted == Format::kNcdhw && rank == 5) return wanted;
  return Format::kNd;
}

// Fills model.gears from the options (model inputs are already in place).
Status FillGears(core::ModelFile& model, std::string_view origin,
                 const OnnxImportOptions& options) {
  const int given = (options.dynamic_batch_size.empty() ? 0 : 1) +
                    (options.dynamic_image_size.empty() ? 0 : 1) +
                    (options.dynamic_dims.empty() ? 0 : 1);
  if (given == 0) return Status::Ok();
  if (given > 1) {
    return Err(StatusCode::kInvalidParam,
               "model {}: --dynamic_batch_size, --dynamic_image_size "
               "and --dynamic_dims are mutually exclusive",
               origin);
  }
  auto& gears = model.gears;
  size_t total_unknown = 0;
  for (size_t i = 0; i < model.inputs.size(); ++i) {
    const auto& dims = model.tensors[static_cast<size_t>(model.inputs[i].tensor)].desc.dims;
    const size_t unknown = UnknownDims(dims);
    if (unknown == 0) continue;
    gears.inputs.push_back(static_cast<int32_t>(i));
    total_unknown += unknown;
    const size_t need =
        options.dynamic_batch_size.empty() ? (options.dynamic_image_size.empty() ? 0 : 2) : 1;
    if (need != 0 && unknown != need) {
      return Err(StatusCode::kInvalidParam,
                 "model {}: input '{}' has {} dynamic (-1) dims; {} "
                 "needs exactly {} per input (set them with --input_shape)",
                 origin, model.inputs[i].name, unknown,
                 need == 1 ? "--dynamic_batch_size" : "--dynamic_image_size", need);
    }
  }
  if (gears.inputs.empty()) {
    return Err(StatusCode::kInvalidParam,
               "model {}: dynamic gears need an input with -1 dims "
               "(e.g. --input_shape=\"x:-1,3,224,224\")",
               origin);
  }
  if (!options.dynamic_batch_size.empty()) {
    gears.kind = core::GearKind::kBatch;
    for (int64_t b : options.dynamic_batch_size) gears.gears.push_back({b});
  } else if (!options.dynamic_image_size.empty()) {
    gears.kind = core::GearKind::kImageSize;
    for (const auto& [h, w] : options.dynamic_image_size) gears.gears.push_back({h, w});
  } else {
    gears.kind = core::GearKind::kDims;
    for (const auto& gear : options.dynamic_dims) {
      if (gear.size() != total_unknown) {
        return Err(StatusCode::kInvalidParam,
                   "model {}: --dynamic_dims gear [{}] has {} values; "
                   "the inputs have {} dynamic (-1) dims",
                   origin, fmt::join(gear, ","), gear.size(), total_unknown);
      }
      gears.gears.push_back(gear);
    }
  }
  if (gears.gears.size() > core::kModelMaxGears) {
    return Err(StatusCode::kInvalidParam, "model {}: {} gears (CANN's limit is {})", origin,
               gears.gears.size(), core::kModelMaxGears);
  }
  std::set<std::vector<int64_t>> seen;
  for (const auto& gear : gears.gears) {
    for (int64_t v : gear) {
      if (v <= 0) {
        return Err(StatusCode::kInvalidParam, "model {}: gear values must be > 0 (got {})", origin,
                   v);
      }
    }
    if (!seen.insert(gear).second) {
      return Err(StatusCode::kInvalidParam, "model {}: gear [{}] is given twice", origin,
                 fmt::join(gear, ","));
    }
  }
  return Status::Ok();
}

// The errors of all nodes, as one Status.
class ErrorList {
 public:
  void Unknown(const std::string& op_type, const std::string& node) {
    unknown_[op_type].push_back(node);
  }
  void Node(const std::string& node, const std::string& op_type, const Status& st) {
    if (first_code_ == StatusCode::kOk) first_code_ = st.code();
    nodes_.push_back(fmt::format("node '{}' ({}): {}", node, op_type, st.message()));
  }
  bool empty() const { return unknown_.empty() && nodes_.empty(); }
  Status Build(std::string_view origin) const {
    std::string msg = fmt::format("model {}: cannot convert the model", origin);
    if (!unknown_.empty()) {
      msg += "; unsupported op types (E16002):";
      bool first = true;
      for (const auto& [type, nodes] : unknown_) {
        msg += fmt::format("{} {} (node{} '{}')", first ? "" : ";", type,
                           nodes.size() > 1 ? "s" : "", fmt::join(nodes, "', '"));
        first = false;
      }
    }
    if (!nodes_.empty()) msg += fmt::format("; {}", fmt::join(nodes_, "; "));
    const StatusCode code = unknown_.empty() ? first_code_ : StatusCode::kOpTypeNotMatch;
    return Status(code, msg);
  }

 private:
  std::map<std::string, std::vector<std::string>> unknown_;
  std::vector<std::string> nodes_;
  StatusCode first_code_ = StatusCode::kOk;
};

Result<core::ModelFile> Import(const void* data, size_t size, std::string_view origin,
                               const OnnxImportOptions& options, const ops::OpLibrary& ops) {
  auto prepared = PrepareGraph(data, size, origin, options);
  if (!prepared.ok()) return prepared.status();
  PreparedGraph& g = prepared.value();
  const onnx::GraphProto& graph = g.model.graph();
  GraphBuilder b(ops, options.precision_mode);
  std::unordered_map<std::string, int32_t> values;  // ONNX tensor name -> value id
  for (const auto& in : graph.input()) b.ReserveName(in.name());
  for (const auto& init : graph.initializer()) b.ReserveName(init.name());
  for (const auto& node : graph.node()) {
    for (const auto& out : node.output()) b.ReserveName(out);
  }

  // Constants: initializers (they win over a graph input of the same name).
  for (const auto& init : graph.initializer()) {
    if (init.name().empty()) {
      return Err(StatusCode::kParseModel, "model {}: an initializer has no name", origin);
    }
    auto t = TensorFromProto(init, fmt::format("model {}: initializer '{}'", origin, init.name()));
    if (!t.ok()) return t.status();
    values[init.name()] = b.AddConstant(init.name(), std::move(t.value()));
  }
  // Model inputs.
  core::ModelFile& model = b.model();
  for (const auto& in : graph.input()) {
    if (in.name().empty()) {
      return Err(StatusCode::kParseModel, "model {}: a graph input has no name", origin);
    }
    if (values.count(in.name()) != 0) continue;
    const OutputHint h = g.types.count(in.name()) != 0 ? g.types[in.name()] : OutputHint{};
    if (h.dtype == DataType::kUndefined) {
      const std::string what = in.type().has_tensor_type()
                                   ? OnnxTypeName(in.type().tensor_type().elem_type())
                                   : std::string("not a tensor");
      return Err(StatusCode::kParseModel, "model {}: input '{}' ({}) has no CANN data type", origin,
                 in.name(), what);
    }
    if (h.dims.size() == 1 && h.dims[0] == ops::kUnknownRank) {
      return Err(StatusCode::kParseModel,
                 "model {}: input '{}' has no shape; give it with "
                 "--input_shape",
                 origin, in.name());
    }
    const int32_t id =
        b.AddInput(in.name(), h.dtype, h.dims, InputFormat(options.input_format, h.dims.size()));
    values[in.name()] = id;
    model.inputs.push_back(core::ModelIo{in.name(), b.value(id).tensor});
  }

  ErrorList errors;
  std::unordered_set<std::string> poisoned;  // outputs of nodes that failed
  const size_t total = g.order.size();
  size_t done = 0;
  for (int index : g.order) {
    const onnx::NodeProto& node = graph.node(index);
    const std::string label =
        node.name().empty() ? fmt::format("{}_{}", node.op_type(), index) : node.name();
    auto poison = [&] {
      for (const auto& out : node.output()) poisoned.insert(out);
    };
    ++done;
    if (options.progress) options.progress(done, total);
    bool skip = false;
    std::vector<int32_t> inputs;
    for (const auto& in : node.input()) {
      if (in.empty()) {
        inputs.push_back(-1);
        continue;
      }
      if (poisoned.count(in) != 0) {
        skip = true;
        break;
      }
      auto it = values.find(in);
      if (it == values.end()) {
        return Err(StatusCode::kParseModel,
                   "model {}: node '{}' ({}) reads '{}', which no "
                   "node, input or initializer provides",
                   origin, label, node.op_type(), in);
      }
      inputs.push_back(it->second);
    }
    if (skip) {
      poison();
      continue;
    }
    const bool default_domain = node.domain().empty() || node.domain() == "ai.onnx";
    if (node.op_type() == "Constant" && default_domain) {
      HostTensor t;
      Status st;
      if (node.attribute_size() == 1 && node.attribute(0).name() == "value") {
        auto parsed = TensorFromProto(node.attribute(0).t(), "value");
        if (parsed.ok()) {
          t = std::move(parsed.value());
        } else {
          st = parsed.status();
        }
      } else if (node.attribute_size() == 1 && node.attribute(0).name() == "value_float") {
        t = FloatTensor({node.attribute(0).f()}, {});
      } else if (node.attribute_size() == 1 && node.attribute(0).name() == "value_int") {
        t = Int64Tensor({node.attribute(0).i()}, {});
      } else if (node.attribute_size() == 1 && node.attribute(0).name() == "value_floats") {
        const auto& f = node.attribute(0).floats();
        t = FloatTensor({f.begin(), f.end()}, {f.size()});
      } else if (node.attribute_size() == 1 && node.attribute(0).name() == "value_ints") {
        const auto& v = node.attribute(0).ints();
        t = Int64Tensor({v.begin(), v.end()}, {v.size()});
      } else {
        st = Unsupported("Constant needs exactly one of value, value_float(s), value_int(s)");
      }
      if (!st.ok() || node.output_size() != 1) {
        errors.Node(label, node.op_type(), st.ok() ? Unsupported("Constant needs one output") : st);
        poison();
        continue;
      }
      values[node.output(0)] = b.AddConstant(node.output(0), std::move(t));
      continue;
    }
    MapFn fn = default_domain ? FindMapping(node.op_type()) : nullptr;
    if (fn == nullptr) {
      errors.Unknown(default_domain ? node.op_type() : node.domain() + "::" + node.op_type(),
                     label);
      poison();
      continue;
    }
    std::vector<OutputHint> hints;
    for (const auto& out : node.output()) {
      auto it = g.types.find(out);
      hints.push_back(it != g.types.end() ? it->second : OutputHint{});
    }
    NodeContext ctx(node, g.opset, label, &b, std::move(inputs), std::move(hints));
    Status st = fn(ctx);
    for (size_t j = 0; st.ok() && j < ctx.num_outputs(); ++j) {
      if (ctx.wants(j) && ctx.outputs()[j] < 0) {
        st = Unsupported(
            fmt::format("output {} ('{}') is not produced", j, node.output(static_cast<int>(j))));
      }
    }
    if (!st.ok()) {
      errors.Node(label, node.op_type(), st);
      poison();
      continue;
    }
    for (size_t j = 0; j < ctx.num_outputs(); ++j) {
      if (ctx.wants(j)) values[node.output(static_cast<int>(j))] = ctx.outputs()[j];
    }
  }
  if (!errors.empty()) return errors.Build(origin);

  for (const auto& [io_name, tensor] : g.outputs) {
    auto it = values.find(tensor);
    if (it == values.end()) {
      return Err(StatusCode::kParseModel,
                 "model {}: output '{}' is not produced by any node, "
                 "input or initializer",
                 origin, tensor);
    }
    ACLSIM_RETURN_IF_ERROR(b.AddOutput(io_name, it->second));
  }
  model.name = graph.name().empty() ? "model" : graph.name();
  model.soc_version = options.soc_version;
  ACLSIM_RETURN_IF_ERROR(FillGears(model, origin, options));
  return std::move(model);
}

}  // namespace

Result<PrecisionMode> ParsePrecisionMode(std::string_view text) {
  static const std::map<std::string_view, PrecisionMode> kModes = {
      {"force_fp16", PrecisionMode::kForceFp16},
      {"allow_fp32_to_fp16", PrecisionMode::kAllowFp32ToFp16},
      {"must_keep_origin_dtype", PrecisionMode::kMustKeepOriginDtype},
      {"force_fp32", PrecisionMode::kForceFp32},
      {"allow_mix_precision", PrecisionMode::kAllowMixPrecision},
  };
  auto it = kModes.find(text);
  if (it == kModes.end()) {
    return Err(StatusCode::kInvalidParam,
               "--precision_mode={} is not one of force_fp16, "
               "allow_fp32_to_fp16, must_keep_origin_dtype, force_fp32, allow_mix_precision",
               text);
  }
  return it->second;
}

Result<core::ModelFile> ImportOnnx(const void* data, size_t size, std::string_view origin,
                                   const OnnxImportOptions& options, const ops::OpLibrary& ops) {
  try {
    return Import(data, size, origin, options, ops);
  } catch (const std::exception& e) {
    return Err(StatusCode::kParseModel, "model {}: {}", origin, e.what());
  } catch (...) {
    return Err(StatusCode::kParseModel, "model {}: unexpected exception while converting", origin);
  }
}

Result<core::ModelFile> ImportOnnxFile(const std::string& path, const OnnxImportOptions& options,
                                       const ops::OpLibrary& ops) {
  // protobuf parses at most 2 GiB; a directory or a device file is refused before reading.
  ACLSIM_ASSIGN_OR_RETURN(auto bytes,
                          ReadRegularFile<std::vector<char>>(path, 2ull << 30, "ONNX model"));
  return ImportOnnx(bytes.data(), bytes.size(), path, options, ops);
}

}  // namespace aclsim::convert
