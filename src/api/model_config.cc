// acl_mdl.h: model load configuration (aclmdlConfigHandle) and execution configuration
// (aclmdlExecConfigHandle) handles.
#include <cstring>
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

// Copies an attribute value of type T after checking the caller's size.
template <typename T>
Status CopyValue(T* field, const void* value, size_t size, const char* attr) {
  if (size != sizeof(T)) {
    return Err(StatusCode::kInvalidParam, "valueSize {} does not match {} ({} bytes)", size, attr,
               sizeof(T));
  }
  std::memcpy(field, value, sizeof(T));
  return Status::Ok();
}

// A string attribute: the value is a `const char*` (its size that of a pointer).
Status CopyString(std::string* field, const void* value, size_t size, const char* attr) {
  const char* text = nullptr;
  ACLSIM_RETURN_IF_ERROR(CopyValue(&text, value, size, attr));
  if (text == nullptr) return Err(StatusCode::kInvalidParam, "{} is NULL", attr);
  *field = text;
  return Status::Ok();
}

Status SetConfig(aclmdlConfigHandle& config, int attr, const void* value, size_t size) {
  switch (attr) {
    case ACL_MDL_PRIORITY_INT32:
      return CopyValue(&config.priority, value, size, "ACL_MDL_PRIORITY_INT32");
    case ACL_MDL_LOAD_TYPE_SIZET: {
      size_t type = 0;
      ACLSIM_RETURN_IF_ERROR(CopyValue(&type, value, size, "ACL_MDL_LOAD_TYPE_SIZET"));
      if (type < ACL_MDL_LOAD_FROM_FILE || type > ACL_MDL_LOAD_FROM_MEM_WITH_Q) {
        return Err(StatusCode::kInvalidParam,
                   "ACL_MDL_LOAD_TYPE_SIZET {} is not one of ACL_MDL_LOAD_FROM_FILE (1) .. "
                   "ACL_MDL_LOAD_FROM_MEM_WITH_Q (6)",
                   type);
      }
      config.load_type = type;
      return Status::Ok();
    }
    case ACL_MDL_PATH_PTR:
      return CopyString(&config.path, value, size, "ACL_MDL_PATH_PTR");
    case ACL_MDL_WEIGHT_PATH_PTR:
      return CopyString(&config.weight_path, value, size, "ACL_MDL_WEIGHT_PATH_PTR");
    case ACL_MDL_MEM_ADDR_PTR:
      return CopyValue(&config.mem, value, size, "ACL_MDL_MEM_ADDR_PTR");
    case ACL_MDL_MEM_SIZET:
      return CopyValue(&config.mem_size, value, size, "ACL_MDL_MEM_SIZET");
    case ACL_MDL_WEIGHT_ADDR_PTR:
      return CopyValue(&config.weight, value, size, "ACL_MDL_WEIGHT_ADDR_PTR");
    case ACL_MDL_WEIGHT_SIZET:
      return CopyValue(&config.weight_size, value, size, "ACL_MDL_WEIGHT_SIZET");
    case ACL_MDL_WORKSPACE_ADDR_PTR:
      return CopyValue(&config.workspace, value, size, "ACL_MDL_WORKSPACE_ADDR_PTR");
    case ACL_MDL_WORKSPACE_SIZET:
      return CopyValue(&config.workspace_size, value, size, "ACL_MDL_WORKSPACE_SIZET");
    case ACL_MDL_INPUTQ_NUM_SIZET:
      return CopyValue(&config.input_queue_count, value, size, "ACL_MDL_INPUTQ_NUM_SIZET");
    case ACL_MDL_INPUTQ_ADDR_PTR:
      return CopyValue(&config.input_queues, value, size, "ACL_MDL_INPUTQ_ADDR_PTR");
    case ACL_MDL_OUTPUTQ_NUM_SIZET:
      return CopyValue(&config.output_queue_count, value, size, "ACL_MDL_OUTPUTQ_NUM_SIZET");
    case ACL_MDL_OUTPUTQ_ADDR_PTR:
      return CopyValue(&config.output_queues, value, size, "ACL_MDL_OUTPUTQ_ADDR_PTR");
    case ACL_MDL_WORKSPACE_MEM_OPTIMIZE:
      return CopyValue(&config.workspace_mem_optimize, value, size,
                       "ACL_MDL_WORKSPACE_MEM_OPTIMIZE");
    case ACL_MDL_MEM_MALLOC_POLICY_SIZET:
      return CopyValue(&config.mem_malloc_policy, value, size, "ACL_MDL_MEM_MALLOC_POLICY_SIZET");
    case ACL_MDL_WITHOUT_GRAPH_INT32:
      return CopyValue(&config.without_graph, value, size, "ACL_MDL_WITHOUT_GRAPH_INT32");
    case ACL_NPU_PERF_MODE:
      return CopyValue(&config.npu_perf_mode, value, size, "ACL_NPU_PERF_MODE");
    default:
      break;
  }
  if (attr >= ACL_MDL_MODEL_DESC_PTR && attr <= ACL_MDL_FIFO_SIZET) {
    return Err(StatusCode::kFeatureUnsupported,
               "aclmdlConfigAttr {} (a partition of a split offline model: model description, "
               "kernels, tasks, FIFO) is not supported by aclsim: load the whole .om",
               attr);
  }
  return Err(StatusCode::kInvalidParam, "attr {} is not an aclmdlConfigAttr", attr);
}

