// Single-op model files and the registry (core/op_model.h).
#include "core/op_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/op_cache.h"
#include "dfx/log.h"

namespace aclsim::core {

namespace {

// Attribute tags: the index of the alternative in driver::AttrValue.
constexpr uint8_t kAttrTagCount = std::variant_size_v<driver::AttrValue>;

class Writer {
 public:
  void U8(uint8_t v) { out_.push_back(v); }
  void U32(uint32_t v) { Raw(&v, 4); }
  void I32(int32_t v) { Raw(&v, 4); }
  void I64(int64_t v) { Raw(&v, 8); }
  void F32(float v) { Raw(&v, 4); }
  void Str(const std::string& s) {
    U32(static_cast<uint32_t>(s.size()));
    Raw(s.data(), s.size());
  }
  void Dims(const std::vector<int64_t>& dims) {
    U32(static_cast<uint32_t>(dims.size()));
    for (int64_t d : dims) I64(d);
  }
  void Raw(const void* p, size_t n) {  // little-endian hosts only (x86-64, aarch64)
    const auto* b = static_cast<const uint8_t*>(p);
    out_.insert(out_.end(), b, b + n);
  }
  std::vector<uint8_t>& bytes() { return out_; }

 private:
  std::vector<uint8_t> out_;
};

void WriteTensor(Writer& w, const driver::TensorDesc& t) {
  w.I32(static_cast<int32_t>(t.dtype));
  w.I32(static_cast<int32_t>(t.format));
  w.I32(static_cast<int32_t>(t.storage_format));
  w.Dims(t.dims);
  w.Dims(t.storage_dims);
  w.U32(static_cast<uint32_t>(t.shape_range.size()));
  for (const auto& [lo, hi] : t.shape_range) {
    w.I64(lo);
    w.I64(hi);
  }
  w.Str(t.name);
  w.U8(t.value ? 1 : 0);
  if (t.value) {
    w.U32(static_cast<uint32_t>(t.value->size()));
    w.Raw(t.value->data(), t.value->size());
  }
}

void WriteAttr(Writer& w, const driver::AttrValue& value) {
  w.U8(static_cast<uint8_t>(value.index()));
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          w.U8(v ? 1 : 0);
        } else if constexpr (std::is_same_v<T, int64_t>) {
          w.I64(v);
        } else if constexpr (std::is_same_v<T, float>) {
          w.F32(v);
        } else if constexpr (std::is_same_v<T, std::string>) {
          w.Str(v);
        } else if constexpr (std::is_same_v<T, driver::DataType>) {
          w.I32(static_cast<int32_t>(v));
        } else if constexpr (std::is_same_v<T, std::vector<bool>>) {
          w.U32(static_cast<uint32_t>(v.size()));
          for (bool b : v) w.U8(b ? 1 : 0);
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          w.Dims(v);
        } else if constexpr (std::is_same_v<T, std::vector<float>>) {
          w.U32(static_cast<uint32_t>(v.size()));
          for (float f : v) w.F32(f);
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          w.U32(static_cast<uint32_t>(v.size()));
          for (const auto& s : v) w.Str(s);
        } else if constexpr (std::is_same_v<T, std::vector<driver::DataType>>) {
          w.U32(static_cast<uint32_t>(v.size()));
          for (auto d : v) w.I32(static_cast<int32_t>(d));
        } else {
          static_assert(std::is_same_v<T, std::vector<std::vector<int64_t>>>);
          w.U32(static_cast<uint32_t>(v.size()));
          for (const auto& l : v) w.Dims(l);
        }
      },
      value);
}

// Bounds-checked little-endian reader. The first failure sticks; later reads return zeros.
class Reader {
 public:
  Reader(const uint8_t* data, size_t size, std::string origin)
      : p_(data), end_(data + size), origin_(std::move(origin)) {}

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  size_t remaining() const { return static_cast<size_t>(end_ - p_); }

  template <typename... Args>
  void Fail(fmt::format_string<Args...> format, Args&&... args) {
    if (!ok()) return;
    status_ = Status(StatusCode::kOpLoadFailed,
                     fmt::format("single-op model {}: {}", origin_,
                                 fmt::format(format, std::forward<Args>(args)...)));
  }

