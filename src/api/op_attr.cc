// acl_op.h: op attributes (aclopAttr).
#include <string>
#include <vector>

#include "acl/acl.h"
#include "api/api_call.h"
#include "api/op_objects.h"

using aclsim::Err;
using aclsim::Result;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;
namespace ops = aclsim::ops;

namespace {

// Looks up the attribute object and the name, then stores `make()`'s value under the name.
template <typename Make>
aclError SetAttr(const char* api_name, aclopAttr* attr, const char* name, Make&& make) {
  return api::ApiCall(api_name, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(name, "attrName"));
    if (*name == '\0') return Err(StatusCode::kInvalidParam, "attrName is empty");
    ACLSIM_ASSIGN_OR_RETURN(auto found, core::LookupHandle<aclopAttr>(attr, "attr"));
    ACLSIM_ASSIGN_OR_RETURN(ops::AttrValue value, make());
    found->attrs[name] = std::move(value);
    return Status::Ok();
  });
}

Status CheckList(int num, const void* values) {
  if (num < 0) return Err(StatusCode::kInvalidParam, "numValues {} is negative", num);
  if (num > 0 && values == nullptr) {
    return Err(StatusCode::kInvalidParam, "values is NULL but numValues is {}", num);
  }
  return Status::Ok();
}

Result<ops::DataType> DataTypeOf(int value) {
  if (!ops::IsKnownDataType(value)) {
    return Err(StatusCode::kInvalidParam, "{} is not an aclDataType", value);
  }
  return static_cast<ops::DataType>(value);
}

}  // namespace

aclopAttr* aclopCreateAttr(void) {
  return api::ValueCall<aclopAttr*>(__func__, nullptr, [&]() -> Result<aclopAttr*> {
    return static_cast<aclopAttr*>(core::PublishHandle(core::MakeHandleObject<aclopAttr>()));
  });
}

void aclopDestroyAttr(const aclopAttr* attr) {
  (void)api::ApiCall(__func__, [&]() -> Status {
    if (attr == nullptr) return Status::Ok();
    return core::RetireHandle<aclopAttr>(attr, "attr").status();
  });
}

aclError aclopSetAttrBool(aclopAttr* attr, const char* attrName, uint8_t attrValue) {
  return SetAttr(__func__, attr, attrName,
                 [&]() -> Result<ops::AttrValue> { return ops::AttrValue(attrValue != 0); });
}

aclError aclopSetAttrInt(aclopAttr* attr, const char* attrName, int64_t attrValue) {
  return SetAttr(__func__, attr, attrName,
                 [&]() -> Result<ops::AttrValue> { return ops::AttrValue(attrValue); });
}

aclError aclopSetAttrFloat(aclopAttr* attr, const char* attrName, float attrValue) {
  return SetAttr(__func__, attr, attrName,
                 [&]() -> Result<ops::AttrValue> { return ops::AttrValue(attrValue); });
}

aclError aclopSetAttrString(aclopAttr* attr, const char* attrName, const char* attrValue) {
  return SetAttr(__func__, attr, attrName, [&]() -> Result<ops::AttrValue> {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(attrValue, "attrValue"));
    return ops::AttrValue(std::string(attrValue));
  });
}

aclError aclopSetAttrDataType(aclopAttr* attr, const char* attrName, aclDataType attrValue) {
  return SetAttr(__func__, attr, attrName, [&]() -> Result<ops::AttrValue> {
    ACLSIM_ASSIGN_OR_RETURN(auto dtype, DataTypeOf(api::EnumValue(attrValue)));
    return ops::AttrValue(dtype);
  });
}

aclError aclopSetAttrListDataType(aclopAttr* attr, const char* attrName, int numValues,
                                  const aclDataType values[]) {
  return SetAttr(__func__, attr, attrName, [&]() -> Result<ops::AttrValue> {
    ACLSIM_RETURN_IF_ERROR(CheckList(numValues, values));
    std::vector<ops::DataType> list;
    for (int i = 0; i < numValues; ++i) {
      ACLSIM_ASSIGN_OR_RETURN(auto dtype, DataTypeOf(api::EnumValue(values[i])));
      list.push_back(dtype);
    }
    return ops::AttrValue(std::move(list));
  });
}

aclError aclopSetAttrListBool(aclopAttr* attr, const char* attrName, int numValues,
                              const uint8_t* values) {
  return SetAttr(__func__, attr, attrName, [&]() -> Result<ops::AttrValue> {
    ACLSIM_RETURN_IF_ERROR(CheckList(numValues, values));
    std::vector<bool> list(static_cast<size_t>(numValues));
    for (int i = 0; i < numValues; ++i) list[static_cast<size_t>(i)] = values[i] != 0;
    return ops::AttrValue(std::move(list));
  });
}

aclError aclopSetAttrListInt(aclopAttr* attr, const char* attrName, int numValues,
                             const int64_t* values) {
  return SetAttr(__func__, attr, attrName, [&]() -> Result<ops::AttrValue> {
    ACLSIM_RETURN_IF_ERROR(CheckList(numValues, values));
    return ops::AttrValue(std::vector<int64_t>(values, values + numValues));
  });
}

aclError aclopSetAttrListFloat(aclopAttr* attr, const char* attrName, int numValues,
                               const float* values) {
  return SetAttr(__func__, attr, attrName, [&]() -> Result<ops::AttrValue> {
    ACLSIM_RETURN_IF_ERROR(CheckList(numValues, values));
    return ops::AttrValue(std::vector<float>(values, values + numValues));
  });
}

aclError aclopSetAttrListString(aclopAttr* attr, const char* attrName, int numValues,
                                const char** values) {
  return SetAttr(__func__, attr, attrName, [&]() -> Result<ops::AttrValue> {
    ACLSIM_RETURN_IF_ERROR(CheckList(numValues, values));
    std::vector<std::string> list;
    for (int i = 0; i < numValues; ++i) {
      if (values[i] == nullptr) return Err(StatusCode::kInvalidParam, "values[{}] is NULL", i);
      list.emplace_back(values[i]);
    }
    return ops::AttrValue(std::move(list));
  });
}

aclError aclopSetAttrListListInt(aclopAttr* attr, const char* attrName, int numLists,
                                 const int* numValues, const int64_t* const values[]) {
  return SetAttr(__func__, attr, attrName, [&]() -> Result<ops::AttrValue> {
    if (numLists < 0) return Err(StatusCode::kInvalidParam, "numLists {} is negative", numLists);
    if (numLists > 0 && (numValues == nullptr || values == nullptr)) {
      return Err(StatusCode::kInvalidParam, "numValues or values is NULL but numLists is {}",
                 numLists);
    }
    std::vector<std::vector<int64_t>> lists;
    for (int i = 0; i < numLists; ++i) {
      if (numValues[i] < 0 || (numValues[i] > 0 && values[i] == nullptr)) {
        return Err(StatusCode::kInvalidParam, "list {}: numValues {} with values {}", i,
                   numValues[i], static_cast<const void*>(values[i]));
      }
      lists.emplace_back(values[i], values[i] + numValues[i]);
    }
    return ops::AttrValue(std::move(lists));
  });
}
