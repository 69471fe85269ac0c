// Every op of the library against hostile shapes, values and attributes: shapes at and past
// the limit of one tensor, value inputs (perm, multiples, paddings, shapes, Range bounds) and
// integer attributes near the ends of int64. Shape inference and compilation must refuse them
// with a status or accept them with outputs whose sizes are consistent and bounded -- never
// overflow (UBSan aborts on it in the sanitizer build), never crash.
//
// The property checked on every accepted call: each known output shape passes
// CheckTensorSize, and its ByteSize equals the exact (128-bit) product of its dims times the
// element size.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/checked_size.h"
#include "op_test_util.h"

namespace aclsim::ops {
namespace {

using testing::Desc;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

const std::vector<int64_t>& HostileInts() {
  static const std::vector<int64_t> values = {
      kMax, kMin, int64_t{1} << 62, -(int64_t{1} << 62), int64_t{1} << 32, int64_t{1} << 24, -1,
      0,    3};
  return values;
}

DataType PickType(const ArgDef& arg, bool value_input, size_t choice) {
  if (arg.dtypes.empty()) return value_input ? DataType::kInt64 : DataType::kFloat;
  if (value_input) {
    for (DataType t : {DataType::kInt64, DataType::kInt32}) {
      for (DataType a : arg.dtypes) {
        if (a == t) return t;
      }
    }
  }
  return arg.dtypes[choice % arg.dtypes.size()];
}

// A value input holding `values` (as int64/int32, or as floats of its dtype).
TensorDesc ValueDesc(DataType dtype, const std::vector<int64_t>& values) {
  TensorDesc desc = Desc(dtype, {static_cast<int64_t>(values.size())});
  std::vector<uint8_t> bytes(values.size() * DataTypeSize(dtype));
  for (size_t i = 0; i < values.size(); ++i) {
    uint8_t* at = bytes.data() + i * DataTypeSize(dtype);
    const int64_t v = values[i];
    switch (dtype) {
      case DataType::kInt64:
        std::memcpy(at, &v, 8);
        break;
      case DataType::kInt32: {
        const auto w = static_cast<int32_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX));
        std::memcpy(at, &w, 4);
        break;
      }
      case DataType::kFloat: {
        const auto f = static_cast<float>(v);
        std::memcpy(at, &f, 4);
        break;
      }
      case DataType::kDouble: {
        const auto d = static_cast<double>(v);
        std::memcpy(at, &d, 8);
        break;
      }
      case DataType::kFloat16: {
        const uint16_t h = FloatToHalf(static_cast<float>(v));
        std::memcpy(at, &h, 2);
        break;
      }
      default:
        std::memset(at, static_cast<int>(v & 0xff), DataTypeSize(dtype));
        break;
    }
  }
  desc.value = std::move(bytes);
  return desc;
}

// A plausible value for a required attribute. `choice` varies list values: their rank r (4, 5,
// 2, 3) and whether they count up or hold ones; pads get 2 (r - 2) zeros.
std::optional<AttrValue> PlausibleAttr(const AttrDef& attr, size_t choice) {
  static const std::vector<std::string> strings = {"VALID", "SAME", "NCHW", "NHWC"};
  const int64_t rank = std::vector<int64_t>{4, 5, 2, 3}[choice % 4];
  switch (attr.type) {
    case AttrType::kInt:
      return AttrValue{int64_t{1}};
    case AttrType::kFloat:
      return AttrValue{1.0f};
    case AttrType::kBool:
      return AttrValue{false};
    case AttrType::kType:
      return AttrValue{DataType::kFloat};
    case AttrType::kString:
      return AttrValue{strings[choice % strings.size()]};
    case AttrType::kListInt: {
      if (attr.name.find("pad") != std::string::npos) {
        return AttrValue{
            std::vector<int64_t>(static_cast<size_t>(std::max<int64_t>(2 * (rank - 2), 2)), 0)};
      }
      std::vector<int64_t> v(static_cast<size_t>(rank), 1);
      if ((choice / 4) % 2 == 1) {
        for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>(i);
      }
      return AttrValue{v};
    }
    case AttrType::kListFloat:
      return AttrValue{std::vector<float>{1.0f, 1.0f}};
    case AttrType::kListListInt:
      return AttrValue{std::vector<std::vector<int64_t>>{{1, 1}, {1, 1}, {1, 1}, {1, 1}}};
    default:
      return std::nullopt;
  }
}

