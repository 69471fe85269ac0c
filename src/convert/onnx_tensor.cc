#include "convert/onnx_tensor.h"

#include <fmt/format.h>

#include <cctype>
#include <cstring>
#include <limits>

#include "common/checked_size.h"
#include "common/float16.h"

namespace aclsim::convert {

using ops::DataType;

namespace {

float Bf16ToFloat(uint16_t v) {
  const uint32_t bits = static_cast<uint32_t>(v) << 16;
  float f = 0;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t FloatToBf16(float f) {
  uint32_t bits = 0;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x40u);
  bits += 0x7fffu + ((bits >> 16) & 1u);  // round to nearest even
  return static_cast<uint16_t>(bits >> 16);
}

template <typename T>
void Put(std::vector<uint8_t>* out, size_t i, T v) {
  std::memcpy(out->data() + i * sizeof(T), &v, sizeof(T));
}

template <typename T>
T Get(const std::vector<uint8_t>& data, size_t i) {
  T v{};
  std::memcpy(&v, data.data() + i * sizeof(T), sizeof(T));
  return v;
}

// Packs a repeated proto field element by element into `elem`-byte values of `dtype`.
template <typename Field>
void PackTyped(const Field& field, DataType dtype, std::vector<uint8_t>* out) {
  const size_t n = static_cast<size_t>(field.size());
  out->assign(n * ops::DataTypeSize(dtype), 0);
  for (size_t i = 0; i < n; ++i) {
    const auto v = field.Get(static_cast<int>(i));
    switch (dtype) {
      case DataType::kFloat:
        Put<float>(out, i, static_cast<float>(v));
        break;
      case DataType::kDouble:
        Put<double>(out, i, static_cast<double>(v));
        break;
      case DataType::kFloat16:
      case DataType::kBf16:
      case DataType::kInt16:
      case DataType::kUint16:
        Put<uint16_t>(out, i, static_cast<uint16_t>(v));
        break;
      case DataType::kInt8:
      case DataType::kUint8:
        Put<uint8_t>(out, i, static_cast<uint8_t>(v));
        break;
      case DataType::kBool:
        Put<uint8_t>(out, i, v != 0 ? 1 : 0);
        break;
      case DataType::kInt32:
        Put<int32_t>(out, i, static_cast<int32_t>(v));
        break;
      case DataType::kUint32:
        Put<uint32_t>(out, i, static_cast<uint32_t>(v));
        break;
      case DataType::kInt64:
        Put<int64_t>(out, i, static_cast<int64_t>(v));
        break;
      case DataType::kUint64:
        Put<uint64_t>(out, i, static_cast<uint64_t>(v));
        break;
      default:
        break;
    }
  }
}

// `value` converted to the integer type T, saturating (NaN gives 0).
template <typename T>
T SaturateTo(double value) {
  if (!(value == value)) return 0;
  const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
  const double hi = static_cast<double>(std::numeric_limits<T>::max());
  if (value <= lo) return std::numeric_limits<T>::lowest();
  if (value >= hi) return std::numeric_limits<T>::max();
  return static_cast<T>(value);
}

}  // namespace

DataType DataTypeFromOnnx(int32_t onnx_type) {
  switch (onnx_type) {
    case onnx::TensorProto::FLOAT:
      return DataType::kFloat;
    case onnx::TensorProto::UINT8:
      return DataType::kUint8;
    case onnx::TensorProto::INT8:
      return DataType::kInt8;
    case onnx::TensorProto::UINT16:
      return DataType::kUint16;
    case onnx::TensorProto::INT16:
      return DataType::kInt16;
    case onnx::TensorProto::INT32:
      return DataType::kInt32;
    case onnx::TensorProto::INT64:
      return DataType::kInt64;
    case onnx::TensorProto::BOOL:
      return DataType::kBool;
    case onnx::TensorProto::FLOAT16:
      return DataType::kFloat16;
    case onnx::TensorProto::DOUBLE:
      return DataType::kDouble;
    case onnx::TensorProto::UINT32:
      return DataType::kUint32;
    case onnx::TensorProto::UINT64:
      return DataType::kUint64;
    case onnx::TensorProto::BFLOAT16:
      return DataType::kBf16;
    default:
      return DataType::kUndefined;
  }
}

std::string OnnxTypeName(int32_t onnx_type) {
  if (onnx::TensorProto::DataType_IsValid(onnx_type)) {
    std::string name = onnx::TensorProto::DataType_Name(onnx_type);
    for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return name;
  }
  return fmt::format("type {}", onnx_type);
}

std::optional<int64_t> ElementCount(const std::vector<int64_t>& dims) {
  // Initializers live in host memory while the importer works: 2^40 elements at most.
  return CheckedProduct(dims.begin(), dims.end(), int64_t{1} << 40);
}

Result<HostTensor> TensorFromProto(const onnx::TensorProto& proto, std::string_view what) {
  HostTensor t;
  t.dtype = DataTypeFromOnnx(proto.data_type());
  if (t.dtype == DataType::kUndefined) {
    return Err(StatusCode::kParseModel, "{}: element type {} has no CANN data type", what,
               OnnxTypeName(proto.data_type()));
  }
  if (proto.data_location() == onnx::TensorProto::EXTERNAL || proto.external_data_size() > 0) {
    return Err(StatusCode::kParseModel,
               "{}: weights in external data files are not supported (save the model with its "
               "weights inside the .onnx file)",
               what);
  }
  t.dims.assign(proto.dims().begin(), proto.dims().end());
  const auto count = ElementCount(t.dims);
  const size_t elem = ops::DataTypeSize(t.dtype);
  if (!count || static_cast<uint64_t>(*count) * elem > (uint64_t{1} << 34)) {
    return Err(StatusCode::kParseModel, "{}: dims [{}] are negative or too large", what,
               fmt::join(t.dims, ", "));
  }
  const size_t bytes = static_cast<size_t>(*count) * elem;
  if (proto.has_raw_data()) {
    if (proto.raw_data().size() != bytes) {
      return Err(StatusCode::kParseModel, "{}: raw_data has {} bytes, dims [{}] of {} need {}",
                 what, proto.raw_data().size(), fmt::join(t.dims, ", "),
                 OnnxTypeName(proto.data_type()), bytes);
    }
    t.data.assign(proto.raw_data().begin(), proto.raw_data().end());
    return t;
  }
  int given = 0;
  switch (t.dtype) {
    case DataType::kFloat:
      given = proto.float_data_size();
      PackTyped(proto.float_data(), t.dtype, &t.data);
      break;
    case DataType::kDouble:
      given = proto.double_data_size();
      PackTyped(proto.double_data(), t.dtype, &t.data);
      break;
    case DataType::kInt64:
      given = proto.int64_data_size();
      PackTyped(proto.int64_data(), t.dtype, &t.data);
      break;
    case DataType::kUint32:
    case DataType::kUint64:
      given = proto.uint64_data_size();
      PackTyped(proto.uint64_data(), t.dtype, &t.data);
      break;
    default:  // int32_data carries every narrower type (float16 / bf16 as their bits)
      given = proto.int32_data_size();
      PackTyped(proto.int32_data(), t.dtype, &t.data);
      break;
  }
  if (static_cast<int64_t>(given) != *count) {
    return Err(StatusCode::kParseModel, "{}: {} values given, dims [{}] need {}", what, given,
               fmt::join(t.dims, ", "), *count);
  }
  return t;
}

std::optional<std::vector<int64_t>> ReadInts(DataType dtype, const std::vector<uint8_t>& data) {
  const size_t elem = ops::DataTypeSize(dtype);
  if (elem == 0 || data.size() % elem != 0) return std::nullopt;
  const size_t n = data.size() / elem;
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    switch (dtype) {
      case DataType::kInt64:
        out[i] = Get<int64_t>(data, i);
        break;
      case DataType::kInt32:
        out[i] = Get<int32_t>(data, i);
        break;
      case DataType::kUint32:
        out[i] = Get<uint32_t>(data, i);
        break;
      case DataType::kUint64:
        out[i] = static_cast<int64_t>(Get<uint64_t>(data, i));
        break;
      case DataType::kInt16:
        out[i] = Get<int16_t>(data, i);
        break;
      case DataType::kUint16:
        out[i] = Get<uint16_t>(data, i);
        break;
      case DataType::kInt8: {
        const int64_t byte = Get<uint8_t>(data, i);
        out[i] = byte >= 128 ? byte - 256 : byte;  // two's complement int8
      } break;
      case DataType::kUint8:
      case DataType::kBool:
        out[i] = Get<uint8_t>(data, i);
        break;
      default:
        return std::nullopt;
    }
  }
  return out;
}

