// Geometry shared by the 3-D window ops (Conv3D, Conv3DTranspose, MaxPool3D, AvgPool3D):
// the layout of a 5-D NCDHW / NDHWC tensor and the checked reading of CANN's 5-value
// per-dimension attributes (strides, dilations, ksize) and 6-value pads.
//
// Every value read here is bounded (kMaxWindowAttr), and the output sizes are computed without
// signed overflow, so hostile attributes of an imported model give an error, never a crash.
//
// Thread-safety: pure functions.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "ops/op_def.h"

namespace aclsim::ops {

// Largest stride, dilation, kernel or pad value the 3-D window ops accept.
inline constexpr int64_t kMaxWindowAttr = int64_t{1} << 24;

using Dims3 = std::array<int64_t, 3>;

// Positions of N, C and the first spatial dim (D) of a 5-D tensor in a data format.
struct Layout5d {
  bool ndhwc = false;
  size_t c = 1;  // index of C
  size_t d = 2;  // index of D (H = d + 1, W = d + 2)
  // data_format must be "NCDHW" or "NDHWC".
  static Result<Layout5d> Of(const std::string& data_format);
  int64_t Channels(const std::vector<int64_t>& dims) const { return dims[c]; }
  Dims3 Spatial(const std::vector<int64_t>& dims) const {
    return {dims[d], dims[d + 1], dims[d + 2]};
  }
  // A 5-D shape in this layout.
  std::vector<int64_t> Shape(int64_t n, int64_t ch, const Dims3& sp) const;
  // Linear index of (n, c, z, y, x) in a tensor of channels `ch` and spatial dims `sp`.
  int64_t Index(int64_t n, int64_t c_idx, int64_t z, int64_t y, int64_t x, int64_t ch,
                const Dims3& sp) const {
    return ndhwc ? (((n * sp[0] + z) * sp[1] + y) * sp[2] + x) * ch + c_idx
                 : (((n * ch + c_idx) * sp[0] + z) * sp[1] + y) * sp[2] + x;
  }
};

// A per-dimension attribute `name` of a 3-D op: 5 values in data_format order with N and C
// equal to 1, or (when allow_short) 3 values [D, H, W] or 1 value for all three. Spatial
// values must lie in [min, kMaxWindowAttr]. Errors are kOpAttrNotMatch naming the attribute.
Result<Dims3> SpatialAttr(const AttrReader& attrs, const char* name, const Layout5d& layout,
                          int64_t min, bool allow_short);

// The 6-value pads [head, tail, top, bottom, left, right], each in [0, kMaxWindowAttr]:
// *begin = {head, top, left}, *end = {tail, bottom, right}.
Status PadsAttr(const AttrReader& attrs, const char* name, Dims3* begin, Dims3* end);

// The extent of a dilated window, (k - 1) * d + 1; error (kOpInputNotMatch) when k < 1 or the
// extent exceeds `limit` (the padded input).
Result<int64_t> DilatedExtent(int64_t k, int64_t d, int64_t limit);

// Elements of a shape whose dims are >= 0; error (kOpInputNotMatch) when the count overflows
// int64 or a dim is negative.
Result<int64_t> CheckedCount(const std::vector<int64_t>& dims, const char* what);

// Prefixes "op <type>: " when ctx is given (infer), else returns the message as is (run/work).
Status WindowFail(const OpContext* ctx, StatusCode code, const std::string& msg);
inline Status WindowFail(const OpContext* ctx, const Status& status) {
  return WindowFail(ctx, status.code(), status.message());
}

}  // namespace aclsim::ops
