// Graph model files (core/model_file.h).
#include "core/model_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <unordered_set>

#include "common/checked_size.h"
#include "common/read_file.h"
#include "core/om_codec.h"

namespace aclsim::core {

namespace {

// The first field of a CANN (GE) offline model file: a little-endian u32 magic, the bytes
// "IMOD" on disk. Only this fact is used; nothing of CANN's format is read.
constexpr uint32_t kCannModelMagic = 0x444F4D49u;

// Smallest encodings, for bounding counts by the bytes left.
constexpr size_t kMinTensorBytes = kOmMinTensorBytes + 1;  // + u8 is_const
constexpr size_t kMinNodeBytes = 4 * 5;                    // 2 x str, 2 x ids, attr count
constexpr size_t kMinIoBytes = 4 + 4;                      // str name, i32 tensor

std::string TensorLabel(const ModelFile& m, int64_t id) {
  return fmt::format("tensor {} ('{}')", id, m.tensors[static_cast<size_t>(id)].desc.name);
}

std::string NodeLabel(const ModelNode& n, size_t i) {
  return fmt::format("node {} ({} '{}')", i, n.type, n.name);
}

// Checks and records the failures of one validation pass: the first one wins.
class Checker {
 public:
  explicit Checker(std::string_view origin) : origin_(origin) {}
  bool ok() const { return status_.ok(); }
  Status status() const { return status_; }
  template <typename... Args>
  void Fail(fmt::format_string<Args...> format, Args&&... args) {
    if (!ok()) return;
    status_ = Status(
        StatusCode::kParseModel,
        fmt::format("model {}: {}", origin_, fmt::format(format, std::forward<Args>(args)...)));
  }

