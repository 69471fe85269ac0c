// Matrix multiplies on the cube unit (cann_ops.md 1E): MatMul, MatMulV2, BatchMatMul,
// BatchMatMulV2 and GEMM.
//
// All of them are one Eigen GEMM per batch: fp16/bf16/fp32 inputs are converted to float
// matrices (the cube accumulates fp16 in fp32), integer inputs (int8, int32) to int64 matrices;
// bias / alpha / beta are applied in that precision and the output is rounded once.
#include <Eigen/Dense>
#include <algorithm>

#include "ops/kernels.h"
#include "ops/op_group.h"
#include "ops/work_builders.h"

namespace aclsim::ops {

namespace {

bool IsIntType(DataType dtype) {
  return dtype == DataType::kInt8 || dtype == DataType::kInt32 || dtype == DataType::kUint8;
}

// A stored operand: batch dims, then a rows x cols matrix, used transposed if `trans`.
struct Operand {
  std::vector<int64_t> batch;
  int64_t rows = 0;
  int64_t cols = 0;
  bool trans = false;
  int64_t OpRows() const { return trans ? cols : rows; }
  int64_t OpCols() const { return trans ? rows : cols; }
};

// Splits dims into an operand (rank >= 2 here; 1-D operands are promoted by the caller).
Operand MakeOperand(const std::vector<int64_t>& dims, bool trans) {
  Operand op;
  const size_t r = dims.size();
  op.batch.assign(dims.begin(), dims.end() - 2);
  op.rows = dims[r - 2];
  op.cols = dims[r - 1];
  op.trans = trans;
  return op;
}

// out[batch..., M, N] = op(a) x op(b) per batch, with a's and b's batch dims broadcast to
// out_batch.
template <typename Acc>
std::vector<Acc> BatchedMatmul(const std::vector<Acc>& a, const Operand& da,
                               const std::vector<Acc>& b, const Operand& db,
                               const std::vector<int64_t>& out_batch) {
  using Mat = Eigen::Matrix<Acc, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using CMap = Eigen::Map<const Mat>;
  const int64_t m = da.OpRows();
  const int64_t k = da.OpCols();
  const int64_t n = db.OpCols();
  const int64_t batches = Product(out_batch);
  std::vector<Acc> out(static_cast<size_t>(batches * m * n), Acc{0});
  if (m == 0 || n == 0 || k == 0) return out;
  const auto sa = BroadcastStrides(da.batch, out_batch);
  const auto sb = BroadcastStrides(db.batch, out_batch);
  const auto so = Strides(out_batch);
  for (int64_t o = 0; o < batches; ++o) {
    int64_t rest = o, ia = 0, ib = 0;
    for (size_t d = 0; d < out_batch.size(); ++d) {
      const int64_t idx = rest / so[d];
      rest %= so[d];
      ia += idx * sa[d];
      ib += idx * sb[d];
    }
    CMap ma(a.data() + ia * da.rows * da.cols, da.rows, da.cols);
    CMap mb(b.data() + ib * db.rows * db.cols, db.rows, db.cols);
    Eigen::Map<Mat> mc(out.data() + o * m * n, m, n);
    if (!da.trans && !db.trans) {
      mc.noalias() = ma * mb;
    } else if (da.trans && !db.trans) {
      mc.noalias() = ma.transpose() * mb;
    } else if (!da.trans && db.trans) {
      mc.noalias() = ma * mb.transpose();
    } else {
      mc.noalias() = ma.transpose() * mb.transpose();
    }
  }
  return out;
}

// out += scale * t (t broadcast to out_dims).
template <typename Acc>
void AddBroadcast(std::vector<Acc>* out, const std::vector<int64_t>& out_dims,
                  const std::vector<Acc>& t, const std::vector<int64_t>& t_dims, Acc scale) {
  ForEachBroadcast2(out_dims, t_dims, out_dims, [&](int64_t o, int64_t, int64_t it) {
    (*out)[static_cast<size_t>(o)] += scale * t[static_cast<size_t>(it)];
  });
}

// --- MatMul / MatMulV2 / BatchMatMul / BatchMatMulV2 --------------------------------------

struct MatmulSpec {
  const char* trans1;  // attribute names
  const char* trans2;
  int min_rank;  // 2 for MatMul (max 2), BatchMatMul; 1 for BatchMatMulV2
  int max_rank;
  bool has_offsets;  // offset_w input (3) and offset_x attr
};

// Shapes of a matmul call: the operands (1-D promoted) and the output dims.
struct MatmulShapes {
  Operand a;
  Operand b;
  std::vector<int64_t> out_batch;
  std::vector<int64_t> out_dims;
};

Result<MatmulShapes> MatmulShapesOf(const OpContext* ictx, const std::vector<int64_t>& d1,
                                    const std::vector<int64_t>& d2, bool t1, bool t2,
                                    const MatmulSpec& spec, const char* n1, const char* n2) {
  auto fail = [&](std::string msg) -> Status {
    if (ictx != nullptr) return ictx->Fail(StatusCode::kOpInputNotMatch, "{}", msg);
    return Status(StatusCode::kOpInputNotMatch, msg);
  };
  for (const auto* dims : {&d1, &d2}) {
    const int64_t r = static_cast<int64_t>(dims->size());
    if (r < spec.min_rank || r > spec.max_rank) {
      const char* name = dims == &d1 ? n1 : n2;
      return fail(
          spec.min_rank == spec.max_rank
              ? fmt::format("{} must be {}-D but has shape {}", name, spec.min_rank, DimsStr(*dims))
              : fmt::format("{} must have rank {} to {} but has shape {}", name, spec.min_rank,
                            spec.max_rank, DimsStr(*dims)));
    }
  }
  MatmulShapes s;
  const bool vec1 = d1.size() == 1;
  const bool vec2 = d2.size() == 1;
  s.a = vec1 ? MakeOperand({1, d1[0]}, false) : MakeOperand(d1, t1);
  s.b = vec2 ? MakeOperand({d2[0], 1}, false) : MakeOperand(d2, t2);
  if (s.a.OpCols() != s.b.OpRows()) {
    return fail(fmt::format("{} shape {}{} and {} shape {}{} have different K ({} vs {})", n1,
                            DimsStr(d1), t1 && !vec1 ? " (transposed)" : "", n2, DimsStr(d2),
                            t2 && !vec2 ? " (transposed)" : "", s.a.OpCols(), s.b.OpRows()));
  }
  auto batch = BroadcastDims(s.a.batch, s.b.batch);
  if (!batch.ok()) {
    return fail(fmt::format("batch dims of {} shape {} and {} shape {} do not broadcast: {}", n1,
                            DimsStr(d1), n2, DimsStr(d2), batch.status().message()));
  }
  s.out_batch = batch.value();
  s.out_dims = s.out_batch;
  if (!vec1) s.out_dims.push_back(s.a.OpRows());
  if (!vec2) s.out_dims.push_back(s.b.OpCols());
  return s;
}

DataType MatmulOutType(DataType in) { return IsIntType(in) ? DataType::kInt32 : in; }

InferFn MatmulInfer(MatmulSpec spec) {
  return [spec](OpContext& ctx) -> Status {
    const auto& x1 = ctx.input(0);
    const auto& x2 = ctx.input(1);
    if (x1.dtype != x2.dtype) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} is {} but {} is {}; they must match",
                      ctx.InputName(0), DataTypeName(x1.dtype), ctx.InputName(1),
                      DataTypeName(x2.dtype));
    }
    const std::string n1 = ctx.InputName(0);
    const std::string n2 = ctx.InputName(1);
    ACLSIM_ASSIGN_OR_RETURN(auto shapes,
                            MatmulShapesOf(&ctx, x1.dims, x2.dims, ctx.GetBool(spec.trans1),
                                           ctx.GetBool(spec.trans2), spec, n1.c_str(), n2.c_str()));
    if (ctx.has_input(2)) {
      const auto& bias = ctx.input(2);
      auto joined = BroadcastDims(shapes.out_dims, bias.dims);
      if (!joined.ok() || joined.value() != shapes.out_dims) {
        return ctx.Fail(StatusCode::kOpInputNotMatch,
                        "{} shape {} does not broadcast to the output shape {} (expected [{}])",
                        ctx.InputName(2), DimsStr(bias.dims), DimsStr(shapes.out_dims),
                        shapes.b.OpCols());
      }
      if (IsIntType(x1.dtype) != IsIntType(bias.dtype)) {
        return ctx.Fail(StatusCode::kOpInputNotMatch, "{} is {} but {} is {}", ctx.InputName(2),
                        DataTypeName(bias.dtype), ctx.InputName(0), DataTypeName(x1.dtype));
      }
    }
    if (spec.has_offsets && ctx.has_input(3)) {
      const int64_t count = ctx.input(3).ElementCount();
      if (count != 1 && count != shapes.b.OpCols()) {
        return ctx.Fail(StatusCode::kOpInputNotMatch, "{} must have 1 or N = {} elements, not {}",
                        ctx.InputName(3), shapes.b.OpCols(), count);
      }
    }
    ctx.SetOutput(0, MatmulOutType(x1.dtype), shapes.out_dims);
    return Status::Ok();
  };
}

