// Transposed convolution on the cube unit (cann_ops.md 1E): Conv2DTranspose, as one Eigen
// GEMM per image and group (col = W_g^T x X_g) followed by col2im, computed in float and
// rounded once.
//
// Prototype (GE25 REG_OP): input_size, x, filter, bias?, offset_w? -> y; strides:ListInt (req),
// pads:ListInt (req, [top, bottom, left, right]), dilations:ListInt={1,1,1,1}, groups:Int=1,
// data_format:String="NHWC", output_padding:ListInt={0,0,0,0}, offset_x:Int=0.
// input_size (a value input) is y's shape in data_format order; output position
// oh = ih * stride - pad_top + kh * dilation (rows beyond it, e.g. output_padding, only get
// the bias). Filter layouts: NCHW (or ND with NCHW data) = [Cin, Cout/groups, kH, kW] (ONNX
// ConvTranspose's W); HWCN (or ND with NHWC data) = [kH, kW, Cout/groups, Cin].
// Dtypes: f16, f32, bf16 (int8 with offset_w is not simulated).
#include <Eigen/Dense>
#include <algorithm>

#include "ops/op_group.h"
#include "ops/work_builders.h"

namespace aclsim::ops {

namespace {

struct DeconvGeom {
  bool nhwc = false;
  bool hwcn_filter = false;
  int64_t n = 0, cin = 0, h = 0, w = 0;
  int64_t cout = 0, ho = 0, wo = 0, kh = 0, kw = 0;
  int64_t groups = 1;
  int64_t sh = 1, sw = 1, dh = 1, dw = 1, pt = 0, pl = 0;
};

Status GeomFail(const OpContext* ctx, StatusCode code, const std::string& msg) {
  if (ctx != nullptr) return ctx->Fail(code, "{}", msg);
  return Status(code, msg);
}

// ctx may be null (work function / run: the call was checked by infer).
Result<DeconvGeom> GeomOf(const OpContext* ctx, const AttrReader& attrs,
                          const std::vector<int64_t>& size, const TensorDesc& x_desc,
                          const TensorDesc& f_desc) {
  DeconvGeom g;
  const std::string& format = attrs.GetString("data_format");
  if (format != "NCHW" && format != "NHWC") {
    return GeomFail(
        ctx, StatusCode::kOpAttrNotMatch,
        fmt::format("attribute 'data_format' is \"{}\"; expected NCHW or NHWC", format));
  }
  g.nhwc = format == "NHWC";
  const auto& x = x_desc.dims;
  const auto& f = f_desc.dims;
  if (size.size() != 4) {
    return GeomFail(
        ctx, StatusCode::kOpInputNotMatch,
        fmt::format("input 0 (input_size) must hold 4 values but holds {}", size.size()));
  }
  if (x.size() != 4 || f.size() != 4) {
    return GeomFail(
        ctx, StatusCode::kOpInputNotMatch,
        fmt::format("x [{}] and filter [{}] must be 4-D", fmt::join(x, ", "), fmt::join(f, ", ")));
  }
  g.n = x[0];
  g.cin = g.nhwc ? x[3] : x[1];
  g.h = g.nhwc ? x[1] : x[2];
  g.w = g.nhwc ? x[2] : x[3];
  g.cout = g.nhwc ? size[3] : size[1];
  g.ho = g.nhwc ? size[1] : size[2];
  g.wo = g.nhwc ? size[2] : size[3];
  g.hwcn_filter = f_desc.format == Format::kHwcn || (f_desc.format != Format::kNchw && g.nhwc);
  const int64_t f_cin = g.hwcn_filter ? f[3] : f[0];
  const int64_t f_cout = g.hwcn_filter ? f[2] : f[1];
  g.kh = g.hwcn_filter ? f[0] : f[2];
  g.kw = g.hwcn_filter ? f[1] : f[3];
  g.groups = attrs.GetInt("groups");
  if (g.groups < 1 || g.cin % g.groups != 0) {
    return GeomFail(
        ctx, StatusCode::kOpAttrNotMatch,
        fmt::format("attribute 'groups' is {}; it must divide x's {} channels", g.groups, g.cin));
  }
  if (size[0] != g.n || f_cin != g.cin || f_cout * g.groups != g.cout) {
    return GeomFail(
        ctx, StatusCode::kOpInputNotMatch,
        fmt::format("filter [{}] does not match x [{}] and input_size [{}] "
                    "(groups {})",
                    fmt::join(f, ", "), fmt::join(x, ", "), fmt::join(size, ", "), g.groups));
  }
  const auto& strides = attrs.GetInts("strides");
  const auto& pads = attrs.GetInts("pads");
  const auto& dilations = attrs.GetInts("dilations");
  if (strides.size() != 4 || pads.size() != 4 || dilations.size() != 4) {
    return GeomFail(ctx, StatusCode::kOpAttrNotMatch,
                    "attributes 'strides', 'pads' and 'dilations' must have 4 values");
  }
  g.sh = g.nhwc ? strides[1] : strides[2];
  g.sw = g.nhwc ? strides[2] : strides[3];
  g.dh = g.nhwc ? dilations[1] : dilations[2];
  g.dw = g.nhwc ? dilations[2] : dilations[3];
  g.pt = pads[0];
  g.pl = pads[2];
  if (g.sh < 1 || g.sw < 1 || g.dh < 1 || g.dw < 1) {
    return GeomFail(ctx, StatusCode::kOpAttrNotMatch, "strides and dilations must be >= 1");
  }
  if (g.ho < 0 || g.wo < 0 || g.cout < 0) {
    return GeomFail(ctx, StatusCode::kOpInputNotMatch,
                    fmt::format("input_size [{}] has a negative dimension", fmt::join(size, ", ")));
  }
  return g;
}

Status Infer(OpContext& ctx) {
  ACLSIM_ASSIGN_OR_RETURN(auto size, ctx.InputInts(0));
  ACLSIM_ASSIGN_OR_RETURN(DeconvGeom g, GeomOf(&ctx, ctx, size, ctx.input(1), ctx.input(2)));
  if (ctx.has_input(3)) {
    const auto& bias = ctx.input(3).dims;
    if (bias.size() != 1 || bias[0] != g.cout) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} shape [{}] must be [{}]", ctx.InputName(3),
                      fmt::join(bias, ", "), g.cout);
    }
  }
  ctx.SetOutput(0, ctx.input(1).dtype, size);
  return Status::Ok();
}

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

