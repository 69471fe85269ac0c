// The objects behind the aclnn meta API's handles (aclnn/acl_meta.h): tensor views, scalars,
// arrays and lists. Plain host values, owned by the HandleTable from create to destroy.
//
// An NnTensor is a view: view dims, strides and an offset in elements over a buffer whose
// physical extent is `storage_dims`, at `data` (a device address; may be null until set).
// The executor that an operator's first phase builds copies what it needs from these, so the
// caller may destroy them as soon as the first phase returns.
//
// Thread-safety: the objects are not synchronised; CANN's API gives one thread an object
// at a time (aclInitTensor / aclSetRawTensorAddr race with a concurrent first phase there
// as here).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/handle_table.h"
#include "ops/types.h"

namespace aclsim::core::nn {

struct NnTensor {
  static constexpr HandleKind kHandleKind = HandleKind::kNnTensor;
  ops::DataType dtype = ops::DataType::kUndefined;
  ops::Format format = ops::Format::kNd;
  std::vector<int64_t> dims;     // view
  std::vector<int64_t> strides;  // in elements, one per view dim
  int64_t offset = 0;            // in elements
  std::vector<int64_t> storage_dims;
  void* data = nullptr;

  int64_t numel() const;
  bool contiguous() const;  // row-major strides (size-1 dims ignored)
};

// A host scalar: the value as given, with its dtype.
struct NnScalar {
  static constexpr HandleKind kHandleKind = HandleKind::kNnScalar;
  ops::DataType dtype = ops::DataType::kUndefined;
  // The value widened: exact for every integer type and for floating types.
  bool is_float = false;
  double f = 0;
  int64_t i = 0;
  double ToDouble() const { return is_float ? f : static_cast<double>(i); }
};

struct NnIntArray {
  static constexpr HandleKind kHandleKind = HandleKind::kNnIntArray;
  std::vector<int64_t> values;
};
struct NnFloatArray {
  static constexpr HandleKind kHandleKind = HandleKind::kNnFloatArray;
  std::vector<float> values;
};
struct NnBoolArray {
  static constexpr HandleKind kHandleKind = HandleKind::kNnBoolArray;
  std::vector<bool> values;
};

// Lists hold their members' handles; destroying a list destroys them.
struct NnTensorList {
  static constexpr HandleKind kHandleKind = HandleKind::kNnTensorList;
  std::vector<const void*> members;
};
struct NnScalarList {
  static constexpr HandleKind kHandleKind = HandleKind::kNnScalarList;
  std::vector<const void*> members;
};

// Row-major strides of `dims` (saturating).
std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& dims);
// Whether `strides` are row-major for `dims` (size-1 dims ignored; an empty view is).
bool IsRowMajor(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides);
// Row-major element count of dims (saturating).
int64_t ElementCount(const std::vector<int64_t>& dims);

}  // namespace aclsim::core::nn