bool IsValueInput(const OpDef& def, size_t index) {
  return std::find(def.value_inputs.begin(), def.value_inputs.end(), index) !=
         def.value_inputs.end();
}

// How the inputs of a base call are shaped: every input like the first, per-channel vectors
// after the first, one-element tensors after it, or a convolution's x / filter / bias.
enum class Layout { kSame, kChannels, kOnes, kConv2d, kConv3d };

std::vector<int64_t> ShapeOf(Layout layout, const std::vector<int64_t>& x, size_t k) {
  switch (layout) {
    case Layout::kSame:
      return x;
    case Layout::kChannels:
      return k == 0 || x.size() < 2 ? x : std::vector<int64_t>{x[1]};
    case Layout::kOnes:
      return k == 0 ? x : std::vector<int64_t>{1};
    case Layout::kConv2d:
      if (k == 0) return {1, 4, 8, 8};
      return k == 1 ? std::vector<int64_t>{4, 4, 3, 3} : std::vector<int64_t>{4};
    case Layout::kConv3d:
      if (k == 0) return {1, 4, 8, 8, 8};
      return k == 1 ? std::vector<int64_t>{4, 4, 3, 3, 3} : std::vector<int64_t>{4};
  }
  return x;
}

struct BaseChoice {
  std::vector<int64_t> shape;
  std::vector<int64_t> values;
  size_t dtype = 0;
  Layout layout = Layout::kSame;
  bool omit_optional = false;
  size_t attr_list = 0;
};

// A call of `def` built as `choice` says.
OpCall BuildCall(const OpDef& def, const BaseChoice& choice) {
  OpCall call;
  call.type = def.type;
  for (const ArgDef& arg : def.inputs) {
    const int copies = arg.kind == ArgKind::kDynamic ? 2 : 1;
    for (int c = 0; c < copies; ++c) {
      const size_t k = call.inputs.size();
      if (arg.kind == ArgKind::kOptional && choice.omit_optional) {
        call.inputs.emplace_back();  // placeholder
        continue;
      }
      const bool value = IsValueInput(def, k);
      const DataType dtype = PickType(arg, value, choice.dtype);
      call.inputs.push_back(value ? ValueDesc(dtype, choice.values)
                                  : Desc(dtype, ShapeOf(choice.layout, choice.shape, k)));
    }
  }
  int64_t outputs = 0;
  for (const AttrDef& attr : def.attrs) {
    if (attr.name == "N" || attr.name == "num_split" || attr.name == "num") {
      call.attrs[attr.name] = AttrValue{int64_t{2}};
      if (attr.name != "N") outputs = 2;
    } else if (!attr.default_value) {
      if (auto value = PlausibleAttr(attr, choice.attr_list)) call.attrs[attr.name] = *value;
    }
  }
  if (outputs != 0) call.outputs.resize(static_cast<size_t>(outputs));
  return call;
}

