#include "core/nn/executor.h"

#include "common/inline_vector.h"
#include "core/objects.h"
#include "core/op_executor.h"
#include "core/task_tracing.h"

namespace aclsim::core::nn {

std::shared_ptr<Executor> Executor::Clone() const {
  auto copy = MakeHandleObject<Executor>();
  copy->name = name;
  copy->slots = slots;
  copy->input_slots = input_slots;
  copy->output_slots = output_slots;
  copy->lists = lists;
  copy->steps = steps;
  copy->workspace_size = workspace_size;
  return copy;
}

Status Executor::Launch(Stream& stream, void* workspace, uint64_t workspace_size_given) const {
  if (workspace_size_given < workspace_size) {
    return Err(StatusCode::kInvalidParam,
               "{}: the workspace holds {} bytes but the operator needs {}", name,
               workspace_size_given, workspace_size);
  }
  for (size_t s = 0; s < slots.size(); ++s) {
    if (slots[s].data == nullptr && slots[s].extent > 0) {
      return Err(StatusCode::kNullPointer, "{}: tensor {} has no device address", name, s);
    }
  }
  auto resolve = [&](const Ref& ref) -> OpBuffer {
    switch (ref.kind) {
      case Ref::Kind::kSlot:
        return {static_cast<uint8_t*>(slots[ref.slot].data) + ref.offset, ref.size, false};
      case Ref::Kind::kWorkspace:
        return {static_cast<uint8_t*>(workspace) + ref.offset, ref.size, false};
      case Ref::Kind::kNone:
      case Ref::Kind::kConst:
        break;
    }
    return {nullptr, 0, false};
  };
  for (const Step& step : steps) {
    InlineVector<OpBuffer, 8> inputs;
    InlineVector<OpBuffer, 4> outputs;
    for (const Ref& ref : step.inputs) inputs.push_back(resolve(ref));
    for (const Ref& ref : step.outputs) outputs.push_back(resolve(ref));
    const ScopedTaskTag tag(step.op_name.c_str(), 0);
    ACLSIM_RETURN_IF_ERROR(LaunchCompiled(stream, step.kernel, inputs.data(), inputs.size(),
                                          outputs.data(), outputs.size()));
  }
  return Status::Ok();
}

}  // namespace aclsim::core::nn
