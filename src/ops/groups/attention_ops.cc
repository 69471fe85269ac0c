// Fused attention of inference (ops-transformer's FusedInferAttentionScore, prefill and
// decode in one kernel), on the BNSD layout the aclnn layer brings every call to:
//
//   FusedInferAttentionScore  query, key, value, pse_shift?, atten_mask? -> attention_out
//                             num_heads:Int, scale_value:Float=1, num_key_value_heads:Int=0,
//                             pre_tokens:Int=2147483647, next_tokens:Int=2147483647,
//                             inner_precise:Int=0
//     query [B,N,S,D]; key [B,Nkv,Skv,D]; value [B,Nkv,Skv,Dv] (Nkv = num_key_value_heads, 0 =
//     N; head n reads kv head n / (N / Nkv)); pse_shift [1|B, 1|N, S, Skv] (added after the
//     scale); atten_mask [1|B, 1, S, Skv] bool/int8/uint8, nonzero = masked; key j of query s
//     is also masked when j - s > next_tokens or s - j > pre_tokens.
//     attention_out [B,N,S,Dv] = softmax(scale * q k^T + pse, masked -> -inf) v, in q's dtype.
//     A query whose keys are all masked gives zeros with inner_precise 2 or 3 (row-invalid
//     correction), NaN otherwise (as a plain softmax of nothing).
//
// As the cube does it: q k^T accumulated in f32, the softmax in f32, the probabilities rounded
// to q's dtype for the second product, accumulated in f32, the output rounded once.
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/kernels.h"
#include "ops/op_group.h"

namespace aclsim::ops {
namespace {

struct AttentionShape {
  int64_t b = 0, n = 0, s = 0, d = 0, nkv = 0, skv = 0, dv = 0;
};

Result<AttentionShape> AttentionShapeOf(const OpContext& ctx) {
  const auto& q = ctx.input(0).dims;
  const auto& k = ctx.input(1).dims;
  const auto& v = ctx.input(2).dims;
  if (q.size() != 4 || k.size() != 4 || v.size() != 4) {
    return ctx.Fail(StatusCode::kOpInputNotMatch,
                    "query {}, key {} and value {} must be 4-D (BNSD)", DimsStr(q), DimsStr(k),
                    DimsStr(v));
  }
  AttentionShape a{q[0], q[1], q[2], q[3], k[1], k[2], v[3]};
  const int64_t heads = ctx.GetInt("num_heads");
  const int64_t kv_heads = ctx.GetInt("num_key_value_heads");
  if (heads != a.n || (kv_heads != 0 ? kv_heads : a.n) != a.nkv || a.nkv == 0 || a.n % a.nkv != 0) {
    return ctx.Fail(StatusCode::kOpInputNotMatch,
                    "query {} and key {} do not match num_heads {} and num_key_value_heads {} "
                    "(the query heads must be a multiple of the key/value heads)",
                    DimsStr(q), DimsStr(k), heads, kv_heads);
  }
  if (k[0] != a.b || k[3] != a.d || v[0] != a.b || v[1] != a.nkv || v[2] != a.skv) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "query {}, key {} and value {} do not match",
                    DimsStr(q), DimsStr(k), DimsStr(v));
  }
  auto check_side = [&](size_t i, int64_t heads_dim) -> Status {
    if (!ctx.has_input(i)) return Status::Ok();
    const auto& m = ctx.input(i).dims;
    if (m.size() != 4 || (m[0] != 1 && m[0] != a.b) || (m[1] != 1 && m[1] != heads_dim) ||
        m[2] != a.s || m[3] != a.skv) {
      return ctx.Fail(StatusCode::kOpInputNotMatch,
                      "{} has shape {}; it must be [1|{}, 1|{}, {}, {}]", ctx.InputName(i),
                      DimsStr(m), a.b, heads_dim, a.s, a.skv);
    }
    return Status::Ok();
  };
  ACLSIM_RETURN_IF_ERROR(check_side(3, a.n));
  ACLSIM_RETURN_IF_ERROR(check_side(4, 1));
  return a;
}