 private:
  std::string_view origin_;
  Status status_;
};

bool DimsValid(const std::vector<int64_t>& dims) {
  if (dims.size() == 1 && dims[0] == ops::kUnknownRank) return true;
  if (dims.size() > kOmMaxRank) return false;
  return std::all_of(dims.begin(), dims.end(), [](int64_t d) { return d >= ops::kUnknownDim; });
}

size_t UnknownDims(const std::vector<int64_t>& dims) {
  return static_cast<size_t>(std::count(dims.begin(), dims.end(), ops::kUnknownDim));
}

bool UnknownRank(const std::vector<int64_t>& dims) {
  return dims.size() == 1 && dims[0] == ops::kUnknownRank;
}

void CheckTensor(Checker& c, const ModelFile& m, size_t i,
                 std::unordered_set<std::string_view>* names) {
  const ModelTensor& t = m.tensors[i];
  const ops::TensorDesc& d = t.desc;
  const std::string what = TensorLabel(m, static_cast<int64_t>(i));
  if (d.name.empty()) return c.Fail("tensor {} has no name", i);
  if (!names->insert(d.name).second) return c.Fail("{}: the name is used twice", what);
  if (d.absent() || !ops::IsKnownDataType(static_cast<int32_t>(d.dtype))) {
    return c.Fail("{}: dtype {} is not a data type", what, static_cast<int32_t>(d.dtype));
  }
  if (d.format == ops::Format::kUndefined || !ops::IsKnownFormat(static_cast<int32_t>(d.format)) ||
      !ops::IsKnownFormat(static_cast<int32_t>(d.storage_format))) {
    return c.Fail("{}: format {} / storage format {} is not a format", what,
                  static_cast<int32_t>(d.format), static_cast<int32_t>(d.storage_format));
  }
  if (!DimsValid(d.dims) || !DimsValid(d.storage_dims)) {
    return c.Fail("{}: dims are invalid (rank <= {}, each >= -1, or exactly [-2])", what,
                  kOmMaxRank);
  }
  if (const Status size = ops::CheckTensorSize(d, what); !size.ok()) {
    return c.Fail("{}", size.message());
  }
  if (!d.shape_range.empty() && d.shape_range.size() != d.dims.size()) {
    return c.Fail("{}: {} shape ranges for {} dims", what, d.shape_range.size(), d.dims.size());
  }
  for (const auto& [lo, hi] : d.shape_range) {
    if (lo < 0 || (hi != -1 && hi < lo)) return c.Fail("{}: shape range [{}, {}]", what, lo, hi);
  }
  if (d.value) {
    return c.Fail("{}: has an inline value; constants live in the weights blob", what);
  }
  if (!t.constant) return;
  const auto bytes = CheckedByteSize(d);
  if (!bytes) return c.Fail("{}: a constant needs a known shape and a sized dtype", what);
  const WeightRange& w = *t.constant;
  if (w.offset % kModelWeightAlign != 0) {
    return c.Fail("{}: weights offset {} is not a multiple of {}", what, w.offset,
                  kModelWeightAlign);
  }
  if (w.offset > m.weights.size() || w.size > m.weights.size() - w.offset) {
    return c.Fail("{}: weights range [{}, +{}) is outside the {}-byte weights blob", what, w.offset,
                  w.size, m.weights.size());
  }
  if (w.size != *bytes) {
    return c.Fail("{}: weights range has {} bytes but the descriptor needs {}", what, w.size,
                  *bytes);
  }
}

// Where a tensor comes from, while walking the nodes.
enum class Source : uint8_t { kNone, kInput, kConstant, kNode };

void CheckIo(Checker& c, const ModelFile& m, const std::vector<ModelIo>& list, const char* kind,
             std::vector<Source>* source) {
  if (list.size() > kModelMaxIo)
    return c.Fail("{} model {}s (limit {})", list.size(), kind, kModelMaxIo);
  std::unordered_set<std::string_view> names;
  std::unordered_set<int32_t> tensors;
  const bool is_input = std::strcmp(kind, "input") == 0;
  for (size_t i = 0; i < list.size() && c.ok(); ++i) {
    const ModelIo& io = list[i];
    if (io.name.empty()) return c.Fail("model {} {} has no name", kind, i);
    if (!names.insert(io.name).second) {
      return c.Fail("model {} {} ('{}'): the name is used twice", kind, i, io.name);
    }
    if (io.tensor < 0 || static_cast<size_t>(io.tensor) >= m.tensors.size()) {
      return c.Fail("model {} {} ('{}'): tensor id {} is out of range ({} tensors)", kind, i,
                    io.name, io.tensor, m.tensors.size());
    }
    if (!tensors.insert(io.tensor).second) {
      return c.Fail("model {} {} ('{}'): {} is listed twice", kind, i, io.name,
                    TensorLabel(m, io.tensor));
    }
    if (!is_input) continue;
    auto& src = (*source)[static_cast<size_t>(io.tensor)];
    if (src == Source::kConstant) {
      return c.Fail("model input {} ('{}'): {} is a constant", i, io.name,
                    TensorLabel(m, io.tensor));
    }
    src = Source::kInput;
  }
}

void CheckNodes(Checker& c, const ModelFile& m, std::vector<Source>* source) {
  if (m.nodes.size() > kModelMaxNodes)
    return c.Fail("{} nodes (limit {})", m.nodes.size(), kModelMaxNodes);
  std::vector<size_t> producer(m.tensors.size(), 0);
  std::unordered_set<std::string_view> names;
  const auto ntensors = static_cast<int64_t>(m.tensors.size());
  for (size_t i = 0; i < m.nodes.size() && c.ok(); ++i) {
    const ModelNode& n = m.nodes[i];
    const std::string what = NodeLabel(n, i);
    if (n.type.empty()) return c.Fail("node {} has no op type", i);
    if (n.name.empty()) return c.Fail("node {} ({}) has no name", i, n.type);
    if (!names.insert(n.name).second) return c.Fail("{}: the name is used twice", what);
    if (n.inputs.size() > kModelMaxNodeIo || n.outputs.size() > kModelMaxNodeIo) {
      return c.Fail("{}: {} inputs, {} outputs (limit {})", what, n.inputs.size(), n.outputs.size(),
                    kModelMaxNodeIo);
    }
    if (n.outputs.empty()) return c.Fail("{}: has no outputs", what);
    for (const auto& [attr, value] : n.attrs) {
      if (attr.empty()) return c.Fail("{}: an attribute has an empty name", what);
    }
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      const int32_t t = n.inputs[k];
      if (t == -1) continue;
      if (t < -1 || t >= ntensors) {
        return c.Fail("{}: input {} is tensor id {}, out of range (-1..{})", what, k, t,
                      ntensors - 1);
      }
      if ((*source)[static_cast<size_t>(t)] == Source::kNone) {
        return c.Fail(
            "{}: input {} reads {}, which is neither a model input, a constant nor an output of "
            "an earlier node (nodes must be in execution order)",
            what, k, TensorLabel(m, t));
      }
    }
    for (size_t k = 0; k < n.outputs.size(); ++k) {
      const int32_t t = n.outputs[k];
      if (t < 0 || t >= ntensors) {
        return c.Fail("{}: output {} is tensor id {}, out of range (0..{})", what, k, t,
                      ntensors - 1);
      }
      auto& src = (*source)[static_cast<size_t>(t)];
      if (src != Source::kNone) {
        const std::string by = src == Source::kInput ? std::string("it is a model input")
                               : src == Source::kConstant
                                   ? std::string("it is a constant")
                                   : NodeLabel(m.nodes[producer[static_cast<size_t>(t)]],
                                               producer[static_cast<size_t>(t)]);
        return c.Fail("{}: output {} writes {}, which is produced twice ({})", what, k,
                      TensorLabel(m, t), by);
      }
      src = Source::kNode;
      producer[static_cast<size_t>(t)] = i;
    }
  }
}

void CheckGears(Checker& c, const ModelFile& m) {
  const DynamicGears& g = m.gears;
  const auto kind = static_cast<uint8_t>(g.kind);
  if (kind > static_cast<uint8_t>(GearKind::kDims)) return c.Fail("gears: unknown kind {}", kind);
  if (g.kind == GearKind::kNone) {
    if (!g.inputs.empty() || !g.gears.empty()) {
      c.Fail("gears: kind none with {} inputs and {} gears", g.inputs.size(), g.gears.size());
    }
    return;
  }
  if (g.gears.empty() || g.gears.size() > kModelMaxGears) {
    return c.Fail("gears: {} gears (1..{})", g.gears.size(), kModelMaxGears);
  }
  std::vector<bool> listed(m.inputs.size(), false);
  size_t unknown = 0;
  for (size_t k = 0; k < g.inputs.size(); ++k) {
    const int32_t in = g.inputs[k];
    if (in < 0 || static_cast<size_t>(in) >= m.inputs.size() || (k > 0 && in <= g.inputs[k - 1])) {
      return c.Fail("gears: input {} is {}, not an ascending model input index (0..{})", k, in,
                    m.inputs.size());
    }
    listed[static_cast<size_t>(in)] = true;
    const auto& dims = m.tensors[static_cast<size_t>(m.inputs[in].tensor)].desc.dims;
    const size_t n = UnknownDims(dims);
    const size_t want = g.kind == GearKind::kBatch ? 1 : g.kind == GearKind::kImageSize ? 2 : 0;
    const char* gear_kind = g.kind == GearKind::kBatch       ? "batch"
                            : g.kind == GearKind::kImageSize ? "image size"
                                                             : "dims";
    if (UnknownRank(dims)) {
      return c.Fail("gears: model input {} ('{}') has an unknown rank; {} gears need -1 dims", in,
                    m.inputs[in].name, gear_kind);
    }
    if (n == 0 || (want != 0 && n != want)) {
      return c.Fail("gears: model input {} ('{}') has {} -1 dims; {} gears need {}", in,
                    m.inputs[in].name, n, gear_kind,
                    want == 0 ? std::string("at least one") : fmt::to_string(want));
    }
    unknown += n;
  }
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    const auto& dims = m.tensors[static_cast<size_t>(m.inputs[i].tensor)].desc.dims;
    if (!listed[i] && (UnknownRank(dims) || UnknownDims(dims) != 0)) {
      return c.Fail("gears: model input {} ('{}') has dynamic dims but no gear fills them", i,
                    m.inputs[i].name);
    }
  }
  const size_t values = g.kind == GearKind::kBatch       ? 1
                        : g.kind == GearKind::kImageSize ? 2
                                                         : unknown;
  std::set<std::vector<int64_t>> seen;
  for (size_t k = 0; k < g.gears.size(); ++k) {
    const auto& gear = g.gears[k];
    if (gear.size() != values) {
      return c.Fail("gears: gear {} has {} values, the inputs need {}", k, gear.size(), values);
    }
    for (int64_t v : gear) {
      if (v <= 0) return c.Fail("gears: gear {} has value {} (values are > 0)", k, v);
    }
    if (!seen.insert(gear).second) return c.Fail("gears: gear {} appears twice", k);
    // The shapes a gear gives its inputs are tensors like any other: bounded in size.
    const auto dims = GearInputDims(m, k);
    for (size_t i = 0; i < m.inputs.size(); ++i) {
      ops::TensorDesc probe = m.tensors[static_cast<size_t>(m.inputs[i].tensor)].desc;
      probe.dims = dims[i];
      const Status size =
          ops::CheckTensorSize(probe, fmt::format("gears: gear {}, model input {}", k, i));
      if (!size.ok()) return c.Fail("{}", size.message());
    }
  }
}

