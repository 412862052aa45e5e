#!/usr/bin/env python3
"""Independent check of an Intel model's levels 1 and 2 without the
PERF_METRICS register, against Intel's TMA spreadsheet.

The spreadsheet (TMA_Metrics-full-<version>.csv) writes each formula of Ice
Lake and later that can read the register both ways, `REGISTER if
#PERF_METRICS_MSR else GENERAL`. Here Python evaluates the CPU's column of it
(--column) itself: the formulas are Python expressions over event names,
other rows' names, auxiliary terms (`#Name`, a row of key Aux) and `##Node`
(the sum of Node's children), an empty cell being the nearest filled cell to
its right and `#NA` a metric the CPU lacks. `#PERF_METRICS_MSR` is 0 or 1,
`#SMT_on` the SMT setting.

Two checks on the same random counts, for each --smt setting:

1. The general counters: every level-1 and level-2 node of the column,
   evaluated with `#PERF_METRICS_MSR` 0, against `topdown import --cpu MODEL
   --perf-metrics off -l 2` of a file of exactly the events it read (1e-9
   relative, n/a exactly where Python's arithmetic fails); topdown must
   report the same nodes at those levels.
2. Both ways on consistent counts: the register's fields are built from the
   same slots as the general-counter events (each field's share of the
   fields' sum is what the general-counter formula gives, the sum being the
   slots; a level-1 field no formula reads is what the other three leave),
   and `topdown import --perf-metrics on` must give every level-1 and
   level-2 node the value of `--perf-metrics off`.

The sheet counts the slots with TOPDOWN.SLOTS (fixed counter 3) in its
general-counter formulas of most CPUs and TOPDOWN.SLOTS_P (a general counter)
in Lion Cove's; both count the same slots, so both are written with equal
counts and a model may read either.

Standard library only, no code from topdown or its generator. Exit status:
0 all agree, 1 a mismatch, 2 an unreadable sheet or topdown failed, 77 the
sheet or the model file is absent (ctest reports the test as skipped).
"""

import argparse
import csv
import os
import random
import re
import sys

sys.dont_write_bytecode = True  # importing check_common leaves no __pycache__ in the source tree
from check_common import (SKIP, CheckError, agree, conclude, fmt, import_report, in_folder, missing_input,
                          write_counts_file)

TREE_KEYS = {"FE", "BAD", "BE", "BE/Mem", "BE/Core", "RET"}
FIELDS_OF_THE_SUM = ("FRONTEND_BOUND", "BAD_SPECULATION", "RETIRING", "BACKEND_BOUND")
SLOT_EVENTS = ("TOPDOWN.SLOTS", "TOPDOWN.SLOTS_P")
TOKEN = re.compile(r"\s*(?:(?P<number>\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)"
                   r"|(?P<name>#{0,2}[A-Za-z_][A-Za-z0-9_.]*(?::[A-Za-z0-9_=]+)*)"
                   r"|(?P<op>[-+*/(),<>=!]+))")
KEYWORDS = {"if", "else", "and", "or", "not", "min", "max"}
COUNTS_FILES = 4  # per SMT setting


class Sheet:
    """One column of the spreadsheet: formula by row name, tree parents."""

    def __init__(self, path, column):
        with open(path, encoding="utf-8", newline="") as handle:
            lines = list(csv.reader(handle))
        header = lines[2]
        if header[:2] != ["Key", "Level1"] or column not in header:
            raise CheckError(f"{path}: no column {column} in its third row")
        first, last = header.index(column), header.index("Locate-with")
        self.formulas, self.parents, self.levels = {}, {}, {}
        last_at_level = {}
        for cells in lines[3:]:
            cells += [""] * (len(header) - len(cells))
            names = [(level, cells[level].strip()) for level in range(1, 7) if cells[level].strip()]
            if not cells[0].strip() or not names:
                continue
            level, name = names[0]
            if cells[0].strip() in TREE_KEYS:
                last_at_level[level] = name
                self.parents[name] = last_at_level.get(level - 1) if level > 1 else None
                self.levels[name] = level
            formula = next((c.strip() for c in cells[first:last] if c.strip()), "")
            if formula and formula != "#NA":
                self.formulas.setdefault(name, formula)

    def upper_nodes(self):
        return [n for n, level in self.levels.items() if level <= 2 and n in self.formulas]

    def children(self, node):
        return [n for n, parent in self.parents.items() if parent == node and n in self.formulas]


