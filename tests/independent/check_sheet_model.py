#!/usr/bin/env python3
"""Independent check of an Intel model made from a column of Intel's TMA
spreadsheet (Panther Lake's `PTL` column of TMA_Metrics-full-5.2.csv: perfmon
publishes no metrics file for it), against that column evaluated here.

The sheet (VERSIONS.md beside it): three header rows, the second marking the
server CPUs' columns `Server`, the third naming Key, Level1..Level6, the CPU
columns and the attributes (Locate-with, Count Domain, ..., Metric Group). A
row's name is its one filled Level cell; tree rows (keys FE, BAD, BE, BE/Mem,
BE/Core, RET) hang under the last row one level up. For a client CPU an
empty cell means the formula of the nearest filled client column to its
right (a server's formula is not a client's), `#NA` that the CPU lacks the
metric, and the rows of the `Server` metric group are not a client's.

Every formula is evaluated by Python itself: `#Name` and other rows by their
own cells, `##Node` the sum of Node's children the CPU has, `#PERF_METRICS_MSR`
1 (the register, as the model reads it with --perf-metrics on), `#SMT_on` 0
(Cougar Cove has no SMT), `$PEBS` the retire latency of the event before it
(`EVENT*$PEBS`, `EVENT*min($PEBS, COST)`), TSC the event msr/tsc/,
DurationTimeInMilliSeconds 1000 * interval-s, NUM_CORES the CPUs online.
Random counts (and random retire latencies, given to import with
--retire-latencies) are written as a counts file; `topdown import --cpu MODEL
--perf-metrics on -l 6 --info` must report every metric of the column with
the same value (1e-9 relative, n/a exactly where Python's arithmetic fails),
nodes at the sheet's level under its parent, and no metric the column lacks.
A metric that reads (through other rows too) an event the CPU's core events
file (--events) does not list, uncore events among them, is one topdown
cannot count here: it must be absent, and is noted. Thresholds are not
judged here.

Standard library only, no code from topdown or its generator. Exit status:
0 all agree, 1 a mismatch, 2 an unreadable input or topdown failed, 77 an
input is absent (ctest reports the test as skipped).
"""

import argparse
import csv
import json
import os
import random
import re
import sys

sys.dont_write_bytecode = True  # importing check_common leaves no __pycache__ in the source tree
from check_common import (SKIP, CheckError, agree, conclude, fmt, import_report, in_folder, missing_input,
                          reported_entries, write_counts_file)

TREE_KEYS = {"FE", "BAD", "BE", "BE/Mem", "BE/Core", "RET"}
TOKEN = re.compile(r"\s*(?:(?P<number>\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)"
                   r"|(?P<pebs>\$PEBS)"
                   r"|(?P<name>#{0,2}[A-Za-z_][A-Za-z0-9_.]*(?::[A-Za-z0-9_=]+)*)"
                   r"|(?P<op>==|[-+*/(),<>]))")
KEYWORDS = {"if", "else", "and", "or", "not", "min", "max"}
TSC_EVENT = "msr/tsc/"
SLOTS_EVENT = "TOPDOWN.SLOTS"
COUNTS_FILES = 4
# Facts of the run the sheet names (some have rows of their own, without a formula).
RUN_FACTS = ("TSC", "DurationTimeInMilliSeconds", "NUM_CORES")


class NotAvailable(Exception):
    """A value the CPU has no formula for (#NA), or an n/a operand."""


class Column:
    def __init__(self, path, cpu):
        with open(path, encoding="utf-8", newline="") as handle:
            lines = list(csv.reader(handle))
        header = lines[2]
        if header[:2] != ["Key", "Level1"] or cpu not in header or "Locate-with" not in header:
            raise CheckError(f"{path}: no column {cpu} in its third row")
        marks = lines[1] + [""] * len(header)
        first, last = header.index(cpu), header.index("Locate-with")
        client = marks[first].strip() != "Server"
        self.columns = [i for i in range(first, last) if i == first or not client or marks[i].strip() != "Server"]
        group = header.index("Metric Group")
        self.cells, self.keys, self.levels, self.parents, self.metric_names = {}, {}, {}, {}, {}
        last_at_level = {}
        for cells in lines[3:]:
            cells += [""] * (len(header) - len(cells))
            names = [(level, cells[level].strip()) for level in range(1, 7) if cells[level].strip()]
            key = cells[0].strip()
            if not key or key == "." or not names or names[0][1] in self.cells:
                continue
            level, name = names[0]
            self.cells[name] = next((cells[i].strip() for i in self.columns if cells[i].strip()), "")
            self.keys[name] = key
            if key in TREE_KEYS:
                last_at_level[level] = name
                self.parents[name] = last_at_level.get(level - 1) if level > 1 else None
                self.levels[name] = level
            if key != "Aux" and self.formula(name) is not None and \
                    not (client and "Server" in cells[group].split(";")):
                self.metric_names[name] = (key.replace(".", "_") + "_" + name if key.startswith("Info.")
                                           else "Bottleneck_" + name if key == "Bottleneck" else name)

    def formula(self, name):
        cell = self.cells.get(name, "")
        return None if cell in ("", "#NA") else cell

    def children(self, node):
        return [n for n, parent in self.parents.items() if parent == node and n in self.metric_names]


