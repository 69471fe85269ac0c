// atc --singleop: CANN's single-op description JSON, read into op calls.
//
// The file is a JSON array of op descriptions (a single object is accepted too):
//   {"op": "GEMM", "name": "gemm_fp16",             // name: optional, the .om file's stem
//    "input_desc":  [{"format": "ND", "shape": [16, 16], "type": "float16",
//                     "origin_format": "ND", "origin_shape": [16, 16],   // optional
//                     "shape_range": [[1, -1], [16, 16]],                // with -1 dims
//                     "name": "a", "is_const": true, "const_value": [...]}, ...],
//    "output_desc": [...],
//    "attr": [{"name": "transpose_a", "type": "bool", "value": false}, ...]}
// An input with "type": "UNDEFINED" (or "format": "RESERVED") is an omitted optional input.
// With origin_format, `format`/`shape` are the storage layout and origin_* the logical one.
// dtype, format and attribute type names are matched case-insensitively; common aliases
// ("fp16", "float32", "DT_FLOAT", "bf16", "list_type", ...) are accepted. Keys CANN accepts
// that do not change the op (compile_flag, dynamic_input, param_type) are ignored.
//
// Every error names the op (its index in the array and its type) and the field, e.g.
//   op 1 (GEMM): input_desc[2].type: 'floot16' is not a data type (float16, float, ...)
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "ops/op_library.h"

namespace aclsim::atc {

struct SingleOp {
  size_t index = 0;
  std::string name;  // "name" from the JSON, or empty
  ops::OpCall call;
};

// Parses the text of a single-op JSON file (kParseFile on any error).
Result<std::vector<SingleOp>> ParseSingleOpJson(std::string_view text);

// The .om file name of an op: "<name>.om" if it has a name, else CANN's default
// "<index>_<type>_<inputs>_<outputs>.om" where each tensor is "<dtype>_<format>_<dims...>"
// in enum values (0_Add_3_2_3_3_3_2_3_3_3_2_3_3.om); omitted inputs are skipped. Over-long
// names are cut and made unique with a checksum.
std::string SingleOpFileName(const SingleOp& op);

// Checks each op against `library` (InferShape) and returns the first failure, prefixed with
// the op's index and type. Ops keep their descriptors as the JSON gave them.
Status CheckSingleOps(const ops::OpLibrary& library, const std::vector<SingleOp>& ops,
                      std::vector<std::string>* warnings);

}  // namespace aclsim::atc
