// libFuzzer target for graph `.om` files (core/model_file.h): ParseModel must refuse or
// accept any bytes without crashing, and an accepted model must validate and round-trip
// through SerializeModel + ParseModel to the same bytes. Build and run: docs/om-format.md,
// "Fuzzing".
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "core/model_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using aclsim::core::ParseModel;
  using aclsim::core::SerializeModel;
  auto parsed = ParseModel(data, size, "fuzz.om");
  if (!parsed.ok()) return 0;
  if (!aclsim::core::ValidateModel(*parsed, "fuzz.om").ok()) std::abort();
  const auto bytes = SerializeModel(*parsed);
  auto again = ParseModel(bytes.data(), bytes.size(), "fuzz.om");
  if (!again.ok() || SerializeModel(*again) != bytes) std::abort();
  return 0;
}
