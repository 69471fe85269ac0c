// libFuzzer target for graph `.om` files (core/model_file.h): ParseModel must refuse or
// accept any bytes without crashing, and an accepted model must validate and round-trip
// through SerializeModel + ParseModel to the same bytes. Each input is tried as given and,
// so that mutations get past the checksum to the field parser, once more with its header's
// payload size and CRC-32 rewritten to fit. Build and run: docs/om-format.md, "Fuzzing".
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/model_file.h"
#include "core/om_codec.h"

namespace {

void Check(const uint8_t* data, size_t size) {
  using aclsim::core::ParseModel;
  using aclsim::core::SerializeModel;
  auto parsed = ParseModel(data, size, "fuzz.om");
  if (!parsed.ok()) return;
  if (!aclsim::core::ValidateModel(*parsed, "fuzz.om").ok()) std::abort();
  const auto bytes = SerializeModel(*parsed);
  auto again = ParseModel(bytes.data(), bytes.size(), "fuzz.om");
  if (!again.ok() || SerializeModel(*again) != bytes) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Check(data, size);
  constexpr size_t kHeader = aclsim::core::kOmHeaderBytes;
  if (size < kHeader) return 0;
  std::vector<uint8_t> sealed(data, data + size);
  const uint64_t payload = size - kHeader;
  const uint32_t crc = aclsim::core::Crc32(sealed.data() + kHeader, payload);
  std::memcpy(sealed.data() + 16, &payload, 8);
  std::memcpy(sealed.data() + 24, &crc, 4);
  Check(sealed.data(), sealed.size());
  return 0;
}
