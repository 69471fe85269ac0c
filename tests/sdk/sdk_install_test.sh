#!/usr/bin/env bash
# Installs the SDK into a temporary toolkit root and uses it the ways CANN users do: CANN's
# folders and links, set_env.sh sourced from bash, zsh, dash and busybox sh from any directory,
# a plain gcc line, find_package(ascendcl CONFIG), the samples' DDK_PATH/NPU_HOST_LIB layout,
# pkg-config; every installed library loaded with dlopen (C) and Python ctypes, none marked
# STATIC_TLS, none needing more than the C/C++ runtime, libm, libpthread and zlib; an installed
# program run with the -dev packages' shared libraries out of reach. Each program runs on the
# simulator and must pass.
#   sdk_install_test.sh <build-dir> <source-dir>
set -euo pipefail
build="$1"
src="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work/Ascend/ascend-toolkit"
home="$root/latest"
program="$src/examples/two_stream_pipeline/main.c"
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$root" >/dev/null
version="$(sed -n 's/^Version=//p' "$home/runtime/version.info")"
[ -L "$root/latest" ] && [ "$(readlink "$root/latest")" = "$version" ] ||
  fail "latest is not a link to the version folder ($version)"
arch="$(uname -m)-linux"
for path in set_env.sh latest/set_env.sh latest/version.cfg latest/ascend_toolkit_install.info \
            "latest/$arch/include/acl/acl.h" "latest/$arch/lib64/libascendcl.so" \
            "latest/$arch/ascend_toolkit_install.info" "latest/$arch/bin/atc" \
            latest/include/acl/acl.h latest/lib64/libascendcl.so latest/lib64/libacl_op_compiler.so \
            latest/lib64/libacl_cblas.so latest/lib64/libmsprofiler.so latest/lib64/libacl_dvpp.so \
            latest/lib64/libacl_rt.so latest/lib64/libacl_mdl.so latest/lib64/libacl_op_executor.so \
            latest/lib64/stub/libascendcl.so latest/devlib/libascendcl.so latest/bin/atc \
            latest/runtime/include/acl/acl.h latest/runtime/lib64/stub/libascendcl.so \
            latest/runtime/version.info latest/acllib/include/acl/acl.h \
            latest/acllib/lib64/libascendcl.so latest/compiler/include/acl/acl.h \
            latest/compiler/lib64/libascendcl.so latest/compiler/lib64/stub/libascendcl.so \
            latest/compiler/version.info latest/compiler/bin/atc latest/atc/include/acl/acl.h \
            latest/atc/lib64/libascendcl.so latest/atc/bin/atc "latest/$arch/devlib/libascendcl.so" \
            latest/opp/version.info latest/tools/profiler/bin/msprof \
            latest/lib64/cmake/ascendcl/ascendclConfig.cmake latest/lib64/pkgconfig/ascendcl.pc; do
  [ -e "$root/$path" ] || fail "missing $path in the install"
done
for dir in latest/opp/vendors latest/opp/built-in latest/python/site-packages latest/tools; do
  [ -d "$root/$dir" ] || fail "missing folder $dir in the install"
done
grep -q "^version=$version\$" "$home/ascend_toolkit_install.info" || fail "ascend_toolkit_install.info"
echo "layout: ok"

run() { echo "--- $1"; shift; "$@" > "$work/out.txt" 2>&1 || { cat "$work/out.txt"; exit 1; }; tail -n 1 "$work/out.txt"; }

# 1. set_env.sh from every shell, from /, and the acceptance line: atc on PATH, pkg-config works.
check_env='[ "$ASCEND_HOME_PATH" = "'"$home"'" ] || { echo "ASCEND_HOME_PATH=$ASCEND_HOME_PATH"; exit 1; }
  [ "$ASCEND_TOOLKIT_HOME" = "'"$home"'" ] || exit 1
  [ -d "$ASCEND_OPP_PATH/vendors" ] || { echo "ASCEND_OPP_PATH=$ASCEND_OPP_PATH"; exit 1; }
  case ":$PYTHONPATH:" in *":'"$home"'/python/site-packages:"*) ;; *) echo "PYTHONPATH=$PYTHONPATH"; exit 1;; esac
  case ":$CMAKE_PREFIX_PATH:" in *":'"$home"':"*) ;; *) echo "CMAKE_PREFIX_PATH=$CMAKE_PREFIX_PATH"; exit 1;; esac
  [ "$(command -v atc)" = "'"$home"'/bin/atc" ] || { echo "atc: $(command -v atc)"; exit 1; }
  pkg-config --libs ascendcl | grep -q -- -lascendcl || exit 1
  echo "environment ok"'
for shell in bash zsh dash "busybox sh"; do
  command -v "${shell%% *}" >/dev/null || fail "$shell is not installed (scripts/install-deps.sh)"
  (cd / && run "set_env.sh from $shell in /" $shell -c ". $root/set_env.sh && $check_env")
done
# The versioned folder's own set_env.sh names that folder.
(cd / && run "latest/set_env.sh from dash" dash -c \
  ". $root/latest/set_env.sh && [ \"\$ASCEND_HOME_PATH\" = \"$root/$version\" ] && echo ok")

