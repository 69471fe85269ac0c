/*
 * Issue 5's acceptance program: C99, public AscendCL API only (acl.h, acl_op_compiler.h,
 * ops/acl_cblas.h). It runs, on the simulated device, and checks against host references:
 *   - fp16 Add through aclopCompileAndExecute, and through aclopCompile + aclopExecuteV2;
 *   - MatMul with transpose_x2;
 *   - aclblasGemmEx (fp16 A/B/C) with alpha and beta in device memory;
 *   - aclopCast fp32 -> fp16;
 *   - SoftmaxV2 over the last axis;
 * and expects errors (never crashes) for an unknown op type and for mismatched shapes.
 *
 * Exit status: 0 when everything checks out, 1 otherwise.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
#include "acl/ops/acl_cblas.h"

static int g_failures = 0;

#define CHECK(call)                                                                        \
  do {                                                                                     \
    aclError err_ = (call);                                                                \
    if (err_ != ACL_SUCCESS) {                                                             \
      const char* msg_ = aclGetRecentErrMsg();                                             \
      fprintf(stderr, "%s:%d: %s failed: %d (%s)\n", __FILE__, __LINE__, #call, (int)err_, \
              msg_ != NULL ? msg_ : "no message");                                         \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

static void Expect(int ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "FAILED: %s\n", what);
    ++g_failures;
  }
}

static aclrtStream g_stream;

/* A device copy of `bytes` bytes of `host` (or zeros when host is NULL). */
static void* ToDevice(const void* host, size_t bytes) {
  void* dev = NULL;
  CHECK(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  if (host != NULL) {
    CHECK(aclrtMemcpy(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  } else {
    CHECK(aclrtMemset(dev, bytes, 0, bytes));
  }
  return dev;
}

static void ToHost(void* host, const void* dev, size_t bytes) {
  CHECK(aclrtSynchronizeStream(g_stream));
  CHECK(aclrtMemcpy(host, bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
}

static aclTensorDesc* Desc1(aclDataType type, int64_t n) {
  return aclCreateTensorDesc(type, 1, &n, ACL_FORMAT_ND);
}

static aclTensorDesc* Desc2(aclDataType type, int64_t rows, int64_t cols) {
  int64_t dims[2];
  dims[0] = rows;
  dims[1] = cols;
  return aclCreateTensorDesc(type, 2, dims, ACL_FORMAT_ND);
}

static void AddFp16(void) {
  enum { N = 64 };
  aclFloat16 a[N], b[N], y[N];
  int i;
  void *da, *db, *dy;
  aclTensorDesc* in[2];
  aclTensorDesc* out[1];
  aclDataBuffer* inputs[2];
  aclDataBuffer* outputs[1];
  int pass;
  for (i = 0; i < N; ++i) {
    a[i] = aclFloatToFloat16((float)i * 0.5f);
    b[i] = aclFloatToFloat16(1.0f - (float)i);
  }
  da = ToDevice(a, sizeof(a));
  db = ToDevice(b, sizeof(b));
  dy = ToDevice(NULL, sizeof(y));
  in[0] = Desc1(ACL_FLOAT16, N);
  in[1] = Desc1(ACL_FLOAT16, N);
  out[0] = Desc1(ACL_FLOAT16, N);
  inputs[0] = aclCreateDataBuffer(da, sizeof(a));
  inputs[1] = aclCreateDataBuffer(db, sizeof(b));
  outputs[0] = aclCreateDataBuffer(dy, sizeof(y));

  /* 1: compile and execute in one call. */
  CHECK(aclopCompileAndExecute("Add", 2, (const aclTensorDesc* const*)in,
                               (const aclDataBuffer* const*)inputs, 1,
                               (const aclTensorDesc* const*)out, outputs, NULL, ACL_ENGINE_SYS,
                               ACL_COMPILE_SYS, NULL, g_stream));
  ToHost(y, dy, sizeof(y));
  for (i = 0; i < N; ++i) {
    Expect(aclFloat16ToFloat(y[i]) == (float)i * 0.5f + 1.0f - (float)i, "Add fp16 (compile+exec)");
  }

  /* 2: compile, then execute the compiled op with new data. */
  CHECK(aclopCompile("Add", 2, (const aclTensorDesc* const*)in, 1, (const aclTensorDesc* const*)out,
                     NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL));
  CHECK(aclrtMemcpy(db, sizeof(a), a, sizeof(a), ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclopExecuteV2("Add", 2, in, inputs, 1, out, outputs, NULL, g_stream));
  ToHost(y, dy, sizeof(y));
  pass = 1;
  for (i = 0; i < N; ++i) pass &= aclFloat16ToFloat(y[i]) == (float)i;
  Expect(pass, "Add fp16 (compile, then execute V2)");
  printf("Add fp16: ok\n");

  /* Mismatched shapes: an error, not a crash. */
  {
    aclTensorDesc* bad = Desc1(ACL_FLOAT16, N / 2);
    aclTensorDesc* mixed[2];
    aclError err;
    mixed[0] = in[0];
    mixed[1] = bad;
    (void)aclGetRecentErrMsg();
    err = aclopExecuteV2("Add", 2, mixed, inputs, 1, out, outputs, NULL, g_stream);
    Expect(err == ACL_ERROR_OP_INPUT_NOT_MATCH,
           "mismatched shapes -> ACL_ERROR_OP_INPUT_NOT_MATCH");
    Expect(aclGetRecentErrMsg() != NULL, "mismatched shapes leave a message");
    printf("Add with mismatched shapes: error %d\n", (int)err);
    aclDestroyTensorDesc(bad);
  }
  /* An unknown op type: an error, not a crash. */
  {
    aclError err = aclopExecuteV2("NoSuchOperator", 2, in, inputs, 1, out, outputs, NULL, g_stream);
    Expect(err == ACL_ERROR_OP_TYPE_NOT_MATCH, "unknown op -> ACL_ERROR_OP_TYPE_NOT_MATCH");
    printf("unknown op type: error %d\n", (int)err);
  }

  for (i = 0; i < 2; ++i) {
    aclDestroyTensorDesc(in[i]);
    aclDestroyDataBuffer(inputs[i]);
  }
  aclDestroyTensorDesc(out[0]);
  aclDestroyDataBuffer(outputs[0]);
  CHECK(aclrtFree(da));
  CHECK(aclrtFree(db));
  CHECK(aclrtFree(dy));
}

static void MatMulTransposeX2(void) {
  /* x1 [M, K], x2 stored [N, K]; y = x1 x x2^T [M, N]. */
  enum { M = 3, K = 5, N = 4 };
  float x1[M * K], x2[N * K], y[M * N];
  void *d1, *d2, *dy;
  aclTensorDesc* in[2];
  aclTensorDesc* out[1];
  aclDataBuffer* inputs[2];
  aclDataBuffer* outputs[1];
  aclopAttr* attr = aclopCreateAttr();
  int i, j, k, pass = 1;
  for (i = 0; i < M * K; ++i) x1[i] = (float)(i % 7) - 3.0f;
  for (i = 0; i < N * K; ++i) x2[i] = (float)(i % 5) * 0.5f;
  d1 = ToDevice(x1, sizeof(x1));
  d2 = ToDevice(x2, sizeof(x2));
  dy = ToDevice(NULL, sizeof(y));
  in[0] = Desc2(ACL_FLOAT, M, K);
  in[1] = Desc2(ACL_FLOAT, N, K);
  out[0] = Desc2(ACL_FLOAT, M, N);
  inputs[0] = aclCreateDataBuffer(d1, sizeof(x1));
  inputs[1] = aclCreateDataBuffer(d2, sizeof(x2));
  outputs[0] = aclCreateDataBuffer(dy, sizeof(y));
  CHECK(aclopSetAttrBool(attr, "transpose_x1", 0));
  CHECK(aclopSetAttrBool(attr, "transpose_x2", 1));
  CHECK(aclopCompileAndExecute("MatMul", 2, (const aclTensorDesc* const*)in,
                               (const aclDataBuffer* const*)inputs, 1,
                               (const aclTensorDesc* const*)out, outputs, attr, ACL_ENGINE_SYS,
                               ACL_COMPILE_SYS, NULL, g_stream));
  ToHost(y, dy, sizeof(y));
  for (i = 0; i < M; ++i) {
    for (j = 0; j < N; ++j) {
      float want = 0.0f;
      for (k = 0; k < K; ++k) want += x1[i * K + k] * x2[j * K + k];
      pass &= fabsf(y[i * N + j] - want) < 1e-4f;
    }
  }
  Expect(pass, "MatMul transpose_x2");
  printf("MatMul transpose_x2: ok\n");
  aclopDestroyAttr(attr);
  for (i = 0; i < 2; ++i) {
    aclDestroyTensorDesc(in[i]);
    aclDestroyDataBuffer(inputs[i]);
  }
  aclDestroyTensorDesc(out[0]);
  aclDestroyDataBuffer(outputs[0]);
  CHECK(aclrtFree(d1));
  CHECK(aclrtFree(d2));
  CHECK(aclrtFree(dy));
}

static void GemmEx(void) {
  /* C = alpha * A x B + beta * C, fp16, alpha/beta in device memory. */
  enum { M = 16, K = 32, N = 8 };
  aclFloat16 a[M * K], b[K * N], c[M * N], scal[2];
  float c0[M * N];
  void *da, *db, *dc, *dalpha, *dbeta;
  int i, j, k, pass = 1;
  for (i = 0; i < M * K; ++i) a[i] = aclFloatToFloat16((float)((i * 7) % 11) / 8.0f - 0.5f);
  for (i = 0; i < K * N; ++i) b[i] = aclFloatToFloat16((float)((i * 3) % 13) / 16.0f);
  for (i = 0; i < M * N; ++i) {
    c[i] = aclFloatToFloat16((float)(i % 4));
    c0[i] = aclFloat16ToFloat(c[i]);
  }
  scal[0] = aclFloatToFloat16(2.0f);
  scal[1] = aclFloatToFloat16(0.5f);
  da = ToDevice(a, sizeof(a));
  db = ToDevice(b, sizeof(b));
  dc = ToDevice(c, sizeof(c));
  dalpha = ToDevice(&scal[0], sizeof(aclFloat16));
  dbeta = ToDevice(&scal[1], sizeof(aclFloat16));
  CHECK(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, M, N, K, dalpha, da, -1, ACL_FLOAT16,
                      db, -1, ACL_FLOAT16, dbeta, dc, -1, ACL_FLOAT16, ACL_COMPUTE_HIGH_PRECISION,
                      g_stream));
  ToHost(c, dc, sizeof(c));
  for (i = 0; i < M; ++i) {
    for (j = 0; j < N; ++j) {
      float acc = 0.0f, want, got;
      for (k = 0; k < K; ++k) {
        acc += aclFloat16ToFloat(a[i * K + k]) * aclFloat16ToFloat(b[k * N + j]);
      }
      want = 2.0f * acc + 0.5f * c0[i * N + j];
      got = aclFloat16ToFloat(c[i * N + j]);
      pass &= fabsf(got - want) <= 1e-2f * (fabsf(want) + 1.0f);
    }
  }
  Expect(pass, "aclblasGemmEx fp16");
  /* lda must be -1 (reserved). */
  Expect(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, M, N, K, dalpha, da, K, ACL_FLOAT16,
                       db, -1, ACL_FLOAT16, dbeta, dc, -1, ACL_FLOAT16, ACL_COMPUTE_HIGH_PRECISION,
                       g_stream) == ACL_ERROR_INVALID_PARAM,
         "aclblasGemmEx with lda != -1 fails");
  printf("aclblasGemmEx fp16: ok\n");
  CHECK(aclrtFree(da));
  CHECK(aclrtFree(db));
  CHECK(aclrtFree(dc));
  CHECK(aclrtFree(dalpha));
  CHECK(aclrtFree(dbeta));
}

static void CastToFp16(void) {
  enum { N = 5 };
  const float x[N] = {0.0f, 1.0f, -2.5f, 0.1f, 65504.0f};
  aclFloat16 y[N];
  void *dx = ToDevice(x, sizeof(x)), *dy = ToDevice(NULL, sizeof(y));
  aclTensorDesc* src = Desc1(ACL_FLOAT, N);
  aclTensorDesc* dst = Desc1(ACL_FLOAT16, N);
  aclDataBuffer* bx = aclCreateDataBuffer(dx, sizeof(x));
  aclDataBuffer* by = aclCreateDataBuffer(dy, sizeof(y));
  int i, pass = 1;
  CHECK(aclopCast(src, bx, dst, by, 0, g_stream));
  ToHost(y, dy, sizeof(y));
  for (i = 0; i < N; ++i) pass &= y[i] == aclFloatToFloat16(x[i]);
  Expect(pass, "aclopCast fp32 -> fp16");
  printf("aclopCast fp32 -> fp16: ok\n");
  aclDestroyTensorDesc(src);
  aclDestroyTensorDesc(dst);
  aclDestroyDataBuffer(bx);
  aclDestroyDataBuffer(by);
  CHECK(aclrtFree(dx));
  CHECK(aclrtFree(dy));
}

static void SoftmaxLastAxis(void) {
  enum { R = 4, C = 6 };
  float x[R * C], y[R * C];
  void *dx, *dy;
  aclTensorDesc* in[1];
  aclTensorDesc* out[1];
  aclDataBuffer* inputs[1];
  aclDataBuffer* outputs[1];
  aclopAttr* attr = aclopCreateAttr();
  const int64_t axes[1] = {-1};
  int r, c, pass = 1;
  for (r = 0; r < R * C; ++r) x[r] = (float)((r * 5) % 9) - 4.0f;
  dx = ToDevice(x, sizeof(x));
  dy = ToDevice(NULL, sizeof(y));
  in[0] = Desc2(ACL_FLOAT, R, C);
  out[0] = Desc2(ACL_FLOAT, R, C);
  inputs[0] = aclCreateDataBuffer(dx, sizeof(x));
  outputs[0] = aclCreateDataBuffer(dy, sizeof(y));
  CHECK(aclopSetAttrListInt(attr, "axes", 1, axes));
  CHECK(aclopCompileAndExecute("SoftmaxV2", 1, (const aclTensorDesc* const*)in,
                               (const aclDataBuffer* const*)inputs, 1,
                               (const aclTensorDesc* const*)out, outputs, attr, ACL_ENGINE_SYS,
                               ACL_COMPILE_SYS, NULL, g_stream));
  ToHost(y, dy, sizeof(y));
  for (r = 0; r < R; ++r) {
    float max = x[r * C], sum = 0.0f;
    for (c = 1; c < C; ++c) max = x[r * C + c] > max ? x[r * C + c] : max;
    for (c = 0; c < C; ++c) sum += expf(x[r * C + c] - max);
    for (c = 0; c < C; ++c) {
      pass &= fabsf(y[r * C + c] - expf(x[r * C + c] - max) / sum) < 1e-5f;
    }
  }
  Expect(pass, "SoftmaxV2 over the last axis");
  printf("SoftmaxV2: ok\n");
  aclopDestroyAttr(attr);
  aclDestroyTensorDesc(in[0]);
  aclDestroyTensorDesc(out[0]);
  aclDestroyDataBuffer(inputs[0]);
  aclDestroyDataBuffer(outputs[0]);
  CHECK(aclrtFree(dx));
  CHECK(aclrtFree(dy));
}

int main(void) {
  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  CHECK(aclrtCreateStream(&g_stream));
  AddFp16();
  MatMulTransposeX2();
  GemmEx();
  CastToFp16();
  SoftmaxLastAxis();
  CHECK(aclrtDestroyStream(g_stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  if (g_failures != 0) {
    fprintf(stderr, "%d check(s) failed\n", g_failures);
    return 1;
  }
  printf("all single-op checks passed\n");
  return 0;
}
