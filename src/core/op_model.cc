// Single-op model files and the registry (core/op_model.h).
#include "core/op_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "common/read_file.h"
#include "core/op_cache.h"
#include "dfx/log.h"

namespace aclsim::core {

namespace {

bool DimAccepts(int64_t model_dim, int64_t dim, const std::pair<int64_t, int64_t>* range) {
  if (model_dim != ops::kUnknownDim) return model_dim == dim;
  if (dim < 0) return false;  // a call's dims are concrete at execution
  if (range == nullptr) return true;
  return dim >= range->first && (range->second == -1 || dim <= range->second);
}

ops::Format StorageOf(const ops::TensorDesc& t) {
  return t.has_storage_layout() ? t.storage_format : t.format;
}

bool DescAccepts(const ops::TensorDesc& model, const ops::TensorDesc& call) {
  if (model.absent() || call.absent()) return model.absent() && call.absent();
  if (model.dtype != call.dtype || model.format != call.format ||
      StorageOf(model) != StorageOf(call)) {
    return false;
  }
  if (model.value && (!call.value || *call.value != *model.value)) return false;
  if (model.dims.size() == 1 && model.dims[0] == ops::kUnknownRank) return true;
  if (model.dims.size() != call.dims.size()) return false;
  const bool ranged = model.shape_range.size() == model.dims.size();
  for (size_t i = 0; i < model.dims.size(); ++i) {
    if (!DimAccepts(model.dims[i], call.dims[i], ranged ? &model.shape_range[i] : nullptr)) {
      return false;
    }
  }
  return true;
}

bool SameCall(const ops::OpCall& a, const ops::OpCall& b) {
  if (OpCacheKey(a, true) != OpCacheKey(b, true)) return false;
  for (size_t i = 0; i < a.inputs.size(); ++i) {
    if (a.inputs[i].shape_range != b.inputs[i].shape_range) return false;
  }
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    if (a.outputs[i].shape_range != b.outputs[i].shape_range) return false;
  }
  return true;
}

}  // namespace

std::vector<uint8_t> SerializeOpModel(const OpModel& model) {
  OmWriter payload;
  payload.Str(model.call.type);
  payload.Str(model.soc_version);
  payload.U32(static_cast<uint32_t>(model.call.inputs.size()));
  for (const auto& t : model.call.inputs) payload.Tensor(t);
  payload.U32(static_cast<uint32_t>(model.call.outputs.size()));
  for (const auto& t : model.call.outputs) payload.Tensor(t);
  payload.Attrs(model.call.attrs);
  return SealOm(kOmKindSingleOp, payload.bytes());
}

bool LooksLikeOpModel(const void* data, size_t size) { return HasOmMagic(data, size); }

Result<OpModel> ParseOpModel(const void* data, size_t size, std::string_view origin) {
  constexpr OmErrorStyle kStyle{"single-op model", StatusCode::kOpLoadFailed,
                                StatusCode::kOpLoadFailed};
  ACLSIM_ASSIGN_OR_RETURN(const OmPayload payload, OpenOm(data, size, origin, kStyle));
  if (payload.kind != kOmKindSingleOp) {
    return Err(StatusCode::kOpLoadFailed,
               "single-op model {}: model kind {} is not a single-op model (kind {})", origin,
               payload.kind, kOmKindSingleOp);
  }
  OmReader r(payload.data, payload.size, StatusCode::kOpLoadFailed,
             fmt::format("single-op model {}", origin));
  OpModel model;
  model.source = std::string(origin);
  model.call.type = r.Str("op type");
  if (r.ok() && model.call.type.empty()) r.Fail("op type is empty");
  model.soc_version = r.Str("soc_version");
  const size_t ninputs = r.Count("inputs", kOmMinTensorBytes, kOpModelMaxTensors);
  for (size_t i = 0; i < ninputs && r.ok(); ++i) {
    model.call.inputs.push_back(r.Tensor(fmt::format("input {}", i)));
  }
  const size_t noutputs = r.Count("outputs", kOmMinTensorBytes, kOpModelMaxTensors);
  for (size_t i = 0; i < noutputs && r.ok(); ++i) {
    model.call.outputs.push_back(r.Tensor(fmt::format("output {}", i)));
    if (r.ok() && model.call.outputs.back().absent()) r.Fail("output {} has no dtype", i);
  }
  model.call.attrs = r.Attrs("");
  if (r.ok() && r.remaining() != 0)
    r.Fail("{} unexpected bytes after the attributes", r.remaining());
  if (!r.ok()) return r.status();
  return model;
}

