/*
 * Two-stream pipeline on the simulated NPU, written against the public AscendCL API only
 * (C99). It builds unchanged against CANN:
 *
 *   gcc -std=c99 -I$ASCEND_HOME_PATH/include main.c -L$ASCEND_HOME_PATH/lib64 -lascendcl -lpthread
 *
 * Stream "copy" uploads a buffer; an event tells stream "work" when it is there; "work"
 * copies it device-to-device, clears a tail with a memset and downloads the result, then
 * reports through a callback handled by a report thread. Then a batched, double-buffered
 * pipeline: "copy" uploads batch b+1 while "work" computes batch b (an Add op) and downloads
 * it, so copies and compute overlap (run it under msprof to see it: docs/profiling.md).
 * Timing events around uploads of growing sizes print simulated milliseconds (identical on
 * every run and host). A few bad calls show the error codes and messages a program gets back.
 *
 * Exit status 0 when every byte checks out.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define CHECK(call)                                                                        \
  do {                                                                                     \
    aclError err_ = (call);                                                                \
    if (err_ != ACL_SUCCESS) {                                                             \
      fprintf(stderr, "%s:%d: %s failed: %d (%s)\n", __FILE__, __LINE__, #call, (int)err_, \
              aclGetRecentErrMsg() ? aclGetRecentErrMsg() : "");                           \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

#define EXPECT_ERROR(call)                                                   \
  do {                                                                       \
    aclError err_ = (call);                                                  \
    const char* msg_ = aclGetRecentErrMsg();                                 \
    printf("  %-58s -> %d: %s\n", #call, (int)err_, msg_ ? msg_ : "(none)"); \
    if (err_ == ACL_SUCCESS) {                                               \
      fprintf(stderr, "expected %s to fail\n", #call);                       \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

/* C99 has no atomics: the stop flag is guarded by a mutex. */
static pthread_mutex_t g_flag_mutex = PTHREAD_MUTEX_INITIALIZER;
static int g_stop_reporting = 0;
static int g_callbacks_run = 0;

static int StopRequested(void) {
  int stop;
  pthread_mutex_lock(&g_flag_mutex);
  stop = g_stop_reporting;
  pthread_mutex_unlock(&g_flag_mutex);
  return stop;
}

static void* ReportThread(void* arg) {
  aclrtContext context = (aclrtContext)arg;
  CHECK(aclrtSetCurrentContext(context));
  while (!StopRequested()) {
    aclrtProcessReport(10); /* returns ACL_ERROR_WAIT_CALLBACK_TIMEOUT when idle */
  }
  return NULL;
}

static void OnBatchDone(void* user_data) {
  int* batch = (int*)user_data;
  ++g_callbacks_run;
  printf("  callback: batch %d is on the host\n", *batch);
}

/* Batched pipeline with two buffers per direction: "copy" uploads batch b into slot b % 2
 * once "work" has consumed the batch that used the slot before; "work" waits for the upload,
 * computes y = x + x and downloads y. Returns 0 when every element checks out. */
enum {
  kBatches = 8,
  kBatchFloats = 262144
}; /* 1 MiB batches: the device, not the host, sets the pace */

