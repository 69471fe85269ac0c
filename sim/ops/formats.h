// Conversions between a tensor's storage layout (NC1HWC0, FRACTAL_Z, FRACTAL_NZ) and its
// logical (origin) layout, as CANN's TransData does them (cann_ops.md 3.2). Padding
// elements are written as zero.
//
// Thread-safety: pure functions.
#pragma once

#include "common/status.h"
#include "driver/op_library.h"

namespace aclsim::sim::ops {

// Reads `desc`'s buffer (storage layout) into `origin` (logical layout, desc.dims).
Status StorageToOrigin(const driver::TensorDesc& desc, const void* storage, void* origin);
// Writes logical `origin` data into `storage` in desc's storage layout.
Status OriginToStorage(const driver::TensorDesc& desc, const void* origin, void* storage);

}  // namespace aclsim::sim::ops
