// HostClocks: the simulated clock of each host thread, per backend instance.
//
// Each backend instance is a clock domain with a process-unique id; a thread's clock in a
// domain starts at 0 the first time the thread touches that domain, so two backend
// instances never share clocks and a fresh backend starts every thread at 0. Clocks are
// thread-local: a thread reads and writes only its own.
//
// Thread-safety: every function may be called from any thread; each affects only the
// calling thread's clocks.
#pragma once

#include <cstdint>

namespace aclsim::sim {

class HostClocks {
 public:
  // A new, never reused domain id.
  static uint64_t NewDomain();
  // The calling thread's clock (ns) in `domain`.
  static uint64_t Now(uint64_t domain);
  // Adds `ns` and returns the new value.
  static uint64_t Advance(uint64_t domain, uint64_t ns);
  // Moves the clock forward to `ns` if it is behind (never backwards); returns the new value.
  static uint64_t AdvanceTo(uint64_t domain, uint64_t ns);
};

}  // namespace aclsim::sim
