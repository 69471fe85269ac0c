// 3-D convolution on the cube unit (cann_ops.md 1E): Conv3D as im2col plus one Eigen GEMM per
// image and group; Conv3DTranspose as one Eigen GEMM per image and group (col = W_g^T x X_g)
// followed by col2im. fp16/bf16/fp32 compute in float, int8 (Conv3D) in int64 (x - offset_x);
// the output is rounded once.
//
// Conv3D: x, filter, bias?, offset_w? -> y; strides (req) and dilations={1,1,1,1,1}: 5 values
// in data_format order with N = C = 1; pads (req): [head, tail, top, bottom, left, right];
// groups=1; data_format="NDHWC"; offset_x=0. Filter layouts: NCDHW (or ND with NCDHW data) =
// [Cout, Cin/groups, kD, kH, kW] (ONNX Conv's W); NDHWC = [Cout, kD, kH, kW, Cin/groups]; ND
// with NDHWC data = DHWCN [kD, kH, kW, Cin/groups, Cout].
// Conv3DTranspose: input_size (5 values, y's shape in data_format order), x, filter, bias?,
// offset_w? -> y; strides, pads (req), dilations, groups, data_format as Conv3D;
// output_padding={0,0,0,0,0} and offset_x=0 (output_padding is implied by input_size). Output
// position o = i * stride - pad_begin + tap * dilation. Filter: NCDHW (or ND with NCDHW data) =
// [Cin, Cout/groups, kD, kH, kW] (ONNX ConvTranspose's W); NDHWC = [Cin, kD, kH, kW,
// Cout/groups]; ND with NDHWC data = DHWCN [kD, kH, kW, Cout/groups, Cin].
#include <Eigen/Dense>
#include <algorithm>

#include "ops/kernels.h"
#include "ops/op_group.h"
#include "ops/window3d.h"
#include "ops/work_builders.h"

namespace aclsim::ops {

namespace {

// 'O': [A, B, kD, kH, kW]; 'N': [A, kD, kH, kW, B]; 'D': [kD, kH, kW, B, A], where A is the
// filter's first logical dim (Cout of Conv3D, Cin of Conv3DTranspose) and B its second.
char FilterLayoutOf(Format format, const Layout5d& layout) {
  if (format == Format::kNcdhw) return 'O';
  if (format == Format::kNdhwc) return 'N';
  return layout.ndhwc ? 'D' : 'O';
}

void FilterDims(const std::vector<int64_t>& f, char layout, int64_t* a, int64_t* b, Dims3* k) {
  switch (layout) {
    case 'O':
      *a = f[0];
      *b = f[1];
      *k = {f[2], f[3], f[4]};
      break;
    case 'N':
      *a = f[0];
      *k = {f[1], f[2], f[3]};
      *b = f[4];
      break;
    default:
      *k = {f[0], f[1], f[2]};
      *b = f[3];
      *a = f[4];
      break;
  }
}

// Index of the filter element (a, b, tap) for dims a_n x b_n x k.
int64_t FilterIndex(char layout, int64_t a, int64_t b, int64_t tap, int64_t a_n, int64_t b_n,
                    int64_t taps) {
  switch (layout) {
    case 'O':
      return (a * b_n + b) * taps + tap;
    case 'N':
      return (a * taps + tap) * b_n + b;
    default:
      return (tap * b_n + b) * a_n + a;
  }
}

struct Conv3DGeom {
  Layout5d layout;
  char filter_layout = 'O';
  int64_t n = 0, cin = 0, cout = 0, groups = 1;
  Dims3 in{}, k{}, s{}, d{}, pb{}, pe{}, out{};

