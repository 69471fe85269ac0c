// acl_mdl.h: model descriptors (aclmdlDesc) and the queries on them.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "acl/acl.h"
#include "api/api_call.h"
#include "api/model_io.h"
#include "api/model_objects.h"
#include "core/model_file.h"
#include "core/model_runner.h"

using aclsim::Err;
using aclsim::Result;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;
namespace ops = aclsim::ops;

namespace {

using Compiled = std::shared_ptr<const core::CompiledModel>;

// The compiled model a filled descriptor describes.
Result<Compiled> Described(const aclmdlDesc* desc) {
  ACLSIM_ASSIGN_OR_RETURN(auto object, core::LookupHandle<aclmdlDesc>(desc, "modelDesc"));
  if (!object->compiled) {
    return Err(StatusCode::kInvalidParam,
               "modelDesc {} is empty: fill it with aclmdlGetDesc, aclmdlGetDescFromFile or "
               "aclmdlGetDescFromMem first",
               static_cast<const void*>(desc));
  }
  return object->compiled;
}

Status CheckInput(const core::CompiledModel& model, size_t index) {
  const size_t count = api::ModelInputCount(model);
  if (index >= count) {
    return Err(StatusCode::kInvalidParam, "input index {} is out of range: the model has {} inputs",
               index, count);
  }
  return Status::Ok();
}

Status CheckOutput(const core::CompiledModel& model, size_t index) {
  const size_t count = model.file->outputs.size();
  if (index >= count) {
    return Err(StatusCode::kInvalidParam,
               "output index {} is out of range: the model has {} outputs", index, count);
  }
  return Status::Ok();
}

Status FillDims(const std::string& name, const std::vector<int64_t>& dims, aclmdlIODims* out) {
  ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(out, "dims"));
  if (dims.size() > ACL_MAX_DIM_CNT) {
    return Err(StatusCode::kInvalidParam, "tensor {} has {} dims; aclmdlIODims holds {}", name,
               dims.size(), ACL_MAX_DIM_CNT);
  }
  std::memset(out->name, 0, sizeof(out->name));
  std::memcpy(out->name, name.data(), std::min(name.size(), sizeof(out->name) - 1));
  out->dimCount = dims.size();
  std::copy(dims.begin(), dims.end(), out->dims);
  return Status::Ok();
}

// The dims the descriptor reports for input `index`: as the model declares them (-1 for the
// dims a gear fills in).
std::vector<int64_t> DeclaredInputDims(const core::CompiledModel& model, size_t index) {
  if (api::IsGearInput(model, index)) return api::ModelInputDesc(model, index, 0).dims;
  const auto& file = *model.file;
  return file.tensors[static_cast<size_t>(file.inputs[index].tensor)].desc.dims;
}

Status InputDims(const aclmdlDesc* desc, size_t index, aclmdlIODims* dims) {
  ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(desc));
  ACLSIM_RETURN_IF_ERROR(CheckInput(*model, index));
  const std::string& name = api::IsGearInput(*model, index) ? std::string(ACL_DYNAMIC_TENSOR_NAME)
                                                            : model->file->inputs[index].name;
  return FillDims(name, DeclaredInputDims(*model, index), dims);
}

// Output `index` as the described model's latest execution produced it.
aclsim::ops::TensorDesc CurrentOutput(const aclmdlDesc& desc, const core::CompiledModel& model,
                                      size_t index) {
  if (auto loaded = desc.model.lock()) return loaded->CurrentOutputDesc(index);
  return model.OutputDesc(index, model.largest_gear);
}

Status Fill(aclmdlDesc* desc, Result<std::shared_ptr<const core::ModelFile>> file) {
  ACLSIM_ASSIGN_OR_RETURN(auto object, core::LookupHandle<aclmdlDesc>(desc, "modelDesc"));
  ACLSIM_RETURN_IF_ERROR(file.status());
  ACLSIM_ASSIGN_OR_RETURN(auto* runtime, core::Runtime::Current());
  ACLSIM_ASSIGN_OR_RETURN(auto compiled, core::CompileForCurrentDevice(*runtime, file.value()));
  object->model_id = 0;
  object->model.reset();
  object->op_attrs.clear();
  object->compiled = std::move(compiled);
  return Status::Ok();
}

