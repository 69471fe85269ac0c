// aclblas* lowered to the GEMM op (ops/acl_cblas.h's contract, core side).
//
// y = alpha * op(A) x op(B) + beta * C, in place on C, runs as the op library's GEMM through
// the op cache like any single op. Matrices are row-major; an operand may be transposed
// (op(A) = A^T) and/or stored in FRACTAL_NZ; C is row-major ND. alpha and beta are device
// pointers to one value of C's type. A GEMV (y = alpha * op(A) x x + beta * y) is a GEMM with
// one column. The API layer reads CANN's enums into these types; everything else -- shapes,
// the supported type combinations, the launch -- is here.
//
// Thread-safety: pure functions.
#pragma once

#include "common/status.h"
#include "core/op_executor.h"
#include "ops/types.h"

namespace aclsim::core::blas {

// How an operand is stored.
struct Layout {
  bool transposed = false;
  bool nz = false;  // FRACTAL_NZ
};

struct GemmSpec {
  Layout a, b;
  int m = 0, n = 0, k = 0;
  ops::DataType type_a = ops::DataType::kUndefined;
  ops::DataType type_b = ops::DataType::kUndefined;
  ops::DataType type_c = ops::DataType::kUndefined;
};

// Checks a GEMM: C's layout plain (kInvalidParam), m, n, k > 0 (kInvalidParam), the types among
// FLOAT16, FLOAT, INT8, INT32 and combined as FLOAT16 x FLOAT16 -> FLOAT16 / FLOAT,
// FLOAT x FLOAT -> FLOAT or INT8 x INT8 -> INT32 (kUnsupportedDataType). `what` names each
// type in messages (e.g. {"dataTypeA", "dataTypeB", "dataTypeC"}).
Status CheckGemm(const GemmSpec& spec, Layout c, const char* const what[3]);

// The GEMV y[m'] = alpha * op(A) x x + beta * y as a GEMM: A stored [m, n] (transposed: op(A)
// is [n, m], as in BLAS), one column.
GemmSpec GemvAsGemm(Layout a, int m, int n, ops::DataType type_a, ops::DataType type_x,
                    ops::DataType type_y);

// The GEMM op's launch: inputs {A, B, C, alpha, beta}, output {C} (buffers may be null for a
// handle that is executed later with aclopExecWithHandle).
OpLaunch GemmLaunch(const GemmSpec& spec, const void* alpha, const void* a, const void* b,
                    const void* beta, void* c);

}  // namespace aclsim::core::blas
