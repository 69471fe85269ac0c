/* tests/abi/headers_c99.c -- every public header compiles as strict C99.
 *
 * Built with -std=c99 -Wall -Wextra -pedantic -Werror and only <repo>/include on the
 * include path. Also checks the manifest against the headers (manifest_check.inc), the
 * ACL_APP_LOG macro, member access through the anonymous union of aclmdlRITaskParams,
 * the flexible array member of acldumpChunk and the C typedef of acltdtTensorType. */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_base.h"
#include "acl/acl_base_mdl.h"
#include "acl/acl_base_rt.h"
#include "acl/acl_dump.h"
#include "acl/acl_ext.h"
#include "acl/acl_mdl.h"
#include "acl/acl_op.h"
#include "acl/acl_op_compiler.h"
#include "acl/acl_platform.h"
#include "acl/acl_prof.h"
#include "acl/acl_rt.h"
#include "acl/acl_rt_allocator.h"
#include "acl/acl_rt_api.h"
#include "acl/acl_rt_memory_soma.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "acl/error_codes/ge_error_codes.h"
#include "acl/error_codes/rt_error_codes.h"
#include "acl/ops/acl_cblas.h"
/* the CANN spelling used by programs that put <prefix>/include/acl on the path */
#include "error_codes/ge_error_codes.h"
#include "error_codes/rt_error_codes.h"

#include "manifest_check.inc"

static char g_log[256];
static int g_logLevel = -1;

/* A local aclAppLog so that ACL_APP_LOG can be exercised without the library. */
void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line, const char* fmt, ...)
{
    va_list args;
    (void)func;
    (void)file;
    (void)line;
    g_logLevel = (int)logLevel;
    va_start(args, fmt);
    vsnprintf(g_log, sizeof(g_log), fmt, args);
    va_end(args);
}

static int g_failures;

#define EXPECT(cond)                                                   \
    do {                                                               \
        if (!(cond)) {                                                 \
            ++g_failures;                                              \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);     \
        }                                                              \
    } while (0)

int main(void)
{
    aclmdlRITaskParams task;
    aclrtRandomNumFuncParaInfo random;
    acltdtTensorType tdtType = ACL_TENSOR_DATA_TENSOR;
    enum aclrtMemPgType pgType = HUGE_PAGE_TYPE;
    struct MemAttrMapping mapping;
    acldumpChunk chunk;
    aclError err = ACL_SUCCESS;

    ACL_APP_LOG(ACL_WARNING, "value %d", 42);
    EXPECT(g_logLevel == ACL_WARNING);
    EXPECT(strcmp(g_log, "value 42") == 0);
    ACL_APP_LOG(ACL_ERROR, "no arguments");
    EXPECT(g_logLevel == ACL_ERROR);
    EXPECT(strcmp(g_log, "no arguments") == 0);

    memset(&task, 0, sizeof(task));
    task.kernelTaskParams.numBlocks = 8;
    EXPECT(task.rsv2[offsetof(aclmdlRIKernelTaskParams, numBlocks)] == 8);
    EXPECT(offsetof(aclmdlRITaskParams, valueWaitTaskParams) == offsetof(aclmdlRITaskParams, rsv2));

    memset(&random, 0, sizeof(random));
    random.paramInfo.uniformDisInfo.max.size = 4;
    EXPECT(random.paramInfo.normalDisInfo.stddev.size == 4);

    memset(&chunk, 0, sizeof(chunk));
    EXPECT(sizeof(chunk) == 4120);
    EXPECT(offsetof(acldumpChunk, dataBuf) == 4116);

    mapping.isHostAlloc = true;
    EXPECT(mapping.isHostAlloc);
    EXPECT(tdtType == 0 && pgType == 1);
    EXPECT(err == ACL_ERROR_NONE && ACL_ERROR_RT_PARAM_INVALID == 107000 && ACL_ERROR_GE_PARAM_INVALID == 145000U);
    EXPECT(sizeof(aclFloat16) == 2 && sizeof(aclError) == 4);

    printf("headers_c99: %s\n", g_failures == 0 ? "ok" : "FAILED");
    return g_failures == 0 ? 0 : 1;
}