Status Run(RunContext& ctx) {
  const Tensor& x = ctx.in(1);
  const Tensor& f = ctx.in(2);
  Tensor& y = ctx.out(0);
  TensorDesc x_desc;
  x_desc.dims = x.dims;
  TensorDesc f_desc;
  f_desc.dims = f.dims;
  f_desc.format = ctx.call().inputs[2].format;
  auto geom = GeomOf(nullptr, ctx, y.dims, x_desc, f_desc);
  if (!geom.ok()) return geom.status();
  const DeconvGeom& g = geom.value();
  const std::vector<float> xv = ToFloats(x);
  const std::vector<float> fv = ToFloats(f);
  const int64_t cin_g = g.cin / g.groups;
  const int64_t cout_g = g.cout / g.groups;
  const int64_t pix = g.h * g.w;
  const int64_t taps = g.kh * g.kw;
  // Per group: W_g as [cin_g, cout_g * kh * kw] row-major.
  std::vector<RowMajor> wg(static_cast<size_t>(g.groups), RowMajor(cin_g, cout_g * taps));
  for (int64_t grp = 0; grp < g.groups; ++grp) {
    for (int64_t ci = 0; ci < cin_g; ++ci) {
      for (int64_t co = 0; co < cout_g; ++co) {
        for (int64_t t = 0; t < taps; ++t) {
          const int64_t c_in = grp * cin_g + ci;
          const int64_t i = t / g.kw;
          const int64_t j = t % g.kw;
          const int64_t src = g.hwcn_filter ? ((i * g.kw + j) * cout_g + co) * g.cin + c_in
                                            : ((c_in * cout_g + co) * g.kh + i) * g.kw + j;
          wg[static_cast<size_t>(grp)](ci, co * taps + t) = fv[static_cast<size_t>(src)];
        }
      }
    }
  }
  std::vector<float> bias(static_cast<size_t>(g.cout), 0.0f);
  if (ctx.has_input(3)) bias = ToFloats(ctx.in(3));
  const int64_t opix = g.ho * g.wo;
  std::vector<float> out(static_cast<size_t>(g.n * g.cout * opix));  // NCHW
  RowMajor xg(cin_g, pix);
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t c = 0; c < g.cout; ++c) {
      std::fill_n(out.begin() + (n * g.cout + c) * opix, opix, bias[static_cast<size_t>(c)]);
    }
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      for (int64_t ci = 0; ci < cin_g; ++ci) {
        const int64_t c = grp * cin_g + ci;
        for (int64_t p = 0; p < pix; ++p) {
          const int64_t src = g.nhwc ? (n * pix + p) * g.cin + c : (n * g.cin + c) * pix + p;
          xg(ci, p) = xv[static_cast<size_t>(src)];
        }
      }
      const RowMajor col = wg[static_cast<size_t>(grp)].transpose() * xg;  // [cout_g*taps, pix]
      for (int64_t co = 0; co < cout_g; ++co) {
        float* plane = out.data() + (n * g.cout + grp * cout_g + co) * opix;
        for (int64_t t = 0; t < taps; ++t) {
          const int64_t i = t / g.kw;
          const int64_t j = t % g.kw;
          for (int64_t ih = 0; ih < g.h; ++ih) {
            const int64_t oh = ih * g.sh - g.pt + i * g.dh;
            if (oh < 0 || oh >= g.ho) continue;
            for (int64_t iw = 0; iw < g.w; ++iw) {
              const int64_t ow = iw * g.sw - g.pl + j * g.dw;
              if (ow < 0 || ow >= g.wo) continue;
              plane[oh * g.wo + ow] += col(co * taps + t, ih * g.w + iw);
            }
          }
        }
      }
    }
  }
  if (g.nhwc) {
    std::vector<float> nhwc(out.size());
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t c = 0; c < g.cout; ++c) {
        for (int64_t p = 0; p < opix; ++p) {
          nhwc[static_cast<size_t>((n * opix + p) * g.cout + c)] =
              out[static_cast<size_t>((n * g.cout + c) * opix + p)];
        }
      }
    }
    out.swap(nhwc);
  }
  FromFloats(out, y);
  return Status::Ok();
}

