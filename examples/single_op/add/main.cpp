// Single-op example: int32 Add, compiled online and run with aclopExecuteV2.
//
// The shape of CANN's "acl_execute_add" sample: describe the op (type, tensor descriptors,
// attributes), put the inputs in device memory, run it on a stream, read the result back
// and check it against a host computation. Also prints the op's simulated time, measured
// with events.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"

#define CHECK(call)                                                                      \
  do {                                                                                   \
    aclError err_ = (call);                                                              \
    if (err_ != ACL_SUCCESS) {                                                           \
      const char* msg_ = aclGetRecentErrMsg();                                           \
      std::fprintf(stderr, "%s failed: %d (%s)\n", #call, err_, msg_ ? msg_ : "no msg"); \
      return 1;                                                                          \
    }                                                                                    \
  } while (0)

int main() {
  constexpr int64_t kRows = 8;
  constexpr int64_t kCols = 16;
  constexpr size_t kCount = kRows * kCols;
  constexpr size_t kBytes = kCount * sizeof(int32_t);

  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));

  // Inputs: x1 [8, 16] and x2 [16] (broadcast along the rows).
  std::vector<int32_t> x1(kCount), x2(kCols), y(kCount);
  for (size_t i = 0; i < kCount; ++i) x1[i] = static_cast<int32_t>(i);
  for (int64_t j = 0; j < kCols; ++j) x2[j] = static_cast<int32_t>(1000 * j);

  void* dev_x1 = nullptr;
  void* dev_x2 = nullptr;
  void* dev_y = nullptr;
  CHECK(aclrtMalloc(&dev_x1, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dev_x2, kCols * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dev_y, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(dev_x1, kBytes, x1.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(dev_x2, kCols * sizeof(int32_t), x2.data(), kCols * sizeof(int32_t),
                    ACL_MEMCPY_HOST_TO_DEVICE));

  const int64_t shape_x1[] = {kRows, kCols};
  const int64_t shape_x2[] = {kCols};
  aclTensorDesc* input_desc[] = {aclCreateTensorDesc(ACL_INT32, 2, shape_x1, ACL_FORMAT_ND),
                                 aclCreateTensorDesc(ACL_INT32, 1, shape_x2, ACL_FORMAT_ND)};
  aclTensorDesc* output_desc[] = {aclCreateTensorDesc(ACL_INT32, 2, shape_x1, ACL_FORMAT_ND)};
  aclDataBuffer* inputs[] = {aclCreateDataBuffer(dev_x1, kBytes),
                             aclCreateDataBuffer(dev_x2, kCols * sizeof(int32_t))};
  aclDataBuffer* outputs[] = {aclCreateDataBuffer(dev_y, kBytes)};

  aclrtEvent start = nullptr;
  aclrtEvent end = nullptr;
  CHECK(aclrtCreateEvent(&start));
  CHECK(aclrtCreateEvent(&end));
  // The first execution compiles the op online (and caches it); time the second.
  CHECK(aclopExecuteV2("Add", 2, input_desc, inputs, 1, output_desc, outputs, nullptr, stream));
  CHECK(aclrtRecordEvent(start, stream));
  CHECK(aclopExecuteV2("Add", 2, input_desc, inputs, 1, output_desc, outputs, nullptr, stream));
  CHECK(aclrtRecordEvent(end, stream));
  CHECK(aclrtSynchronizeStream(stream));
  float ms = 0;
  CHECK(aclrtEventElapsedTime(&ms, start, end));

  CHECK(aclrtMemcpy(y.data(), kBytes, dev_y, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  size_t wrong = 0;
  for (int64_t i = 0; i < kRows; ++i) {
    for (int64_t j = 0; j < kCols; ++j) {
      if (y[i * kCols + j] != x1[i * kCols + j] + x2[j]) ++wrong;
    }
  }
  std::printf("Add int32 [%lld, %lld] + [%lld]: %zu of %zu elements wrong; simulated %.3f us\n",
              static_cast<long long>(kRows), static_cast<long long>(kCols),
              static_cast<long long>(kCols), wrong, kCount, ms * 1000.0f);

  for (auto* d : input_desc) aclDestroyTensorDesc(d);
  aclDestroyTensorDesc(output_desc[0]);
  for (auto* b : inputs) CHECK(aclDestroyDataBuffer(b));
  CHECK(aclDestroyDataBuffer(outputs[0]));
  CHECK(aclrtDestroyEvent(start));
  CHECK(aclrtDestroyEvent(end));
  CHECK(aclrtFree(dev_x1));
  CHECK(aclrtFree(dev_x2));
  CHECK(aclrtFree(dev_y));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  if (wrong != 0) return 1;
  std::printf("single_op add: PASSED\n");
  return 0;
}