void WritePayload(OmWriter& w, const ModelFile& m) {
  w.Str(m.name);
  w.Str(m.soc_version);
  w.U32(static_cast<uint32_t>(m.tensors.size()));
  for (const auto& t : m.tensors) {
    w.Tensor(t.desc);
    w.U8(t.constant ? 1 : 0);
    if (t.constant) {
      w.U64(t.constant->offset);
      w.U64(t.constant->size);
    }
  }
  w.U32(static_cast<uint32_t>(m.nodes.size()));
  for (const auto& n : m.nodes) {
    w.Str(n.type);
    w.Str(n.name);
    w.Ids(n.inputs);
    w.Ids(n.outputs);
    w.Attrs(n.attrs);
  }
  for (const auto* list : {&m.inputs, &m.outputs}) {
    w.U32(static_cast<uint32_t>(list->size()));
    for (const auto& io : *list) {
      w.Str(io.name);
      w.I32(io.tensor);
    }
  }
  w.U8(static_cast<uint8_t>(m.gears.kind));
  w.Ids(m.gears.inputs);
  w.U32(static_cast<uint32_t>(m.gears.gears.size()));
  for (const auto& gear : m.gears.gears) w.Dims(gear);
  w.U64(m.weights.size());
  w.Raw(m.weights.data(), m.weights.size());
}