class Evaluator:
    """The column's values on one set of counts; `msr` chooses the way."""

    def __init__(self, sheet, counts, msr, smt, path):
        self.sheet, self.counts, self.msr, self.smt, self.path = sheet, counts, msr, smt, path
        self.cache = {}
        self.events_read = set()

    def value(self, name):
        if name not in self.cache:
            if name not in self.sheet.formulas:
                raise CheckError(f"{self.path}: the column has no formula for {name}")
            self.cache[name] = self.evaluate(self.sheet.formulas[name])
        return self.cache[name]

    def evaluate(self, formula):
        python = []
        position = 0
        while position < len(formula.rstrip()):
            match = TOKEN.match(formula, position)
            if not match or match.end() == position:
                raise CheckError(f"{self.path}: cannot read '{formula[position:position + 30]}' in '{formula}'")
            position = match.end()
            kind, text = match.lastgroup, match.group(match.lastgroup)
            if kind != "name" or text in KEYWORDS:
                python.append(text)
            else:
                python.append(f"_({text!r})")
        try:
            return eval(" ".join(python), {"__builtins__": {}, "min": min, "max": max, "_": self.term})
        except ZeroDivisionError:
            return None
        except TypeError:  # an n/a operand
            return None

    def term(self, name):
        if name == "#PERF_METRICS_MSR":
            return self.msr
        if name == "#SMT_on":
            return self.smt
        if name.startswith("##"):
            return sum(self.required(child) for child in self.sheet.children(name[2:]))
        if name in self.sheet.formulas:
            return self.required(name)
        if name.startswith("#"):
            raise CheckError(f"{self.path}: the column gives no value for {name}")
        # The register's way names the slots of fixed counter 3 so.
        event = name.removesuffix(":perf_metrics")
        self.events_read.add(event)
        return self.counts[event]

    def required(self, name):
        value = self.value(name)
        if value is None:
            raise TypeError(f"{name} is n/a")
        return value


class RandomCounts(dict):
    """Counts drawn as they are first read; the slots larger than any other
    event, so that the level-1 shares leave room for bad speculation."""

    def __init__(self, rng):
        super().__init__()
        self.rng = rng
        slots = rng.randint(100_000_000, 150_000_000)
        self.update({event: slots for event in SLOT_EVENTS})

    def __missing__(self, event):
        self[event] = self.rng.randint(100_000, 20_000_000)
        return self[event]


def register_fields(sheet, counts, smt, path):
    """The PERF_METRICS fields consistent with the general-counter counts:
    for each node `PERF_METRICS.X / #PERF_METRICS_SUM + correction if
    #PERF_METRICS_MSR else GENERAL`, X's share is GENERAL - correction."""
    general = Evaluator(sheet, counts, 0, smt, path)
    slots = counts["TOPDOWN.SLOTS"]
    fields = {}
    for node, formula in sheet.formulas.items():
        match = re.search(r"PERF_METRICS\.(\w+) / #PERF_METRICS_SUM", formula)
        if not match or "#PERF_METRICS_MSR" not in formula:
            continue
        register = formula.split(" if #PERF_METRICS_MSR else ")[0]
        correction = Evaluator(sheet, counts, 1, smt, path).evaluate(
            register.replace(match.group(0), "0"))
        share = general.value(node)
        if share is None or correction is None:
            raise CheckError(f"{node}: n/a on random counts; draw others")
        fields[match.group(1)] = (share - correction) * slots
    left = [f for f in FIELDS_OF_THE_SUM if f not in fields]
    if len(left) > 1:
        raise CheckError(f"{path}: no formula reads the fields {', '.join(left)}")
    if left:
        fields[left[0]] = slots - sum(fields[f] for f in FIELDS_OF_THE_SUM if f in fields)
    if min(fields[f] for f in FIELDS_OF_THE_SUM) < 0:
        raise CheckError("the random counts leave a negative level-1 field")
    return {"PERF_METRICS." + name: value for name, value in fields.items()}