// A call of `def` that shape inference accepts, found among plausible shapes and values.
std::optional<OpCall> FindBase(const OpLibrary& library, const OpDef& def) {
  static const std::vector<std::vector<int64_t>> shapes = {
      {2, 3, 4, 5}, {4, 4}, {1, 4, 8, 8}, {4}, {2, 4, 4}, {1, 2, 4, 4, 4}, {1, 4, 16, 16, 16}, {}};
  static const std::vector<std::vector<int64_t>> values = {
      {1}, {0}, {1, 1}, {0, 1}, {1, 1, 1, 1}, {0, 1, 2, 3}, {0, 0, 0, 0, 0, 0, 0, 0}, {2, 3, 4, 5}};
  const bool has_lists = std::any_of(def.attrs.begin(), def.attrs.end(), [](const AttrDef& a) {
    return !a.default_value && (a.type == AttrType::kListInt || a.type == AttrType::kString);
  });
  BaseChoice c;
  for (c.attr_list = 0; c.attr_list < (has_lists ? 8u : 1u); ++c.attr_list) {
    for (bool omit : {false, true}) {
      c.omit_optional = omit;
      for (Layout layout :
           {Layout::kSame, Layout::kChannels, Layout::kOnes, Layout::kConv2d, Layout::kConv3d}) {
        c.layout = layout;
        for (c.dtype = 0; c.dtype < 3; ++c.dtype) {
          for (const auto& shape : shapes) {
            c.shape = shape;
            for (const auto& value : values) {
              c.values = value;
              OpCall call = BuildCall(def, c);
              OpCall probe = call;
              if (library.InferShape(&probe).ok()) return call;
              if (def.value_inputs.empty()) break;
            }
          }
        }
      }
    }
  }
  return std::nullopt;
}

// The exact bytes of `dims` x `dtype`, or nullopt past 128 bits (never for a checked shape).
std::optional<unsigned __int128> ExactBytes(const std::vector<int64_t>& dims, DataType dtype) {
  unsigned __int128 bytes = DataTypeSize(dtype);
  for (int64_t d : dims) {
    if (d < 0) return std::nullopt;
    bytes *= static_cast<uint64_t>(d);
    if (bytes > (static_cast<unsigned __int128>(1) << 100)) return std::nullopt;
  }
  return bytes;
}

void CheckAccepted(const OpCall& call, const std::string& label) {
  for (size_t i = 0; i < call.outputs.size(); ++i) {
    const TensorDesc& out = call.outputs[i];
    if (out.absent() || !out.shape_known()) continue;
    const Status size = CheckTensorSize(out, "output");
    ASSERT_TRUE(size.ok()) << label << ": output " << i << " accepted but " << size.message();
    const auto& shape =
        !out.storage_dims.empty() && out.has_storage_layout() ? out.storage_dims : out.dims;
    const auto exact = ExactBytes(shape, out.dtype);
    ASSERT_TRUE(exact.has_value()) << label;
    EXPECT_EQ(static_cast<unsigned __int128>(out.ByteSize()), *exact)
        << label << ": output " << i << " ByteSize disagrees with its dims";
  }
}

// Runs a compiled hostile call whose tensors are small (hostile attributes or values with
// small shapes), on zeroed buffers (value inputs hold their values): it may fail, never crash.
void RunSmall(const OpKernel& kernel, const std::string& label) {
  const OpCall& resolved = kernel.call();
  uint64_t total = 0;
  for (const auto* list : {&resolved.inputs, &resolved.outputs}) {
    for (const TensorDesc& t : *list) {
      if (!t.absent() && !t.shape_known()) return;
      total += t.absent() ? 0 : t.ByteSize();
    }
  }
  if (total > (uint64_t{4} << 20)) return;
  std::vector<std::vector<uint8_t>> storage;
  std::vector<KernelBuffer> inputs;
  std::vector<KernelBuffer> outputs;
  storage.reserve(resolved.inputs.size() + resolved.outputs.size());
  for (const TensorDesc& t : resolved.inputs) {
    if (t.absent()) {
      inputs.push_back({nullptr, 0});
      continue;
    }
    storage.emplace_back(t.ByteSize(), 0);
    if (t.value && t.value->size() == t.ByteSize()) storage.back() = *t.value;
    inputs.push_back({storage.back().data(), storage.back().size()});
  }
  for (const TensorDesc& t : resolved.outputs) {
    storage.emplace_back(t.ByteSize(), 0);
    outputs.push_back({storage.back().data(), storage.back().size()});
  }
  std::vector<std::vector<int64_t>> output_dims;
  const Status run = kernel.Run(inputs, outputs, &output_dims);
  if (!run.ok()) {
    EXPECT_NE(run.code(), StatusCode::kInternal) << label << ": " << run.message();
  }
}