ModelFile ReadPayload(OmReader& r) {
  ModelFile m;
  m.name = r.Str("model name");
  m.soc_version = r.Str("soc_version");
  const size_t ntensors = r.Count("tensors", kMinTensorBytes, kModelMaxTensors);
  for (size_t i = 0; i < ntensors && r.ok(); ++i) {
    ModelTensor t;
    t.desc = r.Tensor(fmt::format("tensor {}", i));
    const uint8_t is_const = r.U8("is_const");
    if (r.ok() && is_const > 1) r.Fail("tensor {}: is_const is {}, not 0 or 1", i, is_const);
    if (is_const == 1) {
      WeightRange w;
      w.offset = r.U64("weights offset");
      w.size = r.U64("weights size");
      t.constant = w;
    }
    m.tensors.push_back(std::move(t));
  }
  const size_t nnodes = r.Count("nodes", kMinNodeBytes, kModelMaxNodes);
  for (size_t i = 0; i < nnodes && r.ok(); ++i) {
    ModelNode n;
    n.type = r.Str("node op type");
    n.name = r.Str("node name");
    n.inputs = r.Ids("node inputs", kModelMaxNodeIo);
    n.outputs = r.Ids("node outputs", kModelMaxNodeIo);
    n.attrs = r.Attrs(fmt::format("node {} ({} '{}'): ", i, n.type, n.name));
    m.nodes.push_back(std::move(n));
  }
  for (auto* list : {&m.inputs, &m.outputs}) {
    const char* field = list == &m.inputs ? "model inputs" : "model outputs";
    const size_t n = r.Count(field, kMinIoBytes, kModelMaxIo);
    list->reserve(n);
    for (size_t i = 0; i < n && r.ok(); ++i) {
      ModelIo io;
      io.name = r.Str(field);
      io.tensor = r.I32(field);
      list->push_back(std::move(io));
    }
  }
  const uint8_t kind = r.U8("gear kind");
  if (r.ok() && kind > static_cast<uint8_t>(GearKind::kDims)) {
    r.Fail("gears: unknown kind {} (0..3)", kind);
  }
  m.gears.kind = static_cast<GearKind>(kind);
  m.gears.inputs = r.Ids("gear inputs", kModelMaxIo);
  const size_t ngears = r.Count("gears", 4, SIZE_MAX);  // ValidateModel words the limit
  for (size_t i = 0; i < ngears && r.ok(); ++i)
    m.gears.gears.push_back(r.Dims("gear", kOmMaxRank * kModelMaxIo));
  const uint64_t nweights = r.U64("weights size");
  if (r.ok() && nweights > r.remaining()) {
    r.Fail("weights size {} is larger than the {} bytes left", nweights, r.remaining());
  }
  if (r.ok()) {
    m.weights.resize(static_cast<size_t>(nweights));
    r.Raw(m.weights.data(), m.weights.size(), "weights");
  }
  if (r.ok() && r.remaining() != 0) r.Fail("{} unexpected bytes after the weights", r.remaining());
  return m;
}

}  // namespace

