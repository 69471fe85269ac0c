// OpCache: compiled single ops, keyed by everything that selects a kernel.
//
// The key of a call is its op type, every input and output descriptor (dtype, format,
// storage layout, dims, constant values) and its attributes; two calls with equal keys run
// the same compiled kernel. A second level keys the kernel "binary" (the key without dims):
// a call whose shape is new but whose binary is cached reuses that binary and only
// recomputes tiling (an incremental compile, counted and charged as such).
//
// Bounded LRU: entries are charged kBinaryBytes per distinct binary and kTilingBytes per
// shape (plus the key); the bound is ASCEND_MAX_OP_CACHE_SIZE (CANN's name, MB, default 500,
// -1 = no aging) or ASCEND_OP_CACHE_MAX_SIZE (the name the CANN runtime literature uses),
// read when the cache is created. Hits, misses, incremental compiles and evictions are
// counted and logged at DEBUG.
//
// Thread-safety: all methods may be called concurrently. Two threads missing on the same
// key both compile; the first insert wins and both get its kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "common/spin_lock.h"
#include "common/status.h"
#include "ops/op_kernel.h"

namespace aclsim::core {

struct OpCacheStats {
  uint64_t hits = 0;
  uint64_t misses = 0;       // full compiles
  uint64_t incremental = 0;  // new shape of a cached binary: tiling only
  uint64_t evictions = 0;
  size_t entries = 0;
  size_t binaries = 0;
  size_t bytes = 0;
  size_t max_bytes = 0;  // 0 = unbounded
};

enum class OpCacheOutcome { kHit, kMiss, kIncremental };

struct OpCacheEntry {
  std::string key;
  std::string binary_key;
  std::shared_ptr<const ops::OpKernel> kernel;
};

class OpCache {
 public:
  static constexpr size_t kBinaryBytes = 64 * 1024;
  static constexpr size_t kTilingBytes = 1024;

  // max_bytes 0 = unbounded.
  explicit OpCache(size_t max_bytes);
  // The bound from the environment (see above); 500 MB by default.
  static size_t MaxBytesFromEnv();

  // Names a cached entry for Touch: valid until the entry is evicted or the cache cleared.
  class Ticket {
   private:
    friend class OpCache;
    uint64_t epoch_ = 0;  // 0: names nothing
    std::list<OpCacheEntry>::iterator it_;
  };

  using CompileFn = std::function<Result<std::shared_ptr<const ops::OpKernel>>()>;
  // The kernel for `key`, compiling it with `compile` on a miss (`binary_key` is called only
  // then). *outcome says which. `ticket`, if not null, receives the entry's ticket.
  Result<std::shared_ptr<const ops::OpKernel>> GetOrCompile(
      const std::string& key, const std::function<std::string()>& binary_key,
      const CompileFn& compile, OpCacheOutcome* outcome, Ticket* ticket = nullptr);
  // A hit on the entry `ticket` names, without building its key (callers that remember the
  // kernel of a call): refreshes its LRU position and counts a hit. False if the entry may
  // be gone (evicted or cleared since): the caller must look the call up again.
  bool Touch(const Ticket& ticket);
  // Lookup only (nullptr on a miss); counts a hit when found.
  std::shared_ptr<const ops::OpKernel> Find(const std::string& key);
  OpCacheStats stats() const;
  void Clear();
  // Bounds the number of cached shapes too (aclopSetMaxOpQueueNum); 0 = unbounded.
  void SetMaxEntries(size_t max_entries);

 private:
  using Entry = OpCacheEntry;
  void EvictLocked();
  void NewEpochLocked();
  size_t ChargeLocked(const Entry& entry) const;

  const size_t max_bytes_;
  size_t max_entries_ = 0;
  mutable SpinLock mu_;   // short sections only (Touch is on every remembered launch)
  std::list<Entry> lru_;  // front = most recent
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
  std::unordered_map<std::string, size_t> binaries_;  // binary key -> shapes cached
  OpCacheStats stats_;
  uint64_t epoch_ = 0;  // changes whenever an entry leaves (unique across caches)
};

// The cache key of a call (see above); `with_dims` false gives the binary key.
std::string OpCacheKey(const ops::OpCall& call, bool with_dims);

}  // namespace aclsim::core
