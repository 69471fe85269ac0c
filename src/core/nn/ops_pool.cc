// Pooling of aclnn over the op library's AvgPoolV2 / MaxPoolV3 (NCHW, CALCULATED padding):
// AvgPool2d (PyTorch's avg_pool2d: ceil mode, count_include_pad, divisor_override) and MaxPool
// (ONNX's MaxPool: pads {top, left, bottom, right}, ceil mode). A 3-D input is (C, H, W) for
// AvgPool2d and (N, C, L) -- a 1-D pooling -- for MaxPool.
#include <fmt/ranges.h>

#include "core/nn/builder.h"
#include "core/nn/checks.h"
#include "core/nn/ops.h"

namespace aclsim::core::nn {
namespace {
namespace pool_ops {

using DT = ops::DataType;

// PyTorch's pooled length (ceil mode: the last window must start inside the input or its
// leading padding).
int64_t PooledLength(int64_t in, int64_t k, int64_t s, int64_t p0, int64_t p1, bool ceil_mode) {
  const int64_t span = in + p0 + p1 - k;
  if (span < 0) return 0;
  int64_t out = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
  if (ceil_mode && (out - 1) * s >= in + p0) --out;
  return out;
}

// A length-1 or length-2 list as (H, W); an empty one is `fallback`.
Result<std::pair<int64_t, int64_t>> Pair(const Builder& b, const std::vector<int64_t>& v,
                                         const char* what, std::pair<int64_t, int64_t> fallback,
                                         bool allow_empty) {
  if (v.empty() && allow_empty) return fallback;
  if (v.size() == 1) return std::pair{v[0], v[0]};
  if (v.size() == 2) return std::pair{v[0], v[1]};
  return Err(StatusCode::kInvalidParam, "{}: {} {} must have {} values", b.name(), what,
             ShapeString(v), allow_empty ? "0, 1 or 2" : "1 or 2");
}

struct Window {
  int64_t kh, kw, sh, sw, pt, pb, pl, pr;
  bool ceil_mode;
};

// Runs `kernel` over the NCHW view `x4` (with `extra` attributes) and stores into out.
Status RunPool(Builder& b, const char* kernel, const Value& x4, const Window& w, const Value& out,
               const ops::AttrMap& extra) {
  ops::AttrMap attrs = {{"ksize", std::vector<int64_t>{1, 1, w.kh, w.kw}},
                        {"strides", std::vector<int64_t>{1, 1, w.sh, w.sw}},
                        {"padding_mode", std::string("CALCULATED")},
                        {"pads", std::vector<int64_t>{w.pt, w.pb, w.pl, w.pr}},
                        {"data_format", std::string("NCHW")},
                        {"ceil_mode", w.ceil_mode}};
  for (auto& [key, value] : extra) attrs[key] = value;
  ACLSIM_ASSIGN_OR_RETURN(Value y, b.Op1(kernel, {x4}, std::move(attrs)));
  ACLSIM_ASSIGN_OR_RETURN(y, b.Reshape(y, out.dims));
  return b.Store(y, out);
}

// The pooled NCHW dims of `x4` under `w`, or an error naming the empty dim.
Result<std::vector<int64_t>> PooledDims(const Builder& b, const std::vector<int64_t>& x4,
                                        const Window& w) {
  const int64_t ho = PooledLength(x4[2], w.kh, w.sh, w.pt, w.pb, w.ceil_mode);
  const int64_t wo = PooledLength(x4[3], w.kw, w.sw, w.pl, w.pr, w.ceil_mode);
  if (ho <= 0 || wo <= 0) {
    return Err(StatusCode::kInvalidParam, "{}: the window [{}, {}] leaves no output of input {}",
               b.name(), w.kh, w.kw, ShapeString(x4));
  }
  return std::vector<int64_t>{x4[0], x4[1], ho, wo};
}

}  // namespace pool_ops
}  // namespace

Result<ExecutorPtr> AvgPool2d(const char* name, const NnTensor* self, const PoolArgs& args,
                              bool count_include_pad, int64_t divisor_override,
                              int8_t cube_math_type, const NnTensor* out) {
  using pool_ops::DT;
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  ACLSIM_RETURN_IF_ERROR(checks::RequireNnFloat(b, x, "self"));
  ACLSIM_RETURN_IF_ERROR(checks::RequireSameDtype(b, x, z, "self", "out"));
  if (x.rank() != 3 && x.rank() != 4) {
    return Err(StatusCode::kInvalidParam, "{}: self {} must be 3-D (C, H, W) or 4-D (N, C, H, W)",
               b.name(), ShapeString(x.dims));
  }
  if (cube_math_type < 0 || cube_math_type > 4) {
    return Err(StatusCode::kInvalidParam, "{}: cubeMathType is {}; it must be 0 to 4", b.name(),
               cube_math_type);
  }
  ACLSIM_ASSIGN_OR_RETURN(auto k, pool_ops::Pair(b, args.kernel, "kernelSize", {0, 0}, false));
  ACLSIM_ASSIGN_OR_RETURN(auto s, pool_ops::Pair(b, args.stride, "strides", k, true));
  ACLSIM_ASSIGN_OR_RETURN(auto p, pool_ops::Pair(b, args.padding, "paddings", {0, 0}, false));
  if (k.first < 1 || k.second < 1 || s.first < 1 || s.second < 1 || p.first < 0 || p.second < 0 ||
      p.first * 2 > k.first || p.second * 2 > k.second) {
    return Err(StatusCode::kInvalidParam,
               "{}: kernelSize [{}, {}] and strides [{}, {}] must be >= 1 and paddings [{}, {}] "
               "at most half the kernel",
               b.name(), k.first, k.second, s.first, s.second, p.first, p.second);
  }
  if (divisor_override < 0) {
    return Err(StatusCode::kInvalidParam, "{}: divisorOverride is {}; it must be >= 0 (0: off)",
               b.name(), divisor_override);
  }
  const pool_ops::Window w{k.first, k.second, s.first,  s.second,      p.first,
                           p.first, p.second, p.second, args.ceil_mode};
  const std::vector<int64_t> x4 =
      x.rank() == 4 ? x.dims : std::vector<int64_t>{1, x.dims[0], x.dims[1], x.dims[2]};
  ACLSIM_ASSIGN_OR_RETURN(auto pooled, pool_ops::PooledDims(b, x4, w));
  std::vector<int64_t> want = pooled;
  if (x.rank() == 3) want.erase(want.begin());
  if (z.dims != want) {
    return Err(StatusCode::kInvalidParam, "{}: out has shape {} but the pooling gives {}", b.name(),
               ShapeString(z.dims), ShapeString(want));
  }
  if (z.numel() == 0 || x.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(Value in, b.Reshape(x, x4));
  ACLSIM_RETURN_IF_ERROR(pool_ops::RunPool(
      b, "AvgPoolV2", in, w, z,
      {{"exclusive", !count_include_pad}, {"divisor_override", divisor_override}}));
  return b.Finish();
}

Result<ExecutorPtr> MaxPoolOnnx(const char* name, const NnTensor* self, const PoolArgs& args,
                                int64_t auto_pad, const std::vector<int64_t>& dilations,
                                const NnTensor* out) {
  using pool_ops::DT;
  Builder b(name);
  ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
  ACLSIM_ASSIGN_OR_RETURN(Value z, b.Output(out, "out"));
  ACLSIM_RETURN_IF_ERROR(b.Begin());
  if (x.dtype != DT::kFloat && x.dtype != DT::kFloat16) {
    return Err(StatusCode::kInvalidParam, "{}: self is {}; it must be float32 or float16", b.name(),
               ops::DataTypeName(x.dtype));
  }
  ACLSIM_RETURN_IF_ERROR(checks::RequireSameDtype(b, x, z, "self", "out"));
  if (x.rank() != 3 && x.rank() != 4) {
    return Err(StatusCode::kInvalidParam, "{}: self {} must be 3-D (N, C, L) or 4-D (N, C, H, W)",
               b.name(), ShapeString(x.dims));
  }
  if (auto_pad != 0) {
    return Err(StatusCode::kInvalidParam, "{}: autoPad is {}; only 0 (NOTSET) is supported",
               b.name(), auto_pad);
  }
  for (int64_t d : dilations) {
    if (d != 1) {
      return Err(StatusCode::kInvalidParam, "{}: dilations {} must all be 1", b.name(),
                 ShapeString(dilations));
    }
  }
  const bool one_d = x.rank() == 3;
  pool_ops::Window w{};
  w.ceil_mode = args.ceil_mode;
  if (one_d) {
    if (args.kernel.size() != 1 || args.stride.size() > 1 || args.padding.size() > 2) {
      return Err(StatusCode::kInvalidParam,
                 "{}: a 3-D self pools one dim: kernelShape needs 1 value, strides 0 or 1, pads "
                 "0 to 2",
                 b.name());
    }
    w.kh = 1;
    w.sh = 1;
    w.kw = args.kernel[0];
    w.sw = args.stride.empty() ? 1 : args.stride[0];
    w.pl = args.padding.empty() ? 0 : args.padding[0];
    w.pr = args.padding.size() == 2 ? args.padding[1] : w.pl;
  } else {
    ACLSIM_ASSIGN_OR_RETURN(auto k, pool_ops::Pair(b, args.kernel, "kernelShape", {0, 0}, false));
    ACLSIM_ASSIGN_OR_RETURN(auto s, pool_ops::Pair(b, args.stride, "strides", {1, 1}, true));
    w.kh = k.first;
    w.kw = k.second;
    w.sh = s.first;
    w.sw = s.second;
    const auto& p = args.padding;  // ONNX order: {top, left, bottom, right}
    if (p.size() == 1) w.pt = w.pb = w.pl = w.pr = p[0];
    if (p.size() == 2) {
      w.pt = w.pb = p[0];
      w.pl = w.pr = p[1];
    }
    if (p.size() == 4) {
      w.pt = p[0];
      w.pl = p[1];
      w.pb = p[2];
      w.pr = p[3];
    }
    if (p.size() == 3 || p.size() > 4) {
      return Err(StatusCode::kInvalidParam, "{}: pads {} must have 0, 1, 2 or 4 values", b.name(),
                 ShapeString(p));
    }
  }
  if (w.kh < 1 || w.kw < 1 || w.sh < 1 || w.sw < 1 || w.pt < 0 || w.pb < 0 || w.pl < 0 ||
      w.pr < 0 || w.pt >= w.kh || w.pb >= w.kh || w.pl >= w.kw || w.pr >= w.kw) {
    return Err(StatusCode::kInvalidParam,
               "{}: kernelShape and strides must be >= 1 and each pad smaller than the kernel",
               b.name());
  }
  const std::vector<int64_t> x4 =
      one_d ? std::vector<int64_t>{x.dims[0], x.dims[1], 1, x.dims[2]} : x.dims;
  ACLSIM_ASSIGN_OR_RETURN(auto pooled, pool_ops::PooledDims(b, x4, w));
  std::vector<int64_t> want = pooled;
  if (one_d) want = {pooled[0], pooled[1], pooled[3]};
  if (z.dims != want) {
    return Err(StatusCode::kInvalidParam, "{}: out has shape {} but the pooling gives {}", b.name(),
               ShapeString(z.dims), ShapeString(want));
  }
  if (z.numel() == 0 || x.numel() == 0) return b.Finish();
  ACLSIM_ASSIGN_OR_RETURN(Value in, b.Reshape(x, x4));
  ACLSIM_RETURN_IF_ERROR(pool_ops::RunPool(b, "MaxPoolV3", in, w, z, {}));
  return b.Finish();
}

}  // namespace aclsim::core::nn