Result<size_t> IndexByName(const aclmdlDesc* desc, const char* name, bool input) {
  ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(desc));
  ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(name, "name"));
  const size_t count = input ? api::ModelInputCount(*model) : model->file->outputs.size();
  for (size_t i = 0; i < count; ++i) {
    const std::string& its = !input                        ? model->file->outputs[i].name
                             : api::IsGearInput(*model, i) ? std::string(ACL_DYNAMIC_TENSOR_NAME)
                                                           : model->file->inputs[i].name;
    if (its == name) return i;
  }
  return Err(StatusCode::kInvalidParam, "the model has no {} named '{}'",
             input ? "input" : "output", name);
}

}  // namespace

aclmdlDesc* aclmdlCreateDesc(void) {
  return api::ValueCall<aclmdlDesc*>(__func__, nullptr, []() -> Result<aclmdlDesc*> {
    return static_cast<aclmdlDesc*>(core::PublishHandle(core::MakeHandleObject<aclmdlDesc>()));
  });
}

aclError aclmdlDestroyDesc(aclmdlDesc* modelDesc) {
  return api::ApiCall(__func__, [&]() -> Status {
    return core::RetireHandle<aclmdlDesc>(modelDesc, "modelDesc").status();
  });
}

aclError aclmdlGetDesc(aclmdlDesc* modelDesc, uint32_t modelId) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(auto object, core::LookupHandle<aclmdlDesc>(modelDesc, "modelDesc"));
    ACLSIM_ASSIGN_OR_RETURN(auto model, core::FindModel(modelId));
    object->model_id = modelId;
    object->model = model;
    object->op_attrs.clear();
    object->compiled = std::shared_ptr<const core::CompiledModel>(model, &model->compiled());
    return Status::Ok();
  });
}

aclError aclmdlGetDescFromFile(aclmdlDesc* modelDesc, const char* modelPath) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(modelPath, "modelPath"));
    auto file = core::LoadModelFile(modelPath);
    if (!file.ok()) return file.status();
    return Fill(modelDesc, std::shared_ptr<const core::ModelFile>(
                               std::make_shared<core::ModelFile>(std::move(file.value()))));
  });
}

aclError aclmdlGetDescFromMem(aclmdlDesc* modelDesc, const void* model, size_t modelSize) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(model, "model"));
    if (modelSize == 0) return Err(StatusCode::kInvalidParam, "modelSize must be greater than 0");
    auto file = core::ParseModel(model, modelSize, "memory");
    if (!file.ok()) return file.status();
    return Fill(modelDesc, std::shared_ptr<const core::ModelFile>(
                               std::make_shared<core::ModelFile>(std::move(file.value()))));
  });
}

size_t aclmdlGetNumInputs(aclmdlDesc* modelDesc) {
  return api::ValueCall<size_t>(__func__, 0, [&]() -> Result<size_t> {
    ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(modelDesc));
    return api::ModelInputCount(*model);
  });
}

size_t aclmdlGetNumOutputs(aclmdlDesc* modelDesc) {
  return api::ValueCall<size_t>(__func__, 0, [&]() -> Result<size_t> {
    ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(modelDesc));
    return model->file->outputs.size();
  });
}

size_t aclmdlGetInputSizeByIndex(aclmdlDesc* modelDesc, size_t index) {
  return api::ValueCall<size_t>(__func__, 0, [&]() -> Result<size_t> {
    ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(modelDesc));
    ACLSIM_RETURN_IF_ERROR(CheckInput(*model, index));
    return api::ModelInputDesc(*model, index, model->largest_gear).ByteSize();
  });
}

size_t aclmdlGetOutputSizeByIndex(aclmdlDesc* modelDesc, size_t index) {
  return api::ValueCall<size_t>(__func__, 0, [&]() -> Result<size_t> {
    ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(modelDesc));
    ACLSIM_RETURN_IF_ERROR(CheckOutput(*model, index));
    size_t most = 0;
    for (size_t g = 0; g < model->gears.size(); ++g) {
      most = std::max(most, model->OutputBytes(index, g));
    }
    return most;
  });
}

aclError aclmdlGetInputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  return api::ApiCall(__func__, [&]() -> Status { return InputDims(modelDesc, index, dims); });
}

aclError aclmdlGetInputDimsV2(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  return api::ApiCall(__func__, [&]() -> Status { return InputDims(modelDesc, index, dims); });
}