std::optional<std::vector<double>> ReadDoubles(DataType dtype, const std::vector<uint8_t>& data) {
  const size_t elem = ops::DataTypeSize(dtype);
  if (elem == 0 || data.size() % elem != 0) return std::nullopt;
  const size_t n = data.size() / elem;
  std::vector<double> out(n);
  switch (dtype) {
    case DataType::kFloat:
      for (size_t i = 0; i < n; ++i) out[i] = Get<float>(data, i);
      return out;
    case DataType::kDouble:
      for (size_t i = 0; i < n; ++i) out[i] = Get<double>(data, i);
      return out;
    case DataType::kFloat16:
      for (size_t i = 0; i < n; ++i) out[i] = HalfToFloat(Get<uint16_t>(data, i));
      return out;
    case DataType::kBf16:
      for (size_t i = 0; i < n; ++i) out[i] = Bf16ToFloat(Get<uint16_t>(data, i));
      return out;
    default: {
      auto ints = ReadInts(dtype, data);
      if (!ints) return std::nullopt;
      out.assign(ints->begin(), ints->end());
      return out;
    }
  }
}

HostTensor Int64Tensor(const std::vector<int64_t>& values, std::vector<int64_t> dims) {
  HostTensor t{DataType::kInt64, std::move(dims), {}};
  t.data.resize(values.size() * 8);
  if (!values.empty()) std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

HostTensor Int32Tensor(const std::vector<int32_t>& values, std::vector<int64_t> dims) {
  HostTensor t{DataType::kInt32, std::move(dims), {}};
  t.data.resize(values.size() * 4);
  if (!values.empty()) std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

HostTensor FloatTensor(const std::vector<float>& values, std::vector<int64_t> dims) {
  HostTensor t{DataType::kFloat, std::move(dims), {}};
  t.data.resize(values.size() * 4);
  if (!values.empty()) std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

std::optional<HostTensor> ScalarOf(DataType dtype, double value) {
  HostTensor t{dtype, {}, std::vector<uint8_t>(ops::DataTypeSize(dtype))};
  switch (dtype) {
    case DataType::kFloat:
      Put<float>(&t.data, 0, static_cast<float>(value));
      return t;
    case DataType::kDouble:
      Put<double>(&t.data, 0, value);
      return t;
    case DataType::kFloat16:
      Put<uint16_t>(&t.data, 0, FloatToHalf(static_cast<float>(value)));
      return t;
    case DataType::kBf16:
      Put<uint16_t>(&t.data, 0, FloatToBf16(static_cast<float>(value)));
      return t;
    case DataType::kInt64:
      Put<int64_t>(&t.data, 0, SaturateTo<int64_t>(value));
      return t;
    case DataType::kInt32:
      Put<int32_t>(&t.data, 0, SaturateTo<int32_t>(value));
      return t;
    case DataType::kInt16:
      Put<int16_t>(&t.data, 0, SaturateTo<int16_t>(value));
      return t;
    case DataType::kInt8:
      Put<int8_t>(&t.data, 0, SaturateTo<int8_t>(value));
      return t;
    case DataType::kUint8:
      Put<uint8_t>(&t.data, 0, SaturateTo<uint8_t>(value));
      return t;
    case DataType::kBool:
      Put<uint8_t>(&t.data, 0, value != 0 ? 1 : 0);
      return t;
    default:
      return std::nullopt;
  }
}

}  // namespace aclsim::convert