Status SetExecConfig(aclmdlExecConfigHandle& config, int attr, const void* value, size_t size) {
  switch (attr) {
    case ACL_MDL_STREAM_SYNC_TIMEOUT:
      return CopyValue(&config.stream_sync_timeout_ms, value, size, "ACL_MDL_STREAM_SYNC_TIMEOUT");
    case ACL_MDL_EVENT_SYNC_TIMEOUT:
      return CopyValue(&config.event_sync_timeout_ms, value, size, "ACL_MDL_EVENT_SYNC_TIMEOUT");
    case ACL_MDL_WORK_ADDR_PTR:
      return CopyValue(&config.work, value, size, "ACL_MDL_WORK_ADDR_PTR");
    case ACL_MDL_WORK_SIZET:
      return CopyValue(&config.work_size, value, size, "ACL_MDL_WORK_SIZET");
    case ACL_MDL_MPAIMID_SIZET:
      return CopyValue(&config.mpam_id, value, size, "ACL_MDL_MPAIMID_SIZET");
    case ACL_MDL_AICQOS_SIZET:
      return CopyValue(&config.aic_qos, value, size, "ACL_MDL_AICQOS_SIZET");
    case ACL_MDL_AICOST_SIZET:
      return CopyValue(&config.aic_ost, value, size, "ACL_MDL_AICOST_SIZET");
    case ACL_MDL_MEC_TIMETHR_SIZET:
      return CopyValue(&config.mec_time_threshold, value, size, "ACL_MDL_MEC_TIMETHR_SIZET");
    case ACL_MDL_EXEC_PRIORITY_INT32:
      return CopyValue(&config.priority, value, size, "ACL_MDL_EXEC_PRIORITY_INT32");
    case ACL_MDL_NPU_PERF_MODE:
      return CopyValue(&config.npu_perf_mode, value, size, "ACL_MDL_NPU_PERF_MODE");
    default:
      return Err(StatusCode::kInvalidParam, "attr {} is not an aclmdlExecConfigAttr", attr);
  }
}

}  // namespace

aclmdlConfigHandle* aclmdlCreateConfigHandle(void) {
  return api::ValueCall<aclmdlConfigHandle*>(
      __func__, nullptr, []() -> Result<aclmdlConfigHandle*> {
        return static_cast<aclmdlConfigHandle*>(
            core::PublishHandle(core::MakeHandleObject<aclmdlConfigHandle>()));
      });
}

aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle* handle) {
  return api::ApiCall(__func__, [&]() -> Status {
    return core::RetireHandle<aclmdlConfigHandle>(handle, "handle").status();
  });
}

aclError aclmdlSetConfigOpt(aclmdlConfigHandle* handle, aclmdlConfigAttr attr,
                            const void* attrValue, size_t valueSize) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto config, core::LookupHandle<aclmdlConfigHandle>(handle, "handle"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(attrValue, "attrValue"));
    const int value = api::EnumValue(attr);
    ACLSIM_RETURN_IF_ERROR(SetConfig(*config, value, attrValue, valueSize));
    if (value >= 0 && value < 64) config->set_mask |= uint64_t{1} << value;
    return Status::Ok();
  });
}

aclmdlExecConfigHandle* aclmdlCreateExecConfigHandle(void) {
  return api::ValueCall<aclmdlExecConfigHandle*>(
      __func__, nullptr, []() -> Result<aclmdlExecConfigHandle*> {
        return static_cast<aclmdlExecConfigHandle*>(
            core::PublishHandle(core::MakeHandleObject<aclmdlExecConfigHandle>()));
      });
}

aclError aclmdlDestroyExecConfigHandle(const aclmdlExecConfigHandle* handle) {
  return api::ApiCall(__func__, [&]() -> Status {
    return core::RetireHandle<aclmdlExecConfigHandle>(handle, "handle").status();
  });
}

aclError aclmdlSetExecConfigOpt(aclmdlExecConfigHandle* handle, aclmdlExecConfigAttr attr,
                                const void* attrValue, size_t valueSize) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto config,
                            core::LookupHandle<aclmdlExecConfigHandle>(handle, "handle"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(attrValue, "attrValue"));
    return SetExecConfig(*config, api::EnumValue(attr), attrValue, valueSize);
  });
}
