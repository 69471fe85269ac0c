// Normalization ops (cann_ops.md 1G): LayerNorm, BNInfer, BatchNorm, BNInference,
// InstanceNorm. Statistics are computed in double; outputs are rounded once.
#include <algorithm>
#include <cmath>

#include "ops/kernels.h"
#include "ops/op_group.h"

namespace aclsim::ops {

namespace {

const std::vector<DataType>& NormTypes() {
  static const std::vector<DataType> types = {DataType::kFloat, DataType::kFloat16,
                                              DataType::kBf16};
  return types;
}

ArgDef OptOut(std::string name, std::vector<DataType> dtypes = {}) {
  return {std::move(name), ArgKind::kOptional, std::move(dtypes)};
}

// Sets output i if the caller asked for it (trailing statistics outputs may be omitted).
void SetOptionalOutput(OpContext& ctx, size_t i, DataType dtype, std::vector<int64_t> dims) {
  if (i < ctx.num_outputs()) ctx.SetOutput(i, dtype, std::move(dims));
}

void StoreOptional(RunContext& ctx, size_t i, const std::vector<double>& values) {
  if (i < ctx.num_outputs() && ctx.out(i).data != nullptr) FromDoubles(values, ctx.out(i));
}

// The channel axis of a BN-style data_format: "NHWC"/"NDHWC" last, "NCHW"/"NCDHW"/"NC" 1.
Result<int64_t> ChannelAxis(const OpContext* ctx, const std::string& format, int64_t rank) {
  if (format == "NHWC" || format == "NDHWC") return rank - 1;
  if (format == "NCHW" || format == "NCDHW" || format == "NC" || format == "NCL") {
    return std::min<int64_t>(1, rank - 1);
  }
  const std::string msg =
      fmt::format("attribute 'data_format' is \"{}\"; expected NCHW, NHWC, NCDHW or NDHWC", format);
  if (ctx != nullptr) return ctx->Fail(StatusCode::kOpAttrNotMatch, "{}", msg);
  return Status(StatusCode::kOpAttrNotMatch, msg);
}

// Checks that inputs [first, last) (those present) have `channels` elements.
Status CheckChannelParams(const OpContext& ctx, size_t first, size_t last, int64_t channels) {
  for (size_t i = first; i < last; ++i) {
    if (!ctx.has_input(i)) continue;
    if (ctx.input(i).ElementCount() != channels) {
      return ctx.Fail(StatusCode::kOpInputNotMatch,
                      "{} must have {} elements (one per channel of {}) but has shape [{}]",
                      ctx.InputName(i), channels, ctx.InputName(0),
                      fmt::join(ctx.input(i).dims, ", "));
    }
  }
  return Status::Ok();
}

// Per-channel mean and biased variance of x over every dim but `axis`.
void ChannelStats(const std::vector<double>& x, const std::vector<int64_t>& dims, int64_t axis,
                  std::vector<double>* mean, std::vector<double>* var) {
  const int64_t channels = dims[static_cast<size_t>(axis)];
  const int64_t inner = Product(dims, static_cast<size_t>(axis) + 1);
  mean->assign(static_cast<size_t>(channels), 0.0);
  var->assign(static_cast<size_t>(channels), 0.0);
  const int64_t per = channels == 0 ? 0 : static_cast<int64_t>(x.size()) / channels;
  for (size_t i = 0; i < x.size(); ++i) {
    (*mean)[static_cast<size_t>((static_cast<int64_t>(i) / inner) % channels)] += x[i];
  }
  for (auto& m : *mean) m /= static_cast<double>(std::max<int64_t>(per, 1));
  for (size_t i = 0; i < x.size(); ++i) {
    const auto c = static_cast<size_t>((static_cast<int64_t>(i) / inner) % channels);
    const double d = x[i] - (*mean)[c];
    (*var)[c] += d * d;
  }
  for (auto& v : *var) v /= static_cast<double>(std::max<int64_t>(per, 1));
}

// y = scale * (x - mean) / sqrt(var + eps) + offset per channel (scale/offset may be empty).
std::vector<double> NormalizeChannels(const std::vector<double>& x,
                                      const std::vector<int64_t>& dims, int64_t axis,
                                      const std::vector<double>& mean,
                                      const std::vector<double>& var, double eps,
                                      const std::vector<double>& scale,
                                      const std::vector<double>& offset) {
  const int64_t channels = dims[static_cast<size_t>(axis)];
  const int64_t inner = Product(dims, static_cast<size_t>(axis) + 1);
  std::vector<double> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const auto c = static_cast<size_t>((static_cast<int64_t>(i) / inner) % channels);
    double v = (x[i] - mean[c]) / std::sqrt(var[c] + eps);
    if (!scale.empty()) v *= scale[c];
    if (!offset.empty()) v += offset[c];
    y[i] = v;
  }
  return y;
}

// --- LayerNorm ---------------------------------------------------------------------------

struct LayerNormAxes {
  int64_t norm = 0;
  int64_t params = 0;
};

Result<LayerNormAxes> LayerNormAxesOf(const OpContext* ctx, const AttrReader& attrs, int64_t rank) {
  LayerNormAxes axes;
  const int64_t bound = std::max<int64_t>(rank, 1);
  for (const char* name : {"begin_norm_axis", "begin_params_axis"}) {
    const int64_t axis = attrs.GetInt(name);
    if (axis < -bound || axis >= bound) {
      const std::string msg =
          fmt::format("attribute '{}' = {} is out of range for rank {}", name, axis, rank);
      if (ctx != nullptr) return ctx->Fail(StatusCode::kOpAttrNotMatch, "{}", msg);
      return Status(StatusCode::kOpAttrNotMatch, msg);
    }
    (name[6] == 'n' ? axes.norm : axes.params) = axis < 0 ? axis + bound : axis;
  }
  return axes;
}

// LayerNorm (y, mean, variance in x's dtype) and LayerNormV3 (y, mean and rstd in f32;
// gamma and beta optional: 1 and 0).
Status InferLayerNormOf(OpContext& ctx, bool v3) {
  const auto& x = ctx.input(0);
  const int64_t rank = static_cast<int64_t>(x.dims.size());
  ACLSIM_ASSIGN_OR_RETURN(auto axes, LayerNormAxesOf(&ctx, ctx, rank));
  const std::vector<int64_t> param_dims(x.dims.begin() + std::min<int64_t>(axes.params, rank),
                                        x.dims.end());
  for (size_t i = 1; i < 3; ++i) {
    if (v3 && !ctx.has_input(i)) continue;
    const auto& p = ctx.input(i);
    if (p.dims != param_dims && p.ElementCount() != Product(param_dims)) {
      return ctx.Fail(StatusCode::kOpInputNotMatch,
                      "{} shape [{}] must be x.shape[begin_params_axis:] = [{}]", ctx.InputName(i),
                      fmt::join(p.dims, ", "), fmt::join(param_dims, ", "));
    }
    if (p.dtype != x.dtype && p.dtype != DataType::kFloat) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} is {} but {} is {}", ctx.InputName(i),
                      DataTypeName(p.dtype), ctx.InputName(0), DataTypeName(x.dtype));
    }
  }
  std::vector<int64_t> stat_dims = x.dims;
  for (int64_t d = axes.norm; d < rank; ++d) stat_dims[static_cast<size_t>(d)] = 1;
  ctx.SetOutput(0, x.dtype, x.dims);
  const DataType stat_dtype = v3 ? DataType::kFloat : x.dtype;
  SetOptionalOutput(ctx, 1, stat_dtype, stat_dims);
  SetOptionalOutput(ctx, 2, stat_dtype, stat_dims);
  return Status::Ok();
}

