// The aclnn operators aclsim implements, as the core builds them: each validates its
// arguments, states its computation on the op library (core/nn/builder.h) and returns the
// executor. The C ABI (src/api/aclnn_*.cc) resolves the handles and publishes the executor.
//
// Errors: kNullPointer for a NULL required argument (ACLNN_ERR_PARAM_NULLPTR), kInvalidParam
// and the op-library codes for refused dtypes, shapes and attributes (ACLNN_ERR_PARAM_INVALID),
// kContextNull / kUninitialized without a current device (ACLNN_ERR_RUNTIME_ERROR). Messages
// start with the aclnn function's name.
//
// Thread-safety: all functions may be called concurrently (each call builds its own executor).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "core/nn/executor.h"
#include "core/nn/objects.h"
#include "ops/types.h"

namespace aclsim::core::nn {

using ExecutorPtr = std::shared_ptr<Executor>;

enum class Arith { kAdd, kSub, kMul, kDiv };

// out = self (op) alpha * other, with other a tensor or a scalar (exactly one is given);
// alpha only for kAdd / kSub (null = 1). out null: in place on self (selfRef).
Result<ExecutorPtr> BinaryArith(const char* name, Arith arith, const NnTensor* self,
                                const NnTensor* other, const NnScalar* other_scalar,
                                const NnScalar* alpha, const NnTensor* out);

// How a unary op chooses the dtype it computes in.
enum class UnaryRule {
  kSame,        // self's dtype (Abs, Neg, Relu, Sign): integers stay integers
  kFloatOut,    // floats: self's; integers/bool: out's (which must be floating)
  kFloatOnly,   // self's, which must be floating (LeakyRelu, Elu)
  kIntsCopied,  // floats: self's; integers are copied unchanged (Floor)
  kPredicate,   // self floating, out bool (IsFinite, IsInf)
  kLogical,     // self read as bool, the bool result cast to out's dtype (LogicalNot)
};

enum class TernaryKind { kAddcmul, kAddcdiv, kLerp };
// Addcmul: self + value * tensor1 * tensor2; Addcdiv: self + value * tensor1 / tensor2 (floats);
// Lerp: self + weight * (end - self) (t1 = end, t2 = weight, value unused). The three broadcast
// and promote; f16 / bf16 computed in f32, rounded once. out null: in place on self.
Result<ExecutorPtr> PointwiseTernary(const char* name, TernaryKind kind, const NnTensor* self,
                                     const NnTensor* t1, const NnTensor* t2, const NnScalar* value,
                                     const NnTensor* out);
// out = kernel(self) for an op-library elementwise kernel with `attrs`. out null: in place.
Result<ExecutorPtr> Unary(const char* name, const char* kernel, const ops::AttrMap& attrs,
                          UnaryRule rule, const NnTensor* self, const NnTensor* out);

// out = self cast to dtype (out's dtype must be dtype).
Result<ExecutorPtr> CastTo(const char* name, const NnTensor* self, ops::DataType dtype,
                           const NnTensor* out);
// selfRef = src (broadcast to selfRef's shape, cast to its dtype).
Result<ExecutorPtr> CopyInto(const char* name, const NnTensor* self, const NnTensor* src);
// Every element of selfRef = value.
Result<ExecutorPtr> FillWith(const char* name, const NnTensor* self, double value);

// ---- comparisons, maximum / minimum, power, clamping (ops_binary.cc) ----

// out = condition (bool / uint8) ? self : other, the three broadcast, self and other promoted.
Result<ExecutorPtr> Where(const char* name, const NnTensor* condition, const NnTensor* self,
                          const NnTensor* other, const NnTensor* out);
enum class LogicalKind { kAnd, kOr, kXor };
// out = self and / or / xor other, both read as bool, broadcast; the bool result cast to
// out's dtype. out null: in place on self (selfRef).
Result<ExecutorPtr> Logical(const char* name, LogicalKind kind, const NnTensor* self,
                            const NnTensor* other, const NnTensor* out);
// Comparisons give bool results; kMaximum, kMinimum and kPow the promoted dtype.
enum class BinaryKind {
  kGreater,
  kGreaterEqual,
  kLess,
  kLessEqual,
  kEqual,
  kNotEqual,
  kMaximum,
  kMinimum,
  kPow,
  kFloorDivide,  // floor(self / other) (integers exactly)
  kRemainder,    // Python's %: the sign of other
  kFmod,         // C's fmod: the sign of self
};
// out = self (op) other, each a tensor or a scalar (exactly one of each pair is given; a
// scalar with a tensor promotes by aclnn_api.md 3.3), broadcast. out null: in place on self.
Result<ExecutorPtr> Binary(const char* name, BinaryKind kind, const NnTensor* self,
                           const NnScalar* self_scalar, const NnTensor* other,
                           const NnScalar* other_scalar, const NnTensor* out);
// out = min(max(self, min), max); each bound a tensor, a scalar or absent (not both absent).
// out null: in place on self.
Result<ExecutorPtr> Clamp(const char* name, const NnTensor* self, const NnTensor* min_tensor,
                          const NnScalar* min_scalar, const NnTensor* max_tensor,
                          const NnScalar* max_scalar, const NnTensor* out);

// ---- activations with parameters (ops_activation.cc) ----

// out = self <= threshold ? value : self. out null: in place.
Result<ExecutorPtr> Threshold(const char* name, const NnTensor* self, const NnScalar* threshold,
                              const NnScalar* value, const NnTensor* out);
// out = beta * self > threshold ? self : log(1 + exp(beta * self)) / beta. out null: in place.
Result<ExecutorPtr> Softplus(const char* name, const NnTensor* self, const NnScalar* beta,
                             const NnScalar* threshold, const NnTensor* out);
// out = silu(a) * b, a and b the first and second halves of x along dim.
Result<ExecutorPtr> SwiGlu(const char* name, const NnTensor* x, int64_t dim, const NnTensor* out);

// ---- matrix products (ops_matmul.cc) ----

enum class MatmulKind {
  kMm,      // 2-D @ 2-D
  kBatch,   // 3-D @ 3-D, same batch
  kMatmul,  // torch.matmul: 1-D to 6-D, batch dims broadcast
  kMv,      // 2-D @ 1-D
};
// out = self @ mat2 (vec for kMv) in the dtype cubeMathType chooses (0 keep, 1 / 3 f32 as
// HF32 on the card -- computed in f32 here --, 2 f16, 4 f32 accumulation).
Result<ExecutorPtr> MatMul(const char* name, MatmulKind kind, const NnTensor* self,
                           const NnTensor* mat2, const NnTensor* out, int8_t cube_math_type);

enum class AddMatmulKind {
  kAddmm,    // mat1 (m, k) @ mat2 (k, n)
  kBaddbmm,  // batch1 (b, m, k) @ batch2 (b, k, n), per batch
  kAddbmm,   // the same, summed over the batch: (m, n)
};
// out = beta * self + alpha * (mat1 @ mat2) (self broadcast to the result; beta 0: self not
// read); out null: into self in place. The product on the cube as MatMul's cubeMathType says,
// the rest in f32, rounded once.
Result<ExecutorPtr> AddMatMul(const char* name, AddMatmulKind kind, const NnTensor* self,
                              const NnTensor* mat1, const NnTensor* mat2, const NnScalar* beta,
                              const NnScalar* alpha, const NnTensor* out, int8_t cube_math_type);

// Converts a contiguous f16/bf16/int8 weight in place to FRACTAL_NZ (padded fractal blocks
// of its last two dims), for later Mm / BatchMatMul / Matmul calls that pass it with format
// FRACTAL_NZ.
Result<ExecutorPtr> TransMatmulWeight(const char* name, const NnTensor* weight);
// The elements a FRACTAL_NZ weight of `shape` (ND) occupies in `dtype` (aclnnCalculate-
// MatmulWeightSize: 2-3 dims, f16; V2: 2-6 dims, none zero).
Result<uint64_t> MatmulWeightElements(const std::vector<int64_t>& shape, ops::DataType dtype,
                                      bool v2);

// ---- matrix products with quantized weights (ops_quant_matmul.cc) ----

struct WeightQuantArgs {
  const NnTensor* x = nullptr;
  const NnTensor* weight = nullptr;  // int8 or int4 (K, N), ND
  const NnTensor* antiquant_scale = nullptr;
  const NnTensor* antiquant_offset = nullptr;  // optional
  const NnTensor* quant_scale = nullptr;       // optional; an int8 y (not supported yet)
  const NnTensor* quant_offset = nullptr;      // optional; likewise
  const NnTensor* bias = nullptr;              // optional
  int64_t group_size = 0;                      // 0: per tensor / per channel
  const NnTensor* y = nullptr;
};
// y = x @ ((weight + antiquant_offset) * antiquant_scale) + bias.
Result<ExecutorPtr> WeightQuantMatmul(const char* name, const WeightQuantArgs& args);

// ---- fused inference attention (ops_attention.cc) ----

struct AttentionArgs {
  const NnTensor* query = nullptr;
  std::vector<const NnTensor*> key;      // one tensor (a list per batch: not supported yet)
  std::vector<const NnTensor*> value;    // likewise
  const NnTensor* pse_shift = nullptr;   // optional [1|B, 1|N, S, Skv]
  const NnTensor* atten_mask = nullptr;  // optional, nonzero = masked
  int64_t num_heads = 0;
  double scale_value = 1.0;
  int64_t pre_tokens = 2147483647;
  int64_t next_tokens = 2147483647;
  std::string input_layout = "BSH";
  int64_t num_key_value_heads = 0;  // 0: numHeads
  int64_t sparse_mode = 0;
  int64_t inner_precise = 0;
  bool softmax_lse_flag = false;
  // Valid lengths per batch (one value: every batch) of the query rows and the key/value
  // rows; empty = the whole sequence. Rows past a query length give zeros.
  std::vector<int64_t> actual_seq_lengths;
  std::vector<int64_t> actual_seq_lengths_kv;
  const NnTensor* attention_out = nullptr;
};
// attentionOut = softmax(scale * q k^T + pseShift, masked -> -inf) v per head (GQA: head n
// reads key/value head n / (numHeads / numKeyValueHeads)).
Result<ExecutorPtr> FusedInferAttention(const char* name, const AttentionArgs& args);

// ---- softmax, reductions, scans (ops_reduce.cc) ----

// out = softmax(self) along dim.
Result<ExecutorPtr> Softmax(const char* name, const NnTensor* self, int64_t dim,
                            const NnTensor* out);
enum class Reduction { kSum, kMean, kMax, kMin, kProd, kAll, kAny, kLogSumExp };
// out = the sum / mean / max / min / product / all / any / log-sum-exp of self over dims (all
// dims when empty), computed in dtype (kUndefined: self's; All / Any read self as bool,
// LogSumExp computes integers in f32).
Result<ExecutorPtr> Reduce(const char* name, Reduction reduction, const NnTensor* self,
                           const std::vector<int64_t>& dims, bool keep_dims, ops::DataType dtype,
                           const NnTensor* out);
// out (int32 / int64) = the index of the maximum along dim.
// out (int64) = the indices that sort self along dim (stable).
Result<ExecutorPtr> Argsort(const char* name, const NnTensor* self, int64_t dim, bool descending,
                            const NnTensor* out);
// valuesOut / indicesOut (int64) = self sorted along dim.
Result<ExecutorPtr> Sort(const char* name, const NnTensor* self, bool stable, int64_t dim,
                         bool descending, const NnTensor* values_out, const NnTensor* indices_out);
// The k largest (smallest) elements along dim, sorted, and their int64 indices.
Result<ExecutorPtr> Topk(const char* name, const NnTensor* self, int64_t k, int64_t dim,
                         bool largest, bool sorted, const NnTensor* values_out,
                         const NnTensor* indices_out);
Result<ExecutorPtr> ArgMax(const char* name, const NnTensor* self, int64_t dim, bool keep_dim,
                           const NnTensor* out, bool minimum = false);
// out = the inclusive prefix sum along dim, computed in dtype (out's dtype).
Result<ExecutorPtr> Cumsum(const char* name, const NnTensor* self, int64_t dim, ops::DataType dtype,
                           const NnTensor* out);

// ---- shapes and movement (ops_shape.cc) ----

// out = self.permute(dims) (a view, copied to out).
Result<ExecutorPtr> Permute(const char* name, const NnTensor* self,
                            const std::vector<int64_t>& dims, const NnTensor* out);
// out = self[start:end:step] on each of axes (torch's clamping; steps > 0; empty steps = 1).
Result<ExecutorPtr> Slice(const char* name, const NnTensor* self,
                          const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                          const std::vector<int64_t>& axes, const std::vector<int64_t>& steps,
                          const NnTensor* out);
// out = torch.cat(tensors, dim): promoted dtype, 1-D empty tensors skipped.
// out = self reversed along each of dims.
Result<ExecutorPtr> Flip(const char* name, const NnTensor* self, const std::vector<int64_t>& dims,
                         const NnTensor* out);
// torch.roll: out = self shifted by shifts[k] along dims[k] (dims empty: one shift of the
// flattened tensor).
Result<ExecutorPtr> Roll(const char* name, const NnTensor* self, const std::vector<int64_t>& shifts,
                         const std::vector<int64_t>& dims, const NnTensor* out);
// torch.expand: self broadcast to size (-1 keeps a dim, new dims lead).
Result<ExecutorPtr> Expand(const char* name, const NnTensor* self, const std::vector<int64_t>& size,
                           const NnTensor* out);
// out = the tensors (one shape) stacked along a new dim `dim` (promoted, cast to out).
Result<ExecutorPtr> Stack(const char* name, const std::vector<const NnTensor*>& tensors,
                          int64_t dim, const NnTensor* out);
// How Split cuts: chunks of `section` (the last one smaller; SplitTensor) or `sizes`
// (SplitWithSize).
struct SplitSizes {
  bool sections = false;
  int64_t section = 0;
  std::vector<int64_t> sizes;
};
// out[i] = the i-th part of self along dim.
Result<ExecutorPtr> Split(const char* name, const NnTensor* self, const SplitSizes& sizes,
                          int64_t dim, const std::vector<const NnTensor*>& outs);
Result<ExecutorPtr> Cat(const char* name, const std::vector<const NnTensor*>& tensors, int64_t dim,
                        const NnTensor* out);
// out = self.repeat(repeats) (torch.Tensor.repeat: leading dims added).
Result<ExecutorPtr> Repeat(const char* name, const NnTensor* self,
                           const std::vector<int64_t>& repeats, const NnTensor* out);
// out = self.repeat_interleave(repeats, dim): each element along dim `repeats` times; no dim:
// over self flattened.
Result<ExecutorPtr> RepeatInterleave(const char* name, const NnTensor* self, int64_t repeats,
                                     std::optional<int64_t> dim, const NnTensor* out);
// out = torch constant_pad_nd(self, pad, value): pairs from the last dim backwards, negative
// pads crop.
Result<ExecutorPtr> ConstantPad(const char* name, const NnTensor* self,
                                const std::vector<int64_t>& pad, const NnScalar* value,
                                const NnTensor* out);
enum class GatherKind {
  kGatherV2,     // out rank = self rank + index rank - 1
  kIndexSelect,  // 0-D / 1-D index; out.shape[dim] = index's element count
};
// out = self taken at index along dim (indices checked when the kernel runs).
Result<ExecutorPtr> Gather(const char* name, GatherKind kind, const NnTensor* self, int64_t dim,
                           const NnTensor* index, const NnTensor* out);
// out = start + i * step for i in [0, ceil((end - start) / step)).
Result<ExecutorPtr> Arange(const char* name, const NnScalar* start, const NnScalar* end,
                           const NnScalar* step, const NnTensor* out);

// ---- language-model operators (ops_llm.cc) ----

// out = the lower (Tril) or upper (Triu) triangle of self's last two dims, `diagonal` above
// (positive) or below (negative) the main one. out null: in place on self (selfRef).
Result<ExecutorPtr> Triangle(const char* name, bool lower, const NnTensor* self, int64_t diagonal,
                             const NnTensor* out);
// ---- convolution (ops_conv.cc) ----

struct ConvArgs {
  const NnTensor* input = nullptr;  // NCL, NCHW or NCDHW
  const NnTensor* weight = nullptr;
  const NnTensor* bias = nullptr;  // optional [Cout]
  std::vector<int64_t> stride, padding, dilation, output_padding;
  bool transposed = false;
  int64_t groups = 1;
  const NnTensor* output = nullptr;
  int8_t cube_math_type = 0;
  const char* input_what = "input";
  const char* output_what = "output";
};
// output = the (transposed) convolution of input with weight, plus bias per channel.
Result<ExecutorPtr> Convolution(const char* name, const ConvArgs& args);

// ---- pooling (ops_pool.cc) and upsampling (ops_upsample.cc) ----

struct PoolArgs {
  std::vector<int64_t> kernel, stride, padding;
  bool ceil_mode = false;
};
// PyTorch's avg_pool2d over a (C, H, W) or (N, C, H, W) self: strides empty = the kernel,
// paddings symmetric (at most half the kernel); divisorOverride 0 = off.
Result<ExecutorPtr> AvgPool2d(const char* name, const NnTensor* self, const PoolArgs& args,
                              bool count_include_pad, int64_t divisor_override,
                              int8_t cube_math_type, const NnTensor* out);
// ONNX's MaxPool over (N, C, L) or (N, C, H, W): pads {top, left, bottom, right} (one or two
// values: symmetric), autoPad 0 and dilations 1 only.
Result<ExecutorPtr> MaxPoolOnnx(const char* name, const NnTensor* self, const PoolArgs& args,
                                int64_t auto_pad, const std::vector<int64_t>& dilations,
                                const NnTensor* out);

enum class UpsampleMode { kNearest, kNearestExact, kLinear, kCubic };
// PyTorch's upsampling over (N, C, spatial...) with outputSize (one per spatial dim) and
// optional scales (0: none; all given: they set the source coordinates, as PyTorch does).
Result<ExecutorPtr> Upsample(const char* name, UpsampleMode mode, bool align_corners,
                             const NnTensor* self, const std::vector<int64_t>& output_size,
                             const std::vector<double>& scales, const NnTensor* out);

// ---- layer and group normalisation (ops_norm.cc) ----

// out = (input - mean) * rstd * weight + bias over the trailing dims normalizedShape gives
// (weight / bias null: 1 / 0); meanOut / rstdOut (may be null): input's dims with those set
// to 1, f32 or input's dtype. implMode 0-2 (2: every tensor f16) changes nothing here.
Result<ExecutorPtr> LayerNorm(const char* name, const NnTensor* input,
                              const std::vector<int64_t>& normalized_shape, const NnTensor* weight,
                              const NnTensor* bias, double eps, const NnTensor* out,
                              const NnTensor* mean_out, const NnTensor* rstd_out,
                              int32_t impl_mode);
// out = each of `group` groups of C / group channels of each sample normalised, then
// * gamma[c] + beta[c] (null: 1 / 0); meanOut / rstdOut (N, group), may be null.
Result<ExecutorPtr> GroupNorm(const char* name, const NnTensor* self, const NnTensor* gamma,
                              const NnTensor* beta, int64_t n, int64_t c, int64_t hxw,
                              int64_t group, double eps, const NnTensor* out,
                              const NnTensor* mean_out, const NnTensor* rstd_out);

// yOut = x * rstd * gamma, rstd = 1/sqrt(mean(x^2 over gamma's dims) + epsilon), gamma the
// trailing dims of x; rstdOut (f32, x's dims with gamma's set to 1) may be null.
Result<ExecutorPtr> RmsNorm(const char* name, const NnTensor* x, const NnTensor* gamma,
                            double epsilon, const NnTensor* y, const NnTensor* rstd);
// out = x * cos + rotate(x) * sin, cos/sin broadcast to x; mode 0 half, 1 interleave.
Result<ExecutorPtr> RotaryEmbedding(const char* name, const NnTensor* x, const NnTensor* cos,
                                    const NnTensor* sin, int64_t mode, const NnTensor* out);
// selfRef.select(dim, index[i]) = source.select(dim, i).
Result<ExecutorPtr> IndexCopy(const char* name, const NnTensor* self, int64_t dim,
                              const NnTensor* index, const NnTensor* source);

// ---- random numbers (ops_random.cc) ----
// Every value is a function of (seed, offset, element index) alone: the op library's
// StatelessRandom (Philox-4x32-10, docs/aclnn.md "Random"). In-place forms pass out null and
// the tensor as self / selfRef.

// out ~ N(mean, std): each a tensor (broadcast together to out's shape) or, when null, the
// value beside it. out null: selfRef filled in place (both values).
Result<ExecutorPtr> Normal(const char* name, const NnTensor* self_ref, const NnTensor* mean,
                           double mean_value, const NnTensor* std, double std_value, int64_t seed,
                           int64_t offset, const NnTensor* out);
// selfRef ~ U[from, to).
Result<ExecutorPtr> Uniform(const char* name, const NnTensor* self_ref, double from, double to,
                            uint64_t seed, uint64_t offset);
// selfRef ~ integers uniform in [from, to).
Result<ExecutorPtr> RandomInt(const char* name, const NnTensor* self_ref, int64_t from, int64_t to,
                              int64_t seed, int64_t offset);
// out ~ Bernoulli(prob) with self's shape: prob a scalar or (prob_scalar null) a tensor
// broadcast to self. out null: in place on self.
Result<ExecutorPtr> Bernoulli(const char* name, const NnTensor* self, const NnScalar* prob_scalar,
                              const NnTensor* prob, int64_t seed, int64_t offset,
                              const NnTensor* out);
// out = input * keep / (1 - p), keep ~ Bernoulli(1 - p); mask_out the keep bits (LSB first,
// align(numel, 128) / 8 bytes). train false or p 0: out = input; p 1: out = 0; mask_out is
// left as it is in those three cases.
Result<ExecutorPtr> Dropout(const char* name, const NnTensor* input, double p, bool train,
                            int64_t seed, int64_t offset, const NnTensor* out,
                            const NnTensor* mask_out);
// out (1-D, n elements) = a permutation of [0, n).
Result<ExecutorPtr> Randperm(const char* name, int64_t n, int64_t seed, int64_t offset,
                             const NnTensor* out);
// out (int64, self's dims with the last one numsamples) = category indices drawn from each row
// of the weights self ((C) or (N, C)), with or without replacement.
Result<ExecutorPtr> Multinomial(const char* name, const NnTensor* self, int64_t numsamples,
                                bool replacement, int64_t seed, int64_t offset,
                                const NnTensor* out);

}  // namespace aclsim::core::nn