  bool Raw(void* out, size_t n, const char* field) {
    if (!ok()) return false;
    if (remaining() < n) {
      Fail("truncated at {} (needs {} bytes, {} left)", field, n, remaining());
      return false;
    }
    std::memcpy(out, p_, n);
    p_ += n;
    return true;
  }
  uint8_t U8(const char* field) {
    uint8_t v = 0;
    Raw(&v, 1, field);
    return v;
  }
  uint32_t U32(const char* field) {
    uint32_t v = 0;
    Raw(&v, 4, field);
    return v;
  }
  int32_t I32(const char* field) {
    int32_t v = 0;
    Raw(&v, 4, field);
    return v;
  }
  int64_t I64(const char* field) {
    int64_t v = 0;
    Raw(&v, 8, field);
    return v;
  }
  float F32(const char* field) {
    float v = 0;
    Raw(&v, 4, field);
    return v;
  }
  // A count of elements of at least `min_bytes` each, checked against the bytes left.
  size_t Count(const char* field, size_t min_bytes, size_t limit) {
    const uint32_t n = U32(field);
    if (!ok()) return 0;
    if (n > limit || static_cast<uint64_t>(n) * min_bytes > remaining()) {
      Fail("{} count {} is too large ({} bytes left, limit {})", field, n, remaining(), limit);
      return 0;
    }
    return n;
  }
  std::string Str(const char* field) {
    const size_t n = Count(field, 1, kOpModelMaxString);
    std::string s(n, '\0');
    if (n > 0) Raw(s.data(), n, field);
    return ok() ? s : std::string();
  }
  std::vector<int64_t> Dims(const char* field, size_t limit) {
    const size_t n = Count(field, 8, limit);
    std::vector<int64_t> dims(n);
    for (auto& d : dims) d = I64(field);
    return dims;
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
  std::string origin_;
  Status status_;
};

void CheckDims(Reader& r, const std::vector<int64_t>& dims, const std::string& what) {
  if (dims.size() == 1 && dims[0] == driver::kUnknownRank) return;
  for (int64_t d : dims) {
    if (d < driver::kUnknownDim) {
      r.Fail("{}: dim {} is invalid (dims are >= 0, -1 unknown, or the shape is [-2])", what, d);
      return;
    }
  }
}

driver::TensorDesc ReadTensor(Reader& r, const std::string& what) {
  driver::TensorDesc t;
  const int32_t dtype = r.I32("dtype");
  const int32_t format = r.I32("format");
  const int32_t storage = r.I32("storage_format");
  if (!r.ok()) return t;
  if (!driver::IsKnownDataType(dtype)) r.Fail("{}: unknown dtype {}", what, dtype);
  if (!driver::IsKnownFormat(format) || format == static_cast<int32_t>(driver::Format::kUndefined))
    r.Fail("{}: unknown format {}", what, format);
  if (!driver::IsKnownFormat(storage)) r.Fail("{}: unknown storage format {}", what, storage);
  t.dtype = static_cast<driver::DataType>(dtype);
  t.format = static_cast<driver::Format>(format);
  t.storage_format = static_cast<driver::Format>(storage);
  t.dims = r.Dims("dims", kOpModelMaxRank);
  CheckDims(r, t.dims, what + " dims");
  t.storage_dims = r.Dims("storage_dims", kOpModelMaxRank);
  CheckDims(r, t.storage_dims, what + " storage dims");
  const size_t ranges = r.Count("shape_range", 16, kOpModelMaxRank);
  for (size_t i = 0; i < ranges && r.ok(); ++i) {
    const int64_t lo = r.I64("shape_range");
    const int64_t hi = r.I64("shape_range");
    if (r.ok() && (lo < 0 || (hi != -1 && hi < lo))) {
      r.Fail("{}: shape range {} [{}, {}] is invalid", what, i, lo, hi);
    }
    t.shape_range.emplace_back(lo, hi);
  }
  if (r.ok() && ranges != 0 && ranges != t.dims.size()) {
    r.Fail("{}: {} shape ranges for {} dims", what, ranges, t.dims.size());
  }
  t.name = r.Str("tensor name");
  const uint8_t has_value = r.U8("has_value");
  if (r.ok() && has_value > 1) r.Fail("{}: has_value is {}, not 0 or 1", what, has_value);
  if (r.ok() && has_value == 1) {
    const size_t n = r.Count("const value", 1, SIZE_MAX);
    std::vector<uint8_t> value(n);
    if (n > 0) r.Raw(value.data(), n, "const value");
    if (r.ok() && t.shape_known() && t.ByteSize() != n && driver::DataTypeSize(t.dtype) != 0) {
      r.Fail("{}: constant value has {} bytes but its descriptor needs {}", what, n, t.ByteSize());
    }
    t.value = std::move(value);
  }
  return t;
}

template <typename T, typename Fn>
std::vector<T> ReadList(Reader& r, const char* field, size_t min_bytes, Fn&& read_one) {
  const size_t n = r.Count(field, min_bytes, SIZE_MAX);
  std::vector<T> v;
  v.reserve(n);
  for (size_t i = 0; i < n && r.ok(); ++i) v.push_back(read_one());
  return v;
}

driver::DataType ReadDataType(Reader& r, const std::string& what) {
  const int32_t v = r.I32("data_type attribute");
  if (r.ok() && !driver::IsKnownDataType(v)) r.Fail("{}: unknown data type {}", what, v);
  return static_cast<driver::DataType>(v);
}

driver::AttrValue ReadAttr(Reader& r, const std::string& what) {
  const uint8_t tag = r.U8("attribute tag");
  if (!r.ok()) return false;
  switch (tag) {
    case 0: {
      const uint8_t b = r.U8("bool attribute");
      if (r.ok() && b > 1) r.Fail("{}: bool value {}", what, b);
      return b == 1;
    }
    case 1:
      return r.I64("int attribute");
    case 2:
      return r.F32("float attribute");
    case 3:
      return r.Str("string attribute");
    case 4:
      return ReadDataType(r, what);
    case 5:
      return ReadList<bool>(r, "list_bool attribute", 1, [&] {
        const uint8_t b = r.U8("list_bool attribute");
        if (r.ok() && b > 1) r.Fail("{}: bool value {}", what, b);
        return b == 1;
      });
    case 6:
      return r.Dims("list_int attribute", SIZE_MAX);
    case 7:
      return ReadList<float>(r, "list_float attribute", 4, [&] { return r.F32("list_float"); });
    case 8:
      return ReadList<std::string>(r, "list_string attribute", 4,
                                   [&] { return r.Str("list_string attribute"); });
    case 9:
      return ReadList<driver::DataType>(r, "list_data_type attribute", 4,
                                        [&] { return ReadDataType(r, what); });
    case 10:
      return ReadList<std::vector<int64_t>>(r, "list_list_int attribute", 4, [&] {
        return r.Dims("list_list_int attribute", SIZE_MAX);
      });
    default:
      r.Fail("{}: unknown attribute tag {} (0..{})", what, tag, kAttrTagCount - 1);
      return false;
  }
}

uint32_t ReadLe32(const uint8_t* p) {
  uint32_t v = 0;
  std::memcpy(&v, p, 4);
  return v;
}

bool DimAccepts(int64_t model_dim, int64_t dim, const std::pair<int64_t, int64_t>* range) {
  if (model_dim != driver::kUnknownDim) return model_dim == dim;
  if (dim < 0) return false;  // a call's dims are concrete at execution
  if (range == nullptr) return true;
  return dim >= range->first && (range->second == -1 || dim <= range->second);
}

driver::Format StorageOf(const driver::TensorDesc& t) {
  return t.has_storage_layout() ? t.storage_format : t.format;
}

bool DescAccepts(const driver::TensorDesc& model, const driver::TensorDesc& call) {
  if (model.absent() || call.absent()) return model.absent() && call.absent();
  if (model.dtype != call.dtype || model.format != call.format ||
      StorageOf(model) != StorageOf(call)) {
    return false;
  }
  if (model.value && (!call.value || *call.value != *model.value)) return false;
  if (model.dims.size() == 1 && model.dims[0] == driver::kUnknownRank) return true;
  if (model.dims.size() != call.dims.size()) return false;
  const bool ranged = model.shape_range.size() == model.dims.size();
  for (size_t i = 0; i < model.dims.size(); ++i) {
    if (!DimAccepts(model.dims[i], call.dims[i], ranged ? &model.shape_range[i] : nullptr)) {
      return false;
    }
  }
  return true;
}

bool SameCall(const driver::OpCall& a, const driver::OpCall& b) {
  if (OpCacheKey(a, true) != OpCacheKey(b, true)) return false;
  for (size_t i = 0; i < a.inputs.size(); ++i) {
    if (a.inputs[i].shape_range != b.inputs[i].shape_range) return false;
  }
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    if (a.outputs[i].shape_range != b.outputs[i].shape_range) return false;
  }
  return true;
}

}  // namespace