template <typename Acc>
Status RunMatmulAcc(RunContext& ctx, const MatmulSpec& spec) {
  const Tensor& x1 = ctx.in(0);
  const Tensor& x2 = ctx.in(1);
  ACLSIM_ASSIGN_OR_RETURN(auto shapes,
                          MatmulShapesOf(nullptr, x1.dims, x2.dims, ctx.GetBool(spec.trans1),
                                         ctx.GetBool(spec.trans2), spec, "x1", "x2"));
  auto a = LoadAcc<Acc>(x1);
  auto b = LoadAcc<Acc>(x2);
  if constexpr (std::is_integral_v<Acc>) {
    if (spec.has_offsets) {
      const Acc offset_x = static_cast<Acc>(ctx.GetInt("offset_x"));
      if (offset_x != 0) {
        for (auto& v : a) v -= offset_x;
      }
      if (ctx.has_input(3)) {
        // offset_w: one value, or one per column of op(x2) (per output channel).
        const auto w = ReadInts(ctx.in(3));
        const Operand& db = shapes.b;
        for (size_t i = 0; i < b.size(); ++i) {
          const int64_t in_mat = static_cast<int64_t>(i) % (db.rows * db.cols);
          const int64_t col = db.trans ? in_mat / db.cols : in_mat % db.cols;
          b[i] -= w.size() == 1 ? w[0] : w[static_cast<size_t>(col)];
        }
      }
    }
  }
  auto out = BatchedMatmul<Acc>(a, shapes.a, b, shapes.b, shapes.out_batch);
  if (ctx.has_input(2)) {
    AddBroadcast<Acc>(&out, shapes.out_dims, LoadAcc<Acc>(ctx.in(2)), ctx.in(2).dims, Acc{1});
  }
  StoreAcc<Acc>(out, ctx.out(0));
  return Status::Ok();
}

