// acl_mdl.h: loading, unloading, sizing and executing graph models (core/model_runner.h).
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "api/api_call.h"
#include "api/model_io.h"
#include "api/model_objects.h"
#include "api/prof_subscribe.h"
#include "core/memory_ops.h"
#include "core/model_file.h"
#include "core/model_runner.h"
#include "core/streams.h"

using aclsim::Err;
using aclsim::Result;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;

namespace {

using ModelFilePtr = std::shared_ptr<const core::ModelFile>;

Result<ModelFilePtr> ReadFile(const char* path) {
  ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(path, "modelPath"));
  ACLSIM_ASSIGN_OR_RETURN(core::ModelFile file, core::LoadModelFile(path));
  return ModelFilePtr(std::make_shared<core::ModelFile>(std::move(file)));
}

Result<ModelFilePtr> ReadMemory(const void* model, size_t size) {
  ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(model, "model"));
  if (size == 0) return Err(StatusCode::kInvalidParam, "modelSize must be greater than 0");
  ACLSIM_ASSIGN_OR_RETURN(core::ModelFile file, core::ParseModel(model, size, "memory"));
  return ModelFilePtr(std::make_shared<core::ModelFile>(std::move(file)));
}

Status Load(const Result<ModelFilePtr>& file, uint32_t* model_id, const core::ModelMemory& memory,
            const char* api_name) {
  ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(model_id, "modelId"));
  ACLSIM_RETURN_IF_ERROR(file.status());
  ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
  ACLSIM_ASSIGN_OR_RETURN(*model_id, core::LoadModel(*runtime, file.value(), memory, api_name));
  return Status::Ok();
}

core::ModelMemory Memory(void* work, size_t work_size, void* weight, size_t weight_size) {
  core::ModelMemory memory;
  memory.work = work;
  memory.work_size = work_size;
  memory.weights = weight;
  memory.weight_size = weight_size;
  return memory;
}

Status QuerySize(const Result<ModelFilePtr>& file, size_t* work_size, size_t* weight_size) {
  ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(work_size, "workSize"));
  ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(weight_size, "weightSize"));
  ACLSIM_RETURN_IF_ERROR(file.status());
  ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
  ACLSIM_ASSIGN_OR_RETURN(auto compiled, core::CompileForCurrentDevice(*runtime, file.value()));
  *work_size = compiled->work_size;
  *weight_size = compiled->weight_size;
  return Status::Ok();
}

// One execution: binds the datasets and enqueues the model on `stream` (the model's own
// stream if null and `sync`), then waits if `sync`.
Status Execute(uint32_t model_id, const aclmdlDataset* input, aclmdlDataset* output,
               aclrtStream stream, const aclmdlExecConfigHandle* config, bool sync) {
  ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
  ACLSIM_ASSIGN_OR_RETURN(auto model, core::FindModel(model_id));
  ACLSIM_ASSIGN_OR_RETURN(api::ModelBuffers buffers, api::BindDatasets(*model, input, output));
  int32_t timeout_ms = -1;
  void* work = nullptr;
  size_t work_size = 0;
  if (config != nullptr) {
    ACLSIM_ASSIGN_OR_RETURN(auto handle,
                            core::LookupHandle<aclmdlExecConfigHandle>(config, "handle"));
    timeout_ms = handle->stream_sync_timeout_ms;
    work = handle->work;
    work_size = handle->work_size;
  }
  std::shared_ptr<core::Stream> target;
  if (stream == nullptr && sync) {
    target = model->stream();
    if (!target) return Err(StatusCode::kInvalidModelId, "model {} has no stream", model_id);
  } else {
    ACLSIM_ASSIGN_OR_RETURN(target, runtime->ResolveStream(stream, "stream"));
  }
  ACLSIM_RETURN_IF_ERROR(
      model->Execute(*target, buffers.inputs, buffers.outputs, buffers.gear, work, work_size));
  if (!sync) {
    api::prof::DeliverSubscribed(model_id, /*flush=*/false);
    return Status::Ok();
  }
  ACLSIM_RETURN_IF_ERROR(core::SyncStream(*target, timeout_ms));
  api::prof::DeliverSubscribed(model_id, /*flush=*/true);
  return api::UpdateOutputDescs(*model, output);
}

}  // namespace

aclError aclmdlLoadFromFile(const char* modelPath, uint32_t* modelId) {
  return api::ApiCall(__func__, [&]() -> Status {
    return Load(ReadFile(modelPath), modelId, {}, "aclmdlLoadFromFile");
  });
}

aclError aclmdlLoadFromMem(const void* model, size_t modelSize, uint32_t* modelId) {
  return api::ApiCall(__func__, [&]() -> Status {
    return Load(ReadMemory(model, modelSize), modelId, {}, "aclmdlLoadFromMem");
  });
}

aclError aclmdlLoadFromFileWithMem(const char* modelPath, uint32_t* modelId, void* workPtr,
                                   size_t workSize, void* weightPtr, size_t weightSize) {
  return api::ApiCall(__func__, [&]() -> Status {
    return Load(ReadFile(modelPath), modelId, Memory(workPtr, workSize, weightPtr, weightSize),
                "aclmdlLoadFromFileWithMem");
  });
}