uint32_t Crc32(const uint8_t* data, size_t size) {
  static const std::array<uint32_t, 256> kTable = [] {
    std::array<uint32_t, 256> table{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[i] = c;
    }
    return table;
  }();
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < size; ++i) crc = kTable[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

std::vector<uint8_t> SerializeOpModel(const OpModel& model) {
  Writer payload;
  payload.Str(model.call.type);
  payload.Str(model.soc_version);
  payload.U32(static_cast<uint32_t>(model.call.inputs.size()));
  for (const auto& t : model.call.inputs) WriteTensor(payload, t);
  payload.U32(static_cast<uint32_t>(model.call.outputs.size()));
  for (const auto& t : model.call.outputs) WriteTensor(payload, t);
  payload.U32(static_cast<uint32_t>(model.call.attrs.size()));
  for (const auto& [name, value] : model.call.attrs) {
    payload.Str(name);
    WriteAttr(payload, value);
  }
  const auto& body = payload.bytes();
  Writer file;
  file.Raw(kOpModelMagic, sizeof(kOpModelMagic));
  file.U32(kOpModelVersion);
  file.U32(kOpModelKindSingleOp);
  const uint64_t size = body.size();
  file.Raw(&size, 8);
  file.U32(Crc32(body.data(), body.size()));
  file.U32(0);
  file.Raw(body.data(), body.size());
  return std::move(file.bytes());
}

bool LooksLikeOpModel(const void* data, size_t size) {
  return data != nullptr && size >= sizeof(kOpModelMagic) &&
         std::memcmp(data, kOpModelMagic, sizeof(kOpModelMagic)) == 0;
}

Result<OpModel> ParseOpModel(const void* data, size_t size, std::string_view origin) {
  auto fail = [&](std::string message) {
    return Status(StatusCode::kOpLoadFailed,
                  fmt::format("single-op model {}: {}", origin, message));
  };
  if (data == nullptr) return fail(fmt::format("no data"));
  if (size < kOpModelHeaderBytes) {
    return fail(
        fmt::format("{} bytes is shorter than the {}-byte header", size, kOpModelHeaderBytes));
  }
  const auto* bytes = static_cast<const uint8_t*>(data);
  if (!LooksLikeOpModel(data, size)) {
    return fail(fmt::format("not an aclsim single-op model (magic is not \"ACLSIMOP\")"));
  }
  const uint32_t version = ReadLe32(bytes + 8);
  if (version != kOpModelVersion) {
    return fail(fmt::format("format version {} is not supported (this runtime reads version {})",
                            version, kOpModelVersion));
  }
  const uint32_t kind = ReadLe32(bytes + 12);
  if (kind != kOpModelKindSingleOp) {
    return fail(fmt::format("model kind {} is not a single-op model (kind {})", kind,
                            kOpModelKindSingleOp));
  }
  uint64_t payload_size = 0;
  std::memcpy(&payload_size, bytes + 16, 8);
  if (payload_size != size - kOpModelHeaderBytes) {
    return fail(fmt::format("header says {} payload bytes but the file holds {}", payload_size,
                            size - kOpModelHeaderBytes));
  }
  if (ReadLe32(bytes + 28) != 0) return fail(fmt::format("reserved header field is not 0"));
  const uint8_t* body = bytes + kOpModelHeaderBytes;
  const uint32_t crc = Crc32(body, payload_size);
  if (crc != ReadLe32(bytes + 24)) {
    return fail(
        fmt::format("checksum mismatch (stored {:08x}, computed {:08x}): the file is corrupt",
                    ReadLe32(bytes + 24), crc));
  }

  Reader r(body, payload_size, std::string(origin));
  OpModel model;
  model.source = std::string(origin);
  model.call.type = r.Str("op type");
  if (r.ok() && model.call.type.empty()) r.Fail("op type is empty");
  model.soc_version = r.Str("soc_version");
  // A descriptor is at least 4+4+4+4+4+4+4+1 = 29 bytes.
  const size_t ninputs = r.Count("inputs", 29, kOpModelMaxTensors);
  for (size_t i = 0; i < ninputs && r.ok(); ++i) {
    model.call.inputs.push_back(ReadTensor(r, fmt::format("input {}", i)));
  }
  const size_t noutputs = r.Count("outputs", 29, kOpModelMaxTensors);
  for (size_t i = 0; i < noutputs && r.ok(); ++i) {
    model.call.outputs.push_back(ReadTensor(r, fmt::format("output {}", i)));
    if (r.ok() && model.call.outputs.back().absent()) r.Fail("output {} has no dtype", i);
  }
  const size_t nattrs = r.Count("attributes", 6, SIZE_MAX);
  for (size_t i = 0; i < nattrs && r.ok(); ++i) {
    std::string name = r.Str("attribute name");
    if (r.ok() && name.empty()) r.Fail("attribute {} has an empty name", i);
    driver::AttrValue value = ReadAttr(r, fmt::format("attribute '{}'", name));
    if (r.ok() && !model.call.attrs.emplace(std::move(name), std::move(value)).second) {
      r.Fail("attribute {} appears twice", i);
    }
  }
  if (r.ok() && r.remaining() != 0)
    r.Fail("{} unexpected bytes after the attributes", r.remaining());
  if (!r.ok()) return r.status();
  return model;
}

bool OpModelMatches(const driver::OpCall& model, const driver::OpCall& call) {
  if (model.type != call.type || model.inputs.size() != call.inputs.size() ||
      model.outputs.size() != call.outputs.size() || model.attrs != call.attrs) {
    return false;
  }
  for (size_t i = 0; i < model.inputs.size(); ++i) {
    if (!DescAccepts(model.inputs[i], call.inputs[i])) return false;
  }
  for (size_t i = 0; i < model.outputs.size(); ++i) {
    // Outputs carry no constants: a model output never has a value to compare.
    if (model.outputs[i].value) return false;
    if (!DescAccepts(model.outputs[i], call.outputs[i])) return false;
  }
  return true;
}

OpModelRegistry& OpModelRegistry::Process() {
  static OpModelRegistry* registry = new OpModelRegistry();  // outlives every caller
  return *registry;
}

void OpModelRegistry::Add(OpModel model) {
  auto shared = std::make_shared<const OpModel>(std::move(model));
  std::lock_guard<std::mutex> lock(mu_);
  auto& models = by_type_[shared->call.type];
  for (auto& existing : models) {
    if (SameCall(existing->call, shared->call)) {
      ACLSIM_LOG_DEBUG(dfx::Module::kAscendCl, "single-op model {} replaces {}", shared->source,
                       existing->source);
      existing = shared;
      return;
    }
  }
  models.push_back(std::move(shared));
  ++count_;
}

std::shared_ptr<const OpModel> OpModelRegistry::Match(const driver::OpCall& call) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = by_type_.find(call.type);
  if (it == by_type_.end()) return nullptr;
  for (auto m = it->second.rbegin(); m != it->second.rend(); ++m) {
    if (OpModelMatches((*m)->call, call)) return *m;
  }
  return nullptr;
}

