// The simulator's op library: driver::OpLibrary over the registered OpDefs.
//
// Thread-safety: immutable after construction; use from any thread.
#pragma once

#include "driver/op_library.h"
#include "sim/ops/op_def.h"

namespace aclsim::sim::ops {

// Register*Ops: one per op group (sim/ops/*_ops.cc).
void RegisterElementwiseOps(OpRegistry& registry);
void RegisterActivationOps(OpRegistry& registry);
void RegisterMatmulOps(OpRegistry& registry);
void RegisterNnOps(OpRegistry& registry);
void RegisterArrayOps(OpRegistry& registry);
void RegisterReduceOps(OpRegistry& registry);
void RegisterSelectOps(OpRegistry& registry);
void RegisterNormExtraOps(OpRegistry& registry);
void RegisterSpaceOps(OpRegistry& registry);
void RegisterScatterOps(OpRegistry& registry);
void RegisterConvTransposeOps(OpRegistry& registry);
void RegisterResizeOps(OpRegistry& registry);

class SimOpLibrary final : public driver::OpLibrary {
 public:
  SimOpLibrary();
  // The process-wide instance (ops are immutable, so every sim driver shares it).
  static const SimOpLibrary& Instance();

  bool HasOp(std::string_view type) const override;
  std::vector<std::string> OpTypes() const override;
  std::vector<size_t> ValueInputs(std::string_view type) const override;
  Status InferShape(driver::OpCall* call) const override;
  Result<std::shared_ptr<const driver::OpKernel>> Compile(
      const driver::OpCall& call, const driver::DeviceProps& props) const override;

  const OpRegistry& registry() const { return registry_; }

 private:
  OpRegistry registry_;
};

}  // namespace aclsim::sim::ops
