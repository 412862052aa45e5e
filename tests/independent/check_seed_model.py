#!/usr/bin/env python3
"""Independent check of the Haswell model against the seed specification.

Reads the TMA 4.5 Haswell tree in the seed (../shared/seeds/000_*.txt) as
written: every section's ```python block is executed by Python itself, after
renaming only the identifiers Python cannot read (event names with dots and
modifiers, `msr/tsc/`, `interval-s`). The constants the seed names but does
not value come from the table in haswell-seed-notes.md. The same random
counts are written as a counts file and analysed with `topdown import`; every
tree node and Info metric must agree in value and in its over-threshold flag,
for SMT off and on, with four kinds of counts file: every event; a few counts
zero (division by zero is n/a, Python's ZeroDivisionError); only the events
the seed actually reads (nothing else may be required); ebs_mode 1.

Thresholds are the seed's "- Threshold:" lines evaluated by Python:
"parent over threshold" is the parent's flag, self.X.thresh is X's flag,
HighIPC is IPC / Pipeline_Width (the notes) taken as a truth value, "True"
means the metric has no condition to meet, so it is never flagged (the model
leaves such thresholds out); a node whose value is n/a is never over.

Standard library only. Exit codes: 0 all agree, 1 a mismatch, 2 unreadable
seed or notes or topdown failed, 77 the shared seed folder is absent (ctest
reports the test as skipped).

Values agree by the rule in check_common.py (1e-9 relative).
"""

import argparse
import glob
import os
import random
import re
import sys
import tempfile

sys.dont_write_bytecode = True  # importing check_common leaves no __pycache__ in the source tree
from check_common import (SKIP, CheckError, agree, fmt, import_report, missing_input, print_grouped,
                          write_counts_file)

RUN_VARIABLES = ("smt_enabled", "ebs_mode", "interval-s")
EXPECTED_INFO_METRICS = 48  # issue 3: "all 48 Info metrics"

# ---------------------------------------------------------------- the seed

HEADING = re.compile(r'^(#+) ([\d.]+) <a id="[^"]*">(\w+)</a>\s*$')
ASSIGNMENT = re.compile(r"^(\w+) = (.+)$")
# An event as the seed spells it: NAME.UMASK[.MORE][:modifier...]. Names of
# nodes, constants and Python keywords never contain an upper-case dotted part.
EVENT = re.compile(r"\b[A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)+(?::[A-Za-z0-9]+)*")
QUOTED = re.compile(r"'[^']*'")
# Names with characters Python reads as operators: the TSC (an event) and the
# run variable interval-s.
TSC_EVENT = "msr/tsc/"
INTERVAL = ("interval-s", "interval_s")


class SeedError(CheckError):
    pass


class Section:
    """One node or Info metric of the seed: its heading, threshold and python block."""

    def __init__(self, name, number, line):
        self.name = name
        self.number = number        # "3.1.2"
        self.line = line
        self.level = number.count(".") + 1
        self.parent = None          # name of the parent node
        self.is_info = name.startswith("Metric_")
        self.domain = None
        self.threshold = None       # text after "- Threshold:"
        self.assignments = []       # [(target, python source)]

    @property
    def report_name(self):
        """The name topdown reports: Info metrics drop the Metric_ prefix."""
        return self.name[len("Metric_"):] if self.is_info else self.name


class PythonSpelling:
    """Renames the identifiers Python cannot read, and remembers the events."""

    def __init__(self):
        self.event_of_identifier = {}
        self.quoted_events = set()  # EV('NAME', level) reads NAME by its string

    def identifier(self, event):
        ident = "ev_" + re.sub(r"[^A-Za-z0-9]", "_", event)
        known = self.event_of_identifier.setdefault(ident, event)
        if known != event:
            raise SeedError(f"events {known} and {event} map to the same identifier")
        return ident

    def rewrite(self, source):
        source = source.replace(TSC_EVENT, self.identifier(TSC_EVENT)).replace(*INTERVAL)
        pieces = []
        position = 0
        for quoted in QUOTED.finditer(source):  # EV('NAME', level) keeps its string
            pieces.append(self._rename_events(source[position:quoted.start()]))
            pieces.append(quoted.group(0))
            self.quoted_events.add(quoted.group(0).strip("'"))
            position = quoted.end()
        pieces.append(self._rename_events(source[position:]))
        return "".join(pieces)

    def _rename_events(self, text):
        return EVENT.sub(lambda m: self.identifier(m.group(0)), text)

    def events(self):
        return set(self.event_of_identifier.values()) | self.quoted_events


