// OpCache: keys, hits, incremental compiles, LRU eviction by bytes and entries, the env bound.
#include "core/op_cache.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <thread>
#include <vector>

#include "ops/op_library.h"

namespace aclsim::core {
namespace {

ops::OpCall AddCall(int64_t rows, ops::DataType dtype = ops::DataType::kFloat) {
  ops::OpCall call;
  call.type = "Add";
  ops::TensorDesc desc;
  desc.dtype = dtype;
  desc.dims = {rows, 8};
  call.inputs = {desc, desc};
  call.outputs = {desc};
  return call;
}

driver::DeviceProps Props() {
  driver::DeviceProps props;
  props.vector_core_num = 48;
  props.aicore_num = 24;
  props.ub_bytes = 192 * 1024;
  return props;
}

struct Counter {
  int compiles = 0;
};

Result<std::shared_ptr<const ops::OpKernel>> Get(OpCache& cache, const ops::OpCall& call,
                                                 OpCacheOutcome* outcome,
                                                 Counter* counter = nullptr) {
  return cache.GetOrCompile(
      OpCacheKey(call, true), [&] { return OpCacheKey(call, false); },
      [&]() {
        if (counter != nullptr) ++counter->compiles;
        return ops::OpLibrary::Builtin().Compile(call, Props());
      },
      outcome);
}

TEST(OpCacheKey, DiffersByEverythingThatSelectsAKernel) {
  const auto base = AddCall(4);
  auto other_shape = AddCall(5);
  auto other_type = AddCall(4, ops::DataType::kFloat16);
  auto with_attr = AddCall(4);
  with_attr.attrs["x"] = int64_t{1};
  auto with_value = AddCall(4);
  with_value.inputs[1].value = std::vector<uint8_t>{1, 2};
  EXPECT_NE(OpCacheKey(base, true), OpCacheKey(other_shape, true));
  EXPECT_EQ(OpCacheKey(base, false), OpCacheKey(other_shape, false));  // same binary
  EXPECT_NE(OpCacheKey(base, false), OpCacheKey(other_type, false));
  EXPECT_NE(OpCacheKey(base, true), OpCacheKey(with_attr, true));
  EXPECT_NE(OpCacheKey(base, true), OpCacheKey(with_value, true));
  EXPECT_EQ(OpCacheKey(base, true), OpCacheKey(AddCall(4), true));
}

TEST(OpCache, HitMissAndIncremental) {
  OpCache cache(0);
  OpCacheOutcome outcome;
  Counter counter;
  ASSERT_TRUE(Get(cache, AddCall(4), &outcome, &counter).ok());
  EXPECT_EQ(outcome, OpCacheOutcome::kMiss);
  ASSERT_TRUE(Get(cache, AddCall(4), &outcome, &counter).ok());
  EXPECT_EQ(outcome, OpCacheOutcome::kHit);
  ASSERT_TRUE(Get(cache, AddCall(6), &outcome, &counter).ok());
  EXPECT_EQ(outcome, OpCacheOutcome::kIncremental);
  const auto stats = cache.stats();
  EXPECT_EQ(stats.hits, 1u);
  EXPECT_EQ(stats.misses, 1u);
  EXPECT_EQ(stats.incremental, 1u);
  EXPECT_EQ(stats.entries, 2u);
  EXPECT_EQ(stats.binaries, 1u);
  EXPECT_EQ(counter.compiles, 2);
}

TEST(OpCache, FailedCompileIsNotCached) {
  OpCache cache(0);
  OpCacheOutcome outcome;
  auto bad = AddCall(4);
  bad.inputs[1].dims = {3};
  EXPECT_EQ(Get(cache, bad, &outcome).status().code(), StatusCode::kOpInputNotMatch);
  EXPECT_EQ(cache.stats().entries, 0u);
}

TEST(OpCache, EvictsLeastRecentlyUsedPastTheByteBound) {
  // Room for one binary and about two shapes.
  OpCache cache(OpCache::kBinaryBytes + 2 * OpCache::kTilingBytes + 200);
  OpCacheOutcome outcome;
  ASSERT_TRUE(Get(cache, AddCall(1), &outcome).ok());
  ASSERT_TRUE(Get(cache, AddCall(2), &outcome).ok());
  ASSERT_TRUE(Get(cache, AddCall(1), &outcome).ok());  // 1 is now the most recent
  EXPECT_EQ(outcome, OpCacheOutcome::kHit);
  ASSERT_TRUE(Get(cache, AddCall(3), &outcome).ok());  // evicts 2
  EXPECT_EQ(cache.stats().evictions, 1u);
  EXPECT_NE(cache.Find(OpCacheKey(AddCall(1), true)), nullptr);
  EXPECT_EQ(cache.Find(OpCacheKey(AddCall(2), true)), nullptr);
  EXPECT_NE(cache.Find(OpCacheKey(AddCall(3), true)), nullptr);
  EXPECT_LE(cache.stats().bytes, cache.stats().max_bytes);
}

TEST(OpCache, MaxEntriesBoundsShapes) {
  OpCache cache(0);
  cache.SetMaxEntries(3);
  OpCacheOutcome outcome;
  for (int i = 1; i <= 10; ++i) ASSERT_TRUE(Get(cache, AddCall(i), &outcome).ok());
  EXPECT_EQ(cache.stats().entries, 3u);
  EXPECT_EQ(cache.stats().evictions, 7u);
}

TEST(OpCache, BoundComesFromTheEnvironment) {
  ::unsetenv("ASCEND_OP_CACHE_MAX_SIZE");
  ::setenv("ASCEND_MAX_OP_CACHE_SIZE", "7", 1);
  EXPECT_EQ(OpCache::MaxBytesFromEnv(), size_t{7} << 20);
  ::setenv("ASCEND_MAX_OP_CACHE_SIZE", "-1", 1);
  EXPECT_EQ(OpCache::MaxBytesFromEnv(), 0u);  // no aging
  ::unsetenv("ASCEND_MAX_OP_CACHE_SIZE");
  ::setenv("ASCEND_OP_CACHE_MAX_SIZE", "3", 1);
  EXPECT_EQ(OpCache::MaxBytesFromEnv(), size_t{3} << 20);
  ::setenv("ASCEND_OP_CACHE_MAX_SIZE", "lots", 1);
  EXPECT_EQ(OpCache::MaxBytesFromEnv(), size_t{500} << 20);  // default, with a warning
  ::unsetenv("ASCEND_OP_CACHE_MAX_SIZE");
  EXPECT_EQ(OpCache::MaxBytesFromEnv(), size_t{500} << 20);
}

TEST(OpCache, ConcurrentCompilesOfOneKeyShareOneEntry) {
  OpCache cache(0);
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  std::vector<const ops::OpKernel*> kernels(8);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      OpCacheOutcome outcome;
      auto kernel = Get(cache, AddCall(16), &outcome);
      if (kernel.ok()) {
        ++ok;
        kernels[static_cast<size_t>(t)] = kernel.value().get();
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(ok.load(), 8);
  EXPECT_EQ(cache.stats().entries, 1u);
  // Every thread ends up with a kernel for the key (the cached one, or its own twin).
  for (auto* kernel : kernels) EXPECT_NE(kernel, nullptr);
}

Result<std::shared_ptr<const ops::OpKernel>> GetWithTicket(OpCache& cache, const ops::OpCall& call,
                                                           OpCache::Ticket* ticket) {
  OpCacheOutcome outcome;
  return cache.GetOrCompile(
      OpCacheKey(call, true), [&] { return OpCacheKey(call, false); },
      [&]() { return ops::OpLibrary::Builtin().Compile(call, Props()); }, &outcome, ticket);
}

TEST(OpCache, TicketTouchCountsAHitAndRefreshesTheEntry) {
  OpCache cache(0);
  cache.SetMaxEntries(2);
  OpCache::Ticket first;
  ASSERT_TRUE(GetWithTicket(cache, AddCall(1), &first).ok());
  OpCache::Ticket second;
  ASSERT_TRUE(GetWithTicket(cache, AddCall(2), &second).ok());
  EXPECT_TRUE(cache.Touch(first));  // now AddCall(2) is the least recent
  EXPECT_EQ(cache.stats().hits, 1u);
  ASSERT_TRUE(GetWithTicket(cache, AddCall(3), nullptr).ok());  // evicts AddCall(2)
  OpCacheOutcome outcome;
  ASSERT_TRUE(Get(cache, AddCall(1), &outcome).ok());
  EXPECT_EQ(outcome, OpCacheOutcome::kHit);  // the touched entry survived
  ASSERT_TRUE(Get(cache, AddCall(2), &outcome).ok());
  EXPECT_NE(outcome, OpCacheOutcome::kHit);
}

TEST(OpCache, TicketsDieWithEvictionClearAndTheCache) {
  OpCache::Ticket empty;
  OpCache cache(0);
  EXPECT_FALSE(cache.Touch(empty));
  OpCache::Ticket ticket;
  ASSERT_TRUE(GetWithTicket(cache, AddCall(1), &ticket).ok());
  EXPECT_TRUE(cache.Touch(ticket));
  cache.SetMaxEntries(1);
  ASSERT_TRUE(GetWithTicket(cache, AddCall(2), nullptr).ok());  // evicts AddCall(1)
  EXPECT_FALSE(cache.Touch(ticket));

  OpCache::Ticket other;
  ASSERT_TRUE(GetWithTicket(cache, AddCall(2), &other).ok());
  EXPECT_TRUE(cache.Touch(other));
  cache.Clear();
  EXPECT_FALSE(cache.Touch(other));

  // A ticket of one cache never names an entry of another.
  OpCache first(0);
  OpCache second(0);
  ASSERT_TRUE(GetWithTicket(first, AddCall(1), &ticket).ok());
  ASSERT_TRUE(GetWithTicket(second, AddCall(1), nullptr).ok());
  EXPECT_FALSE(second.Touch(ticket));
  EXPECT_EQ(second.stats().hits, 0u);
}

TEST(TensorDescEquality, ComparesEveryField) {
  ops::TensorDesc a;
  a.dtype = ops::DataType::kFloat;
  a.dims = {2, 3};
  EXPECT_EQ(a, a);
  auto changed = [&a](auto change) {
    ops::TensorDesc b = a;
    change(b);
    return b;
  };
  EXPECT_NE(a, changed([](auto& d) { d.dtype = ops::DataType::kFloat16; }));
  EXPECT_NE(a, changed([](auto& d) { d.format = ops::Format::kNchw; }));
  EXPECT_NE(a, changed([](auto& d) { d.dims = {3, 2}; }));
  EXPECT_NE(a, changed([](auto& d) { d.storage_format = ops::Format::kNc1hwc0; }));
  EXPECT_NE(a, changed([](auto& d) { d.storage_dims = {1}; }));
  EXPECT_NE(a, changed([](auto& d) { d.shape_range = {{1, 2}}; }));
  EXPECT_NE(a, changed([](auto& d) { d.name = "x"; }));
  EXPECT_NE(a, changed([](auto& d) { d.value = std::vector<uint8_t>{}; }));
}

}  // namespace
}  // namespace aclsim::core
