// aclblas* lowered to the GEMM op (core/blas.h).
#include "core/blas.h"

#include <vector>

#include "ops/formats.h"

namespace aclsim::core::blas {

namespace {

bool BlasType(ops::DataType t) {
  return t == ops::DataType::kFloat16 || t == ops::DataType::kFloat || t == ops::DataType::kInt8 ||
         t == ops::DataType::kInt32;
}

OpTensorArg Matrix(ops::DataType dtype, int64_t rows, int64_t cols, Layout layout,
                   const void* data) {
  OpTensorArg arg;
  arg.desc.dtype = dtype;
  arg.desc.format = ops::Format::kNd;
  arg.desc.dims =
      layout.transposed ? std::vector<int64_t>{cols, rows} : std::vector<int64_t>{rows, cols};
  if (layout.nz) {
    arg.desc.storage_format = ops::Format::kFractalNz;
    auto storage = ops::StorageDims(arg.desc.format, arg.desc.dims, dtype, ops::Format::kFractalNz);
    if (storage.ok()) arg.desc.storage_dims = storage.value();
  }
  arg.data = const_cast<void*>(data);
  arg.size = arg.desc.ByteSize();
  return arg;
}

OpTensorArg Scalar(ops::DataType dtype, const void* data) {
  OpTensorArg arg;
  arg.desc.dtype = dtype;
  arg.desc.dims = {};  // a scalar, as CANN's GEMM single-op JSON describes alpha and beta
  arg.data = const_cast<void*>(data);
  arg.size = ops::DataTypeSize(dtype);
  return arg;
}

}  // namespace

Status CheckGemm(const GemmSpec& spec, Layout c, const char* const what[3]) {
  if (c.transposed || c.nz) {
    return Err(StatusCode::kInvalidParam, "transC must be ACL_TRANS_N (C is row-major ND)");
  }
  if (spec.m <= 0 || spec.n <= 0 || spec.k <= 0) {
    return Err(StatusCode::kInvalidParam, "m, n and k must be > 0 (got {}, {}, {})", spec.m, spec.n,
               spec.k);
  }
  const ops::DataType types[3] = {spec.type_a, spec.type_b, spec.type_c};
  for (int i = 0; i < 3; ++i) {
    if (!BlasType(types[i])) {
      return Err(StatusCode::kUnsupportedDataType,
                 "{} {} is not supported by aclblas (FLOAT16, FLOAT, INT8, INT32)", what[i],
                 static_cast<int>(types[i]));
    }
  }
  if (spec.type_a != spec.type_b) {
    return Err(StatusCode::kUnsupportedDataType, "{} and {} must be equal", what[0], what[1]);
  }
  const bool ok_combo =
      (spec.type_a == ops::DataType::kInt8 && spec.type_c == ops::DataType::kInt32) ||
      (spec.type_a == ops::DataType::kFloat16 &&
       (spec.type_c == ops::DataType::kFloat16 || spec.type_c == ops::DataType::kFloat)) ||
      (spec.type_a == ops::DataType::kFloat && spec.type_c == ops::DataType::kFloat);
  if (!ok_combo) {
    return Err(StatusCode::kUnsupportedDataType,
               "unsupported type combination A={} B={} C={} (supported: FLOAT16 x FLOAT16 -> "
               "FLOAT16/FLOAT, FLOAT x FLOAT -> FLOAT, INT8 x INT8 -> INT32)",
               ops::DataTypeName(spec.type_a), ops::DataTypeName(spec.type_b),
               ops::DataTypeName(spec.type_c));
  }
  return Status::Ok();
}

GemmSpec GemvAsGemm(Layout a, int m, int n, ops::DataType type_a, ops::DataType type_x,
                    ops::DataType type_y) {
  GemmSpec spec;
  spec.a = a;
  spec.m = a.transposed ? n : m;
  spec.n = 1;
  spec.k = a.transposed ? m : n;
  spec.type_a = type_a;
  spec.type_b = type_x;
  spec.type_c = type_y;
  return spec;
}

OpLaunch GemmLaunch(const GemmSpec& s, const void* alpha, const void* a, const void* b,
                    const void* beta, void* c) {
  OpLaunch launch;
  launch.type = "GEMM";
  launch.inputs.push_back(Matrix(s.type_a, s.m, s.k, s.a, a));
  launch.inputs.push_back(Matrix(s.type_b, s.k, s.n, s.b, b));
  launch.inputs.push_back(Matrix(s.type_c, s.m, s.n, Layout{}, c));
  launch.inputs.push_back(Scalar(s.type_c, alpha));
  launch.inputs.push_back(Scalar(s.type_c, beta));
  launch.outputs.push_back(Matrix(s.type_c, s.m, s.n, Layout{}, c));
  launch.attrs["transpose_a"] = s.a.transposed;
  launch.attrs["transpose_b"] = s.b.transposed;
  return launch;
}

}  // namespace aclsim::core::blas
