// Convolution of aclnn (Convolution, ConvDepthwise2d) over the op library's cube kernels:
// 1-D as 2-D with H = 1, 2-D on Conv2D / Conv2DTranspose, 3-D on Conv3D / Conv3DTranspose,
// all NCHW-style (NCL, NCHW, NCDHW) with [Cout, Cin / groups, k...] weights ([Cin, Cout /
// groups, k...] transposed), output sizes by PyTorch's formulas, cubeMathType's dtype rules.
#include <fmt/ranges.h>

#include "core/nn/builder.h"
#include "core/nn/checks.h"
#include "core/nn/ops.h"
#include "core/nn/promote.h"

namespace aclsim::core::nn {
namespace {
namespace conv_ops {

using DT = ops::DataType;

// `values` (name `what`) for `spatial` dims: that many values, each >= `min`.
Result<std::vector<int64_t>> PerDim(const Builder& b, const std::vector<int64_t>& values,
                                    const char* what, size_t spatial, int64_t min) {
  if (values.size() != spatial) {
    return Err(StatusCode::kInvalidParam, "{}: {} {} must have {} values (one per spatial dim)",
               b.name(), what, ShapeString(values), spatial);
  }
  for (int64_t v : values) {
    if (v < min) {
      return Err(StatusCode::kInvalidParam, "{}: {} {} must hold values >= {}", b.name(), what,
                 ShapeString(values), min);
    }
  }
  return values;
}

// Padding as (begin, end) per spatial dim: 1-D 1 or 2 values, 2-D 2 (symmetric) or 4
// ([top, bottom, left, right]), 3-D 3.
Result<std::vector<std::pair<int64_t, int64_t>>> Pads(const Builder& b,
                                                      const std::vector<int64_t>& padding,
                                                      size_t spatial) {
  std::vector<std::pair<int64_t, int64_t>> pads;
  const size_t n = padding.size();
  const bool ok = (spatial == 1 && (n == 1 || n == 2)) || (spatial == 2 && (n == 2 || n == 4)) ||
                  (spatial == 3 && n == 3);
  bool negative = false;
  for (int64_t p : padding) negative = negative || p < 0;
  if (!ok || negative) {
    return Err(StatusCode::kInvalidParam,
               "{}: padding {} must be {} non-negative values for a {}-D convolution", b.name(),
               ShapeString(padding),
               spatial == 1   ? "1 or 2"
               : spatial == 2 ? "2 or 4"
                              : "3",
               spatial);
  }
  if (n == 2 * spatial) {
    for (size_t k = 0; k < spatial; ++k) pads.emplace_back(padding[2 * k], padding[2 * k + 1]);
  } else {
    for (size_t k = 0; k < spatial; ++k) pads.emplace_back(padding[k], padding[k]);
  }
  return pads;
}

// The dtype the cube computes in (aclnn_api.md 3.7, as for the matrix products).
Result<DT> ConvCompute(const Builder& b, DT promoted, int8_t cube_math_type) {
  switch (cube_math_type) {
    case 0:
    case 1:
    case 3:
    case 4:
      return promoted;
    case 2:
      if (promoted == DT::kBf16) {
        return Err(StatusCode::kInvalidParam,
                   "{}: cubeMathType 2 (USE_FP16) is not supported for bfloat16 inputs", b.name());
      }
      return DT::kFloat16;
    default:
      return Err(StatusCode::kInvalidParam, "{}: cubeMathType is {}; it must be 0 to 4", b.name(),
                 cube_math_type);
  }
}

}  // namespace conv_ops
}  // namespace

Result<ExecutorPtr> Convolution(const char* name, const ConvArgs& args) {
  using conv_ops::DT;
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(args.input, args.input_what));
  ACLSIM_ASSIGN_OR_RETURN(Value w, b.Input(args.weight, "weight"));
  ACLSIM_ASSIGN_OR_RETURN(Value bias, b.Input(args.bias, "bias", true));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(args.output, args.output_what));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  for (const auto& [v, what] :
       {std::pair{&x, args.input_what}, std::pair{&w, "weight"}, std::pair{&z, args.output_what}}) {
    ACLSIM_RETURN_IF_ERROR(checks::RequireNnFloat(b, *v, what));
  }
  if (x.rank() < 3 || x.rank() > 5 || w.rank() != x.rank()) {
    return Err(StatusCode::kInvalidParam,
               "{}: {} {} and weight {} must both be 3-D (NCL), 4-D (NCHW) or 5-D (NCDHW)",
               b.name(), args.input_what, ShapeString(x.dims), ShapeString(w.dims));
  }
  const size_t spatial = x.rank() - 2;
  ACLSIM_ASSIGN_OR_RETURN(auto stride, conv_ops::PerDim(b, args.stride, "stride", spatial, 1));
  ACLSIM_ASSIGN_OR_RETURN(auto dilation,
                          conv_ops::PerDim(b, args.dilation, "dilation", spatial, 1));
  ACLSIM_ASSIGN_OR_RETURN(auto pads, conv_ops::Pads(b, args.padding, spatial));
  std::vector<int64_t> out_pad(spatial, 0);
  if (args.transposed) {
    ACLSIM_ASSIGN_OR_RETURN(out_pad,
                            conv_ops::PerDim(b, args.output_padding, "outputPadding", spatial, 0));
  }
  const int64_t groups = args.groups;
  const int64_t cin = x.dims[1];
  if (groups < 1 || groups > 65535 || cin % groups != 0) {
    return Err(StatusCode::kInvalidParam,
               "{}: groups is {}; it must be in [1, 65535] and divide the {} input channels",
               b.name(), groups, cin);
  }
  // Weight: [Cout, Cin / groups, k...]; transposed [Cin, Cout / groups, k...].
  const int64_t cout = args.transposed ? w.dims[1] * groups : w.dims[0];
  const bool channels_ok =
      args.transposed ? w.dims[0] == cin : (w.dims[1] * groups == cin && cout % groups == 0);
  if (!channels_ok) {
    return Err(StatusCode::kInvalidParam,
               "{}: weight {} does not fit {} channels in {} groups ({} weights are [{}])",
               b.name(), ShapeString(w.dims), cin, groups,
               args.transposed ? "transposed" : "direct",
               args.transposed ? "Cin, Cout / groups, k..." : "Cout, Cin / groups, k...");
  }
  std::vector<int64_t> want = {x.dims[0], cout};
  for (size_t k = 0; k < spatial; ++k) {
    const int64_t in = x.dims[k + 2];
    const int64_t kernel = w.dims[k + 2];
    const int64_t span = dilation[k] * (kernel - 1) + 1;
    int64_t o = 0;
    if (args.transposed) {
      if (out_pad[k] >= stride[k] && out_pad[k] >= dilation[k]) {
        return Err(StatusCode::kInvalidParam,
                   "{}: outputPadding {} must be smaller than the stride or the dilation", b.name(),
                   ShapeString(out_pad));
      }
      o = (in - 1) * stride[k] - pads[k].first - pads[k].second + span + out_pad[k];
    } else {
      o = (in + pads[k].first + pads[k].second - span) / stride[k] + 1;
      if (in + pads[k].first + pads[k].second < span) o = 0;
    }
    if (o <= 0) {
      return Err(StatusCode::kInvalidParam,
                 "{}: {} {} with weight {} gives an empty output along spatial dim {}", b.name(),
                 args.input_what, ShapeString(x.dims), ShapeString(w.dims), k);
    }
    want.push_back(o);
  }
  if (z.dims != want) {
    return Err(StatusCode::kInvalidParam, "{}: {} has shape {} but the convolution gives {}",
               b.name(), args.output_what, ShapeString(z.dims), ShapeString(want));
  }
  if (bias.present() &&
      (bias.rank() != 1 || bias.dims[0] != cout || !checks::IsNnFloat(bias.dtype))) {
    return Err(StatusCode::kInvalidParam, "{}: bias is {} {}; it must be a float [{}]", b.name(),
               ops::DataTypeName(bias.dtype), ShapeString(bias.dims), cout);
  }
  if ((x.dtype == DT::kBf16) != (w.dtype == DT::kBf16)) {
    return Err(StatusCode::kInvalidParam, "{}: {} is {} and weight is {}; bfloat16 does not mix",
               b.name(), args.input_what, ops::DataTypeName(x.dtype), ops::DataTypeName(w.dtype));
  }
  ACLSIM_ASSIGN_OR_RETURN(
      DT compute, conv_ops::ConvCompute(b, *Promote(x.dtype, w.dtype), args.cube_math_type));
  if (z.numel() == 0 || x.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(Value xc, b.Cast(x, compute));
  ACLSIM_ASSIGN_OR_RETURN(Value wc, b.Cast(w, compute));
  Value bc;
  if (bias.present()) {
    ACLSIM_ASSIGN_OR_RETURN(bc, b.Cast(bias, compute));
  }
  // 1-D runs as 2-D with H = 1.
  std::vector<int64_t> out_dims = want;
  if (spatial == 1) {
    ACLSIM_ASSIGN_OR_RETURN(xc, b.Reshape(xc, {x.dims[0], x.dims[1], 1, x.dims[2]}));
    ACLSIM_ASSIGN_OR_RETURN(wc, b.Reshape(wc, {w.dims[0], w.dims[1], 1, w.dims[2]}));
    stride.insert(stride.begin(), 1);
    dilation.insert(dilation.begin(), 1);
    pads.insert(pads.begin(), {0, 0});
    out_dims = {want[0], want[1], 1, want[2]};
  }
  const bool three = spatial == 3;
  std::vector<int64_t> strides = {1, 1};
  std::vector<int64_t> dilations = {1, 1};
  std::vector<int64_t> pad_list;
  for (size_t k = 0; k < stride.size(); ++k) {
    strides.push_back(stride[k]);
    dilations.push_back(dilation[k]);
    pad_list.push_back(pads[k].first);
    pad_list.push_back(pads[k].second);
  }
  ops::AttrMap attrs = {{"strides", strides},
                        {"pads", pad_list},
                        {"dilations", dilations},
                        {"groups", groups},
                        {"data_format", std::string(three ? "NCDHW" : "NCHW")}};
  Value y;
  if (args.transposed) {
    ACLSIM_ASSIGN_OR_RETURN(y, b.Op1(three ? "Conv3DTranspose" : "Conv2DTranspose",
                                     {xc, wc, bc, Value{}}, attrs, {{0, out_dims}}));
  } else {
    ACLSIM_ASSIGN_OR_RETURN(y, b.Op1(three ? "Conv3D" : "Conv2D", {xc, wc, bc, Value{}}, attrs));
  }
  ACLSIM_ASSIGN_OR_RETURN(y, b.Reshape(y, want));
  ACLSIM_RETURN_IF_ERROR(b.Store(y, z));
  return b.Finish();
}

}  // namespace aclsim::core::nn
