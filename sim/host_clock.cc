#include "sim/host_clock.h"

#include <algorithm>
#include <atomic>
#include <unordered_map>

namespace aclsim::sim {
namespace {

std::atomic<uint64_t> g_next_domain{1};

// One entry per domain the thread has used (a few words each; domains are backends).
uint64_t& Clock(uint64_t domain) {
  thread_local std::unordered_map<uint64_t, uint64_t> clocks;
  return clocks[domain];
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