Status InferAttention(OpContext& ctx) {
  ACLSIM_ASSIGN_OR_RETURN(AttentionShape a, AttentionShapeOf(ctx));
  const DataType dt = ctx.input(0).dtype;
  if (ctx.input(1).dtype != dt || ctx.input(2).dtype != dt) {
    return ctx.Fail(StatusCode::kOpInputNotMatch, "query, key and value must have one dtype");
  }
  ctx.SetOutput(0, dt, {a.b, a.n, a.s, a.dv});
  return Status::Ok();
}

float RoundTo(DataType dtype, float v) {
  if (dtype == DataType::kFloat16) return HalfToFloat(FloatToHalf(v));
  if (dtype == DataType::kBf16) return Bf16ToFloat(FloatToBf16(v));
  return v;
}

Status RunAttention(RunContext& ctx) {
  const Tensor& qt = ctx.in(0);
  const AttentionShape a{qt.dims[0],        qt.dims[1],        qt.dims[2],       qt.dims[3],
                         ctx.in(1).dims[1], ctx.in(1).dims[2], ctx.in(2).dims[3]};
  const std::vector<float> q = ToFloats(qt);
  const std::vector<float> k = ToFloats(ctx.in(1));
  const std::vector<float> v = ToFloats(ctx.in(2));
  const bool has_pse = ctx.has_input(3);
  const bool has_mask = ctx.has_input(4);
  const std::vector<float> pse = has_pse ? ToFloats(ctx.in(3)) : std::vector<float>{};
  const std::vector<int64_t> mask = has_mask ? ReadInts(ctx.in(4)) : std::vector<int64_t>{};
  const std::vector<int64_t> pse_dims = has_pse ? ctx.in(3).dims : std::vector<int64_t>{};
  const std::vector<int64_t> mask_dims = has_mask ? ctx.in(4).dims : std::vector<int64_t>{};
  const float scale = ctx.GetFloat("scale_value");
  const int64_t pre = ctx.GetInt("pre_tokens");
  const int64_t next = ctx.GetInt("next_tokens");
  const bool zero_invalid = ctx.GetInt("inner_precise") >= 2;
  const DataType dt = qt.dtype;
  const int64_t group = a.n / a.nkv;
  std::vector<float> out(static_cast<size_t>(a.b * a.n * a.s * a.dv), 0.0f);
  std::vector<float> score(static_cast<size_t>(a.skv));
  const float kNegInf = -std::numeric_limits<float>::infinity();
  for (int64_t b = 0; b < a.b; ++b) {
    for (int64_t n = 0; n < a.n; ++n) {
      const int64_t h = n / group;
      for (int64_t s = 0; s < a.s; ++s) {
        const float* qrow = &q[static_cast<size_t>(((b * a.n + n) * a.s + s) * a.d)];
        float best = kNegInf;
        for (int64_t j = 0; j < a.skv; ++j) {
          bool masked = j - s > next || s - j > pre;
          if (has_mask) {
            const int64_t mb = mask_dims[0] == 1 ? 0 : b;
            masked |= mask[static_cast<size_t>((mb * a.s + s) * a.skv + j)] != 0;
          }
          if (masked) {
            score[static_cast<size_t>(j)] = kNegInf;
            continue;
          }
          const float* krow = &k[static_cast<size_t>(((b * a.nkv + h) * a.skv + j) * a.d)];
          float dot = 0;
          for (int64_t e = 0; e < a.d; ++e) dot += qrow[e] * krow[e];
          float value = dot * scale;
          if (has_pse) {
            const int64_t pb = pse_dims[0] == 1 ? 0 : b;
            const int64_t pn = pse_dims[1] == 1 ? 0 : n;
            value += pse[static_cast<size_t>(((pb * pse_dims[1] + pn) * a.s + s) * a.skv + j)];
          }
          score[static_cast<size_t>(j)] = value;
          best = std::max(best, value);
        }
        float* orow = &out[static_cast<size_t>(((b * a.n + n) * a.s + s) * a.dv)];
        if (best == kNegInf) {
          if (!zero_invalid) std::fill(orow, orow + a.dv, std::numeric_limits<float>::quiet_NaN());
          continue;
        }
        float sum = 0;
        for (float& x : score) {
          x = x == kNegInf ? 0.0f : std::exp(x - best);
          sum += x;
        }
        for (int64_t j = 0; j < a.skv; ++j) {
          const float p = RoundTo(dt, score[static_cast<size_t>(j)] / sum);
          if (p == 0.0f) continue;
          const float* vrow = &v[static_cast<size_t>(((b * a.nkv + h) * a.skv + j) * a.dv)];
          for (int64_t e = 0; e < a.dv; ++e) orow[e] += p * vrow[e];
        }
      }
    }
  }
  FromFloats(out, ctx.out(0));
  return Status::Ok();
}

