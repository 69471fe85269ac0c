// The objects behind aclmdlDataset*, aclmdlDesc*, aclmdlConfigHandle* and
// aclmdlExecConfigHandle*.
//
// A dataset lists the program's data buffers (it does not own them: aclmdlDestroyDataset
// leaves them alone) and, per buffer, an optional tensor descriptor that the dataset owns: a
// copy of the one given to aclmdlSetDatasetTensorDesc, destroyed with the dataset (as in
// CANN, where the dataset keeps its own descriptor and aclmdlGetDatasetTensorDesc returns it).
//
// Thread-safety: as in CANN, the program must not modify an object while another thread uses
// it; lookups are thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "api/op_objects.h"
#include "core/handle_table.h"
#include "core/model_runner.h"

struct aclmdlDataset {
  static constexpr aclsim::core::HandleKind kHandleKind = aclsim::core::HandleKind::kDataset;
  struct Blob {
    aclDataBuffer* buffer = nullptr;  // the program's
    aclTensorDesc* desc = nullptr;    // the dataset's own (a published handle), or null
  };
  std::vector<Blob> blobs;
  // The gear aclmdlSetDynamicBatchSize / SetDynamicHWSize / SetInputDynamicDims selected on
  // this (input) dataset: an index into the model's gears; -1 = none yet.
  int64_t gear = -1;
};

// What aclmdlGetDesc / GetDescFromFile / GetDescFromMem filled in. A descriptor of a loaded
// model (model_id != 0) reports the current output dims of that model's latest execution.
struct aclmdlDesc {
  static constexpr aclsim::core::HandleKind kHandleKind = aclsim::core::HandleKind::kModelDesc;
  uint32_t model_id = 0;
  std::shared_ptr<const aclsim::core::CompiledModel> compiled;  // null until filled
  std::weak_ptr<aclsim::core::LoadedModel> model;
  // Strings returned by aclmdlGetOpAttr ("<op>\n<attr>" -> value), valid while the
  // descriptor lives.
  std::map<std::string, std::string> op_attrs;
};

// aclmdlSetConfigOpt values (what aclmdlLoadWithConfig loads, and how).
struct aclmdlConfigHandle {
  static constexpr aclsim::core::HandleKind kHandleKind = aclsim::core::HandleKind::kModelConfig;
  int32_t priority = 0;
  size_t load_type = 0;  // ACL_MDL_LOAD_FROM_*; 0 = not set
  std::string path;      // ACL_MDL_PATH_PTR (copied)
  std::string weight_path;
  const void* mem = nullptr;  // ACL_MDL_MEM_ADDR_PTR: the model bytes
  size_t mem_size = 0;
  void* weight = nullptr;
  size_t weight_size = 0;
  void* workspace = nullptr;
  size_t workspace_size = 0;
  const uint32_t* input_queues = nullptr;
  size_t input_queue_count = 0;
  const uint32_t* output_queues = nullptr;
  size_t output_queue_count = 0;
  size_t workspace_mem_optimize = 0;
  size_t mem_malloc_policy = 0;
  int32_t without_graph = 0;
  int32_t npu_perf_mode = 0;
  // Attributes set so far (bit = aclmdlConfigAttr value), for the load's checks.
  uint64_t set_mask = 0;
};

// aclmdlSetExecConfigOpt values (per-execution settings of aclmdlExecuteV2 / AsyncV2).
struct aclmdlExecConfigHandle {
  static constexpr aclsim::core::HandleKind kHandleKind =
      aclsim::core::HandleKind::kModelExecConfig;
  int32_t stream_sync_timeout_ms = -1;
  int32_t event_sync_timeout_ms = -1;
  void* work = nullptr;
  size_t work_size = 0;
  size_t mpam_id = 0;
  size_t aic_qos = 0;
  size_t aic_ost = 0;
  size_t mec_time_threshold = 0;
  int32_t priority = 0;
  int32_t npu_perf_mode = 0;
};