// Infers (and, when that succeeds with known shapes, compiles) one hostile call.
void ProbeOnce(const OpLibrary& library, OpCall call, const std::string& label, size_t* accepted) {
  const Status inferred = library.InferShape(&call);
  if (!inferred.ok()) {
    EXPECT_FALSE(inferred.message().empty()) << label;
    EXPECT_NE(inferred.code(), StatusCode::kInternal) << label << ": " << inferred.message();
    return;
  }
  ++*accepted;
  CheckAccepted(call, label);
  auto kernel = library.Compile(call, testing::TestProps());
  if (kernel.ok()) {
    CheckAccepted(kernel.value()->call(), label + " (compiled)");
    RunSmall(*kernel.value(), label);
  } else {
    EXPECT_NE(kernel.status().code(), StatusCode::kInternal) << label;
  }
}

struct Sweep {
  const OpLibrary& library;
  size_t probes = 0;
  size_t accepted = 0;

  void Probe(const OpCall& call, const std::string& label) {
    ++probes;
    try {
      ProbeOnce(library, call, label, &accepted);
    } catch (const std::exception& e) {
      ADD_FAILURE() << label << ": threw " << e.what();
    }
  }
};

// Hostile versions of one attribute value.
std::vector<AttrValue> HostileAttrs(const AttrValue& base) {
  std::vector<AttrValue> out;
  if (std::holds_alternative<int64_t>(base)) {
    for (int64_t h : HostileInts()) out.emplace_back(h);
  } else if (std::holds_alternative<float>(base)) {
    for (float f : {1e30f, -1e30f, std::numeric_limits<float>::infinity(),
                    std::numeric_limits<float>::quiet_NaN(), 0.0f, -1.0f}) {
      out.emplace_back(f);
    }
  } else if (const auto* list = std::get_if<std::vector<int64_t>>(&base)) {
    for (int64_t h : HostileInts()) {
      for (size_t j = 0; j < list->size(); ++j) {
        auto v = *list;
        v[j] = h;
        out.emplace_back(std::move(v));
      }
      out.emplace_back(std::vector<int64_t>(std::max<size_t>(list->size(), 1), h));
    }
  } else if (const auto* floats = std::get_if<std::vector<float>>(&base)) {
    for (float f : {1e30f, -1e30f, std::numeric_limits<float>::infinity(), 0.0f}) {
      out.emplace_back(std::vector<float>(std::max<size_t>(floats->size(), 1), f));
    }
  } else if (const auto* lists = std::get_if<std::vector<std::vector<int64_t>>>(&base)) {
    for (int64_t h : HostileInts()) {
      auto v = *lists;
      for (auto& row : v) {
        for (auto& x : row) x = h;
      }
      out.emplace_back(std::move(v));
    }
  }
  return out;
}

void SweepOp(Sweep& sweep, const OpDef& def, const OpCall& base) {
  // Attributes: each made hostile in turn (a default filled in first).
  OpCall with_defaults = base;
  (void)sweep.library.InferShape(&with_defaults);
  for (const auto& [name, value] : with_defaults.attrs) {
    for (AttrValue& hostile : HostileAttrs(value)) {
      OpCall call = base;
      call.attrs[name] = hostile;
      sweep.Probe(call, fmt::format("{} attr {}={}", def.type, name, AttrValueToString(hostile)));
    }
  }
  // Shapes: one dim of one input, or of every input of the same rank, made large.
  static const std::vector<int64_t> dims = {int64_t{1} << 24, int64_t{1} << 40, int64_t{1} << 47,
                                            kMax, 0};
  for (size_t i = 0; i < base.inputs.size(); ++i) {
    if (IsValueInput(def, i)) continue;
    for (size_t j = 0; j < base.inputs[i].dims.size(); ++j) {
      for (int64_t d : dims) {
        for (bool all : {false, true}) {
          OpCall call = base;
          for (size_t k = 0; k < call.inputs.size(); ++k) {
            auto& in = call.inputs[k];
            if ((all || k == i) && !IsValueInput(def, k) && in.dims.size() > j) in.dims[j] = d;
          }
          sweep.Probe(call, fmt::format("{} {}input {} dim {} = {}", def.type, all ? "every " : "",
                                        i, j, d));
        }
      }
    }
  }
  // Values: each element of each value input made hostile.
  for (size_t i : def.value_inputs) {
    if (i >= base.inputs.size() || !base.inputs[i].value) continue;
    const auto& in = base.inputs[i];
    const size_t n = static_cast<size_t>(in.ElementCount());
    auto values = BytesToInts(*in.value, in.dtype);
    for (int64_t h : HostileInts()) {
      for (size_t j = 0; j <= n; ++j) {  // j == n: every element
        auto v = values;
        for (size_t k = 0; k < v.size(); ++k) {
          if (k == j || j == n) v[k] = h;
        }
        OpCall call = base;
        call.inputs[i] = ValueDesc(in.dtype, v);
        call.inputs[i].dims = in.dims;
        sweep.Probe(call, fmt::format("{} value input {} = [{}]", def.type, i, fmt::join(v, ", ")));
      }
    }
  }
}