  int64_t Taps() const { return k[0] * k[1] * k[2]; }
  int64_t InPix() const { return in[0] * in[1] * in[2]; }
  int64_t OutPix() const { return out[0] * out[1] * out[2]; }
  std::vector<int64_t> OutDims() const { return layout.Shape(n, cout, out); }
};

// Reads layout, strides, dilations, pads and groups; checks x and filter are 5-D with known
// dims (N may be unknown at convert time).
Status CommonGeom(const OpContext* ctx, const AttrReader& attrs, const TensorDesc& x_desc,
                  const TensorDesc& f_desc, Conv3DGeom* g) {
  auto layout = Layout5d::Of(attrs.GetString("data_format"));
  if (!layout.ok()) return WindowFail(ctx, layout.status());
  g->layout = layout.value();
  const auto& x = x_desc.dims;
  const auto& f = f_desc.dims;
  bool known = x.size() == 5 && f.size() == 5;
  for (size_t i = 0; known && i < 5; ++i) known = (i == 0 || x[i] >= 0) && f[i] >= 0;
  if (!known) {
    return WindowFail(ctx, StatusCode::kOpInputNotMatch,
                      fmt::format("input 0 (x) [{}] and input 1 (filter) [{}] must be 5-D with "
                                  "known dims",
                                  fmt::join(x, ", "), fmt::join(f, ", ")));
  }
  g->n = x[0];
  g->cin = g->layout.Channels(x);
  g->in = g->layout.Spatial(x);
  g->filter_layout = FilterLayoutOf(f_desc.format, g->layout);
  auto s = SpatialAttr(attrs, "strides", g->layout, 1, false);
  if (!s.ok()) return WindowFail(ctx, s.status());
  auto d = SpatialAttr(attrs, "dilations", g->layout, 1, false);
  if (!d.ok()) return WindowFail(ctx, d.status());
  g->s = s.value();
  g->d = d.value();
  Status pads = PadsAttr(attrs, "pads", &g->pb, &g->pe);
  if (!pads.ok()) return WindowFail(ctx, pads);
  g->groups = attrs.GetInt("groups");
  if (g->groups < 1 || g->cin % g->groups != 0) {
    return WindowFail(ctx, StatusCode::kOpAttrNotMatch,
                      fmt::format("attribute 'groups' = {} must be >= 1 and divide the {} input "
                                  "channels",
                                  g->groups, g->cin));
  }
  return Status::Ok();
}

Result<Conv3DGeom> ConvGeomOf(const OpContext* ctx, const AttrReader& attrs,
                              const TensorDesc& x_desc, const TensorDesc& f_desc) {
  Conv3DGeom g;
  ACLSIM_RETURN_IF_ERROR(CommonGeom(ctx, attrs, x_desc, f_desc, &g));
  int64_t f_in = 0;
  FilterDims(f_desc.dims, g.filter_layout, &g.cout, &f_in, &g.k);
  if (f_in * g.groups != g.cin || g.cout % g.groups != 0) {
    return WindowFail(
        ctx, StatusCode::kOpInputNotMatch,
        fmt::format("input 1 (filter) [{}] has {} output and {} input channels; x "
                    "has {} channels and groups = {} (both must divide by groups "
                    "and input channels be {})",
                    fmt::join(f_desc.dims, ", "), g.cout, f_in, g.cin, g.groups, g.cin / g.groups));
  }
  for (size_t i = 0; i < 3; ++i) {
    int64_t padded = 0;
    if (__builtin_add_overflow(g.in[i], g.pb[i] + g.pe[i], &padded)) padded = -1;
    auto extent = DilatedExtent(g.k[i], g.d[i], padded);
    if (padded < 0 || !extent.ok()) {
      return WindowFail(
          ctx, StatusCode::kOpInputNotMatch,
          fmt::format("input 1 (filter) window [{}] with dilations [{}] does not fit "
                      "the padded input [{}] + [{}] + [{}]",
                      fmt::join(g.k, ", "), fmt::join(g.d, ", "), fmt::join(g.in, ", "),
                      fmt::join(g.pb, ", "), fmt::join(g.pe, ", ")));
    }
    g.out[i] = (padded - extent.value()) / g.s[i] + 1;
  }
  std::vector<int64_t> dims = g.OutDims();
  dims[0] = std::max<int64_t>(dims[0], 0);
  auto count = CheckedCount(dims, "output 0 (y)");
  if (!count.ok()) return WindowFail(ctx, count.status());
  return g;
}

Status BiasCheck(const OpContext& ctx, size_t i, int64_t cout) {
  if (ctx.has_input(i) && (ctx.input(i).dims.size() != 1 || ctx.input(i).dims[0] != cout)) {
    return ctx.Fail(StatusCode::kOpInputNotMatch,
                    "{} shape [{}] must be [{}] (one per output "
                    "channel)",
                    ctx.InputName(i), fmt::join(ctx.input(i).dims, ", "), cout);
  }
  return Status::Ok();
}

Status InferConv3D(OpContext& ctx) {
  const auto& x = ctx.input(0);
  if (x.dtype != ctx.input(1).dtype) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} is {} but {} is {}; they must match",
                    ctx.InputName(1), DataTypeName(ctx.input(1).dtype), ctx.InputName(0),
                    DataTypeName(x.dtype));
  }
  ACLSIM_ASSIGN_OR_RETURN(auto g, ConvGeomOf(&ctx, ctx, x, ctx.input(1)));
  ACLSIM_RETURN_IF_ERROR(BiasCheck(ctx, 2, g.cout));
  ctx.SetOutput(0, ConvOutType(x.dtype), g.OutDims(), x.format);
  return Status::Ok();
}