Status InferLayerNorm(OpContext& ctx) { return InferLayerNormOf(ctx, false); }
Status InferLayerNormV3(OpContext& ctx) { return InferLayerNormOf(ctx, true); }

Status RunLayerNormOf(RunContext& ctx, bool v3) {
  const Tensor& x = ctx.in(0);
  ACLSIM_ASSIGN_OR_RETURN(auto axes, LayerNormAxesOf(nullptr, ctx, x.rank()));
  const auto values = ToDoubles(x);
  const auto gamma = ctx.has_input(1) ? ToDoubles(ctx.in(1)) : std::vector<double>{1.0};
  const auto beta = ctx.has_input(2) ? ToDoubles(ctx.in(2)) : std::vector<double>{0.0};
  const double eps = ctx.GetFloat("epsilon");
  const int64_t inner = x.rank() == 0 ? 1 : Product(x.dims, static_cast<size_t>(axes.norm));
  const int64_t param_count =
      std::max<int64_t>(1, x.rank() == 0 ? 1 : Product(x.dims, static_cast<size_t>(axes.params)));
  const int64_t outer = inner == 0 ? 0 : static_cast<int64_t>(values.size()) / inner;
  std::vector<double> y(values.size());
  std::vector<double> means(static_cast<size_t>(outer));
  std::vector<double> vars(static_cast<size_t>(outer));
  for (int64_t o = 0; o < outer; ++o) {
    const double* row = values.data() + o * inner;
    double mean = 0;
    for (int64_t i = 0; i < inner; ++i) mean += row[i];
    mean /= static_cast<double>(inner);
    double var = 0;
    for (int64_t i = 0; i < inner; ++i) var += (row[i] - mean) * (row[i] - mean);
    var /= static_cast<double>(inner);
    const double inv = 1.0 / std::sqrt(var + eps);
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t flat = o * inner + i;
      const auto p = static_cast<size_t>(flat % param_count);
      const double g = gamma.size() == 1 ? gamma[0] : gamma[p];
      const double bias = beta.size() == 1 ? beta[0] : beta[p];
      y[static_cast<size_t>(flat)] = (row[i] - mean) * inv * g + bias;
    }
    means[static_cast<size_t>(o)] = mean;
    vars[static_cast<size_t>(o)] = v3 ? inv : var;
  }
  FromDoubles(y, ctx.out(0));
  StoreOptional(ctx, 1, means);
  StoreOptional(ctx, 2, vars);
  return Status::Ok();
}

