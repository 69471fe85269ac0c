// Convolution on the cube unit (cann_ops.md 1E): Conv2D and DepthwiseConv2D, as im2col plus
// one Eigen GEMM per image and group. fp16/bf16/fp32 compute in float, int8 in int64
// (x - offset_x); the output is rounded once.
#include <Eigen/Dense>
#include <algorithm>

#include "ops/kernels.h"
#include "ops/op_group.h"
#include "ops/work_builders.h"

namespace aclsim::ops {

namespace {

// Geometry of one 2-D convolution.
struct Conv2DGeom {
  bool nhwc = false;
  int64_t n = 0, cin = 0, h = 0, w = 0;
  int64_t cout = 0, kh = 0, kw = 0;
  int64_t groups = 1;
  int64_t sh = 1, sw = 1, dh = 1, dw = 1;
  int64_t pt = 0, pb = 0, pl = 0, pr = 0;
  int64_t ho = 0, wo = 0;
  // Filter layout: 'O' = OIHW (NCHW), 'H' = HWCN, 'N' = OHWI (NHWC).
  char filter_layout = 'O';
  int64_t filter_in = 0;  // the filter's input-channel dim (Cin / groups)

  std::vector<int64_t> OutDims() const {
    return nhwc ? std::vector<int64_t>{n, ho, wo, cout} : std::vector<int64_t>{n, cout, ho, wo};
  }
};

Status ConvFail(const OpContext* ctx, StatusCode code, std::string msg) {
  if (ctx != nullptr) return ctx->Fail(code, "{}", msg);
  return Status(code, std::move(msg));
}

// depthwise: the filter holds [kh, kw, Cin, multiplier] (HWCN) or [multiplier, Cin, kh, kw]
// (NCHW) and groups = Cin.
Result<Conv2DGeom> ConvGeomOf(const OpContext* ctx, const AttrReader& attrs,
                              const TensorDesc& x_desc, const TensorDesc& f_desc, bool depthwise) {
  Conv2DGeom g;
  const std::string& format = attrs.GetString("data_format");
  if (format != "NCHW" && format != "NHWC") {
    return ConvFail(
        ctx, StatusCode::kOpAttrNotMatch,
        fmt::format("attribute 'data_format' is \"{}\"; expected NCHW or NHWC", format));
  }
  g.nhwc = format == "NHWC";
  const auto& x = x_desc.dims;
  const auto& f = f_desc.dims;
  if (x.size() != 4) {
    return ConvFail(
        ctx, StatusCode::kOpInputNotMatch,
        fmt::format("input 0 (x) must be 4-D ({}) but has shape [{}]", format, fmt::join(x, ", ")));
  }
  if (f.size() != 4) {
    return ConvFail(
        ctx, StatusCode::kOpInputNotMatch,
        fmt::format("input 1 (filter) must be 4-D but has shape [{}]", fmt::join(f, ", ")));
  }
  g.n = x[0];
  g.cin = g.nhwc ? x[3] : x[1];
  g.h = g.nhwc ? x[1] : x[2];
  g.w = g.nhwc ? x[2] : x[3];
  switch (f_desc.format) {
    case Format::kNchw:
      g.filter_layout = 'O';
      break;
    case Format::kHwcn:
      g.filter_layout = 'H';
      break;
    case Format::kNhwc:
      g.filter_layout = 'N';
      break;
    default:  // ND / unspecified: the layout that goes with data_format
      g.filter_layout = g.nhwc ? 'H' : 'O';
      break;
  }
  int64_t f_out = 0;
  switch (g.filter_layout) {
    case 'O':
      f_out = f[0], g.filter_in = f[1], g.kh = f[2], g.kw = f[3];
      break;
    case 'H':
      g.kh = f[0], g.kw = f[1], g.filter_in = f[2], f_out = f[3];
      break;
    default:
      f_out = f[0], g.kh = f[1], g.kw = f[2], g.filter_in = f[3];
      break;
  }
  const char* layout_name = g.filter_layout == 'O'   ? "OIHW"
                            : g.filter_layout == 'H' ? "HWCN"
                                                     : "OHWI";
  if (depthwise) {
    // [.., Cin, multiplier]: in HWCN the C dim is Cin and N the multiplier; in OIHW
    // the depthwise filter is [multiplier, Cin, kh, kw].
    if (g.filter_in != g.cin) {
      return ConvFail(ctx, StatusCode::kOpInputNotMatch,
                      fmt::format("input 1 (filter) shape [{}] ({}) has {} input channels but x "
                                  "has {}",
                                  fmt::join(f, ", "), layout_name, g.filter_in, g.cin));
    }
    g.groups = g.cin;
    g.cout = g.cin * f_out;
    g.filter_in = 1;
  } else {
    g.groups = attrs.GetInt("groups");
    if (g.groups < 1 || g.cin % g.groups != 0) {
      return ConvFail(ctx, StatusCode::kOpAttrNotMatch,
                      fmt::format("attribute 'groups' = {} must be >= 1 and divide the {} input "
                                  "channels",
                                  g.groups, g.cin));
    }
    g.cout = f_out;
    if (g.filter_in * g.groups != g.cin) {
      return ConvFail(ctx, StatusCode::kOpInputNotMatch,
                      fmt::format("input 1 (filter) shape [{}] ({}) has {} input channels; x has "
                                  "{} channels and groups = {} (expected {})",
                                  fmt::join(f, ", "), layout_name, g.filter_in, g.cin, g.groups,
                                  g.cin / g.groups));
    }
    if (g.cout % g.groups != 0) {
      return ConvFail(ctx, StatusCode::kOpAttrNotMatch,
                      fmt::format("attribute 'groups' = {} does not divide the {} output channels",
                                  g.groups, g.cout));
    }
  }
  const size_t hi = g.nhwc ? 1 : 2;
  const size_t ci = g.nhwc ? 3 : 1;
  for (const char* name : {"strides", "dilations"}) {
    const auto& v = attrs.GetInts(name);
    if (v.size() != 4) {
      return ConvFail(ctx, StatusCode::kOpAttrNotMatch,
                      fmt::format("attribute '{}' must have 4 values (in {} order) but has {}",
                                  name, format, v.size()));
    }
    if (v[hi] < 1 || v[hi + 1] < 1 || v[0] != 1 || v[ci] != 1) {
      return ConvFail(ctx, StatusCode::kOpAttrNotMatch,
                      fmt::format("attribute '{}' = [{}]: H and W values must be >= 1 and the N "
                                  "and C values 1 ({} order)",
                                  name, fmt::join(v, ", "), format));
    }
  }
  g.sh = attrs.GetInts("strides")[hi];
  g.sw = attrs.GetInts("strides")[hi + 1];
  g.dh = attrs.GetInts("dilations")[hi];
  g.dw = attrs.GetInts("dilations")[hi + 1];
  const auto& pads = attrs.GetInts("pads");
  if (pads.size() != 4 || *std::min_element(pads.begin(), pads.end()) < 0) {
    return ConvFail(ctx, StatusCode::kOpAttrNotMatch,
                    fmt::format("attribute 'pads' = [{}] must be 4 values >= 0 [top, bottom, left, "
                                "right]",
                                fmt::join(pads, ", ")));
  }
  g.pt = pads[0];
  g.pb = pads[1];
  g.pl = pads[2];
  g.pr = pads[3];
  // Saturating: a window or padding past int64 gives a dim the size check refuses.
  const int64_t eff_h = SaturatingAdd(SaturatingMul(g.dh, g.kh - 1), 1);
  const int64_t eff_w = SaturatingAdd(SaturatingMul(g.dw, g.kw - 1), 1);
  const int64_t padded_h = SaturatingAdd(SaturatingAdd(g.h, g.pt), g.pb);
  const int64_t padded_w = SaturatingAdd(SaturatingAdd(g.w, g.pl), g.pr);
  const int64_t span_h = SaturatingSub(padded_h, eff_h);
  const int64_t span_w = SaturatingSub(padded_w, eff_w);
  if (g.kh < 1 || g.kw < 1 || span_h < 0 || span_w < 0) {
    return ConvFail(ctx, StatusCode::kOpInputNotMatch,
                    fmt::format("input 1 (filter) window [{}, {}] (dilated [{}, {}]) is larger "
                                "than the padded input [{}, {}]",
                                g.kh, g.kw, eff_h, eff_w, padded_h, padded_w));
  }
  g.ho = SaturatingAdd(span_h / g.sh, 1);
  g.wo = SaturatingAdd(span_w / g.sw, 1);
  return g;
}

InferFn ConvInfer(bool depthwise) {
  return [depthwise](OpContext& ctx) -> Status {
    const auto& x = ctx.input(0);
    const auto& f = ctx.input(1);
    if (x.dtype != f.dtype) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} is {} but {} is {}; they must match",
                      ctx.InputName(1), DataTypeName(f.dtype), ctx.InputName(0),
                      DataTypeName(x.dtype));
    }
    ACLSIM_ASSIGN_OR_RETURN(auto g, ConvGeomOf(&ctx, ctx, x, f, depthwise));
    if (ctx.has_input(2) && ctx.input(2).ElementCount() != g.cout) {
      return ctx.Fail(StatusCode::kOpInputNotMatch,
                      "{} must have {} elements (one per output channel) but has shape [{}]",
                      ctx.InputName(2), g.cout, fmt::join(ctx.input(2).dims, ", "));
    }
    ctx.SetOutput(0, ConvOutType(x.dtype), g.OutDims(), x.format);
    return Status::Ok();
  };
}