TEST(HostileShapesTest, EveryOpRefusesOrBoundsHostileShapesValuesAndAttrs) {
  Sweep sweep{OpLibrary::Builtin()};
  std::vector<std::string> unreached;
  for (const std::string& type : sweep.library.OpTypes()) {
    const OpDef& def = *sweep.library.registry().Find(type);
    const auto base = FindBase(sweep.library, def);
    if (!base) {
      unreached.push_back(type);
      continue;
    }
    SweepOp(sweep, def, *base);
  }
  const size_t ops = sweep.library.OpTypes().size();
  // The sweep means something only if it reaches the ops: most have an accepted base call,
  // and a share of the hostile calls is accepted (and then checked).
  EXPECT_LT(unreached.size(), ops / 4) << fmt::format("{}", fmt::join(unreached, " "));
  EXPECT_GT(sweep.accepted, sweep.probes / 20) << sweep.probes << " probes";
  RecordProperty("ops", static_cast<int>(ops));
  RecordProperty("unreached", fmt::format("{}", fmt::join(unreached, " ")));
  RecordProperty("probes", static_cast<int>(sweep.probes));
  RecordProperty("accepted", static_cast<int>(sweep.accepted));
}

TEST(HostileShapesTest, DescriptorSizesNeverSaturateOnceChecked) {
  const std::vector<std::vector<int64_t>> shapes = {
      {2, 3, 4, 5},
      {int64_t{1} << 12, int64_t{1} << 12, int64_t{1} << 12, int64_t{1} << 12},
      {int64_t{1} << 23, int64_t{1} << 23},
      {1, int64_t{1} << 40, 1, 1},
      {int64_t{1} << 16, int64_t{1} << 16, int64_t{1} << 16},
      {kMax},
      {int64_t{1} << 32, int64_t{1} << 32},
      {int64_t{1} << 62, 4},
      {0, kMax},
  };
  for (const auto& shape : shapes) {
    for (DataType dtype :
         {DataType::kInt8, DataType::kFloat16, DataType::kFloat, DataType::kInt64}) {
      TensorDesc desc = Desc(dtype, shape);
      const Status checked = CheckTensorSize(desc, "t");
      const auto exact = ExactBytes(shape, dtype);
      const bool fits = exact && *exact <= kMaxTensorBytes;
      // A zero dim leaves the others bounding the strides: [0, INT64_MAX] is refused.
      const bool zero_with_huge = shape.size() == 2 && shape[0] == 0;
      EXPECT_EQ(checked.ok(), fits && !zero_with_huge)
          << DataTypeName(dtype) << " " << shape.size() << ": " << checked.message();
      if (checked.ok()) {
        EXPECT_EQ(static_cast<unsigned __int128>(desc.ByteSize()), *exact);
        EXPECT_NE(desc.ElementCount(), kMax);
      } else {
        EXPECT_EQ(checked.code(), StatusCode::kInvalidParam);
        EXPECT_NE(checked.message().find("too large"), std::string::npos) << checked.message();
      }
    }
  }
}

}  // namespace
}  // namespace aclsim::ops
