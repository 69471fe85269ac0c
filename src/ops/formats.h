// Storage layouts (NC1HWC0, FRACTAL_Z, FRACTAL_NZ): the storage shape of a logical shape, and
// conversions between a tensor's storage layout and its logical (origin) layout, as CANN's
// TransData does them (cann_ops.md 3.2). Padding elements are written as zero.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "ops/types.h"

namespace aclsim::ops {

// The storage shape of a tensor of logical `dims` in `origin` format when stored in
// `storage` format (NC1HWC0, FRACTAL_Z, FRACTAL_NZ; any other storage format must equal the
// origin format). kFormatNotMatch for a pair without a layout rule.
Result<std::vector<int64_t>> StorageDims(Format origin, const std::vector<int64_t>& dims,
                                         DataType dtype, Format storage);
// C0, the channel block of the blocked formats: 32 for 1-byte types, else 16.
int64_t CubeBlockC0(DataType dtype);

// Reads `desc`'s buffer (storage layout) into `origin` (logical layout, desc.dims).
Status StorageToOrigin(const TensorDesc& desc, const void* storage, void* origin);
// Writes logical `origin` data into `storage` in desc's storage layout.
Status OriginToStorage(const TensorDesc& desc, const void* origin, void* storage);

}  // namespace aclsim::ops
