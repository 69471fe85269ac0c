// ACL called from a static object's destructor at exit, the way C++ programs wrap a session
// (aclInit ... aclFinalize) in a singleton: by then the main thread's thread_local objects are
// destroyed, and the runtime must not trip over what they held. Exits 0 and prints
// "finalized at exit" when every call succeeded; the sanitizer builds check the memory.
#include <cstdio>
#include <cstdlib>

#include "acl/acl.h"

namespace {

void Expect(aclError err, const char* what) {
  if (err == ACL_SUCCESS) return;
  std::fprintf(stderr, "%s failed: %d %s\n", what, err, aclGetRecentErrMsg());
  std::_Exit(1);
}

struct Session {
  aclrtStream stream = nullptr;
  void* small = nullptr;  // served by aclrtMalloc's fast path
  void* large = nullptr;
  ~Session() {
    Expect(aclrtFree(small), "aclrtFree (small)");
    Expect(aclrtFree(large), "aclrtFree (large)");
    Expect(aclrtDestroyStream(stream), "aclrtDestroyStream");
    Expect(aclrtResetDevice(0), "aclrtResetDevice");
    Expect(aclFinalize(), "aclFinalize");
    std::puts("finalized at exit");
  }
};

Session& TheSession() {
  static Session session;  // destroyed at exit, after main's thread_locals
  return session;
}

}  // namespace

int main() {
  Session& session = TheSession();
  Expect(aclInit(nullptr), "aclInit");
  Expect(aclrtSetDevice(0), "aclrtSetDevice");
  Expect(aclrtCreateStream(&session.stream), "aclrtCreateStream");
  Expect(aclrtMalloc(&session.small, 4096, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
  Expect(aclrtMalloc(&session.large, size_t{8} << 20, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
  Expect(aclrtMemsetAsync(session.large, size_t{8} << 20, 0, size_t{8} << 20, session.stream),
         "aclrtMemsetAsync");
  Expect(aclrtSynchronizeStream(session.stream), "aclrtSynchronizeStream");
  return 0;
}
