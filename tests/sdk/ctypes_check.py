"""Loads each library named on the command line with Python ctypes and runs aclInit, a
host -> device -> host copy and aclFinalize through it (tests/sdk/sdk_install_test.sh).

    python3 ctypes_check.py /path/libascendcl.so /path/libacl_cblas.so ...
"""
import ctypes
import sys

ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2


def check(path):
    lib = ctypes.CDLL(path)
    lib.aclrtMalloc.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t, ctypes.c_int]
    lib.aclrtMemcpy.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p,
                                ctypes.c_size_t, ctypes.c_int]
    lib.aclrtFree.argtypes = [ctypes.c_void_p]
    lib.aclInit.argtypes = [ctypes.c_char_p]
    size = 4096
    data = bytes((i * 7 + 3) & 0xFF for i in range(size))
    src = ctypes.create_string_buffer(data, size)
    dst = ctypes.create_string_buffer(size)
    dev = ctypes.c_void_p()
    steps = [
        ("aclInit", lambda: lib.aclInit(None)),
        ("aclrtSetDevice", lambda: lib.aclrtSetDevice(0)),
        ("aclrtMalloc", lambda: lib.aclrtMalloc(ctypes.byref(dev), size, ACL_MEM_MALLOC_HUGE_FIRST)),
        ("aclrtMemcpy H2D", lambda: lib.aclrtMemcpy(dev, size, src, size, ACL_MEMCPY_HOST_TO_DEVICE)),
        ("aclrtMemcpy D2H", lambda: lib.aclrtMemcpy(dst, size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST)),
        ("aclrtFree", lambda: lib.aclrtFree(dev)),
        ("aclrtResetDevice", lambda: lib.aclrtResetDevice(0)),
        ("aclFinalize", lambda: lib.aclFinalize()),
    ]
    for name, step in steps:
        code = step()
        if code != 0:
            print(f"{path}: {name} returned {code}", file=sys.stderr)
            return 1
    if dst.raw != data:
        print(f"{path}: the copy came back different", file=sys.stderr)
        return 1
    print(f"ctypes {path}: init, copy, finalize ok")
    return 0


def main():
    paths = sys.argv[1:]
    if not paths:
        print("usage: ctypes_check.py LIBRARY...", file=sys.stderr)
        return 2
    return 1 if sum(check(p) for p in paths) else 0


if __name__ == "__main__":
    sys.exit(main())
