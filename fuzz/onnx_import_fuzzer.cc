// libFuzzer target for the ONNX importer (src/convert/onnx_import.h): any bytes must be
// converted or refused with a Status, never crash or throw; a converted model must pass
// core::ValidateModel and round-trip through SerializeModel + ParseModel. Seed corpus:
// fuzz/corpus/onnx_import (regenerate with onnx_import_corpus_gen). Build and run as the
// om_model target (docs/om-format.md, "Fuzzing"; docs/atc.md).
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "convert/onnx_import.h"
#include "core/model_file.h"
#include "ops/op_library.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  aclsim::convert::OnnxImportOptions options;
  auto model = aclsim::convert::ImportOnnx(data, size, "fuzz.onnx", options,
                                           aclsim::ops::OpLibrary::Builtin());
  if (!model.ok()) return 0;
  if (!aclsim::core::ValidateModel(model.value(), "fuzz.om").ok()) std::abort();
  const auto bytes = aclsim::core::SerializeModel(model.value());
  auto again = aclsim::core::ParseModel(bytes.data(), bytes.size(), "fuzz.om");
  if (!again.ok() || aclsim::core::SerializeModel(again.value()) != bytes) std::abort();
  return 0;
}