template <typename Acc>
using RowMat = Eigen::Matrix<Acc, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Writes accumulated NCDHW values to y in its layout, rounded once.
template <typename Acc>
Status StoreNcdhw(const std::vector<Acc>& out, const Conv3DGeom& g, int64_t channels,
                  const Dims3& sp, const Tensor& y) {
  const int64_t pix = sp[0] * sp[1] * sp[2];
  return DispatchType(y.dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    T* py = y.ptr<T>();
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t c = 0; c < channels; ++c) {
        for (int64_t p = 0; p < pix; ++p) {
          const int64_t src = (n * channels + c) * pix + p;
          const int64_t dst = g.layout.ndhwc ? (n * pix + p) * channels + c : src;
          py[dst] = FromCompute<T>(out[static_cast<size_t>(src)]);
        }
      }
    }
    return Status::Ok();
  });
}

template <typename Acc>
Status RunConv3DAcc(RunContext& ctx) {
  const auto& call = ctx.call();
  ACLSIM_ASSIGN_OR_RETURN(auto g, ConvGeomOf(nullptr, ctx, call.inputs[0], call.inputs[1]));
  std::vector<Acc> x = LoadAcc<Acc>(ctx.in(0));
  if constexpr (std::is_integral_v<Acc>) {
    const Acc offset_x = static_cast<Acc>(ctx.GetInt("offset_x"));
    for (auto& v : x) v -= offset_x;
  }
  const std::vector<Acc> f = LoadAcc<Acc>(ctx.in(1));
  const int64_t cg = g.cin / g.groups;
  const int64_t og = g.cout / g.groups;
  const int64_t taps = g.Taps();
  const int64_t kdim = cg * taps;
  const int64_t pix = g.OutPix();
  RowMat<Acc> w(g.cout, kdim);  // OIDHW rows
  for (int64_t o = 0; o < g.cout; ++o) {
    for (int64_t i = 0; i < cg; ++i) {
      for (int64_t t = 0; t < taps; ++t) {
        w(o, i * taps + t) =
            f[static_cast<size_t>(FilterIndex(g.filter_layout, o, i, t, g.cout, cg, taps))];
      }
    }
  }
  std::vector<Acc> out(static_cast<size_t>(g.n * g.cout * pix), Acc{0});  // NCDHW
  RowMat<Acc> col(kdim, pix);
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      for (int64_t c = 0; c < cg; ++c) {
        for (int64_t t = 0; t < taps; ++t) {
          const int64_t kz = t / (g.k[1] * g.k[2]);
          const int64_t ky = (t / g.k[2]) % g.k[1];
          const int64_t kx = t % g.k[2];
          const int64_t row = c * taps + t;
          for (int64_t p = 0; p < pix; ++p) {
            const int64_t iz = (p / (g.out[1] * g.out[2])) * g.s[0] - g.pb[0] + kz * g.d[0];
            const int64_t iy = ((p / g.out[2]) % g.out[1]) * g.s[1] - g.pb[1] + ky * g.d[1];
            const int64_t ix = (p % g.out[2]) * g.s[2] - g.pb[2] + kx * g.d[2];
            const bool inside =
                iz >= 0 && iz < g.in[0] && iy >= 0 && iy < g.in[1] && ix >= 0 && ix < g.in[2];
            col(row, p) = inside ? x[static_cast<size_t>(
                                       g.layout.Index(n, grp * cg + c, iz, iy, ix, g.cin, g.in))]
                                 : Acc{0};
          }
        }
      }
      Eigen::Map<RowMat<Acc>> omat(out.data() + (n * g.cout + grp * og) * pix, og, pix);
      if (kdim > 0 && pix > 0 && og > 0) omat.noalias() = w.middleRows(grp * og, og) * col;
    }
  }
  if (ctx.has_input(2)) {
    const auto bias = LoadAcc<Acc>(ctx.in(2));
    for (size_t i = 0; i < out.size(); ++i) {
      out[i] += bias[static_cast<size_t>((static_cast<int64_t>(i) / pix) % g.cout)];
    }
  }
  return StoreNcdhw(out, g, g.cout, g.out, ctx.out(0));
}

