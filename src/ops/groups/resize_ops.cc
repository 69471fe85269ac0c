// Image / tensor resizing (cann_ops.md 2.2, ONNX Resize): Resize (ONNX semantics, any rank)
// and ResizeNearestNeighborV2 (TensorFlow semantics, 4-D).
//
// Prototypes (GE25 REG_OP):
//   Resize x, roi?, scales? (f32), sizes? (i32, i64) -> y;
//     coordinate_transformation_mode:String="half_pixel", cubic_coeff_a:Float=-0.75,
//     exclude_outside:Int=0, extrapolation_value:Float=0.0, mode:String="nearest",
//     nearest_mode:String="round_prefer_floor"
//   ResizeNearestNeighborV2 x, size (i32, [new_height, new_width]) -> y;
//     align_corners:Bool=false, half_pixel_centers:Bool=false
// Resize: y's shape is `sizes` if given (non-empty), else floor(x.shape * scales); the
// coordinate of output index o along an axis is given by coordinate_transformation_mode
// (half_pixel, pytorch_half_pixel, align_corners, asymmetric, tf_half_pixel_for_nn,
// tf_crop_and_resize with roi [starts..., ends...]); mode nearest (nearest_mode rounding),
// linear or cubic (cubic_coeff_a) interpolate each axis separably, neighbours beyond the
// edge repeat the edge value (or get weight 0 with exclude_outside = 1). The scale of an axis
// is scales[axis] when scales are given, else y / x; the coordinate formulas use the resized
// length scale * x (unrounded), as ONNX's reference does. roi, scales and sizes are value inputs.
// ResizeNearestNeighborV2: x is NCHW if its format says so, else NHWC; source index
// floor(o * scale) (half_pixel_centers: floor((o + 0.5) * scale), at least 0; align_corners:
// round(o * (in - 1) / (out - 1))), at most in - 1, with scale = in / out.
// Values are computed in double and rounded once.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "ops/op_group.h"

