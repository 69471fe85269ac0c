// Building an aclnn executor (core/nn/executor.h): what each operator's first phase does.
//
// An operator (core/nn/ops_*.cc) registers its tensor arguments (Input / Output / InOut),
// then states its computation as op-library calls on Values (Op, Cast, Contiguous), and
// finally writes results through the output views (Store). The builder makes strided views
// contiguous where a kernel needs it (AsStrided into the workspace), places every temporary
// in the workspace, compiles each kernel for the current device through the OpCache, and
// writes through output views that are not contiguous with ViewCopy. A result that is the
// last kernel's output and matches a contiguous output tensor is written there directly.
//
//   Builder b("aclnnAbs");
//   ACLSIM_RETURN_IF_ERROR(b.Begin());
//   ACLSIM_ASSIGN_OR_RETURN(Value x, b.Input(self, "self"));
//   ACLSIM_ASSIGN_OR_RETURN(Value y, b.Output(out, "out"));
//   ACLSIM_ASSIGN_OR_RETURN(Value r, b.Op1("Abs", {x}));
//   ACLSIM_RETURN_IF_ERROR(b.Store(r, y));
//   return b.Finish();
//
// Thread-safety: a Builder belongs to one call.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "core/nn/executor.h"
#include "core/nn/objects.h"
#include "ops/types.h"

namespace aclsim::core {
class Device;
class Runtime;
}  // namespace aclsim::core

namespace aclsim::core::nn {

// A tensor while the executor is built: a call's tensor (a view over its slot) or a
// contiguous temporary in the workspace. A default Value is "absent" (an omitted optional).
struct Value {
  ops::DataType dtype = ops::DataType::kUndefined;
  std::vector<int64_t> dims;
  Ref::Kind kind = Ref::Kind::kNone;
  uint32_t slot = 0;             // kSlot
  std::vector<int64_t> strides;  // kSlot: the view, in elements
  int64_t elem_offset = 0;       // kSlot
  uint64_t offset = 0;           // kWorkspace: bytes
  int32_t producer = -1;         // kWorkspace: the step that writes it
  uint32_t output_index = 0;     // kWorkspace: which output of that step
  int64_t base_elems = 0;        // elements of the buffer the view is over
  ops::Format format = ops::Format::kNd;
  // The buffer's physical layout when it differs from `format` (FRACTAL_NZ weights): kernels
  // read it through the op library's layout conversion. kUndefined: as `format`.
  ops::Format storage_format = ops::Format::kUndefined;
  std::shared_ptr<const std::vector<uint8_t>> bytes;  // kConst: the contents

  bool present() const { return kind != Ref::Kind::kNone; }
  int64_t numel() const;
  bool contiguous() const;
  size_t rank() const { return dims.size(); }
};

// "[2, 3]": dims as messages print them.
std::string ShapeString(const std::vector<int64_t>& dims);

class Builder {
 public:
  explicit Builder(std::string name);

  const std::string& name() const { return name_; }
  // Finds the runtime and the current device (the kernels are compiled for it).
  Status Begin();

  // Registers a tensor argument. Input / Output: one side; InOut: an in-place tensor (input
  // and output). A null tensor is an absent optional argument when `optional`, else
  // kNullPointer naming `what`. The same tensor given twice shares one slot.
  Result<Value> Input(const NnTensor* tensor, const char* what, bool optional = false);
  Result<Value> Output(const NnTensor* tensor, const char* what, bool optional = false);
  Result<Value> InOut(const NnTensor* tensor, const char* what);
  // An input that may also come in FRACTAL_NZ (the weight of a matrix product; other private
  // formats are refused by every registration).
  Result<Value> InputFractalNz(const NnTensor* tensor, const char* what);
  // An int4 input (two elements a byte, the lower nibble first) as the int8 view of the bytes
  // that hold it: its unit-stride dim halved, its other strides and its offset in bytes. The
  // unit-stride dim (`packed_dim`, the last such dim of more than one element) must have an
  // even length, the other strides and the offset must be even. Other dtypes: Input.
  Result<Value> InputInt4(const NnTensor* tensor, const char* what, size_t* packed_dim);
  // A tensor-list parameter at prototype position `ir_index`.
  Result<std::vector<Value>> InputList(const std::vector<const NnTensor*>& tensors, size_t ir_index,
                                       const char* what);
  // A tensor-list output parameter at prototype position `ir_index`.
  Result<std::vector<Value>> OutputList(const std::vector<const NnTensor*>& tensors,
                                        size_t ir_index, const char* what);

