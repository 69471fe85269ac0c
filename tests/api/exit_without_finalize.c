/*
 * A program that forgets aclrtResetDevice and aclFinalize: the runtime is released by the
 * library at process exit, after this thread's thread-locals are gone, and the process must
 * still exit cleanly (regression: it crashed in the simulator's host clock). Work is left in
 * flight on a stream on purpose.
 */
#include <stdio.h>

#include "acl/acl.h"

int main(void) {
  void* dev = NULL;
  aclrtStream stream = NULL;
  if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
      aclrtCreateStream(&stream) != ACL_SUCCESS ||
      aclrtMalloc(&dev, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    fprintf(stderr, "setup failed: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  for (int i = 0; i < 16; ++i) {
    if (aclrtMemsetAsync(dev, 1 << 20, i, 1 << 20, stream) != ACL_SUCCESS) return 1;
  }
  printf("exiting without aclFinalize\n");
  return 0;
}
