// Reliability, hostile files: an aclInit configuration with a key of the wrong type or a value
// out of range fails with ACL_ERROR_PARSE_FILE (docs/errors.md, the table), whatever the key:
// the runtime's own, the simulator's options under "aclsim", the dump and profiler sections
// (their own documented codes); never a wrap, a crash or a success.
#include <string>
#include <vector>

#include "api_test.h"

namespace {

using acltest::AclNoInitTest;
using acltest::TempFile;

struct BadConfig {
  const char* json;
  aclError code;
};

TEST_F(AclNoInitTest, WronglyTypedConfigValuesGetTheDocumentedCodes) {
  const aclError parse = ACL_ERROR_PARSE_FILE;
  const std::vector<BadConfig> configs = {
      {R"([1, 2])", parse},
      {R"({"defaultDevice": 3})", parse},
      {R"({"defaultDevice": {"default_device": [0]}})", parse},
      {R"({"defaultDevice": {"default_device": 1.5}})", parse},
      {R"({"defaultDevice": {"default_device": 18446744073709551615}})", parse},
      {R"({"defaultDevice": {"default_device": "99999999999999999999"}})", parse},
      {R"({"defaultDevice": {"default_device": 4294967296}})", parse},
      {R"({"err_msg_mode": {}})", parse},
      {R"({"err_msg_mode": "2"})", parse},
      {R"({"max_opqueue_num": -1})", parse},
      {R"({"max_opqueue_num": true})", parse},
      {R"({"aclsim": []})", parse},
      {R"({"aclsim": {"watchdog": {}}})", parse},
      {R"({"aclsim": {"watchdog": "-1"}})", parse},
      {R"({"aclsim": {"device_count": []}})", parse},
      {R"({"aclsim": {"device_count": "many"}})", parse},
      {R"({"aclsim": {"hbm_bytes": {"a": 1}}})", parse},
      {R"({"aclsim": {"fault_fail_alloc": -3}})", parse},
      {R"({"aclsim": {"soc": 910}})", parse},
      {R"({"dump": []})", ACL_ERROR_INVALID_DUMP_CONFIG},
      {R"({"dump": {"dump_list": 5}})", ACL_ERROR_INVALID_DUMP_CONFIG},
  };
  for (const BadConfig& bad : configs) {
    TempFile config(bad.json);
    acltest::ClearRecentErrors();
    const aclError got = aclInit(config.path());
    EXPECT_EQ(got, bad.code) << bad.json << ": " << acltest::TakeRecentErrors();
    if (got == ACL_SUCCESS) (void)aclFinalize();
  }
}

}  // namespace