def parse_seed(path, spelling):
    sections = []
    current = None
    in_code = False
    with open(path, encoding="utf-8") as seed:
        lines = seed.read().splitlines()
    for number, text in enumerate(lines, 1):
        where = f"{path}:{number}"
        if in_code:
            if text.startswith("```"):
                in_code = False
            elif text.strip():
                match = ASSIGNMENT.match(text)
                if not match:
                    raise SeedError(f"{where}: not an assignment: {text}")
                source = spelling.rewrite(match.group(2))
                try:
                    compile(source, where, "eval")
                except SyntaxError as error:
                    raise SeedError(f"{where}: Python cannot read '{source}': {error.msg}")
                current.assignments.append((match.group(1), source))
            continue
        heading = HEADING.match(text)
        if heading:
            current = Section(heading.group(3), heading.group(2), number)
            if len(heading.group(1)) != current.level:
                raise SeedError(f"{where}: heading depth does not match number {current.number}")
            sections.append(current)
        elif text.startswith("#"):
            current = None  # a heading without a node, e.g. "5 General Metrics"
        elif current is None:
            continue
        elif text.startswith("```python"):
            in_code = True
        elif text.startswith("- Threshold:"):
            current.threshold = text[len("- Threshold:"):].strip()
        elif text.startswith("- Domain:"):
            current.domain = text[len("- Domain:"):].strip()
    if in_code:
        raise SeedError(f"{path}: the last python block is not closed")
    anchors = sum(1 for text in lines if text.startswith("#") and '<a id="' in text)
    if anchors != len(sections):
        raise SeedError(f"{path}: {anchors} headings name a node, but only {len(sections)} could be read")
    infos = sum(1 for section in sections if section.is_info)
    if infos != EXPECTED_INFO_METRICS:
        raise SeedError(f"{path}: {infos} Info metrics read, the Haswell tree has {EXPECTED_INFO_METRICS}")
    link_parents(sections)
    for section in sections:
        if not section.assignments or section.assignments[-1][0] != section.name:
            raise SeedError(f"{path}:{section.line}: {section.name}'s block does not end by assigning {section.name}")
        if section.threshold is None:
            raise SeedError(f"{path}:{section.line}: {section.name} has no threshold line")
    return sections


def link_parents(sections):
    by_number = {s.number: s for s in sections if not s.is_info}
    for section in sections:
        if section.is_info or section.level == 1:
            continue
        parent = by_number.get(section.number.rsplit(".", 1)[0])
        if parent is None:
            raise SeedError(f"line {section.line}: {section.name} ({section.number}) has no parent section")
        section.parent = parent.name


def read_seed(seed_dir, spelling):
    paths = sorted(glob.glob(os.path.join(seed_dir, "000_*.txt")))
    if len(paths) != 1:
        raise SeedError(f"{seed_dir}: expected exactly one 000_*.txt, found {len(paths)}")
    return parse_seed(paths[0], spelling)


def read_constants(notes_path):
    """The `| name | value |` rows of the notes' table whose value is a number."""
    constants = {}
    with open(notes_path, encoding="utf-8") as notes:
        for text in notes:
            cells = [c.strip() for c in text.strip().strip("|").split("|")]
            if len(cells) == 2 and re.fullmatch(r"\w+", cells[0]):
                try:
                    constants[cells[0]] = int(cells[1])
                except ValueError:
                    pass
    if "Pipeline_Width" not in constants:
        raise SeedError(f"{notes_path}: no constants table with Pipeline_Width")
    return constants


# ----------------------------------------------------------- evaluation

class NotAvailable(Exception):
    """A value the seed's formulas cannot give (division by zero, no count)."""


