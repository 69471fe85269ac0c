// CANN single-op JSON -> op calls (singleop_json.h).
#include "tools/atc/singleop_json.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "common/float16.h"
#include "core/op_model.h"

namespace aclsim::atc {

namespace {

using json = nlohmann::json;

std::string Upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// An error about op `where` (index and type) and `field`.
struct Ctx {
  size_t index;
  std::string type;
  template <typename... Args>
  Status Fail(const std::string& field, fmt::format_string<Args...> format, Args&&... args) const {
    return Status(StatusCode::kParseFile,
                  fmt::format("op {} ({}): {}: {}", index, type.empty() ? "?" : type, field,
                              fmt::format(format, std::forward<Args>(args)...)));
  }
};

const std::map<std::string, ops::DataType>& DataTypeNames() {
  static const auto* names = [] {
    auto* m = new std::map<std::string, ops::DataType>();
    for (int32_t v = 0; v < 64; ++v) {
      if (!ops::IsKnownDataType(v)) continue;
      const auto dtype = static_cast<ops::DataType>(v);
      (*m)[ops::DataTypeName(dtype)] = dtype;
    }
    const std::pair<const char*, ops::DataType> aliases[] = {
        {"FLOAT32", ops::DataType::kFloat},  {"FP32", ops::DataType::kFloat},
        {"FP16", ops::DataType::kFloat16},   {"HALF", ops::DataType::kFloat16},
        {"BFLOAT16", ops::DataType::kBf16},  {"FLOAT64", ops::DataType::kDouble},
        {"FP64", ops::DataType::kDouble},    {"UNDEFINED", ops::DataType::kUndefined},
        {"UNDEF", ops::DataType::kUndefined}};
    for (const auto& [name, dtype] : aliases) (*m)[name] = dtype;
    return m;
  }();
  return *names;
}

const std::map<std::string, ops::Format>& FormatNames() {
  static const auto* names = [] {
    auto* m = new std::map<std::string, ops::Format>();
    for (int32_t v = 0; v < 64; ++v) {
      if (!ops::IsKnownFormat(v)) continue;
      const auto format = static_cast<ops::Format>(v);
      (*m)[ops::FormatName(format)] = format;
    }
    (*m)["FRACTAL_ZN"] = ops::Format::kFractalZ;
    (*m)["RESERVED"] = ops::Format::kUndefined;
    (*m)["UNDEFINED"] = ops::Format::kUndefined;
    return m;
  }();
  return *names;
}

Result<ops::DataType> DataTypeOf(const Ctx& ctx, const std::string& field, const json& j) {
  if (j.is_number_integer()) {
    const int64_t v = j.is_number_unsigned() && j.get<uint64_t>() > uint64_t{INT64_MAX}
                          ? INT64_MAX
                          : j.get<int64_t>();
    if (v >= INT32_MIN && v <= INT32_MAX && ops::IsKnownDataType(static_cast<int32_t>(v))) {
      return static_cast<ops::DataType>(v);
    }
    return ctx.Fail(field, "{} is not a data type value", v);
  }
  if (!j.is_string()) return ctx.Fail(field, "must be a data type name (\"float16\", ...)");
  std::string name = Upper(j.get<std::string>());
  for (const char* prefix : {"DT_", "ACL_"}) {
    if (name.rfind(prefix, 0) == 0) name = name.substr(std::strlen(prefix));
  }
  auto it = DataTypeNames().find(name);
  if (it == DataTypeNames().end()) {
    return ctx.Fail(field,
                    "'{}' is not a data type (float16, float, float32, double, bfloat16, int8, "
                    "int16, int32, int64, uint8, uint16, uint32, uint64, bool, ...)",
                    j.get<std::string>());
  }
  return it->second;
}

Result<ops::Format> FormatOf(const Ctx& ctx, const std::string& field, const json& j) {
  if (!j.is_string()) return ctx.Fail(field, "must be a format name (\"ND\", \"NCHW\", ...)");
  std::string name = Upper(j.get<std::string>());
  for (const char* prefix : {"FORMAT_", "ACL_FORMAT_"}) {
    if (name.rfind(prefix, 0) == 0) name = name.substr(std::strlen(prefix));
  }
  auto it = FormatNames().find(name);
  if (it == FormatNames().end()) {
    return ctx.Fail(field,
                    "'{}' is not a format (ND, NCHW, NHWC, NC1HWC0, FRACTAL_Z, FRACTAL_NZ, "
                    "HWCN, NCDHW, NDHWC, ...)",
                    j.get<std::string>());
  }
  return it->second;
}

Result<std::vector<int64_t>> IntList(const Ctx& ctx, const std::string& field, const json& j) {
  if (!j.is_array()) return ctx.Fail(field, "must be an array of integers");
  std::vector<int64_t> out;
  for (size_t i = 0; i < j.size(); ++i) {
    // An unsigned number past INT64_MAX is an integer to the JSON library but no int64.
    if (!j[i].is_number_integer() ||
        (j[i].is_number_unsigned() && j[i].get<uint64_t>() > uint64_t{INT64_MAX})) {
      return ctx.Fail(fmt::format("{}[{}]", field, i), "must be a 64-bit integer, not {}",
                      j[i].dump());
    }
    out.push_back(j[i].get<int64_t>());
  }
  return out;
}

Result<std::vector<int64_t>> Shape(const Ctx& ctx, const std::string& field, const json& j) {
  ACLSIM_ASSIGN_OR_RETURN(auto dims, IntList(ctx, field, j));
  if (dims.size() == 1 && dims[0] == ops::kUnknownRank) return dims;
  if (dims.size() > core::kOpModelMaxRank) {
    return ctx.Fail(field, "rank {} is above the limit of {}", dims.size(), core::kOpModelMaxRank);
  }
  for (int64_t d : dims) {
    if (d < ops::kUnknownDim) {
      return ctx.Fail(field, "dim {} is invalid (dims are >= 0, -1 unknown, or the shape is [-2])",
                      d);
    }
  }
  return dims;
}

void Flatten(const json& j, std::vector<const json*>* out) {
  if (j.is_array()) {
    for (const auto& e : j) Flatten(e, out);
  } else {
    out->push_back(&j);
  }
}

uint16_t FloatToBf16(float f) {
  uint32_t bits = 0;
  std::memcpy(&bits, &f, 4);
  if (std::isnan(f)) return 0x7FC0;
  bits += 0x7FFF + ((bits >> 16) & 1);
  return static_cast<uint16_t>(bits >> 16);
}

template <typename T>
void Append(std::vector<uint8_t>* out, T v) {
  const auto* b = reinterpret_cast<const uint8_t*>(&v);
  out->insert(out->end(), b, b + sizeof(T));
}

Status ConstValue(const Ctx& ctx, const std::string& field, const json& j, ops::TensorDesc* t) {
  if (!t->shape_known()) return ctx.Fail(field, "a constant needs a known shape");
  std::vector<const json*> values;
  Flatten(j, &values);
  const auto count = static_cast<size_t>(t->ElementCount());
  if (values.size() != count) {
    return ctx.Fail(field, "has {} values but shape [{}] holds {}", values.size(),
                    fmt::join(t->dims, ", "), count);
  }
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i < values.size(); ++i) {
    const json& v = *values[i];
    if (!v.is_number() && !v.is_boolean()) {
      return ctx.Fail(fmt::format("{}[{}]", field, i), "must be a number, not {}", v.dump());
    }
    if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t{INT64_MAX}) {
      return ctx.Fail(fmt::format("{}[{}]", field, i), "{} does not fit in 64 bits", v.dump());
    }
    const double d = v.is_boolean() ? (v.get<bool>() ? 1.0 : 0.0) : v.get<double>();
    // A float value of an integer tensor truncates toward zero, saturated at int64's ends
    // (NaN is 0): the conversion of an out-of-range double is undefined in C++.
    const auto saturated = [](double x) -> int64_t {
      if (!(x == x)) return 0;
      if (x >= 9223372036854775807.0) return INT64_MAX;
      if (x <= -9223372036854775808.0) return INT64_MIN;
      return static_cast<int64_t>(x);
    };
    const auto i64 = v.is_number_integer() ? v.get<int64_t>() : saturated(d);
    switch (t->dtype) {
      case ops::DataType::kFloat:
        Append(&bytes, static_cast<float>(d));
        break;
      case ops::DataType::kFloat16:
        Append(&bytes, FloatToHalf(static_cast<float>(d)));
        break;
      case ops::DataType::kBf16:
        Append(&bytes, FloatToBf16(static_cast<float>(d)));
        break;
      case ops::DataType::kDouble:
        Append(&bytes, d);
        break;
      case ops::DataType::kInt8:
        Append(&bytes, static_cast<int8_t>(i64));
        break;
      case ops::DataType::kUint8:
        Append(&bytes, static_cast<uint8_t>(i64));
        break;
      case ops::DataType::kBool:
        Append(&bytes, static_cast<uint8_t>(d != 0.0));
        break;
      case ops::DataType::kInt16:
        Append(&bytes, static_cast<int16_t>(i64));
        break;
      case ops::DataType::kUint16:
        Append(&bytes, static_cast<uint16_t>(i64));
        break;
      case ops::DataType::kInt32:
        Append(&bytes, static_cast<int32_t>(i64));
        break;
      case ops::DataType::kUint32:
        Append(&bytes, static_cast<uint32_t>(i64));
        break;
      case ops::DataType::kInt64:
        Append(&bytes, i64);
        break;
      case ops::DataType::kUint64:
        Append(&bytes, static_cast<uint64_t>(i64));
        break;
      default:
        return ctx.Fail(field, "constants of type {} are not supported",
                        ops::DataTypeName(t->dtype));
    }
  }
  t->value = std::move(bytes);
  return Status::Ok();
}

