// Pooling ops (cann_ops.md 1F): MaxPool, AvgPool (TF style), MaxPoolV3, AvgPoolV2 (ONNX /
// PyTorch style) and GlobalAveragePool. Vector work (the default work).
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/kernels.h"
#include "ops/op_group.h"

namespace aclsim::ops {

namespace {

// A 2-D pooling window over an NCHW or NHWC tensor.
struct Pool2D {
  bool nhwc = false;
  int64_t n = 0, c = 0, h = 0, w = 0;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1;
  int64_t pt = 0, pb = 0, pl = 0, pr = 0;
  int64_t ho = 0, wo = 0;

  std::vector<int64_t> OutDims() const {
    return nhwc ? std::vector<int64_t>{n, ho, wo, c} : std::vector<int64_t>{n, c, ho, wo};
  }
  int64_t Index(int64_t in, int64_t ic, int64_t ih, int64_t iw, int64_t hh, int64_t ww) const {
    return nhwc ? ((in * hh + ih) * ww + iw) * c + ic : ((in * c + ic) * hh + ih) * ww + iw;
  }
};

enum class PoolKind { kMax, kAvg };

struct PoolOptions {
  bool tf_style = false;  // MaxPool/AvgPool: `padding` SAME/VALID; else padding_mode + pads
  PoolKind kind = PoolKind::kMax;
};

Status AttrError(const OpContext* ctx, std::string msg) {
  if (ctx != nullptr) return ctx->Fail(StatusCode::kOpAttrNotMatch, "{}", msg);
  return Status(StatusCode::kOpAttrNotMatch, std::move(msg));
}

int64_t CeilDivI64(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

// Output size along one dim (PyTorch rules for CALCULATED with ceil_mode).
int64_t OutSize(int64_t in, int64_t k, int64_t s, int64_t p0, int64_t p1, bool ceil_mode) {
  const int64_t span = in + p0 + p1 - k;
  if (span < 0) return 0;
  int64_t out = (ceil_mode ? CeilDivI64(span, s) : span / s) + 1;
  if (ceil_mode && (out - 1) * s >= in + p0) --out;  // last window must start inside
  return out;
}

// SAME padding: out = ceil(in / s), the extra padding split with the larger half at the end.
void SamePads(int64_t in, int64_t k, int64_t s, int64_t* out, int64_t* p0, int64_t* p1) {
  *out = CeilDivI64(in, s);
  const int64_t total = std::max<int64_t>((*out - 1) * s + k - in, 0);
  *p0 = total / 2;
  *p1 = total - *p0;
}

// Reads the window of a call from its attributes and x's shape.
Result<Pool2D> PoolOf(const OpContext* ctx, const AttrReader& attrs, const std::vector<int64_t>& x,
                      const PoolOptions& opt) {
  Pool2D p;
  const std::string& format = attrs.GetString("data_format");
  if (format != "NCHW" && format != "NHWC") {
    return AttrError(
        ctx, fmt::format("attribute 'data_format' is \"{}\"; expected NCHW or NHWC", format));
  }
  p.nhwc = format == "NHWC";
  if (x.size() != 4) {
    const std::string msg =
        fmt::format("input 0 (x) must be 4-D ({}) but has shape [{}]", format, fmt::join(x, ", "));
    if (ctx != nullptr) return ctx->Fail(StatusCode::kOpInputNotMatch, "{}", msg);
    return Status(StatusCode::kOpInputNotMatch, msg);
  }
  p.n = x[0];
  p.c = p.nhwc ? x[3] : x[1];
  p.h = p.nhwc ? x[1] : x[2];
  p.w = p.nhwc ? x[2] : x[3];
  const size_t hi = p.nhwc ? 1 : 2;  // index of H in data_format order
  const size_t ni = 0;
  const size_t ci = p.nhwc ? 3 : 1;
  for (const char* name : {"ksize", "strides"}) {
    const auto& v = attrs.GetInts(name);
    if (v.size() != 4) {
      return AttrError(
          ctx, fmt::format("attribute '{}' must have 4 values (in {} order) but has {}", name,
                           format, v.size()));
    }
    if (v[hi] < 1 || v[hi + 1] < 1) {
      return AttrError(ctx, fmt::format("attribute '{}' = [{}]: H and W values must be >= 1", name,
                                        fmt::join(v, ", ")));
    }
    if (v[ni] != 1 || v[ci] != 1) {
      return AttrError(ctx, fmt::format("attribute '{}' = [{}]: N and C values must be 1", name,
                                        fmt::join(v, ", ")));
    }
  }
  p.kh = attrs.GetInts("ksize")[hi];
  p.kw = attrs.GetInts("ksize")[hi + 1];
  p.sh = attrs.GetInts("strides")[hi];
  p.sw = attrs.GetInts("strides")[hi + 1];
  std::string mode;
  bool ceil_mode = false;
  if (opt.tf_style) {
    mode = attrs.GetString("padding");
    if (mode != "SAME" && mode != "VALID") {
      return AttrError(ctx,
                       fmt::format("attribute 'padding' is \"{}\"; expected SAME or VALID", mode));
    }
  } else {
    mode = attrs.GetString("padding_mode");
    ceil_mode = attrs.GetBool("ceil_mode");
    if (mode != "CALCULATED" && mode != "SAME" && mode != "VALID") {
      return AttrError(
          ctx, fmt::format("attribute 'padding_mode' is \"{}\"; expected CALCULATED, SAME or "
                           "VALID",
                           mode));
    }
    if (attrs.GetBool("global_pooling")) {
      p.kh = p.h;
      p.kw = p.w;
      p.sh = p.sw = 1;
      mode = "VALID";
    }
  }
  if (mode == "SAME") {
    SamePads(p.h, p.kh, p.sh, &p.ho, &p.pt, &p.pb);
    SamePads(p.w, p.kw, p.sw, &p.wo, &p.pl, &p.pr);
  } else {
    if (mode == "CALCULATED") {
      const auto& pads = attrs.GetInts("pads");
      if (pads.size() != 4) {
        return AttrError(ctx, fmt::format("attribute 'pads' must have 4 values [top, bottom, "
                                          "left, right] but has {}",
                                          pads.size()));
      }
      if (*std::min_element(pads.begin(), pads.end()) < 0) {
        return AttrError(ctx, fmt::format("attribute 'pads' = [{}] has a negative value",
                                          fmt::join(pads, ", ")));
      }
      if (pads[0] >= p.kh || pads[1] >= p.kh || pads[2] >= p.kw || pads[3] >= p.kw) {
        return AttrError(ctx, fmt::format("attribute 'pads' = [{}] must be smaller than the "
                                          "kernel [{}, {}]",
                                          fmt::join(pads, ", "), p.kh, p.kw));
      }
      p.pt = pads[0];
      p.pb = pads[1];
      p.pl = pads[2];
      p.pr = pads[3];
    }
    p.ho = OutSize(p.h, p.kh, p.sh, p.pt, p.pb, ceil_mode);
    p.wo = OutSize(p.w, p.kw, p.sw, p.pl, p.pr, ceil_mode);
  }
  if (p.ho < 1 || p.wo < 1) {
    return AttrError(ctx, fmt::format("attribute 'ksize' [{}, {}] is larger than the padded input "
                                      "[{}, {}]",
                                      p.kh, p.kw, p.h + p.pt + p.pb, p.w + p.pl + p.pr));
  }
  return p;
}

InferFn PoolInfer(PoolOptions opt) {
  return [opt](OpContext& ctx) -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto p, PoolOf(&ctx, ctx, ctx.input(0).dims, opt));
    if (!opt.tf_style && opt.kind == PoolKind::kAvg && ctx.GetInt("divisor_override") < 0) {
      return ctx.Fail(StatusCode::kOpAttrNotMatch, "attribute 'divisor_override' must be >= 0");
    }
    ctx.SetOutput(0, ctx.input(0).dtype, p.OutDims());
    return Status::Ok();
  };
}

RunFn PoolRun(PoolOptions opt) {
  return [opt](RunContext& ctx) -> Status {
    const Tensor& x = ctx.in(0);
    ACLSIM_ASSIGN_OR_RETURN(auto p, PoolOf(nullptr, ctx, x.dims, opt));
    const bool v2_avg = !opt.tf_style && opt.kind == PoolKind::kAvg;
    const bool exclusive = !v2_avg || ctx.GetBool("exclusive");
    const int64_t divisor_override = v2_avg ? ctx.GetInt("divisor_override") : 0;
    const auto in = ToDoubles(x);
    std::vector<double> out(static_cast<size_t>(p.n * p.c * p.ho * p.wo));
    for (int64_t n = 0; n < p.n; ++n) {
      for (int64_t c = 0; c < p.c; ++c) {
        for (int64_t oh = 0; oh < p.ho; ++oh) {
          const int64_t h0 = oh * p.sh - p.pt;
          const int64_t h_end_pad = std::min(h0 + p.kh, p.h + p.pb);
          const int64_t hs = std::max<int64_t>(h0, 0);
          const int64_t he = std::min(h0 + p.kh, p.h);
          for (int64_t ow = 0; ow < p.wo; ++ow) {
            const int64_t w0 = ow * p.sw - p.pl;
            const int64_t w_end_pad = std::min(w0 + p.kw, p.w + p.pr);
            const int64_t ws = std::max<int64_t>(w0, 0);
            const int64_t we = std::min(w0 + p.kw, p.w);
            double acc = opt.kind == PoolKind::kMax ? -std::numeric_limits<double>::infinity() : 0;
            bool nan = false;
            for (int64_t ih = hs; ih < he; ++ih) {
              for (int64_t iw = ws; iw < we; ++iw) {
                const double v = in[static_cast<size_t>(p.Index(n, c, ih, iw, p.h, p.w))];
                nan |= std::isnan(v);
                acc = opt.kind == PoolKind::kMax ? std::max(acc, v) : acc + v;
              }
            }
            if (opt.kind == PoolKind::kAvg) {
              int64_t count = (he - hs) * (we - ws);
              if (divisor_override > 0) {
                count = divisor_override;
              } else if (!exclusive) {
                count = (h_end_pad - h0) * (w_end_pad - w0);
              }
              acc = count > 0 ? acc / static_cast<double>(count) : 0.0;
            } else if (nan) {
              acc = std::numeric_limits<double>::quiet_NaN();
            }
            out[static_cast<size_t>(p.Index(n, c, oh, ow, p.ho, p.wo))] = acc;
          }
        }
      }
    }
    FromDoubles(out, ctx.out(0));
    return Status::Ok();
  };
}

OpDef PoolOp(std::string type, const std::vector<DataType>& types, PoolOptions opt) {
  OpDef def;
  def.type = std::move(type);
  def.inputs = {In("x", types)};
  def.outputs = {Out("y", types)};
  def.attrs = {ReqAttr("ksize", AttrType::kListInt), ReqAttr("strides", AttrType::kListInt)};
  if (opt.tf_style) {
    def.attrs.push_back(ReqAttr("padding", AttrType::kString));
    def.attrs.push_back(OptAttr("data_format", AttrType::kString, std::string("NHWC")));
  } else {
    def.attrs.push_back(OptAttr("padding_mode", AttrType::kString, std::string("CALCULATED")));
    def.attrs.push_back(OptAttr("pads", AttrType::kListInt, std::vector<int64_t>{0, 0, 0, 0}));
    def.attrs.push_back(OptAttr("data_format", AttrType::kString, std::string("NCHW")));
    def.attrs.push_back(OptAttr("global_pooling", AttrType::kBool, false));
    def.attrs.push_back(OptAttr("ceil_mode", AttrType::kBool, false));
    if (opt.kind == PoolKind::kAvg) {
      def.attrs.push_back(OptAttr("exclusive", AttrType::kBool, true));
      def.attrs.push_back(OptAttr("divisor_override", AttrType::kInt, int64_t{0}));
    }
  }
  def.ops_per_element = 9;
  def.infer = PoolInfer(opt);
  def.run = PoolRun(opt);
  return def;
}

Status InferGlobalAveragePool(OpContext& ctx) {
  const auto& x = ctx.input(0);
  if (x.dims.size() < 3) {
    return ctx.Fail(StatusCode::kOpInputNotMatch,
                    "{} must have rank >= 3 (N, C, spatial...) but has shape [{}]",
                    ctx.InputName(0), fmt::join(x.dims, ", "));
  }
  std::vector<int64_t> dims(x.dims.size(), 1);
  dims[0] = x.dims[0];
  dims[1] = x.dims[1];
  ctx.SetOutput(0, x.dtype, dims);
  return Status::Ok();
}

Status RunGlobalAveragePool(RunContext& ctx) {
  const Tensor& x = ctx.in(0);
  const int64_t inner = Product(x.dims, 2);
  const int64_t outer = x.dims[0] * x.dims[1];
  const auto in = ToDoubles(x);
  std::vector<double> out(static_cast<size_t>(outer), 0.0);
  for (int64_t o = 0; o < outer; ++o) {
    double sum = 0;
    for (int64_t i = 0; i < inner; ++i) sum += in[static_cast<size_t>(o * inner + i)];
    out[static_cast<size_t>(o)] = inner > 0 ? sum / static_cast<double>(inner) : 0.0;
  }
  FromDoubles(out, ctx.out(0));
  return Status::Ok();
}

}  // namespace

void RegisterPoolOps(OpRegistry& registry) {
  const std::vector<DataType> max_types = {DataType::kFloat16, DataType::kFloat, DataType::kDouble,
                                           DataType::kInt8,    DataType::kInt16, DataType::kInt32,
                                           DataType::kInt64,   DataType::kUint8, DataType::kUint16};
  const std::vector<DataType> avg_types = {DataType::kFloat16, DataType::kFloat, DataType::kDouble};
  registry.Add(PoolOp("MaxPool", max_types, {true, PoolKind::kMax}));
  registry.Add(PoolOp("AvgPool", avg_types, {true, PoolKind::kAvg}));
  registry.Add(PoolOp("MaxPoolV3", max_types, {false, PoolKind::kMax}));
  registry.Add(PoolOp("AvgPoolV2", avg_types, {false, PoolKind::kAvg}));

  OpDef global_avg;
  global_avg.type = "GlobalAveragePool";
  global_avg.inputs = {In("x", avg_types)};
  global_avg.outputs = {Out("y", avg_types)};
  global_avg.infer = InferGlobalAveragePool;
  global_avg.run = RunGlobalAveragePool;
  registry.Add(std::move(global_avg));
}

}  // namespace aclsim::ops
