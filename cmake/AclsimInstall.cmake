# SDK install layout: CANN's toolkit, whole. The prefix is the toolkit root
# (CANN: /usr/local/Ascend/ascend-toolkit); docs/install.md lists every folder.
#
#   <prefix>/set_env.sh                      environment, as CANN's (ASCEND_TOOLKIT_HOME=<prefix>/latest)
#   <prefix>/latest -> <version>             the indirection scripts use
#   <prefix>/<version>/<arch>-linux/         the files: include/acl/..., lib64/libascendcl.so (+
#                                            lib<name>.so links for CANN's other names), lib64/stub,
#                                            devlib, bin (tools), lib64/cmake/ascendcl,
#                                            lib64/pkgconfig/ascendcl.pc, ascend_toolkit_install.info
#   <prefix>/<version>/{include,lib64,lib,bin,devlib}    links into <arch>-linux/ (lib: cmake)
#   <prefix>/<version>/{runtime,acllib,compiler,atc}/{include,lib64}, .../bin: links (the
#                                            DDK_PATH/NPU_HOST_LIB, acllib and compiler layouts)
#   <prefix>/<version>/opp/{built-in,vendors}        op packages (filled by later versions)
#   <prefix>/<version>/python/site-packages, tools/  as CANN's toolkit has them
#   <prefix>/<version>/set_env.sh            the same environment for this version alone
#   version.info in runtime/, compiler/, opp/; version.cfg in <version>/
set(ACLSIM_LIBDIR lib64)  # below <arch>-linux (ascendcl.pc, ascendclConfig.cmake)

install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/acl ${CMAKE_SOURCE_DIR}/include/aclnn
                  ${CMAKE_SOURCE_DIR}/include/aclnnop DESTINATION ${ACLSIM_INSTALL_INCLUDEDIR})
install(TARGETS ascendcl LIBRARY DESTINATION ${ACLSIM_INSTALL_LIBDIR})

set(_aclsim_libs ascendcl ${ACLSIM_LIBRARY_ALIASES})
set(ACLSIM_INSTALL_LIBS "${_aclsim_libs}")

# The text files the install writes (version.info and friends), from the build tree.
set(_aclsim_sdk ${CMAKE_BINARY_DIR}/sdk)
file(WRITE ${_aclsim_sdk}/version.info
     "Version=${ACLSIM_TOOLKIT_VERSION}\nversion_dir=${ACLSIM_TOOLKIT_VERSION}\n"
     "runtime_acl_version=1.0\npackage_name=aclsim\n")
set(_aclsim_running "")
foreach(part runtime compiler opp toolkit)
  string(APPEND _aclsim_running
         "${part}_running_version=[${ACLSIM_TOOLKIT_VERSION}:${ACLSIM_TOOLKIT_VERSION}]\n"
         "${part}_installed_version=[${ACLSIM_TOOLKIT_VERSION}:${ACLSIM_TOOLKIT_VERSION}]\n")
endforeach()
file(WRITE ${_aclsim_sdk}/version.cfg "# version: 1.0\n${_aclsim_running}")
install(FILES ${_aclsim_sdk}/version.cfg DESTINATION ${ACLSIM_TOOLKIT_VERSION})
foreach(part runtime compiler opp)
  install(FILES ${_aclsim_sdk}/version.info DESTINATION ${ACLSIM_TOOLKIT_VERSION}/${part})
endforeach()