Result<ops::TensorDesc> Tensor(const Ctx& ctx, const std::string& field, const json& j,
                               bool is_input) {
  if (!j.is_object()) return ctx.Fail(field, "must be an object");
  ops::TensorDesc t;
  if (!j.contains("type")) return ctx.Fail(field + ".type", "is missing");
  ACLSIM_ASSIGN_OR_RETURN(t.dtype, DataTypeOf(ctx, field + ".type", j["type"]));
  ops::Format format = ops::Format::kNd;
  if (j.contains("format")) {
    ACLSIM_ASSIGN_OR_RETURN(format, FormatOf(ctx, field + ".format", j["format"]));
  } else if (!t.absent()) {
    return ctx.Fail(field + ".format", "is missing");
  }
  if (t.absent() || format == ops::Format::kUndefined) {
    if (!is_input) return ctx.Fail(field + ".type", "an output cannot be omitted (UNDEFINED)");
    return ops::TensorDesc{};  // omitted optional input
  }
  if (!j.contains("shape")) return ctx.Fail(field + ".shape", "is missing");
  ACLSIM_ASSIGN_OR_RETURN(auto shape, Shape(ctx, field + ".shape", j["shape"]));
  if (j.contains("origin_format")) {
    ACLSIM_ASSIGN_OR_RETURN(t.format, FormatOf(ctx, field + ".origin_format", j["origin_format"]));
    if (t.format == ops::Format::kUndefined) {
      return ctx.Fail(field + ".origin_format", "must be a real format");
    }
    if (j.contains("origin_shape")) {
      ACLSIM_ASSIGN_OR_RETURN(t.dims, Shape(ctx, field + ".origin_shape", j["origin_shape"]));
    } else {
      t.dims = shape;
    }
    if (format != t.format) {
      t.storage_format = format;
      t.storage_dims = shape;
    }
  } else {
    if (j.contains("origin_shape")) {
      return ctx.Fail(field + ".origin_shape", "is given without origin_format");
    }
    t.format = format;
    t.dims = shape;
  }
  if (const Status size = ops::CheckTensorSize(t, "the tensor's"); !size.ok()) {
    return ctx.Fail(field + ".shape", "{}", size.message());
  }
  if (j.contains("shape_range")) {
    const std::string f = field + ".shape_range";
    const json& r = j["shape_range"];
    if (!r.is_array()) return ctx.Fail(f, "must be an array of [min, max] pairs");
    if (!r.empty() && r.size() != t.dims.size()) {
      return ctx.Fail(f, "has {} ranges for a shape of rank {}", r.size(), t.dims.size());
    }
    for (size_t i = 0; i < r.size(); ++i) {
      const std::string fi = fmt::format("{}[{}]", f, i);
      ACLSIM_ASSIGN_OR_RETURN(auto pair, IntList(ctx, fi, r[i]));
      if (pair.size() != 2) return ctx.Fail(fi, "must be [min, max] (max -1 = unbounded)");
      if (pair[0] < 0 || (pair[1] != -1 && pair[1] < pair[0])) {
        return ctx.Fail(fi, "[{}, {}] is not a range", pair[0], pair[1]);
      }
      if (t.dims[i] >= 0 && (t.dims[i] < pair[0] || (pair[1] != -1 && t.dims[i] > pair[1]))) {
        return ctx.Fail(fi, "[{}, {}] does not contain dim {}", pair[0], pair[1], t.dims[i]);
      }
      t.shape_range.emplace_back(pair[0], pair[1]);
    }
  }
  if (j.contains("name")) {
    if (!j["name"].is_string()) return ctx.Fail(field + ".name", "must be a string");
    t.name = j["name"].get<std::string>();
  }
  bool is_const = false;
  if (j.contains("is_const")) {
    if (!j["is_const"].is_boolean()) return ctx.Fail(field + ".is_const", "must be true or false");
    is_const = j["is_const"].get<bool>();
  }
  if (is_const && !is_input) return ctx.Fail(field + ".is_const", "an output cannot be constant");
  if (is_const && !j.contains("const_value")) {
    return ctx.Fail(field + ".const_value", "is missing (is_const is true)");
  }
  if (j.contains("const_value")) {
    if (!is_input) return ctx.Fail(field + ".const_value", "an output cannot be constant");
    if (j.contains("is_const") && !is_const) {
      return ctx.Fail(field + ".const_value", "is given but is_const is false");
    }
    ACLSIM_RETURN_IF_ERROR(ConstValue(ctx, field + ".const_value", j["const_value"], &t));
  }
  return t;
}