bool OpModelMatches(const ops::OpCall& model, const ops::OpCall& call) {
  if (model.type != call.type || model.inputs.size() != call.inputs.size() ||
      model.outputs.size() != call.outputs.size() || model.attrs != call.attrs) {
    return false;
  }
  for (size_t i = 0; i < model.inputs.size(); ++i) {
    if (!DescAccepts(model.inputs[i], call.inputs[i])) return false;
  }
  for (size_t i = 0; i < model.outputs.size(); ++i) {
    // Outputs carry no constants: a model output never has a value to compare.
    if (model.outputs[i].value) return false;
    if (!DescAccepts(model.outputs[i], call.outputs[i])) return false;
  }
  return true;
}

OpModelRegistry& OpModelRegistry::Process() {
  static OpModelRegistry* registry = new OpModelRegistry();  // outlives every caller
  return *registry;
}

void OpModelRegistry::Add(OpModel model) {
  auto shared = std::make_shared<const OpModel>(std::move(model));
  std::lock_guard<std::mutex> lock(mu_);
  auto& models = by_type_[shared->call.type];
  for (auto& existing : models) {
    if (SameCall(existing->call, shared->call)) {
      ACLSIM_LOG_DEBUG(dfx::Module::kAscendCl, "single-op model {} replaces {}", shared->source,
                       existing->source);
      existing = shared;
      return;
    }
  }
  models.push_back(std::move(shared));
  ++count_;
}

std::shared_ptr<const OpModel> OpModelRegistry::Match(const ops::OpCall& call) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = by_type_.find(call.type);
  if (it == by_type_.end()) return nullptr;
  for (auto m = it->second.rbegin(); m != it->second.rend(); ++m) {
    if (OpModelMatches((*m)->call, call)) return *m;
  }
  return nullptr;
}

size_t OpModelRegistry::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return count_;
}

void OpModelRegistry::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  by_type_.clear();
  count_ = 0;
  dir_set_ = false;
}

Status OpModelRegistry::LoadBytes(const void* data, size_t size) {
  ACLSIM_ASSIGN_OR_RETURN(OpModel model, ParseOpModel(data, size, "<memory>"));
  ACLSIM_LOG_INFO(dfx::Module::kAscendCl, "loaded single-op model of {} ({} bytes)",
                  model.call.type, size);
  Add(std::move(model));
  return Status::Ok();
}

Status OpModelRegistry::LoadDir(const std::string& dir, size_t* count) {
  namespace fs = std::filesystem;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (dir_set_) {
      return Err(StatusCode::kRepeatInitialize,
                 "the single-op model directory is already set; aclopSetModelDir may be called "
                 "once per process");
    }
  }
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return Err(StatusCode::kInvalidFile,
               "model directory '{}' does not exist or is not a directory", dir);
  }
  // The directory itself and two levels below it (CANN: "dir1, dir1/dir2, dir1/dir2/dir3").
  constexpr int kMaxDepth = 2;
  std::vector<fs::path> files;
  auto options = fs::directory_options::skip_permission_denied;
  for (auto it = fs::recursive_directory_iterator(dir, options, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    std::error_code entry_ec;
    if (it->is_directory(entry_ec) && it.depth() >= kMaxDepth) it.disable_recursion_pending();
    if (it->is_regular_file(entry_ec) && it->path().extension() == ".om") {
      files.push_back(it->path());
    }
  }
  if (ec)
    return Err(StatusCode::kInvalidFile, "cannot read model directory '{}': {}", dir, ec.message());
  std::sort(files.begin(), files.end());

  std::vector<OpModel> models;
  for (const auto& path : files) {
    ACLSIM_ASSIGN_OR_RETURN(auto bytes, ReadRegularFile<std::vector<uint8_t>>(
                                            path.string(), 1ull << 30, "single-op model"));
    ACLSIM_ASSIGN_OR_RETURN(OpModel model, ParseOpModel(bytes.data(), bytes.size(), path.string()));
    models.push_back(std::move(model));
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (dir_set_) {
      return Err(StatusCode::kRepeatInitialize,
                 "the single-op model directory is already set; aclopSetModelDir may be called "
                 "once per process");
    }
    dir_set_ = true;
  }
  for (auto& model : models) {
    ACLSIM_LOG_INFO(dfx::Module::kAscendCl, "loaded single-op model {} ({})", model.source,
                    model.call.type);
    Add(std::move(model));
  }
  if (count != nullptr) *count = models.size();
  return Status::Ok();
}

}  // namespace aclsim::core
