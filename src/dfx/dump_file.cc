// Data-dump files (dfx/dump_file.h, docs/dump.md).
#include "dfx/dump_file.h"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <type_traits>
#include <utility>

#include "common/float16.h"

namespace aclsim::dfx::dump {
namespace {

struct DtypeInfo {
  int32_t value;
  const char* name;
  uint32_t bits;
  const char* npy;  // NumPy descr, nullptr if NumPy has none
};

// aclDataType values (acl_base_rt.h).
constexpr DtypeInfo kDtypes[] = {
    {0, "float32", 32, "<f4"},     {1, "float16", 16, "<f2"},    {2, "int8", 8, "|i1"},
    {3, "int32", 32, "<i4"},       {4, "uint8", 8, "|u1"},       {6, "int16", 16, "<i2"},
    {7, "uint16", 16, "<u2"},      {8, "uint32", 32, "<u4"},     {9, "int64", 64, "<i8"},
    {10, "uint64", 64, "<u8"},     {11, "float64", 64, "<f8"},   {12, "bool", 8, "|b1"},
    {13, "string", 0, nullptr},    {16, "complex64", 64, "<c8"}, {17, "complex128", 128, "<c16"},
    {27, "bfloat16", 16, "<f4"},   {29, "int4", 4, nullptr},     {30, "uint1", 1, nullptr},
    {33, "complex32", 32, nullptr}};

const DtypeInfo* FindDtype(int32_t dtype) {
  for (const auto& info : kDtypes) {
    if (info.value == dtype) return &info;
  }
  return nullptr;
}

// ---- writing ----------------------------------------------------------------------------

class Writer {
 public:
  template <typename T>
  void Put(T value) {
    static_assert(std::is_trivially_copyable_v<T>, "plain values only");
    const auto* bytes = reinterpret_cast<const uint8_t*>(&value);
    out_.insert(out_.end(), bytes, bytes + sizeof(T));
  }
  void PutString(const std::string& text) {
    Put(static_cast<uint32_t>(text.size()));
    out_.insert(out_.end(), text.begin(), text.end());
  }
  void PutBytes(const uint8_t* data, size_t size) {
    if (size > 0) out_.insert(out_.end(), data, data + size);
  }
  std::vector<uint8_t> Take() { return std::move(out_); }

 private:
  std::vector<uint8_t> out_;
};

// ---- reading ----------------------------------------------------------------------------

class Reader {
 public:
  Reader(const uint8_t* data, size_t size, std::string origin)
      : data_(data), size_(size), origin_(std::move(origin)) {}

  template <typename T>
  Status Get(T* value, const char* what) {
    ACLSIM_RETURN_IF_ERROR(Need(sizeof(T), what));
    std::memcpy(value, data_ + pos_, sizeof(T));
    pos_ += sizeof(T);
    return Status::Ok();
  }
  Status GetString(std::string* text, const char* what) {
    uint32_t length = 0;
    ACLSIM_RETURN_IF_ERROR(Get(&length, what));
    ACLSIM_RETURN_IF_ERROR(Need(length, what));
    text->assign(reinterpret_cast<const char*>(data_ + pos_), length);
    pos_ += length;
    return Status::Ok();
  }
  Status GetBytes(std::vector<uint8_t>* bytes, uint64_t count, const char* what) {
    ACLSIM_RETURN_IF_ERROR(Need(count, what));
    bytes->assign(data_ + pos_, data_ + pos_ + count);
    pos_ += static_cast<size_t>(count);
    return Status::Ok();
  }
  size_t remaining() const { return size_ - pos_; }
  Status Fail(const std::string& what) const {
    return Err(StatusCode::kParseFile, "dump file '{}': {} (at byte {})", origin_, what, pos_);
  }

