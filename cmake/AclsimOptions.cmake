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

# Library code is hidden by default; the public headers mark ACL functions visible
# (ACL_FUNC_VISIBILITY with FUNC_VISIBILITY defined) and a version script keeps the
# export list to acl* names.
set(CMAKE_CXX_VISIBILITY_PRESET hidden)
set(CMAKE_C_VISIBILITY_PRESET hidden)
set(CMAKE_VISIBILITY_INLINES_HIDDEN ON)

# CANN's other library names; each is a link to libascendcl.so (one runtime per process,
# whichever names a program links against).
set(ACLSIM_LIBRARY_ALIASES acl_rt acl_mdl acl_op_executor acl_op_compiler acl_cblas msprofiler
    acl_dvpp acl_tdt_channel acl_tdt_queue ascend_dump)
