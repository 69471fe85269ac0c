// acl_base_mdl.h: tensor descriptors.
#include <cstdint>
#include <cstring>
#include <limits>

#include "acl/acl.h"
#include "api/api_call.h"
#include "api/op_objects.h"
#include "ops/formats.h"

using aclsim::Err;
using aclsim::Result;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;
namespace ops = aclsim::ops;

namespace {

constexpr int kMaxDims = ACL_MAX_DIM_CNT;

Result<std::vector<int64_t>> ReadDims(int num_dims, const int64_t* dims, bool* unknown_rank) {
  *unknown_rank = false;
  if (num_dims < 0 || num_dims > kMaxDims) {
    return Err(StatusCode::kInvalidParam, "numDims {} is out of range [0, {}]", num_dims, kMaxDims);
  }
  if (num_dims > 0 && dims == nullptr) {
    return Err(StatusCode::kInvalidParam, "dims is NULL but numDims is {}", num_dims);
  }
  std::vector<int64_t> out(dims, dims + num_dims);
  for (int i = 0; i < num_dims; ++i) {
    if (out[i] == ops::kUnknownRank && num_dims == 1) {
      *unknown_rank = true;
    } else if (out[i] < ops::kUnknownDim) {
      return Err(StatusCode::kInvalidParam,
                 "dims[{}] is {}; a dim is >= 0, -1 (unknown) or -2 alone (unknown rank)", i,
                 out[i]);
    }
  }
  return out;
}

// kInvalidParam when `dims` of `dtype` exceed the limit of one tensor (ops::CheckTensorSize).
Status CheckSize(const std::vector<int64_t>& dims, ops::DataType dtype, const char* what) {
  ops::TensorDesc probe;
  probe.dtype = dtype;
  probe.dims = dims;
  return ops::CheckTensorSize(probe, what);
}

Status CheckFormat(const aclFormat& format, const char* what) {
  const int value = api::EnumValue(format);
  if (!ops::IsKnownFormat(value)) {
    return Err(StatusCode::kInvalidParam, "{} {} is not an aclFormat", what, value);
  }
  return Status::Ok();
}

Result<std::shared_ptr<aclTensorDesc>> Lookup(const aclTensorDesc* desc) {
  return core::LookupHandle<aclTensorDesc>(desc, "tensorDesc");
}

}  // namespace

aclTensorDesc* aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t* dims,
                                   aclFormat format) {
  return api::ValueCall<aclTensorDesc*>(__func__, nullptr, [&]() -> Result<aclTensorDesc*> {
    const int dtype = api::EnumValue(dataType);
    if (!ops::IsKnownDataType(dtype)) {
      return Err(StatusCode::kInvalidParam, "dataType {} is not an aclDataType", dtype);
    }
    ACLSIM_RETURN_IF_ERROR(CheckFormat(format, "format"));
    bool unknown_rank = false;
    ACLSIM_ASSIGN_OR_RETURN(auto shape, ReadDims(numDims, dims, &unknown_rank));
    ACLSIM_RETURN_IF_ERROR(CheckSize(shape, static_cast<ops::DataType>(dtype), "the tensor's"));
    auto desc = core::MakeHandleObject<aclTensorDesc>();
    desc->desc.dtype = static_cast<ops::DataType>(dtype);
    desc->desc.format = static_cast<ops::Format>(api::EnumValue(format));
    desc->desc.dims = std::move(shape);
    desc->unknown_rank = unknown_rank;
    return static_cast<aclTensorDesc*>(core::PublishHandle(desc));
  });
}

void aclDestroyTensorDesc(const aclTensorDesc* tensorDesc) {
  (void)api::ApiCall(__func__, [&]() -> Status {
    if (tensorDesc == nullptr) return Status::Ok();  // as free(NULL)
    return core::RetireHandle<aclTensorDesc>(tensorDesc, "tensorDesc").status();
  });
}

