/*
 * Issue 2's acceptance program: C99, public AscendCL API only. It builds as
 *
 *   gcc -std=c99 -I<prefix>/include acceptance.c -L<prefix>/lib64 -lascendcl -lpthread
 *
 * and exercises: init, device, context, two streams, an async host-to-device copy on one,
 * an event waited on by the other, device-to-device and device-to-host copies there, a
 * memset, timing events around copies of different sizes, callbacks through a report
 * thread, aclrtGetMemInfo, and a handful of bad inputs. It verifies every byte, checks that
 * the simulated times grow with the bytes copied, and prints them ("TIME ..." lines; the
 * output holds no addresses, so two runs print identical text).
 *
 * Exit status: 0 when everything checks out, 1 otherwise.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

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

/* A bad call must fail with `want` and leave a message naming `function`. */
static void ExpectError(const char* text, aclError got, aclError want, const char* function) {
  const char* msg = aclGetRecentErrMsg();
  if (got != want) {
    fprintf(stderr, "%s: got %d, want %d\n", text, (int)got, (int)want);
    ++g_failures;
  } else if (msg == NULL || strstr(msg, function) == NULL) {
    fprintf(stderr, "%s: message does not name %s: %s\n", text, function,
            msg != NULL ? msg : "(none)");
    ++g_failures;
  }
  printf("BAD %-40s -> %d\n", function, (int)got);
}
#define EXPECT_ERROR(want, function, args)                                    \
  do {                                                                        \
    (void)aclGetRecentErrMsg(); /* start with no pending message */           \
    ExpectError(#function #args, function args, (aclError)(want), #function); \
  } while (0)

/* ---- the report thread ----------------------------------------------------------------- */

static pthread_mutex_t g_mutex = PTHREAD_MUTEX_INITIALIZER;
static int g_stop_reporting = 0;
static int g_callbacks = 0;
static pthread_t g_reporter;

static int StopRequested(void) {
  int stop;
  pthread_mutex_lock(&g_mutex);
  stop = g_stop_reporting;
  pthread_mutex_unlock(&g_mutex);
  return stop;
}

static void* ReportLoop(void* arg) {
  (void)arg;
  while (!StopRequested()) {
    (void)aclrtProcessReport(10); /* ACL_ERROR_WAIT_CALLBACK_TIMEOUT when idle */
  }
  return NULL;
}

static void OnCopied(void* user_data) {
  int on_reporter = pthread_equal(pthread_self(), g_reporter);
  pthread_mutex_lock(&g_mutex);
  g_callbacks += on_reporter ? *(int*)user_data : 1000;
  pthread_mutex_unlock(&g_mutex);
}

/* ---- helpers ------------------------------------------------------------------------- */

static unsigned char PatternByte(size_t i, unsigned seed) {
  return (unsigned char)((i * 2654435761u + seed * 40503u + 17u) >> 13);
}

static int Verify(const unsigned char* got, size_t bytes, unsigned seed, size_t zero_from) {
  size_t i;
  for (i = 0; i < bytes; ++i) {
    unsigned char want = i >= zero_from ? 0 : PatternByte(i, seed);
    if (got[i] != want) {
      fprintf(stderr, "byte %lu: got %u, want %u\n", (unsigned long)i, got[i], want);
      return 0;
    }
  }
  return 1;
}

/* Simulated ms of one copy of `bytes` on `stream`, between two events. */
static float TimeCopy(aclrtStream stream, void* dst, const void* src, size_t bytes,
                      aclrtMemcpyKind kind) {
  aclrtEvent start = NULL, stop = NULL;
  float ms = 0.0f;
  CHECK(aclrtCreateEvent(&start));
  CHECK(aclrtCreateEvent(&stop));
  CHECK(aclrtRecordEvent(start, stream));
  CHECK(aclrtMemcpyAsync(dst, bytes, src, bytes, kind, stream));
  CHECK(aclrtRecordEvent(stop, stream));
  CHECK(aclrtSynchronizeEvent(stop));
  CHECK(aclrtEventElapsedTime(&ms, start, stop));
  CHECK(aclrtDestroyEvent(start));
  CHECK(aclrtDestroyEvent(stop));
  return ms;
}

int main(void) {
  const size_t kBytes = 16u << 20;
  const size_t kTail = 4096;
  const int32_t device = 0;
  const unsigned seed = 7;
  aclrtContext context = NULL;
  aclrtStream upload = NULL, work = NULL;
  aclrtEvent uploaded = NULL, destroyed_event = NULL;
  void *host_in = NULL, *host_out = NULL, *dev_a = NULL, *dev_b = NULL;
  size_t i, size, free_before = 0, free_after = 0, total = 0;
  int batch = 1;
  const char* kinds[3] = {"h2d", "d2d", "d2h"};
  int k;

  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(device));
  CHECK(aclrtCreateContext(&context, device));
  CHECK(aclrtCreateStream(&upload));
  CHECK(aclrtCreateStream(&work));
  CHECK(aclrtCreateEvent(&uploaded));
  printf("SoC %s\n", aclrtGetSocName());

  CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total));
  CHECK(aclrtMallocHost(&host_in, kBytes));
  CHECK(aclrtMallocHost(&host_out, kBytes));
  CHECK(aclrtMalloc(&dev_a, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dev_b, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total));
  printf("HBM total %lu MiB, used by this program %lu MiB\n", (unsigned long)(total >> 20),
         (unsigned long)((free_before - free_after) >> 20));
  if (free_before - free_after < 2 * kBytes) {
    fprintf(stderr, "aclrtGetMemInfo did not see the allocations\n");
    ++g_failures;
  }
  for (i = 0; i < kBytes; ++i) ((unsigned char*)host_in)[i] = PatternByte(i, seed);
  memset(host_out, 0xEE, kBytes);

  /* Callbacks of the work stream go to the report thread. */
  if (pthread_create(&g_reporter, NULL, ReportLoop, NULL) != 0) return 1;
  CHECK(aclrtSubscribeReport((uint64_t)g_reporter, work));

  /* upload stream: host -> device, then the event. */
  CHECK(aclrtMemcpyAsync(dev_a, kBytes, host_in, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, upload));
  CHECK(aclrtRecordEvent(uploaded, upload));
  /* work stream: wait, device -> device, memset of the tail, device -> host, callback. */
  CHECK(aclrtStreamWaitEvent(work, uploaded));
  CHECK(aclrtMemcpyAsync(dev_b, kBytes, dev_a, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, work));
  CHECK(aclrtMemsetAsync((char*)dev_b + kBytes - kTail, kTail, 0, kTail, work));
  CHECK(aclrtMemcpyAsync(host_out, kBytes, dev_b, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, work));
  CHECK(aclrtLaunchCallback(OnCopied, &batch, ACL_CALLBACK_BLOCK, work));
  CHECK(aclrtSynchronizeStream(work));
  if (!Verify((const unsigned char*)host_out, kBytes, seed, kBytes - kTail)) ++g_failures;
  pthread_mutex_lock(&g_mutex);
  if (g_callbacks != 1) {
    fprintf(stderr, "callbacks: got %d, want 1 (on the report thread)\n", g_callbacks);
    ++g_failures;
  }
  pthread_mutex_unlock(&g_mutex);
  printf("pipeline: %lu bytes verified\n", (unsigned long)kBytes);

  /* Simulated times of copies of growing size, per kind. */
  for (k = 0; k < 3; ++k) {
    float previous = 0.0f;
    for (size = 64u << 10; size <= kBytes; size *= 4) {
      float ms;
      if (k == 0) {
        ms = TimeCopy(upload, dev_a, host_in, size, ACL_MEMCPY_HOST_TO_DEVICE);
      } else if (k == 1) {
        ms = TimeCopy(upload, dev_b, dev_a, size, ACL_MEMCPY_DEVICE_TO_DEVICE);
      } else {
        ms = TimeCopy(upload, host_out, dev_b, size, ACL_MEMCPY_DEVICE_TO_HOST);
      }
      printf("TIME %s %9lu bytes %.6f ms\n", kinds[k], (unsigned long)size, ms);
      if (!(ms > previous)) {
        fprintf(stderr, "%s: %lu bytes took %.6f ms, not more than the smaller copy\n", kinds[k],
                (unsigned long)size, ms);
        ++g_failures;
      }
      previous = ms;
    }
  }
  /* The timed copies moved the whole pattern through both buffers (no memset this time). */
  if (!Verify((const unsigned char*)host_out, kBytes, seed, kBytes)) ++g_failures;

  /* Bad inputs: documented codes and a message naming the function. */
  CHECK(aclrtCreateEvent(&destroyed_event));
  CHECK(aclrtDestroyEvent(destroyed_event));
  EXPECT_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy,
               (dev_a, 16, host_in, 32, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy,
               ((char*)dev_a + kBytes - 8, 64, host_in, 64, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy,
               (dev_a, kBytes, host_in, 64, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice, (1000));
  EXPECT_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCreateStream, (NULL));
  EXPECT_ERROR(ACL_ERROR_RT_INVALID_HANDLE, aclrtRecordEvent, (destroyed_event, work));
  EXPECT_ERROR(ACL_ERROR_RT_INVALID_HANDLE, aclrtRecordEvent, (uploaded, (aclrtStream)uploaded));
  EXPECT_ERROR(ACL_ERROR_RT_INVALID_HANDLE, aclrtSynchronizeStream, ((aclrtStream)context));
  EXPECT_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMalloc, (&dev_a, 0, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ERROR(ACL_ERROR_STREAM_NOT_SUBSCRIBE, aclrtLaunchCallback,
               (OnCopied, &batch, ACL_CALLBACK_BLOCK, upload));

  /* Teardown. */
  pthread_mutex_lock(&g_mutex);
  g_stop_reporting = 1;
  pthread_mutex_unlock(&g_mutex);
  pthread_join(g_reporter, NULL);
  CHECK(aclrtUnSubscribeReport((uint64_t)g_reporter, work));
  CHECK(aclrtFree(dev_a));
  CHECK(aclrtFree(dev_b));
  EXPECT_ERROR(ACL_ERROR_RT_MEMORY_FREE, aclrtFree, (dev_b));
  CHECK(aclrtFreeHost(host_in));
  CHECK(aclrtFreeHost(host_out));
  CHECK(aclrtDestroyEvent(uploaded));
  CHECK(aclrtDestroyStream(upload));
  CHECK(aclrtDestroyStream(work));
  CHECK(aclrtDestroyContext(context));
  CHECK(aclrtResetDevice(device));
  CHECK(aclFinalize());

  if (g_failures != 0) {
    printf("acceptance: %d FAILURE(S)\n", g_failures);
    return 1;
  }
  printf("acceptance: OK\n");
  return 0;
}
