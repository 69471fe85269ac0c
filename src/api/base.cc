// acl_base_rt.h: data buffers, fp16 conversion, data type sizes.
#include <cstring>
#include <memory>

#include "acl/acl.h"
#include "api/api_call.h"
#include "api/op_objects.h"
#include "common/float16.h"
#include "core/handle_table.h"
#include "core/runtime.h"

using aclsim::Err;
using aclsim::Result;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;

float aclFloat16ToFloat(aclFloat16 value) { return aclsim::HalfToFloat(value); }

aclFloat16 aclFloatToFloat16(float value) { return aclsim::FloatToHalf(value); }

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) {
  return api::ValueCall<aclDataBuffer*>(__func__, nullptr, [&]() -> Result<aclDataBuffer*> {
    if (data == nullptr && size != 0) {
      return Err(StatusCode::kInvalidParam, "data is NULL but size is {} (use size 0)", size);
    }
    auto buffer = core::MakeHandleObject<aclDataBuffer>();
    buffer->data = data;
    buffer->size = size;
    return static_cast<aclDataBuffer*>(core::PublishHandle(buffer));
  });
}

aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
  return api::ApiCall(__func__, [&]() -> Status {
    return core::RetireHandle<aclDataBuffer>(dataBuffer, "dataBuffer").status();
  });
}

aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto buffer,
                            core::LookupHandle<aclDataBuffer>(dataBuffer, "dataBuffer"));
    if (data == nullptr && size != 0) {
      return Err(StatusCode::kInvalidParam, "data is NULL but size is {} (use size 0)", size);
    }
    buffer->data = data;
    buffer->size = size;
    return Status::Ok();
  });
}

void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) {
  return api::ValueCall<void*>(__func__, nullptr, [&]() -> Result<void*> {
    ACLSIM_ASSIGN_OR_RETURN(auto buffer,
                            core::LookupHandle<aclDataBuffer>(dataBuffer, "dataBuffer"));
    return buffer->data;
  });
}

uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer) {
  return api::ValueCall<uint32_t>(__func__, 0, [&]() -> Result<uint32_t> {
    ACLSIM_ASSIGN_OR_RETURN(auto buffer,
                            core::LookupHandle<aclDataBuffer>(dataBuffer, "dataBuffer"));
    if (buffer->size > 0xffffffffU) {
      return Err(StatusCode::kInvalidParam,
                 "buffer size {} does not fit uint32_t: use aclGetDataBufferSizeV2", buffer->size);
    }
    return static_cast<uint32_t>(buffer->size);
  });
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) {
  return api::ValueCall<size_t>(__func__, 0, [&]() -> Result<size_t> {
    ACLSIM_ASSIGN_OR_RETURN(auto buffer,
                            core::LookupHandle<aclDataBuffer>(dataBuffer, "dataBuffer"));
    return buffer->size;
  });
}

size_t aclDataTypeSize(aclDataType dataType) {
  return api::ValueCall<size_t>(__func__, 0, [&]() -> Result<size_t> {
    switch (api::EnumValue(dataType)) {
      case ACL_INT8:
      case ACL_UINT8:
      case ACL_BOOL:
      case ACL_HIFLOAT8:
      case ACL_FLOAT8_E5M2:
      case ACL_FLOAT8_E4M3FN:
      case ACL_FLOAT8_E8M0:
        return 1;
      case ACL_FLOAT16:
      case ACL_BF16:
      case ACL_INT16:
      case ACL_UINT16:
        return 2;
      case ACL_FLOAT:
      case ACL_INT32:
      case ACL_UINT32:
      case ACL_COMPLEX32:
        return 4;
      case ACL_INT64:
      case ACL_UINT64:
      case ACL_DOUBLE:
      case ACL_COMPLEX64:
        return 8;
      case ACL_COMPLEX128:
        return 16;
      case ACL_STRING:
      case ACL_INT4:
      case ACL_UINT1:
      case ACL_FLOAT6_E3M2:
      case ACL_FLOAT6_E2M3:
      case ACL_FLOAT4_E2M1:
      case ACL_FLOAT4_E1M2:
        return 0;  // string and sub-byte types have no whole-byte size (not an error)
      default:
        break;
    }
    return Err(StatusCode::kInvalidParam, "dataType {} is not an aclDataType",
               api::EnumValue(dataType));
  });
}

namespace {

// The CANN attributes this installation supports: every one, except BF16 on SoCs without
// bf16 units (Ascend910A, Ascend310P*), decided by device 0's SoC.
const aclCannAttr kCannAttrs[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16,
                                  ACL_CANN_ATTR_JIT_COMPILE};

Result<bool> CannAttrSupported(int attr) {
  ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
  switch (attr) {
    case ACL_CANN_ATTR_INF_NAN:
    case ACL_CANN_ATTR_JIT_COMPILE:
      return true;
    case ACL_CANN_ATTR_BF16: {
      ACLSIM_ASSIGN_OR_RETURN(auto props, runtime->DeviceProps(0));
      return props.soc_name.rfind("Ascend910B", 0) == 0 ||
             props.soc_name.rfind("Ascend910_93", 0) == 0;
    }
    default:
      return Err(StatusCode::kInvalidParam, "cannAttr {} is not an aclCannAttr", attr);
  }
}

}  // namespace

aclError aclGetCannAttributeList(const aclCannAttr** cannAttrList, size_t* num) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(cannAttrList, "cannAttrList"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(num, "num"));
    ACLSIM_ASSIGN_OR_RETURN(bool bf16, CannAttrSupported(ACL_CANN_ATTR_BF16));
    // The list is static; without bf16 it is the list minus that entry.
    static const aclCannAttr kWithoutBf16[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_JIT_COMPILE};
    *cannAttrList = bf16 ? kCannAttrs : kWithoutBf16;
    *num = bf16 ? 3 : 2;
    return Status::Ok();
  });
}

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t* value) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(value, "value"));
    ACLSIM_ASSIGN_OR_RETURN(bool supported, CannAttrSupported(api::EnumValue(cannAttr)));
    *value = supported ? 1 : 0;
    return Status::Ok();
  });
}