RunFn MatmulRun(MatmulSpec spec) {
  return [spec](RunContext& ctx) -> Status {
    if (IsIntType(ctx.in(0).dtype)) return RunMatmulAcc<int64_t>(ctx, spec);
    return RunMatmulAcc<float>(ctx, spec);
  };
}

// m (all batches), n, k of a matmul-like call from its x1/x2 descriptors and the output.
WorkFn MatmulWorkFn(const char* trans1, const char* trans2) {
  return [trans1, trans2](const OpContext& ctx, const driver::DeviceProps&, uint32_t* blocks) {
    const auto& d1 = ctx.input(0).dims;
    const auto& d2 = ctx.input(1).dims;
    const size_t r1 = d1.size();
    const size_t r2 = d2.size();
    const bool t1 = ctx.GetBool(trans1);
    const bool t2 = ctx.GetBool(trans2);
    const int64_t k = r1 == 1 ? d1[0] : (t1 ? d1[r1 - 2] : d1[r1 - 1]);
    const int64_t n = r2 == 1 ? 1 : (t2 ? d2[r2 - 2] : d2[r2 - 1]);
    const int64_t total = ctx.output(0).ElementCount();
    const int64_t m = n > 0 ? total / n : 0;
    return MatmulWork(static_cast<uint64_t>(std::max<int64_t>(m, 1)),
                      static_cast<uint64_t>(std::max<int64_t>(n, 1)),
                      static_cast<uint64_t>(std::max<int64_t>(k, 1)),
                      DtypeClassOf(ctx.input(0).dtype), blocks);
  };
}

