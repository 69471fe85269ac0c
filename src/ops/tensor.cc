// Generic element access of kernel tensors (ops/tensor.h).
#include "ops/tensor.h"

#include "ops/half_batch.h"

namespace aclsim::ops {

double LoadDouble(const Tensor& t, int64_t index) {
  double result = 0;
  (void)DispatchType(t.dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    result = static_cast<double>(ToCompute(t.ptr<const T>()[index]));
    return Status::Ok();
  });
  return result;
}

void StoreDouble(const Tensor& t, int64_t index, double value) {
  (void)DispatchType(t.dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    t.ptr<T>()[index] = FromCompute<T>(value);
    return Status::Ok();
  });
}

std::vector<float> ToFloats(const Tensor& t) {
  std::vector<float> out(static_cast<size_t>(t.numel()));
  if (out.empty()) return out;  // the data of an empty tensor may be null
  if (t.dtype == DataType::kFloat16) {
    HalfToFloatN(&t.ptr<const Half>()->bits, out.data(), out.size());
    return out;
  }
  (void)DispatchType(t.dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* src = t.ptr<const T>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>(ToCompute(src[i]));
    return Status::Ok();
  });
  return out;
}

void FromFloats(const std::vector<float>& values, const Tensor& t) {
  if (values.empty()) return;
  if (t.dtype == DataType::kFloat16) {
    FloatToHalfN(values.data(), &t.ptr<Half>()->bits, values.size());
    return;
  }
  (void)DispatchType(t.dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    T* dst = t.ptr<T>();
    for (size_t i = 0; i < values.size(); ++i) dst[i] = FromCompute<T>(values[i]);
    return Status::Ok();
  });
}

std::vector<double> ToDoubles(const Tensor& t) {
  std::vector<double> out(static_cast<size_t>(t.numel()));
  (void)DispatchType(t.dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* src = t.ptr<const T>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<double>(ToCompute(src[i]));
    return Status::Ok();
  });
  return out;
}

void FromDoubles(const std::vector<double>& values, const Tensor& t) {
  (void)DispatchType(t.dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    T* dst = t.ptr<T>();
    for (size_t i = 0; i < values.size(); ++i) dst[i] = FromCompute<T>(values[i]);
    return Status::Ok();
  });
}

std::vector<int64_t> ReadInts(const Tensor& t) {
  std::vector<int64_t> out(static_cast<size_t>(t.numel()));
  (void)DispatchType(t.dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* src = t.ptr<const T>();
    for (size_t i = 0; i < out.size(); ++i) {
      out[i] = FromCompute<int64_t>(static_cast<double>(ToCompute(src[i])));
      if constexpr (std::is_integral_v<T>) {
        out[i] = static_cast<int64_t>(src[i]);  // NOLINT(bugprone-signed-char-misuse)
      }
    }
    return Status::Ok();
  });
  return out;
}

namespace {

Tensor BytesView(const std::vector<uint8_t>& bytes, DataType dtype) {
  Tensor view;
  view.data = const_cast<uint8_t*>(bytes.data());  // read-only use below
  view.size = bytes.size();
  view.dtype = dtype;
  const size_t element = DataTypeSize(dtype);
  view.dims = {element == 0 ? 0 : static_cast<int64_t>(bytes.size() / element)};
  return view;
}

}  // namespace

std::vector<int64_t> BytesToInts(const std::vector<uint8_t>& bytes, DataType dtype) {
  return ReadInts(BytesView(bytes, dtype));
}

std::vector<double> BytesToDoubles(const std::vector<uint8_t>& bytes, DataType dtype) {
  return ToDoubles(BytesView(bytes, dtype));
}

std::vector<int64_t> Strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  return strides;
}

int64_t Product(const std::vector<int64_t>& dims, size_t begin, size_t end) {
  int64_t product = 1;
  for (size_t i = begin; i < dims.size() && i < end; ++i) product *= dims[i];
  return product;
}

}  // namespace aclsim::ops
