// The inputs and outputs of a model as the aclmdl API shows them, shared by the load/execute
// shims (model.cc) and the descriptor queries (model_desc.cc).
//
// A model with dynamic gears (atc --dynamic_batch_size / --dynamic_image_size /
// --dynamic_dims) has one input more than its graph, as in CANN: the last input, named
// ACL_DYNAMIC_TENSOR_NAME ("ascend_mbatch_shape_data"), INT64, ND, one element per value of
// a gear (1 for a batch, 2 for an image size, one per dynamic dim). The program adds a buffer
// for it to the input dataset; aclmdlSetDynamicBatchSize / SetDynamicHWSize /
// SetInputDynamicDims write the selected gear's values there and record the gear on the
// dataset, which selects the gear of the execution.
//
// Thread-safety: as the objects they read (datasets: not modified concurrently by the
// program).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "api/model_objects.h"
#include "common/status.h"
#include "core/model_runner.h"

namespace aclsim::api {

// Inputs the API shows: the graph's, plus the gear input of a dynamic model.
size_t ModelInputCount(const core::CompiledModel& model);
// True if `index` is the gear input.
bool IsGearInput(const core::CompiledModel& model, size_t index);
// The descriptor of API input `index` (< ModelInputCount) under `gear`; the gear input's is
// INT64 ND {values per gear}.
ops::TensorDesc ModelInputDesc(const core::CompiledModel& model, size_t index, size_t gear);

struct ModelBuffers {
  std::vector<core::OpBuffer> inputs;  // the graph's inputs (the gear input left out)
  std::vector<core::OpBuffer> outputs;
  size_t gear = 0;
};

// The buffers of an execution, and its gear (a dynamic model's input dataset must have had
// a gear selected). Errors: kInvalidParam (NULL or destroyed datasets or buffers, no gear
// selected), kModelInputNotMatch / kModelOutputNotMatch (buffer counts).
Result<ModelBuffers> BindDatasets(const core::LoadedModel& model, const aclmdlDataset* input,
                                  const aclmdlDataset* output);

// After a synchronous execution of a model with gears or dynamic shapes: gives each output
// buffer of `output` a tensor descriptor with the dims it received (aclmdlGetDatasetTensorDesc).
Status UpdateOutputDescs(core::LoadedModel& model, aclmdlDataset* output);

// aclmdlSetDynamicBatchSize / SetDynamicHWSize / SetInputDynamicDims: finds the model's gear
// of `kind` with `values` (for kDims: the gear's values, one per dynamic dim, or the full
// dims of every input concatenated, as aclmdlGetInputDynamicDims gives them), writes its
// values to the gear input's buffer at `index` and selects it on `dataset`.
Status SelectGear(uint32_t model_id, aclmdlDataset* dataset, size_t index, core::GearKind kind,
                  const int64_t* values, size_t count);

// The full dims of every graph input under `gear`, concatenated (aclmdlGetInputDynamicDims).
std::vector<int64_t> GearFullDims(const core::CompiledModel& model, size_t gear);

}  // namespace aclsim::api