 private:
  Status Need(uint64_t bytes, const char* what) const {
    if (bytes > size_ - pos_) {
      return Fail(
          fmt::format("truncated: {} needs {} bytes, {} remain", what, bytes, size_ - pos_));
    }
    return Status::Ok();
  }

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  std::string origin_;
};

Status ReadTensorHeader(Reader& in, size_t i, DumpTensor* tensor) {
  uint8_t kind = 0;
  uint8_t payload = 0;
  uint16_t reserved = 0;
  ACLSIM_RETURN_IF_ERROR(in.Get(&kind, "tensor kind"));
  ACLSIM_RETURN_IF_ERROR(in.Get(&payload, "tensor payload"));
  ACLSIM_RETURN_IF_ERROR(in.Get(&reserved, "tensor reserved field"));
  if (kind > 2) return in.Fail(fmt::format("tensor {}: kind {} is not 0, 1 or 2", i, kind));
  if (payload > 1) return in.Fail(fmt::format("tensor {}: payload {} is not 0 or 1", i, payload));
  tensor->kind = static_cast<TensorKind>(kind);
  tensor->payload = static_cast<Payload>(payload);
  ACLSIM_RETURN_IF_ERROR(in.Get(&tensor->index, "tensor index"));
  ACLSIM_RETURN_IF_ERROR(in.Get(&tensor->dtype, "tensor dtype"));
  ACLSIM_RETURN_IF_ERROR(in.Get(&tensor->format, "tensor format"));
  uint32_t rank = 0;
  ACLSIM_RETURN_IF_ERROR(in.Get(&rank, "tensor rank"));
  if (rank > kMaxRank) {
    return in.Fail(fmt::format("tensor {}: rank {} exceeds {}", i, rank, kMaxRank));
  }
  tensor->dims.resize(rank);
  for (auto& dim : tensor->dims) {
    ACLSIM_RETURN_IF_ERROR(in.Get(&dim, "tensor dims"));
  }
  ACLSIM_RETURN_IF_ERROR(in.Get(&tensor->address, "tensor address"));
  ACLSIM_RETURN_IF_ERROR(in.Get(&tensor->bytes, "tensor byte size"));
  return Status::Ok();
}

// ---- statistics -------------------------------------------------------------------------

float Bf16ToFloat(uint16_t bits) {
  const uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value = 0;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

template <typename T>
T Load(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

// Element `i` of a real-number dtype as a double.
double ElementAt(int32_t dtype, const uint8_t* data, size_t i) {
  switch (dtype) {
    case 0:
      return Load<float>(data + i * 4);
    case 1:
      return HalfToFloat(Load<uint16_t>(data + i * 2));
    case 2:
      return Load<int8_t>(data + i);
    case 3:
      return Load<int32_t>(data + i * 4);
    case 4:
      return data[i];
    case 6:
      return Load<int16_t>(data + i * 2);
    case 7:
      return Load<uint16_t>(data + i * 2);
    case 8:
      return Load<uint32_t>(data + i * 4);
    case 9:
      return static_cast<double>(Load<int64_t>(data + i * 8));
    case 10:
      return static_cast<double>(Load<uint64_t>(data + i * 8));
    case 11:
      return Load<double>(data + i * 8);
    case 12:
      return data[i] != 0 ? 1.0 : 0.0;
    case 27:
      return Bf16ToFloat(Load<uint16_t>(data + i * 2));
    default:
      return 0;
  }
}

bool IsRealDtype(int32_t dtype) {
  switch (dtype) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
    case 6:
    case 7:
    case 8:
    case 9:
    case 10:
    case 11:
    case 12:
    case 27:
      return true;
    default:
      return false;
  }
}

std::string NpyShape(const std::vector<int64_t>& dims) {
  if (dims.empty()) return "()";
  if (dims.size() == 1) return fmt::format("({},)", dims[0]);
  std::string text = "(";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(dims[i]);
  }
  return text + ")";
}

}  // namespace

std::vector<uint8_t> Encode(const DumpRecord& record) {
  Writer out;
  for (char c : kMagic) out.Put(c);
  out.Put(kVersion);
  out.Put(record.flags);
  out.PutString(record.op_type);
  out.PutString(record.op_name);
  out.PutString(record.model_name);
  out.Put(record.model_id);
  out.Put(record.step);
  out.Put(record.device_id);
  out.Put(record.stream_id);
  out.Put(record.task_id);
  out.Put(record.timestamp_us);
  out.Put(static_cast<uint32_t>(record.tensors.size()));
  for (const DumpTensor& tensor : record.tensors) {
    out.Put(static_cast<uint8_t>(tensor.kind));
    out.Put(static_cast<uint8_t>(tensor.payload));
    out.Put(uint16_t{0});
    out.Put(tensor.index);
    out.Put(tensor.dtype);
    out.Put(tensor.format);
    out.Put(static_cast<uint32_t>(tensor.dims.size()));
    for (int64_t dim : tensor.dims) out.Put(dim);
    out.Put(tensor.address);
    out.Put(tensor.payload == Payload::kData ? static_cast<uint64_t>(tensor.data.size())
                                             : tensor.bytes);
  }
  for (const DumpTensor& tensor : record.tensors) {
    if (tensor.payload == Payload::kData) {
      out.PutBytes(tensor.data.data(), tensor.data.size());
    } else {
      out.Put(tensor.stats.min);
      out.Put(tensor.stats.max);
      out.Put(tensor.stats.mean);
      out.Put(tensor.stats.count);
      out.Put(tensor.stats.nan_count);
    }
  }
  return out.Take();
}

Result<DumpRecord> Decode(const uint8_t* data, size_t size, const std::string& origin) {
  Reader in(data, size, origin);
  char magic[8] = {};
  for (char& c : magic) {
    ACLSIM_RETURN_IF_ERROR(in.Get(&c, "magic"));
  }
  if (std::memcmp(magic, kMagic, sizeof(magic)) != 0) {
    return in.Fail("not an aclsim dump file (bad magic)");
  }
  uint32_t version = 0;
  ACLSIM_RETURN_IF_ERROR(in.Get(&version, "version"));
  if (version != kVersion) {
    return in.Fail(
        fmt::format("version {} is not supported (this reader knows {})", version, kVersion));
  }
  DumpRecord record;
  ACLSIM_RETURN_IF_ERROR(in.Get(&record.flags, "flags"));
  ACLSIM_RETURN_IF_ERROR(in.GetString(&record.op_type, "op type"));
  ACLSIM_RETURN_IF_ERROR(in.GetString(&record.op_name, "op name"));
  ACLSIM_RETURN_IF_ERROR(in.GetString(&record.model_name, "model name"));
  ACLSIM_RETURN_IF_ERROR(in.Get(&record.model_id, "model id"));
  ACLSIM_RETURN_IF_ERROR(in.Get(&record.step, "step"));
  ACLSIM_RETURN_IF_ERROR(in.Get(&record.device_id, "device id"));
  ACLSIM_RETURN_IF_ERROR(in.Get(&record.stream_id, "stream id"));
  ACLSIM_RETURN_IF_ERROR(in.Get(&record.task_id, "task id"));
  ACLSIM_RETURN_IF_ERROR(in.Get(&record.timestamp_us, "timestamp"));
  uint32_t count = 0;
  ACLSIM_RETURN_IF_ERROR(in.Get(&count, "tensor count"));
  constexpr size_t kMinHeader = 36;  // a rank-0 tensor header
  if (count > in.remaining() / kMinHeader) {
    return in.Fail(
        fmt::format("{} tensors cannot fit in the {} bytes left", count, in.remaining()));
  }
  record.tensors.resize(count);
  for (size_t i = 0; i < count; ++i) {
    ACLSIM_RETURN_IF_ERROR(ReadTensorHeader(in, i, &record.tensors[i]));
  }
  for (size_t i = 0; i < count; ++i) {
    DumpTensor& tensor = record.tensors[i];
    if (tensor.payload == Payload::kData) {
      ACLSIM_RETURN_IF_ERROR(in.GetBytes(&tensor.data, tensor.bytes, "tensor data"));
      continue;
    }
    ACLSIM_RETURN_IF_ERROR(in.Get(&tensor.stats.min, "tensor stats"));
    ACLSIM_RETURN_IF_ERROR(in.Get(&tensor.stats.max, "tensor stats"));
    ACLSIM_RETURN_IF_ERROR(in.Get(&tensor.stats.mean, "tensor stats"));
    ACLSIM_RETURN_IF_ERROR(in.Get(&tensor.stats.count, "tensor stats"));
    ACLSIM_RETURN_IF_ERROR(in.Get(&tensor.stats.nan_count, "tensor stats"));
  }
  if (in.remaining() != 0) {
    return in.Fail(fmt::format("{} unexpected bytes after the last tensor", in.remaining()));
  }
  return record;
}

Status WriteFile(const std::string& path, const DumpRecord& record) {
  const std::vector<uint8_t> bytes = Encode(record);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) {
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }
  if (!out) {
    return Err(StatusCode::kWriteFile, "cannot write dump file '{}': {}", path,
               std::strerror(errno));
  }
  return Status::Ok();
}