Status RunConv3D(RunContext& ctx) {
  if (ctx.in(0).dtype == DataType::kInt8) return RunConv3DAcc<int64_t>(ctx);
  return RunConv3DAcc<float>(ctx);
}

driver::KernelWork WorkConv3D(const OpContext& ctx, const driver::DeviceProps&, uint32_t* blocks) {
  const driver::DtypeClass dtype = DtypeClassOf(ctx.input(0).dtype);
  auto g = ConvGeomOf(nullptr, ctx, ctx.input(0), ctx.input(1));
  if (!g.ok()) return MatmulWork(1, 1, 1, dtype, blocks);
  const auto& geom = g.value();
  const auto m = static_cast<uint64_t>(std::max<int64_t>(1, geom.n * geom.OutPix()));
  const auto n = static_cast<uint64_t>(std::max<int64_t>(1, geom.cout));
  const auto k = static_cast<uint64_t>(std::max<int64_t>(1, geom.cin / geom.groups * geom.Taps()));
  return MatmulWork(m, n, k, dtype, blocks);
}

// ---- Conv3DTranspose

Result<Conv3DGeom> DeconvGeomOf(const OpContext* ctx, const AttrReader& attrs,
                                const std::vector<int64_t>& size, const TensorDesc& x_desc,
                                const TensorDesc& f_desc) {
  Conv3DGeom g;
  ACLSIM_RETURN_IF_ERROR(CommonGeom(ctx, attrs, x_desc, f_desc, &g));
  if (size.size() != 5) {
    return WindowFail(
        ctx, StatusCode::kOpInputNotMatch,
        fmt::format("input 0 (input_size) must hold 5 values but holds {}", size.size()));
  }
  g.cout = g.layout.Channels(size);
  g.out = g.layout.Spatial(size);
  int64_t f_cin = 0;
  int64_t f_cout = 0;
  FilterDims(f_desc.dims, g.filter_layout, &f_cin, &f_cout, &g.k);
  if (size[0] != g.n || f_cin != g.cin || f_cout * g.groups != g.cout) {
    return WindowFail(ctx, StatusCode::kOpInputNotMatch,
                      fmt::format("input 2 (filter) [{}] does not match x [{}] and input_size "
                                  "[{}] (groups {})",
                                  fmt::join(f_desc.dims, ", "), fmt::join(x_desc.dims, ", "),
                                  fmt::join(size, ", "), g.groups));
  }
  for (size_t i = 0; i < 3; ++i) {
    if (g.k[i] < 1 || g.k[i] > kMaxWindowAttr) {
      return WindowFail(ctx, StatusCode::kOpInputNotMatch,
                        fmt::format("input 2 (filter) window [{}] must be in [1, {}]",
                                    fmt::join(g.k, ", "), kMaxWindowAttr));
    }
  }
  auto count = CheckedCount(size, "input 0 (input_size)");
  if (!count.ok()) return WindowFail(ctx, count.status());
  return g;
}

