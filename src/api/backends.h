// The backends libascendcl.so knows, registered with the DriverRegistry before aclInit
// creates a runtime. Defined by the library's composition root (src/lib/backends.cc), the
// one place that knows every backend. Idempotent and thread-safe.
#pragma once

namespace aclsim::api {
void RegisterBuiltinBackends();
}  // namespace aclsim::api