aclError aclSetTensorShapeRange(aclTensorDesc* tensorDesc, size_t dimsCount,
                                int64_t dimsRange[][ACL_TENSOR_SHAPE_RANGE_NUM]) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    if (dimsCount > 0 && dimsRange == nullptr) {
      return Err(StatusCode::kInvalidParam, "dimsRange is NULL but dimsCount is {}", dimsCount);
    }
    if (dimsCount > kMaxDims) {
      return Err(StatusCode::kInvalidParam, "dimsCount {} exceeds {}", dimsCount, kMaxDims);
    }
    std::vector<std::pair<int64_t, int64_t>> range;
    for (size_t i = 0; i < dimsCount; ++i) {
      const int64_t lo = dimsRange[i][0];
      const int64_t hi = dimsRange[i][1];
      if (lo < 0 || (hi != -1 && hi < lo)) {
        return Err(StatusCode::kInvalidParam,
                   "dimsRange[{}] = [{}, {}]: the minimum must be >= 0 and the maximum >= the "
                   "minimum (or -1 for unbounded)",
                   i, lo, hi);
      }
      range.emplace_back(lo, hi);
    }
    desc->desc.shape_range = std::move(range);
    return Status::Ok();
  });
}

aclError aclSetTensorValueRange(aclTensorDesc* tensorDesc, size_t valueCount,
                                int64_t valueRange[][ACL_TENSOR_VALUE_RANGE_NUM]) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    if (valueCount > 0 && valueRange == nullptr) {
      return Err(StatusCode::kInvalidParam, "valueRange is NULL but valueCount is {}", valueCount);
    }
    // One range per element: a count past the elements of a known shape cannot describe an
    // array the caller owns (an absurd count would read far past it).
    if (desc->desc.shape_known() && valueCount > static_cast<size_t>(desc->desc.ElementCount())) {
      return Err(StatusCode::kInvalidParam, "valueCount {} exceeds the {} elements of the tensor",
                 valueCount, desc->desc.ElementCount());
    }
    std::vector<std::pair<int64_t, int64_t>> range;
    for (size_t i = 0; i < valueCount; ++i) range.emplace_back(valueRange[i][0], valueRange[i][1]);
    desc->value_range = std::move(range);
    return Status::Ok();
  });
}

aclDataType aclGetTensorDescType(const aclTensorDesc* tensorDesc) {
  return api::ValueCall<aclDataType>(__func__, ACL_DT_UNDEFINED, [&]() -> Result<aclDataType> {
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    return static_cast<aclDataType>(desc->desc.dtype);
  });
}

aclFormat aclGetTensorDescFormat(const aclTensorDesc* tensorDesc) {
  return api::ValueCall<aclFormat>(__func__, ACL_FORMAT_UNDEFINED, [&]() -> Result<aclFormat> {
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    return static_cast<aclFormat>(desc->desc.format);
  });
}

size_t aclGetTensorDescSize(const aclTensorDesc* tensorDesc) {
  return api::ValueCall<size_t>(__func__, 0, [&]() -> Result<size_t> {
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    return desc->desc.ByteSize();
  });
}

size_t aclGetTensorDescElementCount(const aclTensorDesc* tensorDesc) {
  return api::ValueCall<size_t>(__func__, 0, [&]() -> Result<size_t> {
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    return static_cast<size_t>(desc->desc.ElementCount());
  });
}

size_t aclGetTensorDescNumDims(const aclTensorDesc* tensorDesc) {
  return api::ValueCall<size_t>(__func__, 0, [&]() -> Result<size_t> {
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    if (desc->unknown_rank) return static_cast<size_t>(ACL_UNKNOWN_RANK);
    return desc->desc.dims.size();
  });
}

int64_t aclGetTensorDescDim(const aclTensorDesc* tensorDesc, size_t index) {
  return api::ValueCall<int64_t>(__func__, -1, [&]() -> Result<int64_t> {
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    if (index >= desc->desc.dims.size()) {
      return Err(StatusCode::kInvalidParam, "index {} is out of range: the tensor has {} dims",
                 index, desc->desc.dims.size());
    }
    return desc->desc.dims[index];
  });
}

