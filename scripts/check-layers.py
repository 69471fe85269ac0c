#!/usr/bin/env python3
"""Fails on an #include that points up or across the layers of the design.

    scripts/check-layers.py [ROOT]

The layers (../shared/DESIGN.md): api -> core -> ops -> driver -> common (the op library
states its kernels' engines and work in the driver interface's task vocabulary, and knows no
backend); sim implements the driver interface and uses ops; feature sits on core; dfx is used by core, feature and api;
convert (ONNX import for atc) and the tools use ops and core, never sim (but for the tools that
show the simulated device itself); nothing includes api but the library that assembles it
(src/lib) -- the API manifest (api/manifest/*.def, the ABI described as data) excepted; the
public headers and the examples include public headers only. The CMake files of the op library,
the core and convert (ONNX import) and of atc must not link the simulator library.

Prints each violation as FILE:LINE: and exits 1 if there is one.
"""
import pathlib
import re
import sys

# What each layer may include (by the first folder of a quoted include: "core/runtime.h").
BASE = {"common"}
ALLOWED = {
    "common": BASE,
    "ops": BASE | {"ops", "driver"},
    "driver": BASE | {"driver"},
    "dfx": BASE | {"dfx"},
    "core": BASE | {"ops", "driver", "dfx", "core"},
    "feature": BASE | {"ops", "driver", "dfx", "core", "feature"},
    "api": BASE | {"acl", "aclnn", "aclnnop", "ops", "driver", "dfx", "core", "feature", "api",
                   "manifest"},
    "convert": BASE | {"ops", "driver", "dfx", "core", "convert"},
    "sim": BASE | {"ops", "driver", "dfx", "sim"},
    "tools": BASE | {"acl", "ops", "driver", "dfx", "core", "feature", "convert", "tools",
                     "manifest"},
    "public": {"acl", "aclnn", "aclnnop", "hccl", "ascendc"},
    "examples": {"acl", "aclnn", "aclnnop", "hccl", "ascendc"},
}
# Tools that show the simulated device itself (its SoC profiles and state).
SIM_TOOLS = {"npu_smi"}
# Test code may reach into any layer but api.
ANYTHING_BUT_API = {"tests", "bench", "fuzz"}
LAYER_NAMES = {"common", "ops", "driver", "dfx", "core", "feature", "api", "convert", "sim",
               "acl", "aclnn", "aclnnop", "hccl", "ascendc", "tools", "tests", "bench", "fuzz", "lib"}
# CMake files that must not name the simulator library.
NO_SIM_LINK = ["src/ops/CMakeLists.txt", "src/core/CMakeLists.txt",
               "src/convert/CMakeLists.txt", "tools/atc/CMakeLists.txt"]

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]')
SOURCES = (".h", ".hpp", ".cc", ".cpp", ".c", ".inc", ".def")


def layer_of(rel):
    parts = rel.parts
    if parts[0] == "include":
        return "public", None
    if parts[0] == "src" and len(parts) > 2:
        return ("lib" if parts[1] == "lib" else parts[1]), None
    if parts[0] == "sim":
        return "sim", None
    if parts[0] == "tools" and len(parts) > 2:
        return "tools", parts[1]
    if parts[0] in ("tests", "bench", "fuzz", "examples"):
        return parts[0], None
    return None, None


def target_of(path):
    first = path.split("/", 1)[0]
    if path.startswith("api/manifest/"):
        return "manifest"
    return first if "/" in path and first in LAYER_NAMES else None


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    problems = []
    for top in ("include", "src", "sim", "tools", "tests", "bench", "fuzz", "examples"):
        for path in sorted((root / top).rglob("*")):
            if path.suffix not in SOURCES or not path.is_file():
                continue
            rel = path.relative_to(root)
            layer, tool = layer_of(rel)
            if layer is None or layer == "lib":
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                target = target_of(match.group(1))
                if target is None:
                    continue
                if layer in ANYTHING_BUT_API:
                    ok = target != "api"
                else:
                    allowed = ALLOWED[layer] | ({"sim"} if tool in SIM_TOOLS else set())
                    ok = target in allowed
                if not ok:
                    problems.append(f"{rel}:{number}: {layer} includes {target}: "
                                    f"{match.group(1)}")
    for name in NO_SIM_LINK:
        path = root / name
        if path.is_file():
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if "aclsim_sim" in line.split("#", 1)[0]:
                    problems.append(f"{name}:{number}: links the simulator library")
    for problem in problems:
        print(problem)
    if problems:
        print(f"layering: {len(problems)} include(s) or link(s) against the layers "
              "(scripts/check-layers.py says which way the arrows point)")
        return 1
    print("layering: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
