#!/usr/bin/env python3
"""Independent check of an Arm model against Arm's telemetry JSON.

The script reads the CPU's JSON file itself (Arm's Telemetry Solution data,
../shared/reference/arm-telemetry): its metrics (a formula over upper-case
event names, numbers, + - * / and parentheses, parsed and evaluated here),
its metric groups and the decision tree of its topdown methodology. It
writes random but plausible counts as a counts file, runs
`topdown import --cpu MODEL -l 6 --info` and requires of the JSON report:

- every tree node's value is Arm's formula / 100 (Arm writes percent, the
  tree holds fractions), every Info metric's value Arm's formula as it is,
  each within check_common.agree (1e-9 relative); n/a exactly where the
  formula divides by zero;
- structure: the roots of the decision tree are level 1; a metric that a
  node names in `next_items` is its child, the first node to name it
  breadth-first from the roots being the parent; every other metric of the
  file is an Info metric; the model has no metric the file lacks;
- thresholds (ours, README "Arm Neoverse"): level 1 over 0.15 for
  frontend_bound and bad_speculation, 0.20 for backend_bound and N1's two
  stalled-cycles nodes, 0.70 for retiring; a deeper node over 0.5 while its
  parent is over; Info metrics never;
- level 1 sums to 1 (within 1e-9) where the methodology makes it a
  partition of the slots, given STALL_SLOT = STALL_SLOT_FRONTEND +
  STALL_SLOT_BACKEND (each empty slot is empty for one of the two reasons),
  and does not where it is not: N1's stalled cycles (a cycle may stall in
  the frontend and the backend, or neither).

Counts: CPU_CYCLES 1e8-1e10; the slot stall events each 0.3% to 50% of the
slots (CPU_CYCLES * num_slots), log-uniform, with STALL_SLOT their sum; BR_MIS_PRED up to
1% of the cycles; STALL_FRONTEND, STALL_BACKEND and every other event up to
a quarter of the cycles; OP_SPEC above OP_RETIRED. Every tree node must be
over its threshold in some file and under it in another, else the check
fails (its flag would go unchecked): --files is chosen so that the fixed
seed's counts reach the deepest nodes. Each split event (STALL_BACKEND_MEMBOUND ...) is random
on its own, so shares above 100% occur: they are compared as they are.
Half the files write event names as perf does on Arm (lower case) and
the other half as the raw code perf's `rNNNN` spells, so both spellings
must import.

Standard library only, no code from topdown. Exit status: 0 all agree, 1 a
mismatch, 2 an unreadable file or topdown failed, 77 the JSON or the model
file is absent (ctest reports the test as skipped).
"""

import argparse
import json
import math
import os
import random
import re
import sys

sys.dont_write_bytecode = True
from check_common import (SKIP, CheckError, agree, conclude, fmt, import_report, in_folder,  # noqa: E402
                          missing_input, reported_entries, write_counts_file)

LEVEL_ONE_BOUNDS = {"frontend_bound": 0.15, "bad_speculation": 0.15, "backend_bound": 0.20, "retiring": 0.70,
                    "frontend_stalled_cycles": 0.20, "backend_stalled_cycles": 0.20}
DEEPER_BOUND = 0.5
SLOT_STALLS = ("STALL_SLOT_FRONTEND", "STALL_SLOT_BACKEND")
TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([A-Z][A-Z0-9_]*)|([-+*/()]))")


def parse(formula):
    """Arm's formula as a nested tuple: ('num', x), ('event', NAME), (op, left, right)."""
    tokens, position = [], 0
    while position < len(formula.rstrip()):
        match = TOKEN.match(formula, position)
        if not match:
            raise CheckError(f"cannot read '{formula[position:]}' in '{formula}'")
        tokens.append(match.groups())
        position = match.end()
    tokens.append((None, None, "end"))
    at = [0]

    def peek():
        return tokens[at[0]][2]

    def take():
        at[0] += 1
        return tokens[at[0] - 1]

    def primary():
        number, name, op = take()
        if number:
            return ("num", float(number))
        if name:
            return ("event", name)
        if op == "(":
            inner = sum_of()
            if take()[2] != ")":
                raise CheckError(f"')' expected in '{formula}'")
            return inner
        if op == "-":
            return ("-", ("num", 0.0), primary())
        raise CheckError(f"unexpected '{op}' in '{formula}'")

    def product():
        left = primary()
        while peek() in ("*", "/"):
            left = (take()[2], left, primary())
        return left

    def sum_of():
        left = product()
        while peek() in ("+", "-"):
            left = (take()[2], left, product())
        return left

    tree = sum_of()
    if peek() != "end":
        raise CheckError(f"trailing '{peek()}' in '{formula}'")
    return tree


