// acl_mdl.h: datasets (the inputs and outputs of a model execution).
#include <memory>

#include "acl/acl.h"
#include "api/api_call.h"
#include "api/model_objects.h"
#include "core/handle_table.h"

using aclsim::Err;
using aclsim::Result;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;

namespace {

Result<std::shared_ptr<aclmdlDataset>> Dataset(const aclmdlDataset* dataset) {
  return core::LookupHandle<aclmdlDataset>(dataset, "dataset");
}

Status CheckIndex(const aclmdlDataset& dataset, size_t index) {
  if (index >= dataset.blobs.size()) {
    return Err(StatusCode::kInvalidParam, "index {} is out of range: the dataset has {} buffers",
               index, dataset.blobs.size());
  }
  return Status::Ok();
}

// Destroys the dataset's own copy of a descriptor (if any).
void DropDesc(aclmdlDataset::Blob& blob) {
  if (blob.desc != nullptr) (void)core::RetireHandle<aclTensorDesc>(blob.desc, "tensorDesc");
  blob.desc = nullptr;
}

}  // namespace

aclmdlDataset* aclmdlCreateDataset(void) {
  return api::ValueCall<aclmdlDataset*>(__func__, nullptr, []() -> Result<aclmdlDataset*> {
    return static_cast<aclmdlDataset*>(
        core::PublishHandle(core::MakeHandleObject<aclmdlDataset>()));
  });
}

aclError aclmdlDestroyDataset(const aclmdlDataset* dataset) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto object, core::RetireHandle<aclmdlDataset>(dataset, "dataset"));
    for (auto& blob : object->blobs) DropDesc(blob);  // the buffers are the program's
    return Status::Ok();
  });
}

aclError aclmdlAddDatasetBuffer(aclmdlDataset* dataset, aclDataBuffer* dataBuffer) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto object, Dataset(dataset));
    ACLSIM_RETURN_IF_ERROR(core::LookupHandle<aclDataBuffer>(dataBuffer, "dataBuffer").status());
    object->blobs.push_back({dataBuffer, nullptr});
    return Status::Ok();
  });
}

aclError aclmdlSetDatasetTensorDesc(aclmdlDataset* dataset, aclTensorDesc* tensorDesc,
                                    size_t index) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto object, Dataset(dataset));
    ACLSIM_RETURN_IF_ERROR(CheckIndex(*object, index));
    aclmdlDataset::Blob& blob = object->blobs[index];
    if (tensorDesc == nullptr) {  // clears the descriptor
      DropDesc(blob);
      return Status::Ok();
    }
    ACLSIM_ASSIGN_OR_RETURN(auto desc, core::LookupHandle<aclTensorDesc>(tensorDesc, "tensorDesc"));
    auto copy = core::MakeHandleObject<aclTensorDesc>(*desc);
    DropDesc(blob);
    blob.desc = static_cast<aclTensorDesc*>(core::PublishHandle(copy));
    return Status::Ok();
  });
}

aclTensorDesc* aclmdlGetDatasetTensorDesc(const aclmdlDataset* dataset, size_t index) {
  return api::ValueCall<aclTensorDesc*>(__func__, nullptr, [&]() -> Result<aclTensorDesc*> {
    ACLSIM_ASSIGN_OR_RETURN(auto object, Dataset(dataset));
    ACLSIM_RETURN_IF_ERROR(CheckIndex(*object, index));
    return object->blobs[index].desc;  // NULL when none was set (not an error)
  });
}

size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset* dataset) {
  return api::ValueCall<size_t>(__func__, 0, [&]() -> Result<size_t> {
    ACLSIM_ASSIGN_OR_RETURN(auto object, Dataset(dataset));
    return object->blobs.size();
  });
}

aclDataBuffer* aclmdlGetDatasetBuffer(const aclmdlDataset* dataset, size_t index) {
  return api::ValueCall<aclDataBuffer*>(__func__, nullptr, [&]() -> Result<aclDataBuffer*> {
    ACLSIM_ASSIGN_OR_RETURN(auto object, Dataset(dataset));
    ACLSIM_RETURN_IF_ERROR(CheckIndex(*object, index));
    return object->blobs[index].buffer;
  });
}