def upper_nodes_reported(report):
    return {node["name"]: node.get("value") for node in report.get("nodes", []) if node.get("level", 0) <= 2}


def check(args, folder):
    sheet = Sheet(args.sheet, args.column)
    upper = sheet.upper_nodes()
    problems, notes = [], []
    compared = 0
    rng = random.Random(f"{args.model} {args.column}")
    for smt in args.smt:
        for number in range(COUNTS_FILES):
            counts = RandomCounts(rng)
            reference = Evaluator(sheet, counts, 0, int(smt == "on"), args.sheet)
            expected = {node: reference.value(node) for node in upper}
            fields = register_fields(sheet, counts, int(smt == "on"), args.sheet)
            general_path = os.path.join(folder, f"{args.model}-smt-{smt}-{number}-general.counts")
            write_counts_file(general_path, counts, {"smt_enabled": int(smt == "on")},
                              f"{args.model}: the general-counter events of column {args.column}")
            # The register's fields are counts too: rounded to whole slots.
            both = dict(counts, **{name: round(value) for name, value in fields.items()})
            both_path = os.path.join(folder, f"{args.model}-smt-{smt}-{number}-both.counts")
            write_counts_file(both_path, both, {"smt_enabled": int(smt == "on")},
                              f"{args.model}: those events and PERF_METRICS fields of the same slots")
            options = ["--cpu", args.model, "--smt", smt, "-l", "2"]
            off = upper_nodes_reported(import_report(args.topdown, general_path, options + ["--perf-metrics", "off"]))
            on = upper_nodes_reported(import_report(args.topdown, both_path, options + ["--perf-metrics", "on"]))
            if set(off) != set(upper):
                problems.append((("nodes", smt), f"levels 1-2: topdown reports {sorted(off)}, the sheet has "
                                                 f"{sorted(upper)}"))
            for node in upper:
                compared += 1
                if not agree(expected[node], off.get(node)):
                    problems.append(((node, "off"), f"{node} (smt {smt}, --perf-metrics off): the sheet's "
                                                    f"general counters give {fmt(expected[node])}, topdown "
                                                    f"{fmt(off.get(node))}"))
                if not close(off.get(node), on.get(node)):
                    problems.append(((node, "both"), f"{node} (smt {smt}): --perf-metrics on gives "
                                                     f"{fmt(on.get(node))}, off {fmt(off.get(node))}"))
    notes.append(f"general-counter events read: {len(reference.events_read)}")
    return conclude(problems, notes, f"{compared} node values of levels 1-2, each both ways",
                    f"{args.model} agrees with column {args.column} of {os.path.basename(args.sheet)} "
                    "without PERF_METRICS, and with it on consistent counts")


def close(a, b):
    """The register's fields are rounded to whole slots: a share of 1e8
    slots moves by up to 1e-8 of its value."""
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-7 * max(abs(a), abs(b)) + 1e-7


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--topdown", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--model-file", required=True)
    parser.add_argument("--sheet", required=True, help="TMA_Metrics-full-<version>.csv")
    parser.add_argument("--column", required=True, help="the CPU's column (ICL, LNL/ARL, ...)")
    parser.add_argument("--smt", nargs="+", choices=("off", "on"), default=["off"])
    parser.add_argument("--keep", help="write the counts files and reports into this folder and keep them")
    args = parser.parse_args()
    absent = missing_input([args.sheet, args.model_file])
    if absent:
        print(absent)
        return SKIP
    try:
        return in_folder(args.keep, lambda folder: check(args, folder))
    except CheckError as error:
        print(f"error: {error}")
        return 2


if __name__ == "__main__":
    sys.exit(main())
