// TLB model: translation misses of a task's streaming accesses to device memory.
//
// Device memory is mapped with 4 KiB, 2 MiB or 1 GiB pages (the page table of each
// allocation records its page size; see DeviceMemory::PageOf). An engine translates one
// request per `tlb_access_bytes` burst. A TLB entry maps min(page, tlb_entry_span_bytes)
// bytes (large pages are splintered into spans in the engines' micro-TLBs), so a streaming
// pass misses once per span: with 64-B accesses, 4 KiB pages give 64/4096 = 15.6 misses per
// 1000 accesses, 2 MiB pages 64/32768 = 2.0. Bytes re-read beyond the first pass miss again
// only if the buffer is larger than the TLB's reach for its page size
// (tlb_entries_<size> x span). Each task starts with a cold TLB (no reuse across tasks).
// Every miss costs `tlb_miss_penalty_cycles` of exposed time on the engine that misses; a
// kernel's misses are spread over the cores it runs on.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <vector>

#include "driver/driver.h"
#include "sim/soc_profile.h"

namespace aclsim::sim {

// One device buffer a task streams over, with the page size it is mapped with.
struct BufferPages {
  uint64_t bytes = 0;
  driver::PageSize page = driver::PageSize::k2M;
};

// Translations of one task: its accesses and misses, per page size (index = PageSize).
struct TlbCounts {
  uint64_t accesses[3] = {0, 0, 0};
  uint64_t misses[3] = {0, 0, 0};
  uint64_t total_misses() const { return misses[0] + misses[1] + misses[2]; }
  void Add(const TlbCounts& other) {
    for (int i = 0; i < 3; ++i) {
      accesses[i] += other.accesses[i];
      misses[i] += other.misses[i];
    }
  }
};

// Translations of `traffic_bytes` of streaming accesses spread over `buffers` in proportion
// to their sizes (traffic beyond the buffers' total is re-reads). Empty buffers: no counts.
TlbCounts StreamingTlb(const std::vector<BufferPages>& buffers, uint64_t traffic_bytes,
                       const CostParams& cost);

}  // namespace aclsim::sim