bool LooksLikeCannModel(const void* data, size_t size) {
  if (data == nullptr || size < 4) return false;
  uint32_t magic = 0;
  std::memcpy(&magic, data, 4);
  return magic == kCannModelMagic;
}

Status ValidateModel(const ModelFile& model, std::string_view origin) {
  Checker c(origin);
  if (model.tensors.size() > kModelMaxTensors) {
    c.Fail("{} tensors (limit {})", model.tensors.size(), kModelMaxTensors);
  }
  std::unordered_set<std::string_view> names;
  std::vector<Source> source(model.tensors.size(), Source::kNone);
  // Each tensor is at most kMaxTensorBytes; all of them together at most 2^60 bytes, so the
  // memory planner's offsets and arena sizes cannot wrap.
  uint64_t total_bytes = 0;
  for (size_t i = 0; i < model.tensors.size() && c.ok(); ++i) {
    CheckTensor(c, model, i, &names);
    if (model.tensors[i].constant) source[i] = Source::kConstant;
    const ops::TensorDesc& d = model.tensors[i].desc;
    if (!c.ok() || !d.shape_known()) continue;
    const auto sum = CheckedAdd(total_bytes, uint64_t{d.ByteSize()});
    if (!sum || *sum > (uint64_t{1} << 60)) {
      c.Fail("its tensors need more than 2^60 bytes together (at {})",
             TensorLabel(model, static_cast<int64_t>(i)));
    } else {
      total_bytes = *sum;
    }
  }
  if (c.ok()) CheckIo(c, model, model.inputs, "input", &source);
  if (c.ok()) CheckNodes(c, model, &source);
  if (c.ok() && model.outputs.empty()) c.Fail("the model has no outputs");
  if (c.ok()) CheckIo(c, model, model.outputs, "output", &source);
  for (size_t i = 0; i < model.tensors.size() && c.ok(); ++i) {
    if (source[i] == Source::kNone) {
      c.Fail("{} is neither a model input, a constant nor an output of a node",
             TensorLabel(model, static_cast<int64_t>(i)));
    }
  }
  if (c.ok()) CheckGears(c, model);
  return c.status();
}