// Filter as [groups][Cout/groups][Cin/groups * kh * kw] (OIHW per group), in Acc.
template <typename Acc>
std::vector<Acc> FilterToOihw(const std::vector<Acc>& f, const Conv2DGeom& g, bool depthwise) {
  const int64_t ci = g.filter_in;
  std::vector<Acc> out(static_cast<size_t>(g.cout * ci * g.kh * g.kw));
  // Source dims of the stored filter.
  const int64_t f_out = depthwise ? g.cout / g.cin : g.cout;
  const int64_t f_in = depthwise ? g.cin : g.filter_in;
  for (int64_t o = 0; o < f_out; ++o) {
    for (int64_t i = 0; i < f_in; ++i) {
      for (int64_t y = 0; y < g.kh; ++y) {
        for (int64_t x = 0; x < g.kw; ++x) {
          int64_t src = 0;
          switch (g.filter_layout) {
            case 'O':
              src = ((o * f_in + i) * g.kh + y) * g.kw + x;
              break;
            case 'H':
              src = ((y * g.kw + x) * f_in + i) * f_out + o;
              break;
            default:
              src = ((o * g.kh + y) * g.kw + x) * f_in + i;
              break;
          }
          // Depthwise: output channel i * multiplier + o reads input channel i.
          const int64_t oc = depthwise ? i * f_out + o : o;
          const int64_t ic = depthwise ? 0 : i;
          out[static_cast<size_t>(((oc * ci + ic) * g.kh + y) * g.kw + x)] =
              f[static_cast<size_t>(src)];
        }
      }
    }
  }
  return out;
}