aclError aclGetTensorDescDimV2(const aclTensorDesc* tensorDesc, size_t index, int64_t* dimSize) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(dimSize, "dimSize"));
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    if (index >= desc->desc.dims.size()) {
      return Err(StatusCode::kInvalidParam, "index {} is out of range: the tensor has {} dims",
                 index, desc->desc.dims.size());
    }
    *dimSize = desc->desc.dims[index];
    return Status::Ok();
  });
}

aclError aclGetTensorDescDimRange(const aclTensorDesc* tensorDesc, size_t index, size_t dimRangeNum,
                                  int64_t* dimRange) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(dimRange, "dimRange"));
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    if (dimRangeNum < ACL_TENSOR_SHAPE_RANGE_NUM) {
      return Err(StatusCode::kInvalidParam, "dimRangeNum {} is less than {}", dimRangeNum,
                 ACL_TENSOR_SHAPE_RANGE_NUM);
    }
    const auto& range = desc->desc.shape_range;
    if (index < range.size()) {
      dimRange[0] = range[index].first;
      dimRange[1] = range[index].second;
      return Status::Ok();
    }
    if (index < desc->desc.dims.size() && desc->desc.dims[index] >= 0) {
      dimRange[0] = dimRange[1] = desc->desc.dims[index];  // a known dim is its own range
      return Status::Ok();
    }
    return Err(StatusCode::kInvalidParam,
               "dim {} has no range (the tensor has {} dims, {} "
               "ranges set)",
               index, desc->desc.dims.size(), range.size());
  });
}

void aclSetTensorDescName(aclTensorDesc* tensorDesc, const char* name) {
  (void)api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    desc->desc.name = name == nullptr ? "" : name;
    return Status::Ok();
  });
}

const char* aclGetTensorDescName(aclTensorDesc* tensorDesc) {
  return api::ValueCall<const char*>(__func__, nullptr, [&]() -> Result<const char*> {
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    return desc->desc.name.c_str();
  });
}

aclError aclTransTensorDescFormat(const aclTensorDesc* srcDesc, aclFormat dstFormat,
                                  aclTensorDesc** dstDesc) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(dstDesc, "dstDesc"));
    ACLSIM_ASSIGN_OR_RETURN(auto src, core::LookupHandle<aclTensorDesc>(srcDesc, "srcDesc"));
    ACLSIM_RETURN_IF_ERROR(CheckFormat(dstFormat, "dstFormat"));
    const auto format = static_cast<ops::Format>(api::EnumValue(dstFormat));
    ACLSIM_ASSIGN_OR_RETURN(
        auto storage, ops::StorageDims(src->desc.format, src->desc.dims, src->desc.dtype, format));
    auto dst = core::MakeHandleObject<aclTensorDesc>(*src);
    dst->desc.storage_format = format;
    dst->desc.storage_dims = std::move(storage);
    *dstDesc = static_cast<aclTensorDesc*>(core::PublishHandle(dst));
    return Status::Ok();
  });
}

namespace {

aclError SetStorageFormat(const char* api_name, aclTensorDesc* tensorDesc,
                          const aclFormat& format) {
  return api::ApiCall(api_name, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    ACLSIM_RETURN_IF_ERROR(CheckFormat(format, "format"));
    desc->desc.storage_format = static_cast<ops::Format>(api::EnumValue(format));
    return Status::Ok();
  });
}

aclError SetStorageShape(const char* api_name, aclTensorDesc* tensorDesc, int numDims,
                         const int64_t* dims) {
  return api::ApiCall(api_name, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    bool unknown_rank = false;
    ACLSIM_ASSIGN_OR_RETURN(auto shape, ReadDims(numDims, dims, &unknown_rank));
    ACLSIM_RETURN_IF_ERROR(CheckSize(shape, desc->desc.dtype, "the tensor's storage"));
    desc->desc.storage_dims = std::move(shape);
    return Status::Ok();
  });
}

}  // namespace