Status RunLayerNorm(RunContext& ctx) { return RunLayerNormOf(ctx, false); }
Status RunLayerNormV3(RunContext& ctx) { return RunLayerNormOf(ctx, true); }

// --- BNInfer / BatchNorm / BNInference ---------------------------------------------------------

int64_t FormatChannelAxis(Format format, int64_t rank) {
  if (format == Format::kNhwc || format == Format::kNdhwc) return rank - 1;
  return std::min<int64_t>(1, rank - 1);
}

Status InferBnInfer(OpContext& ctx) {
  const auto& x = ctx.input(0);
  const int64_t rank = static_cast<int64_t>(x.dims.size());
  if (rank < 2) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} must have rank >= 2 but has shape [{}]",
                    ctx.InputName(0), fmt::join(x.dims, ", "));
  }
  const int64_t channels = x.dims[static_cast<size_t>(FormatChannelAxis(x.format, rank))];
  ACLSIM_RETURN_IF_ERROR(CheckChannelParams(ctx, 1, 5, channels));
  ctx.SetOutput(0, x.dtype, x.dims);
  return Status::Ok();
}

Status RunBnInfer(RunContext& ctx) {
  const Tensor& x = ctx.in(0);
  const int64_t axis = FormatChannelAxis(ctx.call().inputs[0].format, x.rank());
  auto y = NormalizeChannels(ToDoubles(x), x.dims, axis, ToDoubles(ctx.in(3)), ToDoubles(ctx.in(4)),
                             ctx.GetFloat("epsilon"), ToDoubles(ctx.in(1)), ToDoubles(ctx.in(2)));
  FromDoubles(y, ctx.out(0));
  return Status::Ok();
}

Status InferBatchNorm(OpContext& ctx) {
  const auto& x = ctx.input(0);
  const int64_t rank = static_cast<int64_t>(x.dims.size());
  if (rank < 2) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} must have rank >= 2 but has shape [{}]",
                    ctx.InputName(0), fmt::join(x.dims, ", "));
  }
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis, ChannelAxis(&ctx, ctx.GetString("data_format"), rank));
  const int64_t channels = x.dims[static_cast<size_t>(axis)];
  ACLSIM_RETURN_IF_ERROR(CheckChannelParams(ctx, 1, 5, channels));
  if (!ctx.GetBool("is_training")) {
    for (size_t i = 3; i < 5; ++i) {
      if (!ctx.has_input(i)) {
        return ctx.Fail(StatusCode::kOpInputNotMatch,
                        "input {} ({}) is required for inference (is_training = false)", i,
                        i == 3 ? "mean" : "variance");
      }
    }
  }
  ctx.SetOutput(0, x.dtype, x.dims);
  for (size_t i = 1; i < 6; ++i) SetOptionalOutput(ctx, i, DataType::kFloat, {channels});
  return Status::Ok();
}