class SeedModel:
    """Values and thresholds of every section for one set of counts."""

    def __init__(self, sections, spelling, constants, counts, run):
        self.sections = {s.name: s for s in sections}
        self.spelling = spelling
        self.constants = constants
        self.counts = counts
        self.run = run              # smt_enabled, ebs_mode, interval-s
        self.events_read = set()
        self._values = {}
        self._thresholds = {}
        self._evaluating = []

    def count(self, event):
        self.events_read.add(event)
        if event not in self.counts:
            raise NotAvailable(f"no count for {event}")
        return self.counts[event]

    def EV(self, what, level):
        """The seed's EV: a name gives its count, a function is applied to EV."""
        return what(self.EV, level) if callable(what) else self.count(what)

    def lookup(self, name, level):
        if name in self.spelling.event_of_identifier:
            return self.count(self.spelling.event_of_identifier[name])
        if name in self.constants:
            return self.constants[name]
        if name in ("smt_enabled", "ebs_mode"):
            return self.run[name]
        if name == INTERVAL[1]:
            return self.run["interval-s"]
        if name == "level":
            return level
        if name == "EV":
            return self.EV
        if name in self.sections:
            return self.value(name)
        raise KeyError(name)  # Python then looks in builtins (min, max)

    def value(self, name):
        """Float value of a section, or raises NotAvailable."""
        if name not in self._values:
            if name in self._evaluating:
                raise SeedError(f"the seed's formulas refer to each other in a circle: {self._evaluating}")
            self._evaluating.append(name)
            try:
                self._values[name] = self._evaluate(self.sections[name])
            except NotAvailable as why:
                self._values[name] = why
            finally:
                self._evaluating.pop()
        result = self._values[name]
        if isinstance(result, NotAvailable):
            raise result
        return result

    def value_or_none(self, name):
        try:
            return self.value(name)
        except NotAvailable:
            return None

    def _evaluate(self, section):
        model = self

        class Scope(dict):
            def __missing__(self, key):
                return model.lookup(key, section.level)

        scope = Scope()
        for target, source in section.assignments:
            try:
                scope[target] = eval(source, {"__builtins__": {"min": min, "max": max}}, scope)
            except ZeroDivisionError:
                raise NotAvailable(f"{section.name}: division by zero in {target}")
            except NameError as error:
                raise SeedError(f"line {section.line}: {section.name}: {error}")
        return float(scope[section.name])

    # Thresholds, as the seed writes them: "> 0.1 and parent over threshold",
    # "> 0.7 or self.Heavy_Operations.thresh", "< 0.7 and HighIPC", "True".
    def over_threshold(self, name):
        if name not in self._thresholds:
            self._thresholds[name] = None
            self._thresholds[name] = self._threshold(self.sections[name])
        if self._thresholds[name] is None:
            raise SeedError(f"the seed's thresholds refer to each other in a circle at {name}")
        return self._thresholds[name]

    def _threshold(self, section):
        own = self.value_or_none(section.name)
        if own is None:
            return False  # a value that is n/a is never a problem
        text = section.threshold
        if text == "True":
            return False  # no condition: nothing to flag
        if text[:1] in "<>":
            text = "this " + text
        text = text.replace("parent over threshold", "parent_over")
        text = re.sub(r"\bself\.(\w+)\.thresh\b", r"over('\1')", text)
        high_ipc = self.high_ipc()
        if high_ipc is None and "HighIPC" in text:
            return False
        names = {"this": own, "over": self.over_threshold, "HighIPC": high_ipc}
        if "parent_over" in text:  # only then: Heavy_Operations' parent asks for its threshold
            names["parent_over"] = section.parent is not None and self.over_threshold(section.parent)
        names.update(self.constants)
        return bool(eval(text, {"__builtins__": {}}, names))

    def high_ipc(self):
        """HighIPC = IPC / Pipeline_Width (haswell-seed-notes.md)."""
        ipc = self.value_or_none("Metric_IPC")
        return None if ipc is None else ipc / self.constants["Pipeline_Width"]


# ------------------------------------------------------ random counts

# Cycle events the seed's formulas subtract from each other: each is a share
# of the one before, so that differences stay non-negative.
ORDERED_CYCLES = [
    ("CYCLE_ACTIVITY.CYCLES_NO_EXECUTE", "CYCLE_ACTIVITY.STALLS_LDM_PENDING",
     "CYCLE_ACTIVITY.STALLS_L1D_PENDING", "CYCLE_ACTIVITY.STALLS_L2_PENDING"),
    ("UOPS_EXECUTED.CORE:c1", "UOPS_EXECUTED.CORE:c2", "UOPS_EXECUTED.CORE:c3"),
    ("IDQ.ALL_MITE_CYCLES_ANY_UOPS", "IDQ.ALL_MITE_CYCLES_4_UOPS"),
    ("IDQ.ALL_DSB_CYCLES_ANY_UOPS", "IDQ.ALL_DSB_CYCLES_4_UOPS"),
    ("OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DATA_RD",
     "OFFCORE_REQUESTS_OUTSTANDING.ALL_DATA_RD:c6"),
]
CYCLE_WORDS = ("CYCLES", "STALL", "DURATION", "PENDING", "EMPTY", "SQ_FULL",
               "THREAD_P", "IFDATA", "FB_FULL", ":c", ":i1", "OUTSTANDING")