static int BatchedPipeline(aclrtStream copy_stream, aclrtStream work_stream) {
  const size_t bytes = kBatchFloats * sizeof(float);
  const int64_t dims[1] = {kBatchFloats};
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  aclTensorDesc* in_desc[2];
  aclTensorDesc* out_desc[1];
  void* dev_in[2] = {NULL, NULL};
  void* dev_out[2] = {NULL, NULL};
  aclDataBuffer* in_buf[2][2];
  aclDataBuffer* out_buf[2][1];
  aclrtEvent uploaded[2], consumed[2], begin = NULL, end = NULL;
  float ms = 0.0f;
  float *host_in = NULL, *host_out = NULL;
  int b, slot, bad = 0;
  size_t i;

  CHECK(aclrtMallocHost((void**)&host_in, (size_t)kBatches * bytes));
  CHECK(aclrtMallocHost((void**)&host_out, (size_t)kBatches * bytes));
  in_desc[0] = in_desc[1] = out_desc[0] = desc;
  for (slot = 0; slot < 2; ++slot) {
    CHECK(aclrtMalloc(&dev_in[slot], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dev_out[slot], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    in_buf[slot][0] = in_buf[slot][1] = aclCreateDataBuffer(dev_in[slot], bytes);
    out_buf[slot][0] = aclCreateDataBuffer(dev_out[slot], bytes);
    CHECK(aclrtCreateEvent(&uploaded[slot]));
    CHECK(aclrtCreateEvent(&consumed[slot]));
  }
  CHECK(aclrtCreateEvent(&begin));
  CHECK(aclrtCreateEvent(&end));
  for (i = 0; i < (size_t)kBatches * kBatchFloats; ++i) host_in[i] = (float)(i % 1000) * 0.5f;

  CHECK(aclrtRecordEvent(begin, copy_stream));
  for (b = 0; b < kBatches; ++b) {
    slot = b % 2;
    /* The slot's previous batch must have been read by the Add before it is overwritten. */
    if (b >= 2) CHECK(aclrtStreamWaitEvent(copy_stream, consumed[slot]));
    CHECK(aclrtMemcpyAsync(dev_in[slot], bytes, host_in + (size_t)b * kBatchFloats, bytes,
                           ACL_MEMCPY_HOST_TO_DEVICE, copy_stream));
    CHECK(aclrtRecordEvent(uploaded[slot], copy_stream));
    CHECK(aclrtStreamWaitEvent(work_stream, uploaded[slot]));
    CHECK(aclopExecuteV2("Add", 2, in_desc, in_buf[slot], 1, out_desc, out_buf[slot], NULL,
                         work_stream));
    CHECK(aclrtRecordEvent(consumed[slot], work_stream));
    CHECK(aclrtMemcpyAsync(host_out + (size_t)b * kBatchFloats, bytes, dev_out[slot], bytes,
                           ACL_MEMCPY_DEVICE_TO_HOST, work_stream));
  }
  CHECK(aclrtRecordEvent(end, work_stream));
  CHECK(aclrtSynchronizeStream(work_stream));
  CHECK(aclrtEventElapsedTime(&ms, begin, end));
  for (i = 0; i < (size_t)kBatches * kBatchFloats; ++i) {
    if (host_out[i] != host_in[i] * 2.0f) {
      fprintf(stderr, "batched pipeline: element %zu: got %g, want %g\n", i, host_out[i],
              host_in[i] * 2.0f);
      bad = 1;
      break;
    }
  }
  if (!bad) {
    printf("batched pipeline: %d batches of %zu bytes verified, %.4f ms simulated\n", kBatches,
           bytes, ms);
  }
  for (slot = 0; slot < 2; ++slot) {
    aclDestroyDataBuffer(in_buf[slot][0]);
    aclDestroyDataBuffer(out_buf[slot][0]);
    CHECK(aclrtFree(dev_in[slot]));
    CHECK(aclrtFree(dev_out[slot]));
    CHECK(aclrtDestroyEvent(uploaded[slot]));
    CHECK(aclrtDestroyEvent(consumed[slot]));
  }
  CHECK(aclrtDestroyEvent(begin));
  CHECK(aclrtDestroyEvent(end));
  CHECK(aclrtFreeHost(host_in));
  CHECK(aclrtFreeHost(host_out));
  aclDestroyTensorDesc(desc);
  return bad;
}

int main(void) {
  const size_t kBytes = 4u << 20; /* 4 MiB */
  const size_t kTail = 4096;
  int32_t device = 0;
  aclrtContext context = NULL;
  aclrtStream copy_stream = NULL, work_stream = NULL;
  aclrtEvent uploaded = NULL;
  void *host_in = NULL, *host_out = NULL, *dev_a = NULL, *dev_b = NULL;
  pthread_t reporter;
  int batch = 1;
  size_t i, free_bytes = 0, total_bytes = 0;
  unsigned char* in;
  unsigned char* out;

  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(device));
  CHECK(aclrtCreateContext(&context, device));
  CHECK(aclrtCreateStream(&copy_stream));
  CHECK(aclrtCreateStream(&work_stream));
  CHECK(aclrtCreateEvent(&uploaded));
  printf("SoC %s\n", aclrtGetSocName());

  CHECK(aclrtMallocHost(&host_in, kBytes));
  CHECK(aclrtMallocHost(&host_out, kBytes));
  CHECK(aclrtMalloc(&dev_a, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dev_b, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  in = (unsigned char*)host_in;
  out = (unsigned char*)host_out;
  for (i = 0; i < kBytes; ++i) in[i] = (unsigned char)(i * 7 + 3);
  memset(host_out, 0xEE, kBytes);

  CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total_bytes));
  printf("HBM: %zu MiB free of %zu MiB\n", free_bytes >> 20, total_bytes >> 20);

  /* Callbacks of the work stream are delivered to the report thread. */
  pthread_create(&reporter, NULL, ReportThread, context);
  CHECK(aclrtSubscribeReport((uint64_t)reporter, work_stream));

  /* copy stream: upload, then mark it done. */
  CHECK(aclrtMemcpyAsync(dev_a, kBytes, host_in, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, copy_stream));
  CHECK(aclrtRecordEvent(uploaded, copy_stream));
  /* work stream: wait for the upload, copy, clear the tail, download, report. */
  CHECK(aclrtStreamWaitEvent(work_stream, uploaded));
  CHECK(aclrtMemcpyAsync(dev_b, kBytes, dev_a, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, work_stream));
  CHECK(aclrtMemsetAsync((char*)dev_b + kBytes - kTail, kTail, 0, kTail, work_stream));
  CHECK(aclrtMemcpyAsync(host_out, kBytes, dev_b, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, work_stream));
  CHECK(aclrtLaunchCallback(OnBatchDone, &batch, ACL_CALLBACK_BLOCK, work_stream));
  CHECK(aclrtSynchronizeStream(work_stream));

  for (i = 0; i < kBytes; ++i) {
    unsigned char want = i >= kBytes - kTail ? 0 : in[i];
    if (out[i] != want) {
      fprintf(stderr, "byte %zu: got %u, want %u\n", i, out[i], want);
      return 1;
    }
  }
  printf("pipeline: %zu bytes verified, %d callback(s)\n", kBytes, g_callbacks_run);
  if (BatchedPipeline(copy_stream, work_stream) != 0) return 1;

  /* Simulated time of uploads of growing size. */
  {
    aclrtEvent start = NULL, stop = NULL;
    size_t size;
    CHECK(aclrtCreateEvent(&start));
    CHECK(aclrtCreateEvent(&stop));
    for (size = 64u << 10; size <= kBytes; size *= 4) {
      float ms = 0.0f;
      CHECK(aclrtRecordEvent(start, copy_stream));
      CHECK(aclrtMemcpyAsync(dev_a, kBytes, host_in, size, ACL_MEMCPY_HOST_TO_DEVICE, copy_stream));
      CHECK(aclrtRecordEvent(stop, copy_stream));
      CHECK(aclrtSynchronizeEvent(stop));
      CHECK(aclrtEventElapsedTime(&ms, start, stop));
      printf("  H2D %8zu bytes: %.4f ms simulated\n", size, ms);
    }
    CHECK(aclrtDestroyEvent(start));
    CHECK(aclrtDestroyEvent(stop));
  }

  printf("bad inputs are refused:\n");
  EXPECT_ERROR(aclrtMemcpy(dev_a, 16, host_in, 32, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ERROR(aclrtMemcpy((char*)dev_a + kBytes - 8, 64, host_in, 64, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ERROR(aclrtMemcpy(dev_a, kBytes, host_in, 64, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_ERROR(aclrtSetDevice(1000));
  EXPECT_ERROR(aclrtCreateStream(NULL));
  EXPECT_ERROR(aclrtRecordEvent(uploaded, (aclrtStream)uploaded));

  pthread_mutex_lock(&g_flag_mutex);
  g_stop_reporting = 1;
  pthread_mutex_unlock(&g_flag_mutex);
  pthread_join(reporter, NULL);
  CHECK(aclrtUnSubscribeReport((uint64_t)reporter, work_stream));
  CHECK(aclrtFree(dev_a));
  CHECK(aclrtFree(dev_b));
  EXPECT_ERROR(aclrtFree(dev_b));
  CHECK(aclrtFreeHost(host_in));
  CHECK(aclrtFreeHost(host_out));
  CHECK(aclrtDestroyEvent(uploaded));
  CHECK(aclrtDestroyStream(copy_stream));
  CHECK(aclrtDestroyStream(work_stream));
  CHECK(aclrtDestroyContext(context));
  CHECK(aclrtResetDevice(device));
  CHECK(aclFinalize());
  printf("two_stream_pipeline: OK\n");
  return 0;
}
