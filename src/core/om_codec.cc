// Shared `.om` encodings (core/om_codec.h).
#include "core/om_codec.h"

#include <zlib.h>

#include <array>
#include <cstdint>
#include <type_traits>
#include <variant>

#include "common/checked_size.h"

namespace aclsim::core {

namespace {

// Attribute tags: the index of the alternative in ops::AttrValue.
constexpr uint8_t kAttrTagCount = std::variant_size_v<ops::AttrValue>;

uint32_t ReadLe32(const uint8_t* p) {
  uint32_t v = 0;
  std::memcpy(&v, p, 4);
  return v;
}

void WriteAttr(OmWriter& w, const ops::AttrValue& value) {
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
        } else if constexpr (std::is_same_v<T, ops::DataType>) {
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
        } else if constexpr (std::is_same_v<T, std::vector<ops::DataType>>) {
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

template <typename T, typename Fn>
std::vector<T> ReadList(OmReader& r, const char* field, size_t min_bytes, Fn&& read_one) {
  const size_t n = r.Count(field, min_bytes, SIZE_MAX);
  std::vector<T> v;
  v.reserve(n);
  for (size_t i = 0; i < n && r.ok(); ++i) v.push_back(read_one());
  return v;
}

void CheckDims(OmReader& r, const std::vector<int64_t>& dims, const std::string& what) {
  if (dims.size() == 1 && dims[0] == ops::kUnknownRank) return;
  for (int64_t d : dims) {
    if (d < ops::kUnknownDim) {
      r.Fail("{}: dim {} is invalid (dims are >= 0, -1 unknown, or the shape is [-2])", what, d);
      return;
    }
  }
}

}  // namespace

uint32_t Crc32(const uint8_t* data, size_t size) {
  // zlib's CRC-32 (the IEEE polynomial, as the format documents), in chunks its uInt takes.
  uLong crc = crc32(0L, Z_NULL, 0);
  while (size > 0) {
    const auto chunk = static_cast<uInt>(std::min<size_t>(size, size_t{1} << 30));
    crc = crc32(crc, data, chunk);
    data += chunk;
    size -= chunk;
  }
  return static_cast<uint32_t>(crc);
}

std::optional<uint64_t> CheckedByteSize(const ops::TensorDesc& t) {
  const auto& shape = t.has_storage_layout() && !t.storage_dims.empty() ? t.storage_dims : t.dims;
  const size_t element = ops::DataTypeSize(t.dtype);
  const auto elements = CheckedProduct(shape.begin(), shape.end());
  if (element == 0 || !elements) return std::nullopt;
  return CheckedTensorBytes(*elements, element);
}

void OmWriter::Str(const std::string& s) {
  U32(static_cast<uint32_t>(s.size()));
  Raw(s.data(), s.size());
}

void OmWriter::Dims(const std::vector<int64_t>& dims) {
  U32(static_cast<uint32_t>(dims.size()));
  for (int64_t d : dims) I64(d);
}

void OmWriter::Ids(const std::vector<int32_t>& ids) {
  U32(static_cast<uint32_t>(ids.size()));
  for (int32_t id : ids) I32(id);
}

void OmWriter::Tensor(const ops::TensorDesc& t) {
  I32(static_cast<int32_t>(t.dtype));
  I32(static_cast<int32_t>(t.format));
  I32(static_cast<int32_t>(t.storage_format));
  Dims(t.dims);
  Dims(t.storage_dims);
  U32(static_cast<uint32_t>(t.shape_range.size()));
  for (const auto& [lo, hi] : t.shape_range) {
    I64(lo);
    I64(hi);
  }
  Str(t.name);
  U8(t.value ? 1 : 0);
  if (t.value) {
    U32(static_cast<uint32_t>(t.value->size()));
    Raw(t.value->data(), t.value->size());
  }
}

void OmWriter::Attrs(const ops::AttrMap& attrs) {
  U32(static_cast<uint32_t>(attrs.size()));
  for (const auto& [name, value] : attrs) {
    Str(name);
    WriteAttr(*this, value);
  }
}

bool OmReader::Raw(void* out, size_t n, const char* field) {
  if (!ok()) return false;
  if (remaining() < n) {
    Fail("truncated at {} (needs {} bytes, {} left)", field, n, remaining());
    return false;
  }
  if (n > 0) std::memcpy(out, p_, n);
  p_ += n;
  return true;
}

uint8_t OmReader::U8(const char* field) {
  uint8_t v = 0;
  Raw(&v, 1, field);
  return v;
}

uint32_t OmReader::U32(const char* field) {
  uint32_t v = 0;
  Raw(&v, 4, field);
  return v;
}

int32_t OmReader::I32(const char* field) {
  int32_t v = 0;
  Raw(&v, 4, field);
  return v;
}

uint64_t OmReader::U64(const char* field) {
  uint64_t v = 0;
  Raw(&v, 8, field);
  return v;
}

int64_t OmReader::I64(const char* field) {
  int64_t v = 0;
  Raw(&v, 8, field);
  return v;
}

float OmReader::F32(const char* field) {
  float v = 0;
  Raw(&v, 4, field);
  return v;
}

size_t OmReader::Count(const char* field, size_t min_bytes, size_t limit) {
  const uint32_t n = U32(field);
  if (!ok()) return 0;
  if (n > limit || static_cast<uint64_t>(n) * min_bytes > remaining()) {
    Fail("{} count {} is too large ({} bytes left, limit {})", field, n, remaining(), limit);
    return 0;
  }
  return n;
}

std::string OmReader::Str(const char* field) {
  const size_t n = Count(field, 1, kOmMaxString);
  std::string s(n, '\0');
  if (n > 0) Raw(s.data(), n, field);
  return ok() ? s : std::string();
}

std::vector<int64_t> OmReader::Dims(const char* field, size_t limit) {
  const size_t n = Count(field, 8, limit);
  std::vector<int64_t> dims(n);
  for (auto& d : dims) d = I64(field);
  return dims;
}

std::vector<int32_t> OmReader::Ids(const char* field, size_t limit) {
  const size_t n = Count(field, 4, limit);
  std::vector<int32_t> ids(n);
  for (auto& id : ids) id = I32(field);
  return ids;
}

ops::TensorDesc OmReader::Tensor(const std::string& what) {
  ops::TensorDesc t;
  const int32_t dtype = I32("dtype");
  const int32_t format = I32("format");
  const int32_t storage = I32("storage_format");
  if (!ok()) return t;
  if (!ops::IsKnownDataType(dtype)) Fail("{}: unknown dtype {}", what, dtype);
  if (!ops::IsKnownFormat(format) || format == static_cast<int32_t>(ops::Format::kUndefined))
    Fail("{}: unknown format {}", what, format);
  if (!ops::IsKnownFormat(storage)) Fail("{}: unknown storage format {}", what, storage);
  t.dtype = static_cast<ops::DataType>(dtype);
  t.format = static_cast<ops::Format>(format);
  t.storage_format = static_cast<ops::Format>(storage);
  t.dims = Dims("dims", kOmMaxRank);
  CheckDims(*this, t.dims, what + " dims");
  t.storage_dims = Dims("storage_dims", kOmMaxRank);
  CheckDims(*this, t.storage_dims, what + " storage dims");
  if (ok()) {
    if (const Status size = ops::CheckTensorSize(t, what); !size.ok()) {
      Fail("{}", size.message());
    }
  }
  const size_t ranges = Count("shape_range", 16, kOmMaxRank);
  for (size_t i = 0; i < ranges && ok(); ++i) {
    const int64_t lo = I64("shape_range");
    const int64_t hi = I64("shape_range");
    if (ok() && (lo < 0 || (hi != -1 && hi < lo))) {
      Fail("{}: shape range {} [{}, {}] is invalid", what, i, lo, hi);
    }
    t.shape_range.emplace_back(lo, hi);
  }
  if (ok() && ranges != 0 && ranges != t.dims.size()) {
    Fail("{}: {} shape ranges for {} dims", what, ranges, t.dims.size());
  }
  t.name = Str("tensor name");
  const uint8_t has_value = U8("has_value");
  if (ok() && has_value > 1) Fail("{}: has_value is {}, not 0 or 1", what, has_value);
  if (ok() && has_value == 1) {
    const size_t n = Count("const value", 1, SIZE_MAX);
    std::vector<uint8_t> value(n);
    if (n > 0) Raw(value.data(), n, "const value");
    const auto bytes = CheckedByteSize(t);
    if (ok() && bytes && *bytes != n) {
      Fail("{}: constant value has {} bytes but its descriptor needs {}", what, n, *bytes);
    }
    t.value = std::move(value);
  }
  return t;
}

ops::DataType OmReader::DataTypeValue(const std::string& what) {
  const int32_t v = I32("data_type attribute");
  if (ok() && !ops::IsKnownDataType(v)) Fail("{}: unknown data type {}", what, v);
  return static_cast<ops::DataType>(v);
}

ops::AttrValue OmReader::Attr(const std::string& what) {
  const uint8_t tag = U8("attribute tag");
  if (!ok()) return false;
  switch (tag) {
    case 0: {
      const uint8_t b = U8("bool attribute");
      if (ok() && b > 1) Fail("{}: bool value {}", what, b);
      return b == 1;
    }
    case 1:
      return I64("int attribute");
    case 2:
      return F32("float attribute");
    case 3:
      return Str("string attribute");
    case 4:
      return DataTypeValue(what);
    case 5:
      return ReadList<bool>(*this, "list_bool attribute", 1, [&] {
        const uint8_t b = U8("list_bool attribute");
        if (ok() && b > 1) Fail("{}: bool value {}", what, b);
        return b == 1;
      });
    case 6:
      return Dims("list_int attribute", SIZE_MAX);
    case 7:
      return ReadList<float>(*this, "list_float attribute", 4, [&] { return F32("list_float"); });
    case 8:
      return ReadList<std::string>(*this, "list_string attribute", 4,
                                   [&] { return Str("list_string attribute"); });
    case 9:
      return ReadList<ops::DataType>(*this, "list_data_type attribute", 4,
                                     [&] { return DataTypeValue(what); });
    case 10:
      return ReadList<std::vector<int64_t>>(*this, "list_list_int attribute", 4, [&] {
        return Dims("list_list_int attribute", SIZE_MAX);
      });
    default:
      Fail("{}: unknown attribute tag {} (0..{})", what, tag, kAttrTagCount - 1);
      return false;
  }
}

ops::AttrMap OmReader::Attrs(const std::string& what) {
  ops::AttrMap attrs;
  const size_t n = Count("attributes", kOmMinAttrBytes, SIZE_MAX);
  for (size_t i = 0; i < n && ok(); ++i) {
    std::string name = Str("attribute name");
    if (ok() && name.empty()) Fail("{}attribute {} has an empty name", what, i);
    ops::AttrValue value = Attr(fmt::format("{}attribute '{}'", what, name));
    if (ok() && !attrs.emplace(std::move(name), std::move(value)).second) {
      Fail("{}attribute {} appears twice", what, i);
    }
  }
  return attrs;
}

std::vector<uint8_t> SealOm(uint32_t kind, const std::vector<uint8_t>& payload) {
  OmWriter file;
  file.Raw(kOmMagic, sizeof(kOmMagic));
  file.U32(kOmVersion);
  file.U32(kind);
  file.U64(payload.size());
  file.U32(Crc32(payload.data(), payload.size()));
  file.U32(0);
  file.Raw(payload.data(), payload.size());
  return std::move(file.bytes());
}

bool HasOmMagic(const void* data, size_t size) {
  return data != nullptr && size >= sizeof(kOmMagic) &&
         std::memcmp(data, kOmMagic, sizeof(kOmMagic)) == 0;
}

Result<OmPayload> OpenOm(const void* data, size_t size, std::string_view origin,
                         const OmErrorStyle& style) {
  auto fail = [&](StatusCode code, std::string message) {
    return Status(code, fmt::format("{} {}: {}", style.what, origin, message));
  };
  if (data == nullptr) return fail(style.bad_code, "no data");
  if (size < kOmHeaderBytes) {
    return fail(style.short_code,
                fmt::format("{} bytes is shorter than the {}-byte header", size, kOmHeaderBytes));
  }
  const auto* bytes = static_cast<const uint8_t*>(data);
  if (!HasOmMagic(data, size)) {
    return fail(style.bad_code,
                fmt::format("not an aclsim {} (magic is not \"ACLSIMOP\")", style.what));
  }
  const uint32_t version = ReadLe32(bytes + 8);
  if (version != kOmVersion) {
    return fail(style.bad_code,
                fmt::format("format version {} is not supported (this runtime reads version {})",
                            version, kOmVersion));
  }
  OmPayload payload;
  payload.kind = ReadLe32(bytes + 12);
  uint64_t payload_size = 0;
  std::memcpy(&payload_size, bytes + 16, 8);
  if (payload_size != size - kOmHeaderBytes) {
    return fail(payload_size > size - kOmHeaderBytes ? style.short_code : style.bad_code,
                fmt::format("header says {} payload bytes but the file holds {}", payload_size,
                            size - kOmHeaderBytes));
  }
  if (ReadLe32(bytes + 28) != 0) return fail(style.bad_code, "reserved header field is not 0");
  payload.data = bytes + kOmHeaderBytes;
  payload.size = static_cast<size_t>(payload_size);
  const uint32_t crc = Crc32(payload.data, payload.size);
  if (crc != ReadLe32(bytes + 24)) {
    return fail(
        style.bad_code,
        fmt::format("checksum mismatch (stored {:08x}, computed {:08x}): the file is corrupt",
                    ReadLe32(bytes + 24), crc));
  }
  return payload;
}

}  // namespace aclsim::core
