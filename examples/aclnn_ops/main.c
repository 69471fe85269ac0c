/*
 * A feed-forward step of a tiny language model through aclnn operators on the simulated NPU,
 * written the way framework backends call aclnn (C99). torch_npu and mmcv open the operator
 * libraries with dlopen and look every function up by name; so does this program: only the
 * runtime (aclInit, aclrtMalloc, streams) is linked, from libascendcl. It builds unchanged
 * against CANN:
 *
 *   gcc -std=c99 -I$ASCEND_HOME_PATH/include main.c -L$ASCEND_HOME_PATH/lib64 -lascendcl -ldl -lm
 *
 * The step, for T tokens of a model with D features, a gated FFN of width F and V words:
 *
 *   x = GatherV2(embedding, ids)                 rows of the embedding table
 *   y = RmsNorm(x, gamma)                        (and its rstd)
 *   h = Mm(Cast(y, f16), Cast(W_gu, f16)^T)      gate and up projections at once, in f16;
 *                                                the weight is a transposed view, as llama.cpp
 *                                                passes it
 *   g = SwiGlu(Cast(h, f32))                     = Mul(Silu(gate), up), computed both ways
 *   r = Add(x, Mm(g, W_down^T)) * 0.5            residual, Muls
 *   s = Mul(r, Cos(Arange(0, T)))                a per-position factor, broadcast
 *   p = Softmax(s), ArgMax(p)
 *
 * thirteen operators on strided views with broadcasting, each checked against a host
 * reference. Then one executor made repeatable (aclSetAclOpExecutorRepeatable) is launched
 * again on other buffers (aclSetInputTensorAddr / aclSetOutputTensorAddr) and destroyed with
 * aclDestroyAclOpExecutor, and a few bad calls show their ACLNN_ERR_* codes and messages.
 *
 * Exit status 0 when every value checks out.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

enum { T = 4, D = 32, F = 24, V = 16 };

#define CHECK(call)                                                                   \
  do {                                                                                \
    int err_ = (int)(call);                                                           \
    if (err_ != 0) {                                                                  \
      fprintf(stderr, "%s:%d: %s failed: %d (%s)\n", __FILE__, __LINE__, #call, err_, \
              aclGetRecentErrMsg() ? aclGetRecentErrMsg() : "");                      \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

/* ---- the libraries, opened and looked up by name ---------------------------------------- */

static void* g_opapi;
static void* g_nnopbase;

static void* Sym(void* lib, const char* name) {
  void* p = dlsym(lib, name);
  if (p == NULL) {
    fprintf(stderr, "dlsym(%s): %s\n", name, dlerror());
    exit(1);
  }
  return p;
}
/* Object and function pointers do not convert in ISO C: copy the bits (POSIX allows it). */
#define LOOKUP(lib, var, name)        \
  do {                                \
    void* p_ = Sym((lib), (name));    \
    memcpy(&(var), &p_, sizeof(var)); \
  } while (0)

static aclTensor* (*CreateTensor)(const int64_t*, uint64_t, aclDataType, const int64_t*, int64_t,
                                  aclFormat, const int64_t*, uint64_t, void*);
static aclnnStatus (*DestroyTensor)(const aclTensor*);
static aclScalar* (*CreateScalar)(void*, aclDataType);
static aclnnStatus (*DestroyScalar)(const aclScalar*);
static aclnnStatus (*SetRepeatable)(aclOpExecutor*);
static aclnnStatus (*SetInputAddr)(aclOpExecutor*, const size_t, aclTensor*, void*);
static aclnnStatus (*SetOutputAddr)(aclOpExecutor*, const size_t, aclTensor*, void*);
static aclnnStatus (*DestroyExecutor)(aclOpExecutor*);

