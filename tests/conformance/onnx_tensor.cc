// ONNX tensors for the conformance runners (onnx_tensor.h).
#include "onnx_tensor.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace onnxconf {

namespace {

template <typename Src, typename Field>
void PackField(const Field& field, size_t elem, std::vector<uint8_t>* out) {
  out->resize(static_cast<size_t>(field.size()) * elem);
  for (int i = 0; i < field.size(); ++i) {
    Src v = static_cast<Src>(field.Get(i));
    std::memcpy(out->data() + static_cast<size_t>(i) * elem, &v, elem);
  }
}

// Element i of an integer or bool tensor, converted to Out; false for other element types.
template <typename Out>
bool IntElement(const Tensor& t, int64_t i, Out* out) {
  const uint8_t* p = t.data.data() + static_cast<size_t>(i) * ElemSize(t.type);
  auto get = [p, out](auto v) {
    std::memcpy(&v, p, sizeof(v));
    *out = static_cast<Out>(v);
    return true;
  };
  switch (t.type) {
    case kOInt8:
      return get(int8_t{});
    case kOUint8:
    case kOBool:
      return get(uint8_t{});
    case kOInt16:
      return get(int16_t{});
    case kOUint16:
      return get(uint16_t{});
    case kOInt32:
      return get(int32_t{});
    case kOUint32:
      return get(uint32_t{});
    case kOInt64:
      return get(int64_t{});
    case kOUint64:
      return get(uint64_t{});
    default:
      return false;
  }
}

}  // namespace

size_t ElemSize(int type) {
  switch (type) {
    case kOUint8:
    case kOInt8:
    case kOBool:
      return 1;
    case kOUint16:
    case kOInt16:
    case kOFloat16:
    case kOBfloat16:
      return 2;
    case kOFloat:
    case kOInt32:
    case kOUint32:
      return 4;
    case kOInt64:
    case kODouble:
    case kOUint64:
      return 8;
    default:
      return 0;
  }
}

aclDataType AclType(int type) {
  switch (type) {
    case kOFloat:
      return ACL_FLOAT;
    case kOFloat16:
      return ACL_FLOAT16;
    case kOInt8:
      return ACL_INT8;
    case kOInt32:
      return ACL_INT32;
    case kOUint8:
      return ACL_UINT8;
    case kOInt16:
      return ACL_INT16;
    case kOUint16:
      return ACL_UINT16;
    case kOUint32:
      return ACL_UINT32;
    case kOInt64:
      return ACL_INT64;
    case kOUint64:
      return ACL_UINT64;
    case kODouble:
      return ACL_DOUBLE;
    case kOBool:
      return ACL_BOOL;
    case kOBfloat16:
      return ACL_BF16;
    default:
      return ACL_DT_UNDEFINED;
  }
}

const char* OnnxTypeName(int type) {
  switch (type) {
    case kOFloat:
      return "float";
    case kOUint8:
      return "uint8";
    case kOInt8:
      return "int8";
    case kOUint16:
      return "uint16";
    case kOInt16:
      return "int16";
    case kOInt32:
      return "int32";
    case kOInt64:
      return "int64";
    case kOString:
      return "string";
    case kOBool:
      return "bool";
    case kOFloat16:
      return "float16";
    case kODouble:
      return "double";
    case kOUint32:
      return "uint32";
    case kOUint64:
      return "uint64";
    case kOBfloat16:
      return "bfloat16";
    default:
      return "other";
  }
}

Tensor I64(const std::vector<int64_t>& v) {
  return MakeTensor(kOInt64, v, {static_cast<int64_t>(v.size())});
}
Tensor I64Scalar(int64_t v) { return MakeTensor(kOInt64, std::vector<int64_t>{v}, {}); }
Tensor I32Scalar(int32_t v) { return MakeTensor(kOInt32, std::vector<int32_t>{v}, {}); }

bool FromProto(const onnx::TensorProto& p, Tensor* t, std::string* why) {
  t->type = p.data_type();
  t->dims.assign(p.dims().begin(), p.dims().end());
  const size_t elem = ElemSize(t->type);
  if (elem == 0) {
    *why =
        std::string("element type ") + OnnxTypeName(t->type) + " (" + std::to_string(t->type) + ")";
    return false;
  }
  if (p.has_raw_data()) {
    t->data.assign(p.raw_data().begin(), p.raw_data().end());
  } else {
    switch (t->type) {
      case kOFloat:
        PackField<float>(p.float_data(), elem, &t->data);
        break;
      case kODouble:
        PackField<double>(p.double_data(), elem, &t->data);
        break;
      case kOInt64:
        PackField<int64_t>(p.int64_data(), elem, &t->data);
        break;
      case kOUint32:
      case kOUint64:
        PackField<uint64_t>(p.uint64_data(), elem, &t->data);
        break;
      case kOInt32:
        PackField<int32_t>(p.int32_data(), elem, &t->data);
        break;
      case kOInt16:
        PackField<int16_t>(p.int32_data(), elem, &t->data);
        break;
      case kOUint16:
      case kOFloat16:
      case kOBfloat16:
        PackField<uint16_t>(p.int32_data(), elem, &t->data);
        break;
      case kOInt8:
        PackField<int8_t>(p.int32_data(), elem, &t->data);
        break;
      default:  // uint8, bool
        PackField<uint8_t>(p.int32_data(), elem, &t->data);
        break;
    }
  }
  if (t->data.size() != static_cast<size_t>(t->numel()) * elem) {
    *why = "tensor data size does not match its dims";
    return false;
  }
  return true;
}