template <typename Acc>
Status RunConvAcc(RunContext& ctx, bool depthwise) {
  const auto& call = ctx.call();
  ACLSIM_ASSIGN_OR_RETURN(auto g,
                          ConvGeomOf(nullptr, ctx, call.inputs[0], call.inputs[1], depthwise));
  std::vector<Acc> x = LoadAcc<Acc>(ctx.in(0));
  if constexpr (std::is_integral_v<Acc>) {
    const Acc offset_x = static_cast<Acc>(ctx.GetInt("offset_x"));
    for (auto& v : x) v -= offset_x;
  }
  const auto filter = FilterToOihw(LoadAcc<Acc>(ctx.in(1)), g, depthwise);
  using Mat = Eigen::Matrix<Acc, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const int64_t cg = g.cin / g.groups;
  const int64_t og = g.cout / g.groups;
  const int64_t kdim = cg * g.kh * g.kw;
  const int64_t pix = g.ho * g.wo;
  std::vector<Acc> out(static_cast<size_t>(g.n * g.cout * pix), Acc{0});  // NCHW
  Mat col(kdim, pix);
  auto x_at = [&](int64_t n, int64_t c, int64_t y, int64_t xx) {
    const int64_t idx =
        g.nhwc ? ((n * g.h + y) * g.w + xx) * g.cin + c : ((n * g.cin + c) * g.h + y) * g.w + xx;
    return x[static_cast<size_t>(idx)];
  };
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      for (int64_t c = 0; c < cg; ++c) {
        for (int64_t ky = 0; ky < g.kh; ++ky) {
          for (int64_t kx = 0; kx < g.kw; ++kx) {
            const int64_t row = (c * g.kh + ky) * g.kw + kx;
            for (int64_t oy = 0; oy < g.ho; ++oy) {
              const int64_t iy = oy * g.sh - g.pt + ky * g.dh;
              for (int64_t ox = 0; ox < g.wo; ++ox) {
                const int64_t ix = ox * g.sw - g.pl + kx * g.dw;
                col(row, oy * g.wo + ox) = iy >= 0 && iy < g.h && ix >= 0 && ix < g.w
                                               ? x_at(n, grp * cg + c, iy, ix)
                                               : Acc{0};
              }
            }
          }
        }
      }
      Eigen::Map<const Mat> wmat(filter.data() + grp * og * kdim, og, kdim);
      Eigen::Map<Mat> omat(out.data() + (n * g.cout + grp * og) * pix, og, pix);
      if (kdim > 0 && pix > 0 && og > 0) omat.noalias() = wmat * col;
    }
  }
  if (ctx.has_input(2)) {
    const auto bias = LoadAcc<Acc>(ctx.in(2));
    for (int64_t i = 0; i < static_cast<int64_t>(out.size()); ++i) {
      out[static_cast<size_t>(i)] += bias[static_cast<size_t>((i / pix) % g.cout)];
    }
  }
  // NCHW -> output layout, rounded once.
  const Tensor& y = ctx.out(0);
  return DispatchType(y.dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    T* py = y.ptr<T>();
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t c = 0; c < g.cout; ++c) {
        for (int64_t p = 0; p < pix; ++p) {
          const int64_t src = (n * g.cout + c) * pix + p;
          const int64_t dst = g.nhwc ? (n * pix + p) * g.cout + c : src;
          py[dst] = FromCompute<T>(out[static_cast<size_t>(src)]);
        }
      }
    }
    return Status::Ok();
  });
}