namespace aclsim::ops {

namespace {

// One output coordinate along one axis: source indices (clamped) and weights, or outside.
struct Taps {
  std::vector<int64_t> index;
  std::vector<double> weight;
  bool outside = false;
};

struct ResizeAttrs {
  std::string coord;
  std::string mode;
  std::string nearest;
  double cubic_a = -0.75;
  bool exclude_outside = false;
  double extrapolation = 0;
};

ResizeAttrs ReadAttrs(const AttrReader& a) {
  ResizeAttrs r;
  r.coord = a.GetString("coordinate_transformation_mode");
  r.mode = a.GetString("mode");
  r.nearest = a.GetString("nearest_mode");
  r.cubic_a = static_cast<double>(a.GetFloat("cubic_coeff_a"));
  r.exclude_outside = a.GetInt("exclude_outside") != 0;
  r.extrapolation = static_cast<double>(a.GetFloat("extrapolation_value"));
  return r;
}

// Empty string when the attributes are valid, else the reason.
std::string CheckAttrs(const ResizeAttrs& r) {
  const char* coords[] = {"half_pixel", "pytorch_half_pixel",   "align_corners",
                          "asymmetric", "tf_half_pixel_for_nn", "tf_crop_and_resize"};
  if (std::none_of(std::begin(coords), std::end(coords),
                   [&](const char* c) { return r.coord == c; })) {
    return fmt::format("attribute 'coordinate_transformation_mode' \"{}\" is not supported",
                       r.coord);
  }
  if (r.mode != "nearest" && r.mode != "linear" && r.mode != "cubic") {
    return fmt::format("attribute 'mode' is \"{}\"; expected nearest, linear or cubic", r.mode);
  }
  const char* nearest[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
  if (std::none_of(std::begin(nearest), std::end(nearest),
                   [&](const char* c) { return r.nearest == c; })) {
    return fmt::format("attribute 'nearest_mode' \"{}\" is not supported", r.nearest);
  }
  return "";
}

double Cubic(double a, double d) {
  d = std::fabs(d);
  if (d <= 1) return ((a + 2) * d - (a + 3)) * d * d + 1;
  if (d < 2) return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a;
  return 0;
}

Taps TapsFor(const ResizeAttrs& r, int64_t o, double scale, int64_t in_len, double roi_start,
             double roi_end) {
  Taps t;
  const double x = static_cast<double>(o);
  const double in = static_cast<double>(in_len);
  // The resized length in the coordinate formulas is scale * in (not rounded), as ONNX's
  // reference computes it (they differ for scales such as 0.6 that do not divide evenly).
  const double out = scale * in;
  double src = 0;
  if (r.coord == "half_pixel") {
    src = (x + 0.5) / scale - 0.5;
  } else if (r.coord == "pytorch_half_pixel") {
    src = out != 1 ? (x + 0.5) / scale - 0.5 : -0.5;
  } else if (r.coord == "align_corners") {
    src = out != 1 ? x * (in - 1) / (out - 1) : 0;
  } else if (r.coord == "asymmetric") {
    src = x / scale;
  } else if (r.coord == "tf_half_pixel_for_nn") {
    src = (x + 0.5) / scale;
  } else {  // tf_crop_and_resize
    src = out != 1 ? roi_start * (in - 1) + x * (roi_end - roi_start) * (in - 1) / (out - 1)
                   : 0.5 * (roi_start + roi_end) * (in - 1);
    if (src < 0 || src > in - 1) {
      t.outside = true;
      return t;
    }
  }
  auto clamp = [&](int64_t i) { return std::clamp<int64_t>(i, 0, in_len - 1); };
  const double fl = std::floor(src);
  if (r.mode == "nearest") {
    int64_t i = static_cast<int64_t>(fl);
    const double frac = src - fl;
    if (frac != 0) {
      bool up = false;
      if (r.nearest == "round_prefer_floor") {
        up = frac > 0.5;
      } else if (r.nearest == "round_prefer_ceil") {
        up = frac >= 0.5;
      } else {
        up = r.nearest == "ceil";
      }
      if (up) ++i;
    }
    t.index = {clamp(i)};
    t.weight = {1.0};
    return t;
  }
  // Neighbours around src: the ratio lies in (0, 1] (an integer src counts from the left).
  int64_t f = static_cast<int64_t>(fl);
  double ratio = src - fl;
  if (ratio == 0) {
    f -= 1;
    ratio = 1;
  }
  std::vector<int64_t> raw;
  if (r.mode == "linear") {
    raw = {f, f + 1};
    t.weight = {1 - ratio, ratio};
  } else {
    raw = {f - 1, f, f + 1, f + 2};
    t.weight = {Cubic(r.cubic_a, ratio + 1), Cubic(r.cubic_a, ratio), Cubic(r.cubic_a, 1 - ratio),
                Cubic(r.cubic_a, 2 - ratio)};
  }
  if (r.exclude_outside) {
    double sum = 0;
    for (size_t k = 0; k < raw.size(); ++k) {
      if (raw[k] < 0 || raw[k] >= in_len) t.weight[k] = 0;
      sum += t.weight[k];
    }
    if (sum != 0) {
      for (auto& w : t.weight) w /= sum;
    }
  }
  t.index.reserve(raw.size());
  for (int64_t i : raw) t.index.push_back(clamp(i));
  return t;
}

// Output dims and per-axis scales of a Resize call.
struct ResizePlan {
  std::vector<int64_t> out;
  std::vector<double> scale;
};

std::string PlanResize(const std::vector<int64_t>& in, const std::vector<double>& scales,
                       const std::vector<int64_t>& sizes, ResizePlan* plan) {
  const size_t rank = in.size();
  plan->out.assign(rank, 0);
  plan->scale.assign(rank, 1.0);
  if (!sizes.empty()) {
    if (sizes.size() != rank) {
      return fmt::format("input 3 (sizes) has {} values for x of rank {}", sizes.size(), rank);
    }
    for (size_t d = 0; d < rank; ++d) {
      if (sizes[d] < 0) return fmt::format("input 3 (sizes) value {} is negative", sizes[d]);
      plan->out[d] = sizes[d];
      plan->scale[d] =
          in[d] == 0 ? 1.0 : static_cast<double>(sizes[d]) / static_cast<double>(in[d]);
    }
    return "";
  }
  if (scales.size() != rank) {
    return fmt::format(
        "needs input 2 (scales) or input 3 (sizes) with one value per axis of x (rank {}); "
        "scales has {}",
        rank, scales.size());
  }
  for (size_t d = 0; d < rank; ++d) {
    if (!(scales[d] > 0)) return fmt::format("input 2 (scales) value {} is not > 0", scales[d]);
    plan->scale[d] = scales[d];
    plan->out[d] = static_cast<int64_t>(std::floor(static_cast<double>(in[d]) * scales[d]));
  }
  return "";
}

Status ResizeInfer(OpContext& ctx) {
  const ResizeAttrs attrs = ReadAttrs(ctx);
  if (std::string why = CheckAttrs(attrs); !why.empty()) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch, "{}", why);
  }
  std::vector<double> scales;
  std::vector<int64_t> sizes;
  if (ctx.has_input(2)) {
    ACLSIM_ASSIGN_OR_RETURN(scales, ctx.InputDoubles(2));
  }
  if (ctx.has_input(3)) {
    ACLSIM_ASSIGN_OR_RETURN(sizes, ctx.InputInts(3));
  }
  const auto& x = ctx.input(0);
  if (attrs.coord == "tf_crop_and_resize") {
    std::vector<double> roi;
    if (ctx.has_input(1)) {
      ACLSIM_ASSIGN_OR_RETURN(roi, ctx.InputDoubles(1));
    }
    if (roi.size() != 2 * x.dims.size()) {
      return ctx.Fail(StatusCode::kOpInputNotMatch,
                      "tf_crop_and_resize needs {} with {} values (starts, ends) but it has {}",
                      ctx.InputName(1), 2 * x.dims.size(), roi.size());
    }
  }
  ResizePlan plan;
  if (std::string why = PlanResize(x.dims, scales, sizes, &plan); !why.empty()) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{}", why);
  }
  ctx.SetOutput(0, x.dtype, plan.out);
  return Status::Ok();
}

