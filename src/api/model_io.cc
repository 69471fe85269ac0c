// Model inputs and outputs as the aclmdl API shows them (api/model_io.h).
#include "api/model_io.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>
#include <string>

#include "api/api_call.h"
#include "core/memory_ops.h"

namespace aclsim::api {

namespace {

const core::ModelFile& FileOf(const core::CompiledModel& model) { return *model.file; }

size_t GearWidth(const core::CompiledModel& model) {
  const auto& gears = FileOf(model).gears.gears;
  return gears.empty() ? 0 : gears.front().size();
}

const char* GearKindName(core::GearKind kind) {
  switch (kind) {
    case core::GearKind::kBatch:
      return "dynamic batch sizes (aclmdlSetDynamicBatchSize)";
    case core::GearKind::kImageSize:
      return "dynamic image sizes (aclmdlSetDynamicHWSize)";
    case core::GearKind::kDims:
      return "dynamic dims (aclmdlSetInputDynamicDims)";
    case core::GearKind::kNone:
      break;
  }
  return "no dynamic gears";
}

Result<std::vector<core::OpBuffer>> Buffers(const aclmdlDataset* dataset, const char* what) {
  ACLSIM_ASSIGN_OR_RETURN(auto object, core::LookupHandle<aclmdlDataset>(dataset, what));
  std::vector<core::OpBuffer> buffers;
  buffers.reserve(object->blobs.size());
  for (size_t i = 0; i < object->blobs.size(); ++i) {
    auto buffer = core::LookupHandle<aclDataBuffer>(object->blobs[i].buffer, "dataBuffer");
    if (!buffer.ok()) {
      return Err(StatusCode::kInvalidParam, "{} buffer {}: {}", what, i, buffer.status().message());
    }
    buffers.push_back({buffer.value()->data, buffer.value()->size, false});
  }
  return buffers;
}

}  // namespace

size_t ModelInputCount(const core::CompiledModel& model) {
  const auto& file = FileOf(model);
  return file.inputs.size() + (file.gears.gears.empty() ? 0 : 1);
}

bool IsGearInput(const core::CompiledModel& model, size_t index) {
  const auto& file = FileOf(model);
  return !file.gears.gears.empty() && index == file.inputs.size();
}

ops::TensorDesc ModelInputDesc(const core::CompiledModel& model, size_t index, size_t gear) {
  if (!IsGearInput(model, index)) return model.InputDesc(index, gear);
  ops::TensorDesc desc;
  desc.dtype = ops::DataType::kInt64;
  desc.format = ops::Format::kNd;
  desc.dims = {static_cast<int64_t>(GearWidth(model))};
  desc.name = ACL_DYNAMIC_TENSOR_NAME;
  return desc;
}

Result<ModelBuffers> BindDatasets(const core::LoadedModel& model, const aclmdlDataset* input,
                                  const aclmdlDataset* output) {
  const core::CompiledModel& compiled = model.compiled();
  const core::ModelFile& file = model.file();
  ModelBuffers bound;
  ACLSIM_ASSIGN_OR_RETURN(bound.inputs, Buffers(input, "input"));
  ACLSIM_ASSIGN_OR_RETURN(bound.outputs, Buffers(output, "output"));
  const size_t expected = ModelInputCount(compiled);
  if (bound.inputs.size() != expected) {
    return Err(StatusCode::kModelInputNotMatch,
               "model {} (id {}) has {} inputs{} but the input dataset has {} buffers", file.name,
               model.id(), expected,
               file.gears.gears.empty() ? "" : " (the last is " ACL_DYNAMIC_TENSOR_NAME ")",
               bound.inputs.size());
  }
  if (!file.gears.gears.empty()) {
    bound.inputs.pop_back();
    ACLSIM_ASSIGN_OR_RETURN(auto dataset, core::LookupHandle<aclmdlDataset>(input, "input"));
    if (dataset->gear < 0) {
      return Err(StatusCode::kInvalidParam,
                 "model {} (id {}) has {}: select one on the input dataset before executing",
                 file.name, model.id(), GearKindName(file.gears.kind));
    }
    bound.gear = static_cast<size_t>(dataset->gear);
  }
  return bound;
}

Status UpdateOutputDescs(core::LoadedModel& model, aclmdlDataset* output) {
  const core::CompiledModel& compiled = model.compiled();
  if (compiled.gears.size() <= 1 && !compiled.dynamic_shapes) return Status::Ok();
  ACLSIM_ASSIGN_OR_RETURN(auto dataset, core::LookupHandle<aclmdlDataset>(output, "output"));
  for (size_t o = 0; o < dataset->blobs.size() && o < model.file().outputs.size(); ++o) {
    auto& blob = dataset->blobs[o];
    auto desc = core::MakeHandleObject<aclTensorDesc>();
    desc->desc = model.CurrentOutputDesc(o);
    if (blob.desc != nullptr) (void)core::RetireHandle<aclTensorDesc>(blob.desc, "tensorDesc");
    blob.desc = static_cast<aclTensorDesc*>(core::PublishHandle(desc));
  }
  return Status::Ok();
}

std::vector<int64_t> GearFullDims(const core::CompiledModel& model, size_t gear) {
  std::vector<int64_t> dims;
  for (size_t i = 0; i < FileOf(model).inputs.size(); ++i) {
    const auto& input = model.InputDesc(i, gear).dims;
    dims.insert(dims.end(), input.begin(), input.end());
  }
  return dims;
}

Status SelectGear(uint32_t model_id, aclmdlDataset* dataset, size_t index, core::GearKind kind,
                  const int64_t* values, size_t count) {
  ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
  ACLSIM_ASSIGN_OR_RETURN(auto model, core::FindModel(model_id));
  ACLSIM_ASSIGN_OR_RETURN(auto object, core::LookupHandle<aclmdlDataset>(dataset, "dataset"));
  const core::CompiledModel& compiled = model->compiled();
  const core::ModelFile& file = model->file();
  if (file.gears.kind != kind) {
    return Err(StatusCode::kModelNotDynamic, "model {} (id {}) has {}, not {}", file.name, model_id,
               GearKindName(file.gears.kind), GearKindName(kind));
  }
  if (!IsGearInput(compiled, index)) {
    return Err(StatusCode::kInvalidParam,
               "index {} is not the model's " ACL_DYNAMIC_TENSOR_NAME
               " input (index {}; aclmdlGetInputIndexByName finds it)",
               index, file.inputs.size());
  }
  if (index >= object->blobs.size()) {
    return Err(StatusCode::kInvalidParam,
               "the dataset has {} buffers: add one for the " ACL_DYNAMIC_TENSOR_NAME
               " input (index {}) first",
               object->blobs.size(), index);
  }
  const std::vector<int64_t> given(values, values + count);
  int64_t found = -1;
  for (size_t g = 0; g < file.gears.gears.size() && found < 0; ++g) {
    if (file.gears.gears[g] == given ||
        (kind == core::GearKind::kDims && count != 0 && GearFullDims(compiled, g) == given)) {
      found = static_cast<int64_t>(g);
    }
  }
  if (found < 0) {
    std::vector<std::string> gears;
    for (const auto& gear : file.gears.gears)
      gears.push_back(fmt::format("{}", fmt::join(gear, ",")));
    return Err(StatusCode::kInvalidParam, "model {} (id {}) has no gear [{}]; its gears: {}",
               file.name, model_id, fmt::join(given, ","), fmt::join(gears, "; "));
  }
  const auto& gear = file.gears.gears[static_cast<size_t>(found)];
  ACLSIM_ASSIGN_OR_RETURN(
      auto buffer, core::LookupHandle<aclDataBuffer>(object->blobs[index].buffer, "dataBuffer"));
  const size_t bytes = gear.size() * sizeof(int64_t);
  if (buffer->data == nullptr || buffer->size < bytes) {
    return Err(StatusCode::kInvalidParam,
               "the " ACL_DYNAMIC_TENSOR_NAME " buffer holds {} bytes at {}; it needs {} bytes",
               buffer->size, buffer->data, bytes);
  }
  ACLSIM_RETURN_IF_ERROR(core::Memcpy(*runtime, buffer->data, buffer->size, gear.data(), bytes,
                                      core::CopyKind::kHostToDevice));
  object->gear = found;
  return Status::Ok();
}

}  // namespace aclsim::api
