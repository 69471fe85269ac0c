// ONNX tensors for the conformance runners: TensorProto decoding, element access and the
// comparison of outputs with ONNX's expected values (tolerances by element type).
// Test-only code shared by onnx_node_runner and onnx_model_runner; public ACL headers and
// libonnx's protobuf messages only.
#pragma once

#include <acl/acl.h>
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace onnxconf {

// ONNX TensorProto element types used below.
enum OnnxType : int {
  kOFloat = 1,
  kOUint8 = 2,
  kOInt8 = 3,
  kOUint16 = 4,
  kOInt16 = 5,
  kOInt32 = 6,
  kOInt64 = 7,
  kOString = 8,
  kOBool = 9,
  kOFloat16 = 10,
  kODouble = 11,
  kOUint32 = 12,
  kOUint64 = 13,
  kOBfloat16 = 16,
};

inline int64_t Numel(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

struct Tensor {
  int type = 0;  // ONNX element type
  std::vector<int64_t> dims;
  std::vector<uint8_t> data;
  int64_t numel() const { return Numel(dims); }
};

template <typename T>
Tensor MakeTensor(int type, const std::vector<T>& values, std::vector<int64_t> dims) {
  Tensor t;
  t.type = type;
  t.dims = std::move(dims);
  t.data.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

size_t ElemSize(int type);
// ONNX element type -> aclDataType (cann_ops.md 3.3); ACL_DT_UNDEFINED when there is none.
aclDataType AclType(int type);
// aclDataType -> ONNX element type (0 when there is none).
int OnnxTypeOf(aclDataType type);
const char* OnnxTypeName(int type);
Tensor I64(const std::vector<int64_t>& v);
Tensor I64Scalar(int64_t v);
Tensor I32Scalar(int32_t v);
// Converts a TensorProto; false (with *why) for element types the runner cannot carry.
bool FromProto(const onnx::TensorProto& p, Tensor* t, std::string* why);
// Reads a serialized TensorProto file (input_N.pb / output_N.pb).
bool LoadTensor(const std::filesystem::path& path, Tensor* t, std::string* why);
// Element i as double / int64 (any ONNX type this runner carries).
double AsDouble(const Tensor& t, int64_t i);
int64_t AsInt(const Tensor& t, int64_t i);
std::vector<int64_t> Ints(const Tensor& t);
bool IsFloat(int type);
std::string DimsStr(const std::vector<int64_t>& dims);
// "<what> returned <err>: <recent error message>" (one line, '|' replaced for markdown).
std::string AclErr(const char* what, aclError err);
bool Close(double got, double want, double rtol, double atol);
// "" when `got` matches `want` (dims unless values_only, then every element within the
// element type's tolerance); else what differs.
std::string Compare(const Tensor& want, const Tensor& got, bool values_only);

}  // namespace onnxconf
