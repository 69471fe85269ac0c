// Helpers of the op-library types (ops/types.h).
#include "ops/types.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/checked_size.h"

namespace aclsim::ops {

size_t DataTypeSize(DataType dtype) {
  switch (dtype) {
    case DataType::kInt8:
    case DataType::kUint8:
    case DataType::kBool:
      return 1;
    case DataType::kFloat16:
    case DataType::kBf16:
    case DataType::kInt16:
    case DataType::kUint16:
      return 2;
    case DataType::kFloat:
    case DataType::kInt32:
    case DataType::kUint32:
    case DataType::kComplex32:
      return 4;
    case DataType::kInt64:
    case DataType::kUint64:
    case DataType::kDouble:
    case DataType::kComplex64:
      return 8;
    case DataType::kComplex128:
      return 16;
    case DataType::kUndefined:
    case DataType::kString:
    case DataType::kInt4:
    case DataType::kUint1:
      return 0;
  }
  return 0;
}

bool IsKnownDataType(int32_t value) {
  switch (static_cast<DataType>(value)) {
    case DataType::kUndefined:
    case DataType::kFloat:
    case DataType::kFloat16:
    case DataType::kInt8:
    case DataType::kInt32:
    case DataType::kUint8:
    case DataType::kInt16:
    case DataType::kUint16:
    case DataType::kUint32:
    case DataType::kInt64:
    case DataType::kUint64:
    case DataType::kDouble:
    case DataType::kBool:
    case DataType::kString:
    case DataType::kComplex64:
    case DataType::kComplex128:
    case DataType::kBf16:
    case DataType::kInt4:
    case DataType::kUint1:
    case DataType::kComplex32:
      return true;
  }
  return false;
}

std::string DataTypeName(DataType dtype) {
  switch (dtype) {
    case DataType::kUndefined:
      return "DT_UNDEFINED";
    case DataType::kFloat:
      return "FLOAT";
    case DataType::kFloat16:
      return "FLOAT16";
    case DataType::kInt8:
      return "INT8";
    case DataType::kInt32:
      return "INT32";
    case DataType::kUint8:
      return "UINT8";
    case DataType::kInt16:
      return "INT16";
    case DataType::kUint16:
      return "UINT16";
    case DataType::kUint32:
      return "UINT32";
    case DataType::kInt64:
      return "INT64";
    case DataType::kUint64:
      return "UINT64";
    case DataType::kDouble:
      return "DOUBLE";
    case DataType::kBool:
      return "BOOL";
    case DataType::kString:
      return "STRING";
    case DataType::kComplex64:
      return "COMPLEX64";
    case DataType::kComplex128:
      return "COMPLEX128";
    case DataType::kBf16:
      return "BF16";
    case DataType::kInt4:
      return "INT4";
    case DataType::kUint1:
      return "UINT1";
    case DataType::kComplex32:
      return "COMPLEX32";
  }
  return fmt::format("DT_{}", static_cast<int32_t>(dtype));
}

bool IsKnownFormat(int32_t value) {
  switch (static_cast<Format>(value)) {
    case Format::kUndefined:
    case Format::kNchw:
    case Format::kNhwc:
    case Format::kNd:
    case Format::kNc1hwc0:
    case Format::kFractalZ:
    case Format::kNc1hwc0C04:
    case Format::kHwcn:
    case Format::kNdhwc:
    case Format::kFractalNz:
    case Format::kNcdhw:
    case Format::kNdc1hwc0:
    case Format::kFractalZ3d:
    case Format::kNc:
    case Format::kNcl:
      return true;
  }
  return false;
}

std::string FormatName(Format format) {
  switch (format) {
    case Format::kUndefined:
      return "UNDEFINED";
    case Format::kNchw:
      return "NCHW";
    case Format::kNhwc:
      return "NHWC";
    case Format::kNd:
      return "ND";
    case Format::kNc1hwc0:
      return "NC1HWC0";
    case Format::kFractalZ:
      return "FRACTAL_Z";
    case Format::kNc1hwc0C04:
      return "NC1HWC0_C04";
    case Format::kHwcn:
      return "HWCN";
    case Format::kNdhwc:
      return "NDHWC";
    case Format::kFractalNz:
      return "FRACTAL_NZ";
    case Format::kNcdhw:
      return "NCDHW";
    case Format::kNdc1hwc0:
      return "NDC1HWC0";
    case Format::kFractalZ3d:
      return "FRACTAL_Z_3D";
    case Format::kNc:
      return "NC";
    case Format::kNcl:
      return "NCL";
  }
  return fmt::format("FORMAT_{}", static_cast<int32_t>(format));
}

bool TensorDesc::shape_known() const {
  for (int64_t dim : dims) {
    if (dim < 0) return false;
  }
  return true;
}

int64_t TensorDesc::ElementCount() const {
  if (!shape_known()) return 0;
  int64_t count = 1;
  for (int64_t dim : dims) count = SaturatingMul(count, dim);
  return count;
}

bool operator==(const TensorDesc& a, const TensorDesc& b) {
  // The scalars and the (short) dims first, element by element: a cached op's launch compares
  // its descriptors on every call.
  if (a.dtype != b.dtype || a.format != b.format || a.storage_format != b.storage_format ||
      a.dims.size() != b.dims.size()) {
    return false;
  }
  for (size_t i = 0; i < a.dims.size(); ++i) {
    if (a.dims[i] != b.dims[i]) return false;
  }
  return a.storage_dims == b.storage_dims && a.shape_range == b.shape_range && a.name == b.name &&
         a.value == b.value;
}

size_t TensorDesc::ByteSize() const {
  const auto& shape = has_storage_layout() && !storage_dims.empty() ? storage_dims : dims;
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0) return 0;
    count = SaturatingMul(count, dim);
  }
  const auto bytes = CheckedMul(static_cast<uint64_t>(count), uint64_t{DataTypeSize(dtype)});
  return bytes ? static_cast<size_t>(*bytes) : SIZE_MAX;
}

