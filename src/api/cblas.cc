// ops/acl_cblas.h: aclblas* as CANN defines them, on top of the GEMM op (core/blas.h: the
// lowering; here: CANN's enums, reserved arguments and null checks).
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
#include "core/blas.h"
#include "core/op_executor.h"
#include "core/runtime.h"

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

using core::blas::GemmSpec;
using core::blas::Layout;

Result<Layout> ReadTrans(const aclTransType& trans, const char* what) {
  switch (api::EnumValue(trans)) {
    case ACL_TRANS_N:
      return Layout{false, false};
    case ACL_TRANS_T:
      return Layout{true, false};
    case ACL_TRANS_NZ:
      return Layout{false, true};
    case ACL_TRANS_NZ_T:
      return Layout{true, true};
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

ops::DataType TypeOf(const aclDataType& type) {
  return static_cast<ops::DataType>(api::EnumValue(type));  // same values (ops/types.h)
}

Result<GemmSpec> ReadGemm(const aclTransType& transA, const aclTransType& transB,
                          const aclTransType& transC, int m, int n, int k,
                          const aclDataType& dataTypeA, const aclDataType& dataTypeB,
                          const aclDataType& dataTypeC, const aclComputeType& computeType) {
  GemmSpec spec;
  ACLSIM_ASSIGN_OR_RETURN(spec.a, ReadTrans(transA, "transA"));
  ACLSIM_ASSIGN_OR_RETURN(spec.b, ReadTrans(transB, "transB"));
  ACLSIM_ASSIGN_OR_RETURN(Layout c, ReadTrans(transC, "transC"));
  ACLSIM_RETURN_IF_ERROR(CheckCompute(computeType));
  spec.m = m;
  spec.n = n;
  spec.k = k;
  spec.type_a = TypeOf(dataTypeA);
  spec.type_b = TypeOf(dataTypeB);
  spec.type_c = TypeOf(dataTypeC);
  static const char* const kNames[3] = {"dataTypeA", "dataTypeB", "dataTypeC"};
  ACLSIM_RETURN_IF_ERROR(core::blas::CheckGemm(spec, c, kNames));
  return spec;
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
    return api::ExecuteOnStream(core::blas::GemmLaunch(spec, alpha, a, b, beta, c), stream,
                                nullptr);
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
    ACLSIM_ASSIGN_OR_RETURN(Layout layout, ReadTrans(transA, "transA"));
    ACLSIM_RETURN_IF_ERROR(CheckCompute(computeType));
    const GemmSpec spec = core::blas::GemvAsGemm(layout, m, n, TypeOf(dataTypeA), TypeOf(dataTypeX),
                                                 TypeOf(dataTypeY));
    static const char* const kNames[3] = {"dataTypeA", "dataTypeX", "dataTypeY"};
    ACLSIM_RETURN_IF_ERROR(core::blas::CheckGemm(spec, Layout{}, kNames));
    return api::ExecuteOnStream(core::blas::GemmLaunch(spec, alpha, a, x, beta, y), stream,
                                nullptr);
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
    object->launch = core::blas::GemmLaunch(spec, nullptr, nullptr, nullptr, nullptr, nullptr);
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