/* The second phase of operator `op` ("aclnn" + op), on `stream`, with its workspace. */
static void Launch(const char* op, uint64_t ws_size, aclOpExecutor* ex, aclrtStream stream) {
  char name[96];
  aclnnStatus (*run)(void*, uint64_t, aclOpExecutor*, aclrtStream);
  void* ws = NULL;
  snprintf(name, sizeof(name), "aclnn%s", op);
  LOOKUP(g_opapi, run, name);
  if (ws_size > 0) CHECK(aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(run(ws, ws_size, ex, stream));
  CHECK(aclrtSynchronizeStream(stream));
  if (ws != NULL) CHECK(aclrtFree(ws));
}

/* First phase through the looked-up pointer `fn`, then the second; ws/ex are locals. */
#define RUN(stream, op, fn, ...)                        \
  do {                                                  \
    uint64_t ws_ = 0;                                   \
    aclOpExecutor* ex_ = NULL;                          \
    LOOKUP(g_opapi, fn, "aclnn" op "GetWorkspaceSize"); \
    CHECK(fn(__VA_ARGS__, &ws_, &ex_));                 \
    Launch(op, ws_, ex_, stream);                       \
    ++g_ops_run;                                        \
  } while (0)

static int g_ops_run;

/* ---- device buffers and their views ----------------------------------------------------- */

typedef struct {
  void* dev;
  size_t bytes;
} Buffer;

static Buffer Upload(const void* host, size_t bytes) {
  Buffer b;
  b.bytes = bytes;
  CHECK(aclrtMalloc(&b.dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  if (host != NULL) CHECK(aclrtMemcpy(b.dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  return b;
}
static void Download(void* host, const Buffer* b) {
  CHECK(aclrtMemcpy(host, b->bytes, b->dev, b->bytes, ACL_MEMCPY_DEVICE_TO_HOST));
}

/* A 1-D or 2-D view (strides NULL = contiguous) over `b`, holding `storage` elements. */
static aclTensor* View(const Buffer* b, aclDataType dtype, int64_t rows, int64_t cols,
                       const int64_t* strides, int64_t storage) {
  const int64_t dims[2] = {rows, cols};
  const uint64_t rank = cols > 0 ? 2 : 1;
  aclTensor* t = CreateTensor(dims, rank, dtype, strides, 0, ACL_FORMAT_ND, &storage, 1, b->dev);
  if (t == NULL) {
    fprintf(stderr, "aclCreateTensor failed: %s\n", aclGetRecentErrMsg());
    exit(1);
  }
  return t;
}

/* ---- host reference ---------------------------------------------------------------------- */

static float RoundF16(float v) { return aclFloat16ToFloat(aclFloatToFloat16(v)); }

static int g_bad;
static void Compare(const char* what, const float* got, const float* want, int n, float tol) {
  float worst = 0;
  int i;
  for (i = 0; i < n; ++i) {
    const float err = fabsf(got[i] - want[i]) / (1.0f + fabsf(want[i]));
    if (err > worst) worst = err;
  }
  printf("  %-34s max relative error %.2e %s\n", what, (double)worst, worst <= tol ? "ok" : "BAD");
  if (worst > tol) g_bad = 1;
}

/* A first phase that must fail: prints its code and message. */
static void ExpectError(const char* what, aclnnStatus status) {
  printf("  %-40s -> %d: %s\n", what, (int)status, aclGetRecentErrMsg());
  if (status == 0) g_bad = 1;
}

static float Silu(float v) { return v / (1.0f + expf(-v)); }

int main(void) {
  static float emb[V * D], gamma[D], w_gu[2 * F * D], w_down[D * F];
  static float x[T * D], y[T * D], h[T * 2 * F], g[T * F], r[T * D], s[T * D], p[T * D];
  static float got[T * 2 * F], got_g2[T * F];
  static uint16_t h16[T * 2 * F];
  static int64_t argmax[T], got_argmax[T];
  const int64_t ids[T] = {3, 0, 15, 7};
  const double eps = 1e-6;
  aclrtStream stream;
  int i, j, k;
  unsigned seed = 12345u;

  for (i = 0; i < V * D; ++i)
    emb[i] = (float)((seed = seed * 1103515245u + 12345u) >> 16) / 65536.0f - 0.5f;
  for (i = 0; i < D; ++i) gamma[i] = 0.75f + 0.5f * (float)i / D;
  for (i = 0; i < 2 * F * D; ++i) w_gu[i] = (float)(((i * 37) % 101) - 50) / 250.0f;
  for (i = 0; i < D * F; ++i) w_down[i] = (float)(((i * 53) % 89) - 44) / 200.0f;

  /* Host reference, rounding to f16 where the device computes in f16. */
  for (i = 0; i < T; ++i) {
    double ss = 0;
    for (j = 0; j < D; ++j) {
      x[i * D + j] = emb[ids[i] * D + j];
      ss += (double)x[i * D + j] * x[i * D + j];
    }
    for (j = 0; j < D; ++j) {
      y[i * D + j] = (float)(x[i * D + j] / sqrt(ss / D + eps)) * gamma[j];
    }
    for (j = 0; j < 2 * F; ++j) {
      double acc = 0;
      for (k = 0; k < D; ++k) acc += (double)RoundF16(y[i * D + k]) * RoundF16(w_gu[j * D + k]);
      h[i * 2 * F + j] = RoundF16((float)acc);
    }
    for (j = 0; j < F; ++j) g[i * F + j] = Silu(h[i * 2 * F + j]) * h[i * 2 * F + F + j];
    for (j = 0; j < D; ++j) {
      double acc = 0;
      for (k = 0; k < F; ++k) acc += (double)g[i * F + k] * w_down[j * F + k];
      r[i * D + j] = (x[i * D + j] + (float)acc) * 0.5f;
      s[i * D + j] = r[i * D + j] * cosf((float)i);
    }
    {
      float mx = s[i * D];
      double sum = 0;
      for (j = 1; j < D; ++j) mx = s[i * D + j] > mx ? s[i * D + j] : mx;
      for (j = 0; j < D; ++j) sum += exp((double)(s[i * D + j] - mx));
      argmax[i] = 0;
      for (j = 0; j < D; ++j) {
        p[i * D + j] = (float)(exp((double)(s[i * D + j] - mx)) / sum);
        if (p[i * D + j] > p[i * D + argmax[i]]) argmax[i] = j;
      }
    }
  }

  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  CHECK(aclrtCreateStream(&stream));
  g_opapi = dlopen("libopapi.so", RTLD_NOW | RTLD_LOCAL);
  g_nnopbase = dlopen("libnnopbase.so", RTLD_NOW | RTLD_LOCAL);
  if (g_opapi == NULL || g_nnopbase == NULL) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  LOOKUP(g_nnopbase, CreateTensor, "aclCreateTensor");
  LOOKUP(g_nnopbase, DestroyTensor, "aclDestroyTensor");
  LOOKUP(g_nnopbase, CreateScalar, "aclCreateScalar");
  LOOKUP(g_nnopbase, DestroyScalar, "aclDestroyScalar");
  LOOKUP(g_nnopbase, SetRepeatable, "aclSetAclOpExecutorRepeatable");
  LOOKUP(g_nnopbase, SetInputAddr, "aclSetInputTensorAddr");
  LOOKUP(g_nnopbase, SetOutputAddr, "aclSetOutputTensorAddr");
  LOOKUP(g_nnopbase, DestroyExecutor, "aclDestroyAclOpExecutor");
  printf("aclnn operators from libopapi.so, meta objects from libnnopbase.so (dlopen + dlsym)\n");

  {
    Buffer d_emb = Upload(emb, sizeof(emb)), d_ids = Upload(ids, sizeof(ids));
    Buffer d_gamma = Upload(gamma, sizeof(gamma)), d_wgu = Upload(w_gu, sizeof(w_gu));
    Buffer d_wdown = Upload(w_down, sizeof(w_down));
    Buffer d_x = Upload(NULL, sizeof(x)), d_y = Upload(NULL, sizeof(y));
    Buffer d_rstd = Upload(NULL, T * sizeof(float)), d_y16 = Upload(NULL, T * D * 2);
    Buffer d_wgu16 = Upload(NULL, 2 * F * D * 2), d_h16 = Upload(NULL, sizeof(h16));
    Buffer d_h = Upload(NULL, sizeof(h)), d_g = Upload(NULL, sizeof(g));
    Buffer d_gate = Upload(NULL, sizeof(g)), d_g2 = Upload(NULL, sizeof(g));
    Buffer d_o = Upload(NULL, sizeof(r)), d_r = Upload(NULL, sizeof(r));
    Buffer d_pos = Upload(NULL, T * sizeof(float)), d_cos = Upload(NULL, T * sizeof(float));
    Buffer d_s = Upload(NULL, sizeof(s)), d_p = Upload(NULL, sizeof(p));
    Buffer d_arg = Upload(NULL, sizeof(argmax));
    const int64_t wgu_t[2] = {1, D};   /* W_gu [2F, D] seen as [D, 2F] */
    const int64_t wdown_t[2] = {1, F}; /* W_down [D, F] seen as [F, D] */
    const int64_t h_gate[2] = {2 * F, 1}, h_up[2] = {2 * F, 1};
    const int64_t cos_col[2] = {1, 0}; /* cos [T] seen as [T, 1] */
    float one = 1.0f, half = 0.5f, start = 0.0f, stop = (float)T, step = 1.0f;
    aclScalar* s_one = CreateScalar(&one, ACL_FLOAT);
    aclScalar* s_half = CreateScalar(&half, ACL_FLOAT);
    aclScalar* s_start = CreateScalar(&start, ACL_FLOAT);
    aclScalar* s_stop = CreateScalar(&stop, ACL_FLOAT);
    aclScalar* s_step = CreateScalar(&step, ACL_FLOAT);
    aclTensor* t_emb = View(&d_emb, ACL_FLOAT, V, D, NULL, V * D);
    aclTensor* t_ids = View(&d_ids, ACL_INT64, T, 0, NULL, T);
    aclTensor* t_gamma = View(&d_gamma, ACL_FLOAT, D, 0, NULL, D);
    aclTensor* t_wgu = View(&d_wgu, ACL_FLOAT, 2 * F, D, NULL, 2 * F * D);
    aclTensor* t_x = View(&d_x, ACL_FLOAT, T, D, NULL, T * D);
    aclTensor* t_y = View(&d_y, ACL_FLOAT, T, D, NULL, T * D);
    aclTensor* t_rstd = View(&d_rstd, ACL_FLOAT, T, 1, NULL, T);
    aclTensor* t_y16 = View(&d_y16, ACL_FLOAT16, T, D, NULL, T * D);
    aclTensor* t_wgu16 = View(&d_wgu16, ACL_FLOAT16, 2 * F, D, NULL, 2 * F * D);
    aclTensor* t_wgu16_t = View(&d_wgu16, ACL_FLOAT16, D, 2 * F, wgu_t, 2 * F * D);
    aclTensor* t_h16 = View(&d_h16, ACL_FLOAT16, T, 2 * F, NULL, T * 2 * F);
    aclTensor* t_h = View(&d_h, ACL_FLOAT, T, 2 * F, NULL, T * 2 * F);
    aclTensor* t_g = View(&d_g, ACL_FLOAT, T, F, NULL, T * F);
    aclTensor* t_hgate = View(&d_h, ACL_FLOAT, T, F, h_gate, T * 2 * F);
    aclTensor* t_gate = View(&d_gate, ACL_FLOAT, T, F, NULL, T * F);
    aclTensor* t_g2 = View(&d_g2, ACL_FLOAT, T, F, NULL, T * F);
    aclTensor* t_wdown_t = View(&d_wdown, ACL_FLOAT, F, D, wdown_t, D * F);
    aclTensor* t_o = View(&d_o, ACL_FLOAT, T, D, NULL, T * D);
    aclTensor* t_r = View(&d_r, ACL_FLOAT, T, D, NULL, T * D);
    aclTensor* t_pos = View(&d_pos, ACL_FLOAT, T, 0, NULL, T);
    aclTensor* t_cos = View(&d_cos, ACL_FLOAT, T, 0, NULL, T);
    aclTensor* t_cos_col = View(&d_cos, ACL_FLOAT, T, 1, cos_col, T);
    aclTensor* t_s = View(&d_s, ACL_FLOAT, T, D, NULL, T * D);
    aclTensor* t_p = View(&d_p, ACL_FLOAT, T, D, NULL, T * D);
    aclTensor* t_arg = View(&d_arg, ACL_INT64, T, 0, NULL, T);
    aclTensor* t_hup;
    {
      /* The up half of h: offset F elements into each row. */
      const int64_t dims[2] = {T, F};
      const int64_t storage = T * 2 * F;
      t_hup = CreateTensor(dims, 2, ACL_FLOAT, h_up, F, ACL_FORMAT_ND, &storage, 1, d_h.dev);
    }
    {
      aclnnStatus (*gather)(const aclTensor*, int64_t, const aclTensor*, aclTensor*, uint64_t*,
                            aclOpExecutor**);
      aclnnStatus (*rms_norm)(const aclTensor*, const aclTensor*, double, const aclTensor*,
                              const aclTensor*, uint64_t*, aclOpExecutor**);
      aclnnStatus (*cast)(const aclTensor*, const aclDataType, aclTensor*, uint64_t*,
                          aclOpExecutor**);
      aclnnStatus (*mm)(const aclTensor*, const aclTensor*, aclTensor*, int8_t, uint64_t*,
                        aclOpExecutor**);
      aclnnStatus (*swiglu)(const aclTensor*, int64_t, const aclTensor*, uint64_t*,
                            aclOpExecutor**);
      aclnnStatus (*silu)(const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**);
      aclnnStatus (*mul)(const aclTensor*, const aclTensor*, aclTensor*, uint64_t*,
                         aclOpExecutor**);
      aclnnStatus (*add)(const aclTensor*, const aclTensor*, const aclScalar*, aclTensor*,
                         uint64_t*, aclOpExecutor**);
      aclnnStatus (*inplace_muls)(aclTensor*, const aclScalar*, uint64_t*, aclOpExecutor**);
      aclnnStatus (*arange)(const aclScalar*, const aclScalar*, const aclScalar*, aclTensor*,
                            uint64_t*, aclOpExecutor**);
      aclnnStatus (*cosine)(const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**);
      aclnnStatus (*softmax)(const aclTensor*, int64_t, aclTensor*, uint64_t*, aclOpExecutor**);
      aclnnStatus (*arg_max)(const aclTensor*, int64_t, bool, aclTensor*, uint64_t*,
                             aclOpExecutor**);

      RUN(stream, "GatherV2", gather, t_emb, 0, t_ids, t_x);
      RUN(stream, "RmsNorm", rms_norm, t_x, t_gamma, eps, t_y, t_rstd);
      RUN(stream, "Cast", cast, t_y, ACL_FLOAT16, t_y16);
      RUN(stream, "Cast", cast, t_wgu, ACL_FLOAT16, t_wgu16);
      RUN(stream, "Mm", mm, t_y16, t_wgu16_t, t_h16, 0);
      RUN(stream, "Cast", cast, t_h16, ACL_FLOAT, t_h);
      RUN(stream, "SwiGlu", swiglu, t_h, -1, t_g);
      RUN(stream, "Silu", silu, t_hgate, t_gate);
      RUN(stream, "Mul", mul, t_gate, t_hup, t_g2);
      RUN(stream, "Mm", mm, t_g, t_wdown_t, t_o, 0);
      RUN(stream, "Add", add, t_x, t_o, s_one, t_r);
      RUN(stream, "InplaceMuls", inplace_muls, t_r, s_half);
      RUN(stream, "Arange", arange, s_start, s_stop, s_step, t_pos);
      RUN(stream, "Cos", cosine, t_pos, t_cos);
      RUN(stream, "Mul", mul, t_r, t_cos_col, t_s);
      RUN(stream, "Softmax", softmax, t_s, -1, t_p);
      RUN(stream, "ArgMax", arg_max, t_p, -1, false, t_arg);

      printf("%d launches of 13 operators:\n", g_ops_run);
      Download(got, &d_x);
      Compare("GatherV2 (embedding rows)", got, x, T * D, 0);
      Download(got, &d_y);
      Compare("RmsNorm", got, y, T * D, 1e-5f);
      Download(h16, &d_h16);
      for (i = 0; i < T * 2 * F; ++i) got[i] = aclFloat16ToFloat(h16[i]);
      Compare("Cast + Mm in f16 (transposed W)", got, h, T * 2 * F, 2e-3f);
      Download(got, &d_g);
      Download(got_g2, &d_g2);
      Compare("SwiGlu", got, g, T * F, 1e-5f);
      Compare("Silu + Mul (the same, by parts)", got_g2, g, T * F, 1e-5f);
      Download(got, &d_r);
      Compare("Mm + Add + InplaceMuls", got, r, T * D, 1e-4f);
      Download(got, &d_s);
      Compare("Arange + Cos + Mul (broadcast)", got, s, T * D, 1e-4f);
      Download(got, &d_p);
      Compare("Softmax", got, p, T * D, 1e-4f);
      Download(got_argmax, &d_arg);
      printf("  %-34s %lld %lld %lld %lld %s\n", "ArgMax", (long long)got_argmax[0],
             (long long)got_argmax[1], (long long)got_argmax[2], (long long)got_argmax[3],
             memcmp(got_argmax, argmax, sizeof(argmax)) == 0 ? "ok" : "BAD");
      if (memcmp(got_argmax, argmax, sizeof(argmax)) != 0) g_bad = 1;

      /* One executor, launched three times on other buffers: r *= 0.5 each time. */
      {
        uint64_t ws = 0;
        aclOpExecutor* ex = NULL;
        aclnnStatus (*muls)(const aclTensor*, const aclScalar*, aclTensor*, uint64_t*,
                            aclOpExecutor**);
        float want[T * D];
        int round;
        LOOKUP(g_opapi, muls, "aclnnMulsGetWorkspaceSize");
        CHECK(muls(t_r, s_half, t_o, &ws, &ex));
        CHECK(SetRepeatable(ex));
        Launch("Muls", ws, ex, stream); /* o = r * 0.5 */
        for (round = 0; round < 2; ++round) {
          /* in: o (then s), out: s (then o) */
          CHECK(SetInputAddr(ex, 0, t_r, round == 0 ? d_o.dev : d_s.dev));
          CHECK(SetOutputAddr(ex, 0, t_o, round == 0 ? d_s.dev : d_o.dev));
          Launch("Muls", ws, ex, stream);
        }
        CHECK(DestroyExecutor(ex));
        for (i = 0; i < T * D; ++i) want[i] = r[i] * 0.125f;
        Download(got, &d_o);
        Compare("repeatable Muls executor, 3 runs", got, want, T * D, 1e-6f);
      }

      /* Bad inputs: an ACLNN_ERR_* code and a message, nothing launched. */
      printf("bad inputs:\n");
      {
        uint64_t ws = 0;
        aclOpExecutor* ex = NULL;
        LOOKUP(g_opapi, mm, "aclnnMmGetWorkspaceSize");
        LOOKUP(g_opapi, add, "aclnnAddGetWorkspaceSize");
        LOOKUP(g_opapi, gather, "aclnnGatherV2GetWorkspaceSize");
        ExpectError("Mm of [T, D] by [F, D] (K differs)", mm(t_x, t_wdown_t, t_o, 0, &ws, &ex));
        ExpectError("Add of [T, D] and [T, F]", add(t_x, t_g, s_one, t_r, &ws, &ex));
        ExpectError("GatherV2 without an index", gather(t_emb, 0, NULL, t_x, &ws, &ex));
        LOOKUP(g_opapi, softmax, "aclnnSoftmaxGetWorkspaceSize");
        ExpectError("Softmax over dim 5 of a 2-D tensor", softmax(t_s, 5, t_p, &ws, &ex));
      }
    }

    {
      aclTensor* all[] = {t_emb,     t_ids,   t_gamma,   t_wgu, t_x,  t_y,   t_rstd,
                          t_y16,     t_wgu16, t_wgu16_t, t_h16, t_h,  t_g,   t_hgate,
                          t_gate,    t_g2,    t_wdown_t, t_o,   t_r,  t_pos, t_cos,
                          t_cos_col, t_s,     t_p,       t_arg, t_hup};
      Buffer* bufs[] = {&d_emb, &d_ids,   &d_gamma, &d_wgu, &d_wdown, &d_x,    &d_y,  &d_rstd,
                        &d_y16, &d_wgu16, &d_h16,   &d_h,   &d_g,     &d_gate, &d_g2, &d_o,
                        &d_r,   &d_pos,   &d_cos,   &d_s,   &d_p,     &d_arg};
      for (i = 0; i < (int)(sizeof(all) / sizeof(all[0])); ++i) CHECK(DestroyTensor(all[i]));
      for (i = 0; i < (int)(sizeof(bufs) / sizeof(bufs[0])); ++i) CHECK(aclrtFree(bufs[i]->dev));
      CHECK(DestroyScalar(s_one));
      CHECK(DestroyScalar(s_half));
      CHECK(DestroyScalar(s_start));
      CHECK(DestroyScalar(s_stop));
      CHECK(DestroyScalar(s_step));
    }
  }
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  dlclose(g_opapi);
  dlclose(g_nnopbase);
  printf(g_bad ? "FAILED\n" : "all results match the host reference\n");
  return g_bad;
}