Status InferConv3DTranspose(OpContext& ctx) {
  ACLSIM_ASSIGN_OR_RETURN(auto size, ctx.InputInts(0));
  ACLSIM_ASSIGN_OR_RETURN(auto g, DeconvGeomOf(&ctx, ctx, size, ctx.input(1), ctx.input(2)));
  ACLSIM_RETURN_IF_ERROR(BiasCheck(ctx, 3, g.cout));
  ctx.SetOutput(0, ctx.input(1).dtype, size, ctx.input(1).format);
  return Status::Ok();
}

Status RunConv3DTranspose(RunContext& ctx) {
  const auto& call = ctx.call();
  ACLSIM_ASSIGN_OR_RETURN(
      auto g, DeconvGeomOf(nullptr, ctx, ctx.out(0).dims, call.inputs[1], call.inputs[2]));
  const std::vector<float> xv = ToFloats(ctx.in(1));
  const std::vector<float> fv = ToFloats(ctx.in(2));
  const int64_t cin_g = g.cin / g.groups;
  const int64_t cout_g = g.cout / g.groups;
  const int64_t taps = g.Taps();
  const int64_t pix = g.InPix();
  const int64_t opix = g.OutPix();
  std::vector<float> bias(static_cast<size_t>(g.cout), 0.0f);
  if (ctx.has_input(3)) bias = ToFloats(ctx.in(3));
  std::vector<float> out(static_cast<size_t>(g.n * g.cout * opix));  // NCDHW
  RowMat<float> wg(cin_g, cout_g * taps);
  RowMat<float> xg(cin_g, pix);
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t c = 0; c < g.cout; ++c) {
      std::fill_n(out.begin() + (n * g.cout + c) * opix, opix, bias[static_cast<size_t>(c)]);
    }
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      for (int64_t ci = 0; ci < cin_g; ++ci) {
        const int64_t c = grp * cin_g + ci;
        for (int64_t co = 0; co < cout_g; ++co) {
          for (int64_t t = 0; t < taps; ++t) {
            wg(ci, co * taps + t) = fv[static_cast<size_t>(
                FilterIndex(g.filter_layout, c, co, t, g.cin, cout_g, taps))];
          }
        }
        for (int64_t p = 0; p < pix; ++p) {
          const int64_t z = p / (g.in[1] * g.in[2]);
          const int64_t y = (p / g.in[2]) % g.in[1];
          const int64_t x = p % g.in[2];
          xg(ci, p) = xv[static_cast<size_t>(g.layout.Index(n, c, z, y, x, g.cin, g.in))];
        }
      }
      const RowMat<float> col = wg.transpose() * xg;  // [cout_g * taps, pix]
      for (int64_t co = 0; co < cout_g; ++co) {
        float* plane = out.data() + (n * g.cout + grp * cout_g + co) * opix;
        for (int64_t t = 0; t < taps; ++t) {
          const int64_t kz = t / (g.k[1] * g.k[2]);
          const int64_t ky = (t / g.k[2]) % g.k[1];
          const int64_t kx = t % g.k[2];
          for (int64_t p = 0; p < pix; ++p) {
            const int64_t oz = (p / (g.in[1] * g.in[2])) * g.s[0] - g.pb[0] + kz * g.d[0];
            const int64_t oy = ((p / g.in[2]) % g.in[1]) * g.s[1] - g.pb[1] + ky * g.d[1];
            const int64_t ox = (p % g.in[2]) * g.s[2] - g.pb[2] + kx * g.d[2];
            if (oz < 0 || oz >= g.out[0] || oy < 0 || oy >= g.out[1] || ox < 0 || ox >= g.out[2]) {
              continue;
            }
            plane[(oz * g.out[1] + oy) * g.out[2] + ox] += col(co * taps + t, p);
          }
        }
      }
    }
  }
  return StoreNcdhw(out, g, g.cout, g.out, ctx.out(0));
}

