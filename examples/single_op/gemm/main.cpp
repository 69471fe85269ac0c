// Single-op example: aclblasGemmEx in fp16 with single-op models from `atc --singleop`.
//
// As CANN's "gemm" sample: the GEMM op is compiled offline,
//
//   atc --singleop=gemm.json --output=op_models --soc_version=Ascend910B2
//
// the program points aclopSetModelDir at the models, and aclblasGemmEx (C = alpha*A*B +
// beta*C, row-major, alpha and beta in device memory, lda/ldb/ldc = -1) runs the loaded GEMM.
// The result is checked against a host GEMM in fp32 on the fp16 inputs.
//
//   single_op_gemm [MODEL_DIR]        (default: op_models)
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"

#define CHECK(call)                                                                      \
  do {                                                                                   \
    aclError err_ = (call);                                                              \
    if (err_ != ACL_SUCCESS) {                                                           \
      const char* msg_ = aclGetRecentErrMsg();                                           \
      std::fprintf(stderr, "%s failed: %d (%s)\n", #call, err_, msg_ ? msg_ : "no msg"); \
      return 1;                                                                          \
    }                                                                                    \
  } while (0)

namespace {

constexpr int kM = 64, kK = 32, kN = 48;  // must match gemm.json

void* ToDevice(const void* host, size_t bytes) {
  void* dev = nullptr;
  if (aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return nullptr;
  if (aclrtMemcpy(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
    return nullptr;
  }
  return dev;
}

}  // namespace

int main(int argc, char** argv) {
  const char* model_dir = argc > 1 ? argv[1] : "op_models";
  CHECK(aclInit(nullptr));
  CHECK(aclopSetModelDir(model_dir));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));

  std::vector<aclFloat16> a(kM * kK), b(kK * kN), c(kM * kN);
  for (size_t i = 0; i < a.size(); ++i) a[i] = aclFloatToFloat16(float(int(i % 9) - 4) / 4.0f);
  for (size_t i = 0; i < b.size(); ++i) b[i] = aclFloatToFloat16(float(int(i % 7) - 3) / 2.0f);
  for (size_t i = 0; i < c.size(); ++i) c[i] = aclFloatToFloat16(float(i % 5));
  const aclFloat16 alpha = aclFloatToFloat16(1.5f);
  const aclFloat16 beta = aclFloatToFloat16(-0.5f);

  void* dev_a = ToDevice(a.data(), a.size() * sizeof(aclFloat16));
  void* dev_b = ToDevice(b.data(), b.size() * sizeof(aclFloat16));
  void* dev_c = ToDevice(c.data(), c.size() * sizeof(aclFloat16));
  void* dev_alpha = ToDevice(&alpha, sizeof(alpha));
  void* dev_beta = ToDevice(&beta, sizeof(beta));
  if (!dev_a || !dev_b || !dev_c || !dev_alpha || !dev_beta) {
    std::fprintf(stderr, "device memory: %s\n", aclGetRecentErrMsg());
    return 1;
  }

  aclrtEvent start = nullptr;
  aclrtEvent end = nullptr;
  CHECK(aclrtCreateEvent(&start));
  CHECK(aclrtCreateEvent(&end));
  CHECK(aclrtRecordEvent(start, stream));
  CHECK(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, kM, kN, kK, dev_alpha, dev_a, -1,
                      ACL_FLOAT16, dev_b, -1, ACL_FLOAT16, dev_beta, dev_c, -1, ACL_FLOAT16,
                      ACL_COMPUTE_HIGH_PRECISION, stream));
  CHECK(aclrtRecordEvent(end, stream));
  CHECK(aclrtSynchronizeStream(stream));
  float ms = 0;
  CHECK(aclrtEventElapsedTime(&ms, start, end));

  std::vector<aclFloat16> result(c.size());
  CHECK(aclrtMemcpy(result.data(), result.size() * sizeof(aclFloat16), dev_c,
                    result.size() * sizeof(aclFloat16), ACL_MEMCPY_DEVICE_TO_HOST));
  double max_rel = 0;
  for (int i = 0; i < kM; ++i) {
    for (int j = 0; j < kN; ++j) {
      float acc = 0;
      for (int k = 0; k < kK; ++k) {
        acc += aclFloat16ToFloat(a[i * kK + k]) * aclFloat16ToFloat(b[k * kN + j]);
      }
      const float want = 1.5f * acc - 0.5f * aclFloat16ToFloat(c[i * kN + j]);
      const float got = aclFloat16ToFloat(result[i * kN + j]);
      max_rel = std::fmax(max_rel, std::fabs(got - want) / (std::fabs(want) + 1.0f));
    }
  }
  // With the model loaded there is no online compile: the op starts right after the event.
  std::printf(
      "aclblasGemmEx fp16 [%d x %d] x [%d x %d]: max relative error %.2e, simulated "
      "%.3f us (start event to end event)\n",
      kM, kK, kK, kN, max_rel, ms * 1000.0f);

  for (void* p : {dev_a, dev_b, dev_c, dev_alpha, dev_beta}) CHECK(aclrtFree(p));
  CHECK(aclrtDestroyEvent(start));
  CHECK(aclrtDestroyEvent(end));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  if (max_rel > 2e-3) return 1;
  std::printf("single_op gemm: PASSED\n");
  return 0;
}
