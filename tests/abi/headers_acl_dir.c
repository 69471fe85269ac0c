/* tests/abi/headers_acl_dir.c -- the headers also work with only <prefix>/include/acl on
 * the include path, the way many CANN programs include them ("acl.h",
 * "error_codes/rt_error_codes.h", "ops/acl_cblas.h"). Built as C99, strict. */

#include "acl.h"
#include "acl_dump.h"
#include "acl_op_compiler.h"
#include "acl_platform.h"
#include "acl_prof.h"
#include "acl_rt_memory_soma.h"
#include "acl_tdt.h"
#include "acl_tdt_queue.h"
#include "error_codes/ge_error_codes.h"
#include "error_codes/rt_error_codes.h"
#include "ops/acl_cblas.h"

int main(void)
{
    aclrtMemcpyKind kind = ACL_MEMCPY_HOST_TO_DEVICE;
    return (kind == 1 && ACL_ERROR_RT_PARAM_INVALID == 107000 && ACL_MAJOR_VERSION == 1) ? 0 : 1;
}