size_t OpModelRegistry::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return count_;
}

void OpModelRegistry::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  by_type_.clear();
  count_ = 0;
  dir_set_ = false;
}

Status OpModelRegistry::LoadBytes(const void* data, size_t size) {
  ACLSIM_ASSIGN_OR_RETURN(OpModel model, ParseOpModel(data, size, "<memory>"));
  ACLSIM_LOG_INFO(dfx::Module::kAscendCl, "loaded single-op model of {} ({} bytes)",
                  model.call.type, size);
  Add(std::move(model));
  return Status::Ok();
}

Status OpModelRegistry::LoadDir(const std::string& dir, size_t* count) {
  namespace fs = std::filesystem;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (dir_set_) {
      return Err(StatusCode::kRepeatInitialize,
                 "the single-op model directory is already set; aclopSetModelDir may be called "
                 "once per process");
    }
  }
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return Err(StatusCode::kInvalidFile,
               "model directory '{}' does not exist or is not a directory", dir);
  }
  // The directory itself and two levels below it (CANN: "dir1, dir1/dir2, dir1/dir2/dir3").
  constexpr int kMaxDepth = 2;
  std::vector<fs::path> files;
  auto options = fs::directory_options::skip_permission_denied;
  for (auto it = fs::recursive_directory_iterator(dir, options, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    std::error_code entry_ec;
    if (it->is_directory(entry_ec) && it.depth() >= kMaxDepth) it.disable_recursion_pending();
    if (it->is_regular_file(entry_ec) && it->path().extension() == ".om") {
      files.push_back(it->path());
    }
  }
  if (ec)
    return Err(StatusCode::kInvalidFile, "cannot read model directory '{}': {}", dir, ec.message());
  std::sort(files.begin(), files.end());

  std::vector<OpModel> models;
  for (const auto& path : files) {
    std::ifstream in(path, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
      return Err(StatusCode::kInvalidFile, "cannot read single-op model {}", path.string());
    }
    ACLSIM_ASSIGN_OR_RETURN(OpModel model, ParseOpModel(bytes.data(), bytes.size(), path.string()));
    models.push_back(std::move(model));
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (dir_set_) {
      return Err(StatusCode::kRepeatInitialize,
                 "the single-op model directory is already set; aclopSetModelDir may be called "
                 "once per process");
    }
    dir_set_ = true;
  }
  for (auto& model : models) {
    ACLSIM_LOG_INFO(dfx::Module::kAscendCl, "loaded single-op model {} ({})", model.source,
                    model.call.type);
    Add(std::move(model));
  }
  if (count != nullptr) *count = models.size();
  return Status::Ok();
}

}  // namespace aclsim::core