Status ResizeRun(RunContext& ctx) {
  const ResizeAttrs attrs = ReadAttrs(ctx);
  const Tensor& x = ctx.in(0);
  Tensor& y = ctx.out(0);
  const std::vector<double> scales =
      ctx.has_input(2) ? ToDoubles(ctx.in(2)) : std::vector<double>{};
  const std::vector<int64_t> sizes = ctx.has_input(3) ? ctx.InputInts(3) : std::vector<int64_t>{};
  const std::vector<double> roi = ctx.has_input(1) ? ToDoubles(ctx.in(1)) : std::vector<double>{};
  ResizePlan plan;
  if (std::string why = PlanResize(x.dims, scales, sizes, &plan); !why.empty()) {
    return ctx.Fail(StatusCode::kInvalidParam, "{}", why);
  }
  if (plan.out != y.dims) {
    return ctx.Fail(StatusCode::kInvalidParam, "output shape [{}] differs from the planned [{}]",
                    fmt::join(y.dims, ", "), fmt::join(plan.out, ", "));
  }
  const size_t rank = x.dims.size();
  if (y.numel() == 0) return Status::Ok();
  if (x.numel() == 0) {
    return ctx.Fail(StatusCode::kInvalidParam, "x is empty but y has {} elements", y.numel());
  }
  // Per axis and output coordinate: the taps.
  std::vector<std::vector<Taps>> taps(rank);
  for (size_t d = 0; d < rank; ++d) {
    const double start = roi.size() == 2 * rank ? roi[d] : 0.0;
    const double end = roi.size() == 2 * rank ? roi[rank + d] : 1.0;
    taps[d].reserve(static_cast<size_t>(plan.out[d]));
    for (int64_t o = 0; o < plan.out[d]; ++o) {
      taps[d].push_back(TapsFor(attrs, o, plan.scale[d], x.dims[d], start, end));
    }
  }
  const std::vector<double> in = ToDoubles(x);
  const auto stride = Strides(x.dims);
  std::vector<double> out(static_cast<size_t>(y.numel()));
  std::vector<int64_t> pos(rank, 0);
  std::vector<size_t> k(rank, 0);
  for (double& value : out) {
    bool outside = false;
    for (size_t d = 0; d < rank; ++d) outside |= taps[d][static_cast<size_t>(pos[d])].outside;
    if (outside) {
      value = attrs.extrapolation;
    } else {
      // Sum over the cartesian product of the axes' taps.
      double sum = 0;
      std::fill(k.begin(), k.end(), 0);
      while (true) {
        double w = 1;
        int64_t offset = 0;
        for (size_t d = 0; d < rank; ++d) {
          const Taps& t = taps[d][static_cast<size_t>(pos[d])];
          w *= t.weight[k[d]];
          offset += t.index[k[d]] * stride[d];
        }
        sum += w * in[static_cast<size_t>(offset)];
        size_t d = rank;
        while (d-- > 0) {
          if (++k[d] < taps[d][static_cast<size_t>(pos[d])].index.size()) break;
          k[d] = 0;
        }
        if (d == static_cast<size_t>(-1)) break;
      }
      value = sum;
    }
    for (size_t d = rank; d-- > 0;) {
      if (++pos[d] < plan.out[d]) break;
      pos[d] = 0;
    }
  }
  FromDoubles(out, y);
  return Status::Ok();
}