def random_counts(rng, events, smt, zero_share):
    """Plausible counts for every event the seed names: thread and core
    clocks, slots split into the level-1 shares, a load hierarchy in which
    each level's misses are a share of the level above, and the remaining
    events as shares of the cycles or rates per instruction."""
    u = rng.uniform
    clks = u(2e8, 2e9)
    core_clks = clks * u(1.0, 2.0) / 2 if smt else clks
    instructions = clks * u(0.2, 3.6)  # both sides of the seed's IPC > 1.8 test
    slots = 4 * core_clks
    # Level-1 shares of the slots, spread widely so that every threshold is
    # met in some rounds and missed in others.
    weights = [u(0.05, 1.0) ** 2 for _ in range(4)]
    retiring, frontend, bad = (w / sum(weights) for w in weights[:3])
    c = {
        "CPU_CLK_UNHALTED.THREAD": clks,
        "CPU_CLK_UNHALTED.THREAD_ANY": 2 * core_clks if smt else clks,
        "CPU_CLK_UNHALTED.THREAD_P:SUP": clks * u(0, 0.3),
        "CPU_CLK_UNHALTED.REF_TSC": clks / u(0.7, 1.4),
        "INST_RETIRED.ANY": instructions,
        "INST_RETIRED.ANY_P:SUP": instructions * u(0, 0.2),
        "UOPS_RETIRED.RETIRE_SLOTS": slots * retiring,
        "UOPS_ISSUED.ANY": slots * (retiring + bad * u(0.3, 0.7)),
        "INT_MISC.RECOVERY_CYCLES": core_clks * bad * u(0.05, 0.15),
        "IDQ_UOPS_NOT_DELIVERED.CORE": slots * frontend,
        "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE": core_clks * frontend * u(0.1, 0.9),
    }
    c["INT_MISC.RECOVERY_CYCLES_ANY"] = 2 * c["INT_MISC.RECOVERY_CYCLES"] * u(0.8, 1.2)
    c["UOPS_RETIRED.RETIRE_SLOTS:c1"] = c["UOPS_RETIRED.RETIRE_SLOTS"] / u(1.0, 4.0)
    c["UOPS_EXECUTED.CORE"] = c["UOPS_ISSUED.ANY"] * u(1.0, 1.3)
    c["CPU_CLK_UNHALTED.REF_XCLK"] = c["CPU_CLK_UNHALTED.REF_TSC"] / 25
    c["CPU_CLK_UNHALTED.REF_XCLK_ANY"] = c["CPU_CLK_UNHALTED.REF_XCLK"] * u(1.0, 2.0)
    c["CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE"] = c["CPU_CLK_UNHALTED.REF_XCLK_ANY"] * u(0, 0.5)
    c["msr/tsc/"] = c["CPU_CLK_UNHALTED.REF_TSC"] / u(0.05, 1.0)
    loads = c["MEM_UOPS_RETIRED.ALL_LOADS"] = instructions * u(0.15, 0.45)
    c["MEM_UOPS_RETIRED.ALL_STORES"] = instructions * u(0.05, 0.2)
    l1_miss = c["MEM_LOAD_UOPS_RETIRED.L1_MISS"] = loads * u(0.002, 0.1)
    c["MEM_LOAD_UOPS_RETIRED.HIT_LFB"] = l1_miss * u(0.1, 1.0)
    l2_hit = c["MEM_LOAD_UOPS_RETIRED.L2_HIT"] = l1_miss * u(0.2, 0.9)
    l2_miss = c["MEM_LOAD_UOPS_RETIRED.L2_MISS"] = l1_miss - l2_hit
    l3_hit = c["MEM_LOAD_UOPS_RETIRED.L3_HIT"] = l2_miss * u(0.2, 0.9)
    c["MEM_LOAD_UOPS_RETIRED.L3_MISS"] = l2_miss - l3_hit
    for snoop in ("XSNP_HIT", "XSNP_HITM", "XSNP_MISS"):
        c["MEM_LOAD_UOPS_L3_HIT_RETIRED." + snoop] = l3_hit * u(0, 0.1)
    branches = c["BR_INST_RETIRED.ALL_BRANCHES"] = instructions * u(0.03, 0.25)
    c["BR_INST_RETIRED.NEAR_TAKEN"] = branches * u(0.3, 0.9)
    c["BR_INST_RETIRED.NEAR_CALL"] = branches * u(0.01, 0.15)
    c["BR_MISP_RETIRED.ALL_BRANCHES"] = branches * u(0.001, 0.05)
    pending_cycles = c["L1D_PEND_MISS.PENDING_CYCLES"] = clks * u(0.02, 0.5)
    c["L1D_PEND_MISS.PENDING"] = pending_cycles * u(1.0, 6.0)
    for chain in ORDERED_CYCLES:
        value = clks * u(0.1, 0.98)
        for event in chain:
            c[event] = value
            value *= u(0.2, 0.98)
    for event in sorted(events - set(c)):
        if any(word in event for word in CYCLE_WORDS):
            c[event] = clks * u(0.0, 0.4)
        elif event.startswith("UNC_"):
            c[event] = clks * u(0.001, 0.2)
        elif event.startswith(("UOPS_DISPATCHED_PORT.", "IDQ.")):
            c[event] = core_clks * u(0.0, 0.8)
        else:  # loads, branches, misses, assists: rates per instruction
            c[event] = instructions * 10 ** u(-5, -0.7)
    run = {"smt_enabled": smt, "ebs_mode": 0, "interval-s": c["msr/tsc/"] / u(2.0e9, 3.6e9)}
    for event in c:
        c[event] = float(round(c[event]))
        if zero_share and rng.random() < zero_share:
            c[event] = 0.0
    return c, run


