// Neural-network ops (cann_ops.md 1E convolution, 1F pooling, 1G normalization/softmax/bias/
// dropout). This file holds softmax, BiasAdd and Dropout and registers the sub-groups:
// convolution (conv_ops.cc, conv3d_ops.cc), pooling (pool_ops.cc, pool3d_ops.cc) and
// normalization (norm_ops.cc).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "ops/kernels.h"
#include "ops/op_group.h"

namespace aclsim::ops {

namespace {

// Normalised, de-duplicated axes of the `axes` attribute for a tensor of `rank`.
Result<std::vector<bool>> AxesMask(const OpContext* ctx, const std::vector<int64_t>& axes,
                                   int64_t rank) {
  std::vector<bool> mask(static_cast<size_t>(std::max<int64_t>(rank, 1)), false);
  for (int64_t axis : axes) {
    const int64_t bound = std::max<int64_t>(rank, 1);
    if (axis < -bound || axis >= bound) {
      const std::string msg =
          fmt::format("axes value {} is out of range for rank {} (attribute 'axes')", axis, rank);
      if (ctx != nullptr) return ctx->Fail(StatusCode::kOpAttrNotMatch, "{}", msg);
      return Status(StatusCode::kOpAttrNotMatch, msg);
    }
    mask[static_cast<size_t>(axis < 0 ? axis + bound : axis)] = true;
  }
  return mask;
}

// SoftmaxV2's mask; with the ONNX parser's private attribute need_fusion (ONNX Softmax,
// opset <= 12) the op has the semantics of GE's fusion pass: the input is flattened to 2-D at
// the (single) axis, so the softmax runs over that axis and every later one.
Result<std::vector<bool>> SoftmaxMask(const OpContext* ctx, const AttrReader& attrs, int64_t rank) {
  ACLSIM_ASSIGN_OR_RETURN(auto mask, AxesMask(ctx, attrs.GetInts("axes"), rank));
  if (attrs.Has("need_fusion") && attrs.GetInt("need_fusion") != 0) {
    auto first = std::find(mask.begin(), mask.end(), true);
    std::fill(first, mask.end(), true);
  }
  return mask;
}

// For every element of `dims`, the index of its group: the flat index over the dims that are
// not masked (softmax over the masked axes normalises within a group). *groups = count.
std::vector<int64_t> GroupKeys(const std::vector<int64_t>& dims, const std::vector<bool>& mask,
                               int64_t* groups) {
  const size_t rank = dims.size();
  std::vector<int64_t> key_stride(rank, 0);
  int64_t count = 1;
  for (size_t d = rank; d-- > 0;) {
    if (!mask[d]) {
      key_stride[d] = count;
      count *= dims[d];
    }
  }
  *groups = count;
  const int64_t total = Product(dims);
  std::vector<int64_t> keys(static_cast<size_t>(total), 0);
  std::vector<int64_t> index(rank, 0);
  int64_t key = 0;
  for (int64_t i = 0; i < total; ++i) {
    keys[static_cast<size_t>(i)] = key;
    for (size_t d = rank; d-- > 0;) {
      ++index[d];
      key += key_stride[d];
      if (index[d] < dims[d]) break;
      key -= key_stride[d] * index[d];
      index[d] = 0;
    }
  }
  return keys;
}

OpDef SoftmaxOp(std::string type, std::string in_name, std::string out_name, bool log) {
  const std::vector<DataType> types = {DataType::kDouble, DataType::kFloat16, DataType::kBf16,
                                       DataType::kFloat};
  OpDef def;
  def.type = std::move(type);
  def.inputs = {In(std::move(in_name), types)};
  def.outputs = {Out(std::move(out_name), types)};
  def.attrs = {OptAttr("axes", AttrType::kListInt, std::vector<int64_t>{-1})};
  if (!log) {
    def.attrs.push_back(OptAttr("half_to_float", AttrType::kBool, false));
    def.attrs.push_back(OptAttr("need_fusion", AttrType::kInt, int64_t{0}));  // ONNX parser
  }
  def.ops_per_element = 8;
  def.infer = [log](OpContext& ctx) -> Status {
    const auto& x = ctx.input(0);
    const auto& axes = ctx.GetInts("axes");
    if (axes.empty()) {
      return ctx.Fail(StatusCode::kOpAttrNotMatch, "attribute 'axes' must not be empty");
    }
    ACLSIM_ASSIGN_OR_RETURN(auto mask, SoftmaxMask(&ctx, ctx, static_cast<int64_t>(x.dims.size())));
    (void)mask;
    DataType out = x.dtype;
    if (!log && ctx.GetBool("half_to_float") && x.dtype == DataType::kFloat16) {
      out = DataType::kFloat;
    }
    ctx.SetOutput(0, out, x.dims);
    return Status::Ok();
  };
  def.run = [log](RunContext& ctx) -> Status {
    const Tensor& x = ctx.in(0);
    ACLSIM_ASSIGN_OR_RETURN(auto mask, SoftmaxMask(nullptr, ctx, x.rank()));
    std::vector<int64_t> dims = x.dims;
    if (dims.empty()) dims = {1};
    int64_t groups = 0;
    const auto keys = GroupKeys(dims, mask, &groups);
    const auto values = ToDoubles(x);
    std::vector<double> max(static_cast<size_t>(groups), -std::numeric_limits<double>::infinity());
    std::vector<double> sum(static_cast<size_t>(groups), 0.0);
    for (size_t i = 0; i < values.size(); ++i) {
      double& m = max[static_cast<size_t>(keys[i])];
      if (values[i] > m || std::isnan(values[i])) m = std::isnan(m) ? m : values[i];
    }
    std::vector<double> out(values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      const auto g = static_cast<size_t>(keys[i]);
      out[i] = values[i] - max[g];
      sum[g] += std::exp(out[i]);
    }
    for (size_t i = 0; i < values.size(); ++i) {
      const double s = sum[static_cast<size_t>(keys[i])];
      out[i] = log ? out[i] - std::log(s) : std::exp(out[i]) / s;
    }
    FromDoubles(out, ctx.out(0));
    return Status::Ok();
  };
  return def;
}

// The channel axis of a data_format string ("NHWC"/"NDHWC": last; "NCHW"/"NCDHW"/"NC"...: 1).
Result<int64_t> BiasChannelAxis(const std::string& format, int64_t rank) {
  if (format == "NHWC" || format == "NDHWC") return rank - 1;
  if (format == "NCHW" || format == "NCDHW" || format == "NC" || format == "NCL" ||
      format == "ND") {
    return format == "ND" ? rank - 1 : std::min<int64_t>(1, rank - 1);
  }
  return Status(StatusCode::kOpAttrNotMatch,
                fmt::format("attribute 'data_format' is \"{}\"; expected NHWC, NCHW, NDHWC or "
                            "NCDHW",
                            format));
}

Status InferBiasAdd(OpContext& ctx) {
  const auto& x = ctx.input(0);
  const auto& bias = ctx.input(1);
  const int64_t rank = static_cast<int64_t>(x.dims.size());
  if (rank < 1) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} must have rank >= 1", ctx.InputName(0));
  }
  auto axis = BiasChannelAxis(ctx.GetString("data_format"), rank);
  if (!axis.ok()) return ctx.Fail(axis.status().code(), "{}", axis.status().message());
  if (bias.dtype != x.dtype) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} is {} but {} is {}; they must match",
                    ctx.InputName(1), DataTypeName(bias.dtype), ctx.InputName(0),
                    DataTypeName(x.dtype));
  }
  const int64_t channels = x.dims[static_cast<size_t>(axis.value())];
  if (bias.dims.size() != 1 || bias.dims[0] != channels) {
    return ctx.Fail(StatusCode::kOpInputNotMatch,
                    "{} must be 1-D with {} elements (dim {} of {} for data_format {}) but has "
                    "shape [{}]",
                    ctx.InputName(1), channels, axis.value(), ctx.InputName(0),
                    ctx.GetString("data_format"), fmt::join(bias.dims, ", "));
  }
  ctx.SetOutput(0, x.dtype, x.dims);
  return Status::Ok();
}