aclError aclSetTensorStorageFormat(aclTensorDesc* tensorDesc, aclFormat format) {
  return SetStorageFormat(__func__, tensorDesc, format);
}

aclError aclSetTensorStorageShape(aclTensorDesc* tensorDesc, int numDims, const int64_t* dims) {
  return SetStorageShape(__func__, tensorDesc, numDims, dims);
}

aclError aclSetTensorFormat(aclTensorDesc* tensorDesc, aclFormat format) {
  return SetStorageFormat(__func__, tensorDesc, format);
}

aclError aclSetTensorShape(aclTensorDesc* tensorDesc, int numDims, const int64_t* dims) {
  return SetStorageShape(__func__, tensorDesc, numDims, dims);
}

aclError aclSetTensorOriginFormat(aclTensorDesc* tensorDesc, aclFormat format) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    ACLSIM_RETURN_IF_ERROR(CheckFormat(format, "format"));
    desc->desc.format = static_cast<ops::Format>(api::EnumValue(format));
    return Status::Ok();
  });
}

aclError aclSetTensorOriginShape(aclTensorDesc* tensorDesc, int numDims, const int64_t* dims) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    bool unknown_rank = false;
    ACLSIM_ASSIGN_OR_RETURN(auto shape, ReadDims(numDims, dims, &unknown_rank));
    ACLSIM_RETURN_IF_ERROR(CheckSize(shape, desc->desc.dtype, "the tensor's origin"));
    desc->desc.dims = std::move(shape);
    desc->unknown_rank = unknown_rank;
    return Status::Ok();
  });
}

aclTensorDesc* aclGetTensorDescByIndex(aclTensorDesc* tensorDesc, size_t index) {
  return api::ValueCall<aclTensorDesc*>(__func__, nullptr, [&]() -> Result<aclTensorDesc*> {
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    // Descriptor arrays are only produced by aclmdlCreateAndGetOpDesc (not supported yet);
    // a single descriptor is an array of one.
    if (index != 0) {
      return Err(StatusCode::kInvalidParam,
                 "index {} is out of range: the descriptor is not part of an array", index);
    }
    return tensorDesc;
  });
}

void* aclGetTensorDescAddress(const aclTensorDesc* tensorDesc) {
  return api::ValueCall<void*>(__func__, nullptr, [&]() -> Result<void*> {
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    return desc->address;
  });
}

aclError aclSetTensorDynamicInput(aclTensorDesc* tensorDesc, const char* dynamicInputName) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(dynamicInputName, "dynamicInputName"));
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    desc->dynamic_input = dynamicInputName;
    return Status::Ok();
  });
}

aclError aclSetTensorConst(aclTensorDesc* tensorDesc, void* dataBuffer, size_t length) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(dataBuffer, "dataBuffer"));
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    if (length == 0) return Err(StatusCode::kInvalidParam, "length is 0");
    const size_t need = desc->desc.ByteSize();
    if (desc->desc.shape_known() && need != 0 && length < need) {
      return Err(StatusCode::kInvalidParam,
                 "length {} is less than the {} bytes the descriptor describes", length, need);
    }
    if (reinterpret_cast<uintptr_t>(dataBuffer) > UINTPTR_MAX - length) {
      return Err(StatusCode::kInvalidParam,
                 "length {} runs past the end of the address space from dataBuffer {}", length,
                 dataBuffer);
    }
    const auto* bytes = static_cast<const uint8_t*>(dataBuffer);
    desc->desc.value = std::vector<uint8_t>(bytes, bytes + length);
    return Status::Ok();
  });
}

aclError aclSetTensorPlaceMent(aclTensorDesc* tensorDesc, aclMemType memType) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto desc, Lookup(tensorDesc));
    const int value = api::EnumValue(memType);
    if (value < ACL_MEMTYPE_DEVICE || value > ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT) {
      return Err(StatusCode::kInvalidParam, "memType {} is not an aclMemType", value);
    }
    desc->placement = static_cast<aclMemType>(value);
    return Status::Ok();
  });
}
