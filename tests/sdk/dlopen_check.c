/*
 * Loads each library named on the command line with dlopen (as Python ctypes, plugin loaders
 * and frameworks that look CANN's symbols up at run time do), finds the ACL functions with
 * dlsym and runs aclInit, a host -> device -> host copy and aclFinalize through them.
 * Nothing here is linked against libascendcl.
 *
 *   dlopen_check /path/libascendcl.so /path/libacl_op_compiler.so ...
 *
 * Exit status 0 when every library loads and every byte comes back.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"

typedef aclError (*InitFn)(const char*);
typedef aclError (*VoidFn)(void);
typedef aclError (*DeviceFn)(int32_t);
typedef aclError (*MallocFn)(void**, size_t, aclrtMemMallocPolicy);
typedef aclError (*FreeFn)(void*);
typedef aclError (*MemcpyFn)(void*, size_t, const void*, size_t, aclrtMemcpyKind);

static void* Find(void* lib, const char* name) {
  void* symbol = dlsym(lib, name);
  if (symbol == NULL) fprintf(stderr, "dlsym(%s): %s\n", name, dlerror());
  return symbol;
}

static int CheckLibrary(const char* path) {
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    fprintf(stderr, "dlopen(%s): %s\n", path, dlerror());
    return 1;
  }
  InitFn init = (InitFn)Find(lib, "aclInit");
  VoidFn finalize = (VoidFn)Find(lib, "aclFinalize");
  DeviceFn set_device = (DeviceFn)Find(lib, "aclrtSetDevice");
  DeviceFn reset_device = (DeviceFn)Find(lib, "aclrtResetDevice");
  MallocFn malloc_fn = (MallocFn)Find(lib, "aclrtMalloc");
  FreeFn free_fn = (FreeFn)Find(lib, "aclrtFree");
  MemcpyFn memcpy_fn = (MemcpyFn)Find(lib, "aclrtMemcpy");
  if (!init || !finalize || !set_device || !reset_device || !malloc_fn || !free_fn || !memcpy_fn) {
    return 1;
  }
  unsigned char in[4096];
  unsigned char out[4096];
  for (size_t i = 0; i < sizeof(in); ++i) in[i] = (unsigned char)(i * 7 + 3);
  memset(out, 0, sizeof(out));
  void* dev = NULL;
  int failed =
      init(NULL) != ACL_SUCCESS || set_device(0) != ACL_SUCCESS ||
      malloc_fn(&dev, sizeof(in), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      memcpy_fn(dev, sizeof(in), in, sizeof(in), ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS ||
      memcpy_fn(out, sizeof(out), dev, sizeof(in), ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS ||
      memcmp(in, out, sizeof(in)) != 0 || free_fn(dev) != ACL_SUCCESS ||
      reset_device(0) != ACL_SUCCESS || finalize() != ACL_SUCCESS;
  if (failed) {
    fprintf(stderr, "%s: the init, copy and finalize through dlsym failed\n", path);
    return 1;
  }
  dlclose(lib);
  printf("dlopen %s: init, copy, finalize ok\n", path);
  return 0;
}

int main(int argc, char** argv) {
  int failures = 0;
  for (int i = 1; i < argc; ++i) failures += CheckLibrary(argv[i]);
  return failures == 0 && argc > 1 ? 0 : 1;
}