# 2. A plain gcc line, as the README shows it, with set_env.sh.
(
  # shellcheck disable=SC1091
  . "$root/set_env.sh"
  run "gcc via ASCEND_HOME_PATH" gcc -std=c99 -Wall -Wextra -pedantic -Werror \
      -I"$ASCEND_HOME_PATH/include" "$program" -L"$ASCEND_HOME_PATH/lib64" -lacl_rt \
      -lacl_op_compiler -lpthread -o "$work/envbuilt"
  run "run with set_env.sh" "$work/envbuilt"
)

# 3. find_package(ascendcl CONFIG), found through set_env.sh's CMAKE_PREFIX_PATH.
mkdir -p "$work/pkg"
cat > "$work/pkg/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.16)
project(consumer C)
find_package(ascendcl CONFIG REQUIRED)
add_executable(consumer $program)
target_link_libraries(consumer PRIVATE ascendcl::ascendcl ascendcl::acl_op_compiler)
CMAKE
(
  . "$root/set_env.sh"
  run "find_package configure" cmake -S "$work/pkg" -B "$work/pkg/build"
  run "find_package build" cmake --build "$work/pkg/build"
  run "run find_package build" "$work/pkg/build/consumer"
)

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
DDK_PATH="$home" NPU_HOST_LIB="$home/runtime/lib64/stub" \
  run "samples configure" cmake -S "$work/sample" -B "$work/sample/build"
run "samples build" cmake --build "$work/sample/build"
LD_LIBRARY_PATH="$home/lib64" run "run samples build" "$work/sample/build/main"

# 5. pkg-config without set_env.sh.
flags="$(PKG_CONFIG_PATH="$home/lib64/pkgconfig" pkg-config --cflags --libs ascendcl)"
run "pkg-config build" sh -c "gcc -std=c99 $program $flags -o $work/pc"
LD_LIBRARY_PATH="$home/lib64" run "run pkg-config build" "$work/pc"

# 6. Only ACL and aclnn functions are exported.
bad="$(nm -D --defined-only "$home/lib64/libascendcl.so" | awk '$2 ~ /[TWDBR]/ {print $3}' | grep -v '^[Aa]cl' || true)"
if [ -n "$bad" ]; then echo "non-ACL exports:"; echo "$bad" | head; exit 1; fi
echo "exports: only acl* symbols (and acl_meta's reserved Acl* spellings)"

# 7. Every installed library: no STATIC_TLS (glibc refuses to dlopen such a library once the
# static TLS surplus is used up), nothing needed beyond the C/C++ runtime, libm, libpthread,
# libdl, librt and zlib; then loaded with dlopen from C and with Python ctypes.
libs=()
for lib in "$home"/lib64/*.so; do
  libs+=("$lib")
  if readelf -d "$lib" | grep -q STATIC_TLS; then fail "$lib is marked STATIC_TLS"; fi
  needed="$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')"
  for dep in $needed; do
    case "$dep" in
      libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|libstdc++.so.*|libgcc_s.so.*|libz.so.*|ld-linux*) ;;
      *) fail "$lib needs $dep at run time" ;;
    esac
  done
done
echo "libraries: ${#libs[@]}, none STATIC_TLS, run-time needs: C/C++ runtime, libm, zlib"
run "dlopen_check build" gcc -std=c99 -Wall -Wextra -Werror -I"$home/include" \
    "$src/tests/sdk/dlopen_check.c" -ldl -o "$work/dlopen_check"
run "dlopen from C" "$work/dlopen_check" "${libs[@]}"
run "ctypes from Python" python3 "$src/tests/sdk/ctypes_check.py" "${libs[@]}"

# 8. An installed program with the -dev packages' libraries out of reach: in a mount namespace
# of its own, the system's library folder is replaced by one holding only the loader, the C/C++
# runtime, libm and zlib (copies); libspdlog, libfmt and everything else are gone there.
libdir="$(dirname "$(ldconfig -p | awk '$1 == "libc.so.6" && /x86-64|x86_64|AArch64/ {print $NF; exit}')")"
libdir="$(readlink -f "$libdir")"
mkdir -p "$work/runtime-only"
for name in libc.so.6 libm.so.6 libpthread.so.0 libdl.so.2 librt.so.1 libstdc++.so.6 \
            libgcc_s.so.1 libz.so.1 "$(basename "$(readelf -l "$work/pc" | sed -n 's/.*interpreter: \(.*\)\]/\1/p')")"; do
  [ -e "$libdir/$name" ] && cp -L "$libdir/$name" "$work/runtime-only/$name"
done
unshare -rm true 2>/dev/null || fail "unshare -rm (a user and mount namespace) is refused here"
in_runtime_only() {
  unshare -rm sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh "$work/runtime-only" "$libdir" "$@"
}
echo 'int main(void) { return 0; }' > "$work/needs_fmt.c"
gcc "$work/needs_fmt.c" -Wl,--no-as-needed -lfmt -o "$work/needs_fmt"
if in_runtime_only "$work/needs_fmt" 2>/dev/null; then
  fail "a program needing libfmt ran: the -dev packages' libraries are still reachable"
fi
LD_LIBRARY_PATH="$home/lib64" run "installed program, only the runtime libraries reachable" \
  in_runtime_only "$work/pc"
echo "sdk install: ok"
