// Integer values an op reads either from an input (the non-D form) or from an attribute (the
// D-variant, cann_ops.md 0.2 rule 9), with the error code and name to report them by; works
// in both contexts (infer: descriptor values; run: the resolved call or the buffer).
//
// Thread-safety: pure functions.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <vector>

#include "ops/op_def.h"

namespace aclsim::ops {

inline std::string NameOf(const OpContext& c, size_t i) { return c.InputName(i); }
inline std::string NameOf(const RunContext&, size_t i) { return fmt::format("input {}", i); }

struct Ints {
  std::vector<int64_t> v;
  StatusCode code = StatusCode::kOpInputNotMatch;
  std::string name;
};

inline Result<Ints> FromInput(const OpContext& c, size_t i) {
  ACLSIM_ASSIGN_OR_RETURN(auto v, c.InputInts(i));
  return Ints{std::move(v), StatusCode::kOpInputNotMatch, NameOf(c, i)};
}
inline Result<Ints> FromInput(const RunContext& c, size_t i) {
  const auto& desc = c.call().inputs[i];
  std::vector<int64_t> v = desc.value ? BytesToInts(*desc.value, desc.dtype) : c.InputInts(i);
  return Ints{std::move(v), StatusCode::kOpInputNotMatch, NameOf(c, i)};
}
inline Ints FromAttr(const AttrReader& c, const char* name) {
  return Ints{c.GetInts(name), StatusCode::kOpAttrNotMatch, fmt::format("attribute '{}'", name)};
}
inline Ints FromIntAttr(const AttrReader& c, const char* name) {
  return Ints{{c.GetInt(name)}, StatusCode::kOpAttrNotMatch, fmt::format("attribute '{}'", name)};
}

inline std::string Str(const std::vector<int64_t>& v) {
  return fmt::format("[{}]", fmt::join(v, ", "));
}

}  // namespace aclsim::ops
