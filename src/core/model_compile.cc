// Model compilation (core/model_compile.h).
#include "core/model_compile.h"

#include <algorithm>
#include <utility>

#include "core/memory_planner.h"

namespace aclsim::core {

namespace {

// A node's failure, with the model and the node named first.
Status NodeError(const ModelFile& file, const ModelNode& node, const Status& status) {
  return Status(status.code(), fmt::format("model {}: node {} ({}): {}", file.name, node.name,
                                           node.type, status.message()));
}

// Where each tensor lives (see the header), and the outputs that need a copy.
void AssignRoles(const ModelFile& file, std::vector<TensorRole>* roles,
                 std::vector<OutputCopy>* copies) {
  roles->assign(file.tensors.size(), TensorRole{});
  std::vector<bool> produced(file.tensors.size(), false);
  for (const ModelNode& node : file.nodes) {
    for (int32_t id : node.outputs) produced[static_cast<size_t>(id)] = true;
  }
  for (size_t t = 0; t < file.tensors.size(); ++t) {
    if (file.tensors[t].constant) (*roles)[t].place = TensorPlace::kConstant;
  }
  for (size_t i = 0; i < file.inputs.size(); ++i) {
    (*roles)[static_cast<size_t>(file.inputs[i].tensor)] = {TensorPlace::kInput,
                                                            static_cast<uint32_t>(i)};
  }
  for (size_t o = 0; o < file.outputs.size(); ++o) {
    const auto t = static_cast<size_t>(file.outputs[o].tensor);
    TensorRole& role = (*roles)[t];
    if (produced[t] && role.place == TensorPlace::kUnused) {
      role = {TensorPlace::kOutput, static_cast<uint32_t>(o)};
    } else {
      copies->push_back({static_cast<uint32_t>(o), file.outputs[o].tensor});
    }
  }
  for (size_t t = 0; t < file.tensors.size(); ++t) {
    if (produced[t] && (*roles)[t].place == TensorPlace::kUnused) {
      (*roles)[t].place = TensorPlace::kArena;
    }
  }
}

// True if node `n` reads a value the op needs at compile time from a tensor that is not a
// constant (a model input or a computed tensor): known only when the model runs.
bool NeedsRuntimeValues(const ModelFile& file, const ops::OpLibrary& library, size_t n) {
  const ModelNode& node = file.nodes[n];
  for (size_t i : library.ValueInputs(node.type)) {
    if (i < node.inputs.size() && node.inputs[i] >= 0 &&
        !file.tensors[static_cast<size_t>(node.inputs[i])].constant) {
      return true;
    }
  }
  return false;
}

// The call node `n` makes with the gear's current descriptors (constant values filled in).
ops::OpCall NodeCall(const ModelFile& file, const ops::OpLibrary& library,
                     const std::vector<ops::TensorDesc>& tensors, size_t n) {
  const ModelNode& node = file.nodes[n];
  ops::OpCall call;
  call.type = node.type;
  call.attrs = node.attrs;
  call.inputs.reserve(node.inputs.size());
  for (int32_t id : node.inputs) {
    call.inputs.push_back(id < 0 ? ops::TensorDesc{} : tensors[static_cast<size_t>(id)]);
  }
  for (size_t i : library.ValueInputs(node.type)) {
    if (i >= node.inputs.size() || node.inputs[i] < 0) continue;
    const ModelTensor& tensor = file.tensors[static_cast<size_t>(node.inputs[i])];
    if (!tensor.constant) continue;
    const auto* begin = file.weights.data() + tensor.constant->offset;
    call.inputs[i].value.emplace(begin, begin + tensor.constant->size);
  }
  call.outputs.reserve(node.outputs.size());
  for (int32_t id : node.outputs) call.outputs.push_back(tensors[static_cast<size_t>(id)]);
  return call;
}

// Resolves every tensor and compiles every node for one gear, then plans its arena. Sets
// *dynamic and stops at the first node whose shapes depend on values known only when the
// model runs.
Result<ModelGear> CompileGear(const ModelFile& file, const ops::OpLibrary& library,
                              const driver::DeviceProps& props,
                              const std::vector<TensorRole>& roles,
                              const std::vector<TensorLifetime>& lifetimes, size_t gear_index,
                              bool* dynamic) {
  ModelGear gear;
  gear.tensors.reserve(file.tensors.size());
  for (const ModelTensor& tensor : file.tensors) gear.tensors.push_back(tensor.desc);
  if (gear_index < file.gears.gears.size()) {
    gear.values = file.gears.gears[gear_index];
    const auto dims = GearInputDims(file, gear_index);
    for (size_t i = 0; i < file.inputs.size(); ++i) {
      gear.tensors[static_cast<size_t>(file.inputs[i].tensor)].dims = dims[i];
    }
  }
  gear.kernels.reserve(file.nodes.size());
  for (size_t n = 0; n < file.nodes.size(); ++n) {
    const ModelNode& node = file.nodes[n];
    if (NeedsRuntimeValues(file, library, n)) {
      *dynamic = true;
      return gear;
    }
    auto kernel = library.Compile(NodeCall(file, library, gear.tensors, n), props);
    if (!kernel.ok()) return NodeError(file, node, kernel.status());
    if (kernel.value()->dynamic_output_shape()) {
      return NodeError(file, node,
                       Status(StatusCode::kFeatureUnsupported,
                              "output shapes that depend on the data are not supported in "
                              "models yet (run the op with aclopExecuteV2)"));
    }
    const auto& outputs = kernel.value()->call().outputs;
    for (size_t k = 0; k < node.outputs.size() && k < outputs.size(); ++k) {
      ops::TensorDesc& desc = gear.tensors[static_cast<size_t>(node.outputs[k])];
      std::string name = std::move(desc.name);
      desc = outputs[k];
      desc.name = std::move(name);
      desc.value.reset();
    }
    gear.kernels.push_back(std::move(kernel.value()));
  }
  for (const ModelIo& io : file.outputs) {
    if (!gear.tensors[static_cast<size_t>(io.tensor)].shape_known()) {
      return Err(StatusCode::kParseModel, "model {}: the shape of output {} does not resolve",
                 file.name, io.name);
    }
  }

  std::vector<PlanBuffer> buffers;
  std::vector<size_t> planned;  // tensor of each buffer
  for (size_t t = 0; t < file.tensors.size(); ++t) {
    if (roles[t].place != TensorPlace::kArena) continue;
    const uint64_t size = gear.tensors[t].ByteSize();
    if (size == 0) continue;
    buffers.push_back({static_cast<int64_t>(t), lifetimes[t].first, lifetimes[t].last + 1, size});
    planned.push_back(t);
  }
  gear.offsets.assign(file.tensors.size(), 0);
  if (!buffers.empty()) {
    PlanOptions options;
    options.alignment = kModelArenaAlign;
    ACLSIM_ASSIGN_OR_RETURN(Plan plan, PlanMemory(buffers, options));
    for (size_t b = 0; b < planned.size(); ++b) gear.offsets[planned[b]] = plan.offsets[b];
    gear.arena = plan.arena;
    gear.lower_bound = plan.lower_bound;
    gear.total = plan.total;
  }
  return gear;
}

}  // namespace

size_t CompiledModel::InputBytes(size_t index, size_t gear) const {
  return InputDesc(index, gear).ByteSize();
}

size_t CompiledModel::OutputBytes(size_t index, size_t gear) const {
  return OutputDesc(index, gear).ByteSize();
}

const ops::TensorDesc& CompiledModel::InputDesc(size_t index, size_t gear) const {
  return gears[gear].tensors[static_cast<size_t>(file->inputs[index].tensor)];
}

const ops::TensorDesc& CompiledModel::OutputDesc(size_t index, size_t gear) const {
  return gears[gear].tensors[static_cast<size_t>(file->outputs[index].tensor)];
}

Result<std::shared_ptr<const CompiledModel>> CompileModel(std::shared_ptr<const ModelFile> file,
                                                          const ops::OpLibrary& library,
                                                          const driver::DeviceProps& props) {
  auto model = std::make_shared<CompiledModel>();
  AssignRoles(*file, &model->roles, &model->output_copies);
  const auto lifetimes = TensorLifetimes(*file);
  const size_t gear_count = std::max<size_t>(1, file->gears.gears.size());
  model->gears.reserve(gear_count);
  for (size_t g = 0; g < gear_count; ++g) {
    bool dynamic = false;
    ACLSIM_ASSIGN_OR_RETURN(
        ModelGear gear, CompileGear(*file, library, props, model->roles, lifetimes, g, &dynamic));
    if (dynamic) {
      if (!file->gears.gears.empty()) {
        return Err(StatusCode::kFeatureUnsupported,
                   "model {}: shapes that depend on input values cannot be combined with "
                   "dynamic gears",
                   file->name);
      }
      model->dynamic_shapes = true;
      gear.kernels.clear();
      gear.tensors.clear();  // resolved per execution
      for (const ModelTensor& tensor : file->tensors) gear.tensors.push_back(tensor.desc);
    }
    model->work_size = std::max(model->work_size, gear.arena);
    model->gears.push_back(std::move(gear));
  }
  model->lifetimes = lifetimes;
  model->weight_size = file->weights.size();
  uint64_t most = 0;
  for (size_t g = 0; g < model->gears.size(); ++g) {
    uint64_t bytes = 0;
    for (const ModelIo& io : file->inputs) {
      bytes += model->gears[g].tensors[static_cast<size_t>(io.tensor)].ByteSize();
    }
    if (bytes > most) {
      most = bytes;
      model->largest_gear = g;
    }
  }
  model->file = std::move(file);
  return std::shared_ptr<const CompiledModel>(std::move(model));
}

}  // namespace aclsim::core