// --- ResizeNearestNeighborV2 ------------------------------------------------------------

bool IsNchw(const TensorDesc& desc) { return desc.format == Format::kNchw; }

Status NearestV2Infer(OpContext& ctx) {
  const auto& x = ctx.input(0);
  if (x.dims.size() != 4) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} must be 4-D but has shape [{}]",
                    ctx.InputName(0), fmt::join(x.dims, ", "));
  }
  ACLSIM_ASSIGN_OR_RETURN(auto size, ctx.InputInts(1));
  if (size.size() != 2 || size[0] < 0 || size[1] < 0) {
    return ctx.Fail(StatusCode::kOpInputNotMatch,
                    "{} must hold two non-negative values (new_height, new_width) but holds [{}]",
                    ctx.InputName(1), fmt::join(size, ", "));
  }
  if (ctx.GetBool("align_corners") && ctx.GetBool("half_pixel_centers")) {
    return ctx.Fail(StatusCode::kOpAttrNotMatch,
                    "align_corners and half_pixel_centers cannot both be true");
  }
  const bool nchw = IsNchw(x);
  const int64_t h = nchw ? x.dims[2] : x.dims[1];
  const int64_t w = nchw ? x.dims[3] : x.dims[2];
  if ((h == 0 || w == 0) && size[0] * size[1] != 0) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} has an empty image", ctx.InputName(0));
  }
  auto dims = x.dims;
  dims[nchw ? 2 : 1] = size[0];
  dims[nchw ? 3 : 2] = size[1];
  ctx.SetOutput(0, x.dtype, dims);
  return Status::Ok();
}

// Source indices of the output coordinates along one axis (TensorFlow's nearest rule).
std::vector<int64_t> NearestIndex(int64_t in, int64_t out, bool align, bool half) {
  const double scale = align && out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1)
                                        : static_cast<double>(in) / static_cast<double>(out);
  std::vector<int64_t> index;
  index.reserve(static_cast<size_t>(out));
  for (int64_t o = 0; o < out; ++o) {
    const double src =
        half ? (static_cast<double>(o) + 0.5) * scale : static_cast<double>(o) * scale;
    int64_t i = static_cast<int64_t>(align ? std::round(src) : std::floor(src));
    i = std::min(i, in - 1);
    if (half) i = std::max<int64_t>(i, 0);
    index.push_back(i);
  }
  return index;
}

