// The mapping table's neural-network half: convolution, pooling, normalisation, softmax,
// Gemm, activations with attributes, resizing (cann_ops.md 2.2).
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "convert/onnx_ops.h"

namespace aclsim::convert {

using ops::AttrMap;
using ops::DataType;
using ops::Format;

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

// Largest stride, dilation, pad or kernel value the window mappings pass on (the ops' limit).
constexpr int64_t kMaxWindowValue = int64_t{1} << 24;

bool InWindowRange(const std::vector<int64_t>& values, int64_t min) {
  return std::all_of(values.begin(), values.end(),
                     [min](int64_t v) { return v >= min && v <= kMaxWindowValue; });
}

// ONNX pads [begin..., end...] of three spatial dims -> CANN's [head, tail, top, bottom, left,
// right].
std::vector<int64_t> Pads3d(const std::vector<int64_t>& p) {
  return {p[0], p[3], p[1], p[4], p[2], p[5]};
}

std::vector<int64_t> Ncdhw(int64_t fill, const std::vector<int64_t>& spatial) {
  return {fill, fill, spatial[0], spatial[1], spatial[2]};
}

Status MapConv(NodeContext& c) {
  const int64_t rank = c.rank(0);
  if (rank < 3 || rank > 5) {
    return Unsupported(
        fmt::format("Conv with a {}-D input (1-D and 2-D become Conv2D, 3-D Conv3D)", rank));
  }
  if (c.rank(1) != rank) return Unsupported("Conv weights of unknown shape");
  const bool one_d = rank == 3;
  std::vector<int64_t> kernel(c.dims(1).begin() + 2, c.dims(1).end());
  if (!InWindowRange(kernel, 1)) return Unsupported("Conv weights of unknown or huge shape");
  const size_t sp = kernel.size();
  auto strides = c.IntList("strides", std::vector<int64_t>(sp, 1));
  auto dilations = c.IntList("dilations", std::vector<int64_t>(sp, 1));
  if (strides.size() != sp || dilations.size() != sp)
    return Unsupported("strides / dilations rank");
  if (!InWindowRange(strides, 1) || !InWindowRange(dilations, 1)) {
    return Unsupported(fmt::format("strides / dilations outside [1, {}]", kMaxWindowValue));
  }
  auto pads = WindowPads(c, kernel, strides, dilations);
  if (!pads.ok()) return pads.status();
  std::vector<int64_t> p = pads.value();
  if (!InWindowRange(p, 0))
    return Unsupported(fmt::format("pads outside [0, {}]", kMaxWindowValue));
  int32_t x = c.in(0);
  int32_t w = c.in(1);
  if (rank == 5) {
    c.builder().SetFormat(x, Format::kNcdhw);
    c.builder().SetFormat(w, Format::kNcdhw);
    std::vector<int32_t> ins = {x, w};
    if (c.has(2)) ins.push_back(c.in(2));
    return c.Final("Conv3D", std::move(ins),
                   {{"strides", Ncdhw(1, strides)},
                    {"pads", Pads3d(p)},
                    {"dilations", Ncdhw(1, dilations)},
                    {"groups", c.Int("group", 1)},
                    {"data_format", std::string("NCDHW")}});
  }
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

// Output size of one spatial dim of ConvTranspose before pads: stride * (in - 1) + out_pad +
// (kernel - 1) * dilation + 1; nullopt when it overflows.
std::optional<int64_t> DeconvFull(int64_t in, int64_t stride, int64_t out_pad, int64_t kernel,
                                  int64_t dilation) {
  int64_t a = 0;
  int64_t b = 0;
  int64_t full = 0;
  if (__builtin_mul_overflow(stride, in - 1, &a) ||
      __builtin_mul_overflow(kernel - 1, dilation, &b) ||
      __builtin_add_overflow(a, b + out_pad + 1, &full)) {
    return std::nullopt;
  }
  return full;
}

// 1-D ConvTranspose runs as Conv2DTranspose on [N, C, 1, L] (Unsqueeze / Squeeze), 2-D as
// Conv2DTranspose, 3-D as Conv3DTranspose; input_size is computed here from the ONNX rules.
Status MapConvTranspose(NodeContext& c) {
  const int64_t rank = c.rank(0);
  if (rank < 3 || rank > 5 || c.rank(1) != rank) {
    return Unsupported(
        fmt::format("ConvTranspose with a {}-D input (1-D and 2-D become Conv2DTranspose, 3-D "
                    "Conv3DTranspose)",
                    rank));
  }
  const size_t sp = static_cast<size_t>(rank - 2);
  const auto& xd = c.dims(0);
  const auto& wd = c.dims(1);
  std::vector<int64_t> kernel(wd.begin() + 2, wd.end());
  std::vector<int64_t> in_sp(xd.begin() + 2, xd.end());
  if (!InWindowRange(kernel, 1) ||
      !std::all_of(in_sp.begin(), in_sp.end(), [](int64_t v) { return v >= 0; })) {
    return Unsupported("ConvTranspose with unknown spatial dims or a huge kernel");
  }
  auto strides = c.IntList("strides", std::vector<int64_t>(sp, 1));
  auto dilations = c.IntList("dilations", std::vector<int64_t>(sp, 1));
  auto out_pad = c.IntList("output_padding", std::vector<int64_t>(sp, 0));
  auto pads = c.IntList("pads", std::vector<int64_t>(2 * sp, 0));
  if (strides.size() != sp || dilations.size() != sp || out_pad.size() != sp ||
      pads.size() != 2 * sp) {
    return Unsupported("ConvTranspose attribute ranks");
  }
  if (!InWindowRange(strides, 1) || !InWindowRange(dilations, 1) || !InWindowRange(out_pad, 0) ||
      !InWindowRange(pads, 0)) {
    return Unsupported(
        fmt::format("ConvTranspose attribute values outside [0, {}]", kMaxWindowValue));
  }
  const std::string auto_pad = c.Str("auto_pad", "NOTSET");
  if (auto_pad == "VALID") pads.assign(2 * sp, 0);
  const int64_t group = c.Int("group", 1);
  int64_t out_channels = 0;
  if (group < 1 || wd[1] < 0 || __builtin_mul_overflow(wd[1], group, &out_channels)) {
    return Unsupported("ConvTranspose group / weight shape");
  }
  std::vector<int64_t> size = {xd[0], out_channels};
  const auto output_shape = c.IntList("output_shape", {});
  const bool explicit_shape = output_shape.size() == sp;
  if (explicit_shape && !InWindowRange(output_shape, 0)) {
    return Unsupported(fmt::format("ConvTranspose output_shape outside [0, {}]", kMaxWindowValue));
  }
  const bool same = auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER";
  for (size_t i = 0; i < sp; ++i) {
    const auto full = DeconvFull(in_sp[i], strides[i], out_pad[i], kernel[i], dilations[i]);
    if (!full) return Unsupported("ConvTranspose output size overflows");
    int64_t out = *full - pads[i] - pads[sp + i];
    if (explicit_shape) out = output_shape[i];
    if (same && !explicit_shape && __builtin_mul_overflow(in_sp[i], strides[i], &out)) {
      return Unsupported("ConvTranspose output size overflows");
    }
    if (same || explicit_shape) {
      const int64_t total = std::max<int64_t>(0, *full - out);
      pads[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      pads[sp + i] = total - pads[i];
    }
    if (out < 0) return Unsupported("ConvTranspose with a negative output size");
    size.push_back(out);
  }
  std::vector<int32_t> ins = {-1, c.in(0), c.in(1)};
  if (c.has(2)) ins.push_back(c.in(2));
  if (sp == 3) {
    c.builder().SetFormat(c.in(0), Format::kNcdhw);
    c.builder().SetFormat(c.in(1), Format::kNcdhw);
    ins[0] = c.ConstI64(size);
    return c.Final("Conv3DTranspose", std::move(ins),
                   {{"strides", Ncdhw(1, strides)},
                    {"pads", Pads3d(pads)},
                    {"dilations", Ncdhw(1, dilations)},
                    {"groups", group},
                    {"data_format", std::string("NCDHW")},
                    {"output_padding", Ncdhw(0, out_pad)}});
  }
  if (sp == 1) {
    for (size_t j : {size_t{1}, size_t{2}}) {
      auto v = To2d(c, ins[j]);
      if (!v.ok()) return v.status();
      ins[j] = v.value();
    }
    size.insert(size.begin() + 2, 1);
    strides.insert(strides.begin(), 1);
    dilations.insert(dilations.begin(), 1);
    out_pad.insert(out_pad.begin(), 0);
    pads = {0, pads[0], 0, pads[1]};
  }
  c.builder().SetFormat(ins[1], Format::kNchw);
  c.builder().SetFormat(ins[2], Format::kNchw);
  ins[0] = c.ConstI64(size);
  AttrMap attrs{{"strides", std::vector<int64_t>{1, 1, strides[0], strides[1]}},
                {"pads", std::vector<int64_t>{pads[0], pads[2], pads[1], pads[3]}},
                {"dilations", std::vector<int64_t>{1, 1, dilations[0], dilations[1]}},
                {"groups", group},
                {"data_format", std::string("NCHW")},
                {"output_padding", std::vector<int64_t>{0, 0, out_pad[0], out_pad[1]}}};
  if (sp == 2) return c.Final("Conv2DTranspose", std::move(ins), std::move(attrs));
  auto y = c.Emit("Conv2DTranspose", std::move(ins), std::move(attrs));
  if (!y.ok()) return y.status();
  return c.Final("Squeeze", {y.value()[0]}, {{"axis", std::vector<int64_t>{2}}});
}

// Pooling with three spatial dims, or with dilations (MaxPoolV3 has none): MaxPool3D /
// AvgPool3D on NCDHW, lower ranks given unit D (and H) dims by Unsqueeze and Squeeze.
Status MapPool3d(NodeContext& c, bool is_max, std::vector<int64_t> kernel,
                 std::vector<int64_t> strides, std::vector<int64_t> dilations,
                 const std::vector<int64_t>& pads) {
  const size_t sp = kernel.size();
  const size_t add = 3 - sp;
  std::vector<int64_t> p(2 * 3, 0);
  for (size_t i = 0; i < sp; ++i) {
    p[add + i] = pads[i];
    p[3 + add + i] = pads[sp + i];
  }
  kernel.insert(kernel.begin(), add, 1);
  strides.insert(strides.begin(), add, 1);
  dilations.insert(dilations.begin(), add, 1);
  std::vector<int64_t> axes;
  for (size_t i = 0; i < add; ++i) axes.push_back(static_cast<int64_t>(2 + i));
  int32_t x = c.in(0);
  if (add > 0) {
    auto x5 = c.Emit("Unsqueeze", {x}, {{"axes", axes}});
    if (!x5.ok()) return x5.status();
    x = x5.value()[0];
  }
  c.builder().SetFormat(x, Format::kNcdhw);
  const std::string cann = is_max ? "MaxPool3D" : "AvgPool3D";
  AttrMap attrs{{"ksize", Ncdhw(1, kernel)},
                {"strides", Ncdhw(1, strides)},
                {"pads", Pads3d(p)},
                {"data_format", std::string("NCDHW")}};
  if (is_max) {
    attrs["padding"] = std::string("CALCULATED");
    attrs["dilation"] = Ncdhw(1, dilations);
    attrs["ceil_mode"] = c.Int("ceil_mode", 0) != 0 ? int64_t{1} : int64_t{0};
  } else {
    attrs["ceil_mode"] = c.Int("ceil_mode", 0) != 0;
    attrs["count_include_pad"] = c.Int("count_include_pad", 0) != 0;
  }
  if (add == 0) return c.Final(cann, {x}, std::move(attrs), 1);
  auto y = c.Emit(cann, {x}, std::move(attrs));
  if (!y.ok()) return y.status();
  return c.Final("Squeeze", {y.value()[0]}, {{"axis", axes}});
}

Status MapPool(NodeContext& c, bool is_max) {
  const std::string cann = is_max ? "MaxPoolV3" : "AvgPoolV2";
  const int64_t rank = c.rank(0);
  const bool one_d = rank == 3;
  if (rank < 3 || rank > 5) {
    return Unsupported(fmt::format("{} of a {}-D input (1-D to 3-D pooling only)", c.op(), rank));
  }
  if (is_max && c.wants(1)) return Unsupported("MaxPool Indices output (not in MaxPoolV3)");
  if (c.Int("storage_order", 0) != 0) return Unsupported("storage_order=1");
  auto kernel = c.IntList("kernel_shape", {});
  if (kernel.size() != static_cast<size_t>(rank - 2)) return Unsupported("kernel_shape rank");
  auto strides = c.IntList("strides", std::vector<int64_t>(kernel.size(), 1));
  auto dilations = c.IntList("dilations", std::vector<int64_t>(kernel.size(), 1));
  if (strides.size() != kernel.size() || dilations.size() != kernel.size()) {
    return Unsupported("strides / dilations rank");
  }
  if (!InWindowRange(kernel, 1) || !InWindowRange(strides, 1) || !InWindowRange(dilations, 1)) {
    return Unsupported(
        fmt::format("kernel_shape / strides / dilations outside [1, {}]", kMaxWindowValue));
  }
  const bool dilated =
      std::any_of(dilations.begin(), dilations.end(), [](int64_t d) { return d != 1; });
  if (dilated && !is_max) {
    return Unsupported("AveragePool with dilations (AvgPoolV2 and AvgPool3D have none)");
  }
  auto pads = WindowPads(c, kernel, strides, dilations);
  if (!pads.ok()) return pads.status();
  if (!InWindowRange(pads.value(), 0)) {
    return Unsupported(fmt::format("pads outside [0, {}]", kMaxWindowValue));
  }
  if (rank == 5 || dilated) return MapPool3d(c, is_max, kernel, strides, dilations, pads.value());
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

// Training mode (4-D only): BatchNorm with is_training normalises with the batch statistics;
// ONNX's running statistics are input * momentum + batch * (1 - momentum), from the batch mean
// and (biased) variance that BatchNorm gives as reserve_space_1 / reserve_space_2.
Status MapBatchNorm(NodeContext& c) {
  const bool training = c.Int("training_mode", 0) != 0;
  if (!training) {
    if (c.wants(1) || c.wants(2)) {
      return Unsupported("BatchNormalization statistics outputs without training_mode");
    }
    return NormOnNchwView(c, "BatchNorm", {c.in(1), c.in(2), c.in(3), c.in(4)},
                          {{"epsilon", c.Float("epsilon", 1e-5f)},
                           {"data_format", std::string("NCHW")},
                           {"is_training", false}});
  }
  if (c.rank(0) != 4) return Unsupported("BatchNormalization training mode of a non-4-D input");
  c.builder().SetFormat(c.in(0), Format::kNchw);
  const float momentum = c.Float("momentum", 0.9f);
  const bool stats = c.wants(1) || c.wants(2);
  auto bn = c.FinalPartial("BatchNorm", {c.in(0), c.in(1), c.in(2), c.in(3), c.in(4)},
                           {{"epsilon", c.Float("epsilon", 1e-5f)},
                            {"data_format", std::string("NCHW")},
                            {"is_training", true}},
                           stats ? 6 : 1, 1);
  if (!bn.ok()) return bn.status();
  for (size_t j = 1; j <= 2; ++j) {
    if (!c.wants(j)) continue;
    auto running = c.Emit("Muls", {c.in(2 + j)}, {{"value", momentum}});
    if (!running.ok()) return running.status();
    auto batch = c.Emit("Muls", {bn.value()[2 + j]}, {{"value", 1.0f - momentum}});
    if (!batch.ok()) return batch.status();
    ACLSIM_RETURN_IF_ERROR(c.FinalAt(j, "Add", {running.value()[0], batch.value()[0]}, {}));
  }
  return Status::Ok();
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