OpDef MatmulOp(std::string type, std::vector<ArgDef> inputs, std::vector<AttrDef> attrs,
               std::vector<DataType> out_types, MatmulSpec spec) {
  OpDef def;
  def.type = std::move(type);
  def.inputs = std::move(inputs);
  def.outputs = {Out("y", std::move(out_types))};
  def.attrs = std::move(attrs);
  def.engine = driver::Engine::kAiCore;
  def.infer = MatmulInfer(spec);
  def.run = MatmulRun(spec);
  def.work = MatmulWorkFn(spec.trans1, spec.trans2);
  return def;
}

// --- GEMM: y = alpha * op(a) x op(b) + beta * c ---------------------------------------------

Status InferGemm(OpContext& ctx) {
  const auto& a = ctx.input(0);
  const auto& b = ctx.input(1);
  const auto& c = ctx.input(2);
  if (a.dtype != b.dtype) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} is {} but {} is {}; they must match",
                    ctx.InputName(0), DataTypeName(a.dtype), ctx.InputName(1),
                    DataTypeName(b.dtype));
  }
  const bool int_path = IsIntType(a.dtype);
  for (size_t i = 2; i < 5; ++i) {
    const DataType t = ctx.input(i).dtype;
    if (int_path != (t == DataType::kInt32)) {
      return ctx.Fail(StatusCode::kOpInputNotMatch,
                      "{} is {} but {} is {} (int8 a/b need int32 "
                      "c, alpha, beta; float a/b need float16/float32)",
                      ctx.InputName(i), DataTypeName(t), ctx.InputName(0), DataTypeName(a.dtype));
    }
  }
  for (size_t i = 3; i < 5; ++i) {
    if (ctx.input(i).ElementCount() != 1) {
      return ctx.Fail(StatusCode::kOpInputNotMatch, "{} must have one element but has shape {}",
                      ctx.InputName(i), DimsStr(ctx.input(i).dims));
    }
  }
  static const MatmulSpec kSpec{"transpose_a", "transpose_b", 2, 2, false};
  const std::string n1 = ctx.InputName(0);
  const std::string n2 = ctx.InputName(1);
  ACLSIM_ASSIGN_OR_RETURN(
      auto shapes, MatmulShapesOf(&ctx, a.dims, b.dims, ctx.GetBool("transpose_a"),
                                  ctx.GetBool("transpose_b"), kSpec, n1.c_str(), n2.c_str()));
  auto joined = BroadcastDims(shapes.out_dims, c.dims);
  if (!joined.ok() || joined.value() != shapes.out_dims) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "{} shape {} does not match the product shape {}",
                    ctx.InputName(2), DimsStr(c.dims), DimsStr(shapes.out_dims));
  }
  ctx.SetOutput(0, c.dtype, shapes.out_dims);
  return Status::Ok();
}