# Links, folders, ascend_toolkit_install.info and the two set_env.sh, at install time: the
# prefix is known only then (cmake --install --prefix), and set_env.sh records it for the
# shells that cannot tell a sourced file's own path (dash, busybox sh).
install(CODE "
  set(root \"\${CMAKE_INSTALL_PREFIX}\")
  set(prefix \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}\")
  set(ver \"\${prefix}/${ACLSIM_TOOLKIT_VERSION}\")
  set(home \"\${prefix}/${ACLSIM_INSTALL_HOME}\")
  function(aclsim_link target name)
    file(REMOVE \"\${name}\")
    file(CREATE_LINK \"\${target}\" \"\${name}\" SYMBOLIC)
  endfunction()
  file(MAKE_DIRECTORY \"\${home}/lib64/stub\" \"\${home}/lib\" \"\${home}/devlib\" \"\${home}/bin\"
       \"\${ver}/opp/built-in\" \"\${ver}/opp/vendors\" \"\${ver}/python/site-packages\"
       \"\${ver}/tools/profiler/bin\" \"\${ver}/runtime\" \"\${ver}/acllib\" \"\${ver}/compiler\"
       \"\${ver}/atc\")
  foreach(alias ${ACLSIM_LIBRARY_ALIASES})
    aclsim_link(libascendcl.so \"\${home}/lib64/lib\${alias}.so\")
  endforeach()
  foreach(lib ${_aclsim_libs})
    aclsim_link(../lib\${lib}.so \"\${home}/lib64/stub/lib\${lib}.so\")
    aclsim_link(../lib64/lib\${lib}.so \"\${home}/devlib/lib\${lib}.so\")
  endforeach()
  foreach(dir include lib64 lib bin devlib)
    aclsim_link(${ACLSIM_ARCH_DIR}/\${dir} \"\${ver}/\${dir}\")
  endforeach()
  foreach(layout runtime acllib compiler atc)
    foreach(dir include lib64)
      aclsim_link(../${ACLSIM_ARCH_DIR}/\${dir} \"\${ver}/\${layout}/\${dir}\")
    endforeach()
  endforeach()
  foreach(layout compiler atc)
    aclsim_link(../${ACLSIM_ARCH_DIR}/bin \"\${ver}/\${layout}/bin\")
  endforeach()
  aclsim_link(../../../bin/msprof \"\${ver}/tools/profiler/bin/msprof\")
  aclsim_link(${ACLSIM_TOOLKIT_VERSION} \"\${prefix}/latest\")
  foreach(dir \"\${home}\" \"\${ver}\")
    file(WRITE \"\${dir}/ascend_toolkit_install.info\"
         \"package_name=aclsim\\nversion=${ACLSIM_TOOLKIT_VERSION}\\narch=${CMAKE_SYSTEM_PROCESSOR}\\nos=linux\\npath=\${root}/${ACLSIM_INSTALL_HOME}\\n\")
  endforeach()
  file(READ \"${CMAKE_SOURCE_DIR}/cmake/set_env.sh.in\" text)
  string(REPLACE \"@ACLSIM_VERSION@\" \"${ACLSIM_TOOLKIT_VERSION}\" text \"\${text}\")
  foreach(where toolkit_root version_folder)
    if(where STREQUAL toolkit_root)
      set(dir \"\${prefix}\")
      set(installed \"\${root}\")
      set(home_of_dir \"/latest\")
    else()
      set(dir \"\${ver}\")
      set(installed \"\${root}/${ACLSIM_TOOLKIT_VERSION}\")
      set(home_of_dir \"\")
    endif()
    string(REPLACE \"@ACLSIM_INSTALLED_DIR@\" \"\${installed}\" out \"\${text}\")
    string(REPLACE \"@ACLSIM_HOME_OF_DIR@\" \"\${home_of_dir}\" out \"\${out}\")
    file(WRITE \"\${dir}/set_env.sh\" \"\${out}\")
    file(CHMOD \"\${dir}/set_env.sh\" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
         GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
    message(STATUS \"Installing: \${dir}/set_env.sh\")
  endforeach()
")

configure_file(${CMAKE_SOURCE_DIR}/cmake/ascendclConfig.cmake.in
               ${_aclsim_sdk}/ascendclConfig.cmake @ONLY)
include(CMakePackageConfigHelpers)
write_basic_package_version_file(${_aclsim_sdk}/ascendclConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
# CMAKE_PREFIX_PATH (set_env.sh) names <prefix>/latest, whose lib64 and lib link here: lib64 as
# CANN lays it out, lib/ too, which find_package searches on every distribution (Debian's
# multiarch CMake does not look in lib64/).
foreach(dir ${ACLSIM_INSTALL_LIBDIR} ${ACLSIM_INSTALL_HOME}/lib)
  install(FILES ${_aclsim_sdk}/ascendclConfig.cmake ${_aclsim_sdk}/ascendclConfigVersion.cmake
          DESTINATION ${dir}/cmake/ascendcl)
endforeach()

configure_file(${CMAKE_SOURCE_DIR}/cmake/ascendcl.pc.in ${_aclsim_sdk}/ascendcl.pc @ONLY)
install(FILES ${_aclsim_sdk}/ascendcl.pc DESTINATION ${ACLSIM_INSTALL_LIBDIR}/pkgconfig)
