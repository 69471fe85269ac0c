// ONNX backend node-test conformance through aclnn (issue 23): every node test whose op maps
// to one aclnn operator as a PyTorch-style framework would call it (Add -> aclnnAdd with alpha
// 1, Conv -> aclnnConvolution, LayerNormalization -> aclnnLayerNorm, ...) runs both phases of
// that operator on the device and its outputs are compared with ONNX's expected outputs.
//
// A user program: public AscendCL and aclnn headers, libascendcl and libonnx's protobuf
// messages only.
//
// Usage: onnx_node_aclnn_runner [--filter SUBSTR] [--markdown FILE] [--min-pass-rate PCT] DATA
// Exit: 0 ok (rate >= min), 1 rate below min or setup error, 77 data dir absent (skip).
#include <acl/acl.h>
#include <aclnn/aclnn_base.h>
#include <aclnnop/aclnn_ops_math.h>
#include <aclnnop/aclnn_ops_nn.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "onnx_node_case.h"
#include "onnx_tensor.h"

namespace {

namespace fs = std::filesystem;
using onnxconf::NodeCase;
using onnxconf::Tensor;

using SecondPhase = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

// One data set of one test: device tensors made from the inputs, outputs shaped like the
// expected ones, and the two phases of the operator the mapping calls.
class Call {
 public:
  Call(const NodeCase& test, const NodeCase::Set& set, aclrtStream stream)
      : test_(test), set_(set), stream_(stream) {}
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;
  ~Call() {
    for (aclTensor* t : tensors_) aclDestroyTensor(t);
    for (aclScalar* s : scalars_) aclDestroyScalar(s);
    for (aclIntArray* a : arrays_) aclDestroyIntArray(a);
    for (void* p : device_) aclrtFree(p);
  }

  // ---- the node ----
  const onnx::AttributeProto* Attr(const std::string& name) const {
    for (const auto& a : test_.node->attribute())
      if (a.name() == name) return &a;
    return nullptr;
  }
  int64_t Int(const std::string& name, int64_t def) const {
    const auto* a = Attr(name);
    return a ? a->i() : def;
  }
  float Float(const std::string& name, float def) const {
    const auto* a = Attr(name);
    return a ? a->f() : def;
  }
  std::string Str(const std::string& name, const std::string& def) const {
    const auto* a = Attr(name);
    return a ? a->s() : def;
  }
  std::vector<int64_t> Ints(const std::string& name, std::vector<int64_t> def = {}) const {
    const auto* a = Attr(name);
    return a ? std::vector<int64_t>(a->ints().begin(), a->ints().end()) : def;
  }
  int opset() const { return test_.opset; }
  const Tensor* InTensor(size_t i) const { return test_.Input(set_, i); }
  const Tensor* OutTensor(size_t i) const { return test_.Output(set_, i); }
  size_t inputs() const { return static_cast<size_t>(test_.node->input_size()); }
  size_t outputs() const { return static_cast<size_t>(test_.node->output_size()); }
  int64_t Rank(size_t i) const {
    return InTensor(i) ? static_cast<int64_t>(InTensor(i)->dims.size()) : 0;
  }

  // ---- the operator's arguments ----
  // Input i on the device (null: absent optional input).
  aclTensor* In(size_t i) {
    const Tensor* t = InTensor(i);
    return t ? Upload(*t, nullptr) : nullptr;
  }
  // Input i viewed with its last two dims swapped (a transposed view of its buffer).
  aclTensor* InTransposed(size_t i) {
    const Tensor* t = InTensor(i);
    return t ? Upload(*t, &kTranspose) : nullptr;
  }
  // Output i, shaped and typed like the expected one; read back by Finish.
  aclTensor* Out(size_t i) {
    const Tensor* want = OutTensor(i);
    if (want == nullptr) return nullptr;
    aclTensor* t = Upload(*want, nullptr, /*zero=*/true);
    outputs_.push_back({i, t, device_.back()});
    return t;
  }
  aclScalar* Scalar(double value, aclDataType type) {
    aclScalar* s = nullptr;
    if (type == ACL_FLOAT) {
      const float v = static_cast<float>(value);
      s = aclCreateScalar(const_cast<float*>(&v), ACL_FLOAT);
    } else if (type == ACL_INT64) {
      const int64_t v = static_cast<int64_t>(value);
      s = aclCreateScalar(const_cast<int64_t*>(&v), ACL_INT64);
    } else {
      const double v = value;
      s = aclCreateScalar(const_cast<double*>(&v), ACL_DOUBLE);
    }
    scalars_.push_back(s);
    return s;
  }
  aclIntArray* Array(const std::vector<int64_t>& values) {
    aclIntArray* a = aclCreateIntArray(values.data(), values.size());
    arrays_.push_back(a);
    return a;
  }

