// aclnn/acl_meta.h and aclnn/aclnn_base.h: the meta objects, the executor API, aclnnInit.
#include <cstring>
#include <fstream>
#include <functional>

#include "aclnn/aclnn_base.h"
#include "aclnn/opdev/op_errno.h"
#include "api/aclnn/nn_call.h"
#include "common/checked_size.h"
#include "common/float16.h"
#include "ops/tensor.h"

using aclsim::Err;
using aclsim::Result;
using aclsim::Status;
using aclsim::StatusCode;
namespace core = aclsim::core;
namespace nn = aclsim::core::nn;
namespace api = aclsim::api;

namespace {

template <typename Obj, typename Handle>
Handle* PublishAs(std::shared_ptr<Obj> object) {
  return static_cast<Handle*>(core::PublishHandle(std::move(object)));
}

template <typename Obj>
aclnnStatus Destroy(const char* api, const void* handle) {
  if (handle == nullptr) return ACLNN_SUCCESS;
  return api::NnCall(api, [&]() -> Status {
    auto found = core::RetireHandle<Obj>(handle, "handle");
    if (!found.ok()) return Status(StatusCode::kInvalidParam, found.status().message());
    return Status::Ok();
  });
}

// Values of a scalar of `dtype` at `value`.
Result<std::shared_ptr<nn::NnScalar>> MakeScalar(const void* value, aclDataType data_type) {
  auto scalar = core::MakeHandleObject<nn::NnScalar>();
  const auto dtype = static_cast<aclsim::ops::DataType>(api::EnumValue(data_type));
  scalar->dtype = dtype;
  using DT = aclsim::ops::DataType;
  auto load = [&](auto tag) {
    using T = decltype(tag);
    T v;
    std::memcpy(&v, value, sizeof(v));
    return v;
  };
  switch (dtype) {
    case DT::kFloat:
      scalar->is_float = true, scalar->f = load(float{});
      break;
    case DT::kDouble:
      scalar->is_float = true, scalar->f = load(double{});
      break;
    case DT::kFloat16:
      scalar->is_float = true, scalar->f = aclsim::HalfToFloat(load(uint16_t{}));
      break;
    case DT::kBf16:
      scalar->is_float = true, scalar->f = aclsim::ops::Bf16ToFloat(load(uint16_t{}));
      break;
    case DT::kInt8: {  // two's complement from the byte (no signed-char conversion)
      const int64_t byte = load(uint8_t{});
      scalar->i = byte >= 128 ? byte - 256 : byte;
      break;
    }
    case DT::kUint8:
      scalar->i = load(uint8_t{});
      break;
    case DT::kInt16:
      scalar->i = load(int16_t{});
      break;
    case DT::kUint16:
      scalar->i = load(uint16_t{});
      break;
    case DT::kInt32:
      scalar->i = load(int32_t{});
      break;
    case DT::kUint32:
      scalar->i = load(uint32_t{});
      break;
    case DT::kInt64:
      scalar->i = load(int64_t{});
      break;
    case DT::kUint64:
      scalar->i = static_cast<int64_t>(load(uint64_t{}));
      break;
    case DT::kBool:
      scalar->i = load(uint8_t{}) != 0 ? 1 : 0;
      break;
    default:
      return Err(StatusCode::kInvalidParam, "a scalar of data type {} is not supported",
                 aclsim::ops::DataTypeName(dtype));
  }
  return scalar;
}

// Fills `tensor` from aclCreateTensor / aclInitTensor arguments (checked by the caller).
void Describe(nn::NnTensor* tensor, const int64_t* view_dims, uint64_t view_num,
              aclDataType data_type, const int64_t* stride, int64_t offset, aclFormat format,
              const int64_t* storage_dims, uint64_t storage_num, void* data, bool keep_unset) {
  if (view_dims != nullptr && view_num > 0) {
    tensor->dims.assign(view_dims, view_dims + view_num);
  } else if (!keep_unset) {
    tensor->dims.clear();
  }
  tensor->dtype = static_cast<aclsim::ops::DataType>(api::EnumValue(data_type));
  if (stride != nullptr) {
    tensor->strides.assign(stride, stride + tensor->dims.size());
  } else {
    tensor->strides = nn::ContiguousStrides(tensor->dims);
  }
  tensor->offset = offset;
  tensor->format = static_cast<aclsim::ops::Format>(api::EnumValue(format));
  if (storage_dims != nullptr && storage_num > 0) {
    tensor->storage_dims.assign(storage_dims, storage_dims + storage_num);
  } else if (!keep_unset) {
    tensor->storage_dims.clear();
  }
  if (data != nullptr || !keep_unset) tensor->data = data;
}

constexpr uint64_t kMaxDims = 64;  // far past any op's rank limit; refuses absurd counts

template <typename Array, typename T>
aclnnStatus ArraySize(const char* api, const void* handle, uint64_t* size) {
  return api::NnCall(api, [&]() -> Status {
    if (size == nullptr) return Err(StatusCode::kNullPointer, "size is NULL");
    ACLSIM_ASSIGN_OR_RETURN(auto array, api::NnObject<Array>(handle, "array"));
    *size = array->values.size();
    return Status::Ok();
  });
}

template <typename List>
aclnnStatus ListSize(const char* api, const void* handle, uint64_t* size) {
  return api::NnCall(api, [&]() -> Status {
    if (size == nullptr) return Err(StatusCode::kNullPointer, "size is NULL");
    ACLSIM_ASSIGN_OR_RETURN(auto list, api::NnObject<List>(handle, "list"));
    *size = list->members.size();
    return Status::Ok();
  });
}

template <typename List, typename Member>
aclnnStatus DestroyList(const char* api, const void* handle) {
  if (handle == nullptr) return ACLNN_SUCCESS;
  return api::NnCall(api, [&]() -> Status {
    auto found = core::RetireHandle<List>(handle, "list");
    if (!found.ok()) return Status(StatusCode::kInvalidParam, found.status().message());
    for (const void* member : found.value()->members) {
      if (member != nullptr) (void)core::RetireHandle<Member>(member, "member");
    }
    return Status::Ok();
  });
}

aclnnStatus GetDims(const char* api, const aclTensor* handle, int64_t** out, uint64_t* num,
                    int which) {
  return api::NnCall(api, [&]() -> Status {
    if (out == nullptr || num == nullptr) {
      return Err(StatusCode::kNullPointer, "the output pointers must not be NULL");
    }
    ACLSIM_ASSIGN_OR_RETURN(auto tensor, api::NnObject<nn::NnTensor>(handle, "tensor"));
    const std::vector<int64_t>& values =
        which == 0 ? tensor->dims : (which == 1 ? tensor->storage_dims : tensor->strides);
    *out = new int64_t[values.empty() ? 1 : values.size()];
    if (!values.empty()) std::memcpy(*out, values.data(), values.size() * sizeof(int64_t));
    *num = values.size();
    return Status::Ok();
  });
}

// The slot of argument `index` of `executor` (inputs, outputs or both, by `which`).
Status SetAddr(const char* api, aclOpExecutor* executor, size_t index, aclTensor* tensor,
               void* addr, int which) {
  if (executor == nullptr || tensor == nullptr) {
    return Status(StatusCode::kInternal, "executor and tensor must not be NULL");  // 561103
  }
  ACLSIM_ASSIGN_OR_RETURN(auto exec, api::NnObject<nn::Executor>(executor, "executor"));
  ACLSIM_ASSIGN_OR_RETURN(auto object, api::NnObject<nn::NnTensor>(tensor, "tensor"));
  const auto& inputs = exec->input_slots;
  const auto& outputs = exec->output_slots;
  int32_t slot = -1;
  size_t count = 0;
  if (which == 0) {
    count = inputs.size();
    if (index < count) slot = inputs[index];
  } else if (which == 1) {
    count = outputs.size();
    if (index < count) slot = outputs[index];
  } else {
    count = inputs.size() + outputs.size();
    if (index < inputs.size()) {
      slot = inputs[index];
    } else if (index < count) {
      slot = outputs[index - inputs.size()];
    }
  }
  if (index >= count) {
    return Err(StatusCode::kInvalidParam, "{}: index {} is out of range: the operator has {}",
               exec->name, index, count);
  }
  if (slot < 0) {
    return Err(StatusCode::kInvalidParam,
               "{}: tensor {} was absent (NULL) when the executor "
               "was built",
               exec->name, index);
  }
  exec->slots[static_cast<size_t>(slot)].data = addr;
  object->data = addr;
  (void)api;
  return Status::Ok();
}

Status SetDynamicAddr(aclOpExecutor* executor, size_t ir_index, size_t relative,
                      aclTensorList* tensors, void* addr) {
  if (executor == nullptr || tensors == nullptr) {
    return Status(StatusCode::kInternal, "executor and tensors must not be NULL");
  }
  ACLSIM_ASSIGN_OR_RETURN(auto exec, api::NnObject<nn::Executor>(executor, "executor"));
  ACLSIM_ASSIGN_OR_RETURN(auto list, api::NnObject<nn::NnTensorList>(tensors, "tensors"));
  for (const auto& param : exec->lists) {
    if (param.ir_index != ir_index) continue;
    if (relative >= param.slots.size()) {
      return Err(StatusCode::kInvalidParam, "{}: element {} is out of range: the list has {}",
                 exec->name, relative, param.slots.size());
    }
    exec->slots[static_cast<size_t>(param.slots[relative])].data = addr;
    if (relative < list->members.size()) {
      auto member = core::LookupHandle<nn::NnTensor>(list->members[relative], "tensor");
      if (member.ok()) member.value()->data = addr;
    }
    return Status::Ok();
  }
  return Err(StatusCode::kInvalidParam, "{}: parameter {} is not a tensor list", exec->name,
             ir_index);
}

// 561103 for the executor-reuse API's NULL arguments (kInternal carries the message).
aclnnStatus ReuseCall(const char* api, const std::function<Status()>& body) {
  try {
    const Status status = body();
    if (status.ok()) return ACLNN_SUCCESS;
    api::RecordNnFailure(api, status);
    return status.code() == StatusCode::kInternal ? ACLNN_ERR_INNER_NULLPTR
                                                  : api::ToNnStatus(status);
  } catch (...) {
    return api::RecordNnFailure(api, api::FromException(nullptr));
  }
}

}  // namespace

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t* stride, int64_t offset, aclFormat format,
                           const int64_t* storageDims, uint64_t storageDimsNum, void* tensorData) {
  return api::ValueCall<aclTensor*>(__func__, nullptr, [&]() -> Result<aclTensor*> {
    if ((viewDims == nullptr && viewDimsNum > 0) ||
        (storageDims == nullptr && storageDimsNum > 0)) {
      return Err(StatusCode::kNullPointer, "a dims array is NULL but its count is not 0");
    }
    if (viewDimsNum > kMaxDims || storageDimsNum > kMaxDims) {
      return Err(StatusCode::kInvalidParam, "{} view dims and {} storage dims: at most {} each",
                 viewDimsNum, storageDimsNum, kMaxDims);
    }
    auto tensor = core::MakeHandleObject<nn::NnTensor>();
    Describe(tensor.get(), viewDims, viewDimsNum, dataType, stride, offset, format, storageDims,
             storageDimsNum, tensorData, false);
    return PublishAs<nn::NnTensor, aclTensor>(std::move(tensor));
  });
}

aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
  return api::ValueCall<aclScalar*>(__func__, nullptr, [&]() -> Result<aclScalar*> {
    if (value == nullptr) return Err(StatusCode::kNullPointer, "value is NULL");
    ACLSIM_ASSIGN_OR_RETURN(auto scalar, MakeScalar(value, dataType));
    return PublishAs<nn::NnScalar, aclScalar>(std::move(scalar));
  });
}

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
  return api::ValueCall<aclIntArray*>(__func__, nullptr, [&]() -> Result<aclIntArray*> {
    if (value == nullptr && size > 0) return Err(StatusCode::kNullPointer, "value is NULL");
    auto array = core::MakeHandleObject<nn::NnIntArray>();
    if (size > 0) array->values.assign(value, value + size);
    return PublishAs<nn::NnIntArray, aclIntArray>(std::move(array));
  });
}

aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
  return api::ValueCall<aclFloatArray*>(__func__, nullptr, [&]() -> Result<aclFloatArray*> {
    if (value == nullptr && size > 0) return Err(StatusCode::kNullPointer, "value is NULL");
    auto array = core::MakeHandleObject<nn::NnFloatArray>();
    if (size > 0) array->values.assign(value, value + size);
    return PublishAs<nn::NnFloatArray, aclFloatArray>(std::move(array));
  });
}

aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
  return api::ValueCall<aclBoolArray*>(__func__, nullptr, [&]() -> Result<aclBoolArray*> {
    if (value == nullptr && size > 0) return Err(StatusCode::kNullPointer, "value is NULL");
    auto array = core::MakeHandleObject<nn::NnBoolArray>();
    if (size > 0) array->values.assign(value, value + size);
    return PublishAs<nn::NnBoolArray, aclBoolArray>(std::move(array));
  });
}

aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
  return api::ValueCall<aclTensorList*>(__func__, nullptr, [&]() -> Result<aclTensorList*> {
    if (value == nullptr && size > 0) return Err(StatusCode::kNullPointer, "value is NULL");
    auto list = core::MakeHandleObject<nn::NnTensorList>();
    for (uint64_t i = 0; i < size; ++i) {
      if (value[i] != nullptr) {
        ACLSIM_RETURN_IF_ERROR(api::NnObject<nn::NnTensor>(value[i], "tensor").status());
      }
      list->members.push_back(value[i]);
    }
    return PublishAs<nn::NnTensorList, aclTensorList>(std::move(list));
  });
}

aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size) {
  return api::ValueCall<aclScalarList*>(__func__, nullptr, [&]() -> Result<aclScalarList*> {
    if (value == nullptr && size > 0) return Err(StatusCode::kNullPointer, "value is NULL");
    auto list = core::MakeHandleObject<nn::NnScalarList>();
    for (uint64_t i = 0; i < size; ++i) {
      if (value[i] != nullptr) {
        ACLSIM_RETURN_IF_ERROR(api::NnObject<nn::NnScalar>(value[i], "scalar").status());
      }
      list->members.push_back(value[i]);
    }
    return PublishAs<nn::NnScalarList, aclScalarList>(std::move(list));
  });
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
  return Destroy<nn::NnTensor>(__func__, tensor);
}
aclnnStatus aclDestroyScalar(const aclScalar* scalar) {
  return Destroy<nn::NnScalar>(__func__, scalar);
}
aclnnStatus aclDestroyIntArray(const aclIntArray* array) {
  return Destroy<nn::NnIntArray>(__func__, array);
}
aclnnStatus aclDestroyFloatArray(const aclFloatArray* array) {
  return Destroy<nn::NnFloatArray>(__func__, array);
}
aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) {
  return Destroy<nn::NnBoolArray>(__func__, array);
}
aclnnStatus aclDestroyTensorList(const aclTensorList* array) {
  return DestroyList<nn::NnTensorList, nn::NnTensor>(__func__, array);
}
aclnnStatus aclDestroyScalarList(const aclScalarList* array) {
  return DestroyList<nn::NnScalarList, nn::NnScalar>(__func__, array);
}

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) {
  return GetDims(__func__, tensor, viewDims, viewDimsNum, 0);
}
aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims,
                               uint64_t* storageDimsNum) {
  return GetDims(__func__, tensor, storageDims, storageDimsNum, 1);
}
aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue,
                              uint64_t* stridesNum) {
  return GetDims(__func__, tensor, stridesValue, stridesNum, 2);
}

aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) {
  return api::NnCall(__func__, [&]() -> Status {
    if (offset == nullptr) return Err(StatusCode::kNullPointer, "offset is NULL");
    ACLSIM_ASSIGN_OR_RETURN(auto found, api::NnObject<nn::NnTensor>(tensor, "tensor"));
    *offset = found->offset;
    return Status::Ok();
  });
}

aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) {
  return api::NnCall(__func__, [&]() -> Status {
    if (format == nullptr) return Err(StatusCode::kNullPointer, "format is NULL");
    ACLSIM_ASSIGN_OR_RETURN(auto found, api::NnObject<nn::NnTensor>(tensor, "tensor"));
    const int raw = static_cast<int>(found->format);
    std::memcpy(format, &raw, sizeof(raw));
    return Status::Ok();
  });
}

aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) {
  return api::NnCall(__func__, [&]() -> Status {
    if (dataType == nullptr) return Err(StatusCode::kNullPointer, "dataType is NULL");
    ACLSIM_ASSIGN_OR_RETURN(auto found, api::NnObject<nn::NnTensor>(tensor, "tensor"));
    const int raw = static_cast<int>(found->dtype);
    std::memcpy(dataType, &raw, sizeof(raw));
    return Status::Ok();
  });
}

aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size) {
  return ArraySize<nn::NnIntArray, int64_t>(__func__, array, size);
}
aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size) {
  return ArraySize<nn::NnFloatArray, float>(__func__, array, size);
}
aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size) {
  return ArraySize<nn::NnBoolArray, bool>(__func__, array, size);
}
aclnnStatus aclGetTensorListSize(const aclTensorList* tensorList, uint64_t* size) {
  return ListSize<nn::NnTensorList>(__func__, tensorList, size);
}
aclnnStatus aclGetScalarListSize(const aclScalarList* scalarList, uint64_t* size) {
  return ListSize<nn::NnScalarList>(__func__, scalarList, size);
}