driver::KernelWork WorkConv3DTranspose(const OpContext& ctx, const driver::DeviceProps&,
                                       uint32_t* blocks) {
  const driver::DtypeClass dtype = DtypeClassOf(ctx.input(1).dtype);
  auto size = ctx.InputInts(0);
  if (!size.ok()) return MatmulWork(1, 1, 1, dtype, blocks);
  auto g = DeconvGeomOf(nullptr, ctx, size.value(), ctx.input(1), ctx.input(2));
  if (!g.ok()) return MatmulWork(1, 1, 1, dtype, blocks);
  const auto& geom = g.value();
  const auto m = static_cast<uint64_t>(std::max<int64_t>(1, geom.n * geom.InPix()));
  const auto n = static_cast<uint64_t>(std::max<int64_t>(1, geom.cout * geom.Taps()));
  const auto k = static_cast<uint64_t>(std::max<int64_t>(1, geom.cin / geom.groups));
  return MatmulWork(m, n, k, dtype, blocks);
}

}  // namespace

void RegisterConv3DOps(OpRegistry& registry) {
  const std::vector<DataType> x_types = {DataType::kFloat16, DataType::kFloat, DataType::kInt8,
                                         DataType::kBf16};
  const std::vector<DataType> bias_types = {DataType::kFloat16, DataType::kFloat, DataType::kInt32,
                                            DataType::kBf16};
  const std::vector<DataType> y_types = {DataType::kFloat16, DataType::kFloat, DataType::kInt32,
                                         DataType::kBf16};
  OpDef conv;
  conv.type = "Conv3D";
  conv.inputs = {In("x", x_types), In("filter", x_types), OptIn("bias", bias_types),
                 OptIn("offset_w", {DataType::kInt8})};
  conv.outputs = {Out("y", y_types)};
  conv.attrs = {ReqAttr("strides", AttrType::kListInt),
                ReqAttr("pads", AttrType::kListInt),
                OptAttr("dilations", AttrType::kListInt, std::vector<int64_t>{1, 1, 1, 1, 1}),
                OptAttr("groups", AttrType::kInt, int64_t{1}),
                OptAttr("data_format", AttrType::kString, std::string("NDHWC")),
                OptAttr("offset_x", AttrType::kInt, int64_t{0})};
  conv.engine = driver::Engine::kAiCore;
  conv.infer = InferConv3D;
  conv.run = RunConv3D;
  conv.work = WorkConv3D;
  registry.Add(std::move(conv));

  const std::vector<DataType> float_types = {DataType::kFloat16, DataType::kFloat, DataType::kBf16};
  OpDef deconv;
  deconv.type = "Conv3DTranspose";
  deconv.inputs = {In("input_size", IndexTypes()), In("x", float_types), In("filter", float_types),
                   OptIn("bias", float_types), OptIn("offset_w", {DataType::kInt8})};
  deconv.outputs = {Out("y", float_types)};
  deconv.attrs = {
      ReqAttr("strides", AttrType::kListInt),
      ReqAttr("pads", AttrType::kListInt),
      OptAttr("dilations", AttrType::kListInt, std::vector<int64_t>{1, 1, 1, 1, 1}),
      OptAttr("groups", AttrType::kInt, int64_t{1}),
      OptAttr("data_format", AttrType::kString, std::string("NDHWC")),
      OptAttr("output_padding", AttrType::kListInt, std::vector<int64_t>{0, 0, 0, 0, 0}),
      OptAttr("offset_x", AttrType::kInt, int64_t{0})};
  deconv.engine = driver::Engine::kAiCore;
  deconv.value_inputs = {0};
  deconv.infer = InferConv3DTranspose;
  deconv.run = RunConv3DTranspose;
  deconv.work = WorkConv3DTranspose;
  registry.Add(std::move(deconv));
}

}  // namespace aclsim::ops