  // The value as a contiguous tensor (itself if it is one; else an AsStrided copy).
  Result<Value> Contiguous(const Value& value);
  // A value with other dims over the same contiguous data (element counts must agree).
  Result<Value> Reshape(const Value& value, std::vector<int64_t> dims);
  // A view of a value (strides and offset in elements relative to its start): free for call
  // tensors, which stay views; workspace values become views too.
  Value View(const Value& value, std::vector<int64_t> dims, std::vector<int64_t> strides,
             int64_t elem_offset) const;
  // Cast to `dtype` (the value itself when it already has it).
  Result<Value> Cast(const Value& value, ops::DataType dtype);
  // A constant tensor of `dtype` with every element `value` ({} dims = a scalar).
  Value Constant(double value, ops::DataType dtype, std::vector<int64_t> dims = {}) const;
  // A constant tensor of `dtype` and `dims` holding `bytes` (row-major, its exact size).
  Value ConstantBytes(std::vector<uint8_t> bytes, ops::DataType dtype,
                      std::vector<int64_t> dims) const;

  // One op-library call: inputs made contiguous (absent Values stay absent), outputs placed
  // in the workspace. Const inputs (sizes, axes) are given as `consts`: position -> int64s.
  Result<std::vector<Value>> Op(const std::string& type, std::vector<Value> inputs,
                                ops::AttrMap attrs = {}, size_t num_outputs = 1,
                                const std::map<size_t, std::vector<int64_t>>& consts = {});
  Result<Value> Op1(const std::string& type, std::vector<Value> inputs, ops::AttrMap attrs = {},
                    const std::map<size_t, std::vector<int64_t>>& consts = {});

  // Writes `result` to output `out` (same dims; cast to out's dtype) through out's view.
  Status Store(const Value& result, const Value& out);
  // Writes `result` into contiguous `out`'s buffer in the `storage` layout (FRACTAL_NZ: the
  // padded fractal blocks CANN's TransData writes).
  Status StoreLayout(const Value& result, const Value& out, ops::Format storage);

  // The finished executor (steps, workspace size, slots).
  Result<std::shared_ptr<Executor>> Finish();

  Device& device() const { return *device_; }

 private:
  // `accept_nz`: a FRACTAL_NZ tensor is taken (InputFractalNz); other private formats never.
  Result<Value> AddSlot(const NnTensor* tensor, const char* what, bool optional, bool input,
                        bool output, bool accept_nz = false);
  Ref RefOf(const Value& value) const;   // a contiguous value's buffer
  Ref BaseOf(const Value& value) const;  // the whole buffer a view is over
  uint64_t Allocate(uint64_t bytes);
  ops::TensorDesc DescOf(const Value& value) const;
  // Compiles one kernel and appends it as a step with `inputs`; its outputs are left for the
  // caller to place. Returns the step's index.
  Result<size_t> AddStep(const std::string& type, std::vector<ops::TensorDesc> descs,
                         std::vector<Ref> refs, ops::AttrMap attrs, size_t num_outputs,
                         ops::Format out_storage = ops::Format::kUndefined);
  // Makes the last step write its output `index` to `out` (contiguous) instead of `result`.
  bool Rebind(const Value& result, const Value& out);

  std::string name_;
  Runtime* runtime_ = nullptr;
  std::shared_ptr<Device> device_;
  std::shared_ptr<Executor> executor_;
  std::map<const NnTensor*, uint32_t> slot_of_;
  std::vector<std::unique_ptr<NnTensor>> byte_views_;  // InputInt4's views, kept for slot_of_
  uint64_t workspace_top_ = 0;
  uint64_t last_alloc_ = 0;  // offset of the most recent allocation
};

}  // namespace aclsim::core::nn
