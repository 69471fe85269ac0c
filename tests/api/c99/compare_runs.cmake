# Runs the C99 acceptance program twice and checks that both runs pass and print identical
# output, simulated times included (the program prints no addresses).
#
# cmake -DPROGRAM=<api_c99_acceptance> -DWORK_DIR=<dir> -P compare_runs.cmake
foreach(var PROGRAM WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "compare_runs.cmake: -D${var}=... is required")
  endif()
endforeach()

foreach(run 1 2)
  execute_process(COMMAND ${PROGRAM}
    WORKING_DIRECTORY ${WORK_DIR}
    OUTPUT_VARIABLE output_${run} ERROR_VARIABLE errors_${run} RESULT_VARIABLE result_${run})
  if(NOT result_${run} EQUAL 0)
    message(FATAL_ERROR "run ${run} of ${PROGRAM} failed (${result_${run}}):\n"
                        "${output_${run}}\n${errors_${run}}")
  endif()
endforeach()

string(REGEX MATCHALL "TIME [^\n]*" times_1 "${output_1}")
list(LENGTH times_1 time_count)
if(time_count LESS 12)
  message(FATAL_ERROR "expected at least 12 TIME lines, got ${time_count}:\n${output_1}")
endif()

if(NOT output_1 STREQUAL output_2)
  message(FATAL_ERROR "the two runs printed different output:\n--- run 1\n${output_1}\n"
                      "--- run 2\n${output_2}")
endif()
message(STATUS "two runs, identical output with ${time_count} simulated times")
