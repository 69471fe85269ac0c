// OpCache (core/op_cache.h).
#include "core/op_cache.h"

#include <fmt/format.h>

#include <atomic>
#include <cstdlib>
#include <string_view>

#include "dfx/log.h"

namespace aclsim::core {

namespace {

void AppendInt(std::string* key, int64_t value) {
  const fmt::format_int text(value);
  key->append(text.data(), text.size());
}

void AppendDesc(std::string* key, const ops::TensorDesc& desc, bool with_dims) {
  AppendInt(key, static_cast<int32_t>(desc.dtype));
  key->push_back(',');
  AppendInt(key, static_cast<int32_t>(desc.format));
  key->push_back(',');
  AppendInt(key, static_cast<int32_t>(desc.storage_format));
  key->push_back(with_dims ? '[' : '<');
  if (with_dims) {
    for (int64_t dim : desc.dims) {
      AppendInt(key, dim);
      key->push_back(' ');
    }
  } else {
    AppendInt(key, static_cast<int64_t>(desc.dims.size()));
  }
  key->push_back(']');
  if (desc.value) {
    key->push_back('=');
    static const char kHex[] = "0123456789abcdef";
    for (uint8_t byte : *desc.value) {
      key->push_back(kHex[byte >> 4]);
      key->push_back(kHex[byte & 15]);
    }
  }
  key->push_back(';');
}

size_t ParseMb(const char* value, bool* unbounded) {
  char* end = nullptr;
  const long long mb = std::strtoll(value, &end, 10);
  if (end == value || *end != '\0') return 0;
  if (mb < 0) {
    *unbounded = true;
    return 0;
  }
  return static_cast<size_t>(mb) << 20;
}

}  // namespace

std::string OpCacheKey(const ops::OpCall& call, bool with_dims) {
  std::string key;
  key.reserve(128);
  key.append(call.type);
  key.push_back('|');
  for (const auto& in : call.inputs) AppendDesc(&key, in, with_dims);
  key.push_back('|');
  for (const auto& out : call.outputs) AppendDesc(&key, out, with_dims);
  key.push_back('|');
  for (const auto& [name, value] : call.attrs) {
    key.append(name);
    key.push_back('=');
    key.append(ops::AttrValueToString(value));
    key.push_back(';');
  }
  return key;
}

size_t OpCache::MaxBytesFromEnv() {
  constexpr size_t kDefault = size_t{500} << 20;
  for (const char* name : {"ASCEND_MAX_OP_CACHE_SIZE", "ASCEND_OP_CACHE_MAX_SIZE"}) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') continue;
    bool unbounded = false;
    const size_t bytes = ParseMb(value, &unbounded);
    if (unbounded) return 0;
    if (bytes == 0) {
      ACLSIM_LOG_WARN(dfx::Module::kAscendCl,
                      "{}={} is not a size in MB; the op cache keeps its default of 500 MB", name,
                      value);
      return kDefault;
    }
    return bytes;
  }
  return kDefault;
}

namespace {
std::atomic<uint64_t> g_next_epoch{1};
}  // namespace

OpCache::OpCache(size_t max_bytes) : max_bytes_(max_bytes) {
  stats_.max_bytes = max_bytes;
  NewEpochLocked();
}

void OpCache::NewEpochLocked() { epoch_ = g_next_epoch.fetch_add(1, std::memory_order_relaxed); }

bool OpCache::Touch(const Ticket& ticket) {
  std::lock_guard<SpinLock> lock(mu_);
  if (ticket.epoch_ == 0 || ticket.epoch_ != epoch_) return false;
  lru_.splice(lru_.begin(), lru_, ticket.it_);
  ++stats_.hits;
  return true;
}

size_t OpCache::ChargeLocked(const Entry& entry) const { return kTilingBytes + entry.key.size(); }

std::shared_ptr<const ops::OpKernel> OpCache::Find(const std::string& key) {
  std::lock_guard<SpinLock> lock(mu_);
  auto it = index_.find(key);
  if (it == index_.end()) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second);
  ++stats_.hits;
  return it->second->kernel;
}

