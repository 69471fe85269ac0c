// 3-D pooling (cann_ops.md 1F): MaxPool3D and AvgPool3D over NCDHW / NDHWC tensors. Vector
// work (the default work).
//
// MaxPool3D: ksize, strides (req), padding (req: SAME, VALID or CALCULATED = use pads),
// pads={0,0,0,0,0,0} [head, tail, top, bottom, left, right], dilation={1,1,1,1,1},
// ceil_mode:Int=0, data_format="NDHWC". Taps in the padding are ignored; NaN propagates.
// AvgPool3D: ksize, strides, pads (req), ceil_mode:Bool=false, count_include_pad:Bool=true,
// divisor_override:Int=0, data_format="NDHWC". The divisor is divisor_override when > 0, else
// the window's taps inside the padded input (count_include_pad) or inside the input.
// ksize, strides and dilation take 5 values in data_format order (N = C = 1), 3 values [D, H, W]
// or 1 value for all three. Output size per dim: (in + pads - window) / stride + 1, rounded up
// with ceil_mode (the last window must then start inside the input or its head padding).
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/kernels.h"
#include "ops/op_group.h"
#include "ops/window3d.h"

namespace aclsim::ops {

namespace {

struct Pool3DGeom {
  Layout5d layout;
  int64_t n = 0, c = 0;
  Dims3 in{}, k{}, s{}, d{1, 1, 1}, pb{}, pe{}, out{};
  std::vector<int64_t> OutDims() const { return layout.Shape(n, c, out); }
};

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

Result<Pool3DGeom> PoolGeomOf(const OpContext* ctx, const AttrReader& attrs,
                              const std::vector<int64_t>& x, bool is_max) {
  Pool3DGeom g;
  auto layout = Layout5d::Of(attrs.GetString("data_format"));
  if (!layout.ok()) return WindowFail(ctx, layout.status());
  g.layout = layout.value();
  bool known = x.size() == 5;
  for (size_t i = 1; known && i < 5; ++i) known = x[i] >= 0;
  if (!known) {
    return WindowFail(ctx, StatusCode::kOpInputNotMatch,
                      fmt::format("input 0 (x) must be 5-D with known C, D, H and W but has "
                                  "shape [{}]",
                                  fmt::join(x, ", ")));
  }
  g.n = x[0];
  g.c = g.layout.Channels(x);
  g.in = g.layout.Spatial(x);
  auto k = SpatialAttr(attrs, "ksize", g.layout, 1, true);
  if (!k.ok()) return WindowFail(ctx, k.status());
  auto s = SpatialAttr(attrs, "strides", g.layout, 1, true);
  if (!s.ok()) return WindowFail(ctx, s.status());
  g.k = k.value();
  g.s = s.value();
  std::string mode = "CALCULATED";
  bool ceil_mode = false;
  if (is_max) {
    auto d = SpatialAttr(attrs, "dilation", g.layout, 1, true);
    if (!d.ok()) return WindowFail(ctx, d.status());
    g.d = d.value();
    mode = attrs.GetString("padding");
    ceil_mode = attrs.GetInt("ceil_mode") != 0;
    if (mode != "SAME" && mode != "VALID" && mode != "CALCULATED") {
      return WindowFail(ctx, StatusCode::kOpAttrNotMatch,
                        fmt::format("attribute 'padding' is \"{}\"; expected SAME, VALID or "
                                    "CALCULATED",
                                    mode));
    }
  } else {
    ceil_mode = attrs.GetBool("ceil_mode");
  }
  if (mode == "CALCULATED") {
    Status pads = PadsAttr(attrs, "pads", &g.pb, &g.pe);
    if (!pads.ok()) return WindowFail(ctx, pads);
  }
  for (size_t i = 0; i < 3; ++i) {
    const int64_t extent = (g.k[i] - 1) * g.d[i] + 1;  // both <= kMaxWindowAttr: no overflow
    if (mode == "SAME") {
      g.out[i] = CeilDiv(g.in[i], g.s[i]);
      const int64_t total = std::max<int64_t>((g.out[i] - 1) * g.s[i] + extent - g.in[i], 0);
      g.pb[i] = total / 2;
      g.pe[i] = total - g.pb[i];
      continue;
    }
    if (g.pb[i] >= extent || g.pe[i] >= extent) {
      return WindowFail(ctx, StatusCode::kOpAttrNotMatch,
                        fmt::format("attribute 'pads' [{}] + [{}] must be smaller than the "
                                    "window [{}] (dilated)",
                                    fmt::join(g.pb, ", "), fmt::join(g.pe, ", "), extent));
    }
    const int64_t span = g.in[i] + g.pb[i] + g.pe[i] - extent;
    if (span < 0) {
      return WindowFail(
          ctx, StatusCode::kOpAttrNotMatch,
          fmt::format("attribute 'ksize' window [{}] (dilation [{}]) is larger "
                      "than the padded input [{}]",
                      fmt::join(g.k, ", "), fmt::join(g.d, ", "), fmt::join(g.in, ", ")));
    }
    g.out[i] = (ceil_mode ? CeilDiv(span, g.s[i]) : span / g.s[i]) + 1;
    if (ceil_mode && (g.out[i] - 1) * g.s[i] >= g.in[i] + g.pb[i]) --g.out[i];
  }
  std::vector<int64_t> dims = g.OutDims();
  dims[0] = std::max<int64_t>(dims[0], 0);
  auto count = CheckedCount(dims, "output 0 (y)");
  if (!count.ok()) return WindowFail(ctx, count.status());
  return g;
}

InferFn PoolInfer(bool is_max) {
  return [is_max](OpContext& ctx) -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto g, PoolGeomOf(&ctx, ctx, ctx.input(0).dims, is_max));
    if (!is_max && ctx.GetInt("divisor_override") < 0) {
      return ctx.Fail(StatusCode::kOpAttrNotMatch, "attribute 'divisor_override' must be >= 0");
    }
    ctx.SetOutput(0, ctx.input(0).dtype, g.OutDims());
    return Status::Ok();
  };
}

