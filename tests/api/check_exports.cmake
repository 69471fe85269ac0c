# Checks the dynamic symbol table of libascendcl.so, as issue 2's acceptance does with
#   nm -D --defined-only <prefix>/lib64/libascendcl.so
# Every defined symbol must be an ACL or aclnn function (name starting with "acl", or "Acl" for
# acl_meta's reserved spellings; type T), and every
# function of the manifest must be there.
#
# cmake -DNM=<nm> -DLIBRARY=<libascendcl.so> -DMANIFEST=<acl_api.def> -DEXPECTED_COUNT=<n>
#       -P check_exports.cmake
foreach(var NM LIBRARY MANIFEST EXPECTED_COUNT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_exports.cmake: -D${var}=... is required")
  endif()
endforeach()

execute_process(COMMAND ${NM} -D --defined-only ${LIBRARY}
  OUTPUT_VARIABLE nm_output RESULT_VARIABLE nm_result ERROR_VARIABLE nm_error)
if(NOT nm_result EQUAL 0)
  message(FATAL_ERROR "${NM} -D --defined-only ${LIBRARY} failed: ${nm_error}")
endif()

# "<address> <type> <name>" per line.
string(REPLACE "\n" ";" nm_lines "${nm_output}")
set(exported "")
set(foreign "")
foreach(line IN LISTS nm_lines)
  if(line MATCHES "^[0-9a-fA-F]* *([A-Za-z]) ([^ ]+)$")
    set(type "${CMAKE_MATCH_1}")
    set(name "${CMAKE_MATCH_2}")
    string(REGEX REPLACE "@.*$" "" name "${name}")  # drop symbol versions, if any
    if(NOT name MATCHES "^[Aa]cl" OR NOT type STREQUAL "T")
      list(APPEND foreign "${type} ${name}")
    else()
      list(APPEND exported "${name}")
    endif()
  endif()
endforeach()

if(foreign)
  list(LENGTH foreign foreign_count)
  list(JOIN foreign "\n  " foreign_text)
  message(FATAL_ERROR
    "${LIBRARY} exports ${foreign_count} symbol(s) that are not acl* functions:\n  ${foreign_text}")
endif()

# Manifest names: ACL_FN(status, header, lib, ret, name, (params), fail)
file(STRINGS ${MANIFEST} manifest_lines REGEX "^ACL_FN\\(")
set(expected "")
foreach(line IN LISTS manifest_lines)
  if(line MATCHES "^ACL_FN\\((IMPL|STUB), *[A-Za-z0-9_]+, *[A-Za-z0-9_]+, *[^,]+, *([A-Za-z0-9_]+), *\\(")
    list(APPEND expected "${CMAKE_MATCH_2}")
  else()
    message(FATAL_ERROR "cannot parse manifest line: ${line}")
  endif()
endforeach()

list(LENGTH expected expected_count)
if(NOT expected_count EQUAL EXPECTED_COUNT)
  message(FATAL_ERROR "the manifest lists ${expected_count} functions, expected ${EXPECTED_COUNT}")
endif()

set(missing "")
foreach(name IN LISTS expected)
  list(FIND exported "${name}" index)
  if(index EQUAL -1)
    list(APPEND missing "${name}")
  endif()
endforeach()
if(missing)
  list(LENGTH missing missing_count)
  list(JOIN missing "\n  " missing_text)
  message(FATAL_ERROR "${LIBRARY} lacks ${missing_count} manifest function(s):\n  ${missing_text}")
endif()

list(LENGTH exported exported_count)
message(STATUS "${LIBRARY}: ${exported_count} acl* functions exported, all ${expected_count} manifest functions present")
