// acl_op_compiler.h: online compile (aclopCompile, aclopCompileAndExecute*) and options.
#include <map>
#include <mutex>
#include <string>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
#include "api/api_call.h"
#include "api/op_objects.h"
#include "core/op_executor.h"
#include "core/runtime.h"

using aclsim::Err;
using aclsim::Result;
using aclsim::Status;
using aclsim::StatusCode;
namespace api = aclsim::api;
namespace core = aclsim::core;
namespace ops = aclsim::ops;

namespace aclsim::api {
Status ExecuteOnStream(core::OpLaunch launch, aclrtStream stream,
                       std::vector<ops::TensorDesc>* resolved);
}  // namespace aclsim::api

namespace {

// Compile options (aclSetCompileopt) and the compile flag: process-wide, as in CANN.
struct CompileOptions {
  std::mutex mu;
  std::map<int, std::string> values;
  int flag = ACL_OP_COMPILE_DEFAULT;
};

CompileOptions& Options() {
  static CompileOptions* options = new CompileOptions();  // outlives every caller
  return *options;
}

Status CheckCompileArgs(const aclopEngineType& engineType, const aclopCompileType& compileFlag) {
  const int engine = api::EnumValue(engineType);
  if (engine < ACL_ENGINE_SYS || engine > ACL_ENGINE_VECTOR) {
    return Err(StatusCode::kInvalidParam, "engineType {} is not an aclopEngineType", engine);
  }
  const int flag = api::EnumValue(compileFlag);
  if (flag < ACL_COMPILE_SYS || flag > ACL_COMPILE_UNREGISTERED) {
    return Err(StatusCode::kInvalidParam, "compileFlag {} is not an aclopCompileType", flag);
  }
  return Status::Ok();
}

Result<core::OpLaunch> Launch(const char* opType, int numInputs,
                              const aclTensorDesc* const inputDesc[],
                              const aclDataBuffer* const inputs[], int numOutputs,
                              const aclTensorDesc* const outputDesc[],
                              const aclDataBuffer* const outputs[], const aclopAttr* attr,
                              bool with_buffers) {
  ACLSIM_RETURN_IF_ERROR(api::CheckOpType(opType));
  core::OpLaunch launch;
  launch.type = opType;
  ACLSIM_ASSIGN_OR_RETURN(launch.inputs, api::TensorArgs(numInputs, inputDesc, inputs, "inputDesc",
                                                         with_buffers ? "inputs" : nullptr));
  ACLSIM_ASSIGN_OR_RETURN(launch.outputs,
                          api::TensorArgs(numOutputs, outputDesc, outputs, "outputDesc",
                                          with_buffers ? "outputs" : nullptr));
  ACLSIM_ASSIGN_OR_RETURN(launch.attrs, api::AttrsOf(attr));
  return launch;
}

}  // namespace

aclError aclopCompile(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                      int numOutputs, const aclTensorDesc* const outputDesc[],
                      const aclopAttr* attr, aclopEngineType engineType,
                      aclopCompileType compileFlag, const char* opPath) {
  (void)opPath;  // custom op packages: the op library is built in
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(CheckCompileArgs(engineType, compileFlag));
    ACLSIM_ASSIGN_OR_RETURN(auto launch, Launch(opType, numInputs, inputDesc, nullptr, numOutputs,
                                                outputDesc, nullptr, attr, false));
    ACLSIM_ASSIGN_OR_RETURN(auto runtime, core::Runtime::Get());
    ACLSIM_ASSIGN_OR_RETURN(auto context, runtime->CurrentContext());
    ops::OpCall call;
    call.type = launch.type;
    call.attrs = launch.attrs;
    for (const auto& in : launch.inputs) call.inputs.push_back(in.desc);
    for (const auto& out : launch.outputs) call.outputs.push_back(out.desc);
    return core::CompileOp(*runtime, *context->device(), std::move(call));
  });
}

