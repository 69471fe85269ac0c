#include "sim/tlb_model.h"

#include <algorithm>

namespace aclsim::sim {
namespace {

uint64_t Entries(driver::PageSize page, const CostParams& c) {
  switch (page) {
    case driver::PageSize::k4K:
      return c.tlb_entries_4k;
    case driver::PageSize::k2M:
      return c.tlb_entries_2m;
    case driver::PageSize::k1G:
      return c.tlb_entries_1g;
  }
  return 0;
}

uint64_t CeilDiv(uint64_t a, uint64_t b) { return b == 0 ? 0 : a / b + (a % b != 0 ? 1 : 0); }

}  // namespace

TlbCounts StreamingTlb(const std::vector<BufferPages>& buffers, uint64_t traffic_bytes,
                       const CostParams& cost) {
  TlbCounts counts;
  unsigned __int128 footprint = 0;
  for (const auto& b : buffers) footprint += b.bytes;
  if (footprint == 0 || traffic_bytes == 0) return counts;
  for (const auto& b : buffers) {
    if (b.bytes == 0) continue;
    const auto index = static_cast<size_t>(b.page);
    const uint64_t span = std::min<uint64_t>(driver::PageBytes(b.page), cost.tlb_entry_span_bytes);
    const uint64_t reach = Entries(b.page, cost) * span;
    // This buffer's share of the traffic (at least one pass over it).
    const auto share =
        static_cast<uint64_t>(static_cast<unsigned __int128>(traffic_bytes) * b.bytes / footprint);
    const uint64_t traffic = std::max(share, b.bytes);
    counts.accesses[index] += CeilDiv(traffic, cost.tlb_access_bytes);
    counts.misses[index] += CeilDiv(b.bytes, span);
    if (b.bytes > reach) counts.misses[index] += (traffic - b.bytes) / span;
  }
  return counts;
}

}  // namespace aclsim::sim
