// The mapping table's neural-network half: convolution, pooling, normalisation, softmax,
// Gemm, activations with attributes, resizing (cann_ops.md 2.2).
#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "convert/onnx_ops.h"

namespace aclsim::convert {

using driver::AttrMap;
using driver::DataType;
using driver::Format;

namespace {

// Explicit pads [begin..., end...] of a window op from ONNX pads / auto_pad; SAME_* needs the
// spatial dims of input 0.
Result<std::vector<int64_t>> WindowPads(const NodeContext& c, const std::vector<int64_t>& kernel,
                                        const std::vector<int64_t>& strides,
                                        const std::vector<int64_t>& dilations) {
  const size_t sp = kernel.size();
  const std::string auto_pad = c.Str("auto_pad", "NOTSET");
  std::vector<int64_t> pads = c.IntList("pads", std::vector<int64_t>(2 * sp, 0));
  if (pads.size() != 2 * sp)
    return Unsupported(fmt::format("{} pads for {} spatial dims", pads.size(), sp));
  if (auto_pad == "NOTSET" || auto_pad.empty()) return pads;
  if (auto_pad == "VALID") return std::vector<int64_t>(2 * sp, 0);
  if (auto_pad != "SAME_UPPER" && auto_pad != "SAME_LOWER")
    return Unsupported("auto_pad " + auto_pad);
  const auto& dims = c.dims(0);
  for (size_t i = 0; i < sp; ++i) {
    if (dims.size() != sp + 2 || dims[2 + i] < 0 || strides[i] <= 0) {
      return Unsupported("auto_pad SAME with unknown spatial dims");
    }
    const int64_t in = dims[2 + i];
    const int64_t out = (in + strides[i] - 1) / strides[i];
    const int64_t eff = (kernel[i] - 1) * dilations[i] + 1;
    const int64_t total = std::max<int64_t>(0, (out - 1) * strides[i] + eff - in);
    pads[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
    pads[sp + i] = total - pads[i];
  }
  return pads;
}

// [N, C, L] -> [N, C, 1, L] (Unsqueeze at axis 2), folded for constants.
Result<int32_t> To2d(NodeContext& c, int32_t value) {
  auto out = c.Emit("Unsqueeze", {value}, {{"axes", std::vector<int64_t>{2}}});
  if (!out.ok()) return out.status();
  c.builder().SetFormat(out.value()[0], Format::kNchw);
  return out.value()[0];
}

Status MapConv(NodeContext& c) {
  const int64_t rank = c.rank(0);
  if (rank != 4 && rank != 3) {
    return Unsupported(fmt::format(
        "Conv with a {}-D input (the op library has no Conv3D; 1-D and 2-D become Conv2D)", rank));
  }
  if (c.rank(1) != rank || c.dims(1)[2] < 0) return Unsupported("Conv weights of unknown shape");
  const bool one_d = rank == 3;
  std::vector<int64_t> kernel(c.dims(1).begin() + 2, c.dims(1).end());
  const size_t sp = kernel.size();
  auto strides = c.IntList("strides", std::vector<int64_t>(sp, 1));
  auto dilations = c.IntList("dilations", std::vector<int64_t>(sp, 1));
  if (strides.size() != sp || dilations.size() != sp)
    return Unsupported("strides / dilations rank");
  auto pads = WindowPads(c, kernel, strides, dilations);
  if (!pads.ok()) return pads.status();
  std::vector<int64_t> p = pads.value();
  int32_t x = c.in(0);
  int32_t w = c.in(1);
  if (one_d) {
    auto x2 = To2d(c, x);
    if (!x2.ok()) return x2.status();
    auto w2 = To2d(c, w);
    if (!w2.ok()) return w2.status();
    x = x2.value();
    w = w2.value();
    strides.insert(strides.begin(), 1);
    dilations.insert(dilations.begin(), 1);
    p = {0, p[0], 0, p[1]};
  }
  c.builder().SetFormat(x, Format::kNchw);
  c.builder().SetFormat(w, Format::kNchw);
  std::vector<int32_t> ins = {x, w};
  if (c.has(2)) ins.push_back(c.in(2));
  AttrMap attrs{{"strides", std::vector<int64_t>{1, 1, strides[0], strides[1]}},
                {"pads", std::vector<int64_t>{p[0], p[2], p[1], p[3]}},
                {"dilations", std::vector<int64_t>{1, 1, dilations[0], dilations[1]}},
                {"groups", c.Int("group", 1)},
                {"data_format", std::string("NCHW")}};
  if (!one_d) return c.Final("Conv2D", std::move(ins), std::move(attrs));
  auto y = c.Emit("Conv2D", std::move(ins), std::move(attrs));
  if (!y.ok()) return y.status();
  return c.Final("Squeeze", {y.value()[0]}, {{"axis", std::vector<int64_t>{2}}});
}

Status MapConvTranspose(NodeContext& c) {
  if (c.rank(0) != 4 || c.rank(1) != 4) return Unsupported("ConvTranspose with a non-4-D input");
  const auto& xd = c.dims(0);
  const auto& wd = c.dims(1);
  if (xd[2] < 0 || xd[3] < 0 || wd[2] < 0 || wd[3] < 0) {
    return Unsupported("ConvTranspose with unknown spatial dims");
  }
  const std::vector<int64_t> kernel = {wd[2], wd[3]};
  auto strides = c.IntList("strides", {1, 1});
  auto dilations = c.IntList("dilations", {1, 1});
  auto out_pad = c.IntList("output_padding", {0, 0});
  auto pads = c.IntList("pads", {0, 0, 0, 0});
  if (strides.size() != 2 || dilations.size() != 2 || out_pad.size() != 2 || pads.size() != 4) {
    return Unsupported("ConvTranspose attribute ranks");
  }
  const std::string auto_pad = c.Str("auto_pad", "NOTSET");
  if (auto_pad == "VALID") pads.assign(4, 0);
  const int64_t group = c.Int("group", 1);
  std::vector<int64_t> size = {xd[0], wd[1] * group, 0, 0};
  const auto output_shape = c.IntList("output_shape", {});
  const bool same = auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER";
  for (size_t i = 0; i < 2; ++i) {
    const int64_t full =
        strides[i] * (xd[2 + i] - 1) + out_pad[i] + (kernel[i] - 1) * dilations[i] + 1;
    int64_t out = full - pads[i] - pads[2 + i];
    if (output_shape.size() == 2) out = output_shape[i];
    if (same && output_shape.size() != 2) out = xd[2 + i] * strides[i];
    if (same || output_shape.size() == 2) {
      const int64_t total = std::max<int64_t>(0, full - out);
      pads[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      pads[2 + i] = total - pads[i];
    }
    size[2 + i] = out;
  }
  c.builder().SetFormat(c.in(0), Format::kNchw);
  c.builder().SetFormat(c.in(1), Format::kNchw);
  std::vector<int32_t> ins = {c.ConstI64(size), c.in(0), c.in(1)};
  if (c.has(2)) ins.push_back(c.in(2));
  return c.Final("Conv2DTranspose", std::move(ins),
                 {{"strides", std::vector<int64_t>{1, 1, strides[0], strides[1]}},
                  {"pads", std::vector<int64_t>{pads[0], pads[2], pads[1], pads[3]}},
                  {"dilations", std::vector<int64_t>{1, 1, dilations[0], dilations[1]}},
                  {"groups", group},
                  {"data_format", std::string("NCHW")},
                  {"output_padding", std::vector<int64_t>{0, 0, out_pad[0], out_pad[1]}}});
}

Status MapPool(NodeContext& c, bool is_max) {
  const std::string cann = is_max ? "MaxPoolV3" : "AvgPoolV2";
  const int64_t rank = c.rank(0);
  const bool one_d = rank == 3;
  if (rank != 4 && !one_d)
    return Unsupported(fmt::format("{} is 2-D only (input rank {})", cann, rank));
  if (is_max && c.wants(1)) return Unsupported("MaxPool Indices output (not in MaxPoolV3)");
  if (c.Int("storage_order", 0) != 0) return Unsupported("storage_order=1");
  auto kernel = c.IntList("kernel_shape", {});
  if (kernel.size() != static_cast<size_t>(rank - 2)) return Unsupported("kernel_shape rank");
  auto strides = c.IntList("strides", std::vector<int64_t>(kernel.size(), 1));
  auto dilations = c.IntList("dilations", std::vector<int64_t>(kernel.size(), 1));
  if (strides.size() != kernel.size()) return Unsupported("strides rank");
  for (int64_t d : dilations) {
    if (d != 1) return Unsupported(cann + " has no dilations");
  }
  auto pads = WindowPads(c, kernel, strides, dilations);
  if (!pads.ok()) return pads.status();
  std::vector<int64_t> p = pads.value();
  int32_t x = c.in(0);
  if (one_d) {
    auto x2 = To2d(c, x);
    if (!x2.ok()) return x2.status();
    x = x2.value();
    kernel.insert(kernel.begin(), 1);
    strides.insert(strides.begin(), 1);
    p = {0, p[0], 0, p[1]};
  }
  c.builder().SetFormat(x, Format::kNchw);
  AttrMap attrs{{"ksize", std::vector<int64_t>{1, 1, kernel[0], kernel[1]}},
                {"strides", std::vector<int64_t>{1, 1, strides[0], strides[1]}},
                {"padding_mode", std::string("CALCULATED")},
                {"pads", std::vector<int64_t>{p[0], p[2], p[1], p[3]}},
                {"data_format", std::string("NCHW")},
                {"ceil_mode", c.Int("ceil_mode", 0) != 0}};
  if (!is_max) attrs["exclusive"] = c.Int("count_include_pad", 0) == 0;
  if (!one_d) return c.Final(cann, {x}, std::move(attrs), 1);
  auto y = c.Emit(cann, {x}, std::move(attrs));
  if (!y.ok()) return y.status();
  return c.Final("Squeeze", {y.value()[0]}, {{"axis", std::vector<int64_t>{2}}});
}

Status MapGlobalMaxPool(NodeContext& c) {
  if (c.rank(0) < 3) return Unsupported("GlobalMaxPool of unknown or low rank");
  std::vector<int64_t> axes;
  for (int64_t a = 2; a < c.rank(0); ++a) axes.push_back(a);
  return c.Final("ReduceMax", {c.in(0), c.ConstI64(axes)}, {{"keep_dims", true}});
}

Status MapGlobalAveragePool(NodeContext& c) {
  if (c.rank(0) == 4) {
    c.builder().SetFormat(c.in(0), Format::kNchw);
    return c.Final("GlobalAveragePool", {c.in(0)}, {});
  }
  if (c.rank(0) < 3) return Unsupported("GlobalAveragePool of unknown or low rank");
  std::vector<int64_t> axes;
  for (int64_t a = 2; a < c.rank(0); ++a) axes.push_back(a);
  return c.Final("ReduceMean", {c.in(0), c.ConstI64(axes)}, {{"keep_dims", true}});
}

Status MapSoftmax(NodeContext& c, const std::string& cann) {
  std::vector<int64_t> axes;
  if (c.opset() >= 13) {
    axes = {c.Int("axis", -1)};
  } else {
    // Legacy semantics: softmax over the flattened trailing dims [axis, rank).
    const int64_t r = c.rank(0);
    if (r < 0) return Unsupported("legacy Softmax of a tensor of unknown rank");
    for (int64_t a = NormAxis(c.Int("axis", 1), r); a < r; ++a) axes.push_back(a);
  }
  return c.Final(cann, {c.in(0)}, {{"axes", axes}});
}

Status MapGemm(NodeContext& c) {
  const float alpha = c.Float("alpha", 1.0f);
  const float beta = c.Float("beta", 1.0f);
  AttrMap attrs{{"transpose_x1", c.Int("transA", 0) != 0},
                {"transpose_x2", c.Int("transB", 0) != 0}};
  const bool has_c = c.has(2);
  // C as MatMulV2's bias when it is a row [N] (or [1, N]) and alpha = beta = 1.
  if (alpha == 1.0f && (!has_c || beta == 1.0f)) {
    if (!has_c) return c.Final("MatMulV2", {c.in(0), c.in(1)}, attrs);
    const auto& bd = c.dims(2);
    const int64_t cols = c.hint(0).dims.size() == 2 ? c.hint(0).dims[1] : -1;
    const bool row = cols > 0 && ((bd.size() == 1 && bd[0] == cols) ||
                                  (bd.size() == 2 && bd[0] == 1 && bd[1] == cols));
    if (row) {
      int32_t bias = c.in(2);
      if (bd.size() == 2) {
        auto flat = c.Emit("Reshape", {bias, c.ConstI64({cols})}, {});
        if (!flat.ok()) return flat.status();
        bias = flat.value()[0];
      }
      return c.Final("MatMulV2", {c.in(0), c.in(1), bias}, attrs);
    }
  }
  // CANN's expansion: Add(Muls(MatMulV2, alpha), Muls(C, beta)).
  auto mm = c.Emit("MatMulV2", {c.in(0), c.in(1)}, attrs);
  if (!mm.ok()) return mm.status();
  int32_t y = mm.value()[0];
  if (alpha != 1.0f) {
    if (!has_c) return c.Final("Muls", {y}, {{"value", alpha}});
    auto scaled = c.Emit("Muls", {y}, {{"value", alpha}});
    if (!scaled.ok()) return scaled.status();
    y = scaled.value()[0];
  }
  if (!has_c) return c.Final("Identity", {y}, {});
  int32_t bias = c.in(2);
  if (beta != 1.0f) {
    auto scaled = c.Emit("Muls", {bias}, {{"value", beta}});
    if (!scaled.ok()) return scaled.status();
    bias = scaled.value()[0];
  }
  return c.Final("Add", {y, bias}, {});
}

// BatchNorm and InstanceNorm are NCHW ops; other ranks normalise the same way on the
// [N, C, prod(spatial), 1] view (Reshape there and back; needs the input's dims).
Status NormOnNchwView(NodeContext& c, const std::string& cann, std::vector<int32_t> rest,
                      AttrMap attrs) {
  const int64_t rank = c.rank(0);
  if (rank == 4) {
    c.builder().SetFormat(c.in(0), Format::kNchw);
    rest.insert(rest.begin(), c.in(0));
    return c.Final(cann, std::move(rest), std::move(attrs));
  }
  const auto& dims = c.dims(0);
  bool known = rank >= 2;
  int64_t spatial = 1;
  for (int64_t i = 0; known && i < rank; ++i) {
    known = dims[static_cast<size_t>(i)] >= 0;
    if (i >= 2) spatial *= dims[static_cast<size_t>(i)];
  }
  if (!known) {
    return Unsupported(
        fmt::format("{} of a {}-D input needs its dims at convert time", cann, rank));
  }
  auto view = c.Emit("Reshape", {c.in(0), c.ConstI64({dims[0], dims[1], spatial, 1})}, {});
  if (!view.ok()) return view.status();
  c.builder().SetFormat(view.value()[0], Format::kNchw);
  rest.insert(rest.begin(), view.value()[0]);
  auto y = c.Emit(cann, std::move(rest), std::move(attrs));
  if (!y.ok()) return y.status();
  return c.Final("Reshape", {y.value()[0], c.ConstI64(dims)}, {});
}

Status MapBatchNorm(NodeContext& c) {
  if (c.Int("training_mode", 0) != 0 || c.wants(1) || c.wants(2)) {
    return Unsupported("BatchNormalization training mode (running statistics outputs)");
  }
  return NormOnNchwView(c, "BatchNorm", {c.in(1), c.in(2), c.in(3), c.in(4)},
                        {{"epsilon", c.Float("epsilon", 1e-5f)},
                         {"data_format", std::string("NCHW")},
                         {"is_training", false}});
}

Status MapInstanceNorm(NodeContext& c) {
  return NormOnNchwView(
      c, "InstanceNorm", {c.in(1), c.in(2)},
      {{"data_format", std::string("NCHW")}, {"epsilon", c.Float("epsilon", 1e-5f)}});
}

// LayerNorm gives (y, mean, variance); ONNX's InvStdDev is Rsqrt(variance + epsilon), as in
// CANN's expansion.
Status MapLayerNorm(NodeContext& c) {
  if (c.Int("stash_type", 1) != 1) return Unsupported("stash_type != 1");
  if (c.rank(0) < 0) return Unsupported("LayerNormalization of unknown rank");
  const int64_t axis = NormAxis(c.Int("axis", -1), c.rank(0));
  const float epsilon = c.Float("epsilon", 1e-5f);
  int32_t beta = c.in(2);
  if (beta < 0) {
    auto zero = c.Emit("ZerosLike", {c.in(1)}, {});
    if (!zero.ok()) return zero.status();
    beta = zero.value()[0];
  }
  const size_t outs = c.wants(1) || c.wants(2) ? 3 : 1;
  auto ln =
      c.FinalPartial("LayerNorm", {c.in(0), c.in(1), beta},
                     {{"begin_norm_axis", axis}, {"begin_params_axis", axis}, {"epsilon", epsilon}},
                     outs, std::min<size_t>(outs, 2));
  if (!ln.ok()) return ln.status();
  if (!c.wants(2)) return Status::Ok();
  auto shifted = c.Emit("Adds", {ln.value()[2]}, {{"value", epsilon}});
  if (!shifted.ok()) return shifted.status();
  return c.FinalAt(2, "Rsqrt", {shifted.value()[0]}, {});
}

Status MapSpace(NodeContext& c, const std::string& cann) {
  if (c.rank(0) != 4) return Unsupported(cann + " needs a 4-D input");
  c.builder().SetFormat(c.in(0), Format::kNchw);
  AttrMap attrs{{"block_size", c.Int("blocksize", 1)}, {"data_format", std::string("NCHW")}};
  if (cann == "DepthToSpace") attrs["mode"] = c.Str("mode", "DCR");
  return c.Final(cann, {c.in(0)}, std::move(attrs));
}

Status MapResize(NodeContext& c) {
  if (c.opset() < 11) return Unsupported("Resize-10 (scales only)");
  std::vector<int32_t> ins = {c.in(0)};
  for (size_t i = 1; i < 4; ++i) {
    const bool empty = c.has(i) && c.Ints(i).has_value() && c.Ints(i)->empty();
    const bool empty_float = c.has(i) && c.Doubles(i).has_value() && c.Doubles(i)->empty();
    if (!c.has(i) || empty || empty_float) {
      ins.push_back(-1);
      continue;
    }
    int32_t in = c.in(i);
    if (i == 2 && c.dtype(i) != DataType::kFloat) {
      auto cast =
          c.Emit("Cast", {in}, {{"dst_type", int64_t{static_cast<int32_t>(DataType::kFloat)}}});
      if (!cast.ok()) return cast.status();
      in = cast.value()[0];
    }
    ins.push_back(in);
  }
  return c.Final(
      "Resize", std::move(ins),
      {{"coordinate_transformation_mode", c.Str("coordinate_transformation_mode", "half_pixel")},
       {"cubic_coeff_a", c.Float("cubic_coeff_a", -0.75f)},
       {"exclude_outside", c.Int("exclude_outside", 0)},
       {"extrapolation_value", c.Float("extrapolation_value", 0.0f)},
       {"mode", c.Str("mode", "nearest")},
       {"nearest_mode", c.Str("nearest_mode", "round_prefer_floor")}});
}

Status MapSelu(NodeContext& c) {
  if (!c.Has("alpha") && !c.Has("gamma")) return Simple(c, "Selu");
  // gamma * (x > 0 ? x : alpha * (e^x - 1)) is exactly Elu(alpha, scale = gamma).
  return c.Final("Elu", {c.in(0)},
                 {{"alpha", c.Float("alpha", 1.67326319217681884765625f)},
                  {"scale", c.Float("gamma", 1.05070102214813232421875f)}});
}

Status MapCelu(NodeContext& c) {
  // max(0,x) + min(0, alpha * (e^(x/alpha) - 1)) is exactly Elu(alpha, input_scale = 1/alpha).
  const float alpha = c.Float("alpha", 1.0f);
  return c.Final("Elu", {c.in(0)}, {{"alpha", alpha}, {"input_scale", 1.0f / alpha}});
}

Status MapGelu(NodeContext& c) {
  if (c.Str("approximate", "none") != "tanh") {
    return Unsupported("Gelu approximate=none (CANN Gelu is the tanh approximation)");
  }
  return Simple(c, "Gelu");
}

}  // namespace

void AddNnMappings(std::vector<std::pair<std::string_view, MapFn>>* t) {
  t->insert(
      t->end(),
      {
          {"Conv", MapConv},
          {"ConvTranspose", MapConvTranspose},
          {"MaxPool", [](NodeContext& c) { return MapPool(c, true); }},
          {"AveragePool", [](NodeContext& c) { return MapPool(c, false); }},
          {"GlobalMaxPool", MapGlobalMaxPool},
          {"GlobalAveragePool", MapGlobalAveragePool},
          {"Softmax", [](NodeContext& c) { return MapSoftmax(c, "SoftmaxV2"); }},
          {"LogSoftmax", [](NodeContext& c) { return MapSoftmax(c, "LogSoftmaxV2"); }},
          {"Gemm", MapGemm},
          {"BatchNormalization", MapBatchNorm},
          {"InstanceNormalization", MapInstanceNorm},
          {"LayerNormalization", MapLayerNorm},
          {"DepthToSpace", [](NodeContext& c) { return MapSpace(c, "DepthToSpace"); }},
          {"SpaceToDepth", [](NodeContext& c) { return MapSpace(c, "SpaceToDepth"); }},
          {"Resize", MapResize},
          {"Selu", MapSelu},
          {"Celu", MapCelu},
          {"Gelu", MapGelu},
          {"LeakyRelu",
           [](NodeContext& c) {
             return c.Final("LeakyRelu", {c.in(0)}, {{"negative_slope", c.Float("alpha", 0.01f)}});
           }},
          {"Elu",
           [](NodeContext& c) {
             return c.Final("Elu", {c.in(0)}, {{"alpha", c.Float("alpha", 1.0f)}});
           }},
          {"HardSigmoid",
           [](NodeContext& c) {
             return c.Final("HardSigmoid", {c.in(0)},
                            {{"alpha", c.Float("alpha", 0.2f)}, {"beta", c.Float("beta", 0.5f)}});
           }},
          {"Shrink",
           [](NodeContext& c) {
             return c.Final("Shrink", {c.in(0)},
                            {{"lambd", c.Float("lambd", 0.5f)}, {"bias", c.Float("bias", 0.0f)}});
           }},
      });
}

}  // namespace aclsim::convert