aclnnStatus aclInitTensor(aclTensor* tensor, const int64_t* viewDims, uint64_t viewDimsNum,
                          aclDataType dataType, const int64_t* stride, int64_t offset,
                          aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                          void* tensorDataAddr) {
  return api::NnCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto found, api::NnObject<nn::NnTensor>(tensor, "tensor"));
    if (viewDimsNum > kMaxDims || storageDimsNum > kMaxDims) {
      return Err(StatusCode::kInvalidParam, "{} view dims and {} storage dims: at most {} each",
                 viewDimsNum, storageDimsNum, kMaxDims);
    }
    Describe(found.get(), viewDims, viewDimsNum, dataType, stride, offset, format, storageDims,
             storageDimsNum, tensorDataAddr, true);
    return Status::Ok();
  });
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
  return ReuseCall(__func__, [&]() -> Status {
    if (executor == nullptr) return Status(StatusCode::kInternal, "executor is NULL");
    auto found = core::LookupHandle<nn::Executor>(executor, "executor");
    if (!found.ok()) return Status(StatusCode::kInvalidHandle, found.status().message());
    found.value()->repeatable.store(true);
    return Status::Ok();
  });
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
  return ReuseCall(__func__, [&]() -> Status {
    if (executor == nullptr) return Status(StatusCode::kInternal, "executor is NULL");
    auto found = core::RetireHandle<nn::Executor>(executor, "executor");
    if (!found.ok()) return Status(StatusCode::kInvalidParam, found.status().message());
    return Status::Ok();
  });
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                                  void* addr) {
  return ReuseCall(__func__,
                   [&] { return SetAddr("aclSetTensorAddr", executor, index, tensor, addr, 0); });
}
aclnnStatus aclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                                   void* addr) {
  return ReuseCall(__func__,
                   [&] { return SetAddr("aclSetTensorAddr", executor, index, tensor, addr, 1); });
}
aclnnStatus aclSetTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                             void* addr) {
  return ReuseCall(__func__,
                   [&] { return SetAddr("aclSetTensorAddr", executor, index, tensor, addr, 2); });
}
aclnnStatus aclSetDynamicInputTensorAddr(aclOpExecutor* executor, size_t irIndex,
                                         const size_t relativeIndex, aclTensorList* tensors,
                                         void* addr) {
  return ReuseCall(__func__,
                   [&] { return SetDynamicAddr(executor, irIndex, relativeIndex, tensors, addr); });
}
aclnnStatus aclSetDynamicOutputTensorAddr(aclOpExecutor* executor, size_t irIndex,
                                          const size_t relativeIndex, aclTensorList* tensors,
                                          void* addr) {
  return ReuseCall(__func__,
                   [&] { return SetDynamicAddr(executor, irIndex, relativeIndex, tensors, addr); });
}
aclnnStatus aclSetDynamicTensorAddr(aclOpExecutor* executor, size_t irIndex,
                                    const size_t relativeIndex, aclTensorList* tensors,
                                    void* addr) {
  return ReuseCall(__func__,
                   [&] { return SetDynamicAddr(executor, irIndex, relativeIndex, tensors, addr); });
}