Result<std::shared_ptr<const ops::OpKernel>> OpCache::GetOrCompile(
    const std::string& key, const std::function<std::string()>& make_binary_key,
    const CompileFn& compile, OpCacheOutcome* outcome, Ticket* ticket) {
  bool binary_cached = false;
  std::string binary_key;
  auto issue = [&](std::list<Entry>::iterator entry) {
    if (ticket == nullptr) return;
    ticket->epoch_ = epoch_;
    ticket->it_ = entry;
  };
  {
    std::lock_guard<SpinLock> lock(mu_);
    auto it = index_.find(key);
    if (it != index_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second);
      ++stats_.hits;
      *outcome = OpCacheOutcome::kHit;
      issue(it->second);
      return it->second->kernel;
    }
  }
  binary_key = make_binary_key();
  {
    std::lock_guard<SpinLock> lock(mu_);
    binary_cached = binaries_.count(binary_key) != 0;
  }
  ACLSIM_ASSIGN_OR_RETURN(auto kernel, compile());
  std::lock_guard<SpinLock> lock(mu_);
  auto it = index_.find(key);
  if (it != index_.end()) {  // another thread inserted it meanwhile
    *outcome = OpCacheOutcome::kHit;
    ++stats_.hits;
    issue(it->second);
    return it->second->kernel;
  }
  *outcome = binary_cached ? OpCacheOutcome::kIncremental : OpCacheOutcome::kMiss;
  ++(binary_cached ? stats_.incremental : stats_.misses);
  lru_.push_front(Entry{key, binary_key, kernel});
  index_.emplace(key, lru_.begin());
  if (binaries_[binary_key]++ == 0) {
    stats_.bytes += kBinaryBytes;
    ++stats_.binaries;
  }
  stats_.bytes += ChargeLocked(lru_.front());
  ++stats_.entries;
  EvictLocked();
  issue(lru_.begin());  // never the victim: eviction keeps at least the newest entry
  ACLSIM_LOG_DEBUG(dfx::Module::kAscendCl,
                   "op cache {} for {}: hits {}, misses {}, incremental {}, evictions {}, "
                   "{} entries, {} bytes",
                   binary_cached ? "incremental compile (tiling only)" : "miss",
                   kernel->call().type, stats_.hits, stats_.misses, stats_.incremental,
                   stats_.evictions, stats_.entries, stats_.bytes);
  return kernel;
}

void OpCache::SetMaxEntries(size_t max_entries) {
  std::lock_guard<SpinLock> lock(mu_);
  max_entries_ = max_entries;
  EvictLocked();
}

void OpCache::EvictLocked() {
  auto over = [&] {
    return (max_bytes_ != 0 && stats_.bytes > max_bytes_) ||
           (max_entries_ != 0 && stats_.entries > max_entries_);
  };
  while (over() && lru_.size() > 1) {
    const Entry& victim = lru_.back();
    stats_.bytes -= ChargeLocked(victim);
    auto bin = binaries_.find(victim.binary_key);
    if (bin != binaries_.end() && --bin->second == 0) {
      binaries_.erase(bin);
      stats_.bytes -= kBinaryBytes;
      --stats_.binaries;
    }
    ACLSIM_LOG_DEBUG(dfx::Module::kAscendCl, "op cache evicts {} (LRU, {} bytes over {})",
                     victim.kernel->call().type, stats_.bytes, max_bytes_);
    index_.erase(victim.key);
    lru_.pop_back();
    NewEpochLocked();
    --stats_.entries;
    ++stats_.evictions;
  }
}

OpCacheStats OpCache::stats() const {
  std::lock_guard<SpinLock> lock(mu_);
  return stats_;
}

void OpCache::Clear() {
  std::lock_guard<SpinLock> lock(mu_);
  lru_.clear();
  index_.clear();
  NewEpochLocked();
  binaries_.clear();
  stats_.entries = 0;
  stats_.binaries = 0;
  stats_.bytes = 0;
}

}  // namespace aclsim::core
