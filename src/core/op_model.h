// Single-op models: the `.om` files `atc --singleop` writes and aclopSetModelDir / aclopLoad
// read (format: docs/om-format.md, "Single-op models").
//
// A single-op model holds one op call -- type, input and output descriptors (dtype, format,
// storage layout, dims with -1 / {-2} for unknown, shape ranges, constant values) and
// attributes -- checked offline against the op library. Loaded models are registered by op
// type in a process-wide OpModelRegistry; at execution (core/op_executor.h) a call that a
// loaded model matches runs "from the model" (it still compiles through the OpCache, but is
// charged as an incremental compile: the binary came with the model), and a call no model
// matches is compiled online (CANN's newest behaviour).
//
// Matching (OpModelMatches): same type, same input and output counts; per descriptor the
// same dtype, format and storage format (an absent optional input matches only an absent
// one); dims equal, where a model dim of -1 accepts any dim inside the model's shape range
// for that axis (or any dim without a range) and a model shape of {-2} accepts any shape;
// a model constant value must equal the call's (a model without a value accepts any); the
// attributes as given are equal.
//
// Thread-safety: ParseOpModel / SerializeOpModel are pure. OpModelRegistry's methods may be
// called concurrently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "core/om_codec.h"
#include "ops/types.h"

namespace aclsim::core {

// File header and limits: the shared ones of core/om_codec.h (kind 1 = single-op model).
inline constexpr const char (&kOpModelMagic)[8] = kOmMagic;
inline constexpr uint32_t kOpModelVersion = kOmVersion;
inline constexpr uint32_t kOpModelKindSingleOp = kOmKindSingleOp;
inline constexpr size_t kOpModelHeaderBytes = kOmHeaderBytes;
// Sanity bounds a parser enforces (hostile input never allocates more than it holds).
inline constexpr size_t kOpModelMaxRank = kOmMaxRank;
inline constexpr size_t kOpModelMaxTensors = 1024;
inline constexpr size_t kOpModelMaxString = kOmMaxString;

struct OpModel {
  ops::OpCall call;         // as checked by atc: attrs as the JSON gave them
  std::string soc_version;  // the --soc_version it was built for
  std::string source;       // file path or "<memory>" (not serialised)
};

// The bytes of a model file.
std::vector<uint8_t> SerializeOpModel(const OpModel& model);

// Parses and validates a model file's bytes. Every defect -- short or long input, wrong
// magic, version or kind, CRC mismatch, truncated or over-long fields, unknown dtype /
// format / attribute tag, bad dims or ranges, a constant whose size does not fit its
// descriptor -- is kOpLoadFailed with a message naming `origin` and the field.
Result<OpModel> ParseOpModel(const void* data, size_t size, std::string_view origin);

// True if the bytes start like one of our files (magic only).
bool LooksLikeOpModel(const void* data, size_t size);

// Whether `model` accepts `call` (see the file comment).
bool OpModelMatches(const ops::OpCall& model, const ops::OpCall& call);

// The loaded single-op models of the process.
class OpModelRegistry {
 public:
  // The process-wide registry (aclopSetModelDir / aclopLoad register here; models outlive
  // aclFinalize, as in CANN).
  static OpModelRegistry& Process();

  // Registers a model; a model whose call is identical to a registered one replaces it.
  void Add(OpModel model);
  // The newest registered model that matches `call`, or nullptr.
  std::shared_ptr<const OpModel> Match(const ops::OpCall& call) const;
  size_t size() const;
  void Clear();  // for tests

  // aclopSetModelDir: loads every *.om under `dir` (the directory itself and two levels of
  // subdirectories below it), then registers them all. Allowed once per registry:
  //   kRepeatInitialize  a previous call succeeded;
  //   kInvalidFile       `dir` is missing or not a directory, or a file cannot be read;
  //   kOpLoadFailed      a *.om file is not a valid single-op model (nothing is registered).
  // Files not named *.om are ignored. Returns the number of models registered via *count.
  Status LoadDir(const std::string& dir, size_t* count);
  // aclopLoad: parses `size` bytes and registers the model.
  Status LoadBytes(const void* data, size_t size);

 private:
  mutable std::mutex mu_;
  bool dir_set_ = false;
  size_t count_ = 0;
  std::unordered_map<std::string, std::vector<std::shared_ptr<const OpModel>>> by_type_;
};

}  // namespace aclsim::core