def evaluate(tree, counts):
    """None for a division by zero (topdown's n/a)."""
    kind = tree[0]
    if kind == "num":
        return tree[1]
    if kind == "event":
        return float(counts[tree[1]])
    left, right = evaluate(tree[1], counts), evaluate(tree[2], counts)
    if left is None or right is None:
        return None
    if kind == "/":
        return None if right == 0 else left / right
    return {"+": left + right, "-": left - right, "*": left * right}[kind]


def events_of(tree):
    if tree[0] == "event":
        return {tree[1]}
    if tree[0] == "num":
        return set()
    return events_of(tree[1]) | events_of(tree[2])


class ArmCpu:
    def __init__(self, path):
        try:
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
            self.slots = int(data["product_configuration"]["num_slots"])
            self.codes = {name: int(event["code"], 16) for name, event in data["events"].items()}
            self.formulas = {name: parse(m["formula"]) for name, m in data["metrics"].items()}
            method = data["methodologies"]["topdown_methodology"]["decision_tree"]
            self.roots = method["root_nodes"]
            self.next_items = {entry["name"]: entry["next_items"] for entry in method["metrics"]}
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise CheckError(f"{path}: not an Arm telemetry CPU file ({error!r})")
        self.parents, self.levels = self.tree()

    def tree(self):
        parents, levels = {}, {root: 1 for root in self.roots}
        queue = list(self.roots)
        while queue:
            name = queue.pop(0)
            for item in self.next_items.get(name, []):
                if item in self.next_items and item not in levels:
                    parents[item], levels[item] = name, levels[name] + 1
                    queue.append(item)
        return parents, levels

    def events(self):
        return set().union(*(events_of(tree) for tree in self.formulas.values()))