Status RunBiasAdd(RunContext& ctx) {
  const Tensor& x = ctx.in(0);
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis, BiasChannelAxis(ctx.GetString("data_format"), x.rank()));
  const int64_t channels = x.dims[static_cast<size_t>(axis)];
  const int64_t inner = Product(x.dims, static_cast<size_t>(axis) + 1);
  return DispatchType(x.dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* px = x.ptr<const T>();
    const T* pb = ctx.in(1).ptr<const T>();
    T* py = ctx.out(0).ptr<T>();
    const int64_t n = x.numel();
    for (int64_t i = 0; i < n; ++i) {
      const int64_t c = (i / inner) % channels;
      py[i] = FromCompute<T>(ToCompute(px[i]) + ToCompute(pb[c]));
    }
    return Status::Ok();
  });
}

}  // namespace

void RegisterNnOps(OpRegistry& registry) {
  registry.Add(SoftmaxOp("SoftmaxV2", "x", "y", false));
  registry.Add(SoftmaxOp("LogSoftmaxV2", "logits", "logsoftmax", true));

  OpDef bias_add;
  bias_add.type = "BiasAdd";
  bias_add.inputs = {In("x", NumberTypes()), In("bias", NumberTypes())};
  bias_add.outputs = {Out("y", NumberTypes())};
  bias_add.attrs = {OptAttr("data_format", AttrType::kString, std::string("NHWC"))};
  bias_add.infer = InferBiasAdd;
  bias_add.run = RunBiasAdd;
  registry.Add(std::move(bias_add));

  // Caffe-style Dropout: identity at inference.
  OpDef dropout;
  dropout.type = "Dropout";
  dropout.inputs = {In("x", FloatTypes())};
  dropout.outputs = {Out("y", FloatTypes())};
  dropout.attrs = {OptAttr("dropout_ratio", AttrType::kFloat, 0.5f),
                   OptAttr("scale_train", AttrType::kBool, true),
                   OptAttr("alpha", AttrType::kFloat, 1.0f),
                   OptAttr("beta", AttrType::kFloat, 0.0f)};
  dropout.infer = [](OpContext& ctx) -> Status {
    ctx.SetOutput(0, ctx.input(0).dtype, ctx.input(0).dims);
    return Status::Ok();
  };
  dropout.run = [](RunContext& ctx) -> Status {
    const size_t bytes = static_cast<size_t>(ctx.in(0).numel()) * DataTypeSize(ctx.in(0).dtype);
    if (bytes != 0 && ctx.out(0).data != ctx.in(0).data) {
      std::memmove(ctx.out(0).data, ctx.in(0).data, bytes);
    }
    return Status::Ok();
  };
  registry.Add(std::move(dropout));
}

}  // namespace aclsim::ops
