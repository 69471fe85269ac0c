#include "sim/host_clock.h"

#include <algorithm>
#include <atomic>
#include <unordered_map>

namespace aclsim::sim {
namespace {

std::atomic<uint64_t> g_next_domain{1};

// Per thread, plain data (one TLS lookup, no initialisation guard):
//  * clocks_gone: set when this thread's clocks are destroyed (at thread exit). A program
//    that exits without aclFinalize releases the runtime from a static destructor, after the
//    main thread's thread-locals are gone: its clock calls then land in a sink instead of a
//    destroyed map.
//  * domain, clock: the clock this thread used last (a program uses one domain at a time), so
//    Advance on every task submission skips the map. Map nodes never move; domains are never
//    reused.
struct ThreadLast {
  bool clocks_gone;
  uint64_t domain;
  uint64_t* clock;
};
thread_local ThreadLast t_last;

struct ThreadClocks {
  std::unordered_map<uint64_t, uint64_t> clocks;  // one entry per domain the thread used
  ThreadClocks() = default;
  ThreadClocks(const ThreadClocks&) = delete;
  ThreadClocks& operator=(const ThreadClocks&) = delete;
  ~ThreadClocks() {
    t_last.clocks_gone = true;
    t_last.clock = nullptr;
  }
};

uint64_t& Clock(uint64_t domain) {
  ThreadLast& last = t_last;
  if (last.clock != nullptr && last.domain == domain) return *last.clock;
  if (last.clocks_gone) {
    thread_local uint64_t sink = 0;
    return sink;
  }
  thread_local ThreadClocks mine;
  uint64_t& clock = mine.clocks[domain];
  last.domain = domain;
  last.clock = &clock;
  return clock;
}

}  // namespace

uint64_t HostClocks::NewDomain() { return g_next_domain.fetch_add(1); }

uint64_t HostClocks::Now(uint64_t domain) { return Clock(domain); }

uint64_t HostClocks::Advance(uint64_t domain, uint64_t ns) { return Clock(domain) += ns; }

uint64_t HostClocks::AdvanceTo(uint64_t domain, uint64_t ns) {
  uint64_t& clock = Clock(domain);
  clock = std::max(clock, ns);
  return clock;
}

}  // namespace aclsim::sim
