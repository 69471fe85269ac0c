// Norm-style reductions the ONNX mapping needs (cann_ops.md 2.2): LpNorm / LpNormV2 (ONNX
// ReduceL1 / ReduceL2), SquareSumV1 (ReduceSumSquare) and ReduceLogSum.
//
// Prototypes (GE25 / OPS26 REG_OP):
//   LpNorm      x -> y; p:Int=2, axes:ListInt={}, keepdim:Bool=false, epsilon:Float=1e-12
//   LpNormV2    x -> y; p:Float=2.0, axes:ListInt={}, keepdim:Bool=false, epsilon:Float=1e-12
//   SquareSumV1 x -> y; axis:ListInt (req), keep_dims:Bool=false
//   ReduceLogSum x, axes -> y; keep_dims:Bool=false
// Empty axes reduce every axis. The norm is bounded below by epsilon (y = max(norm, epsilon),
// as MindSpore documents the Ascend LpNorm). All accumulate in double and round once.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "ops/op_group.h"

namespace aclsim::ops {

namespace {

// Flags of the reduced dimensions; *bad receives an out-of-range axis.
bool ReducedFlags(const std::vector<int64_t>& axes, int64_t rank, std::vector<bool>* reduced,
                  int64_t* bad) {
  reduced->assign(static_cast<size_t>(rank), axes.empty());
  const int64_t bound = std::max<int64_t>(rank, 1);
  for (int64_t axis : axes) {
    if (axis < -bound || axis >= bound) {
      *bad = axis;
      return false;
    }
    if (rank > 0) (*reduced)[static_cast<size_t>(axis < 0 ? axis + rank : axis)] = true;
  }
  return true;
}

std::vector<int64_t> OutDims(const std::vector<int64_t>& dims, const std::vector<bool>& reduced,
                             bool keep_dims) {
  std::vector<int64_t> out;
  out.reserve(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    if (!reduced[d]) {
      out.push_back(dims[d]);
    } else if (keep_dims) {
      out.push_back(1);
    }
  }
  return out;
}

// How a reduction maps and combines elements (all in double).
struct Reducer {
  double init = 0;
  std::function<double(double acc, double x)> step;
  std::function<double(double acc)> finish;
};

// y[o] = finish(fold(step, init, x[i] for i reducing to o)).
void ReduceInto(const Tensor& x, const std::vector<bool>& reduced, const Reducer& r,
                const Tensor& y) {
  const std::vector<double> in = ToDoubles(x);
  std::vector<double> acc(static_cast<size_t>(y.numel()), r.init);
  const size_t rank = x.dims.size();
  std::vector<int64_t> ostride(rank, 0);
  int64_t s = 1;
  for (size_t d = rank; d-- > 0;) {
    if (!reduced[d]) {
      ostride[d] = s;
      s *= x.dims[d];
    }
  }
  std::vector<int64_t> index(rank, 0);
  int64_t o = 0;
  const int64_t total = x.numel();
  for (int64_t i = 0; i < total; ++i) {
    acc[static_cast<size_t>(o)] = r.step(acc[static_cast<size_t>(o)], in[static_cast<size_t>(i)]);
    for (size_t d = rank; d-- > 0;) {
      ++index[d];
      o += ostride[d];
      if (index[d] < x.dims[d]) break;
      o -= ostride[d] * index[d];
      index[d] = 0;
    }
  }
  for (auto& a : acc) a = r.finish(a);
  FromDoubles(acc, y);
}

// Where the axes and keep_dims come from.
struct ReduceArgs {
  const char* axes_attr = nullptr;  // nullptr: input 1
  const char* keep_attr = "keep_dims";
};

OpDef ReduceLikeOp(std::string type, const ReduceArgs& args, const std::vector<DataType>& dtypes,
                   std::vector<AttrDef> attrs,
                   const std::function<Reducer(const AttrReader&)>& make) {
  OpDef def;
  def.type = std::move(type);
  def.inputs = {In("x", dtypes)};
  if (args.axes_attr == nullptr) {
    def.inputs.push_back(In("axes", IndexTypes()));
    def.value_inputs = {1};
  }
  def.outputs = {Out("y", dtypes)};
  def.attrs = std::move(attrs);
  def.ops_per_element = 4;
  def.infer = [args](OpContext& ctx) -> Status {
    std::vector<int64_t> axes;
    if (args.axes_attr != nullptr) {
      axes = ctx.GetInts(args.axes_attr);
    } else {
      ACLSIM_ASSIGN_OR_RETURN(axes, ctx.InputInts(1));
    }
    const auto& x = ctx.input(0);
    std::vector<bool> reduced;
    int64_t bad = 0;
    if (!ReducedFlags(axes, static_cast<int64_t>(x.dims.size()), &reduced, &bad)) {
      if (args.axes_attr != nullptr) {
        return ctx.Fail(StatusCode::kOpAttrNotMatch,
                        "attribute '{}' value {} is out of range for {} of rank {}", args.axes_attr,
                        bad, ctx.InputName(0), x.dims.size());
      }
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} value {} is out of range for {} of rank {}",
                      ctx.InputName(1), bad, ctx.InputName(0), x.dims.size());
    }
    ctx.SetOutput(0, x.dtype, OutDims(x.dims, reduced, ctx.GetBool(args.keep_attr)));
    return Status::Ok();
  };
  def.run = [args, make](RunContext& ctx) -> Status {
    const std::vector<int64_t> axes =
        args.axes_attr != nullptr ? ctx.GetInts(args.axes_attr) : ctx.InputInts(1);
    const Tensor& x = ctx.in(0);
    std::vector<bool> reduced;
    int64_t bad = 0;
    if (!ReducedFlags(axes, x.rank(), &reduced, &bad)) {
      return ctx.Fail(StatusCode::kInvalidParam, "axis {} is out of range for rank {}", bad,
                      x.rank());
    }
    ReduceInto(x, reduced, make(ctx), ctx.out(0));
    return Status::Ok();
  };
  return def;
}