aclnnStatus AclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                                  void* addr) {
  return aclSetInputTensorAddr(executor, index, tensor, addr);
}
aclnnStatus AclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                                   void* addr) {
  return aclSetOutputTensorAddr(executor, index, tensor, addr);
}
aclnnStatus AclSetDynamicInputTensorAddr(aclOpExecutor* executor, size_t irIndex,
                                         const size_t relativeIndex, aclTensorList* tensors,
                                         void* addr) {
  return aclSetDynamicInputTensorAddr(executor, irIndex, relativeIndex, tensors, addr);
}
aclnnStatus AclSetDynamicOutputTensorAddr(aclOpExecutor* executor, size_t irIndex,
                                          const size_t relativeIndex, aclTensorList* tensors,
                                          void* addr) {
  return aclSetDynamicOutputTensorAddr(executor, irIndex, relativeIndex, tensors, addr);
}
aclnnStatus AclSetTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor,
                             void* addr) {
  return aclSetTensorAddr(executor, index, tensor, addr);
}
aclnnStatus AclSetDynamicTensorAddr(aclOpExecutor* executor, size_t irIndex,
                                    const size_t relativeIndex, aclTensorList* tensors,
                                    void* addr) {
  return aclSetDynamicTensorAddr(executor, irIndex, relativeIndex, tensors, addr);
}

aclnnStatus aclSetRawTensorAddr(aclTensor* tensor, void* addr) {
  return api::NnCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto found, api::NnObject<nn::NnTensor>(tensor, "tensor"));
    found->data = addr;
    return Status::Ok();
  });
}

aclnnStatus aclGetRawTensorAddr(const aclTensor* tensor, void** addr) {
  return api::NnCall(__func__, [&]() -> Status {
    if (addr == nullptr) return Err(StatusCode::kNullPointer, "addr is NULL");
    ACLSIM_ASSIGN_OR_RETURN(auto found, api::NnObject<nn::NnTensor>(tensor, "tensor"));
    *addr = found->data;
    return Status::Ok();
  });
}

aclnnStatus aclDumpOpTensors(const char* opType, const char* opName, aclTensor** tensors,
                             size_t inputTensorNum, size_t outputTensorNum, aclrtStream stream) {
  return api::NnCall(__func__, [&]() -> Status {
    if (opType == nullptr || opName == nullptr || tensors == nullptr || stream == nullptr) {
      return Err(StatusCode::kNullPointer, "opType, opName, tensors and stream must not be NULL");
    }
    (void)inputTensorNum;
    (void)outputTensorNum;
    return Err(StatusCode::kNotSupported,
               "operator dump of aclnn tensors is not supported by aclsim yet");
  });
}

aclnnStatus aclnnInit(const char* configPath) {
  return api::NnCall(__func__, [&]() -> Status {
    if (configPath == nullptr || configPath[0] == '\0') return Status::Ok();
    std::ifstream file(configPath);
    if (!file) {
      return Err(StatusCode::kInvalidParam, "config file '{}' cannot be read", configPath);
    }
    return Status::Ok();
  });
}

aclnnStatus aclnnFinalize(void) { return ACLNN_SUCCESS; }

}  // extern "C"
