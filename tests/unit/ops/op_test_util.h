// Helpers for op-library tests: build a call, compile it, run it on host vectors.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "common/float16.h"
#include "ops/op_def.h"
#include "ops/op_library.h"

namespace aclsim::ops::testing {

inline TensorDesc Desc(DataType dtype, std::vector<int64_t> dims, Format format = Format::kNd) {
  TensorDesc desc;
  desc.dtype = dtype;
  desc.dims = std::move(dims);
  desc.format = format;
  return desc;
}

// A constant input (value known at compile time, as aclSetTensorConst gives it).
template <typename T>
TensorDesc ConstDesc(DataType dtype, std::vector<int64_t> dims, const std::vector<T>& v) {
  auto desc = Desc(dtype, std::move(dims));
  desc.value = std::vector<uint8_t>(v.size() * sizeof(T));
  std::memcpy(desc.value->data(), v.data(), desc.value->size());
  return desc;
}

inline OpCall MakeCall(std::string type, std::vector<TensorDesc> inputs,
                       std::vector<TensorDesc> outputs = {}, AttrMap attrs = {}) {
  OpCall call;
  call.type = std::move(type);
  call.inputs = std::move(inputs);
  call.outputs = std::move(outputs);
  call.attrs = std::move(attrs);
  return call;
}

inline driver::DeviceProps TestProps() {
  driver::DeviceProps props;
  props.soc_name = "Ascend910B2";
  props.aicore_num = 24;
  props.vector_core_num = 48;
  props.aicpu_num = 6;
  props.ub_bytes = 192 * 1024;
  return props;
}

// Host bytes of one tensor.
struct Bytes {
  std::vector<uint8_t> data;
  template <typename T>
  static Bytes Of(const std::vector<T>& values) {
    Bytes b;
    b.data.resize(values.size() * sizeof(T));
    std::memcpy(b.data.data(), values.data(), b.data.size());
    return b;
  }
  template <typename T>
  std::vector<T> As() const {
    std::vector<T> values(data.size() / sizeof(T));
    std::memcpy(values.data(), data.data(), values.size() * sizeof(T));
    return values;
  }
};

struct RunResult {
  Status status;
  std::shared_ptr<const OpKernel> kernel;
  std::vector<Bytes> outputs;
  std::vector<std::vector<int64_t>> output_dims;  // dynamic-shape ops
};

// Compiles `call` with the sim library and runs it on `inputs` (host memory), with output
// buffers sized from the inferred descriptors (or `output_bytes` if given).
inline RunResult RunOp(OpCall call, std::vector<Bytes> inputs,
                       std::vector<size_t> output_bytes = {}) {
  RunResult result;
  auto kernel = OpLibrary::Builtin().Compile(call, TestProps());
  if (!kernel.ok()) {
    result.status = kernel.status();
    return result;
  }
  result.kernel = kernel.value();
  const auto& resolved = result.kernel->call();
  std::vector<KernelBuffer> in_buffers;
  for (auto& in : inputs) in_buffers.push_back({in.data.data(), in.data.size()});
  while (in_buffers.size() < resolved.inputs.size()) in_buffers.push_back({nullptr, 0});
  result.outputs.resize(resolved.outputs.size());
  std::vector<KernelBuffer> out_buffers;
  for (size_t i = 0; i < resolved.outputs.size(); ++i) {
    size_t bytes = i < output_bytes.size() ? output_bytes[i] : resolved.outputs[i].ByteSize();
    result.outputs[i].data.assign(bytes, 0);
    out_buffers.push_back({result.outputs[i].data.data(), bytes});
  }
  result.status = result.kernel->Run(in_buffers, out_buffers, &result.output_dims);
  return result;
}

// start, start + step, ... (count values).
inline std::vector<float> Iota(int count, float start = 1.0f, float step = 1.0f) {
  std::vector<float> v;
  for (int i = 0; i < count; ++i) v.push_back(start + step * static_cast<float>(i));
  return v;
}

// The op was refused with `code` and a message containing `what`.
inline void ExpectError(const RunResult& r, StatusCode code, const std::string& what) {
  EXPECT_EQ(r.status.code(), code) << r.status.message();
  EXPECT_NE(r.status.message().find(what), std::string::npos) << r.status.message();
}

inline std::vector<uint16_t> ToHalf(const std::vector<float>& values) {
  std::vector<uint16_t> out;
  for (float v : values) out.push_back(FloatToHalf(v));
  return out;
}

inline std::vector<float> FromHalf(const std::vector<uint16_t>& values) {
  std::vector<float> out;
  for (uint16_t v : values) out.push_back(HalfToFloat(v));
  return out;
}

}  // namespace aclsim::ops::testing
