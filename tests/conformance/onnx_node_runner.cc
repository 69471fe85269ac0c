// ONNX backend node-test conformance runner (issue 5).
//
// For every ONNX node test (data/node/test_*/model.onnx + test_data_set_*/{input,output}_N.pb)
// the single node is mapped to one CANN op as CANN's ONNX parser does (reference
// cann_ops.md section 2), run through aclopCompileAndExecute (V2 for dynamic output shapes)
// and its outputs are compared with ONNX's expected outputs.
//
// A user program: it includes only the public AscendCL headers and links only libascendcl
// and libonnx's protobuf messages.
//
// Usage: onnx_node_runner [--filter SUBSTR] [--markdown FILE] [--min-pass-rate PCT] DATA_DIR
// Exit: 0 ok (rate >= min), 1 rate below min or setup error, 77 data dir absent (skip).
#include <acl/acl.h>
#include <acl/acl_op_compiler.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "onnx_node_case.h"
#include "onnx_tensor.h"

namespace {

namespace fs = std::filesystem;
using namespace onnxconf;  // NOLINT(google-build-using-namespace): the runner's vocabulary

// ---- The ONNX node as the mapping sees it ------------------------------------------------

struct Node {
  const onnx::NodeProto* proto = nullptr;
  int opset = 0;
  std::vector<const Tensor*> in;   // per node input; nullptr = omitted optional input
  std::vector<const Tensor*> out;  // expected, per node output; nullptr = not produced

  const std::string& op() const { return proto->op_type(); }
  const Tensor* input(size_t i) const { return i < in.size() ? in[i] : nullptr; }
  const onnx::AttributeProto* Attr(const std::string& name) const {
    for (const auto& a : proto->attribute())
      if (a.name() == name) return &a;
    return nullptr;
  }
  bool Has(const std::string& name) const { return Attr(name) != nullptr; }
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
  std::vector<int64_t> IntList(const std::string& name, std::vector<int64_t> def) const {
    const auto* a = Attr(name);
    if (!a) return def;
    return std::vector<int64_t>(a->ints().begin(), a->ints().end());
  }
  size_t rank(size_t i = 0) const { return in[i] ? in[i]->dims.size() : 0; }
};

// ---- The CANN call ----------------------------------------------------------------------

struct Arg {
  Tensor t;
  bool absent = false;
  bool host_const = false;  // aclSetTensorConst + ACL_MEMTYPE_HOST (a value input)
  aclFormat format = ACL_FORMAT_ND;
  aclDataType dtype = ACL_DT_UNDEFINED;  // overrides AclType(t.type) (bool -> uint8 etc.)
};

struct OutArg {
  aclDataType dtype = ACL_DT_UNDEFINED;
  std::vector<int64_t> dims;
  int expected = -1;  // node output compared with, -1 = not compared
  aclFormat format = ACL_FORMAT_ND;
};

struct AttrArg {
  enum Kind { kInt, kFloat, kBool, kString, kListInt, kListFloat } kind = kInt;
  std::string name;
  int64_t i = 0;
  float f = 0;
  std::string s;
  std::vector<int64_t> li;
  std::vector<float> lf;
};

struct Call {
  std::string op;
  std::vector<Arg> in;
  std::vector<OutArg> out;
  std::vector<AttrArg> attrs;
  bool dynamic_shape = false;  // aclopCompileAndExecuteV2, output dims read back
  bool values_only = false;    // compare element values, not the (kept-1-dim) shape

  void In(const Node& n, size_t i, aclFormat fmt = ACL_FORMAT_ND) {
    Arg a;
    a.t = *n.in[i];
    a.format = fmt;
    in.push_back(std::move(a));
  }
  void Const(Tensor t) {
    Arg a;
    a.t = std::move(t);
    a.host_const = true;
    in.push_back(std::move(a));
  }
  void ConstIn(const Node& n, size_t i) { Const(*n.in[i]); }
  void Absent() {
    Arg a;
    a.absent = true;
    in.push_back(std::move(a));
  }
  void Out(const Node& n, size_t j, aclFormat fmt = ACL_FORMAT_ND) {
    OutArg o;
    o.dtype = AclType(n.out[j]->type);
    o.dims = n.out[j]->dims;
    o.expected = static_cast<int>(j);
    o.format = fmt;
    out.push_back(std::move(o));
  }
  void AllIn(const Node& n) {
    for (size_t i = 0; i < n.in.size(); ++i) {
      if (n.in[i]) {
        In(n, i);
      } else {
        Absent();
      }
    }
  }
  void AllOut(const Node& n) {
    for (size_t j = 0; j < n.out.size(); ++j)
      if (n.out[j]) Out(n, j);
  }
  void Int(const std::string& name, int64_t v) { Add(AttrArg::kInt, name).i = v; }
  void Float(const std::string& name, float v) { Add(AttrArg::kFloat, name).f = v; }
  void Bool(const std::string& name, bool v) { Add(AttrArg::kBool, name).i = v ? 1 : 0; }
  void Str(const std::string& name, const std::string& v) { Add(AttrArg::kString, name).s = v; }
  void Ints(const std::string& name, std::vector<int64_t> v) {
    Add(AttrArg::kListInt, name).li = std::move(v);
  }