class Evaluator:
    def __init__(self, column, counts, latencies, interval, cpus_online):
        self.column, self.counts, self.latencies = column, counts, latencies
        self.interval, self.cpus_online = interval, cpus_online
        self.cache = {}

    def value(self, name):
        """The row's value; None where it is n/a."""
        if name not in self.cache:
            formula = self.column.formula(name)
            self.cache[name] = None if formula is None else self.evaluate(formula)
        return self.cache[name]

    def evaluate(self, formula):
        python, last_event = [], None
        for kind, text in tokens(formula):
            if kind == "pebs":
                if last_event is None:
                    raise CheckError(f"'{formula}': $PEBS follows no event")
                python.append(f"_lat({last_event!r})")
            elif kind != "name" or text in KEYWORDS:
                python.append(text)
            else:
                python.append(f"_({text!r})")
                if is_event(self.column, text):
                    last_event = text
        try:
            return eval(" ".join(python), {"__builtins__": {}, "min": min, "max": max, "_": self.term,
                                           "_lat": self.latencies.__getitem__})
        except (ZeroDivisionError, NotAvailable, TypeError):
            return None

    def term(self, name):
        if name == "#PERF_METRICS_MSR":
            return 1
        if name == "#SMT_on":
            return 0
        if name == "#NA":
            raise NotAvailable(name)
        if name.startswith("##"):
            return sum(self.required(child) for child in self.column.children(name[2:]))
        if name == "TSC":
            return self.counts[TSC_EVENT]
        if name == "DurationTimeInMilliSeconds":
            return 1000 * self.interval
        if name == "NUM_CORES":
            return self.cpus_online
        if name in self.column.cells:
            return self.required(name)
        # The register's way names the slots of fixed counter 3 so.
        return self.counts[name.removesuffix(":perf_metrics")]

    def required(self, name):
        value = self.value(name)
        if value is None:
            raise NotAvailable(name)
        return value


def tokens(formula):
    out, position, text = [], 0, formula.strip()
    while position < len(text):
        match = TOKEN.match(text, position)
        if not match or match.end() == position:
            raise CheckError(f"cannot read '{text[position:position + 30]}' in '{text}'")
        out.append((match.lastgroup, match.group(match.lastgroup)))
        position = match.end()
    return out


def is_event(column, name):
    return not name.startswith("#") and name not in column.cells and name not in KEYWORDS and name not in RUN_FACTS


def events_read(column, name, seen=None):
    """The events a row reads, through the rows it names (the branch a
    condition takes is not known here: both are counted)."""
    seen = set() if seen is None else seen
    found = set()
    formula = column.formula(name)
    if formula is None or name in seen:
        return found
    seen.add(name)
    for kind, text in tokens(formula):
        if kind != "name" or text in KEYWORDS or text in ("#PERF_METRICS_MSR", "#SMT_on", "#NA"):
            continue
        if text.startswith("##"):
            for child in column.children(text[2:]):
                found |= events_read(column, child, seen)
        elif text == "TSC":
            found.add(TSC_EVENT)
        elif text in RUN_FACTS:
            continue
        elif text in column.cells:
            found |= events_read(column, text, seen)
        elif is_event(column, text):
            found.add(text.removesuffix(":perf_metrics"))
    return found


def listed_events(path):
    with open(path, encoding="utf-8") as handle:
        return {e["EventName"] for e in json.load(handle)["Events"]}


