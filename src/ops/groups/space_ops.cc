// Block rearrangements between space and depth (cann_ops.md 2.2, ONNX DepthToSpace /
// SpaceToDepth), and the elementwise Shrink (ONNX Shrink).
//
// Prototypes (GE25 REG_OP):
//   DepthToSpace x -> y; block_size:Int (req), mode:String="DCR", data_format:String="NHWC"
//   SpaceToDepth x -> y; block_size:Int (req), data_format:String="NHWC"
//   Shrink       input_x -> output_y; lambd:Float=0.5, bias:Float=0.0
// data_format is "NHWC" or "NCHW" (ONNX passes "NCHW"). DepthToSpace's mode "DCR" takes the
// channel as (block row, block column, channel), "CRD" as (channel, block row, block column).
// Both are pure data movement: any dtype, elements copied byte for byte.
#include <cstring>
#include <type_traits>

#include "ops/kernels.h"
#include "ops/op_group.h"

namespace aclsim::ops {

namespace {

struct SpaceGeom {
  bool nhwc = true;
  bool crd = false;
  int64_t b = 1;
  int64_t n = 0, c = 0, h = 0, w = 0;  // of x
};

// x geometry and checks; to_space: DepthToSpace.
Result<SpaceGeom> SpaceGeomOf(const OpContext& ctx, bool to_space) {
  SpaceGeom g;
  const std::string& format = ctx.GetString("data_format");
  if (format != "NHWC" && format != "NCHW") {
    return ctx.Fail(StatusCode::kOpAttrNotMatch,
                    "attribute 'data_format' is \"{}\"; expected NHWC or NCHW", format);
  }
  g.nhwc = format == "NHWC";
  if (to_space) {
    const std::string& mode = ctx.GetString("mode");
    if (mode != "DCR" && mode != "CRD") {
      return ctx.Fail(StatusCode::kOpAttrNotMatch,
                      "attribute 'mode' is \"{}\"; expected DCR or CRD", mode);
    }
    g.crd = mode == "CRD";
  }
  g.b = ctx.GetInt("block_size");
  if (g.b < 1) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch, "attribute 'block_size' is {}; it must be >= 1",
                    g.b);
  }
  const auto& x = ctx.input(0).dims;
  if (x.size() != 4) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} must be 4-D ({}) but has shape [{}]",
                    ctx.InputName(0), format, fmt::join(x, ", "));
  }
  g.n = x[0];
  g.c = g.nhwc ? x[3] : x[1];
  g.h = g.nhwc ? x[1] : x[2];
  g.w = g.nhwc ? x[2] : x[3];
  if (to_space && g.c % SaturatingMul(g.b, g.b) != 0) {
    return ctx.Fail(StatusCode::kOpInputNotMatch,
                    "{} has {} channels, not a multiple of block_size^2 = {}", ctx.InputName(0),
                    g.c, SaturatingMul(g.b, g.b));
  }
  if (!to_space && (g.h % g.b != 0 || g.w % g.b != 0)) {
    return ctx.Fail(StatusCode::kOpInputNotMatch,
                    "{} spatial size {}x{} is not divisible by block_size {}", ctx.InputName(0),
                    g.h, g.w, g.b);
  }
  return g;
}

std::vector<int64_t> Dims4(bool nhwc, int64_t n, int64_t c, int64_t h, int64_t w) {
  return nhwc ? std::vector<int64_t>{n, h, w, c} : std::vector<int64_t>{n, c, h, w};
}

int64_t Offset(bool nhwc, int64_t c_dim, int64_t h_dim, int64_t w_dim, int64_t n, int64_t c,
               int64_t h, int64_t w) {
  return nhwc ? ((n * h_dim + h) * w_dim + w) * c_dim + c
              : ((n * c_dim + c) * h_dim + h) * w_dim + w;
}

SpaceGeom RunGeom(const RunContext& ctx, bool to_space) {
  SpaceGeom g;
  g.nhwc = ctx.GetString("data_format") == "NHWC";
  g.crd = to_space && ctx.GetString("mode") == "CRD";
  g.b = ctx.GetInt("block_size");
  const auto& x = ctx.in(0).dims;
  g.n = x[0];
  g.c = g.nhwc ? x[3] : x[1];
  g.h = g.nhwc ? x[1] : x[2];
  g.w = g.nhwc ? x[2] : x[3];
  return g;
}