 private:
  AttrArg& Add(AttrArg::Kind kind, const std::string& name) {
    attrs.emplace_back();
    attrs.back().kind = kind;
    attrs.back().name = name;
    return attrs.back();
  }
};

// A mapping fills *c and returns "" or returns why the test cannot be expressed as one op.
using MapFn = std::function<std::string(const Node&, Call*)>;

int64_t NormAxis(int64_t axis, size_t rank) {
  return axis < 0 ? axis + static_cast<int64_t>(rank) : axis;
}

// The dtype lists of the CANN prototypes (cann_ops.md section 1) for ops whose list is
// narrower than ONNX's; a test with another dtype is not expressible with that op.
using TypeList = std::vector<int>;
const TypeList kFloatTypes = {kOFloat, kOFloat16, kODouble, kOBfloat16};
// Maximum / Minimum: prototype f16,f32,f64,i32,i64,bf16 plus the AI Core kernel's i8.
const TypeList kMaxMinTypes = {kOFloat16, kOFloat, kODouble, kOInt32, kOInt64, kOBfloat16, kOInt8};
const TypeList kFloorModTypes = {kOInt32, kOInt64, kOFloat, kOFloat16, kODouble, kOBfloat16};
const TypeList kModTypes = {kOFloat16, kOFloat, kOInt32,  kOInt8,
                            kOUint8,   kOInt64, kODouble, kOBfloat16};
const TypeList kPowTypes = {kOBfloat16, kOFloat16, kOFloat, kOInt32, kOInt64,
                            kOInt8,     kOInt16,   kOUint8, kODouble};

std::string CheckTypes(const Node& n, const std::string& cann, const TypeList& types) {
  for (const Tensor* x : n.in) {
    if (x && std::find(types.begin(), types.end(), x->type) == types.end())
      return std::string(OnnxTypeName(x->type)) + " is not in CANN " + cann + "'s dtype list";
  }
  return "";
}

// Same-named (or renamed) op, inputs and outputs line up, no attributes.
MapFn Simple(const std::string& cann, const TypeList& types = {}) {
  return [cann, types](const Node& n, Call* c) -> std::string {
    if (!types.empty()) {
      std::string why = CheckTypes(n, cann, types);
      if (!why.empty()) return why;
    }
    c->op = cann;
    c->AllIn(n);
    c->AllOut(n);
    return "";
  };
}

// Explicit pads [begin..., end...] of a 2-D window op from ONNX pads / auto_pad.
bool WindowPads(const Node& n, const std::vector<int64_t>& kernel,
                const std::vector<int64_t>& strides, const std::vector<int64_t>& dilations,
                std::vector<int64_t>* pads, std::string* why) {
  const size_t sp = kernel.size();
  const std::string auto_pad = n.Str("auto_pad", "NOTSET");
  *pads = n.IntList("pads", std::vector<int64_t>(2 * sp, 0));
  if (auto_pad == "NOTSET" || auto_pad.empty()) return true;
  if (auto_pad == "VALID") {
    pads->assign(2 * sp, 0);
    return true;
  }
  if (auto_pad != "SAME_UPPER" && auto_pad != "SAME_LOWER") {
    *why = "auto_pad " + auto_pad;
    return false;
  }
  for (size_t i = 0; i < sp; ++i) {
    const int64_t in = n.in[0]->dims[2 + i];
    const int64_t out = (in + strides[i] - 1) / strides[i];
    const int64_t eff = (kernel[i] - 1) * dilations[i] + 1;
    const int64_t total = std::max<int64_t>(0, (out - 1) * strides[i] + eff - in);
    const int64_t small = total / 2;
    (*pads)[i] = auto_pad == "SAME_UPPER" ? small : total - small;
    (*pads)[sp + i] = total - (*pads)[i];
  }
  return true;
}

std::string MapConv(const Node& n, Call* c) {
  if (n.rank() != 4) return "Conv with a " + std::to_string(n.rank()) + "-D input (Conv2D only)";
  const Tensor& w = *n.in[1];
  std::vector<int64_t> kernel = {w.dims[2], w.dims[3]};
  auto strides = n.IntList("strides", {1, 1});
  auto dilations = n.IntList("dilations", {1, 1});
  std::vector<int64_t> pads;
  std::string why;
  if (!WindowPads(n, kernel, strides, dilations, &pads, &why)) return why;
  c->op = "Conv2D";
  c->In(n, 0, ACL_FORMAT_NCHW);
  c->In(n, 1, ACL_FORMAT_NCHW);
  if (n.input(2)) c->In(n, 2);
  c->Out(n, 0, ACL_FORMAT_NCHW);
  c->Ints("strides", {1, 1, strides[0], strides[1]});
  c->Ints("pads", {pads[0], pads[2], pads[1], pads[3]});
  c->Ints("dilations", {1, 1, dilations[0], dilations[1]});
  c->Int("groups", n.Int("group", 1));
  c->Str("data_format", "NCHW");
  return "";
}

std::string MapPool(const Node& n, Call* c, bool is_max) {
  const std::string cann = is_max ? "MaxPoolV3" : "AvgPoolV2";
  // A 1-D pool is the 2-D op on the [N, C, 1, L] view (CANN's plugin: Unsqueeze / Squeeze,
  // both free reshapes); 3-D pools need MaxPool3D / AvgPool3D (not in the simulator).
  const bool one_d = n.rank() == 3;
  if (n.rank() != 4 && !one_d)
    return cann + " is 2-D only (input rank " + std::to_string(n.rank()) + ")";
  if (is_max && n.out.size() > 1 && n.out[1]) return "MaxPool Indices output (not in MaxPoolV3)";
  if (n.Int("storage_order", 0) != 0) return "storage_order=1";
  auto kernel = n.IntList("kernel_shape", {});
  auto strides = n.IntList("strides", std::vector<int64_t>(kernel.size(), 1));
  auto dilations = n.IntList("dilations", std::vector<int64_t>(kernel.size(), 1));
  for (int64_t d : dilations)
    if (d != 1) return cann + " has no dilations";
  std::vector<int64_t> pads;
  std::string why;
  if (!WindowPads(n, kernel, strides, dilations, &pads, &why)) return why;
  if (one_d) {
    kernel.insert(kernel.begin(), 1);
    strides.insert(strides.begin(), 1);
    pads = {0, pads[0], 0, pads[1]};
  }
  c->op = cann;
  c->In(n, 0, ACL_FORMAT_NCHW);
  c->Out(n, 0, ACL_FORMAT_NCHW);
  if (one_d) {
    c->in[0].t.dims.insert(c->in[0].t.dims.begin() + 2, 1);
    c->out[0].dims.insert(c->out[0].dims.begin() + 2, 1);
    c->values_only = true;
  }
  c->Ints("ksize", {1, 1, kernel[0], kernel[1]});
  c->Ints("strides", {1, 1, strides[0], strides[1]});
  c->Str("padding_mode", "CALCULATED");
  c->Ints("pads", {pads[0], pads[2], pads[1], pads[3]});
  c->Str("data_format", "NCHW");
  c->Bool("ceil_mode", n.Int("ceil_mode", 0) != 0);
  if (!is_max) c->Bool("exclusive", n.Int("count_include_pad", 0) == 0);
  return "";
}

std::string MapSoftmax(const Node& n, Call* c, const std::string& cann) {
  const size_t rank = n.rank();
  std::vector<int64_t> axes;
  if (n.opset >= 13) {
    axes = {n.Int("axis", -1)};
  } else {
    // Legacy semantics: softmax over the flattened trailing dims [axis, rank).
    for (int64_t a = NormAxis(n.Int("axis", 1), rank); a < static_cast<int64_t>(rank); ++a)
      axes.push_back(a);
  }
  c->op = cann;
  c->In(n, 0);
  c->Out(n, 0);
  c->Ints("axes", axes);
  return "";
}

// Reduce* ops: axes as a host const input (attribute before opset 18 / 13 for ReduceSum).
std::string MapReduce(const Node& n, Call* c, const std::string& cann, int axes_input_opset) {
  std::vector<int64_t> axes;
  bool have_axes = false;
  if (n.opset >= axes_input_opset) {
    if (n.input(1)) {
      axes = Ints(*n.in[1]);
      have_axes = true;
    }
  } else if (n.Has("axes")) {
    axes = n.IntList("axes", {});
    have_axes = true;
  }
  const bool noop = n.Int("noop_with_empty_axes", 0) != 0;
  if (!have_axes || axes.empty()) {
    axes.clear();
    if (!noop)
      for (size_t a = 0; a < n.rank(); ++a) axes.push_back(static_cast<int64_t>(a));
  }
  c->op = cann;
  c->In(n, 0);
  c->Const(I64(axes));
  c->Out(n, 0);
  c->Bool("keep_dims", n.Int("keepdims", 1) != 0);
  return "";
}

std::string MapArg(const Node& n, Call* c, const std::string& cann) {
  if (n.Int("select_last_index", 0) != 0) return "select_last_index=1 (CANN returns the first)";
  const int64_t axis = NormAxis(n.Int("axis", 0), n.rank());
  c->op = cann;
  c->In(n, 0);
  c->Const(I64Scalar(axis));
  OutArg o;
  o.dtype = ACL_INT64;
  o.dims = n.in[0]->dims;
  o.dims.erase(o.dims.begin() + axis);
  o.expected = 0;
  c->out.push_back(o);
  c->Int("dtype", ACL_INT64);
  // keepdims=1 is an ExpandDims in CANN's graph: compare the values only.
  c->values_only = n.Int("keepdims", 1) != 0;
  return "";
}

std::string MapGemm(const Node& n, Call* c) {
  if (n.Float("alpha", 1.0f) != 1.0f) return "alpha != 1 (MatMulV2 has no alpha)";
  const Tensor* bias = n.input(2);
  if (bias && n.Float("beta", 1.0f) != 1.0f) return "beta != 1 (MatMulV2 has no beta)";
  c->op = "MatMulV2";
  c->In(n, 0);
  c->In(n, 1);
  if (bias) {
    const int64_t cols = n.out[0]->dims[1];
    const bool row = bias->numel() == cols &&
                     (bias->dims.size() == 1 || (bias->dims.size() == 2 && bias->dims[0] == 1));
    if (!row) return "C of shape " + DimsStr(bias->dims) + " (MatMulV2 bias is 1-D [N])";
    Arg b;
    b.t = *bias;
    b.t.dims = {cols};
    c->in.push_back(b);
  }
  c->Out(n, 0);
  c->Bool("transpose_x1", n.Int("transA", 0) != 0);
  c->Bool("transpose_x2", n.Int("transB", 0) != 0);
  return "";
}

std::string MapSplit(const Node& n, Call* c) {
  const int64_t axis = NormAxis(n.Int("axis", 0), n.rank());
  std::vector<int64_t> sizes;
  if (n.opset >= 13 && n.input(1)) {
    sizes = Ints(*n.in[1]);
  } else if (n.Has("split")) {
    sizes = n.IntList("split", {});
  }
  if (sizes.empty()) {
    for (const Tensor* o : n.out) sizes.push_back(o ? o->dims[axis] : 0);
  }
  c->op = "SplitV";
  c->In(n, 0);
  c->Const(I64(sizes));
  c->Const(I64Scalar(axis));
  c->AllOut(n);
  c->Int("num_split", static_cast<int64_t>(sizes.size()));
  return "";
}

std::string MapSlice(const Node& n, Call* c) {
  c->op = "StridedSliceV2";
  c->In(n, 0);
  if (n.opset >= 10) {
    c->ConstIn(n, 1);
    c->ConstIn(n, 2);
    if (n.input(3)) {
      c->ConstIn(n, 3);
    } else {
      c->Absent();
    }
    if (n.input(4)) c->ConstIn(n, 4);
  } else {
    c->Const(I64(n.IntList("starts", {})));
    c->Const(I64(n.IntList("ends", {})));
    if (n.Has("axes")) c->Const(I64(n.IntList("axes", {})));
  }
  c->Out(n, 0);
  return "";
}

std::string MapPad(const Node& n, Call* c) {
  const std::string mode = n.Str("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge") return "mode " + mode;
  const size_t rank = n.rank();
  std::vector<int64_t> pads;
  Tensor value;
  bool have_value = false;
  if (n.opset >= 11) {
    const auto given = Ints(*n.in[1]);
    if (n.input(3)) {  // opset 18 axes: expand to all dims
      const auto axes = Ints(*n.in[3]);
      pads.assign(2 * rank, 0);
      for (size_t k = 0; k < axes.size(); ++k) {
        const int64_t a = NormAxis(axes[k], rank);
        pads[a] = given[k];
        pads[rank + a] = given[axes.size() + k];
      }
    } else {
      pads = given;
    }
    if (n.input(2)) {
      value = *n.in[2];
      have_value = true;
    }
  } else {
    pads = n.IntList("pads", {});
    if (n.Has("value")) {
      value = MakeTensor(kOFloat, std::vector<float>{n.Float("value", 0)}, {});
      have_value = true;
    }
  }
  c->op = "PadV3";
  c->In(n, 0);
  c->Const(I64(pads));
  if (have_value) c->Const(value);
  c->Out(n, 0);
  c->Str("mode", mode);
  c->Bool("paddings_contiguous", false);
  return "";
}

std::string MapCast(const Node& n, Call* c) {
  const int to = static_cast<int>(n.Int("to", 0));
  if (AclType(to) == ACL_DT_UNDEFINED) return std::string("cast to ") + OnnxTypeName(to);
  c->op = "Cast";
  c->In(n, 0);
  c->Out(n, 0);
  c->Int("dst_type", AclType(to));
  return "";
}

std::string MapClip(const Node& n, Call* c) {
  const Tensor* lo = nullptr;
  const Tensor* hi = nullptr;
  Tensor lo_attr;
  Tensor hi_attr;
  if (n.opset < 11) {
    lo_attr = MakeTensor(n.in[0]->type, std::vector<float>{n.Float("min", -3.402823e38f)}, {});
    hi_attr = MakeTensor(n.in[0]->type, std::vector<float>{n.Float("max", 3.402823e38f)}, {});
    if (n.in[0]->type != kOFloat) return "Clip-6 on non-float input";
    lo = &lo_attr;
    hi = &hi_attr;
  } else {
    lo = n.input(1);
    hi = n.input(2);
  }
  c->In(n, 0);
  if (lo && hi) {
    c->op = "ClipByValue";
    c->Const(*lo);
    c->Const(*hi);
  } else if (hi) {
    c->op = "Minimum";
    c->Const(*hi);
  } else if (lo) {
    c->op = "Maximum";
    c->Const(*lo);
  } else {
    c->op = "Identity";
  }
  c->Out(n, 0);
  return "";
}

std::string MapVariadic(const Node& n, Call* c, const std::string& binary) {
  size_t count = 0;
  for (const Tensor* t : n.in) count += t ? 1 : 0;
  if (count == 1) {
    c->op = "Identity";
  } else if (binary == "AccumulateNV2") {
    c->op = binary;
    c->Int("N", static_cast<int64_t>(count));
    // AccumulateNV2 adds same-shaped tensors (no broadcasting).
    for (const Tensor* t : n.in)
      if (t->dims != n.out[0]->dims)
        return "Sum with broadcasting (AccumulateNV2 needs equal shapes)";
  } else if (count == 2) {
    c->op = binary;
    std::string why = CheckTypes(n, binary, kMaxMinTypes);
    if (!why.empty()) return why;
  } else {
    return std::to_string(count) + " inputs (a chain of " + binary + " ops)";
  }
  c->AllIn(n);
  c->AllOut(n);
  return "";
}

std::string MapTopK(const Node& n, Call* c) {
  c->op = "TopK";
  c->In(n, 0);
  if (n.opset >= 10) {
    c->Const(I32Scalar(static_cast<int32_t>(Ints(*n.in[1])[0])));
  } else {
    c->Const(I32Scalar(static_cast<int32_t>(n.Int("k", 1))));
  }
  c->Out(n, 0);
  c->Out(n, 1);
  c->out[1].dtype = ACL_INT32;  // CANN's indices are int32
  c->Int("dim", n.Int("axis", -1));
  c->Bool("largest", n.Int("largest", 1) != 0);
  c->Bool("sorted", n.Int("sorted", 1) != 0);
  return "";
}

std::string MapSqueeze(const Node& n, Call* c, bool squeeze) {
  c->In(n, 0);
  if (n.opset >= 13) {
    c->op = squeeze ? "SqueezeV3" : "UnsqueezeV3";
    if (n.input(1)) c->ConstIn(n, 1);
  } else {
    c->op = squeeze ? "Squeeze" : "Unsqueeze";
    if (n.Has("axes")) {
      if (squeeze) {
        c->Ints("axis", n.IntList("axes", {}));
      } else {
        c->Ints("axes", n.IntList("axes", {}));
      }
    }
  }
  c->Out(n, 0);
  return "";
}

// The reduction axes of a Reduce* node (attribute before `axes_input_opset`, input from it);
// empty axes mean all axes unless noop_with_empty_axes (then *noop).
std::vector<int64_t> ReduceAxesOf(const Node& n, int axes_input_opset, bool* noop) {
  std::vector<int64_t> axes;
  if (n.opset >= axes_input_opset) {
    if (n.input(1)) axes = Ints(*n.in[1]);
  } else {
    axes = n.IntList("axes", {});
  }
  *noop = axes.empty() && n.Int("noop_with_empty_axes", 0) != 0;
  if (axes.empty())
    for (size_t a = 0; a < n.rank(); ++a) axes.push_back(static_cast<int64_t>(a));
  return axes;
}

const TypeList kLpNormTypes = {kOFloat, kOFloat16, kOBfloat16};

// ReduceL1 / ReduceL2 -> LpNormV2 (p, axes, keepdim); ReduceSumSquare -> SquareSumV1.
std::string MapNormReduce(const Node& n, Call* c, const std::string& cann, float p) {
  std::string why = CheckTypes(n, cann, kLpNormTypes);
  if (!why.empty()) return why;
  bool noop = false;
  auto axes = ReduceAxesOf(n, 18, &noop);
  if (noop) return "noop_with_empty_axes=1 with empty axes (the identity, not " + cann + ")";
  c->op = cann;
  c->In(n, 0);
  c->Out(n, 0);
  const bool keep = n.Int("keepdims", 1) != 0;
  if (cann == "SquareSumV1") {
    c->Ints("axis", axes);
    c->Bool("keep_dims", keep);
  } else {
    c->Float("p", p);
    c->Ints("axes", axes);
    c->Bool("keepdim", keep);
  }
  return "";
}

// DepthToSpace / SpaceToDepth on NCHW.
std::string MapSpace(const Node& n, Call* c, const std::string& cann) {
  if (n.rank() != 4) return cann + " needs a 4-D input";
  c->op = cann;
  c->In(n, 0, ACL_FORMAT_NCHW);
  c->Out(n, 0, ACL_FORMAT_NCHW);
  c->Int("block_size", n.Int("blocksize", 1));
  if (cann == "DepthToSpace") c->Str("mode", n.Str("mode", "DCR"));
  c->Str("data_format", "NCHW");
  return "";
}

// ConvTranspose -> Conv2DTranspose with input_size = the output shape (a 1-D one on the
// [N, C, 1, L] view). Pads from pads / auto_pad / output_shape as ONNX defines them.
std::string MapConvTranspose(const Node& n, Call* c) {
  const bool one_d = n.rank() == 3;
  if (n.rank() != 4 && !one_d)
    return "ConvTranspose with a " + std::to_string(n.rank()) + "-D input (Conv2DTranspose only)";
  const size_t sp = n.rank() - 2;
  const Tensor& w = *n.in[1];
  std::vector<int64_t> kernel(w.dims.begin() + 2, w.dims.end());
  auto strides = n.IntList("strides", std::vector<int64_t>(sp, 1));
  auto dilations = n.IntList("dilations", std::vector<int64_t>(sp, 1));
  auto out_pad = n.IntList("output_padding", std::vector<int64_t>(sp, 0));
  std::vector<int64_t> pads = n.IntList("pads", std::vector<int64_t>(2 * sp, 0));
  const std::string auto_pad = n.Str("auto_pad", "NOTSET");
  const bool same = auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER";
  if (auto_pad == "VALID") pads.assign(2 * sp, 0);
  if (same || n.Has("output_shape")) {
    for (size_t i = 0; i < sp; ++i) {
      const int64_t in = n.in[0]->dims[2 + i];
      const int64_t out = n.out[0]->dims[2 + i];
      const int64_t total = std::max<int64_t>(
          0, strides[i] * (in - 1) + out_pad[i] + (kernel[i] - 1) * dilations[i] + 1 - out);
      pads[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      pads[sp + i] = total - pads[i];
    }
  }
  if (one_d) {
    kernel.insert(kernel.begin(), 1);
    strides.insert(strides.begin(), 1);
    dilations.insert(dilations.begin(), 1);
    out_pad.insert(out_pad.begin(), 0);
    pads = {0, pads[0], 0, pads[1]};
  }
  std::vector<int64_t> size = n.out[0]->dims;
  if (one_d) size.insert(size.begin() + 2, 1);
  c->op = "Conv2DTranspose";
  c->Const(I64(size));
  c->In(n, 0, ACL_FORMAT_NCHW);
  c->In(n, 1, ACL_FORMAT_NCHW);
  if (n.input(2)) c->In(n, 2);
  c->Out(n, 0, ACL_FORMAT_NCHW);
  if (one_d) {
    for (size_t k = 1; k < 3; ++k) c->in[k].t.dims.insert(c->in[k].t.dims.begin() + 2, 1);
    c->out[0].dims = size;
    c->values_only = true;
  }
  c->Ints("strides", {1, 1, strides[0], strides[1]});
  c->Ints("pads", {pads[0], pads[2], pads[1], pads[3]});
  c->Ints("dilations", {1, 1, dilations[0], dilations[1]});
  c->Int("groups", n.Int("group", 1));
  c->Str("data_format", "NCHW");
  c->Ints("output_padding", {0, 0, out_pad[0], out_pad[1]});
  return "";
}

std::map<std::string, MapFn> MappingTable() {
  std::map<std::string, MapFn> m;
  // 1:1 ops without attributes (cann_ops.md 2.2 "sim" list).
  for (const char* op :
       {"Abs",   "Neg",      "Exp",      "Log",      "Sqrt",      "Reciprocal", "Floor", "Ceil",
        "Round", "Sign",     "Erf",      "Sin",      "Cos",       "Tan",        "Asin",  "Acos",
        "Atan",  "Sinh",     "Cosh",     "Asinh",    "Acosh",     "Atanh",      "Relu",  "Sigmoid",
        "Tanh",  "Softplus", "Softsign", "Identity", "HardSwish", "Add",        "Sub",   "Mul",
        "Equal", "Greater",  "Less",     "Mish",     "PRelu"})
    m[op] = Simple(op);
  m["Div"] = Simple("RealDiv");
  m["Pow"] = [](const Node& n, Call* c) -> std::string {
    if (IsFloat(n.in[1]->type) && !IsFloat(n.in[0]->type))
      return "integer base, float exponent: CANN Pow's y is promote(x1, x2), ONNX keeps X's type";
    return Simple("Pow", kPowTypes)(n, c);
  };
  m["CastLike"] = [](const Node& n, Call* c) -> std::string {
    // The second input only gives the target type: Cast with dst_type.
    c->op = "Cast";
    c->In(n, 0);
    c->Out(n, 0);
    c->Int("dst_type", AclType(n.in[1]->type));
    return "";
  };
  m["IsNaN"] = Simple("IsNan", kFloatTypes);
  m["And"] = Simple("LogicalAnd");
  m["Or"] = Simple("LogicalOr");
  m["Not"] = Simple("LogicalNot");
  m["GreaterOrEqual"] = Simple("GreaterEqual");
  m["LessOrEqual"] = Simple("LessEqual");
  m["Where"] = Simple("SelectV2");
  // CANN's parser builds a subgraph for Xor; on bools it is exactly NotEqual (whose AI Core
  // kernel takes bool).
  m["Xor"] = Simple("NotEqual");
  m["MatMul"] = Simple("BatchMatMulV2");
  m["GlobalAveragePool"] = Simple("GlobalAveragePool");
  // Value inputs become host constants.
  for (const char* op : {"Expand", "Tile", "Reshape"}) {
    const std::string name = op;
    m[op] = [name](const Node& n, Call* c) -> std::string {
      c->op = name;
      c->In(n, 0);
      c->ConstIn(n, 1);
      c->Out(n, 0);
      // CANN's plugin copies allowzero as an attribute of Reshape.
      if (name == "Reshape" && n.Has("allowzero")) c->Int("allowzero", n.Int("allowzero", 0));
      return "";
    };
  }
  m["Range"] = [](const Node& n, Call* c) -> std::string {
    c->op = "Range";
    for (size_t i = 0; i < 3; ++i) c->ConstIn(n, i);
    c->Out(n, 0);
    return "";
  };
  m["IsInf"] = [](const Node& n, Call* c) -> std::string {
    if (n.Int("detect_negative", 1) == 0 || n.Int("detect_positive", 1) == 0)
      return "detect_negative/detect_positive (CANN IsInf detects both)";
    return Simple("IsInf", kFloatTypes)(n, c);
  };
  m["Selu"] = [](const Node& n, Call* c) -> std::string {
    if (!n.Has("alpha") && !n.Has("gamma")) return Simple("Selu")(n, c);
    // CANN Selu has fixed constants; gamma * (x > 0 ? x : alpha * (e^x - 1)) is exactly
    // Elu(alpha, scale = gamma) (GE25 Elu).
    Simple("Elu")(n, c);
    c->Float("alpha", n.Float("alpha", 1.67326319217681884765625f));
    c->Float("scale", n.Float("gamma", 1.05070102214813232421875f));
    return "";
  };
  m["Celu"] = [](const Node& n, Call* c) -> std::string {
    // The simulator has no Celu; max(0,x) + min(0, alpha * (e^(x/alpha) - 1)) is exactly
    // Elu(alpha, input_scale = 1/alpha).
    const float alpha = n.Float("alpha", 1.0f);
    Simple("Elu")(n, c);
    c->Float("alpha", alpha);
    c->Float("input_scale", 1.0f / alpha);
    return "";
  };
  m["Mod"] = [](const Node& n, Call* c) -> std::string {
    // fmod=0: sign of the divisor (FloorMod); fmod=1: C fmod (Mod, truncated).
    if (n.Int("fmod", 0) != 0) return Simple("Mod", kModTypes)(n, c);
    return Simple("FloorMod", kFloorModTypes)(n, c);
  };
  m["LeakyRelu"] = [](const Node& n, Call* c) -> std::string {
    Simple("LeakyRelu")(n, c);
    c->Float("negative_slope", n.Float("alpha", 0.01f));
    return "";
  };
  m["Elu"] = [](const Node& n, Call* c) -> std::string {
    Simple("Elu")(n, c);
    c->Float("alpha", n.Float("alpha", 1.0f));
    return "";
  };
  m["HardSigmoid"] = [](const Node& n, Call* c) -> std::string {
    Simple("HardSigmoid")(n, c);
    c->Float("alpha", n.Float("alpha", 0.2f));
    c->Float("beta", n.Float("beta", 0.5f));
    return "";
  };
  m["Gelu"] = [](const Node& n, Call* c) -> std::string {
    if (n.Str("approximate", "none") != "tanh")
      return "approximate=none (CANN Gelu is the tanh approximation)";
    return Simple("Gelu")(n, c);
  };
  m["Gemm"] = MapGemm;
  m["Conv"] = MapConv;
  m["MaxPool"] = [](const Node& n, Call* c) { return MapPool(n, c, true); };
  m["AveragePool"] = [](const Node& n, Call* c) { return MapPool(n, c, false); };
  m["GlobalMaxPool"] = [](const Node& n, Call* c) -> std::string {
    std::vector<int64_t> axes;
    for (size_t a = 2; a < n.rank(); ++a) axes.push_back(static_cast<int64_t>(a));
    c->op = "ReduceMax";
    c->In(n, 0);
    c->Const(I64(axes));
    c->Out(n, 0);
    c->Bool("keep_dims", true);
    return "";
  };
  m["Softmax"] = [](const Node& n, Call* c) { return MapSoftmax(n, c, "SoftmaxV2"); };
  m["LogSoftmax"] = [](const Node& n, Call* c) { return MapSoftmax(n, c, "LogSoftmaxV2"); };
  m["Transpose"] = [](const Node& n, Call* c) -> std::string {
    std::vector<int64_t> perm = n.IntList("perm", {});
    if (perm.empty())
      for (size_t a = n.rank(); a-- > 0;) perm.push_back(static_cast<int64_t>(a));
    c->op = "Transpose";
    c->In(n, 0);
    c->Const(I64(perm));
    c->Out(n, 0);
    return "";
  };
  m["Concat"] = [](const Node& n, Call* c) -> std::string {
    c->op = n.in.size() == 1 ? "Identity" : "ConcatD";
    c->AllIn(n);
    c->AllOut(n);
    if (n.in.size() > 1) {
      c->Int("concat_dim", n.Int("axis", 0));
      c->Int("N", static_cast<int64_t>(n.in.size()));
    }
    return "";
  };
  m["Split"] = MapSplit;
  m["Slice"] = MapSlice;
  m["Gather"] = [](const Node& n, Call* c) -> std::string {
    c->op = "GatherV2";
    c->In(n, 0);
    c->In(n, 1);
    c->Const(I64Scalar(n.Int("axis", 0)));
    c->Out(n, 0);
    c->Bool("negative_index_support", true);
    return "";
  };
  m["GatherElements"] = [](const Node& n, Call* c) -> std::string {
    Simple("GatherElements")(n, c);
    c->Int("dim", n.Int("axis", 0));
    return "";
  };
  m["GatherND"] = [](const Node& n, Call* c) -> std::string {
    if (n.Int("batch_dims", 0) != 0) return "batch_dims != 0 (GatherNd has none)";
    return Simple("GatherNd")(n, c);
  };
  m["ReduceSum"] = [](const Node& n, Call* c) { return MapReduce(n, c, "ReduceSum", 13); };
  for (const char* op : {"ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceLogSumExp"}) {
    const std::string name = op;
    m[op] = [name](const Node& n, Call* c) { return MapReduce(n, c, name, 18); };
  }
  m["ArgMax"] = [](const Node& n, Call* c) { return MapArg(n, c, "ArgMaxV2"); };
  m["ArgMin"] = [](const Node& n, Call* c) { return MapArg(n, c, "ArgMin"); };
  m["TopK"] = MapTopK;
  m["Pad"] = MapPad;
  m["Cast"] = MapCast;
  m["Clip"] = MapClip;
  m["Sum"] = [](const Node& n, Call* c) { return MapVariadic(n, c, "AccumulateNV2"); };
  m["OneHot"] = [](const Node& n, Call* c) -> std::string {
    // CANN's plugin: Split(values) into off/on + Add/Mod wrapping negative indices + OneHot.
    // The split of the constant values is host-side folding; negative indices need the
    // extra ops.
    const Tensor& idx = *n.in[0];
    if (idx.type != kOInt32 && idx.type != kOInt64 && idx.type != kOUint8)
      return std::string(OnnxTypeName(idx.type)) + " indices (CANN OneHot x: uint8/int32/int64)";
    for (int64_t i = 0; i < idx.numel(); ++i)
      if (AsInt(idx, i) < 0) return "negative indices (wrapped by Add/Mod in CANN's subgraph)";
    const Tensor& depth = *n.in[1];
    if (depth.type != kOInt32 && depth.type != kOInt64)
      return std::string(OnnxTypeName(depth.type)) + " depth (CANN OneHot depth: int32/int64)";
    const Tensor& values = *n.in[2];
    const size_t elem = ElemSize(values.type);
    Tensor off;
    off.type = values.type;
    off.data.assign(values.data.begin(), values.data.begin() + static_cast<long>(elem));
    Tensor on = off;
    on.data.assign(values.data.begin() + static_cast<long>(elem), values.data.end());
    c->op = "OneHot";
    c->In(n, 0);
    c->ConstIn(n, 1);
    c->in.back().t.dims = {};
    c->Const(on);
    c->Const(off);
    c->Out(n, 0);
    c->Int("axis", n.Int("axis", -1));
    return "";
  };
  m["Mean"] = [](const Node& n, Call* c) -> std::string {
    if (n.in.size() != 1) return "Mean of several inputs (AccumulateNV2 + Muls)";
    return Simple("Identity")(n, c);
  };
  m["Max"] = [](const Node& n, Call* c) { return MapVariadic(n, c, "Maximum"); };
  m["Min"] = [](const Node& n, Call* c) { return MapVariadic(n, c, "Minimum"); };
  m["CumSum"] = [](const Node& n, Call* c) -> std::string {
    c->op = "Cumsum";
    c->In(n, 0);
    c->ConstIn(n, 1);
    c->Out(n, 0);
    c->Bool("exclusive", n.Int("exclusive", 0) != 0);
    c->Bool("reverse", n.Int("reverse", 0) != 0);
    return "";
  };
  m["Shape"] = [](const Node& n, Call* c) -> std::string {
    if (n.Has("start") || n.Has("end")) return "start/end (CANN Shape has none)";
    Simple("Shape")(n, c);
    c->Int("dtype", ACL_INT64);
    return "";
  };
  m["Size"] = [](const Node& n, Call* c) -> std::string {
    Simple("Size")(n, c);
    c->Int("dtype", ACL_INT64);
    return "";
  };
  m["Flatten"] = [](const Node& n, Call* c) -> std::string {
    Simple("Flatten")(n, c);
    c->Int("axis", n.Int("axis", 1));
    return "";
  };
  m["Squeeze"] = [](const Node& n, Call* c) { return MapSqueeze(n, c, true); };
  m["Unsqueeze"] = [](const Node& n, Call* c) { return MapSqueeze(n, c, false); };
  m["NonZero"] = [](const Node& n, Call* c) -> std::string {
    Simple("NonZero")(n, c);
    c->Bool("transpose", true);
    c->Int("dtype", ACL_INT64);
    c->dynamic_shape = true;
    c->out[0].dims = {static_cast<int64_t>(n.rank()), n.in[0]->numel()};
    return "";
  };
  m["ConstantOfShape"] = [](const Node& n, Call* c) -> std::string {
    c->op = "Fill";
    c->ConstIn(n, 0);
    Tensor value = MakeTensor(kOFloat, std::vector<float>{0.0f}, {});
    if (const auto* a = n.Attr("value")) {
      std::string why;
      if (!FromProto(a->t(), &value, &why)) return "value " + why;
      value.dims = {};
    }
    c->Const(value);
    c->Out(n, 0);
    return "";
  };
  m["BatchNormalization"] = [](const Node& n, Call* c) -> std::string {
    if (n.Int("training_mode", 0) != 0) return "training_mode=1 (running stats outputs)";
    if (n.rank() != 4) return "BatchNorm input rank " + std::to_string(n.rank()) + " (NCHW only)";
    c->op = "BatchNorm";
    c->In(n, 0, ACL_FORMAT_NCHW);
    for (size_t i = 1; i < 5; ++i) c->In(n, i);
    c->Out(n, 0, ACL_FORMAT_NCHW);
    c->Float("epsilon", n.Float("epsilon", 1e-5f));
    c->Str("data_format", "NCHW");
    c->Bool("is_training", false);
    return "";
  };
  m["InstanceNormalization"] = [](const Node& n, Call* c) -> std::string {
    if (n.rank() != 4) return "InstanceNorm input rank " + std::to_string(n.rank());
    c->op = "InstanceNorm";
    c->In(n, 0, ACL_FORMAT_NCHW);
    c->In(n, 1);
    c->In(n, 2);
    c->Out(n, 0, ACL_FORMAT_NCHW);
    c->Str("data_format", "NCHW");
    c->Float("epsilon", n.Float("epsilon", 1e-5f));
    return "";
  };
  m["LayerNormalization"] = [](const Node& n, Call* c) -> std::string {
    if (n.out.size() > 2 && n.out[2]) return "InvStdDev output (CANN LayerNorm gives variance)";
    if (n.Int("stash_type", 1) != 1) return "stash_type != 1";
    const int64_t axis = NormAxis(n.Int("axis", -1), n.rank());
    c->op = "LayerNorm";
    c->In(n, 0);
    c->In(n, 1);
    if (n.input(2)) {
      c->In(n, 2);
    } else {
      Arg zero;
      zero.t = *n.in[1];
      std::fill(zero.t.data.begin(), zero.t.data.end(), 0);
      c->in.push_back(zero);
    }
    c->AllOut(n);
    c->Int("begin_norm_axis", axis);
    c->Int("begin_params_axis", axis);
    c->Float("epsilon", n.Float("epsilon", 1e-5f));
    return "";
  };
  m["Dropout"] = [](const Node& n, Call* c) -> std::string {
    if (n.out.size() > 1 && n.out[1]) return "mask output";
    if (n.input(2) && AsInt(*n.in[2], 0) != 0) return "training_mode=1 (random)";
    c->op = "Dropout";  // Caffe-style Dropout: the identity at inference
    if (n.Has("ratio")) c->Float("dropout_ratio", n.Float("ratio", 0.5f));
    c->In(n, 0);
    c->Out(n, 0);
    return "";
  };
  m["ReduceL1"] = [](const Node& n, Call* c) { return MapNormReduce(n, c, "LpNormV2", 1.0f); };
  m["ReduceL2"] = [](const Node& n, Call* c) { return MapNormReduce(n, c, "LpNormV2", 2.0f); };
  m["ReduceSumSquare"] = [](const Node& n, Call* c) {
    return MapNormReduce(n, c, "SquareSumV1", 0.0f);
  };
  m["ReduceLogSum"] = [](const Node& n, Call* c) { return MapReduce(n, c, "ReduceLogSum", 18); };
  m["Shrink"] = [](const Node& n, Call* c) -> std::string {
    std::string why = Simple("Shrink", {kOFloat, kOFloat16})(n, c);
    if (!why.empty()) return why;
    c->Float("lambd", n.Float("lambd", 0.5f));
    c->Float("bias", n.Float("bias", 0.0f));
    return "";
  };
  m["DepthToSpace"] = [](const Node& n, Call* c) { return MapSpace(n, c, "DepthToSpace"); };
  m["SpaceToDepth"] = [](const Node& n, Call* c) { return MapSpace(n, c, "SpaceToDepth"); };
  for (const char* op : {"ScatterElements", "Scatter"}) {
    m[op] = [](const Node& n, Call* c) -> std::string {
      Simple("ScatterElements")(n, c);
      c->Int("axis", n.Int("axis", 0));
      c->Str("reduction", n.Str("reduction", "none"));
      return "";
    };
  }
  m["ScatterND"] = [](const Node& n, Call* c) -> std::string {
    const std::string reduction = n.Str("reduction", "none");
    if (reduction != "none")
      return "reduction=" + reduction + " (TensorScatterUpdate assigns; ScatterNdAdd/Mul are " +
             "not in the simulator)";
    return Simple("TensorScatterUpdate")(n, c);
  };
  m["ConvTranspose"] = MapConvTranspose;
  m["Resize"] = [](const Node& n, Call* c) -> std::string {
    // CANN's Resize has ONNX's inputs and attributes (opset 11+: X, roi, scales, sizes).
    if (n.opset < 11) return "Resize-10 (scales only, no coordinate_transformation_mode)";
    c->op = "Resize";
    c->In(n, 0);
    for (size_t i = 1; i < 4; ++i) {
      if (n.input(i) && n.in[i]->numel() > 0) {
        Tensor t = *n.in[i];
        if (i == 2 && t.type != kOFloat) {  // scales are float32 (also under --fp16)
          std::vector<float> f;
          f.reserve(static_cast<size_t>(t.numel()));
          for (int64_t k = 0; k < t.numel(); ++k) f.push_back(static_cast<float>(AsDouble(t, k)));
          t = MakeTensor(kOFloat, f, t.dims);
        }
        c->Const(t);
      } else {
        c->Absent();
      }
    }
    c->Out(n, 0);
    c->Str("coordinate_transformation_mode", n.Str("coordinate_transformation_mode", "half_pixel"));
    c->Float("cubic_coeff_a", n.Float("cubic_coeff_a", -0.75f));
    c->Int("exclude_outside", n.Int("exclude_outside", 0));
    c->Float("extrapolation_value", n.Float("extrapolation_value", 0.0f));
    c->Str("mode", n.Str("mode", "nearest"));
    c->Str("nearest_mode", n.Str("nearest_mode", "round_prefer_floor"));
    return "";
  };
  return m;
}

// Diagnostic mode (--fp16, not part of the conformance result): float32 data is run as
// float16, to exercise the ops' half-precision paths against ONNX's float32 results.
bool g_as_fp16 = false;
// Diagnostic mode (--device-values): value inputs as ordinary device buffers, not host consts
// (cann_ops.md 0.2 rule 9: the runtime must accept both).
bool g_device_values = false;

// ONNX ops that cann_ops.md 2.2 maps 1:1 to a CANN op the simulator does not implement.
const std::map<std::string, std::string>& MissingInSimulator() {
  static const std::map<std::string, std::string> missing = {};
  return missing;
}

// ---- Running one call -------------------------------------------------------------------

// Runs the call; "" when every compared output matches.
std::string Execute(const Call& c, const Node& n, aclrtStream stream) {
  std::vector<aclTensorDesc*> in_desc;
  std::vector<aclDataBuffer*> in_buf;
  std::vector<aclTensorDesc*> out_desc;
  std::vector<aclDataBuffer*> out_buf;
  std::vector<void*> device;
  aclopAttr* attr = aclopCreateAttr();
  static uint8_t dummy[8] = {};
  std::string result;

  auto alloc = [&](size_t bytes, void** p) -> bool {
    *p = nullptr;
    if (aclrtMalloc(p, std::max<size_t>(bytes, 8), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
      return false;
    device.push_back(*p);
    return true;
  };

  for (const Arg& a : c.in) {
    if (a.absent) {
      in_desc.push_back(aclCreateTensorDesc(ACL_DT_UNDEFINED, 0, nullptr, ACL_FORMAT_UNDEFINED));
      in_buf.push_back(aclCreateDataBuffer(nullptr, 0));
      continue;
    }
    const aclDataType dt = a.dtype != ACL_DT_UNDEFINED ? a.dtype : AclType(a.t.type);
    aclTensorDesc* d = aclCreateTensorDesc(dt, static_cast<int>(a.t.dims.size()),
                                           a.t.dims.empty() ? nullptr : a.t.dims.data(), a.format);
    in_desc.push_back(d);
    const size_t bytes = a.t.data.size();
    if (a.host_const && !g_device_values) {
      void* host = bytes ? const_cast<uint8_t*>(a.t.data.data()) : dummy;
      aclSetTensorConst(d, host, bytes);
      aclSetTensorPlaceMent(d, ACL_MEMTYPE_HOST);
      in_buf.push_back(aclCreateDataBuffer(host, bytes));
    } else {
      void* p = nullptr;
      if (!alloc(bytes, &p)) {
        result = "aclrtMalloc failed";
        break;
      }
      if (bytes) aclrtMemcpy(p, bytes, a.t.data.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
      in_buf.push_back(aclCreateDataBuffer(p, bytes));
    }
  }
  std::vector<size_t> out_bytes;
  for (const OutArg& o : c.out) {
    out_desc.push_back(aclCreateTensorDesc(o.dtype, static_cast<int>(o.dims.size()),
                                           o.dims.empty() ? nullptr : o.dims.data(), o.format));
    const size_t bytes = static_cast<size_t>(Numel(o.dims)) * aclDataTypeSize(o.dtype);
    void* p = nullptr;
    if (result.empty() && !alloc(bytes, &p)) result = "aclrtMalloc failed";
    out_bytes.push_back(bytes);
    out_buf.push_back(aclCreateDataBuffer(p, bytes));
  }
  for (const AttrArg& a : c.attrs) {
    switch (a.kind) {
      case AttrArg::kInt:
        aclopSetAttrInt(attr, a.name.c_str(), a.i);
        break;
      case AttrArg::kFloat:
        aclopSetAttrFloat(attr, a.name.c_str(), a.f);
        break;
      case AttrArg::kBool:
        aclopSetAttrBool(attr, a.name.c_str(), static_cast<uint8_t>(a.i));
        break;
      case AttrArg::kString:
        aclopSetAttrString(attr, a.name.c_str(), a.s.c_str());
        break;
      case AttrArg::kListInt:
        aclopSetAttrListInt(attr, a.name.c_str(), static_cast<int>(a.li.size()), a.li.data());
        break;
      case AttrArg::kListFloat:
        aclopSetAttrListFloat(attr, a.name.c_str(), static_cast<int>(a.lf.size()), a.lf.data());
        break;
    }
  }

  if (result.empty()) {
    const int ni = static_cast<int>(in_desc.size());
    const int no = static_cast<int>(out_desc.size());
    aclError err = ACL_SUCCESS;
    if (c.dynamic_shape) {
      err = aclopCompileAndExecuteV2(c.op.c_str(), ni, in_desc.data(), in_buf.data(), no,
                                     out_desc.data(), out_buf.data(), attr, ACL_ENGINE_SYS,
                                     ACL_COMPILE_SYS, nullptr, stream);
    } else {
      err = aclopCompileAndExecute(c.op.c_str(), ni, in_desc.data(), in_buf.data(), no,
                                   out_desc.data(), out_buf.data(), attr, ACL_ENGINE_SYS,
                                   ACL_COMPILE_SYS, nullptr, stream);
    }
    if (err != ACL_SUCCESS) {
      result = AclErr("aclopCompileAndExecute", err);
    } else if ((err = aclrtSynchronizeStream(stream)) != ACL_SUCCESS) {
      result = AclErr("aclrtSynchronizeStream", err);
    }
  }
  for (size_t k = 0; result.empty() && k < c.out.size(); ++k) {
    const OutArg& o = c.out[k];
    if (o.expected < 0) continue;
    Tensor got;
    got.type = OnnxTypeOf(o.dtype);
    got.dims = o.dims;
    if (c.dynamic_shape) {
      got.dims.clear();
      const size_t nd = aclGetTensorDescNumDims(out_desc[k]);
      for (size_t d = 0; d < nd; ++d) {
        int64_t v = 0;
        aclGetTensorDescDimV2(out_desc[k], d, &v);
        got.dims.push_back(v);
      }
    }
    const size_t bytes = static_cast<size_t>(got.numel()) * aclDataTypeSize(o.dtype);
    if (bytes > out_bytes[k]) {
      result = "output larger than its buffer";
      break;
    }
    got.data.resize(bytes);
    if (bytes)
      aclrtMemcpy(got.data.data(), bytes, aclGetDataBufferAddr(out_buf[k]), bytes,
                  ACL_MEMCPY_DEVICE_TO_HOST);
    std::string diff = Compare(*n.out[static_cast<size_t>(o.expected)], got, c.values_only);
    if (!diff.empty()) result = "output " + std::to_string(o.expected) + ": " + diff;
  }

  for (auto* d : in_desc) aclDestroyTensorDesc(d);
  for (auto* d : out_desc) aclDestroyTensorDesc(d);
  for (auto* b : in_buf) aclDestroyDataBuffer(b);
  for (auto* b : out_buf) aclDestroyDataBuffer(b);
  for (void* p : device) aclrtFree(p);
  aclopDestroyAttr(attr);
  return result;
}

// ---- One test directory -----------------------------------------------------------------

enum class Outcome { kPass, kFail, kUnmapped };

struct Result {
  std::string name;
  std::string onnx_op;
  std::string cann_op;
  Outcome outcome = Outcome::kUnmapped;
  std::string reason;
};

void ToFloat16(Tensor* t) {
  if (!g_as_fp16 || t->type != kOFloat) return;
  std::vector<uint16_t> half(static_cast<size_t>(t->numel()));
  for (int64_t i = 0; i < t->numel(); ++i)
    half[static_cast<size_t>(i)] = aclFloatToFloat16(static_cast<float>(AsDouble(*t, i)));
  *t = MakeTensor(kOFloat16, half, t->dims);
}

Result RunTest(const fs::path& dir, const std::map<std::string, MapFn>& table, aclrtStream stream) {
  Result r;
  r.name = dir.filename().string();
  NodeCase test;
  r.reason = ReadNodeModel(dir, &test);
  r.onnx_op = test.op;
  if (!r.reason.empty()) return r;
  const onnx::NodeProto& proto = *test.node;
  Node node;
  node.proto = &proto;
  node.opset = test.opset;
  auto it = table.find(proto.op_type());
  if (it == table.end()) {
    auto missing = MissingInSimulator().find(proto.op_type());
    if (missing != MissingInSimulator().end()) {
      r.reason =
          "CANN " + missing->second + " (cann_ops.md 2.2) is not in the simulator's op library";
    } else {
      r.reason = "no single-op CANN mapping (cann_ops.md 2.2: subgraph or unsupported)";
    }
    return r;
  }
  r.reason = ReadNodeData(dir, &test, ToFloat16);
  if (!r.reason.empty()) return r;

  for (const NodeCase::Set& set : test.sets) {
    node.in.clear();
    node.out.clear();
    for (int i = 0; i < proto.input_size(); ++i) node.in.push_back(test.Input(set, i));
    for (int i = 0; i < proto.output_size(); ++i) node.out.push_back(test.Output(set, i));
    if (!node.in.empty() && !node.in[0] && proto.op_type() != "Range") {
      r.reason = "first input missing";
      return r;
    }
    Call call;
    std::string unmapped = it->second(node, &call);
    r.cann_op = call.op;
    if (!unmapped.empty()) {
      r.outcome = Outcome::kUnmapped;
      r.reason = unmapped;
      return r;
    }
    for (const Arg& a : call.in) {
      if (!a.absent && AclType(a.t.type) == ACL_DT_UNDEFINED) {
        r.reason = "dtype without an aclDataType";
        return r;
      }
    }
    std::string fail = Execute(call, node, stream);
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
  switch (o) {
    case Outcome::kPass:
      return "PASS";
    case Outcome::kFail:
      return "FAIL";
    default:
      return "UNMAPPED";
  }
}

std::string MdEscape(std::string s) {
  std::replace(s.begin(), s.end(), '|', '/');
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  std::string filter;
  std::string markdown;
  double min_rate = -1;
  std::string data_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--fp16") {
      g_as_fp16 = true;
    } else if (a == "--device-values") {
      g_device_values = true;
    } else if (a == "--filter" && i + 1 < argc) {
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
    std::fprintf(stderr,
                 "usage: %s [--filter S] [--markdown FILE] [--min-pass-rate PCT] DATA_DIR\n",
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

  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
    std::fprintf(stderr, "aclInit/aclrtSetDevice failed: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) {
    std::fprintf(stderr, "aclrtCreateStream failed\n");
    return 1;
  }
  const auto table = MappingTable();
  std::vector<Result> results;
  for (const fs::path& dir : dirs) {
    results.push_back(RunTest(dir, table, stream));
    const Result& r = results.back();
    std::printf("%-60s %-22s %-16s %s%s%s\n", r.name.c_str(), r.onnx_op.c_str(),
                r.cann_op.empty() ? "-" : r.cann_op.c_str(), OutcomeName(r.outcome),
                r.reason.empty() ? "" : "  ", r.reason.c_str());
    std::fflush(stdout);
  }
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();

  size_t mapped = 0;
  size_t passed = 0;
  std::vector<const Result*> failed;
  for (const Result& r : results) {
    if (r.outcome == Outcome::kUnmapped) continue;
    ++mapped;
    if (r.outcome == Outcome::kPass) {
      ++passed;
    } else {
      failed.push_back(&r);
    }
  }
  const double rate =
      mapped ? 100.0 * static_cast<double>(passed) / static_cast<double>(mapped) : 0;
  std::printf(
      "\nSummary: %zu node tests, %zu mapped, %zu passed, %zu failed, %zu unmapped; "
      "pass rate of mapped tests %.1f%%\n",
      results.size(), mapped, passed, failed.size(), results.size() - mapped, rate);
  if (!failed.empty()) {
    std::printf("Failing tests:\n");
    for (const Result* r : failed) std::printf("  %s (%s)\n", r->name.c_str(), r->reason.c_str());
  }

  if (!markdown.empty()) {
    // Keep a hand-written part above the marker line; everything after it is regenerated.
    const std::string marker = "<!-- BEGIN GENERATED by onnx_node_runner --markdown -->";
    std::string head;
    {
      std::ifstream old(markdown);
      std::stringstream ss;
      ss << old.rdbuf();
      const std::string text = ss.str();
      const size_t at = text.find(marker);
      if (at != std::string::npos) head = text.substr(0, at);
    }
    std::ofstream md(markdown);
    md << head << marker << "\n\n";
    char line[300];
    std::snprintf(line, sizeof(line),
                  "**%zu node tests: %zu mapped, %zu passed, %zu failed, %zu unmapped. Pass "
                  "rate of mapped tests: %.1f%%.**\n\n",
                  results.size(), mapped, passed, failed.size(), results.size() - mapped, rate);
    md << line;
    // Per ONNX op: the CANN op(s) used and the counts.
    struct OpStats {
      std::map<std::string, int> cann;
      int pass = 0;
      int fail = 0;
      int unmapped = 0;
    };
    std::map<std::string, OpStats> per_op;
    for (const Result& r : results) {
      OpStats& s = per_op[r.onnx_op.empty() ? "(none)" : r.onnx_op];
      if (r.outcome != Outcome::kUnmapped && !r.cann_op.empty()) ++s.cann[r.cann_op];
      if (r.outcome == Outcome::kPass) ++s.pass;
      if (r.outcome == Outcome::kFail) ++s.fail;
      if (r.outcome == Outcome::kUnmapped) ++s.unmapped;
    }
    md << "### Per ONNX op\n\n| ONNX op | CANN op(s) | PASS | FAIL | UNMAPPED |\n"
          "|---|---|---|---|---|\n";
    for (const auto& [op, s] : per_op) {
      std::string cann;
      for (const auto& [name, count] : s.cann) cann += (cann.empty() ? "" : ", ") + name;
      md << "| " << op << " | " << (cann.empty() ? "-" : cann) << " | " << s.pass << " | " << s.fail
         << " | " << s.unmapped << " |\n";
    }
    md << "\n### Per test\n\n| Test | ONNX op | CANN op | Result | Detail |\n"
          "|---|---|---|---|---|\n";
    for (const Result& r : results) {
      md << "| " << r.name << " | " << r.onnx_op << " | "
         << (r.cann_op.empty() || r.outcome == Outcome::kUnmapped ? "-" : r.cann_op) << " | "
         << OutcomeName(r.outcome) << " | " << MdEscape(r.reason) << " |\n";
    }
  }
  if (min_rate >= 0 && rate < min_rate) {
    std::printf("FAIL: pass rate %.1f%% is below the required %.1f%%\n", rate, min_rate);
    return 1;
  }
  return 0;
}