std::vector<uint8_t> SerializeModel(const ModelFile& model) {
  OmWriter payload;
  WritePayload(payload, model);
  return SealOm(kOmKindGraph, payload.bytes());
}

Result<ModelFile> ParseModel(const void* data, size_t size, std::string_view origin) {
  if (LooksLikeCannModel(data, size)) {
    return Err(StatusCode::kParseModel,
               "model {}: this is an offline model of CANN's own format (it starts with CANN's "
               "magic \"IMOD\"), which aclsim cannot load; convert the source model with aclsim's "
               "atc instead, e.g. atc --model=model.onnx --framework=5 --output=model "
               "--soc_version=<SoC>",
               origin);
  }
  constexpr OmErrorStyle kStyle{"model", StatusCode::kReadModelFailure, StatusCode::kParseModel};
  ACLSIM_ASSIGN_OR_RETURN(const OmPayload payload, OpenOm(data, size, origin, kStyle));
  if (payload.kind == kOmKindSingleOp) {
    return Err(StatusCode::kParseModel,
               "model {}: is a single-op model (kind {}), not a graph model (kind {}); load it "
               "with aclopLoad or aclopSetModelDir",
               origin, kOmKindSingleOp, kOmKindGraph);
  }
  if (payload.kind != kOmKindGraph) {
    return Err(StatusCode::kParseModel, "model {}: model kind {} is not a graph model (kind {})",
               origin, payload.kind, kOmKindGraph);
  }
  OmReader r(payload.data, payload.size, StatusCode::kParseModel, fmt::format("model {}", origin));
  ModelFile model = ReadPayload(r);
  if (!r.ok()) return r.status();
  ACLSIM_RETURN_IF_ERROR(ValidateModel(model, origin));
  return model;
}

// The largest .om file read (a bound, not a format limit: a device file or a mistaken path).
constexpr uint64_t kMaxModelFileBytes = uint64_t{64} << 30;

Result<ModelFile> LoadModelFile(const std::string& path) {
  ACLSIM_ASSIGN_OR_RETURN(
      auto bytes, ReadRegularFile<std::vector<uint8_t>>(path, kMaxModelFileBytes, "model file"));
  return ParseModel(bytes.data(), bytes.size(), path);
}

std::vector<std::vector<int64_t>> GearInputDims(const ModelFile& model, size_t gear) {
  std::vector<std::vector<int64_t>> dims;
  dims.reserve(model.inputs.size());
  for (const auto& io : model.inputs) {
    dims.push_back(model.tensors[static_cast<size_t>(io.tensor)].desc.dims);
  }
  const DynamicGears& g = model.gears;
  if (g.kind == GearKind::kNone || gear >= g.gears.size()) return dims;
  const auto& values = g.gears[gear];
  size_t next = 0;
  for (int32_t in : g.inputs) {
    for (int64_t& d : dims[static_cast<size_t>(in)]) {
      if (d != ops::kUnknownDim) continue;
      // Batch: every -1 takes the one value; image size and dims: values in order.
      d = values[g.kind == GearKind::kBatch ? 0 : next];
      next = g.kind == GearKind::kImageSize ? (next + 1) % 2 : next + 1;
    }
  }
  return dims;
}

std::vector<TensorLifetime> TensorLifetimes(const ModelFile& model) {
  std::vector<TensorLifetime> life(model.tensors.size());
  for (size_t i = 0; i < model.nodes.size(); ++i) {
    const auto step = static_cast<int64_t>(i);
    for (int32_t t : model.nodes[i].inputs) {
      if (t >= 0) life[static_cast<size_t>(t)].last = step;
    }
    for (int32_t t : model.nodes[i].outputs) life[static_cast<size_t>(t)] = {step, step};
  }
  for (const auto& io : model.outputs) {
    life[static_cast<size_t>(io.tensor)].last = static_cast<int64_t>(model.nodes.size());
  }
  return life;
}

}  // namespace aclsim::core