  // Phase 2 after a phase 1 that returned `first` (ws / ex its results), then the stream.
  void Launch(aclnnStatus first, uint64_t ws, aclOpExecutor* ex, SecondPhase second) {
    if (first != 0) {
      Fail("phase 1", first);
      return;
    }
    void* workspace = nullptr;
    if (ws > 0 && aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
      Fail("workspace", -1);
      return;
    }
    const aclnnStatus run = second(workspace, ws, ex, stream_);
    const aclError sync = aclrtSynchronizeStream(stream_);
    if (workspace != nullptr) aclrtFree(workspace);
    if (run != 0) Fail("phase 2", run);
    if (run == 0 && sync != ACL_SUCCESS) Fail("synchronize", sync);
  }

  void Unmapped(std::string why) { unmapped_ = std::move(why); }
  const std::string& unmapped() const { return unmapped_; }

  // "" when every output the operator wrote matches ONNX's; else what differs.
  std::string Finish() {
    if (!failure_.empty()) return failure_;
    if (outputs_.empty()) return "no output compared";
    for (const auto& o : outputs_) {
      const Tensor& want = *OutTensor(o.index);
      Tensor got = want;
      if (!got.data.empty() &&
          aclrtMemcpy(got.data.data(), got.data.size(), o.device, got.data.size(),
                      ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
        return "reading output " + std::to_string(o.index) + " back failed";
      }
      const std::string diff = onnxconf::Compare(want, got, false);
      if (!diff.empty()) return "output " + std::to_string(o.index) + ": " + diff;
    }
    return "";
  }

 private:
  struct OutputSlot {
    size_t index;
    aclTensor* tensor;
    void* device;
  };
  static constexpr int kTranspose = 1;

  aclTensor* Upload(const Tensor& t, const int* view, bool zero = false) {
    const aclDataType type = onnxconf::AclType(t.type);
    if (type == ACL_DT_UNDEFINED) {
      Unmapped(std::string("element type ") + onnxconf::OnnxTypeName(t.type));
      return nullptr;
    }
    const size_t bytes = std::max<size_t>(t.data.size(), 1);
    void* ptr = nullptr;
    if (aclrtMalloc(&ptr, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
      Fail("aclrtMalloc", -1);
      return nullptr;
    }
    device_.push_back(ptr);
    if (zero) {
      aclrtMemset(ptr, bytes, 0, bytes);
    } else if (!t.data.empty()) {
      aclrtMemcpy(ptr, bytes, t.data.data(), t.data.size(), ACL_MEMCPY_HOST_TO_DEVICE);
    }
    std::vector<int64_t> dims = t.dims;
    std::vector<int64_t> strides(dims.size(), 1);
    for (size_t k = dims.size(); k-- > 1;) strides[k - 1] = strides[k] * dims[k];
    const std::vector<int64_t> storage = {t.numel()};
    if (view == &kTranspose && dims.size() >= 2) {
      // The transpose of the tensor as a view of its buffer: last two dims and strides swapped.
      const size_t r = dims.size();
      std::swap(dims[r - 1], dims[r - 2]);
      std::swap(strides[r - 1], strides[r - 2]);
    }
    aclTensor* tensor = aclCreateTensor(dims.data(), dims.size(), type, strides.data(), 0,
                                        ACL_FORMAT_ND, storage.data(), 1, ptr);
    tensors_.push_back(tensor);
    return tensor;
  }
  void Fail(const char* what, int code) {
    if (!failure_.empty()) return;
    const char* msg = aclGetRecentErrMsg();
    failure_ = std::string(what) + " returned " + std::to_string(code) + ": " +
               (msg != nullptr ? msg : "");
    std::replace(failure_.begin(), failure_.end(), '\n', ' ');
  }

  const NodeCase& test_;
  const NodeCase::Set& set_;
  aclrtStream stream_;
  std::vector<aclTensor*> tensors_;
  std::vector<aclScalar*> scalars_;
  std::vector<aclIntArray*> arrays_;
  std::vector<void*> device_;
  std::vector<OutputSlot> outputs_;
  std::string unmapped_;
  std::string failure_;
};

// Calls phase 1 of `Op` with the arguments, then Launch with its phase 2.
#define RUN(c, Op, ...)                                                              \
  do {                                                                               \
    uint64_t ws_ = 0;                                                                \
    aclOpExecutor* ex_ = nullptr;                                                    \
    const aclnnStatus first_ = aclnn##Op##GetWorkspaceSize(__VA_ARGS__, &ws_, &ex_); \
    (c).Launch(first_, ws_, ex_, aclnn##Op);                                         \
  } while (0)

using MapFn = std::function<void(Call&)>;

bool IsFloatInput(const Call& c, size_t i) {
  return c.InTensor(i) != nullptr && onnxconf::IsFloat(c.InTensor(i)->type);
}

// The ONNX ops and the aclnn operator each one maps to.
std::map<std::string, std::pair<std::string, MapFn>> MappingTable() {
  std::map<std::string, std::pair<std::string, MapFn>> t;
  // Unary (self, out).
#define UNARY(OnnxOp, Op) t[OnnxOp] = { #Op, [](Call& c) { RUN(c, Op, c.In(0), c.Out(0)); } }
  UNARY("Abs", Abs);
  UNARY("Neg", Neg);
  UNARY("Exp", Exp);
  UNARY("Log", Log);
  UNARY("Sqrt", Sqrt);
  UNARY("Reciprocal", Reciprocal);
  UNARY("Ceil", Ceil);
  UNARY("Floor", Floor);
  UNARY("Round", Round);
  UNARY("Sin", Sin);
  UNARY("Cos", Cos);
  UNARY("Tan", Tan);
  UNARY("Asin", Asin);
  UNARY("Acos", Acos);
  UNARY("Atan", Atan);
  UNARY("Sinh", Sinh);
  UNARY("Cosh", Cosh);
  UNARY("Tanh", Tanh);
  UNARY("Sigmoid", Sigmoid);
  UNARY("Relu", Relu);
  UNARY("Erf", Erf);
  UNARY("Sign", Sign);
  UNARY("Not", LogicalNot);
  UNARY("Mish", Mish);
  UNARY("HardSwish", Hardswish);
#undef UNARY
  t["IsInf"] = {"IsInf", [](Call& c) {
                  if (c.Int("detect_negative", 1) != 1 || c.Int("detect_positive", 1) != 1) {
                    return c.Unmapped("IsInf of one sign only");
                  }
                  RUN(c, IsInf, c.In(0), c.Out(0));
                }};
  t["Gelu"] = {"GeluV2", [](Call& c) {
                 RUN(c, GeluV2, c.In(0), c.Str("approximate", "none") == "tanh" ? 1 : 0, c.Out(0));
               }};
  // Binary (self, other[, alpha], out).
  auto arith = [](const char* op) {
    return [op](Call& c) {
      if (std::string(op) == "Div" && !IsFloatInput(c, 0)) {
        return c.Unmapped("integer Div truncates in ONNX; aclnnDiv divides exactly");
      }
      aclScalar* one = c.Scalar(1, ACL_FLOAT);
      if (std::string(op) == "Add") RUN(c, Add, c.In(0), c.In(1), one, c.Out(0));
      if (std::string(op) == "Sub") RUN(c, Sub, c.In(0), c.In(1), one, c.Out(0));
      if (std::string(op) == "Mul") RUN(c, Mul, c.In(0), c.In(1), c.Out(0));
      if (std::string(op) == "Div") RUN(c, Div, c.In(0), c.In(1), c.Out(0));
    };
  };
  for (const char* op : {"Add", "Sub", "Mul", "Div"}) t[op] = {op, arith(op)};
#define BINARY(OnnxOp, Op) \
  t[OnnxOp] = { #Op, [](Call& c) { RUN(c, Op, c.In(0), c.In(1), c.Out(0)); } }
  BINARY("Pow", PowTensorTensor);
  BINARY("Equal", EqTensor);
  BINARY("Greater", GtTensor);
  BINARY("GreaterOrEqual", GeTensor);
  BINARY("Less", LtTensor);
  BINARY("LessOrEqual", LeTensor);
  BINARY("And", LogicalAnd);
  BINARY("Or", LogicalOr);
  BINARY("Xor", LogicalXor);
#undef BINARY
  t["Where"] = {"SWhere", [](Call& c) { RUN(c, SWhere, c.In(0), c.In(1), c.In(2), c.Out(0)); }};
  t["Mod"] = {"RemainderTensorTensor/FmodTensor", [](Call& c) {
                if (c.Int("fmod", 0) != 0) {
                  RUN(c, FmodTensor, c.In(0), c.In(1), c.Out(0));
                } else {
                  RUN(c, RemainderTensorTensor, c.In(0), c.In(1), c.Out(0));
                }
              }};
  for (const char* op : {"Max", "Min"}) {
    t[op] = {op == std::string("Max") ? "Maximum" : "Minimum", [op](Call& c) {
               if (c.inputs() != 2) return c.Unmapped("only the two-input form");
               if (op == std::string("Max")) {
                 RUN(c, Maximum, c.In(0), c.In(1), c.Out(0));
               } else {
                 RUN(c, Minimum, c.In(0), c.In(1), c.Out(0));
               }
             }};
  }
  // Activations with parameters.
  t["LeakyRelu"] = {"LeakyRelu", [](Call& c) {
                      RUN(c, LeakyRelu, c.In(0), c.Scalar(c.Float("alpha", 0.01f), ACL_FLOAT),
                          c.Out(0));
                    }};
  t["Elu"] = {"Elu", [](Call& c) {
                RUN(c, Elu, c.In(0), c.Scalar(c.Float("alpha", 1.0f), ACL_FLOAT),
                    c.Scalar(1, ACL_FLOAT), c.Scalar(1, ACL_FLOAT), c.Out(0));
              }};
  t["Softplus"] = {"Softplus", [](Call& c) {
                     RUN(c, Softplus, c.In(0), c.Scalar(1, ACL_FLOAT), c.Scalar(20, ACL_FLOAT),
                         c.Out(0));
                   }};
  t["Clip"] = {"Clamp", [](Call& c) {
                 if (c.opset() < 11) return c.Unmapped("Clip before opset 11 (attributes)");
                 const Tensor* lo = c.InTensor(1);
                 const Tensor* hi = c.InTensor(2);
                 const aclDataType type = IsFloatInput(c, 0) ? ACL_DOUBLE : ACL_INT64;
                 aclScalar* min = lo ? c.Scalar(onnxconf::AsDouble(*lo, 0), type) : nullptr;
                 aclScalar* max = hi ? c.Scalar(onnxconf::AsDouble(*hi, 0), type) : nullptr;
                 if (min == nullptr && max == nullptr) {
                   return c.Unmapped("Clip without bounds is a copy");
                 }
                 RUN(c, Clamp, c.In(0), min, max, c.Out(0));
               }};
  t["Softmax"] = {"Softmax", [](Call& c) {
                    const int64_t axis = c.Int("axis", c.opset() >= 13 ? -1 : 1);
                    if (c.opset() < 13 && axis != -1 && axis != c.Rank(0) - 1) {
                      return c.Unmapped("Softmax before opset 13 over flattened dims");
                    }
                    RUN(c, Softmax, c.In(0), axis, c.Out(0));
                  }};
  // Matrix products.
  t["MatMul"] = {"Matmul", [](Call& c) {
                   if (!IsFloatInput(c, 0)) return c.Unmapped("integer MatMul");
                   RUN(c, Matmul, c.In(0), c.In(1), c.Out(0), 0);
                 }};
  t["Gemm"] = {"Addmm", [](Call& c) {
                 if (c.InTensor(2) == nullptr) return c.Unmapped("Gemm without C");
                 aclTensor* a = c.Int("transA", 0) ? c.InTransposed(0) : c.In(0);
                 aclTensor* b = c.Int("transB", 0) ? c.InTransposed(1) : c.In(1);
                 RUN(c, Addmm, c.In(2), a, b, c.Scalar(c.Float("beta", 1), ACL_FLOAT),
                     c.Scalar(c.Float("alpha", 1), ACL_FLOAT), c.Out(0), 0);
               }};
  // Reductions and scans.
  // ReduceSum takes its axes as an input from opset 13, the others from opset 18.
  enum class R { kSum, kMean, kMax, kMin, kProd, kLogSumExp };
  auto reduce = [](R r) {
    return [r](Call& c) {
      std::vector<int64_t> axes = c.Ints("axes");
      if (c.opset() >= (r == R::kSum ? 13 : 18)) {
        axes = c.InTensor(1) ? onnxconf::Ints(*c.InTensor(1)) : std::vector<int64_t>{};
      }
      if (axes.empty() && c.Int("noop_with_empty_axes", 0) != 0) {
        return c.Unmapped("noop_with_empty_axes");
      }
      const bool keep = c.Int("keepdims", 1) != 0;
      const auto type = onnxconf::AclType(c.OutTensor(0)->type);
      switch (r) {
        case R::kSum:
          RUN(c, ReduceSum, c.In(0), c.Array(axes), keep, type, c.Out(0));
          break;
        case R::kMean:
          RUN(c, Mean, c.In(0), c.Array(axes), keep, type, c.Out(0));
          break;
        case R::kMax:
          RUN(c, Amax, c.In(0), c.Array(axes), keep, c.Out(0));
          break;
        case R::kMin:
          RUN(c, Amin, c.In(0), c.Array(axes), keep, c.Out(0));
          break;
        case R::kProd:
          if (axes.size() > 1) return c.Unmapped("ProdDim takes one dim");
          if (axes.empty()) {
            if (keep && c.Rank(0) > 0) return c.Unmapped("Prod over all dims keeps none");
            RUN(c, Prod, c.In(0), type, c.Out(0));
          } else {
            RUN(c, ProdDim, c.In(0), axes[0], keep, type, c.Out(0));
          }
          break;
        case R::kLogSumExp:
          RUN(c, LogSumExp, c.In(0), c.Array(axes), keep, c.Out(0));
          break;
      }
    };
  };
  t["ReduceSum"] = {"ReduceSum", reduce(R::kSum)};
  t["ReduceMean"] = {"Mean", reduce(R::kMean)};
  t["ReduceMax"] = {"Amax", reduce(R::kMax)};
  t["ReduceMin"] = {"Amin", reduce(R::kMin)};
  t["ReduceProd"] = {"Prod/ProdDim", reduce(R::kProd)};
  t["ReduceLogSumExp"] = {"LogSumExp", reduce(R::kLogSumExp)};
  t["ArgMin"] = {"ArgMin", [](Call& c) {
                   if (c.Int("select_last_index", 0) != 0) {
                     return c.Unmapped("select_last_index");
                   }
                   RUN(c, ArgMin, c.In(0), c.Int("axis", 0), c.Int("keepdims", 1) != 0, c.Out(0));
                 }};
  t["ArgMax"] = {"ArgMax", [](Call& c) {
                   if (c.Int("select_last_index", 0) != 0) {
                     return c.Unmapped("select_last_index");
                   }
                   RUN(c, ArgMax, c.In(0), c.Int("axis", 0), c.Int("keepdims", 1) != 0, c.Out(0));
                 }};
  t["CumSum"] = {"Cumsum", [](Call& c) {
                   if (c.Int("exclusive", 0) != 0 || c.Int("reverse", 0) != 0) {
                     return c.Unmapped("exclusive / reverse CumSum");
                   }
                   RUN(c, Cumsum, c.In(0), onnxconf::AsInt(*c.InTensor(1), 0),
                       onnxconf::AclType(c.OutTensor(0)->type), c.Out(0));
                 }};
  t["TopK"] = {"Topk", [](Call& c) {
                 RUN(c, Topk, c.In(0), onnxconf::AsInt(*c.InTensor(1), 0), c.Int("axis", -1),
                     c.Int("largest", 1) != 0, true, c.Out(0), c.Out(1));
               }};
  // Shapes and movement.
  t["Transpose"] = {"Permute", [](Call& c) {
                      std::vector<int64_t> perm = c.Ints("perm");
                      if (perm.empty()) {
                        for (int64_t k = c.Rank(0); k-- > 0;) perm.push_back(k);
                      }
                      RUN(c, Permute, c.In(0), c.Array(perm), c.Out(0));
                    }};
  t["Expand"] = {"Expand", [](Call& c) {  // the broadcast result's shape as the size
                   RUN(c, Expand, c.In(0), c.Array(c.OutTensor(0)->dims), c.Out(0));
                 }};
  t["Tile"] = {"Repeat", [](Call& c) {
                 RUN(c, Repeat, c.In(0), c.Array(onnxconf::Ints(*c.InTensor(1))), c.Out(0));
               }};
  t["Gather"] = {"GatherV2", [](Call& c) {
                   const Tensor* index = c.InTensor(1);
                   for (int64_t i = 0; i < index->numel(); ++i) {
                     if (onnxconf::AsInt(*index, i) < 0) {
                       return c.Unmapped("negative indices (aclnn takes [0, size))");
                     }
                   }
                   RUN(c, GatherV2, c.In(0), c.Int("axis", 0), c.In(1), c.Out(0));
                 }};
  t["Trilu"] = {"Tril/Triu", [](Call& c) {
                  const int64_t k = c.InTensor(1) ? onnxconf::AsInt(*c.InTensor(1), 0) : 0;
                  if (c.Int("upper", 1) != 0) {
                    RUN(c, Triu, c.In(0), k, c.Out(0));
                  } else {
                    RUN(c, Tril, c.In(0), k, c.Out(0));
                  }
                }};
  t["Concat"] = {"Cat", [](Call& c) {
                   std::vector<aclTensor*> members;
                   for (size_t i = 0; i < c.inputs(); ++i) members.push_back(c.In(i));
                   // The list takes its members: they must not be destroyed twice.
                   std::vector<aclTensor*> owned;
                   for (size_t i = 0; i < c.inputs(); ++i) {
                     const Tensor* t = c.InTensor(i);
                     std::vector<int64_t> strides(t->dims.size(), 1);
                     for (size_t k = t->dims.size(); k-- > 1;)
                       strides[k - 1] = strides[k] * t->dims[k];
                     void* data = nullptr;
                     aclGetRawTensorAddr(members[i], &data);
                     const int64_t storage = t->numel();
                     owned.push_back(aclCreateTensor(t->dims.data(), t->dims.size(),
                                                     onnxconf::AclType(t->type), strides.data(), 0,
                                                     ACL_FORMAT_ND, &storage, 1, data));
                   }
                   aclTensorList* list = aclCreateTensorList(owned.data(), owned.size());
                   RUN(c, Cat, list, c.Int("axis", 0), c.Out(0));
                   aclDestroyTensorList(list);
                 }};
  t["Range"] = {"Arange", [](Call& c) {
                  const aclDataType type = IsFloatInput(c, 0) ? ACL_DOUBLE : ACL_INT64;
                  RUN(c, Arange, c.Scalar(onnxconf::AsDouble(*c.InTensor(0), 0), type),
                      c.Scalar(onnxconf::AsDouble(*c.InTensor(1), 0), type),
                      c.Scalar(onnxconf::AsDouble(*c.InTensor(2), 0), type), c.Out(0));
                }};
  // Normalisation, convolution, pooling.
  t["LayerNormalization"] = {"LayerNorm", [](Call& c) {
                               int64_t axis = c.Int("axis", -1);
                               const int64_t rank = c.Rank(0);
                               if (axis < 0) axis += rank;
                               const auto& dims = c.InTensor(0)->dims;
                               const std::vector<int64_t> shape(dims.begin() + axis, dims.end());
                               RUN(c, LayerNorm, c.In(0), c.Array(shape), c.In(1), c.In(2),
                                   c.Float("epsilon", 1e-5f), c.Out(0), c.Out(1), c.Out(2));
                             }};
  t["Conv"] = {"Convolution", [](Call& c) {
                 if (c.Str("auto_pad", "NOTSET") != "NOTSET") return c.Unmapped("auto_pad");
                 const int64_t spatial = c.Rank(0) - 2;
                 std::vector<int64_t> pads = c.Ints("pads", std::vector<int64_t>(2 * spatial, 0));
                 // ONNX: [begin..., end...]; aclnn 2-D: [top, bottom, left, right].
                 std::vector<int64_t> padding;
                 bool symmetric = true;
                 for (int64_t k = 0; k < spatial; ++k) {
                   padding.push_back(pads[k]);
                   if (spatial != 3) padding.push_back(pads[k + spatial]);
                   symmetric = symmetric && pads[k] == pads[k + spatial];
                 }
                 if (spatial == 3 && !symmetric) return c.Unmapped("asymmetric 3-D pads");
                 const std::vector<int64_t> ones(spatial, 1);
                 RUN(c, Convolution, c.In(0), c.In(1), c.In(2), c.Array(c.Ints("strides", ones)),
                     c.Array(padding), c.Array(c.Ints("dilations", ones)), false,
                     c.Array(std::vector<int64_t>(spatial, 0)), c.Int("group", 1), c.Out(0), 0);
               }};
  t["AveragePool"] = {"AvgPool2d", [](Call& c) {
                        const auto k = c.Ints("kernel_shape");
                        const auto pads = c.Ints("pads", {0, 0, 0, 0});
                        if (c.Rank(0) != 4 || c.Str("auto_pad", "NOTSET") != "NOTSET" ||
                            pads[0] != pads[2] || pads[1] != pads[3] ||
                            !c.Ints("dilations").empty()) {
                          return c.Unmapped("not a 2-D symmetric, undilated pooling");
                        }
                        if (2 * pads[0] > k[0] || 2 * pads[1] > k[1]) {
                          return c.Unmapped("padding beyond half the kernel (PyTorch's rule)");
                        }
                        RUN(c, AvgPool2d, c.In(0), c.Array(k), c.Array(c.Ints("strides", {1, 1})),
                            c.Array({pads[0], pads[1]}), c.Int("ceil_mode", 0) != 0,
                            c.Int("count_include_pad", 0) != 0, 0, 0, c.Out(0));
                      }};
  t["MaxPool"] = {"MaxPool", [](Call& c) {
                    if (c.outputs() != 1 || c.Str("auto_pad", "NOTSET") != "NOTSET" ||
                        c.Int("storage_order", 0) != 0 || (c.Rank(0) != 3 && c.Rank(0) != 4)) {
                      return c.Unmapped("indices, auto_pad, storage order or rank");
                    }
                    for (int64_t d : c.Ints("dilations")) {
                      if (d != 1) return c.Unmapped("dilations (A2: 1 only)");
                    }
                    if (!IsFloatInput(c, 0)) return c.Unmapped("integer input (A2: f16/f32)");
                    const auto pads = c.Ints("pads");
                    std::vector<int64_t> onnx_pads;  // aclnn: {top, left, bottom, right}
                    if (pads.size() == 4) onnx_pads = pads;
                    if (pads.size() == 2) onnx_pads = {pads[0], pads[1]};
                    RUN(c, MaxPool, c.In(0), c.Array(c.Ints("kernel_shape")),
                        c.Array(c.Ints("strides")), 0, c.Array(onnx_pads),
                        c.Array(c.Ints("dilations", std::vector<int64_t>(c.Rank(0) - 2, 1))),
                        c.Int("ceil_mode", 0), c.Out(0));
                  }};
  return t;
}

enum class Outcome { kPass, kFail, kUnmapped };

struct Result {
  std::string name, onnx_op, aclnn_op, reason;
  Outcome outcome = Outcome::kUnmapped;
};

Result RunTest(const fs::path& dir,
               const std::map<std::string, std::pair<std::string, MapFn>>& table,
               aclrtStream stream) {
  Result r;
  r.name = dir.filename().string();
  NodeCase test;
  r.reason = onnxconf::ReadNodeModel(dir, &test);
  r.onnx_op = test.op;
  if (!r.reason.empty()) return r;
  auto it = table.find(test.op);
  if (it == table.end()) {
    r.reason = "no aclnn mapping";
    return r;
  }
  r.aclnn_op = it->second.first;
  r.reason = onnxconf::ReadNodeData(dir, &test, [](Tensor*) {});
  if (!r.reason.empty()) return r;
  // aclnn pairs uint16/32/64 only with themselves; none of these operators lists them.
  for (const auto& [name, t] : test.sets[0].values) {
    if (t.type == onnxconf::kOUint16 || t.type == onnxconf::kOUint32 ||
        t.type == onnxconf::kOUint64) {
      r.reason = std::string("element type ") + onnxconf::OnnxTypeName(t.type) +
                 " (not in the operator's aclnn dtype list)";
      return r;
    }
  }
  for (const NodeCase::Set& set : test.sets) {
    Call call(test, set, stream);
    it->second.second(call);
    if (!call.unmapped().empty()) {
      r.reason = call.unmapped();
      return r;
    }
    const std::string fail = call.Finish();
    if (!fail.empty()) {
      r.outcome = Outcome::kFail;
      r.reason = (test.sets.size() > 1 ? set.name + ": " : "") + fail;
      return r;
    }
  }
  r.outcome = Outcome::kPass;
  return r;
}

const char* OutcomeName(Outcome o) {
  return o == Outcome::kPass ? "PASS" : o == Outcome::kFail ? "FAIL" : "UNMAPPED";
}

}  // namespace

int main(int argc, char** argv) {
  std::string filter;
  std::string markdown;
  double min_rate = -1;
  std::string data_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--filter" && i + 1 < argc) {
      filter = argv[++i];
    } else if (a == "--markdown" && i + 1 < argc) {
      markdown = argv[++i];
    } else if (a == "--min-pass-rate" && i + 1 < argc) {
      min_rate = std::stod(argv[++i]);
    } else {
      data_dir = a;
    }
  }
  if (data_dir.empty()) {
    std::fprintf(stderr, "usage: %s [--filter S] [--markdown FILE] [--min-pass-rate PCT] DATA\n",
                 argv[0]);
    return 1;
  }
  if (!fs::is_directory(data_dir)) {
    std::printf("SKIP: ONNX node test data not found at %s (install libonnx-testdata)\n",
                data_dir.c_str());
    return 77;
  }
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(data_dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_directory() && name.rfind("test_", 0) == 0 &&
        (filter.empty() || name.find(filter) != std::string::npos))
      dirs.push_back(e.path());
  }
  std::sort(dirs.begin(), dirs.end());
  aclrtStream stream = nullptr;
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
      aclrtCreateStream(&stream) != ACL_SUCCESS) {
    std::fprintf(stderr, "setup failed: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  const auto table = MappingTable();
  std::vector<Result> results;
  for (const fs::path& dir : dirs) {
    results.push_back(RunTest(dir, table, stream));
    const Result& r = results.back();
    std::printf("%-60s %-20s %-14s %s%s%s\n", r.name.c_str(), r.onnx_op.c_str(),
                r.aclnn_op.empty() ? "-" : r.aclnn_op.c_str(), OutcomeName(r.outcome),
                r.reason.empty() ? "" : "  ", r.reason.c_str());
    std::fflush(stdout);
  }
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  size_t mapped = 0, passed = 0;
  std::map<std::string, std::pair<int, int>> per_op;  // aclnn op -> pass, fail
  for (const Result& r : results) {
    if (r.outcome == Outcome::kUnmapped) continue;
    ++mapped;
    passed += r.outcome == Outcome::kPass;
    auto& counts = per_op[r.onnx_op + " -> aclnn" + r.aclnn_op];
    (r.outcome == Outcome::kPass ? counts.first : counts.second) += 1;
  }
  const double rate =
      mapped ? 100.0 * static_cast<double>(passed) / static_cast<double>(mapped) : 0;
  std::printf(
      "\nSummary: %zu node tests, %zu mapped to aclnn, %zu passed, %zu failed; pass rate "
      "of mapped tests %.1f%%\n",
      results.size(), mapped, passed, mapped - passed, rate);
  for (const Result& r : results)
    if (r.outcome == Outcome::kFail)
      std::printf("  FAIL %s (%s)\n", r.name.c_str(), r.reason.c_str());
  if (!markdown.empty()) {
    const std::string marker = "<!-- BEGIN GENERATED by onnx_node_aclnn_runner --markdown -->";
    std::string head;
    {
      std::ifstream old(markdown);
      std::string text((std::istreambuf_iterator<char>(old)), std::istreambuf_iterator<char>());
      const size_t at = text.find(marker);
      if (at != std::string::npos) head = text.substr(0, at);
    }
    std::ofstream md(markdown);
    md << head << marker << "\n\n";
    char line[300];
    std::snprintf(line, sizeof(line),
                  "**%zu node tests: %zu mapped to aclnn, %zu passed, %zu failed. Pass rate of "
                  "mapped tests: %.1f%%.**\n\n| ONNX op -> aclnn operator | PASS | FAIL |\n"
                  "|---|---|---|\n",
                  results.size(), mapped, passed, mapped - passed, rate);
    md << line;
    for (const auto& [op, counts] : per_op)
      md << "| " << op << " | " << counts.first << " | " << counts.second << " |\n";
    md << "\n| Failing test | Detail |\n|---|---|\n";
    for (const Result& r : results) {
      if (r.outcome != Outcome::kFail) continue;
      std::string why = r.reason;
      std::replace(why.begin(), why.end(), '|', '/');
      md << "| " << r.name << " | " << why << " |\n";
    }
  }
  if (min_rate >= 0 && rate < min_rate) {
    std::printf("FAIL: pass rate %.1f%% is below the required %.1f%%\n", rate, min_rate);
    return 1;
  }
  return 0;
}