def check(args, folder):
    column = Column(args.sheet, args.column)
    listed = listed_events(args.events) | {TSC_EVENT}
    expected, unlisted = {}, {}
    for name, metric_name in column.metric_names.items():
        lacking = sorted(e for e in events_read(column, name)
                         if e.partition(":")[0] not in listed and not e.startswith("PERF_METRICS."))
        if lacking:
            unlisted[metric_name] = lacking
        else:
            expected[metric_name] = name
    rng = random.Random(f"{args.model} {args.column}")
    events = set().union(*(events_read(column, name) for name in expected.values()))
    pebs = sorted({m.group(1) for name in expected.values()
                   for m in re.finditer(r"([A-Z][A-Z0-9_.]*)\s*\*\s*(?:min\(\s*)?\$PEBS", column.formula(name))})
    problems, compared = [], 0
    for number in range(COUNTS_FILES):
        counts = {event: rng.randint(100_000, 20_000_000) for event in events}
        counts[SLOTS_EVENT] = rng.randint(100_000_000, 150_000_000)
        latencies = {event: round(rng.uniform(1, 400), 2) for event in pebs}
        interval, cpus_online = round(rng.uniform(0.5, 3), 3), rng.randint(4, 32)
        reference = Evaluator(column, counts, latencies, interval, cpus_online)
        counts_path = os.path.join(folder, f"{args.model}-{number}.counts")
        write_counts_file(counts_path, counts, {"smt_enabled": 0, "perf_metrics": 1, "interval-s": interval,
                                                "num_cpus_online": cpus_online},
                          f"{args.model}: column {args.column} of {os.path.basename(args.sheet)}")
        latency_path = os.path.join(folder, f"{args.model}-{number}-latencies.json")
        with open(latency_path, "w", encoding="utf-8") as out:
            json.dump({"Data": {event: {"MEAN": mean} for event, mean in latencies.items()}}, out)
        report = import_report(args.topdown, counts_path, ["--cpu", args.model, "--smt", "off", "--perf-metrics",
                                                           "on", "-l", "6", "--info", "--retire-latencies",
                                                           latency_path])
        entries = reported_entries(report)
        if number == 0:
            problems += structure(column, expected, unlisted, entries)
        for metric_name, name in expected.items():
            if metric_name not in entries:
                continue
            compared += 1
            want, got = reference.value(name), entries[metric_name][1].get("value")
            if not agree(want, got):
                problems.append(((metric_name, "value"), f"{metric_name} ({os.path.basename(counts_path)}): the "
                                 f"sheet gives {fmt(want)}, topdown {fmt(got)}"))
    notes = [f"{len(unlisted)} metrics of the column read events the core's events file does not list and are "
             f"not in the model: {', '.join(sorted(unlisted))}"] if unlisted else []
    return conclude(problems, notes, f"{len(expected)} metrics, {compared} values",
                    f"{args.model} agrees with column {args.column} of {os.path.basename(args.sheet)}")


def structure(column, expected, unlisted, entries):
    problems = []
    for metric_name, name in expected.items():
        kind, entry = entries.get(metric_name, (None, None))
        if entry is None:
            problems.append(((metric_name, "absent"), f"{metric_name}: the column has '{column.formula(name)}', "
                                                      "the model lacks it"))
            continue
        is_node = column.keys[name] in TREE_KEYS
        if (kind == "nodes") != is_node:
            problems.append(((metric_name, "kind"), f"{metric_name}: topdown reports it "
                             f"{'in' if kind == 'nodes' else 'outside'} the tree"))
        elif is_node and (entry.get("level"), entry.get("parent") or None) != (column.levels[name],
                                                                            column.parents[name]):
            problems.append(((metric_name, "place"), f"{metric_name}: topdown level/parent "
                             f"{entry.get('level')}/{entry.get('parent')}, the sheet {column.levels[name]}/"
                             f"{column.parents[name]}"))
    for metric_name in sorted(set(entries) - set(expected)):
        why = "reads events the core lacks" if metric_name in unlisted else "the column has no such metric"
        problems.append(((metric_name, "extra"), f"{metric_name}: in the model, but {why}"))
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--topdown", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--model-file", required=True)
    parser.add_argument("--sheet", required=True, help="TMA_Metrics-full-<version>.csv")
    parser.add_argument("--column", required=True, help="the CPU's column (PTL)")
    parser.add_argument("--events", required=True, help="perfmon's core events file of the CPU")
    parser.add_argument("--keep", help="write the counts files and reports into this folder and keep them")
    args = parser.parse_args()
    absent = missing_input([args.sheet, args.model_file, args.events])
    if absent:
        print(absent)
        return SKIP
    try:
        return in_folder(args.keep, lambda folder: check(args, folder))
    except (CheckError, OSError, json.JSONDecodeError, KeyError) as error:
        print(f"error: {error}")
        return 2


if __name__ == "__main__":
    sys.exit(main())
