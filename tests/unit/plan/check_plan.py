#!/usr/bin/env python3
"""Runs aclsim-plan on a trace and checks its JSON and its offsets file.

usage: check_plan.py ACLSIM_PLAN TRACE.csv OFFSETS.csv [ALIGNMENT]
Fails unless the exit status is 0, the JSON has the issue's fields with consistent values,
every buffer has an aligned offset, and no two buffers live together overlap in memory.
"""
import csv
import json
import subprocess
import sys


def main():
    tool, trace, offsets_path = sys.argv[1:4]
    alignment = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    cmd = [tool, trace, "--offsets", offsets_path, "--alignment", str(alignment)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    for key in ("arena", "lower_bound", "buffers", "ms", "total", "ratio", "greedy_by_size",
                "strategy"):
        assert key in report, f"missing {key}: {out}"
    with open(trace) as f:
        buffers = [(r["id"], int(r["lower"]), int(r["upper"]), int(r["size"]))
                   for r in csv.DictReader(f)]
    with open(offsets_path) as f:
        offsets = {r["id"]: int(r["offset"]) for r in csv.DictReader(f)}
    assert report["buffers"] == len(buffers) == len(offsets)
    assert report["lower_bound"] <= report["arena"] <= report["greedy_by_size"], out
    assert report["arena"] <= report["total"], out
    rounded = lambda s: (s + alignment - 1) // alignment * alignment
    events = []
    for bid, lower, upper, size in buffers:
        offset = offsets[bid]
        assert offset % alignment == 0, f"{bid} at {offset}"
        assert offset + rounded(size) <= report["arena"], f"{bid} ends past the arena"
        if size:
            events.append((lower, 1, offset, offset + size, bid))
            events.append((upper, 0, offset, offset + size, bid))
    events.sort()
    live = {}
    for _, start, begin, end, bid in events:
        if not start:
            del live[bid]
            continue
        for other, (b, e) in live.items():
            assert end <= b or e <= begin, f"{bid} overlaps {other}"
        live[bid] = (begin, end)
    print(f"ok: {report['buffers']} buffers, arena/lb {report['ratio']:.4f}")


if __name__ == "__main__":
    main()