template <typename T, typename Fn>
Result<std::vector<T>> List(const Ctx& ctx, const std::string& field, const json& v, Fn&& one) {
  if (!v.is_array()) return ctx.Fail(field, "must be an array");
  std::vector<T> out;
  for (size_t i = 0; i < v.size(); ++i) {
    ACLSIM_ASSIGN_OR_RETURN(T e, one(fmt::format("{}[{}]", field, i), v[i]));
    out.push_back(std::move(e));
  }
  return out;
}

Result<ops::AttrValue> AttrOf(const Ctx& ctx, const std::string& field, const std::string& type,
                              const json& v) {
  auto boolean = [&](const std::string& f, const json& e) -> Result<bool> {
    if (e.is_boolean()) return e.get<bool>();
    if (e.is_number_integer() && (e.get<int64_t>() == 0 || e.get<int64_t>() == 1)) {
      return e.get<int64_t>() == 1;
    }
    return ctx.Fail(f, "must be true or false, not {}", e.dump());
  };
  auto integer = [&](const std::string& f, const json& e) -> Result<int64_t> {
    if (e.is_number_integer() &&
        !(e.is_number_unsigned() && e.get<uint64_t>() > uint64_t{INT64_MAX})) {
      return e.get<int64_t>();
    }
    return ctx.Fail(f, "must be a 64-bit integer, not {}", e.dump());
  };
  auto real = [&](const std::string& f, const json& e) -> Result<float> {
    if (e.is_number()) return e.get<float>();
    return ctx.Fail(f, "must be a number, not {}", e.dump());
  };
  auto text = [&](const std::string& f, const json& e) -> Result<std::string> {
    if (e.is_string()) return e.get<std::string>();
    return ctx.Fail(f, "must be a string, not {}", e.dump());
  };
  auto dtype = [&](const std::string& f, const json& e) { return DataTypeOf(ctx, f, e); };
  auto ints = [&](const std::string& f, const json& e) -> Result<std::vector<int64_t>> {
    return List<int64_t>(ctx, f, e, integer);
  };
  const std::string t = Upper(type);
  auto wrap = [](auto result) -> Result<ops::AttrValue> {
    if (!result.ok()) return result.status();
    return ops::AttrValue(std::move(result.value()));
  };
  if (t == "BOOL") return wrap(boolean(field, v));
  if (t == "INT" || t == "INT64" || t == "INT32") return wrap(integer(field, v));
  if (t == "FLOAT" || t == "FLOAT32") return wrap(real(field, v));
  if (t == "STRING" || t == "STR") return wrap(text(field, v));
  if (t == "DATA_TYPE" || t == "TYPE" || t == "DTYPE") return wrap(dtype(field, v));
  if (t == "LIST_BOOL") return wrap(List<bool>(ctx, field, v, boolean));
  if (t == "LIST_INT" || t == "LIST_INT64" || t == "LIST_INT32") return wrap(ints(field, v));
  if (t == "LIST_FLOAT" || t == "LIST_FLOAT32") return wrap(List<float>(ctx, field, v, real));
  if (t == "LIST_STRING" || t == "LIST_STR") return wrap(List<std::string>(ctx, field, v, text));
  if (t == "LIST_DATA_TYPE" || t == "LIST_TYPE" || t == "LIST_DTYPE") {
    return wrap(List<ops::DataType>(ctx, field, v, dtype));
  }
  if (t == "LIST_LIST_INT" || t == "LIST_LIST_INT64") {
    return wrap(List<std::vector<int64_t>>(ctx, field, v, ints));
  }
  return ctx.Fail(field,
                  "attribute type '{}' is not one of bool, int, float, string, data_type, "
                  "list_bool, list_int, list_float, list_string, list_data_type, list_list_int",
                  type);
}

