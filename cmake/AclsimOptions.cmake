# Compiler options shared by every aclsim target.

# Warnings are errors in our own code.
function(aclsim_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror -Wno-unused-parameter>
    $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Werror>)
endfunction()

# Sanitizer builds apply to everything in the tree, including tests and examples.
if(ACLSIM_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    # C programs linked against libascendcl need UBSan's C++ part (its vptr checks).
    add_link_options($<$<LINK_LANGUAGE:C>:-fsanitize-link-c++-runtime> $<$<LINK_LANGUAGE:C>:-lstdc++>)
  endif()
elseif(ACLSIM_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(NOT ACLSIM_SANITIZE STREQUAL "")
  message(FATAL_ERROR "ACLSIM_SANITIZE must be '', 'address' or 'thread'")
endif()

# Fuzzing (fuzz/): the libFuzzer targets (clang), under ASan+UBSan: in the ASan+UBSan tree
# (ACLSIM_SANITIZE=address, as scripts/run-tests.sh builds it) or in a tree of their own
# (ACLSIM_SANITIZE empty: ASan+UBSan for everything here). Only the code the targets parse
# with gets libFuzzer's coverage instrumentation (fuzz/CMakeLists.txt lists the files): on
# the whole tree it doubled the run time of the ASan+UBSan tests.
if(ACLSIM_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "ACLSIM_FUZZ=ON needs clang (CC=clang CXX=clang++)")
  endif()
  if(ACLSIM_SANITIZE STREQUAL "")
    add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                        -fno-sanitize-recover=undefined)
    add_link_options(-fsanitize=address,undefined)
  elseif(NOT ACLSIM_SANITIZE STREQUAL "address")
    message(FATAL_ERROR "ACLSIM_FUZZ=ON goes with ACLSIM_SANITIZE '' or 'address'")
  endif()
endif()

# Thread-locals are reached through TLS descriptors (TLSDESC) where the compiler has them: the
# access to a library's TLS costs about what initial-exec does when the library is loaded with the
# program, and the library keeps working when it is dlopen'ed (ctypes, plugin loaders), where
# initial-exec marks it STATIC_TLS and glibc refuses to load it once the static TLS surplus is
# used up. gcc has the gnu2 dialect on x86-64; clang 14 does not (it keeps the general-dynamic
# model: a __tls_get_addr call, loadable everywhere too). tests/sdk checks that no installed
# library carries STATIC_TLS.
include(CheckCXXCompilerFlag)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  check_cxx_compiler_flag(-mtls-dialect=gnu2 ACLSIM_HAVE_TLSDESC)
  if(ACLSIM_HAVE_TLSDESC)
    add_compile_options(-mtls-dialect=gnu2)
  endif()
endif()

# Library code is hidden by default; the public headers mark ACL functions visible
# (ACL_FUNC_VISIBILITY with FUNC_VISIBILITY defined) and a version script keeps the
# export list to acl* names.
set(CMAKE_CXX_VISIBILITY_PRESET hidden)
set(CMAKE_C_VISIBILITY_PRESET hidden)
set(CMAKE_VISIBILITY_INLINES_HIDDEN ON)

# CANN's other library names; each is a link to libascendcl.so (one runtime per process,
# whichever names a program links against).
set(ACLSIM_LIBRARY_ALIASES acl_rt acl_mdl acl_op_executor acl_op_compiler acl_cblas msprofiler
    acl_dvpp acl_tdt_channel acl_tdt_queue ascend_dump
    nnopbase opapi opapi_math opapi_nn opapi_cv opapi_transformer
    aclnn_math aclnn_ops_infer aclnn_ops_train aclnn_rand)

# The install is laid out as CANN's toolkit (cmake/AclsimInstall.cmake): the prefix is the
# toolkit root (/usr/local/Ascend/ascend-toolkit), the files lie in <version>/<arch>-linux/ and
# every other folder links there. Targets install into these (relative to the prefix).
set(ACLSIM_TOOLKIT_VERSION ${PROJECT_VERSION})
set(ACLSIM_ARCH_DIR ${CMAKE_SYSTEM_PROCESSOR}-linux)
set(ACLSIM_INSTALL_HOME ${ACLSIM_TOOLKIT_VERSION}/${ACLSIM_ARCH_DIR})
set(ACLSIM_INSTALL_BINDIR ${ACLSIM_INSTALL_HOME}/bin)
set(ACLSIM_INSTALL_LIBDIR ${ACLSIM_INSTALL_HOME}/lib64)
set(ACLSIM_INSTALL_INCLUDEDIR ${ACLSIM_INSTALL_HOME}/include)