double AsDouble(const Tensor& t, int64_t i) {
  double value = 0;
  if (IntElement(t, i, &value)) return value;
  const uint8_t* p = t.data.data() + static_cast<size_t>(i) * ElemSize(t.type);
  switch (t.type) {
    case kOFloat: {
      float v = 0;
      std::memcpy(&v, p, 4);
      return static_cast<double>(v);
    }
    case kODouble:
      std::memcpy(&value, p, 8);
      return value;
    case kOFloat16: {
      uint16_t bits = 0;
      std::memcpy(&bits, p, 2);
      return static_cast<double>(aclFloat16ToFloat(bits));
    }
    case kOBfloat16: {
      uint16_t bits = 0;
      std::memcpy(&bits, p, 2);
      const uint32_t f = static_cast<uint32_t>(bits) << 16;
      float v = 0;
      std::memcpy(&v, &f, 4);
      return static_cast<double>(v);
    }
    default:
      return 0;
  }
}

int64_t AsInt(const Tensor& t, int64_t i) {
  int64_t value = 0;
  if (IntElement(t, i, &value)) return value;
  return static_cast<int64_t>(AsDouble(t, i));
}

std::vector<int64_t> Ints(const Tensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.numel(); ++i) v.push_back(AsInt(t, i));
  return v;
}

bool IsFloat(int type) {
  return type == kOFloat || type == kOFloat16 || type == kODouble || type == kOBfloat16;
}

std::string DimsStr(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

std::string AclErr(const char* what, aclError err) {
  std::string s = std::string(what) + " returned " + std::to_string(err);
  const char* msg = aclGetRecentErrMsg();
  if (msg && *msg) {
    std::string m = msg;
    std::replace(m.begin(), m.end(), '\n', ' ');
    std::replace(m.begin(), m.end(), '|', '/');
    if (m.size() > 200) m = m.substr(0, 200) + "...";
    s += ": " + m;
  }
  return s;
}

bool Close(double got, double want, double rtol, double atol) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::fabs(got - want) <= atol + rtol * std::fabs(want);
}

std::string Compare(const Tensor& want, const Tensor& got, bool values_only) {
  if (!values_only && want.dims != got.dims)
    return "shape " + DimsStr(got.dims) + ", expected " + DimsStr(want.dims);
  if (want.numel() != got.numel())
    return "element count " + std::to_string(got.numel()) + ", expected " +
           std::to_string(want.numel()) + " (" + DimsStr(want.dims) + ")";
  double rtol = 1e-3;
  double atol = 1e-5;
  if (want.type == kOFloat16 || got.type == kOFloat16) {
    rtol = 1e-2;
    atol = 1e-3;
  } else if (want.type == kOBfloat16 || got.type == kOBfloat16) {
    rtol = 2e-2;
    atol = 1e-2;
  }
  int64_t bad = 0;
  int64_t first = -1;
  for (int64_t i = 0; i < want.numel(); ++i) {
    bool ok = false;
    if (IsFloat(want.type)) {
      ok = Close(AsDouble(got, i), AsDouble(want, i), rtol, atol);
    } else if (want.type == kOBool) {
      ok = (AsInt(got, i) != 0) == (AsInt(want, i) != 0);
    } else {
      ok = AsInt(got, i) == AsInt(want, i);
    }
    if (!ok && bad++ == 0) first = i;
  }
  if (bad == 0) return "";
  std::ostringstream os;
  os << bad << "/" << want.numel() << " elements differ; first at " << first << ": got "
     << AsDouble(got, first) << ", expected " << AsDouble(want, first);
  return os.str();
}

int OnnxTypeOf(aclDataType t) {
  for (int o : {kOFloat, kOUint8, kOInt8, kOUint16, kOInt16, kOInt32, kOInt64, kOBool, kOFloat16,
                kODouble, kOUint32, kOUint64, kOBfloat16})
    if (AclType(o) == t) return o;
  return 0;
}

bool LoadTensor(const std::filesystem::path& path, Tensor* t, std::string* why) {
  std::ifstream f(path, std::ios::binary);
  onnx::TensorProto p;
  if (!f || !p.ParseFromIstream(&f)) {
    *why = "cannot parse " + path.filename().string();
    return false;
  }
  return FromProto(p, t, why);
}

}  // namespace onnxconf
