// SoC profiles: the facts of one simulated Ascend SoC, each number with its source.
//
// The data lives in sim/profiles/<SocName>.json, one file per SoC; a build step
// (sim/cmake/embed_profiles.cmake) embeds the files into the library, and this module parses
// them once, on first use. Every numeric field of a profile file is an object
//   {"value": <integer>, "source": "<where the number comes from>", "confidence": "H|M|L"}
// (H = primary source, M = secondary or derived, L = estimate / marketing / recalled; see
// shared/reference/ascend_hw.md). A profile must define every field in kSocProfileFields and
// nothing else, so a typo cannot silently leave a number at zero.
//
// Units are in the field names (_hz, _bytes, _ns, _bytes_per_s). All values are integers,
// so the cost model computes bit-identical results on every host.
//
// Thread-safety: the profiles are immutable after the first (thread-safe) load; every
// function here may be called from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "driver/device_props.h"

namespace aclsim::sim {

// Cost-model parameters of a SoC (everything the timing model needs beyond DeviceProps).
struct CostParams {
  uint64_t cube_flops_per_cycle_per_core = 0;    // AI Core (cube) peak per core per cycle
  uint64_t vector_flops_per_cycle_per_core = 0;  // vector unit peak per core per cycle
  uint64_t aicpu_flops_per_s_per_core = 0;       // AI CPU peak per core
  uint64_t hbm_bytes_per_s = 0;                  // device memory bandwidth
  uint64_t pcie_h2d_bytes_per_s = 0;             // host -> device
  uint64_t pcie_d2h_bytes_per_s = 0;             // device -> host
  uint64_t peer_bytes_per_s = 0;                 // device -> another device
  uint64_t host_memcpy_bytes_per_s = 0;          // host -> host
  uint64_t dma_latency_ns = 0;                   // fixed cost of one DMA transfer
  uint64_t dma_h2d_channels = 0;                 // DMA engine slots per direction
  uint64_t dma_d2h_channels = 0;
  uint64_t dma_d2d_channels = 0;  // also used by memsets
  uint64_t dma_peer_channels = 0;
  uint64_t launch_cost_ns = 0;        // device task-scheduling cost per task
  uint64_t api_submit_cost_ns = 0;    // host cost of one submission
  uint64_t event_cost_ns = 0;         // event record / wait / reset task
  uint64_t callback_cost_ns = 0;      // host function / external (callback) task
  uint64_t memcpy2d_row_cost_ns = 0;  // extra cost per row of a 2-D copy

  // Per-core data paths of the kernel cost model (bytes per cycle per core, [AICoreMemoryRates]).
  uint64_t gm_read_bytes_per_cycle = 0;             // GM -> core (MTE2 from HBM)
  uint64_t gm_write_bytes_per_cycle = 0;            // core -> GM (MTE3)
  uint64_t l2_read_bytes_per_cycle = 0;             // GM -> L1 loads served by L2
  uint64_t l1_to_l0a_bytes_per_cycle = 0;           // MTE1
  uint64_t l1_to_l0b_bytes_per_cycle = 0;           // MTE1
  uint64_t l0c_out_bytes_per_cycle = 0;             // FixPipe (L0C -> UB/out)
  uint64_t ub_bytes_per_cycle = 0;                  // L1 <-> UB on-chip traffic
  uint64_t cube_int8_flops_per_cycle_per_core = 0;  // 16x32x16 int8 cube
  uint64_t vector_repeat_bytes = 0;                 // bytes per repeat per cycle per vector core
  uint64_t scalar_ops_per_cycle = 0;
  uint64_t aicpu_ps_per_element = 0;  // AI CPU cost per element (picoseconds)
  // Shared HBM: share of HBM bandwidth an active DMA claims from overlapping tasks (permille).
  uint64_t dma_hbm_contention_permille = 0;
  // TLB model (see tlb_model.h).
  uint64_t tlb_access_bytes = 0;
  uint64_t tlb_entry_span_bytes = 0;
  uint64_t tlb_entries_4k = 0;
  uint64_t tlb_entries_2m = 0;
  uint64_t tlb_entries_1g = 0;
  uint64_t tlb_miss_penalty_cycles = 0;
  // Host cost of stream (queue) creation / destruction, plain and from the persistent cache.
  uint64_t stream_create_cost_ns = 0;
  uint64_t stream_destroy_cost_ns = 0;
  uint64_t stream_reuse_cost_ns = 0;
  uint64_t stream_recycle_cost_ns = 0;
};

// Provenance of one numeric field.
struct ProfileField {
  std::string name;  // JSON key, e.g. "hbm_bytes"
  uint64_t value = 0;
  std::string source;      // never empty
  std::string confidence;  // "H", "M" or "L"
};

struct SocProfile {
  std::string name;     // e.g. "Ascend910B2"; equals props.soc_name
  std::string summary;  // one line for logs and tools
  driver::DeviceProps props;
  CostParams cost;
  std::vector<ProfileField> fields;  // every numeric field, in file order
};

// The profile of a SoC by exact name (e.g. "Ascend910B2"), or nullptr if unknown or if the
// embedded data failed to load (see SocProfileLoadStatus).
const SocProfile* FindSocProfile(std::string_view name);

// Names of every known SoC, sorted.
std::vector<std::string> SocNames();

// OK if every embedded profile parsed and validated; otherwise the first problem (a build
// defect: the unit tests check it).
Status SocProfileLoadStatus();

// Parses one profile file's text. Exposed for tests and tools.
Result<SocProfile> ParseSocProfile(std::string_view json_text, std::string_view origin);

// The JSON keys every profile must define.
const std::vector<std::string>& SocProfileFieldNames();

namespace internal {
// One embedded profile file (generated from sim/profiles by the build).
struct EmbeddedProfile {
  const char* file_name;
  const char* json_text;
};
extern const EmbeddedProfile kEmbeddedProfiles[];
extern const size_t kEmbeddedProfileCount;
}  // namespace internal

}  // namespace aclsim::sim