def plausible_counts(cpu, rng):
    cycles = rng.randint(10 ** 8, 10 ** 10)
    # Sorted: a set's order changes from run to run (string hashing), and
    # with it which event gets which draw of the seeded generator.
    counts = {event: rng.randint(1, cycles // 4) for event in sorted(cpu.events())}
    counts["CPU_CYCLES"] = cycles
    counts["BR_MIS_PRED"] = rng.randint(1, cycles // 100)
    slots = cycles * cpu.slots
    for event in SLOT_STALLS:
        # From a few empty slots to half of them, evenly over the orders of magnitude.
        counts[event] = int(slots * 10 ** rng.uniform(-2.5, math.log10(0.5)))
    counts["STALL_SLOT"] = counts["STALL_SLOT_FRONTEND"] + counts["STALL_SLOT_BACKEND"]
    if "OP_SPEC" in counts:
        counts["OP_SPEC"] = rng.randint(cycles, slots)
        counts["OP_RETIRED"] = rng.randint(counts["OP_SPEC"] // 2, counts["OP_SPEC"])
    return {event: count for event, count in counts.items() if event in cpu.events()}


def spelled(counts, cpu, raw):
    """As perf names the events on Arm: lower case, or the raw code."""
    return {(f"r{cpu.codes[event]:04x}" if raw else event.lower()): count for event, count in counts.items()}


def expected_over(cpu, name, values):
    value = values[name]
    if name not in cpu.levels or value is None:
        return False
    if cpu.levels[name] == 1:
        return value > LEVEL_ONE_BOUNDS[name]
    return value > DEEPER_BOUND and expected_over(cpu, cpu.parents[name], values)


def check_file(cpu, counts, report, label, problems, flags_seen):
    values = {}
    for name, formula in cpu.formulas.items():
        value = evaluate(formula, counts)
        values[name] = value / 100 if name in cpu.levels and value is not None else value
    entries = reported_entries(report)
    for name in sorted(set(entries) - set(cpu.formulas)):
        problems.append(((name, "extra"), f"{label}: {name} is in the model, not in Arm's file"))
    for name, value in values.items():
        if name not in entries:
            problems.append(((name, "missing"), f"{label}: {name} is not in topdown's report"))
            continue
        kind, entry = entries[name]
        if not agree(value, entry["value"]):
            problems.append(((name, "value"), f"{label}: {name} is {fmt(entry['value'])}, Arm's formula {fmt(value)}"))
        want_kind = "nodes" if name in cpu.levels else "info"
        level = cpu.levels.get(name, 0)
        parent = cpu.parents.get(name)
        got_parent = entries.get(parent, (None, {}))[1].get("name") if parent else None
        if kind != want_kind or entry["level"] != level or entry["parent"] != got_parent:
            problems.append(((name, "structure"), f"{label}: {name} is {kind} level {entry['level']} under "
                                                  f"{entry['parent']}; Arm's tree: {want_kind} level {level} "
                                                  f"under {parent}"))
        if kind == "nodes":
            flags_seen.setdefault(name, set()).add(entry["over_threshold"])
        if entry["over_threshold"] != expected_over(cpu, name, values):
            problems.append(((name, "threshold"), f"{label}: {name} over_threshold {entry['over_threshold']}, "
                                                  f"expected {not entry['over_threshold']} at {fmt(value)}"))
    return values


def check_sum(cpu, values, sums_to_one, label, problems, gaps):
    level_one = [values[root] for root in cpu.roots]
    if any(v is None for v in level_one):
        return
    total = sum(level_one)
    if sums_to_one and not agree(1.0, total):
        problems.append((("level 1", "sum"), f"{label}: level 1 sums to {total!r}, the methodology says 1"))
    if not sums_to_one:
        gaps.append(abs(total - 1))


def run(args, folder):
    cpu = ArmCpu(args.json)
    rng = random.Random(args.seed)
    problems, gaps, flags_seen = [], [], {}
    for index in range(args.files):
        counts = plausible_counts(cpu, rng)
        raw = index % 2 == 1
        path = os.path.join(folder, f"{args.model}-{index}.counts")
        write_counts_file(path, spelled(counts, cpu, raw), {"interval-s": 1.0},
                          f"{args.model}: random counts, seed {args.seed}, file {index}")
        report = import_report(args.topdown, path, ["--cpu", args.model, "-l", "6", "--info"])
        label = f"{os.path.basename(path)} ({'raw codes' if raw else 'lower-case names'})"
        values = check_file(cpu, counts, report, label, problems, flags_seen)
        check_sum(cpu, values, args.level1_sums_to_one == "yes", label, problems, gaps)
    for name in sorted(cpu.levels):
        if flags_seen.get(name) != {True, False}:
            problems.append(((name, "coverage"), f"{name} was never {'under' if True in flags_seen.get(name, ()) else 'over'} "
                                                 f"its threshold in {args.files} files; raise --files"))
    notes = []
    if gaps:
        if min(gaps) < 1e-6:
            problems.append((("level 1", "sum"), "level 1 summed to 1 in a file though the model is said not to"))
        notes.append(f"level 1 is not a partition here: it missed 1 by {min(gaps):.3g} to {max(gaps):.3g}")
    compared = f"{len(cpu.formulas)} metrics ({len(cpu.levels)} tree nodes) in {args.files} counts files"
    return conclude(problems, notes, compared, f"{args.model} agrees with {os.path.basename(args.json)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--topdown", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--model-file", required=True)
    parser.add_argument("--json", required=True, help="Arm's telemetry file of the CPU")
    parser.add_argument("--level1-sums-to-one", choices=("yes", "no"), required=True)
    parser.add_argument("--files", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", help="write the counts files and reports here and keep them")
    args = parser.parse_args()
    absent = missing_input([args.json, args.model_file])
    if absent:
        print(absent)
        return SKIP
    try:
        return in_folder(args.keep, lambda folder: run(args, folder))
    except CheckError as error:
        print(f"error: {error}")
        return 2


if __name__ == "__main__":
    sys.exit(main())