aclError aclopCompileAndExecute(const char* opType, int numInputs,
                                const aclTensorDesc* const inputDesc[],
                                const aclDataBuffer* const inputs[], int numOutputs,
                                const aclTensorDesc* const outputDesc[],
                                aclDataBuffer* const outputs[], const aclopAttr* attr,
                                aclopEngineType engineType, aclopCompileType compileFlag,
                                const char* opPath, aclrtStream stream) {
  (void)opPath;
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(CheckCompileArgs(engineType, compileFlag));
    ACLSIM_ASSIGN_OR_RETURN(auto launch, Launch(opType, numInputs, inputDesc, inputs, numOutputs,
                                                outputDesc, outputs, attr, true));
    return api::ExecuteOnStream(std::move(launch), stream, nullptr);
  });
}

aclError aclopCompileAndExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[],
                                  aclDataBuffer* inputs[], int numOutputs,
                                  aclTensorDesc* outputDesc[], aclDataBuffer* outputs[],
                                  aclopAttr* attr, aclopEngineType engineType,
                                  aclopCompileType compileFlag, const char* opPath,
                                  aclrtStream stream) {
  (void)opPath;
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(CheckCompileArgs(engineType, compileFlag));
    ACLSIM_ASSIGN_OR_RETURN(auto launch, Launch(opType, numInputs, inputDesc, inputs, numOutputs,
                                                outputDesc, outputs, attr, true));
    std::vector<ops::TensorDesc> resolved;
    ACLSIM_RETURN_IF_ERROR(api::ExecuteOnStream(std::move(launch), stream, &resolved));
    api::UpdateOutputDescs(resolved, numOutputs, outputDesc);
    return Status::Ok();
  });
}

aclError aclSetCompileopt(aclCompileOpt compileOpt, const char* value) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(value, "value"));
    const int opt = api::EnumValue(compileOpt);
    if (opt < ACL_PRECISION_MODE || opt > ACL_OP_DEBUG_OPTION) {
      return Err(StatusCode::kInvalidParam, "compileOpt {} is not an aclCompileOpt", opt);
    }
    auto& options = Options();
    std::lock_guard<std::mutex> lock(options.mu);
    options.values[opt] = value;
    return Status::Ok();
  });
}

size_t aclGetCompileoptSize(aclCompileOpt compileOpt) {
  return api::ValueCall<size_t>(__func__, 0, [&]() -> Result<size_t> {
    const int opt = api::EnumValue(compileOpt);
    if (opt < ACL_PRECISION_MODE || opt > ACL_OP_DEBUG_OPTION) {
      return Err(StatusCode::kInvalidParam, "compileOpt {} is not an aclCompileOpt", opt);
    }
    auto& options = Options();
    std::lock_guard<std::mutex> lock(options.mu);
    auto it = options.values.find(opt);
    return (it == options.values.end() ? 0 : it->second.size()) + 1;  // with the terminator
  });
}

aclError aclGetCompileopt(aclCompileOpt compileOpt, char* value, size_t length) {
  return api::ApiCall(__func__, [&]() -> Status {
    ACLSIM_RETURN_IF_ERROR(api::CheckNotNull(value, "value"));
    const int opt = api::EnumValue(compileOpt);
    if (opt < ACL_PRECISION_MODE || opt > ACL_OP_DEBUG_OPTION) {
      return Err(StatusCode::kInvalidParam, "compileOpt {} is not an aclCompileOpt", opt);
    }
    auto& options = Options();
    std::lock_guard<std::mutex> lock(options.mu);
    auto it = options.values.find(opt);
    const std::string text = it == options.values.end() ? "" : it->second;
    if (length < text.size() + 1) {
      return Err(StatusCode::kInvalidParam,
                 "length {} is too small for the value of {} bytes (see aclGetCompileoptSize)",
                 length, text.size() + 1);
    }
    std::memcpy(value, text.c_str(), text.size() + 1);
    return Status::Ok();
  });
}

aclError aclopSetCompileFlag(aclOpCompileFlag opCompileFlag) {
  return api::ApiCall(__func__, [&]() -> Status {
    const int flag = api::EnumValue(opCompileFlag);
    if (flag != ACL_OP_COMPILE_DEFAULT && flag != ACL_OP_COMPILE_FUZZ) {
      return Err(StatusCode::kInvalidParam, "opCompileFlag {} is not an aclOpCompileFlag", flag);
    }
    auto& options = Options();
    std::lock_guard<std::mutex> lock(options.mu);
    options.flag = flag;
    return Status::Ok();
  });
}