Result<DumpRecord> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Err(StatusCode::kInvalidFile, "cannot open dump file '{}'", path);
  const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in),
                                   std::istreambuf_iterator<char>()};
  return Decode(bytes.data(), bytes.size(), path);
}

std::string DtypeName(int32_t dtype) {
  const DtypeInfo* info = FindDtype(dtype);
  return info != nullptr ? info->name : fmt::format("dtype({})", dtype);
}

std::string FormatName(int32_t format) {
  switch (format) {
    case 0:
      return "NCHW";
    case 1:
      return "NHWC";
    case 2:
      return "ND";
    case 3:
      return "NC1HWC0";
    case 4:
      return "FRACTAL_Z";
    case 12:
      return "NC1HWC0_C04";
    case 16:
      return "HWCN";
    case 27:
      return "NDHWC";
    case 29:
      return "FRACTAL_NZ";
    case 30:
      return "NCDHW";
    case 32:
      return "NDC1HWC0";
    case 33:
      return "FRACTAL_Z_3D";
    case 35:
      return "NC";
    case 47:
      return "NCL";
    default:
      return fmt::format("format({})", format);
  }
}

uint32_t DtypeBits(int32_t dtype) {
  const DtypeInfo* info = FindDtype(dtype);
  return info != nullptr ? info->bits : 0;
}

