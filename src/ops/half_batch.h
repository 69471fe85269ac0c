// Bulk fp16 <-> fp32 conversion for the kernels' inner loops.
//
// Bit-for-bit the scalar conversions of common/float16.h (round to nearest even; NaNs come
// out quiet with their leading payload bits), using the host's F16C instructions where the
// CPU has them and the scalar code otherwise, so results never depend on the host.
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>

namespace aclsim::ops {

void HalfToFloatN(const uint16_t* src, float* dst, size_t n);
void FloatToHalfN(const float* src, uint16_t* dst, size_t n);

// Whether the fast (F16C) path is in use on this host.
bool HalfBatchAccelerated();

}  // namespace aclsim::ops
