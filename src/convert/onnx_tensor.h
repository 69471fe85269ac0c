// ONNX tensors on the host: element types, TensorProto decoding and small value helpers.
//
// Thread-safety: pure functions over values.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "ops/types.h"

namespace aclsim::convert {

// ONNX TensorProto element type -> CANN data type (cann_ops.md 3.3); kUndefined when CANN has
// none (string, complex, float8, ...).
ops::DataType DataTypeFromOnnx(int32_t onnx_type);
// "float", "int64", ... or "type <n>".
std::string OnnxTypeName(int32_t onnx_type);

// A tensor with known contents, densely packed little-endian.
struct HostTensor {
  ops::DataType dtype = ops::DataType::kUndefined;
  std::vector<int64_t> dims;
  std::vector<uint8_t> data;
};

// Decodes an initializer / Constant value. kParseModel naming `what` for element types CANN
// lacks, external data, negative dims, or contents that do not match the dims.
Result<HostTensor> TensorFromProto(const onnx::TensorProto& proto, std::string_view what);

// Element count of known dims (1 for a scalar); nullopt on a negative dim or an overflow
// past 2^40 elements.
std::optional<int64_t> ElementCount(const std::vector<int64_t>& dims);

// The values of an integer or bool tensor (nullopt for other dtypes or a size mismatch).
std::optional<std::vector<int64_t>> ReadInts(ops::DataType dtype, const std::vector<uint8_t>& data);
// The values of any numeric tensor as doubles (float16 / bf16 converted).
std::optional<std::vector<double>> ReadDoubles(ops::DataType dtype,
                                               const std::vector<uint8_t>& data);

// Tensors built from values.
HostTensor Int64Tensor(const std::vector<int64_t>& values, std::vector<int64_t> dims);
HostTensor Int32Tensor(const std::vector<int32_t>& values, std::vector<int64_t> dims);
HostTensor FloatTensor(const std::vector<float>& values, std::vector<int64_t> dims);
// A scalar of `dtype` holding `value` (converted; float16 / bf16 rounded).
std::optional<HostTensor> ScalarOf(ops::DataType dtype, double value);

}  // namespace aclsim::convert
