// Imports every model.onnx of the libonnx-testdata model sets and prints how many convert and
// why the others are refused. Refusals are fine (execution conformance is another suite);
// a crash or an escaped exception fails, and so does a converted model that is invalid.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "convert/onnx_import.h"
#include "core/model_file.h"
#include "sim/ops/op_library.h"

namespace aclsim::convert {
namespace {

namespace fs = std::filesystem;

// "model <path>: cannot convert the model; node 'x' (Conv): why" -> "Conv: why" (dims and
// node names dropped so that reasons group).
std::string Reason(const std::string& message) {
  std::string r = message;
  const size_t model_end = r.find(": ");
  if (model_end != std::string::npos) r = r.substr(model_end + 2);
  const size_t node = r.find("node '");
  if (node != std::string::npos) {
    const size_t close = r.find("' (", node);
    if (close != std::string::npos) r = r.substr(close + 3);
    const size_t paren = r.find("): ");
    if (paren != std::string::npos) r.erase(paren, 1);
  }
  const size_t e = r.find("(E16002): ");
  if (e != std::string::npos)
    r = "unsupported op " + r.substr(e + 10, r.find(" (node", e) - e - 10);
  return r.substr(0, 120);
}

TEST(OnnxTestdataTest, EveryModelConvertsOrIsRefusedCleanly) {
  const fs::path root = ACLSIM_ONNX_MODEL_DATA;
  if (!fs::is_directory(root)) GTEST_SKIP() << root << " is absent (libonnx-testdata)";
  const auto& ops = sim::ops::SimOpLibrary::Instance();
  for (const char* set : {"simple", "pytorch-converted", "pytorch-operator"}) {
    if (!fs::is_directory(root / set)) continue;
    size_t converted = 0;
    size_t refused = 0;
    std::map<std::string, std::vector<std::string>> reasons;
    for (const auto& dir : fs::directory_iterator(root / set)) {
      const fs::path file = dir.path() / "model.onnx";
      if (!fs::exists(file)) continue;
      auto m = ImportOnnxFile(file.string(), {}, ops);
      if (m.ok()) {
        ++converted;
        Status valid = core::ValidateModel(m.value(), file.string());
        EXPECT_TRUE(valid.ok()) << valid.message();
      } else {
        ++refused;
        reasons[Reason(m.status().message())].push_back(dir.path().filename().string());
      }
    }
    std::printf("[%s] converted %zu, refused %zu\n", set, converted, refused);
    for (const auto& [why, models] : reasons) {
      std::printf("  %3zu x %s (e.g. %s)\n", models.size(), why.c_str(), models[0].c_str());
    }
  }
}

}  // namespace
}  // namespace aclsim::convert