Status RunBatchNorm(RunContext& ctx) {
  const Tensor& x = ctx.in(0);
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis,
                          ChannelAxis(nullptr, ctx.GetString("data_format"), x.rank()));
  const auto values = ToDoubles(x);
  const double eps = ctx.GetFloat("epsilon");
  const auto scale = ToDoubles(ctx.in(1));
  const auto offset = ToDoubles(ctx.in(2));
  std::vector<double> mean;
  std::vector<double> var;
  std::vector<double> out_var;
  if (ctx.GetBool("is_training")) {
    ChannelStats(values, x.dims, axis, &mean, &var);
    // batch_variance is the unbiased estimate (TF FusedBatchNorm); blended into the running
    // statistics by exponential_avg_factor when they are given.
    const int64_t per =
        x.dims[static_cast<size_t>(axis)] == 0 ? 0 : x.numel() / x.dims[static_cast<size_t>(axis)];
    const double bessel = per > 1 ? static_cast<double>(per) / static_cast<double>(per - 1) : 1.0;
    std::vector<double> out_mean = mean;
    out_var = var;
    for (auto& v : out_var) v *= bessel;
    const double factor = ctx.GetFloat("exponential_avg_factor");
    if (factor != 1.0 && ctx.has_input(3) && ctx.has_input(4)) {
      const auto run_mean = ToDoubles(ctx.in(3));
      const auto run_var = ToDoubles(ctx.in(4));
      for (size_t c = 0; c < mean.size(); ++c) {
        out_mean[c] = (1 - factor) * run_mean[c] + factor * out_mean[c];
        out_var[c] = (1 - factor) * run_var[c] + factor * out_var[c];
      }
    }
    FromDoubles(NormalizeChannels(values, x.dims, axis, mean, var, eps, scale, offset), ctx.out(0));
    StoreOptional(ctx, 1, out_mean);
    StoreOptional(ctx, 2, out_var);
  } else {
    mean = ToDoubles(ctx.in(3));
    var = ToDoubles(ctx.in(4));
    out_var = var;
    FromDoubles(NormalizeChannels(values, x.dims, axis, mean, var, eps, scale, offset), ctx.out(0));
    StoreOptional(ctx, 1, mean);
    StoreOptional(ctx, 2, var);
  }
  StoreOptional(ctx, 3, mean);
  StoreOptional(ctx, 4, var);
  StoreOptional(ctx, 5, std::vector<double>(mean.size(), 0.0));
  return Status::Ok();
}

Status InferBnInference(OpContext& ctx) {
  const auto& x = ctx.input(0);
  const int64_t rank = static_cast<int64_t>(x.dims.size());
  if (rank < 2) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} must have rank >= 2 but has shape [{}]",
                    ctx.InputName(0), fmt::join(x.dims, ", "));
  }
  const int64_t channels = x.dims[1];
  ACLSIM_RETURN_IF_ERROR(CheckChannelParams(ctx, 1, 3, channels));
  ACLSIM_RETURN_IF_ERROR(CheckChannelParams(ctx, 4, 6, channels));
  if (ctx.input(3).ElementCount() != 1) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} must have one element but has shape [{}]",
                    ctx.InputName(3), fmt::join(ctx.input(3).dims, ", "));
  }
  ctx.SetOutput(0, x.dtype, x.dims);
  return Status::Ok();
}

// Caffe BatchNorm: the stored statistics are scaled by the moving-average factor (input 3):
// mean = mean_blob / factor (0 when the factor is 0).
Status RunBnInference(RunContext& ctx) {
  const Tensor& x = ctx.in(0);
  const auto values = ToDoubles(x);
  std::vector<double> mean;
  std::vector<double> var;
  if (ctx.GetBool("use_global_stats")) {
    const double factor = LoadDouble(ctx.in(3), 0);
    const double scale_factor = factor == 0 ? 0.0 : 1.0 / factor;
    mean = ToDoubles(ctx.in(1));
    var = ToDoubles(ctx.in(2));
    for (auto& m : mean) m *= scale_factor;
    for (auto& v : var) v *= scale_factor;
  } else {
    ChannelStats(values, x.dims, 1, &mean, &var);
  }
  const auto scale = ctx.has_input(4) ? ToDoubles(ctx.in(4)) : std::vector<double>{};
  const auto offset = ctx.has_input(5) ? ToDoubles(ctx.in(5)) : std::vector<double>{};
  FromDoubles(
      NormalizeChannels(values, x.dims, 1, mean, var, ctx.GetFloat("epsilon"), scale, offset),
      ctx.out(0));
  return Status::Ok();
}