template <typename Acc>
Status RunGemmAcc(RunContext& ctx) {
  static const MatmulSpec kSpec{"transpose_a", "transpose_b", 2, 2, false};
  ACLSIM_ASSIGN_OR_RETURN(auto shapes, MatmulShapesOf(nullptr, ctx.in(0).dims, ctx.in(1).dims,
                                                      ctx.GetBool("transpose_a"),
                                                      ctx.GetBool("transpose_b"), kSpec, "a", "b"));
  auto out = BatchedMatmul<Acc>(LoadAcc<Acc>(ctx.in(0)), shapes.a, LoadAcc<Acc>(ctx.in(1)),
                                shapes.b, shapes.out_batch);
  const Acc alpha = LoadAcc<Acc>(ctx.in(3))[0];
  const Acc beta = LoadAcc<Acc>(ctx.in(4))[0];
  for (auto& v : out) v *= alpha;
  if (beta != Acc{0})
    AddBroadcast<Acc>(&out, shapes.out_dims, LoadAcc<Acc>(ctx.in(2)), ctx.in(2).dims, beta);
  StoreAcc<Acc>(out, ctx.out(0));
  return Status::Ok();
}

Status RunGemm(RunContext& ctx) {
  if (IsIntType(ctx.in(0).dtype)) return RunGemmAcc<int64_t>(ctx);
  return RunGemmAcc<float>(ctx);
}

}  // namespace

void RegisterMatmulOps(OpRegistry& registry) {
  const std::vector<DataType> mm_types = {DataType::kFloat, DataType::kFloat16, DataType::kInt32,
                                          DataType::kBf16};
  const std::vector<DataType> v2_types = {DataType::kFloat, DataType::kFloat16, DataType::kInt32,
                                          DataType::kInt8, DataType::kBf16};
  const std::vector<DataType> offset_types = {DataType::kInt8};

  registry.Add(MatmulOp("MatMul", {In("x1", mm_types), In("x2", mm_types), OptIn("bias", mm_types)},
                        {OptAttr("transpose_x1", AttrType::kBool, false),
                         OptAttr("transpose_x2", AttrType::kBool, false)},
                        mm_types, {"transpose_x1", "transpose_x2", 2, 2, false}));
  registry.Add(MatmulOp("MatMulV2",
                        {In("x1", v2_types), In("x2", v2_types), OptIn("bias", mm_types),
                         OptIn("offset_w", offset_types)},
                        {OptAttr("transpose_x1", AttrType::kBool, false),
                         OptAttr("transpose_x2", AttrType::kBool, false),
                         OptAttr("offset_x", AttrType::kInt, int64_t{0})},
                        mm_types, {"transpose_x1", "transpose_x2", 2, 2, true}));
  registry.Add(MatmulOp(
      "BatchMatMul", {In("x1", mm_types), In("x2", mm_types)},
      {OptAttr("adj_x1", AttrType::kBool, false), OptAttr("adj_x2", AttrType::kBool, false)},
      mm_types, {"adj_x1", "adj_x2", 2, 8, false}));
  registry.Add(MatmulOp(
      "BatchMatMulV2",
      {In("x1", v2_types), In("x2", v2_types), OptIn("bias", mm_types),
       OptIn("offset_w", offset_types)},
      {OptAttr("adj_x1", AttrType::kBool, false), OptAttr("adj_x2", AttrType::kBool, false),
       OptAttr("offset_x", AttrType::kInt, int64_t{0})},
      mm_types, {"adj_x1", "adj_x2", 1, 8, true}));

  const std::vector<DataType> gemm_ab = {DataType::kFloat16, DataType::kFloat, DataType::kInt8};
  const std::vector<DataType> gemm_c = {DataType::kFloat16, DataType::kFloat, DataType::kInt32};
  OpDef gemm;
  gemm.type = "GEMM";
  gemm.inputs = {In("a", gemm_ab), In("b", gemm_ab), In("c", gemm_c), In("alpha", gemm_c),
                 In("beta", gemm_c)};
  gemm.outputs = {Out("y", gemm_c)};
  gemm.attrs = {OptAttr("transpose_a", AttrType::kBool, false),
                OptAttr("transpose_b", AttrType::kBool, false)};
  gemm.engine = driver::Engine::kAiCore;
  gemm.infer = InferGemm;
  gemm.run = RunGemm;
  gemm.work = MatmulWorkFn("transpose_a", "transpose_b");
  registry.Add(std::move(gemm));
}

}  // namespace aclsim::ops