Reducer LpReducer(double p, double epsilon) {
  Reducer r;
  auto floor_eps = [epsilon](double v) { return std::isnan(v) ? v : std::max(v, epsilon); };
  if (std::isinf(p) && p > 0) {
    r.init = 0;
    r.step = [](double acc, double x) { return std::isnan(x) ? x : std::max(acc, std::fabs(x)); };
  } else if (std::isinf(p)) {
    r.init = std::numeric_limits<double>::infinity();
    r.step = [](double acc, double x) { return std::isnan(x) ? x : std::min(acc, std::fabs(x)); };
  } else if (p == 0) {
    r.step = [](double acc, double x) { return acc + (x != 0 ? 1.0 : 0.0); };
  } else if (p == 1) {
    r.step = [](double acc, double x) { return acc + std::fabs(x); };
  } else if (p == 2) {
    r.step = [](double acc, double x) { return acc + x * x; };
    r.finish = [floor_eps](double acc) { return floor_eps(std::sqrt(acc)); };
    return r;
  } else {
    r.step = [p](double acc, double x) { return acc + std::pow(std::fabs(x), p); };
    r.finish = [p, floor_eps](double acc) { return floor_eps(std::pow(acc, 1.0 / p)); };
    return r;
  }
  r.finish = floor_eps;
  return r;
}

}  // namespace

void RegisterNormExtraOps(OpRegistry& registry) {
  const std::vector<DataType> lp_types = {DataType::kFloat16, DataType::kFloat, DataType::kBf16};
  registry.Add(ReduceLikeOp(
      "LpNormV2", ReduceArgs{"axes", "keepdim"}, lp_types,
      {OptAttr("p", AttrType::kFloat, 2.0f),
       OptAttr("axes", AttrType::kListInt, std::vector<int64_t>{}),
       OptAttr("keepdim", AttrType::kBool, false), OptAttr("epsilon", AttrType::kFloat, 1e-12f)},
      [](const AttrReader& a) {
        return LpReducer(static_cast<double>(a.GetFloat("p")),
                         static_cast<double>(a.GetFloat("epsilon")));
      }));
  registry.Add(ReduceLikeOp(
      "LpNorm", ReduceArgs{"axes", "keepdim"}, {DataType::kFloat16, DataType::kFloat},
      {OptAttr("p", AttrType::kInt, int64_t{2}),
       OptAttr("axes", AttrType::kListInt, std::vector<int64_t>{}),
       OptAttr("keepdim", AttrType::kBool, false), OptAttr("epsilon", AttrType::kFloat, 1e-12f)},
      [](const AttrReader& a) {
        return LpReducer(static_cast<double>(a.GetInt("p")),
                         static_cast<double>(a.GetFloat("epsilon")));
      }));
  registry.Add(ReduceLikeOp(
      "SquareSumV1", ReduceArgs{"axis", "keep_dims"}, lp_types,
      {ReqAttr("axis", AttrType::kListInt), OptAttr("keep_dims", AttrType::kBool, false)},
      [](const AttrReader&) {
        Reducer r;
        r.step = [](double acc, double x) { return acc + x * x; };
        r.finish = [](double acc) { return acc; };
        return r;
      }));
  registry.Add(ReduceLikeOp("ReduceLogSum", ReduceArgs{nullptr, "keep_dims"}, NumberTypes(),
                            {OptAttr("keep_dims", AttrType::kBool, false)}, [](const AttrReader&) {
                              Reducer r;
                              r.step = [](double acc, double x) { return acc + x; };
                              r.finish = [](double acc) { return std::log(acc); };
                              return r;
                            }));
}

}  // namespace aclsim::ops
