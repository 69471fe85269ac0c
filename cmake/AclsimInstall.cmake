# SDK install layout: a CANN-like prefix.
#
#   <prefix>/include/acl/...            public headers
#   <prefix>/lib64/libascendcl.so       the runtime (+ lib<name>.so links for CANN's other names)
#   <prefix>/lib64/stub/lib*.so         links for build files that use .../lib64/stub
#   <prefix>/runtime/{include,lib64}    links: the classic DDK_PATH/runtime layout
#   <prefix>/acllib/{include,lib64}     links: the older acllib layout
#   <prefix>/bin/                       tools
#   <prefix>/set_env.sh                 environment, as CANN's set_env.sh
#   <prefix>/lib{64,}/cmake/ascendcl/   find_package(ascendcl CONFIG)
#   <prefix>/lib64/pkgconfig/ascendcl.pc
set(ACLSIM_LIBDIR lib64)

install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/acl DESTINATION include)
install(TARGETS ascendcl LIBRARY DESTINATION ${ACLSIM_LIBDIR})

set(_aclsim_libs ascendcl ${ACLSIM_LIBRARY_ALIASES})
set(ACLSIM_INSTALL_LIBS "${_aclsim_libs}")
install(CODE "
  set(prefix \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}\")
  file(MAKE_DIRECTORY \"\${prefix}/${ACLSIM_LIBDIR}/stub\" \"\${prefix}/runtime\" \"\${prefix}/acllib\")
  foreach(alias ${ACLSIM_LIBRARY_ALIASES})
    file(CREATE_LINK libascendcl.so \"\${prefix}/${ACLSIM_LIBDIR}/lib\${alias}.so\" SYMBOLIC)
  endforeach()
  foreach(lib ${_aclsim_libs})
    file(CREATE_LINK ../lib\${lib}.so \"\${prefix}/${ACLSIM_LIBDIR}/stub/lib\${lib}.so\" SYMBOLIC)
  endforeach()
  foreach(layout runtime acllib)
    file(CREATE_LINK ../include \"\${prefix}/\${layout}/include\" SYMBOLIC)
    file(CREATE_LINK ../${ACLSIM_LIBDIR} \"\${prefix}/\${layout}/${ACLSIM_LIBDIR}\" SYMBOLIC)
  endforeach()
")

configure_file(${CMAKE_SOURCE_DIR}/cmake/set_env.sh.in ${CMAKE_BINARY_DIR}/sdk/set_env.sh @ONLY)
install(PROGRAMS ${CMAKE_BINARY_DIR}/sdk/set_env.sh DESTINATION .)

configure_file(${CMAKE_SOURCE_DIR}/cmake/ascendclConfig.cmake.in
               ${CMAKE_BINARY_DIR}/sdk/ascendclConfig.cmake @ONLY)
include(CMakePackageConfigHelpers)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/sdk/ascendclConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
# lib64/ as CANN lays it out; lib/ too, which find_package searches on every distribution.
foreach(dir ${ACLSIM_LIBDIR} lib)
  install(FILES ${CMAKE_BINARY_DIR}/sdk/ascendclConfig.cmake
                ${CMAKE_BINARY_DIR}/sdk/ascendclConfigVersion.cmake
          DESTINATION ${dir}/cmake/ascendcl)
endforeach()

configure_file(${CMAKE_SOURCE_DIR}/cmake/ascendcl.pc.in ${CMAKE_BINARY_DIR}/sdk/ascendcl.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/sdk/ascendcl.pc DESTINATION ${ACLSIM_LIBDIR}/pkgconfig)