// --- InstanceNorm ------------------------------------------------------------------------------

Status InferInstanceNorm(OpContext& ctx) {
  const auto& x = ctx.input(0);
  const int64_t rank = static_cast<int64_t>(x.dims.size());
  if (rank < 3) {
    return ctx.Fail(StatusCode::kOpInputNotMatch,
                    "{} must have rank >= 3 (N, C, spatial...) but has shape [{}]",
                    ctx.InputName(0), fmt::join(x.dims, ", "));
  }
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis, ChannelAxis(&ctx, ctx.GetString("data_format"), rank));
  const int64_t channels = x.dims[static_cast<size_t>(axis)];
  ACLSIM_RETURN_IF_ERROR(CheckChannelParams(ctx, 1, 3, channels));
  std::vector<int64_t> stat_dims(static_cast<size_t>(rank), 1);
  stat_dims[0] = x.dims[0];
  stat_dims[static_cast<size_t>(axis)] = channels;
  ctx.SetOutput(0, x.dtype, x.dims);
  SetOptionalOutput(ctx, 1, x.dtype, stat_dims);
  SetOptionalOutput(ctx, 2, x.dtype, stat_dims);
  return Status::Ok();
}

Status RunInstanceNorm(RunContext& ctx) {
  const Tensor& x = ctx.in(0);
  ACLSIM_ASSIGN_OR_RETURN(int64_t axis,
                          ChannelAxis(nullptr, ctx.GetString("data_format"), x.rank()));
  const auto values = ToDoubles(x);
  const auto gamma = ToDoubles(ctx.in(1));
  const auto beta = ToDoubles(ctx.in(2));
  const double eps = ctx.GetFloat("epsilon");
  const int64_t n = x.dims[0];
  const int64_t c = x.dims[static_cast<size_t>(axis)];
  const int64_t inner = Product(x.dims, static_cast<size_t>(axis) + 1);  // after channel
  const int64_t per_n = Product(x.dims, 1);
  // Group (n, c) of element i.
  auto group = [&](int64_t i) { return (i / per_n) * c + (i / inner) % c; };
  const auto groups = static_cast<size_t>(n * c);
  std::vector<double> mean(groups, 0.0);
  std::vector<double> var(groups, 0.0);
  const int64_t count = c == 0 ? 0 : per_n / c;
  for (size_t i = 0; i < values.size(); ++i) {
    mean[static_cast<size_t>(group(static_cast<int64_t>(i)))] += values[i];
  }
  for (auto& m : mean) m /= static_cast<double>(std::max<int64_t>(count, 1));
  for (size_t i = 0; i < values.size(); ++i) {
    const auto g = static_cast<size_t>(group(static_cast<int64_t>(i)));
    var[g] += (values[i] - mean[g]) * (values[i] - mean[g]);
  }
  for (auto& v : var) v /= static_cast<double>(std::max<int64_t>(count, 1));
  std::vector<double> y(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const int64_t g = group(static_cast<int64_t>(i));
    const auto ch = static_cast<size_t>(g % std::max<int64_t>(c, 1));
    y[i] = (values[i] - mean[static_cast<size_t>(g)]) /
               std::sqrt(var[static_cast<size_t>(g)] + eps) * gamma[ch] +
           beta[ch];
  }
  FromDoubles(y, ctx.out(0));
  // Statistics in [N, C] order match both [N, C, 1, 1] and [N, 1, 1, C].
  StoreOptional(ctx, 1, mean);
  StoreOptional(ctx, 2, var);
  return Status::Ok();
}

}  // namespace