// Two products on the cube per (batch, head) and the softmax on the vector unit.
driver::KernelWork AttentionWork(const OpContext& ctx, const driver::DeviceProps&,
                                 uint32_t* blocks) {
  const auto& q = ctx.input(0).dims;
  const auto& k = ctx.input(1).dims;
  const auto& v = ctx.input(2).dims;
  const uint64_t bn = static_cast<uint64_t>(std::max<int64_t>(q[0] * q[1], 1));
  const uint64_t s = static_cast<uint64_t>(std::max<int64_t>(q[2], 1));
  const uint64_t skv = static_cast<uint64_t>(std::max<int64_t>(k[2], 1));
  const uint64_t d = static_cast<uint64_t>(std::max<int64_t>(q[3], 1));
  const uint64_t dv = static_cast<uint64_t>(std::max<int64_t>(v[3], 1));
  const uint64_t e = DataTypeSize(ctx.input(0).dtype);
  driver::KernelWork w;
  w.dtype = DtypeClassOf(ctx.input(0).dtype);
  w.cube_flops = 2 * bn * s * skv * (d + dv);
  w.vector_flops = 5 * bn * s * skv;
  w.gm_read_bytes =
      static_cast<uint64_t>(ctx.input(0).ElementCount() + ctx.input(1).ElementCount() +
                            ctx.input(2).ElementCount()) *
      e;
  if (ctx.has_input(3)) w.gm_read_bytes += static_cast<uint64_t>(ctx.input(3).ElementCount()) * e;
  if (ctx.has_input(4)) w.gm_read_bytes += static_cast<uint64_t>(ctx.input(4).ElementCount());
  w.gm_write_bytes = bn * s * dv * e;
  w.gm_to_l1_bytes = w.gm_read_bytes;
  w.l1_to_l0a_bytes = bn * s * (d + skv) * e;
  w.l1_to_l0b_bytes = bn * skv * (d + dv) * e;
  w.l0c_to_out_bytes = bn * s * (skv + dv) * 4;
  w.pipeline_steps = static_cast<uint32_t>(std::max<uint64_t>((skv + 127) / 128, 1));
  w.double_buffered = true;
  if (blocks != nullptr) *blocks = static_cast<uint32_t>(std::min<uint64_t>(bn, 1u << 16));
  return w;
}

}  // namespace

void RegisterAttentionOps(OpRegistry& registry) {
  const std::vector<DataType> floats = {DataType::kFloat16, DataType::kBf16, DataType::kFloat};
  OpDef def;
  def.type = "FusedInferAttentionScore";
  def.inputs = {In("query", floats), In("key", floats), In("value", floats),
                OptIn("pse_shift", floats),
                OptIn("atten_mask", {DataType::kBool, DataType::kInt8, DataType::kUint8})};
  def.outputs = {Out("attention_out", floats)};
  def.attrs = {ReqAttr("num_heads", AttrType::kInt),
               OptAttr("scale_value", AttrType::kFloat, 1.0f),
               OptAttr("num_key_value_heads", AttrType::kInt, int64_t{0}),
               OptAttr("pre_tokens", AttrType::kInt, int64_t{2147483647}),
               OptAttr("next_tokens", AttrType::kInt, int64_t{2147483647}),
               OptAttr("inner_precise", AttrType::kInt, int64_t{0})};
  def.engine = driver::Engine::kAiCore;
  def.infer = InferAttention;
  def.run = RunAttention;
  def.work = AttentionWork;
  registry.Add(std::move(def));
}

}  // namespace aclsim::ops