# ------------------------------------------------------------ topdown

def run_topdown(topdown, counts_path):
    return import_report(topdown, counts_path, ["--cpu", "hsw", "-l", "6", "--info", "-v"])


def check_structure(sections, report):
    """The tree topdown reports is the seed's tree: same nodes, levels, parents, domains."""
    problems = []
    nodes = {n["name"]: n for n in report.get("nodes", [])}
    infos = {n["name"] for n in report.get("info", [])}
    seed_nodes = [s for s in sections if not s.is_info]
    seed_infos = {s.report_name for s in sections if s.is_info}
    for section in seed_nodes:
        node = nodes.get(section.name)
        if node is None:
            problems.append(f"node {section.name}: missing from topdown's report")
        elif node.get("level") != section.level or (node.get("parent") or None) != section.parent:
            problems.append(f"node {section.name}: level/parent {node.get('level')}/{node.get('parent')}, "
                            f"seed {section.level}/{section.parent}")
        elif node.get("domain") != section.domain:
            problems.append(f"node {section.name}: domain {node.get('domain')}, seed {section.domain}")
    for extra in sorted(set(nodes) - {s.name for s in seed_nodes}):
        problems.append(f"node {extra}: reported by topdown, not in the seed")
    for missing in sorted(seed_infos - infos):
        problems.append(f"info {missing}: missing from topdown's report")
    for extra in sorted(infos - seed_infos):
        problems.append(f"info {extra}: reported by topdown, not in the seed")
    return problems


def compare(sections, seed, report, label):
    """Mismatches as (key, line), and how many values, n/a values and thresholds were compared."""
    problems = []
    tally = {"values": 0, "n/a": 0, "thresholds": 0}
    reported = {("info" if kind == "info" else "node", n["name"]): n
                for kind in ("nodes", "info") for n in report.get(kind, [])}
    for section in sections:
        kind = "info" if section.is_info else "node"
        entry = reported.get((kind, section.report_name))
        if entry is None:
            continue  # check_structure names it once
        expected = seed.value_or_none(section.name)
        got = entry.get("value")
        tally["values"] += 1
        tally["n/a"] += expected is None
        if not agree(expected, got):
            why = ""
            if expected is None:
                try:
                    seed.value(section.name)
                except NotAvailable as reason:
                    why = f" (seed n/a: {reason})"
            elif entry.get("missing_events"):
                why = f" (topdown: missing {entry['missing_events']})"
            problems.append(((kind, section.name, "value"),
                             f"{kind} {section.report_name} [{label}]: seed {fmt(expected)}, "
                             f"topdown {fmt(got)}{why}"))
        expected_over = seed.over_threshold(section.name)
        if "over_threshold" in entry:
            tally["thresholds"] += 1
            if bool(entry["over_threshold"]) != expected_over:
                problems.append(((kind, section.name, "threshold"),
                                 f"{kind} {section.report_name} [{label}]: over threshold per seed "
                                 f"({section.threshold}) {expected_over}, topdown {entry['over_threshold']} "
                                 f"(value {fmt(expected)}, parent {section.parent})"))
    return problems, tally


# --------------------------------------------------------------- main

