#include "ops/work_builders.h"

#include <algorithm>

#include "common/int_math.h"

namespace aclsim::ops {
namespace {

using driver::DtypeClass;

constexpr uint64_t kTileM = 128;
constexpr uint64_t kTileN = 256;
constexpr uint64_t kStepK = 256;

uint64_t Pad16(uint64_t v) { return CeilDivSat(v, 16) * 16; }

}  // namespace

driver::KernelWork MatmulWork(uint64_t m, uint64_t n, uint64_t k, DtypeClass dtype,
                              uint32_t* blocks) {
  const uint64_t in = driver::DtypeClassBytes(dtype);
  const uint64_t out = dtype == DtypeClass::kFp16 || dtype == DtypeClass::kBf16 ? 2 : 4;
  const uint64_t tiles = CeilDivSat(m, kTileM) * CeilDivSat(n, kTileN);
  const uint64_t tile_m = std::min(m, kTileM);
  const uint64_t tile_n = std::min(n, kTileN);
  driver::KernelWork w;
  w.dtype = dtype;
  w.cube_flops = 2 * Pad16(m) * Pad16(n) * Pad16(k);
  w.gm_read_bytes = (m * k + k * n) * in;
  w.gm_write_bytes = m * n * out;
  w.l1_to_l0a_bytes = tiles * tile_m * k * in;
  w.l1_to_l0b_bytes = tiles * k * tile_n * in;
  w.gm_to_l1_bytes = w.l1_to_l0a_bytes + w.l1_to_l0b_bytes;
  w.l0c_to_out_bytes = m * n * 4;  // fp32 accumulator
  w.pipeline_steps = static_cast<uint32_t>(std::max<uint64_t>(CeilDivSat(k, kStepK), 1));
  w.double_buffered = true;
  if (blocks != nullptr) *blocks = static_cast<uint32_t>(std::max<uint64_t>(tiles, 1));
  return w;
}

driver::KernelWork ElementwiseWork(uint64_t elements, uint32_t inputs, DtypeClass dtype,
                                   uint32_t blocks, uint64_t ub_bytes) {
  const uint64_t e = driver::DtypeClassBytes(dtype);
  driver::KernelWork w;
  w.dtype = dtype;
  w.vector_flops = elements * std::max<uint32_t>(inputs, 1);
  w.gm_read_bytes = elements * e * inputs;
  w.gm_write_bytes = elements * e;
  const uint64_t chunk = std::max<uint64_t>(ub_bytes / (2 * (inputs + 1)), 32);
  const uint64_t per_block = CeilDivSat(elements * e, std::max<uint32_t>(blocks, 1));
  w.pipeline_steps = static_cast<uint32_t>(std::max<uint64_t>(CeilDivSat(per_block, chunk), 1));
  w.double_buffered = true;
  return w;
}

}  // namespace aclsim::ops