Result<SingleOp> OpOf(size_t index, const json& j) {
  Ctx ctx{index, ""};
  if (!j.is_object()) return ctx.Fail("op", "each op description must be a JSON object");
  if (!j.contains("op")) return ctx.Fail("op", "is missing (the op type, e.g. \"Add\")");
  if (!j["op"].is_string() || j["op"].get<std::string>().empty()) {
    return ctx.Fail("op", "must be a non-empty string");
  }
  SingleOp op;
  op.index = index;
  op.call.type = j["op"].get<std::string>();
  ctx.type = op.call.type;
  static const std::set<std::string> kKnown = {"op",   "name",         "input_desc", "output_desc",
                                               "attr", "compile_flag", "engine"};
  for (const auto& [key, value] : j.items()) {
    if (kKnown.count(key) == 0) {
      return ctx.Fail(key, "unknown key (expected op, name, input_desc, output_desc, attr)");
    }
  }
  if (j.contains("name")) {
    if (!j["name"].is_string()) return ctx.Fail("name", "must be a string");
    op.name = j["name"].get<std::string>();
    if (op.name.find('/') != std::string::npos || op.name == "." || op.name == "..") {
      return ctx.Fail("name", "'{}' cannot be a file name", op.name);
    }
  }
  for (const char* key : {"input_desc", "output_desc"}) {
    const bool is_input = std::strcmp(key, "input_desc") == 0;
    if (!j.contains(key)) return ctx.Fail(key, "is missing");
    const json& list = j[key];
    if (!list.is_array()) return ctx.Fail(key, "must be an array of tensor descriptions");
    for (size_t i = 0; i < list.size(); ++i) {
      ACLSIM_ASSIGN_OR_RETURN(auto t,
                              Tensor(ctx, fmt::format("{}[{}]", key, i), list[i], is_input));
      (is_input ? op.call.inputs : op.call.outputs).push_back(std::move(t));
    }
  }
  if (op.call.outputs.empty()) return ctx.Fail("output_desc", "is empty");
  if (j.contains("attr")) {
    const json& attrs = j["attr"];
    if (!attrs.is_array()) return ctx.Fail("attr", "must be an array of {{name, type, value}}");
    for (size_t i = 0; i < attrs.size(); ++i) {
      const std::string f = fmt::format("attr[{}]", i);
      const json& a = attrs[i];
      if (!a.is_object()) return ctx.Fail(f, "must be an object {{name, type, value}}");
      for (const char* key : {"name", "type", "value"}) {
        if (!a.contains(key)) return ctx.Fail(f + "." + key, "is missing");
      }
      if (!a["name"].is_string() || a["name"].get<std::string>().empty()) {
        return ctx.Fail(f + ".name", "must be a non-empty string");
      }
      if (!a["type"].is_string()) return ctx.Fail(f + ".type", "must be a string");
      const std::string name = a["name"].get<std::string>();
      const std::string fv = fmt::format("{} '{}'.value", f, name);
      ACLSIM_ASSIGN_OR_RETURN(auto value,
                              AttrOf(ctx, fv, a["type"].get<std::string>(), a["value"]));
      if (!op.call.attrs.emplace(name, std::move(value)).second) {
        return ctx.Fail(f + ".name", "attribute '{}' is given twice", name);
      }
    }
  }
  return op;
}

}  // namespace