OpDef SpaceOp(std::string type, bool to_space) {
  OpDef def;
  def.type = std::move(type);
  def.inputs = {In("x", AllTypes())};
  def.outputs = {Out("y", AllTypes())};
  def.attrs = {ReqAttr("block_size", AttrType::kInt)};
  if (to_space) def.attrs.push_back(OptAttr("mode", AttrType::kString, std::string("DCR")));
  def.attrs.push_back(OptAttr("data_format", AttrType::kString, std::string("NHWC")));
  def.infer = [to_space](OpContext& ctx) -> Status {
    ACLSIM_ASSIGN_OR_RETURN(SpaceGeom g, SpaceGeomOf(ctx, to_space));
    const int64_t bb = SaturatingMul(g.b, g.b);
    ctx.SetOutput(
        0, ctx.input(0).dtype,
        to_space ? Dims4(g.nhwc, g.n, g.c / bb, SaturatingMul(g.h, g.b), SaturatingMul(g.w, g.b))
                 : Dims4(g.nhwc, g.n, SaturatingMul(g.c, bb), g.h / g.b, g.w / g.b));
    return Status::Ok();
  };
  def.run = [to_space](RunContext& ctx) -> Status {
    const SpaceGeom g = RunGeom(ctx, to_space);
    const size_t elem = DataTypeSize(ctx.in(0).dtype);
    const auto* src = ctx.in(0).ptr<const uint8_t>();
    auto* dst = ctx.out(0).ptr<uint8_t>();
    const int64_t b = g.b;
    // The depth-side tensor has (C', H', W') = (small channels * b * b, H, W); the space-side
    // one (small channels, H * b, W * b). Walk the depth side.
    const int64_t cs = to_space ? g.c / (b * b) : g.c;  // channels of the space side
    const int64_t hd = to_space ? g.h : g.h / b;        // spatial size of the depth side
    const int64_t wd = to_space ? g.w : g.w / b;
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t c = 0; c < cs; ++c) {
        for (int64_t i = 0; i < b; ++i) {
          for (int64_t j = 0; j < b; ++j) {
            const int64_t cd = g.crd ? (c * b + i) * b + j : (i * b + j) * cs + c;
            for (int64_t h = 0; h < hd; ++h) {
              for (int64_t w = 0; w < wd; ++w) {
                const int64_t depth = Offset(g.nhwc, cs * b * b, hd, wd, n, cd, h, w);
                const int64_t space =
                    Offset(g.nhwc, cs, hd * b, wd * b, n, c, h * b + i, w * b + j);
                const int64_t from = to_space ? depth : space;
                const int64_t to = to_space ? space : depth;
                std::memcpy(dst + static_cast<size_t>(to) * elem,
                            src + static_cast<size_t>(from) * elem, elem);
              }
            }
          }
        }
      }
    }
    return Status::Ok();
  };
  return def;
}

OpDef ShrinkOp() {
  OpDef def;
  def.type = "Shrink";
  def.inputs = {In("input_x", {DataType::kFloat16, DataType::kFloat})};
  def.outputs = {Out("output_y", {DataType::kFloat16, DataType::kFloat})};
  def.attrs = {OptAttr("lambd", AttrType::kFloat, 0.5f), OptAttr("bias", AttrType::kFloat, 0.0f)};
  def.ops_per_element = 4;
  def.infer = [](OpContext& ctx) -> Status {
    ctx.SetOutput(0, ctx.input(0).dtype, ctx.input(0).dims);
    return Status::Ok();
  };
  def.run = [](RunContext& ctx) -> Status {
    const float lambd = ctx.GetFloat("lambd");
    const float bias = ctx.GetFloat("bias");
    return DispatchType(ctx.in(0).dtype, [&](auto tag) -> Status {
      using T = decltype(tag);
      using C = ComputeT<T>;
      if constexpr (!std::is_floating_point_v<C>) {
        return ctx.Fail(StatusCode::kUnsupportedDataType, "Shrink needs a float type");
      } else {
        UnaryKernel<T>(ctx.in(0), ctx.out(0), [&](C x) -> C {
          if (x < static_cast<C>(-lambd)) return x + static_cast<C>(bias);
          if (x > static_cast<C>(lambd)) return x - static_cast<C>(bias);
          return C{0};
        });
        return Status::Ok();
      }
    });
  };
  return def;
}

}  // namespace

void RegisterSpaceOps(OpRegistry& registry) {
  registry.Add(SpaceOp("DepthToSpace", true));
  registry.Add(SpaceOp("SpaceToDepth", false));
  registry.Add(ShrinkOp());
}

}  // namespace aclsim::ops