namespace {

// Known dims within the limit of one tensor (unknown ones are checked once known).
bool DimsFit(const std::vector<int64_t>& dims, DataType dtype) {
  for (int64_t dim : dims) {
    if (dim < 0) return true;
  }
  const auto elements = CheckedProduct(dims.begin(), dims.end());
  return elements && CheckedTensorBytes(*elements, DataTypeSize(dtype));
}

}  // namespace

bool TensorSizeFits(const TensorDesc& desc) {
  return DimsFit(desc.dims, desc.dtype) &&
         (desc.storage_dims.empty() || DimsFit(desc.storage_dims, desc.dtype));
}

Status CheckTensorSize(const TensorDesc& desc, std::string_view what) {
  for (const auto* shape : {&desc.dims, &desc.storage_dims}) {
    if (DimsFit(*shape, desc.dtype)) continue;
    return Err(StatusCode::kInvalidParam,
               "{} {} [{}] of {} is too large: its element count or byte size exceeds 2^48 "
               "(aclsim's limit of one tensor, 256 TiB) or does not fit in 64 bits",
               what, shape == &desc.dims ? "shape" : "storage shape", fmt::join(*shape, ", "),
               DataTypeName(desc.dtype));
  }
  return Status::Ok();
}

namespace {

template <typename T>
std::string ListToString(const std::vector<T>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i != 0) out += ", ";
    if constexpr (std::is_same_v<T, DataType>) {
      out += DataTypeName(values[i]);
    } else if constexpr (std::is_same_v<T, std::string>) {
      out += '"' + values[i] + '"';
    } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
      out += ListToString(values[i]);
    } else if constexpr (std::is_same_v<T, bool>) {
      out += values[i] ? "true" : "false";
    } else {
      out += fmt::format("{}", values[i]);
    }
  }
  return out + "]";
}

}  // namespace

std::string AttrValueToString(const AttrValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, float>) {
          return fmt::format("{}", v);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return '"' + v + '"';
        } else if constexpr (std::is_same_v<T, DataType>) {
          return DataTypeName(v);
        } else {
          return ListToString(v);
        }
      },
      value);
}

}  // namespace aclsim::ops
