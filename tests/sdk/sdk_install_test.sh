#!/usr/bin/env bash
# Installs the SDK into a temporary prefix and builds programs against it the ways CANN users
# do: a plain gcc line, set_env.sh + ASCEND_HOME_PATH, find_package(ascendcl CONFIG),
# the samples' DDK_PATH/NPU_HOST_LIB layout, and pkg-config. Each program runs on the
# simulator and must pass.
#   sdk_install_test.sh <build-dir> <source-dir>
set -euo pipefail
build="$1"
src="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/Ascend/ascend-toolkit/latest"
program="$src/examples/two_stream_pipeline/main.c"

cmake --install "$build" --prefix "$prefix" >/dev/null
for path in include/acl/acl.h lib64/libascendcl.so lib64/libacl_op_compiler.so \
            lib64/libacl_cblas.so lib64/libmsprofiler.so lib64/libacl_dvpp.so lib64/libacl_rt.so \
            lib64/libacl_mdl.so lib64/libacl_op_executor.so runtime/include/acl/acl.h \
            runtime/lib64/stub/libascendcl.so acllib/include/acl/acl.h set_env.sh \
            lib64/cmake/ascendcl/ascendclConfig.cmake lib64/pkgconfig/ascendcl.pc bin/atc; do
  [ -e "$prefix/$path" ] || { echo "missing $path in the install"; exit 1; }
done
echo "layout: ok"

run() { echo "--- $1"; shift; "$@" > "$work/out.txt" 2>&1 || { cat "$work/out.txt"; exit 1; }; tail -n 1 "$work/out.txt"; }

# 1. The acceptance command line.
run "gcc -std=c99" gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$prefix/include" "$program" \
    -L"$prefix/lib64" -lascendcl -lpthread -o "$work/plain"
LD_LIBRARY_PATH="$prefix/lib64" run "run plain" "$work/plain"

# 2. set_env.sh, as CANN users source it.
(
  # shellcheck disable=SC1091
  . "$prefix/set_env.sh"
  [ "$ASCEND_HOME_PATH" = "$prefix" ] || { echo "ASCEND_HOME_PATH=$ASCEND_HOME_PATH"; exit 1; }
  [ "$ASCEND_TOOLKIT_HOME" = "$prefix" ] || exit 1
  run "gcc via ASCEND_HOME_PATH" gcc -std=c99 -I"$ASCEND_HOME_PATH/include" "$program" \
      -L"$ASCEND_HOME_PATH/lib64" -lacl_rt -lacl_op_compiler -lpthread -o "$work/envbuilt"
  run "run with set_env.sh" "$work/envbuilt"
)

# 3. find_package(ascendcl CONFIG).
mkdir -p "$work/pkg"
cat > "$work/pkg/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.16)
project(consumer C)
find_package(ascendcl CONFIG REQUIRED)
add_executable(consumer $program)
target_link_libraries(consumer PRIVATE ascendcl::ascendcl ascendcl::acl_op_compiler)
CMAKE
run "find_package configure" cmake -S "$work/pkg" -B "$work/pkg/build" -DCMAKE_PREFIX_PATH="$prefix"
run "find_package build" cmake --build "$work/pkg/build"
LD_LIBRARY_PATH="$prefix/lib64" run "run find_package build" "$work/pkg/build/consumer"

# 4. The samples' layout: DDK_PATH and NPU_HOST_LIB.
mkdir -p "$work/sample"
cat > "$work/sample/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.16)
project(sample C)
set(INC_PATH \$ENV{DDK_PATH})
set(LIB_PATH \$ENV{NPU_HOST_LIB})
include_directories(\${INC_PATH}/runtime/include/)
link_directories(\${LIB_PATH})
add_executable(main $program)
target_link_libraries(main ascendcl stdc++ pthread)
CMAKE
DDK_PATH="$prefix" NPU_HOST_LIB="$prefix/runtime/lib64/stub" \
  run "samples configure" cmake -S "$work/sample" -B "$work/sample/build"
run "samples build" cmake --build "$work/sample/build"
LD_LIBRARY_PATH="$prefix/lib64" run "run samples build" "$work/sample/build/main"

# 5. pkg-config.
flags="$(PKG_CONFIG_PATH="$prefix/lib64/pkgconfig" pkg-config --cflags --libs ascendcl)"
run "pkg-config build" sh -c "gcc -std=c99 $program $flags -o $work/pc"
LD_LIBRARY_PATH="$prefix/lib64" run "run pkg-config build" "$work/pc"

# 6. Only ACL functions are exported.
bad="$(nm -D --defined-only "$prefix/lib64/libascendcl.so" | awk '$2 ~ /[TWDBR]/ {print $3}' | grep -v '^acl' || true)"
if [ -n "$bad" ]; then echo "non-ACL exports:"; echo "$bad" | head; exit 1; fi
echo "exports: only acl* symbols"
echo "sdk install: ok"