def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topdown", help="the topdown binary")
    parser.add_argument("--seed-dir", required=True, help="folder holding 000_*.txt")
    parser.add_argument("--notes", required=True, help="haswell-seed-notes.md (constants)")
    parser.add_argument("--rounds", type=int, default=20,
                        help="random count sets per SMT setting and kind of counts file")
    parser.add_argument("--seed", type=int, default=20240, help="random seed")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the seed's values for one count set; do not run topdown")
    parser.add_argument("--keep", help="write the counts files into this folder and keep them")
    return parser.parse_args()


def dry_run(sections, spelling, constants):
    rng = random.Random(1)
    for smt in (0, 1):
        counts, run = random_counts(rng, spelling.events(), smt, 0)
        seed = SeedModel(sections, spelling, constants, counts, run)
        print(f"== smt_enabled {smt}")
        for section in sections:
            indent = "  " * (section.level - 1) if not section.is_info else "info "
            over = " <over>" if seed.over_threshold(section.name) else ""
            print(f"{indent}{section.report_name} = {fmt(seed.value_or_none(section.name))}{over}")
        unread = spelling.events() - seed.events_read
        print(f"events named but not read with smt_enabled {smt}: {sorted(unread)}")


class Variant:
    """One kind of counts file the check writes for each SMT setting."""

    def __init__(self, name, zero_share=0.0, only_events_read=False, ebs_mode=0):
        self.name = name
        self.zero_share = zero_share            # share of counts set to 0 (division by zero)
        self.only_events_read = only_events_read  # leave out what the seed does not read
        self.ebs_mode = ebs_mode


VARIANTS = (
    Variant("all events"),
    Variant("some zero counts", zero_share=0.08),
    Variant("only events the seed reads", only_events_read=True),
    Variant("ebs_mode 1", ebs_mode=1),
)


def check(args, sections, spelling, constants, folder):
    rng = random.Random(args.seed)
    problems, files = [], 0
    tally = {"values": 0, "n/a": 0, "thresholds": 0}
    for smt in (0, 1):
        for number, variant in enumerate(VARIANTS):
            for round_number in range(args.rounds):
                counts, run = random_counts(rng, spelling.events(), smt, variant.zero_share)
                run["ebs_mode"] = variant.ebs_mode
                if variant.zero_share and round_number == 0:
                    counts["CPU_CLK_UNHALTED.THREAD"] = 0.0
                seed = SeedModel(sections, spelling, constants, counts, run)
                for section in sections:
                    seed.over_threshold(section.name)  # reads every event the seed needs
                if variant.only_events_read:
                    counts = {e: v for e, v in counts.items() if e in seed.events_read}
                label = f"smt {smt}, {variant.name}, round {round_number}"
                path = os.path.join(folder, f"smt{smt}-{number}-{round_number}.counts")
                write_counts_file(path, counts, {name: run[name] for name in RUN_VARIABLES}, label)
                report = run_topdown(args.topdown, path)
                if files == 0:
                    problems += [(problem, problem) for problem in check_structure(sections, report)]
                files += 1
                found, counted = compare(sections, seed, report, f"{label}, {os.path.basename(path)}")
                problems += found
                for key in tally:
                    tally[key] += counted[key]
    return problems, tally, files


def main():
    args = parse_arguments()
    missing = missing_input((args.seed_dir, args.notes), " (the shared seed folder is not checked out here)")
    if missing:
        print(missing)
        return SKIP
    try:
        spelling = PythonSpelling()
        sections = read_seed(args.seed_dir, spelling)
        constants = read_constants(args.notes)
        nodes = sum(1 for s in sections if not s.is_info)
        infos = len(sections) - nodes
        if args.dry_run:
            dry_run(sections, spelling, constants)
            print(f"seed: {nodes} tree nodes, {infos} Info metrics, {len(spelling.events())} events")
            return 0
        if not args.topdown:
            print("--topdown PATH is required unless --dry-run is given", file=sys.stderr)
            return 2
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            problems, tally, files = check(args, sections, spelling, constants, args.keep)
        else:
            with tempfile.TemporaryDirectory() as folder:
                problems, tally, files = check(args, sections, spelling, constants, folder)
    except CheckError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    compared = (f"{tally['values']} values ({tally['n/a']} of them n/a) and {tally['thresholds']} "
                f"threshold flags compared over {files} counts files")
    if problems:
        print_grouped(problems)
        print(f"{len(problems)} mismatches; {compared}")
        return 1
    print(f"ok: {nodes} tree nodes and {infos} Info metrics of the seed agree with topdown; {compared}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