uint64_t ElementCount(const std::vector<int64_t>& dims) {
  uint64_t count = 1;
  for (int64_t dim : dims) {
    if (dim < 0) return 0;
    count *= static_cast<uint64_t>(dim);
  }
  return count;
}

std::optional<TensorStats> ComputeStats(int32_t dtype, const uint8_t* data, size_t bytes) {
  if (!IsRealDtype(dtype)) return std::nullopt;
  const size_t width = DtypeBits(dtype) / 8;
  const size_t count = bytes / width;
  TensorStats stats;
  double sum = 0;
  double low = std::numeric_limits<double>::infinity();
  double high = -std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < count; ++i) {
    const double value = ElementAt(dtype, data, i);
    if (std::isnan(value)) {
      ++stats.nan_count;
      continue;
    }
    ++stats.count;
    sum += value;
    low = value < low ? value : low;
    high = value > high ? value : high;
  }
  if (stats.count > 0) {
    stats.min = low;
    stats.max = high;
    stats.mean = sum / static_cast<double>(stats.count);
  }
  return stats;
}

Result<std::vector<uint8_t>> ToNpy(const DumpTensor& tensor) {
  const DtypeInfo* info = FindDtype(tensor.dtype);
  if (info == nullptr || info->npy == nullptr) {
    return Err(StatusCode::kFeatureUnsupported, "NumPy has no dtype for {}",
               DtypeName(tensor.dtype));
  }
  if (tensor.payload != Payload::kData) {
    return Err(StatusCode::kFeatureUnsupported, "the tensor holds statistics only, no data");
  }
  const uint64_t elements = ElementCount(tensor.dims);
  const uint64_t width = info->bits / 8;
  if (tensor.data.size() != elements * width) {
    return Err(StatusCode::kParseFile,
               "the tensor's data has {} bytes but its dims ({} elements of {}) need {}",
               tensor.data.size(), elements, info->name, elements * width);
  }
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
                                   info->npy, NpyShape(tensor.dims));
  // magic (6) + version (2) + header length (2) + header, padded to 64 bytes, ending in '\n'.
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header.push_back('\n');
  std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  const auto length = static_cast<uint16_t>(header.size());
  out.push_back(static_cast<uint8_t>(length & 0xff));
  out.push_back(static_cast<uint8_t>(length >> 8));
  out.insert(out.end(), header.begin(), header.end());
  if (tensor.dtype == 27) {  // bfloat16 -> float32
    for (size_t i = 0; i < elements; ++i) {
      const float value = Bf16ToFloat(Load<uint16_t>(tensor.data.data() + i * 2));
      const auto* bytes = reinterpret_cast<const uint8_t*>(&value);
      out.insert(out.end(), bytes, bytes + sizeof(value));
    }
  } else {
    out.insert(out.end(), tensor.data.begin(), tensor.data.end());
  }
  return out;
}

std::string FileNamePart(const std::string& name) {
  if (name.empty()) return "_";
  std::string out = name;
  for (char& c : out) {
    if (c == '.' || c == '/' || c == '\\' || std::isspace(static_cast<unsigned char>(c)) != 0) {
      c = '_';
    }
  }
  return out;
}

}  // namespace aclsim::dfx::dump
