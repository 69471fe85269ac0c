#include "ops/window3d.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <limits>

namespace aclsim::ops {

Result<Layout5d> Layout5d::Of(const std::string& data_format) {
  if (data_format != "NCDHW" && data_format != "NDHWC") {
    return Status(
        StatusCode::kOpAttrNotMatch,
        fmt::format("attribute 'data_format' is \"{}\"; expected NCDHW or NDHWC", data_format));
  }
  Layout5d l;
  l.ndhwc = data_format == "NDHWC";
  l.c = l.ndhwc ? 4 : 1;
  l.d = l.ndhwc ? 1 : 2;
  return l;
}

std::vector<int64_t> Layout5d::Shape(int64_t n, int64_t ch, const Dims3& sp) const {
  return ndhwc ? std::vector<int64_t>{n, sp[0], sp[1], sp[2], ch}
               : std::vector<int64_t>{n, ch, sp[0], sp[1], sp[2]};
}

Result<Dims3> SpatialAttr(const AttrReader& attrs, const char* name, const Layout5d& layout,
                          int64_t min, bool allow_short) {
  const auto& v = attrs.GetInts(name);
  Dims3 out{};
  if (v.size() == 5) {
    if (v[0] != 1 || v[layout.c] != 1) {
      return Status(StatusCode::kOpAttrNotMatch,
                    fmt::format("attribute '{}' = [{}]: the N and C values must be 1 ({} order)",
                                name, fmt::join(v, ", "), layout.ndhwc ? "NDHWC" : "NCDHW"));
    }
    out = {v[layout.d], v[layout.d + 1], v[layout.d + 2]};
  } else if (allow_short && v.size() == 3) {
    out = {v[0], v[1], v[2]};
  } else if (allow_short && v.size() == 1) {
    out = {v[0], v[0], v[0]};
  } else {
    return Status(StatusCode::kOpAttrNotMatch,
                  fmt::format("attribute '{}' must have {} values but has {}", name,
                              allow_short ? "1, 3 or 5" : "5", v.size()));
  }
  for (int64_t x : out) {
    if (x < min || x > kMaxWindowAttr) {
      return Status(StatusCode::kOpAttrNotMatch,
                    fmt::format("attribute '{}' = [{}]: the D, H and W values must be in [{}, {}]",
                                name, fmt::join(v, ", "), min, kMaxWindowAttr));
    }
  }
  return out;
}

Status PadsAttr(const AttrReader& attrs, const char* name, Dims3* begin, Dims3* end) {
  const auto& p = attrs.GetInts(name);
  bool ok = p.size() == 6;
  for (size_t i = 0; ok && i < p.size(); ++i) ok = p[i] >= 0 && p[i] <= kMaxWindowAttr;
  if (!ok) {
    return Status(StatusCode::kOpAttrNotMatch,
                  fmt::format("attribute '{}' = [{}] must be 6 values in [0, {}] [head, tail, "
                              "top, bottom, left, right]",
                              name, fmt::join(p, ", "), kMaxWindowAttr));
  }
  *begin = {p[0], p[2], p[4]};
  *end = {p[1], p[3], p[5]};
  return Status::Ok();
}

Result<int64_t> DilatedExtent(int64_t k, int64_t d, int64_t limit) {
  int64_t extent = 0;
  if (k < 1 || __builtin_mul_overflow(k - 1, d, &extent) || extent >= limit) {
    return Status(StatusCode::kOpInputNotMatch,
                  fmt::format("a window of {} taps with dilation {} is larger than the padded "
                              "input ({})",
                              k, d, limit));
  }
  return extent + 1;
}

Result<int64_t> CheckedCount(const std::vector<int64_t>& dims, const char* what) {
  int64_t count = 1;
  for (int64_t d : dims) {
    if (d < 0 || __builtin_mul_overflow(count, d, &count)) {
      return Status(StatusCode::kOpInputNotMatch,
                    fmt::format("{} shape [{}] has a negative dim or more elements than int64 "
                                "holds",
                                what, fmt::join(dims, ", ")));
    }
  }
  return count;
}

Status WindowFail(const OpContext* ctx, StatusCode code, const std::string& msg) {
  if (ctx != nullptr) return ctx->Fail(code, "{}", msg);
  return Status(code, msg);
}

}  // namespace aclsim::ops
