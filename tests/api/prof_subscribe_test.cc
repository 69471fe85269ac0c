// The model subscription of acl_prof.h through the public API: a subscriber's pipe receives
// one op info per kernel of every execution (names, types, simulated times), the getters read
// it, aclprofModelUnSubscribe closes the pipe; misuse gets the documented codes.
#include <unistd.h>

#include <string>
#include <vector>

#include "acl/acl_prof.h"
#include "api_test.h"
#include "device_dataset.h"

namespace {

using acltest::AclTest;
using acltest::DeviceDataset;

std::string ModelPath(const char* name) { return std::string(ACLSIM_GRAPH_MODEL_DIR "/") + name; }

void RunAddRelu(uint32_t id) {
  DeviceDataset in;
  DeviceDataset out;
  in.AddFilled(std::vector<float>{1, -2, 3, -4, 5, -6});
  in.AddFilled(std::vector<float>{0.5F, 1, -1, 2, -8, 1});
  out.Add(6 * sizeof(float));
  out.Add(6 * sizeof(float));
  ASSERT_ACL_OK(aclmdlExecute(id, in.get(), out.get()));
}

// Everything readable from `fd` until EOF.
std::vector<char> ReadToEnd(int fd) {
  std::vector<char> all;
  char chunk[4096];
  for (;;) {
    const ssize_t n = read(fd, chunk, sizeof(chunk));
    if (n <= 0) break;
    all.insert(all.end(), chunk, chunk + n);
  }
  return all;
}

class ProfSubscribeTest : public AclTest {};

TEST_F(ProfSubscribeTest, SubscriberReadsEveryKernelOfEveryExecution) {
  uint32_t id = 0;
  ASSERT_ACL_OK(aclmdlLoadFromFile(ModelPath("add_relu.om").c_str(), &id));
  int fds[2] = {-1, -1};
  ASSERT_EQ(pipe(fds), 0);
  aclprofSubscribeConfig* config = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
  ASSERT_NE(config, nullptr) << acltest::TakeRecentErrors();
  ASSERT_ACL_OK(aclprofModelSubscribe(id, config));
  EXPECT_ACL_ERR(ACL_ERROR_PROF_REPEAT_SUBSCRIBE, aclprofModelSubscribe, id, config);
  RunAddRelu(id);
  RunAddRelu(id);
  ASSERT_ACL_OK(aclprofModelUnSubscribe(id));  // closes fds[1]
  const std::vector<char> info = ReadToEnd(fds[0]);
  close(fds[0]);

  size_t desc_size = 0;
  ASSERT_ACL_OK(aclprofGetOpDescSize(&desc_size));
  ASSERT_GT(desc_size, 0u);
  ASSERT_EQ(info.size() % desc_size, 0u);
  uint32_t count = 0;
  ASSERT_ACL_OK(aclprofGetOpNum(info.data(), info.size(), &count));
  ASSERT_EQ(count, 6u);  // add, relu, scale; twice
  const char* names[] = {"add", "relu", "scale"};
  const char* types[] = {"Add", "Relu", "Mul"};
  uint64_t previous_end = 0;
  for (uint32_t i = 0; i < count; ++i) {
    size_t len = 0;
    ASSERT_ACL_OK(aclprofGetOpTypeLen(info.data(), info.size(), i, &len));
    std::vector<char> type(len);
    ASSERT_ACL_OK(aclprofGetOpType(info.data(), info.size(), i, type.data(), len));
    EXPECT_STREQ(type.data(), types[i % 3]);
    ASSERT_ACL_OK(aclprofGetOpNameLen(info.data(), info.size(), i, &len));
    std::vector<char> name(len);
    ASSERT_ACL_OK(aclprofGetOpName(info.data(), info.size(), i, name.data(), len));
    EXPECT_STREQ(name.data(), names[i % 3]);
    const uint64_t start = aclprofGetOpStart(info.data(), info.size(), i);
    const uint64_t end = aclprofGetOpEnd(info.data(), info.size(), i);
    EXPECT_GT(end, start);
    EXPECT_GE(start, previous_end);  // one stream: in order
    previous_end = end;
    EXPECT_EQ(aclprofGetOpDuration(info.data(), info.size(), i), end - start);
    EXPECT_EQ(aclprofGetModelId(info.data(), info.size(), i), id);
    EXPECT_EQ(aclprofGetOpFlag(info.data(), info.size(), i), ACL_SUBSCRIBE_OP);
    const char* thread =
        aclprofGetOpAttriValue(info.data(), info.size(), i, ACL_SUBSCRIBE_ATTRI_THREADID);
    ASSERT_NE(thread, nullptr);
    EXPECT_GT(std::stoull(thread), 0u);
  }
  // Bad lengths and indexes.
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofGetOpNum, info.data(), info.size() - 1, &count);
  size_t len = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofGetOpTypeLen, info.data(), info.size(), count,
                 &len);
  char tiny[2];
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofGetOpName, info.data(), info.size(), 0u, tiny,
                 sizeof(tiny));
  EXPECT_EQ(aclprofGetOpStart(info.data(), info.size(), count), 0u);
  EXPECT_RECENT_ERROR_NAMES(aclprofGetOpStart);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_MODEL_ID, aclprofModelUnSubscribe, id);
  EXPECT_ACL_OK(aclprofDestroySubscribeConfig(config));
  EXPECT_ACL_OK(aclmdlUnload(id));
}

TEST_F(ProfSubscribeTest, MisuseGetsTheDocumentedCodes) {
  int fds[2] = {-1, -1};
  ASSERT_EQ(pipe(fds), 0);
  aclprofSubscribeConfig* config = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
  ASSERT_NE(config, nullptr);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_MODEL_ID, aclprofModelSubscribe, 4242u, config);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_MODEL_ID, aclprofModelUnSubscribe, 4242u);
  int closed = 1000;
  EXPECT_EQ(aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &closed), nullptr);
  EXPECT_RECENT_ERROR_NAMES(aclprofCreateSubscribeConfig);
  EXPECT_EQ(aclprofCreateSubscribeConfig(2, ACL_AICORE_NONE, &fds[1]), nullptr);
  EXPECT_RECENT_ERROR_NAMES(aclprofCreateSubscribeConfig);
  EXPECT_ACL_OK(aclprofDestroySubscribeConfig(config));
  close(fds[0]);
  close(fds[1]);
}

TEST_F(ProfSubscribeTest, StepMarksAndRangePushExNeedTheirPartners) {
  aclprofStepInfo* step = aclprofCreateStepInfo();
  ASSERT_NE(step, nullptr);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofGetStepTimestamp, step, ACL_STEP_END, nullptr);
  EXPECT_ACL_OK(aclprofGetStepTimestamp(step, ACL_STEP_START, nullptr));
  EXPECT_ACL_OK(aclprofGetStepTimestamp(step, ACL_STEP_END, nullptr));
  aclprofDestroyStepInfo(step);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofRangePop);
  aclprofTensorInfo info = {};
  info.opNameId = aclprofStr2Id("conv1");
  info.opTypeId = aclprofStr2Id("Conv2D");
  aclprofEventAttributes attr = {};
  attr.version = ACL_PROF_EVENT_ATTR_VERSION;
  attr.size = sizeof(attr);
  attr.messageType = ACL_PROF_MESSAGE_TYPE_TENSOR_INFO;
  attr.message.tensorInfo = &info;
  EXPECT_ACL_OK(aclprofRangePushEx(&attr));
  EXPECT_ACL_OK(aclprofRangePop());
  attr.version = 7;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofRangePushEx, &attr);
}

}  // namespace