Result<std::vector<SingleOp>> ParseSingleOpJson(std::string_view text) {
  json root;
  try {
    root = json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    return Err(StatusCode::kParseFile, "not valid JSON: {}", e.what());
  }
  if (root.is_object()) root = json::array({root});
  if (!root.is_array()) return Err(StatusCode::kParseFile, "expected a JSON array of ops");
  if (root.empty()) return Err(StatusCode::kParseFile, "the op array is empty");
  std::vector<SingleOp> ops;
  std::map<std::string, size_t> names;
  for (size_t i = 0; i < root.size(); ++i) {
    ACLSIM_ASSIGN_OR_RETURN(auto op, OpOf(i, root[i]));
    if (!op.name.empty()) {
      auto [it, fresh] = names.emplace(op.name, i);
      if (!fresh) {
        return Ctx{i, op.call.type}.Fail("name", "'{}' is already the name of op {}", op.name,
                                         it->second);
      }
    }
    ops.push_back(std::move(op));
  }
  return ops;
}

std::string SingleOpFileName(const SingleOp& op) {
  if (!op.name.empty()) return op.name + ".om";
  std::string stem = fmt::format("{}_{}", op.index, op.call.type);
  auto add = [&](const ops::TensorDesc& t) {
    if (t.absent()) return;
    const auto format = t.has_storage_layout() ? t.storage_format : t.format;
    const auto& dims = t.has_storage_layout() && !t.storage_dims.empty() ? t.storage_dims : t.dims;
    stem += fmt::format("_{}_{}", static_cast<int32_t>(t.dtype), static_cast<int32_t>(format));
    for (int64_t d : dims) stem += fmt::format("_{}", d);
  };
  for (const auto& t : op.call.inputs) add(t);
  for (const auto& t : op.call.outputs) add(t);
  for (auto& c : stem) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  }
  constexpr size_t kMaxStem = 200;
  if (stem.size() > kMaxStem) {
    const uint32_t crc = core::Crc32(reinterpret_cast<const uint8_t*>(stem.data()), stem.size());
    stem = fmt::format("{}_{:08x}", stem.substr(0, kMaxStem), crc);
  }
  return stem + ".om";
}

Status CheckSingleOps(const ops::OpLibrary& library, const std::vector<SingleOp>& ops,
                      std::vector<std::string>* warnings) {
  for (const auto& op : ops) {
    const std::string where = fmt::format("op {} ({})", op.index, op.call.type);
    if (!library.HasOp(op.call.type)) {
      return Err(StatusCode::kOpTypeNotMatch, "{}: op: '{}' is not in the op library", where,
                 op.call.type);
    }
    ops::OpCall checked = op.call;
    Status status = library.InferShape(&checked);
    if (!status.ok()) {
      return Status(status.code(), fmt::format("{}: {}", where, status.message()));
    }
    if (warnings != nullptr && !checked.ignored_attrs.empty()) {
      warnings->push_back(fmt::format("{}: attr: not in the op's prototype, ignored: {}", where,
                                      fmt::join(checked.ignored_attrs, ", ")));
    }
  }
  return Status::Ok();
}

}  // namespace aclsim::atc