aclError aclmdlGetInputDimsRange(const aclmdlDesc* modelDesc, size_t index,
                                 aclmdlIODimsRange* dimsRange) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(modelDesc));
    ACLSIM_RETURN_IF_ERROR(CheckInput(*model, index));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(dimsRange, "dimsRange"));
    const auto declared = DeclaredInputDims(*model, index);
    if (declared.size() > ACL_MAX_DIM_CNT) {
      return Err(StatusCode::kInvalidParam, "input {} has {} dims; aclmdlIODimsRange holds {}",
                 index, declared.size(), ACL_MAX_DIM_CNT);
    }
    dimsRange->rangeCount = declared.size();
    for (size_t d = 0; d < declared.size(); ++d) {
      int64_t low = declared[d];
      int64_t high = declared[d];
      if (declared[d] < 0) {  // the gears' extremes
        low = INT64_MAX;
        high = 0;
        for (size_t g = 0; g < model->gears.size(); ++g) {
          const int64_t value = api::ModelInputDesc(*model, index, g).dims[d];
          low = std::min(low, value);
          high = std::max(high, value);
        }
      }
      dimsRange->range[d][0] = low;
      dimsRange->range[d][1] = high;
    }
    return Status::Ok();
  });
}

aclError aclmdlGetOutputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(modelDesc));
    ACLSIM_RETURN_IF_ERROR(CheckOutput(*model, index));
    return FillDims(model->file->outputs[index].name,
                    model->OutputDesc(index, model->largest_gear).dims, dims);
  });
}

aclError aclmdlGetCurOutputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(modelDesc));
    ACLSIM_RETURN_IF_ERROR(CheckOutput(*model, index));
    ACLSIM_ASSIGN_OR_RETURN(auto object, core::LookupHandle<aclmdlDesc>(modelDesc, "modelDesc"));
    return FillDims(model->file->outputs[index].name, CurrentOutput(*object, *model, index).dims,
                    dims);
  });
}

const char* aclmdlGetOpAttr(aclmdlDesc* modelDesc, const char* opName, const char* attr) {
  return api::ValueCall<const char*>(__func__, nullptr, [&]() -> Result<const char*> {
    ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(modelDesc));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(opName, "opName"));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(attr, "attr"));
    ACLSIM_ASSIGN_OR_RETURN(auto object, core::LookupHandle<aclmdlDesc>(modelDesc, "modelDesc"));
    for (const auto& node : model->file->nodes) {
      if (node.name != opName) continue;
      auto it = node.attrs.find(attr);
      if (it == node.attrs.end()) {
        return Err(StatusCode::kInvalidParam, "op {} ({}) has no attribute '{}'", opName, node.type,
                   attr);
      }
      std::string& value = object->op_attrs[std::string(opName) + '\n' + attr];
      const auto* text = std::get_if<std::string>(&it->second);  // strings as they are
      value = text != nullptr ? *text : ops::AttrValueToString(it->second);
      return value.c_str();
    }
    return Err(StatusCode::kInvalidParam, "the model has no op named '{}'", opName);
  });
}

const char* aclmdlGetInputNameByIndex(const aclmdlDesc* modelDesc, size_t index) {
  return api::ValueCall<const char*>(__func__, nullptr, [&]() -> Result<const char*> {
    ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(modelDesc));
    ACLSIM_RETURN_IF_ERROR(CheckInput(*model, index));
    if (api::IsGearInput(*model, index)) return ACL_DYNAMIC_TENSOR_NAME;
    return model->file->inputs[index].name.c_str();
  });
}

const char* aclmdlGetOutputNameByIndex(const aclmdlDesc* modelDesc, size_t index) {
  return api::ValueCall<const char*>(__func__, nullptr, [&]() -> Result<const char*> {
    ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(modelDesc));
    ACLSIM_RETURN_IF_ERROR(CheckOutput(*model, index));
    return model->file->outputs[index].name.c_str();
  });
}

aclFormat aclmdlGetInputFormat(const aclmdlDesc* modelDesc, size_t index) {
  return api::ValueCall<aclFormat>(__func__, ACL_FORMAT_UNDEFINED, [&]() -> Result<aclFormat> {
    ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(modelDesc));
    ACLSIM_RETURN_IF_ERROR(CheckInput(*model, index));
    return static_cast<aclFormat>(api::ModelInputDesc(*model, index, 0).format);
  });
}

aclFormat aclmdlGetOutputFormat(const aclmdlDesc* modelDesc, size_t index) {
  return api::ValueCall<aclFormat>(__func__, ACL_FORMAT_UNDEFINED, [&]() -> Result<aclFormat> {
    ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(modelDesc));
    ACLSIM_RETURN_IF_ERROR(CheckOutput(*model, index));
    return static_cast<aclFormat>(model->OutputDesc(index, 0).format);
  });
}

