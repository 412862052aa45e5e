#!/usr/bin/env python3
"""Checks tools/modelgen/intel_text.ini against Intel's perfmon metrics.

Usage: check_intel_text.py [PERFMON_DIR] [--text FILE]

PERFMON_DIR (default /work/shared/reference/intel-perfmon) holds
<CPU>/metrics/*_metrics*.json (and tma-<VERSION>/<CPU>/metrics/ of newer TMA
versions), E-core_TMA_Metrics.csv and the TMA spreadsheets (TMA/) the metrics
of a CPU without a metrics file come from (cpus.py's sheet_column); the extra metrics
of intel_extra.ini (`[<cpu> metric <Name>]`) count as names too. Exits 1
listing every problem: metric names without a section or description, tree
nodes without advice, sections for names neither has, duplicate sections
or keys, lines over 110 characters, malformed lines. Exits 77 when
PERFMON_DIR is missing (ctest reports a skip).
"""

import argparse
import csv
import glob
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from cpus import CPUS  # noqa: E402
from general_counters import SHEETS  # noqa: E402
from sheet_metrics import sheet_metrics  # noqa: E402
from tma_sheet import TmaSheet  # noqa: E402

MAX_LINE = 110
KEYS = ("description", "advice", "unit")
TREE_AREAS = ("FE", "BAD", "BE", "RET")
# A value continues on the next line when that line starts with two spaces.
CONTINUATION = "  "


def parse_text(path):
    """Returns ({name: {key: value}}, [problem]) for the ini file at path."""
    sections = {}
    problems = []
    current = None
    key = None
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            where = f"{path}:{number}"
            if len(line) > MAX_LINE:
                problems.append(f"{where}: line of {len(line)} characters (at most {MAX_LINE})")
            if line.startswith("#") or not line.strip():
                continue
            header = re.fullmatch(r"\[([^\[\]\s]+)\]", line)
            if header:
                current = header.group(1)
                key = None
                if current in sections:
                    problems.append(f"{where}: duplicate section [{current}]")
                sections.setdefault(current, {})
                continue
            if line.startswith(CONTINUATION) and line.strip():
                if current is None or key is None:
                    problems.append(f"{where}: continuation line without a key above it")
                else:
                    sections[current][key] += " " + line.strip()
                continue
            entry = re.fullmatch(r"([a-z_]+) = (\S.*)", line)
            if current is None or not entry:
                problems.append(f"{where}: expected '[NAME]', 'key = value' or a continuation line")
                key = None
                continue
            key = entry.group(1)
            if key not in KEYS:
                problems.append(f"{where}: unknown key '{key}' (known: {', '.join(KEYS)})")
            if key in sections[current]:
                problems.append(f"{where}: duplicate key '{key}' in [{current}]")
            sections[current][key] = entry.group(2).strip()
    return sections, problems


def perfmon_names(perfmon):
    """Returns (all metric names, tree node names) of the perfmon folder."""
    names = set()
    tree = set()
    # The pinned files, and the newer TMA versions beside them (tma-5.2/<CPU>/metrics).
    paths = glob.glob(os.path.join(perfmon, "*", "metrics", "*_metrics*.json"))
    paths += glob.glob(os.path.join(perfmon, "tma-*", "*", "metrics", "*_metrics*.json"))
    for path in sorted(paths):
        with open(path, encoding="utf-8") as f:
            metrics = json.load(f)["Metrics"]
        for metric in metrics:
            name = metric["MetricName"]
            names.add(name)
            if metric.get("Category") == "TMA" and not name.startswith(("Info_", "Bottleneck_")):
                tree.add(name)
    with open(os.path.join(perfmon, "E-core_TMA_Metrics.csv"), encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    header = next(i for i, row in enumerate(rows) if row and row[0] == "Key")
    for row in rows[header + 1:]:
        kind = row[0].strip()
        if kind in TREE_AREAS:
            for level in (1, 2, 3):
                if row[level].strip():
                    names.add(row[level].strip())
                    tree.add(row[level].strip())
        elif kind.startswith("Info") and row[1].strip():
            names.add(row[1].strip())
    # The CPUs whose metrics come from their column of the TMA spreadsheet (Panther Lake).
    for cpu in CPUS.values():
        if cpu.sheet_column:
            column = TmaSheet.read(os.path.join(perfmon, SHEETS[cpu.version])).column(cpu.sheet_column)
            for metric in sheet_metrics(column)[1]:
                names.add(metric.name)
                if metric.is_node:
                    tree.add(metric.name)
    return names, tree


def extra_metric_names(path):
    """The names of intel_extra.ini's `[<cpu> metric <Name>]` sections."""
    with open(path, encoding="utf-8") as f:
        return set(re.findall(r"^\[\S+ metric (\S+)\]$", f.read(), re.M))


def check(sections, names, tree):
    problems = []
    for name in sorted(names):
        if name not in sections:
            problems.append(f"[{name}]: no section")
        elif "description" not in sections[name]:
            problems.append(f"[{name}]: no description")
    for name in sorted(tree & set(sections)):
        if "advice" not in sections[name]:
            problems.append(f"[{name}]: a tree node without advice")
    for name in sorted(set(sections) - names):
        problems.append(f"[{name}]: no perfmon metric or E-core node has this name")
    return problems


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("perfmon", nargs="?", default="/work/shared/reference/intel-perfmon")
    parser.add_argument("--text", default=os.path.join(here, "intel_text.ini"))
    parser.add_argument("--extra", default=os.path.join(here, "intel_extra.ini"))
    args = parser.parse_args()
    if not os.path.isdir(args.perfmon):
        print(f"skipped: no perfmon folder at {args.perfmon}")
        return 77
    names, tree = perfmon_names(args.perfmon)
    names |= extra_metric_names(args.extra)
    sections, problems = parse_text(args.text)
    problems += check(sections, names, tree)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{args.text}: {len(problems)} problems")
        return 1
    advised = sum("advice" in s for s in sections.values())
    print(f"{args.text}: {len(sections)} sections, {advised} with advice, "
          f"covering {len(names)} perfmon names ({len(tree)} tree nodes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
