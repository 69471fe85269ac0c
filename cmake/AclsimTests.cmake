# How a GoogleTest executable becomes ctest tests.
#
# ACLSIM_TEST_PROCESS_PER_CASE=ON (the default of a plain build): every gtest case is its own
# ctest test and runs in a fresh process (gtest_discover_tests), so a failure names the case
# and no case sees another's state.
# OFF (the default of the sanitizer builds): one ctest test per executable, running all of its
# cases in one process. An instrumented process takes ten times as long to start (the
# sanitizer runtimes map their shadow memory; libascendcl.so is four times as large), which
# over two thousand cases was a quarter of each sanitizer flavour's test time. The cases are
# the same; the release build runs each one alone.
if(ACLSIM_SANITIZE STREQUAL "")
  set(aclsim_per_case_default ON)
else()
  set(aclsim_per_case_default OFF)
endif()
option(ACLSIM_TEST_PROCESS_PER_CASE "One ctest test (process) per gtest case"
       ${aclsim_per_case_default})

# aclsim_gtest(<target> [PER_CASE] [TEST_PREFIX <prefix>] [PROPERTIES <name> <value>...])
#   PER_CASE: a process per case even when ACLSIM_TEST_PROCESS_PER_CASE is OFF (cases that
#   need a fresh process: once-per-process calls such as aclopSetModelDir).
#   One test per executable is named <prefix><target> and gets a TIMEOUT of 1800 s unless
#   PROPERTIES name another.
function(aclsim_gtest target)
  cmake_parse_arguments(ARG "PER_CASE" "TEST_PREFIX" "PROPERTIES" ${ARGN})
  if(ACLSIM_TEST_PROCESS_PER_CASE OR ARG_PER_CASE)
    gtest_discover_tests(${target} TEST_PREFIX "${ARG_TEST_PREFIX}" DISCOVERY_TIMEOUT 60
                         PROPERTIES ${ARG_PROPERTIES})
    return()
  endif()
  set(name "${ARG_TEST_PREFIX}${target}")
  add_test(NAME ${name} COMMAND ${target})
  set_tests_properties(${name} PROPERTIES TIMEOUT 1800)
  if(ARG_PROPERTIES)
    # A per-case TIMEOUT does not bound a whole executable.
    list(FIND ARG_PROPERTIES TIMEOUT timeout_at)
    if(timeout_at GREATER -1)
      list(REMOVE_AT ARG_PROPERTIES ${timeout_at})
      list(REMOVE_AT ARG_PROPERTIES ${timeout_at})
    endif()
    if(ARG_PROPERTIES)
      set_tests_properties(${name} PROPERTIES ${ARG_PROPERTIES})
    endif()
  endif()
endfunction()
