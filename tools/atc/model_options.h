// atc --model: CANN's option strings -> convert::OnnxImportOptions, and the conversion run.
//
// Thread-safety: pure parsing functions; RunModelConversion writes one file.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "common/status.h"
#include "convert/onnx_import.h"

namespace aclsim::atc {

// --input_shape "a:1,3,224,224;b:-1,10" (a name may itself contain ':'; the last one splits).
Result<std::vector<std::pair<std::string, std::vector<int64_t>>>> ParseInputShape(
    const std::string& text);
// --dynamic_batch_size "1,2,4".
Result<std::vector<int64_t>> ParseDynamicBatch(const std::string& text);
// --dynamic_image_size "224,224;448,448".
Result<std::vector<std::pair<int64_t, int64_t>>> ParseDynamicImage(const std::string& text);
// --dynamic_dims "1,2;4,8".
Result<std::vector<std::vector<int64_t>>> ParseDynamicDims(const std::string& text);
// --out_nodes "node:0;node2:1".
Result<std::vector<std::pair<std::string, int>>> ParseOutNodes(const std::string& text);
// --input_format NCHW|NHWC|ND|NCDHW.
Result<ops::Format> ParseInputFormat(const std::string& text);

// Every --model option into import options; kInvalidParam naming the option.
Result<convert::OnnxImportOptions> ModelOptions(const std::map<std::string, std::string>& options);

// The whole of `atc --model ... --framework=5`: checks the options, imports, validates and
// writes <output>.om. `log(level, text)` reports (levels of tools/atc/main.cc: 0 debug ..
// 3 error); `verbose` prints progress every 10% for models over 200 nodes. Returns atc's exit
// status: 0 success, 1 usage error, 2 conversion or write failure.
int RunModelConversion(const std::map<std::string, std::string>& options,
                       const std::function<void(int, const std::string&)>& log, bool verbose);

}  // namespace aclsim::atc