Status NearestV2Run(RunContext& ctx) {
  const Tensor& x = ctx.in(0);
  Tensor& y = ctx.out(0);
  const bool nchw = ctx.call().inputs[0].format == Format::kNchw;
  const bool align = ctx.GetBool("align_corners");
  const bool half = ctx.GetBool("half_pixel_centers");
  const int64_t n = x.dims[0];
  const int64_t c = nchw ? x.dims[1] : x.dims[3];
  const int64_t h = nchw ? x.dims[2] : x.dims[1];
  const int64_t w = nchw ? x.dims[3] : x.dims[2];
  const int64_t oh = nchw ? y.dims[2] : y.dims[1];
  const int64_t ow = nchw ? y.dims[3] : y.dims[2];
  if (y.numel() == 0) return Status::Ok();
  const auto hi = NearestIndex(h, oh, align, half);
  const auto wi = NearestIndex(w, ow, align, half);
  const size_t elem = DataTypeSize(x.dtype);
  const auto* src = x.ptr<const uint8_t>();
  auto* dst = y.ptr<uint8_t>();
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t ch = 0; ch < c; ++ch) {
      for (int64_t r = 0; r < oh; ++r) {
        for (int64_t col = 0; col < ow; ++col) {
          const int64_t sr = hi[static_cast<size_t>(r)];
          const int64_t sc = wi[static_cast<size_t>(col)];
          const int64_t from =
              nchw ? ((b * c + ch) * h + sr) * w + sc : ((b * h + sr) * w + sc) * c + ch;
          const int64_t to =
              nchw ? ((b * c + ch) * oh + r) * ow + col : ((b * oh + r) * ow + col) * c + ch;
          std::memcpy(dst + static_cast<size_t>(to) * elem, src + static_cast<size_t>(from) * elem,
                      elem);
        }
      }
    }
  }
  return Status::Ok();
}

}  // namespace

void RegisterResizeOps(OpRegistry& registry) {
  const std::vector<DataType> types = {
      DataType::kInt8,  DataType::kUint8,   DataType::kInt16, DataType::kUint16, DataType::kInt32,
      DataType::kInt64, DataType::kFloat16, DataType::kFloat, DataType::kDouble, DataType::kBf16};
  OpDef resize;
  resize.type = "Resize";
  resize.inputs = {
      In("x", types), OptIn("roi", {DataType::kFloat16, DataType::kFloat, DataType::kDouble}),
      OptIn("scales", {DataType::kFloat}), OptIn("sizes", {DataType::kInt64, DataType::kInt32})};
  resize.outputs = {Out("y", types)};
  resize.attrs = {
      OptAttr("coordinate_transformation_mode", AttrType::kString, std::string("half_pixel")),
      OptAttr("cubic_coeff_a", AttrType::kFloat, -0.75f),
      OptAttr("exclude_outside", AttrType::kInt, int64_t{0}),
      OptAttr("extrapolation_value", AttrType::kFloat, 0.0f),
      OptAttr("mode", AttrType::kString, std::string("nearest")),
      OptAttr("nearest_mode", AttrType::kString, std::string("round_prefer_floor"))};
  resize.value_inputs = {1, 2, 3};
  resize.ops_per_element = 16;
  resize.infer = ResizeInfer;
  resize.run = ResizeRun;
  registry.Add(std::move(resize));

  OpDef nearest;
  nearest.type = "ResizeNearestNeighborV2";
  nearest.inputs = {In("x", types), In("size", {DataType::kInt32})};
  nearest.outputs = {Out("y", types)};
  nearest.attrs = {OptAttr("align_corners", AttrType::kBool, false),
                   OptAttr("half_pixel_centers", AttrType::kBool, false)};
  nearest.value_inputs = {1};
  nearest.infer = NearestV2Infer;
  nearest.run = NearestV2Run;
  registry.Add(std::move(nearest));
}

}  // namespace aclsim::ops