void RegisterNormOps(OpRegistry& registry) {
  const auto& types = NormTypes();
  const std::vector<DataType> param_types = {DataType::kFloat, DataType::kFloat16, DataType::kBf16};

  OpDef layer_norm;
  layer_norm.type = "LayerNorm";
  layer_norm.inputs = {In("x", types), In("gamma", param_types), In("beta", param_types)};
  layer_norm.outputs = {Out("y", types), OptOut("mean", types), OptOut("variance", types)};
  layer_norm.attrs = {OptAttr("begin_norm_axis", AttrType::kInt, int64_t{0}),
                      OptAttr("begin_params_axis", AttrType::kInt, int64_t{0}),
                      OptAttr("epsilon", AttrType::kFloat, 1e-7f)};
  layer_norm.ops_per_element = 8;
  layer_norm.infer = InferLayerNorm;
  layer_norm.run = RunLayerNorm;
  registry.Add(std::move(layer_norm));

  OpDef layer_norm_v3;
  layer_norm_v3.type = "LayerNormV3";
  layer_norm_v3.inputs = {In("x", types), OptIn("gamma", param_types), OptIn("beta", param_types)};
  layer_norm_v3.outputs = {Out("y", types), OptOut("mean", {DataType::kFloat}),
                           OptOut("rstd", {DataType::kFloat})};
  layer_norm_v3.attrs = {OptAttr("begin_norm_axis", AttrType::kInt, int64_t{0}),
                         OptAttr("begin_params_axis", AttrType::kInt, int64_t{0}),
                         OptAttr("epsilon", AttrType::kFloat, 1e-5f)};
  layer_norm_v3.ops_per_element = 8;
  layer_norm_v3.infer = InferLayerNormV3;
  layer_norm_v3.run = RunLayerNormV3;
  registry.Add(std::move(layer_norm_v3));

  OpDef bn_infer;
  bn_infer.type = "BNInfer";
  bn_infer.inputs = {In("x", types), In("scale", param_types), In("offset", param_types),
                     In("mean", param_types), In("variance", param_types)};
  bn_infer.outputs = {Out("y", types)};
  bn_infer.attrs = {ReqAttr("epsilon", AttrType::kFloat)};
  bn_infer.ops_per_element = 4;
  bn_infer.infer = InferBnInfer;
  bn_infer.run = RunBnInfer;
  registry.Add(std::move(bn_infer));

  const std::vector<DataType> bn_x = {DataType::kFloat16, DataType::kFloat};
  OpDef batch_norm;
  batch_norm.type = "BatchNorm";
  batch_norm.inputs = {In("x", bn_x), In("scale", param_types), In("offset", param_types),
                       OptIn("mean", param_types), OptIn("variance", param_types)};
  batch_norm.outputs = {Out("y", bn_x),
                        OptOut("batch_mean", {DataType::kFloat}),
                        OptOut("batch_variance", {DataType::kFloat}),
                        OptOut("reserve_space_1", {DataType::kFloat}),
                        OptOut("reserve_space_2", {DataType::kFloat}),
                        OptOut("reserve_space_3", {DataType::kFloat})};
  batch_norm.attrs = {OptAttr("epsilon", AttrType::kFloat, 1e-4f),
                      OptAttr("data_format", AttrType::kString, std::string("NHWC")),
                      OptAttr("is_training", AttrType::kBool, true),
                      OptAttr("exponential_avg_factor", AttrType::kFloat, 1.0f)};
  batch_norm.ops_per_element = 4;
  batch_norm.infer = InferBatchNorm;
  batch_norm.run = RunBatchNorm;
  registry.Add(std::move(batch_norm));

  OpDef bn_inference;
  bn_inference.type = "BNInference";
  bn_inference.inputs = {In("x", types),
                         In("mean", param_types),
                         In("variance", param_types),
                         In("momentum", param_types),
                         OptIn("scale", param_types),
                         OptIn("offset", param_types)};
  bn_inference.outputs = {Out("y", types)};
  bn_inference.attrs = {OptAttr("epsilon", AttrType::kFloat, 1e-5f),
                        OptAttr("use_global_stats", AttrType::kBool, true),
                        OptAttr("mode", AttrType::kInt, int64_t{1})};
  bn_inference.ops_per_element = 4;
  bn_inference.infer = InferBnInference;
  bn_inference.run = RunBnInference;
  registry.Add(std::move(bn_inference));

  const std::vector<DataType> in_types = {DataType::kFloat16, DataType::kFloat};
  OpDef instance_norm;
  instance_norm.type = "InstanceNorm";
  instance_norm.inputs = {In("x", in_types), In("gamma", in_types), In("beta", in_types)};
  instance_norm.outputs = {Out("y", in_types), OptOut("mean", in_types),
                           OptOut("variance", in_types)};
  instance_norm.attrs = {OptAttr("data_format", AttrType::kString, std::string("NDHWC")),
                         OptAttr("epsilon", AttrType::kFloat, 1e-6f)};
  instance_norm.ops_per_element = 8;
  instance_norm.infer = InferInstanceNorm;
  instance_norm.run = RunInstanceNorm;
  registry.Add(std::move(instance_norm));
}

}  // namespace aclsim::ops