driver::KernelWork Work(const OpContext& ctx, const driver::DeviceProps&, uint32_t* blocks) {
  driver::DtypeClass dtype = driver::DtypeClass::kFp32;
  if (ctx.input(1).dtype == DataType::kFloat16) dtype = driver::DtypeClass::kFp16;
  if (ctx.input(1).dtype == DataType::kBf16) dtype = driver::DtypeClass::kBf16;
  auto size = ctx.InputInts(0);
  if (!size.ok()) return MatmulWork(1, 1, 1, dtype, blocks);
  auto g = GeomOf(nullptr, ctx, size.value(), ctx.input(1), ctx.input(2));
  if (!g.ok()) return MatmulWork(1, 1, 1, dtype, blocks);
  const DeconvGeom& geom = g.value();
  const uint64_t m = static_cast<uint64_t>(std::max<int64_t>(1, geom.n * geom.h * geom.w));
  const uint64_t n = static_cast<uint64_t>(std::max<int64_t>(1, geom.cout * geom.kh * geom.kw));
  const uint64_t k = static_cast<uint64_t>(std::max<int64_t>(1, geom.cin / geom.groups));
  return MatmulWork(m, n, k, dtype, blocks);
}

}  // namespace

void RegisterConvTransposeOps(OpRegistry& registry) {
  const std::vector<DataType> x_types = {DataType::kFloat16, DataType::kFloat, DataType::kBf16};
  OpDef def;
  def.type = "Conv2DTranspose";
  def.inputs = {In("input_size", IndexTypes()), In("x", x_types), In("filter", x_types),
                OptIn("bias", {DataType::kFloat16, DataType::kFloat, DataType::kBf16}),
                OptIn("offset_w", {DataType::kInt8})};
  def.outputs = {Out("y", x_types)};
  def.attrs = {ReqAttr("strides", AttrType::kListInt),
               ReqAttr("pads", AttrType::kListInt),
               OptAttr("dilations", AttrType::kListInt, std::vector<int64_t>{1, 1, 1, 1}),
               OptAttr("groups", AttrType::kInt, int64_t{1}),
               OptAttr("data_format", AttrType::kString, std::string("NHWC")),
               OptAttr("output_padding", AttrType::kListInt, std::vector<int64_t>{0, 0, 0, 0}),
               OptAttr("offset_x", AttrType::kInt, int64_t{0})};
  def.engine = driver::Engine::kAiCore;
  def.value_inputs = {0};
  def.infer = Infer;
  def.run = Run;
  def.work = Work;
  registry.Add(std::move(def));
}

}  // namespace aclsim::ops
