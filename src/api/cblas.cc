// ops/acl_cblas.h: aclblas* as CANN defines them, on top of the GEMM op.
//
// CANN's rules: alpha and beta are device pointers holding one value of the output's type
// (Hgemm: fp16, S8gemm: int32); lda/ldb/ldc (and incx/incy) are reserved and must be -1;
// transC must be ACL_TRANS_N; ACL_TRANS_NZ / NZ_T mean the matrix is stored in FRACTAL_NZ
// (transposed for NZ_T). Matrices are row-major. The product runs as the GEMM op
// (y = alpha * op(A) x op(B) + beta * C, in place on C) through the op cache.
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"
#include "api/api_call.h"
#include "api/op_objects.h"
#include "core/op_executor.h"
#include "core/runtime.h"
#include "ops/formats.h"

using aclsim::Err;
using aclsim::Result;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;
namespace ops = aclsim::ops;

namespace aclsim::api {
Status ExecuteOnStream(core::OpLaunch launch, aclrtStream stream,
                       std::vector<ops::TensorDesc>* resolved);
}  // namespace aclsim::api

namespace {

struct Trans {
  bool transposed = false;
  bool nz = false;
};

Result<Trans> ReadTrans(const aclTransType& trans, const char* what) {
  switch (api::EnumValue(trans)) {
    case ACL_TRANS_N:
      return Trans{false, false};
    case ACL_TRANS_T:
      return Trans{true, false};
    case ACL_TRANS_NZ:
      return Trans{false, true};
    case ACL_TRANS_NZ_T:
      return Trans{true, true};
    default:
      return Err(StatusCode::kInvalidParam, "{} {} is not an aclTransType", what,
                 api::EnumValue(trans));
  }
}

Status CheckReserved(int value, const char* what) {
  if (value != -1) {
    return Err(StatusCode::kInvalidParam, "{} is {}; it is reserved and must be -1", what, value);
  }
  return Status::Ok();
}

Status CheckCompute(const aclComputeType& type) {
  const int value = api::EnumValue(type);
  if (value != ACL_COMPUTE_HIGH_PRECISION && value != ACL_COMPUTE_LOW_PRECISION) {
    return Err(StatusCode::kInvalidParam, "computeType {} is not an aclComputeType", value);
  }
  return Status::Ok();
}

Result<ops::DataType> ReadType(const aclDataType& type, const char* what) {
  const int value = api::EnumValue(type);
  switch (value) {
    case ACL_FLOAT16:
    case ACL_FLOAT:
    case ACL_INT8:
    case ACL_INT32:
      return static_cast<ops::DataType>(value);
    default:
      return Err(StatusCode::kUnsupportedDataType,
                 "{} {} is not supported by aclblas (FLOAT16, FLOAT, INT8, INT32)", what, value);
  }
}

core::OpTensorArg Matrix(ops::DataType dtype, int64_t rows, int64_t cols, Trans trans,
                         const void* data) {
  core::OpTensorArg arg;
  arg.desc.dtype = dtype;
  arg.desc.format = ops::Format::kNd;
  arg.desc.dims =
      trans.transposed ? std::vector<int64_t>{cols, rows} : std::vector<int64_t>{rows, cols};
  if (trans.nz) arg.desc.storage_format = ops::Format::kFractalNz;
  arg.data = const_cast<void*>(data);
  arg.size = arg.desc.ByteSize();
  if (trans.nz) {
    auto storage = ops::StorageDims(arg.desc.format, arg.desc.dims, dtype, ops::Format::kFractalNz);
    if (storage.ok()) {
      arg.desc.storage_dims = storage.value();
      arg.size = arg.desc.ByteSize();
    }
  }
  return arg;
}

core::OpTensorArg Scalar(ops::DataType dtype, const void* data) {
  core::OpTensorArg arg;
  arg.desc.dtype = dtype;
  arg.desc.dims = {};  // a scalar, as CANN's GEMM single-op JSON describes alpha and beta
  arg.data = const_cast<void*>(data);
  arg.size = ops::DataTypeSize(dtype);
  return arg;
}

struct GemmSpec {
  Trans ta, tb;
  int m = 0, n = 0, k = 0;
  ops::DataType type_a{}, type_b{}, type_c{};
};

Result<GemmSpec> ReadGemm(const aclTransType& transA, const aclTransType& transB,
                          const aclTransType& transC, int m, int n, int k,
                          const aclDataType& dataTypeA, const aclDataType& dataTypeB,
                          const aclDataType& dataTypeC, const aclComputeType& computeType) {
  GemmSpec spec;
  ACLSIM_ASSIGN_OR_RETURN(spec.ta, ReadTrans(transA, "transA"));
  ACLSIM_ASSIGN_OR_RETURN(spec.tb, ReadTrans(transB, "transB"));
  ACLSIM_ASSIGN_OR_RETURN(Trans tc, ReadTrans(transC, "transC"));
  if (tc.transposed || tc.nz) {
    return Err(StatusCode::kInvalidParam, "transC must be ACL_TRANS_N (C is row-major ND)");
  }
  if (m <= 0 || n <= 0 || k <= 0) {
    return Err(StatusCode::kInvalidParam, "m, n and k must be > 0 (got {}, {}, {})", m, n, k);
  }
  ACLSIM_RETURN_IF_ERROR(CheckCompute(computeType));
  ACLSIM_ASSIGN_OR_RETURN(spec.type_a, ReadType(dataTypeA, "dataTypeA"));
  ACLSIM_ASSIGN_OR_RETURN(spec.type_b, ReadType(dataTypeB, "dataTypeB"));
  ACLSIM_ASSIGN_OR_RETURN(spec.type_c, ReadType(dataTypeC, "dataTypeC"));
  const bool int8 = spec.type_a == ops::DataType::kInt8;
  if (spec.type_a != spec.type_b) {
    return Err(StatusCode::kUnsupportedDataType, "dataTypeA and dataTypeB must be equal");
  }
  const bool ok_combo =
      (int8 && spec.type_c == ops::DataType::kInt32) ||
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
  spec.m = m;
  spec.n = n;
  spec.k = k;
  return spec;
}

core::OpLaunch GemmLaunch(const GemmSpec& s, const void* alpha, const void* a, const void* b,
                          const void* beta, void* c) {
  core::OpLaunch launch;
  launch.type = "GEMM";
  launch.inputs.push_back(Matrix(s.type_a, s.m, s.k, s.ta, a));
  launch.inputs.push_back(Matrix(s.type_b, s.k, s.n, s.tb, b));
  launch.inputs.push_back(Matrix(s.type_c, s.m, s.n, Trans{}, c));
  launch.inputs.push_back(Scalar(s.type_c, alpha));
  launch.inputs.push_back(Scalar(s.type_c, beta));
  launch.outputs.push_back(Matrix(s.type_c, s.m, s.n, Trans{}, c));
  launch.attrs["transpose_a"] = s.ta.transposed;
  launch.attrs["transpose_b"] = s.tb.transposed;
  return launch;
}

aclError Gemm(const char* api_name, const aclTransType& transA, const aclTransType& transB,
              const aclTransType& transC, int m, int n, int k, const void* alpha, const void* a,
              int lda, const aclDataType& dataTypeA, const void* b, int ldb,
              const aclDataType& dataTypeB, const void* beta, void* c, int ldc,
              const aclDataType& dataTypeC, const aclComputeType& computeType, aclrtStream stream) {
  return api::ApiCall(api_name, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(alpha, "alpha"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(beta, "beta"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(a, "matrixA"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(b, "matrixB"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(c, "matrixC"));
    ACLSIM_RETURN_IF_ERROR(CheckReserved(lda, "lda"));
    ACLSIM_RETURN_IF_ERROR(CheckReserved(ldb, "ldb"));
    ACLSIM_RETURN_IF_ERROR(CheckReserved(ldc, "ldc"));
    ACLSIM_ASSIGN_OR_RETURN(auto spec, ReadGemm(transA, transB, transC, m, n, k, dataTypeA,
                                                dataTypeB, dataTypeC, computeType));
    return api::ExecuteOnStream(GemmLaunch(spec, alpha, a, b, beta, c), stream, nullptr);
  });
}

aclError Gemv(const char* api_name, const aclTransType& transA, int m, int n, const void* alpha,
              const void* a, int lda, const aclDataType& dataTypeA, const void* x, int incx,
              const aclDataType& dataTypeX, const void* beta, void* y, int incy,
              const aclDataType& dataTypeY, const aclComputeType& computeType, aclrtStream stream) {
  return api::ApiCall(api_name, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(alpha, "alpha"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(beta, "beta"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(a, "a"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(x, "x"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(y, "y"));
    ACLSIM_RETURN_IF_ERROR(CheckReserved(lda, "lda"));
    ACLSIM_RETURN_IF_ERROR(CheckReserved(incx, "incx"));
    ACLSIM_RETURN_IF_ERROR(CheckReserved(incy, "incy"));
    // y[m] = alpha * op(A)[m, n] x x[n] + beta * y: a GEMM with one column. A is stored
    // [m, n] (transA: [n, m] and op(A) has m = n's role swapped, as in BLAS).
    ACLSIM_ASSIGN_OR_RETURN(Trans ta, ReadTrans(transA, "transA"));
    const int rows = ta.transposed ? n : m;
    const int cols = ta.transposed ? m : n;
    ACLSIM_ASSIGN_OR_RETURN(auto spec, ReadGemm(transA, ACL_TRANS_N, ACL_TRANS_N, rows, 1, cols,
                                                dataTypeA, dataTypeX, dataTypeY, computeType));
    return api::ExecuteOnStream(GemmLaunch(spec, alpha, a, x, beta, y), stream, nullptr);
  });
}

aclError GemmHandle(const char* api_name, const aclTransType& transA, const aclTransType& transB,
                    const aclTransType& transC, int m, int n, int k, const aclDataType& dataTypeA,
                    const aclDataType& dataTypeB, const aclDataType& dataTypeC,
                    const aclComputeType& computeType, aclopHandle** handle) {
  return api::ApiCall(api_name, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(handle, "handle"));
    ACLSIM_ASSIGN_OR_RETURN(auto spec, ReadGemm(transA, transB, transC, m, n, k, dataTypeA,
                                                dataTypeB, dataTypeC, computeType));
    auto object = core::MakeHandleObject<aclopHandle>();
    object->launch = GemmLaunch(spec, nullptr, nullptr, nullptr, nullptr, nullptr);
    // Execute with aclopExecWithHandle: inputs {A, B, C, alpha, beta}, outputs {C}.
    *handle = static_cast<aclopHandle*>(core::PublishHandle(object));
    return Status::Ok();
  });
}

}  // namespace

aclError aclblasGemvEx(aclTransType transA, int m, int n, const void* alpha, const void* a, int lda,
                       aclDataType dataTypeA, const void* x, int incx, aclDataType dataTypeX,
                       const void* beta, void* y, int incy, aclDataType dataTypeY,
                       aclComputeType type, aclrtStream stream) {
  return Gemv(__func__, transA, m, n, alpha, a, lda, dataTypeA, x, incx, dataTypeX, beta, y, incy,
              dataTypeY, type, stream);
}

aclError aclblasCreateHandleForGemvEx(aclTransType transA, int m, int n, aclDataType dataTypeA,
                                      aclDataType dataTypeX, aclDataType dataTypeY,
                                      aclComputeType type, aclopHandle** handle) {
  const bool t = api::EnumValue(transA) == ACL_TRANS_T || api::EnumValue(transA) == ACL_TRANS_NZ_T;
  return GemmHandle(__func__, transA, ACL_TRANS_N, ACL_TRANS_N, t ? n : m, 1, t ? m : n, dataTypeA,
                    dataTypeX, dataTypeY, type, handle);
}

aclError aclblasHgemv(aclTransType transA, int m, int n, const aclFloat16* alpha,
                      const aclFloat16* a, int lda, const aclFloat16* x, int incx,
                      const aclFloat16* beta, aclFloat16* y, int incy, aclComputeType type,
                      aclrtStream stream) {
  return Gemv(__func__, transA, m, n, alpha, a, lda, ACL_FLOAT16, x, incx, ACL_FLOAT16, beta, y,
              incy, ACL_FLOAT16, type, stream);
}

aclError aclblasCreateHandleForHgemv(aclTransType transA, int m, int n, aclComputeType type,
                                     aclopHandle** handle) {
  const bool t = api::EnumValue(transA) == ACL_TRANS_T || api::EnumValue(transA) == ACL_TRANS_NZ_T;
  return GemmHandle(__func__, transA, ACL_TRANS_N, ACL_TRANS_N, t ? n : m, 1, t ? m : n,
                    ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, type, handle);
}

aclError aclblasS8gemv(aclTransType transA, int m, int n, const int32_t* alpha, const int8_t* a,
                       int lda, const int8_t* x, int incx, const int32_t* beta, int32_t* y,
                       int incy, aclComputeType type, aclrtStream stream) {
  return Gemv(__func__, transA, m, n, alpha, a, lda, ACL_INT8, x, incx, ACL_INT8, beta, y, incy,
              ACL_INT32, type, stream);
}

aclError aclblasCreateHandleForS8gemv(aclTransType transA, int m, int n, aclComputeType type,
                                      aclopHandle** handle) {
  const bool t = api::EnumValue(transA) == ACL_TRANS_T || api::EnumValue(transA) == ACL_TRANS_NZ_T;
  return GemmHandle(__func__, transA, ACL_TRANS_N, ACL_TRANS_N, t ? n : m, 1, t ? m : n, ACL_INT8,
                    ACL_INT8, ACL_INT32, type, handle);
}

aclError aclblasGemmEx(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                       int k, const void* alpha, const void* matrixA, int lda,
                       aclDataType dataTypeA, const void* matrixB, int ldb, aclDataType dataTypeB,
                       const void* beta, void* matrixC, int ldc, aclDataType dataTypeC,
                       aclComputeType type, aclrtStream stream) {
  return Gemm(__func__, transA, transB, transC, m, n, k, alpha, matrixA, lda, dataTypeA, matrixB,
              ldb, dataTypeB, beta, matrixC, ldc, dataTypeC, type, stream);
}

aclError aclblasCreateHandleForGemmEx(aclTransType transA, aclTransType transB, aclTransType transC,
                                      int m, int n, int k, aclDataType dataTypeA,
                                      aclDataType dataTypeB, aclDataType dataTypeC,
                                      aclComputeType type, aclopHandle** handle) {
  return GemmHandle(__func__, transA, transB, transC, m, n, k, dataTypeA, dataTypeB, dataTypeC,
                    type, handle);
}

aclError aclblasHgemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                      int k, const aclFloat16* alpha, const aclFloat16* matrixA, int lda,
                      const aclFloat16* matrixB, int ldb, const aclFloat16* beta,
                      aclFloat16* matrixC, int ldc, aclComputeType type, aclrtStream stream) {
  return Gemm(__func__, transA, transB, transC, m, n, k, alpha, matrixA, lda, ACL_FLOAT16, matrixB,
              ldb, ACL_FLOAT16, beta, matrixC, ldc, ACL_FLOAT16, type, stream);
}

aclError aclblasCreateHandleForHgemm(aclTransType transA, aclTransType transB, aclTransType transC,
                                     int m, int n, int k, aclComputeType type,
                                     aclopHandle** handle) {
  return GemmHandle(__func__, transA, transB, transC, m, n, k, ACL_FLOAT16, ACL_FLOAT16,
                    ACL_FLOAT16, type, handle);
}

aclError aclblasS8gemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                       int k, const int32_t* alpha, const int8_t* matrixA, int lda,
                       const int8_t* matrixB, int ldb, const int32_t* beta, int32_t* matrixC,
                       int ldc, aclComputeType type, aclrtStream stream) {
  return Gemm(__func__, transA, transB, transC, m, n, k, alpha, matrixA, lda, ACL_INT8, matrixB,
              ldb, ACL_INT8, beta, matrixC, ldc, ACL_INT32, type, stream);
}

aclError aclblasCreateHandleForS8gemm(aclTransType transA, aclTransType transB, aclTransType transC,
                                      int m, int n, int k, aclComputeType type,
                                      aclopHandle** handle) {
  return GemmHandle(__func__, transA, transB, transC, m, n, k, ACL_INT8, ACL_INT8, ACL_INT32, type,
                    handle);
}