aclDataType aclmdlGetInputDataType(const aclmdlDesc* modelDesc, size_t index) {
  return api::ValueCall<aclDataType>(__func__, ACL_DT_UNDEFINED, [&]() -> Result<aclDataType> {
    ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(modelDesc));
    ACLSIM_RETURN_IF_ERROR(CheckInput(*model, index));
    return static_cast<aclDataType>(api::ModelInputDesc(*model, index, 0).dtype);
  });
}

aclDataType aclmdlGetOutputDataType(const aclmdlDesc* modelDesc, size_t index) {
  return api::ValueCall<aclDataType>(__func__, ACL_DT_UNDEFINED, [&]() -> Result<aclDataType> {
    ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(modelDesc));
    ACLSIM_RETURN_IF_ERROR(CheckOutput(*model, index));
    return static_cast<aclDataType>(model->OutputDesc(index, 0).dtype);
  });
}

aclError aclmdlGetInputIndexByName(const aclmdlDesc* modelDesc, const char* name, size_t* index) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(index, "index"));
    ACLSIM_ASSIGN_OR_RETURN(*index, IndexByName(modelDesc, name, /*input=*/true));
    return Status::Ok();
  });
}

aclError aclmdlGetOutputIndexByName(const aclmdlDesc* modelDesc, const char* name, size_t* index) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(index, "index"));
    ACLSIM_ASSIGN_OR_RETURN(*index, IndexByName(modelDesc, name, /*input=*/false));
    return Status::Ok();
  });
}

aclError aclmdlGetDynamicBatch(const aclmdlDesc* modelDesc, aclmdlBatch* batch) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(modelDesc));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(batch, "batch"));
    *batch = {};
    const auto& gears = model->file->gears;
    if (gears.kind != core::GearKind::kBatch) return Status::Ok();  // count 0: not dynamic
    batch->batchCount = gears.gears.size();
    for (size_t g = 0; g < gears.gears.size(); ++g) {
      batch->batch[g] = static_cast<uint64_t>(gears.gears[g][0]);
    }
    return Status::Ok();
  });
}

aclError aclmdlGetDynamicHW(const aclmdlDesc* modelDesc, size_t index, aclmdlHW* hw) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(modelDesc));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(hw, "hw"));
    (void)index;  // CANN: reserved (the model's gears are the same for every input)
    *hw = {};
    const auto& gears = model->file->gears;
    if (gears.kind != core::GearKind::kImageSize) return Status::Ok();
    hw->hwCount = gears.gears.size();
    for (size_t g = 0; g < gears.gears.size(); ++g) {
      hw->hw[g][0] = static_cast<uint64_t>(gears.gears[g][0]);
      hw->hw[g][1] = static_cast<uint64_t>(gears.gears[g][1]);
    }
    return Status::Ok();
  });
}

aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc* modelDesc, size_t index,
                                        size_t* gearCount) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(modelDesc));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(gearCount, "gearCount"));
    (void)index;  // CANN: reserved (-1)
    const auto& gears = model->file->gears;
    *gearCount = gears.kind == core::GearKind::kDims ? gears.gears.size() : 0;
    return Status::Ok();
  });
}

aclError aclmdlGetInputDynamicDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims,
                                   size_t gearCount) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(modelDesc));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(dims, "dims"));
    (void)index;  // CANN: reserved (-1)
    const auto& gears = model->file->gears;
    if (gears.kind != core::GearKind::kDims) {
      return Err(StatusCode::kModelNotDynamic,
                 "the model has no dynamic dims (atc --dynamic_dims)");
    }
    if (gearCount != gears.gears.size()) {
      return Err(
          StatusCode::kInvalidParam,
          "gearCount {} does not match the model's {} gears (aclmdlGetInputDynamicGearCount)",
          gearCount, gears.gears.size());
    }
    for (size_t g = 0; g < gears.gears.size(); ++g) {
      ACLSIM_RETURN_IF_ERROR(FillDims("", api::GearFullDims(*model, g), &dims[g]));
    }
    return Status::Ok();
  });
}

const char* aclmdlGetTensorRealName(const aclmdlDesc* modelDesc, const char* name) {
  return api::ValueCall<const char*>(__func__, nullptr, [&]() -> Result<const char*> {
    ACLSIM_ASSIGN_OR_RETURN(Compiled model, Described(modelDesc));
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(name, "name"));
    for (const auto& io : model->file->inputs) {
      if (io.name == name) return io.name.c_str();
    }
    for (const auto& io : model->file->outputs) {
      if (io.name == name) return io.name.c_str();
    }
    return Err(StatusCode::kInvalidParam, "the model has no input or output named '{}'", name);
  });
}