RunFn ConvRun(bool depthwise) {
  return [depthwise](RunContext& ctx) -> Status {
    if (ctx.in(0).dtype == DataType::kInt8) return RunConvAcc<int64_t>(ctx, depthwise);
    return RunConvAcc<float>(ctx, depthwise);
  };
}

WorkFn ConvWork(bool depthwise) {
  return [depthwise](const OpContext& ctx, const driver::DeviceProps&, uint32_t* blocks) {
    auto g = ConvGeomOf(nullptr, ctx, ctx.input(0), ctx.input(1), depthwise);
    driver::DtypeClass dtype = driver::DtypeClass::kFp32;
    switch (ctx.input(0).dtype) {
      case DataType::kFloat16:
        dtype = driver::DtypeClass::kFp16;
        break;
      case DataType::kBf16:
        dtype = driver::DtypeClass::kBf16;
        break;
      case DataType::kInt8:
        dtype = driver::DtypeClass::kInt8;
        break;
      default:
        break;
    }
    if (!g.ok()) return MatmulWork(1, 1, 1, dtype, blocks);
    const auto& geom = g.value();
    const uint64_t m = static_cast<uint64_t>(std::max<int64_t>(1, geom.n * geom.ho * geom.wo));
    const uint64_t n = static_cast<uint64_t>(std::max<int64_t>(1, geom.cout));
    const uint64_t k =
        static_cast<uint64_t>(std::max<int64_t>(1, geom.cin / geom.groups * geom.kh * geom.kw));
    return MatmulWork(m, n, k, dtype, blocks);
  };
}

}  // namespace

void RegisterConvOps(OpRegistry& registry) {
  const std::vector<DataType> x_types = {DataType::kFloat16, DataType::kFloat, DataType::kInt8,
                                         DataType::kBf16};
  const std::vector<DataType> bias_types = {DataType::kFloat16, DataType::kFloat, DataType::kInt32,
                                            DataType::kBf16};
  const std::vector<DataType> y_types = {DataType::kFloat16, DataType::kFloat, DataType::kInt32,
                                         DataType::kBf16};

  OpDef conv;
  conv.type = "Conv2D";
  conv.inputs = {In("x", x_types), In("filter", x_types), OptIn("bias", bias_types),
                 OptIn("offset_w", {DataType::kInt8})};
  conv.outputs = {Out("y", y_types)};
  conv.attrs = {ReqAttr("strides", AttrType::kListInt),
                ReqAttr("pads", AttrType::kListInt),
                OptAttr("dilations", AttrType::kListInt, std::vector<int64_t>{1, 1, 1, 1}),
                OptAttr("groups", AttrType::kInt, int64_t{1}),
                OptAttr("data_format", AttrType::kString, std::string("NHWC")),
                OptAttr("offset_x", AttrType::kInt, int64_t{0})};
  conv.engine = driver::Engine::kAiCore;
  conv.infer = ConvInfer(false);
  conv.run = ConvRun(false);
  conv.work = ConvWork(false);
  registry.Add(std::move(conv));

  OpDef depthwise;
  depthwise.type = "DepthwiseConv2D";
  depthwise.inputs = {In("x", x_types), In("filter", x_types), OptIn("bias", bias_types),
                      OptIn("offset_w", {DataType::kInt8})};
  depthwise.outputs = {Out("y", y_types)};
  depthwise.attrs = {ReqAttr("strides", AttrType::kListInt),
                     OptAttr("dilations", AttrType::kListInt, std::vector<int64_t>{1, 1, 1, 1}),
                     ReqAttr("pads", AttrType::kListInt),
                     OptAttr("data_format", AttrType::kString, std::string("NHWC")),
                     OptAttr("offset_x", AttrType::kInt, int64_t{0})};
  depthwise.engine = driver::Engine::kAiCore;
  depthwise.infer = ConvInfer(true);
  depthwise.run = ConvRun(true);
  depthwise.work = ConvWork(true);
  registry.Add(std::move(depthwise));
}

}  // namespace aclsim::ops