// Max (NaN propagating) or average of one output position's window.
double PoolWindow(const Pool3DGeom& g, const std::vector<double>& x, int64_t n, int64_t c,
                  const Dims3& o, bool is_max, bool include_pad, int64_t divisor_override) {
  Dims3 start{};
  // The window taps [lo, hi) of each axis that fall inside the input: the loops visit those
  // alone, so a window far larger than the input (huge ksize with huge pads) costs nothing.
  Dims3 lo{};
  Dims3 hi{};
  for (size_t i = 0; i < 3; ++i) {
    start[i] = o[i] * g.s[i] - g.pb[i];
    lo[i] = start[i] >= 0 ? 0 : (-start[i] + g.d[i] - 1) / g.d[i];
    hi[i] = start[i] >= g.in[i] ? 0 : std::min(g.k[i], (g.in[i] - start[i] + g.d[i] - 1) / g.d[i]);
  }
  double acc = is_max ? -std::numeric_limits<double>::infinity() : 0.0;
  bool nan = false;
  int64_t count = 0;
  for (int64_t jz = lo[0]; jz < hi[0]; ++jz) {
    const int64_t z = start[0] + jz * g.d[0];
    for (int64_t jy = lo[1]; jy < hi[1]; ++jy) {
      const int64_t y = start[1] + jy * g.d[1];
      for (int64_t jx = lo[2]; jx < hi[2]; ++jx) {
        const int64_t xx = start[2] + jx * g.d[2];
        const double v = x[static_cast<size_t>(g.layout.Index(n, c, z, y, xx, g.c, g.in))];
        nan |= std::isnan(v);
        acc = is_max ? std::max(acc, v) : acc + v;
        ++count;
      }
    }
  }
  if (is_max) return nan ? std::numeric_limits<double>::quiet_NaN() : acc;
  if (divisor_override > 0) {
    count = divisor_override;
  } else if (include_pad) {
    count = 1;
    for (size_t i = 0; i < 3; ++i) {
      count *= std::min(start[i] + g.k[i], g.in[i] + g.pe[i]) - start[i];
    }
  }
  return count > 0 ? acc / static_cast<double>(count) : 0.0;
}

RunFn PoolRun(bool is_max) {
  return [is_max](RunContext& ctx) -> Status {
    const Tensor& x = ctx.in(0);
    ACLSIM_ASSIGN_OR_RETURN(auto g, PoolGeomOf(nullptr, ctx, x.dims, is_max));
    const bool include_pad = !is_max && ctx.GetBool("count_include_pad");
    const int64_t divisor_override = is_max ? 0 : ctx.GetInt("divisor_override");
    const auto in = ToDoubles(x);
    std::vector<double> out(static_cast<size_t>(g.n * g.c * g.out[0] * g.out[1] * g.out[2]));
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t c = 0; c < g.c; ++c) {
        for (int64_t oz = 0; oz < g.out[0]; ++oz) {
          for (int64_t oy = 0; oy < g.out[1]; ++oy) {
            for (int64_t ox = 0; ox < g.out[2]; ++ox) {
              out[static_cast<size_t>(g.layout.Index(n, c, oz, oy, ox, g.c, g.out))] =
                  PoolWindow(g, in, n, c, {oz, oy, ox}, is_max, include_pad, divisor_override);
            }
          }
        }
      }
    }
    FromDoubles(out, ctx.out(0));
    return Status::Ok();
  };
}

}  // namespace

void RegisterPool3DOps(OpRegistry& registry) {
  const std::vector<DataType> types = {DataType::kFloat16, DataType::kFloat, DataType::kDouble};
  OpDef max_pool;
  max_pool.type = "MaxPool3D";
  max_pool.inputs = {In("x", types)};
  max_pool.outputs = {Out("y", types)};
  max_pool.attrs = {ReqAttr("ksize", AttrType::kListInt),
                    ReqAttr("strides", AttrType::kListInt),
                    ReqAttr("padding", AttrType::kString),
                    OptAttr("pads", AttrType::kListInt, std::vector<int64_t>{0, 0, 0, 0, 0, 0}),
                    OptAttr("dilation", AttrType::kListInt, std::vector<int64_t>{1, 1, 1, 1, 1}),
                    OptAttr("ceil_mode", AttrType::kInt, int64_t{0}),
                    OptAttr("data_format", AttrType::kString, std::string("NDHWC"))};
  max_pool.ops_per_element = 27;
  max_pool.infer = PoolInfer(true);
  max_pool.run = PoolRun(true);
  registry.Add(std::move(max_pool));

  OpDef avg_pool;
  avg_pool.type = "AvgPool3D";
  avg_pool.inputs = {In("x", types)};
  avg_pool.outputs = {Out("y", types)};
  avg_pool.attrs = {ReqAttr("ksize", AttrType::kListInt),
                    ReqAttr("strides", AttrType::kListInt),
                    ReqAttr("pads", AttrType::kListInt),
                    OptAttr("ceil_mode", AttrType::kBool, false),
                    OptAttr("count_include_pad", AttrType::kBool, true),
                    OptAttr("divisor_override", AttrType::kInt, int64_t{0}),
                    OptAttr("data_format", AttrType::kString, std::string("NDHWC"))};
  avg_pool.ops_per_element = 27;
  avg_pool.infer = PoolInfer(false);
  avg_pool.run = PoolRun(false);
  registry.Add(std::move(avg_pool));
}

}  // namespace aclsim::ops