aclError aclmdlLoadFromMemWithMem(const void* model, size_t modelSize, uint32_t* modelId,
                                  void* workPtr, size_t workSize, void* weightPtr,
                                  size_t weightSize) {
  return api::ApiCall(__func__, [&]() -> Status {
    return Load(ReadMemory(model, modelSize), modelId,
                Memory(workPtr, workSize, weightPtr, weightSize), "aclmdlLoadFromMemWithMem");
  });
}

aclError aclmdlLoadWithConfig(const aclmdlConfigHandle* handle, uint32_t* modelId) {
  static constexpr const char* kApi = "aclmdlLoadWithConfig";  // leak reports
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(modelId, "modelId"));
    ACLSIM_ASSIGN_OR_RETURN(auto config, core::LookupHandle<aclmdlConfigHandle>(handle, "handle"));
    const core::ModelMemory memory =
        Memory(config->workspace, config->workspace_size, config->weight, config->weight_size);
    switch (config->load_type) {
      case ACL_MDL_LOAD_FROM_FILE:
        return Load(ReadFile(config->path.c_str()), modelId, {}, kApi);
      case ACL_MDL_LOAD_FROM_FILE_WITH_MEM:
        return Load(ReadFile(config->path.c_str()), modelId, memory, kApi);
      case ACL_MDL_LOAD_FROM_MEM:
        return Load(ReadMemory(config->mem, config->mem_size), modelId, {}, kApi);
      case ACL_MDL_LOAD_FROM_MEM_WITH_MEM:
        return Load(ReadMemory(config->mem, config->mem_size), modelId, memory, kApi);
      case ACL_MDL_LOAD_FROM_FILE_WITH_Q:
      case ACL_MDL_LOAD_FROM_MEM_WITH_Q:
        return Err(StatusCode::kFeatureUnsupported,
                   "loading with input/output queues (load type {}) is not supported",
                   config->load_type);
      default:
        return Err(StatusCode::kInvalidParam,
                   "the config handle has no load type (aclmdlSetConfigOpt "
                   "ACL_MDL_LOAD_TYPE_SIZET) or an unknown one ({})",
                   config->load_type);
    }
  });
}

aclError aclmdlUnload(uint32_t modelId) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
    return core::UnloadModel(*runtime, modelId);
  });
}

aclError aclmdlQuerySize(const char* fileName, size_t* workSize, size_t* weightSize) {
  return api::ApiCall(
      __func__, [&]() -> Status { return QuerySize(ReadFile(fileName), workSize, weightSize); });
}

aclError aclmdlQuerySizeFromMem(const void* model, size_t modelSize, size_t* workSize,
                                size_t* weightSize) {
  return api::ApiCall(__func__, [&]() -> Status {
    return QuerySize(ReadMemory(model, modelSize), workSize, weightSize);
  });
}

aclError aclmdlQueryExeOMDesc(const char* fileName, aclmdlExeOMDesc* mdlPartitionSize) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(mdlPartitionSize, "mdlPartitionSize"));
    aclmdlExeOMDesc desc = {};
    ACLSIM_RETURN_IF_ERROR(QuerySize(ReadFile(fileName), &desc.workSize, &desc.weightSize));
    *mdlPartitionSize = desc;  // no separate kernel / task partitions in our container
    return Status::Ok();
  });
}

aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output) {
  return api::ApiCall(__func__, [&]() -> Status {
    return Execute(modelId, input, output, nullptr, nullptr, /*sync=*/true);
  });
}

aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output,
                            aclrtStream stream) {
  return api::ApiCall(__func__, [&]() -> Status {
    return Execute(modelId, input, output, stream, nullptr, /*sync=*/false);
  });
}

aclError aclmdlExecuteV2(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output,
                         aclrtStream stream, const aclmdlExecConfigHandle* handle) {
  return api::ApiCall(__func__, [&]() -> Status {
    return Execute(modelId, input, output, stream, handle, /*sync=*/true);
  });
}

aclError aclmdlExecuteAsyncV2(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output,
                              aclrtStream stream, const aclmdlExecConfigHandle* handle) {
  return api::ApiCall(__func__, [&]() -> Status {
    return Execute(modelId, input, output, stream, handle, /*sync=*/false);
  });
}

aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                                   uint64_t batchSize) {
  return api::ApiCall(__func__, [&]() -> Status {
    const int64_t values[] = {static_cast<int64_t>(batchSize)};
    return api::SelectGear(modelId, dataset, index, core::GearKind::kBatch, values, 1);
  });
}

aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                                uint64_t height, uint64_t width) {
  return api::ApiCall(__func__, [&]() -> Status {
    const int64_t values[] = {static_cast<int64_t>(height), static_cast<int64_t>(width)};
    return api::SelectGear(modelId, dataset, index, core::GearKind::kImageSize, values, 2);
  });
}

aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                                   const aclmdlIODims* dims) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(dims, "dims"));
    if (dims->dimCount > ACL_MAX_DIM_CNT) {
      return Err(StatusCode::kInvalidParam, "dims->dimCount {} exceeds ACL_MAX_DIM_CNT ({})",
                 dims->dimCount, ACL_MAX_DIM_CNT);
    }
    return api::SelectGear(modelId, dataset, index, core::GearKind::kDims, dims->dims,
                           dims->dimCount);
  });
}
