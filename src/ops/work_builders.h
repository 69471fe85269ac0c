// KernelWork builders for common kernel shapes: the work a typical Ascend kernel of that
// shape states (tiling as Ascend C kernels usually do it). The op groups describe their GEMMs
// and elementwise kernels with them; the simulator's tests and benchmarks use them too.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>

#include "driver/task.h"

namespace aclsim::ops {

// C[m, n] = A[m, k] x B[k, n] on the cube. Each block computes one 128 x 256 tile of C,
// stepping through K 256 at a time, double-buffered through L1 and L0 (A step 64 KiB + B step
// 128 KiB in fp16 fit twice in a 512 KiB L1). Cube work is padded to 16-multiples (fractals).
// GM reads are A and B once (unique bytes); every block loads its A rows and B columns
// through L1 (re-reads served by L2); FixPipe drains the fp32 accumulator; C is written once
// (fp16/bf16: 2 B, int8 and fp32: 4 B per element). *blocks receives the tile count.
driver::KernelWork MatmulWork(uint64_t m, uint64_t n, uint64_t k, driver::DtypeClass dtype,
                              uint32_t* blocks);

// An elementwise op over `elements` elements with `inputs` inputs and one output on the
// vector cores, split into `blocks` equal blocks; each block streams through the UB in
// double-buffered chunks of ub_bytes / (2 x (inputs + 1)).
driver::KernelWork ElementwiseWork(uint64_t elements, uint32_t inputs, driver::DtypeClass dtype,
                                   uint32_t blocks, uint64_t ub_bytes);

}  // namespace aclsim::ops
