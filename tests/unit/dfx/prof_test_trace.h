// A crafted profiling trace shared by the profiling output tests: one device, two streams
// running H2D copy, kernels and D2H copy each, overlapping; stream 2 waits for event 7
// recorded on stream 1 and for a busy DMA engine.
#pragma once

#include "dfx/prof_records.h"

namespace aclsim::dfx::prof::testing {

// Stream 2 waits 1900 ns: 400 for the DMA engine (task 5) and 1500 for event 7 (task 6,
// released by task 3 on stream 1 at 3000 ns). Kernels: MatMul 2000 + 1000 ns, Add 500 ns.
// API 8 launched two tasks (8 and 9); API 10 (thread 200) launched none.
inline Trace PipelineTrace() {
  Trace trace;
  trace.info = {"Ascend910B2", 4242, "./pipeline --n 2", "2026-12-02 03:04:05", 1, 0x7d};
  auto task = [&trace](uint32_t stream, uint64_t id, const char* kind, const char* engine,
                       const char* op_type, const char* op_name, uint64_t ready, uint64_t start,
                       uint64_t end, uint64_t correlation) -> TaskRecord& {
    TaskRecord& t = trace.tasks.emplace_back();
    t.stream_id = stream;
    t.task_id = id;
    t.kind = kind;
    t.engine = engine;
    t.op_type = op_type;
    t.op_name = op_name;
    t.ready_ns = ready;
    t.start_ns = start;
    t.end_ns = end;
    t.correlation_id = correlation;
    return t;
  };
  task(1, 1, "MEMCPY", "DMA", "aclrtMemcpyAsync", "aclrtMemcpyAsync", 0, 0, 1000, 1).bytes = 4096;
  TaskRecord& matmul =
      task(1, 2, "KERNEL", "AI_CORE", "MatMul", "layer1/matmul,0", 1000, 1000, 3000, 2);
  matmul.blocks = 8;
  matmul.bytes = 12288;
  matmul.flops = 1 << 20;
  matmul.cube_ns = 1500;
  matmul.vector_ns = 200;
  matmul.model_id = 1;
  task(1, 3, "EVENT_RECORD", "STREAM", "aclrtRecordEvent", "aclrtRecordEvent", 3000, 3000, 3000, 3)
      .event_id = 7;
  task(1, 4, "MEMCPY", "DMA", "aclrtMemcpyAsync", "aclrtMemcpyAsync", 3000, 3000, 4000, 4).bytes =
      4096;
  task(2, 5, "MEMCPY", "DMA", "aclrtMemcpyAsync", "aclrtMemcpyAsync", 100, 500, 1500, 5).bytes =
      4096;
  task(2, 6, "EVENT_WAIT", "STREAM", "aclrtStreamWaitEvent", "aclrtStreamWaitEvent", 1500, 3000,
       3000, 6)
      .event_id = 7;
  TaskRecord& add = task(2, 7, "KERNEL", "AI_VECTOR", "Add", "Add", 3000, 3000, 3500, 7);
  add.blocks = 2;
  add.vector_ns = 400;
  add.bytes = 8192;
  task(2, 8, "KERNEL", "AI_CORE", "MatMul", "MatMul", 3500, 3500, 4500, 8).blocks = 8;
  task(2, 9, "MEMCPY", "DMA", "aclrtMemcpyAsync", "aclrtMemcpyAsync", 4500, 4500, 5000, 8).bytes =
      4096;
  const char* apis[] = {"aclrtMemcpyAsync", "aclopExecuteV2",    "aclrtRecordEvent",
                        "aclrtMemcpyAsync", "aclrtMemcpyAsync",  "aclrtStreamWaitEvent",
                        "aclopExecuteV2",   "aclmdlExecuteAsync"};
  for (uint64_t id = 1; id <= 8; ++id) {
    trace.apis.push_back({id, apis[id - 1], 100, id * 50, id * 50 + 30});
  }
  trace.apis.push_back({10, "aclrtSynchronizeStream", 200, 600, 5100});
  trace.marks.push_back({"step begin", 100, 10, 10, false, -1, 0});
  trace.marks.push_back({"iteration", 100, 0, 5000, true, -1, 0});
  trace.marks.push_back({"on stream 2", 100, 420, 420, false, 2, 0});
  // device, ns, in use, reserved, free, largest free block
  trace.memory.push_back({0, 0, 4096, 2 << 20, (2 << 20) - 4096, (2 << 20) - 4096});
  trace.memory.push_back({0, 20, 8192, 2 << 20, (2 << 20) - 8192, (1 << 20) - 8192});
  trace.memory.push_back({0, 5000, 4096, 2 << 20, (2 << 20) - 4096, 1 << 20});
  return trace;
}

}  // namespace aclsim::dfx::prof::testing
