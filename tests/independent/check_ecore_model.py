#!/usr/bin/env python3
"""Independent check of a hybrid CPU's E-core model against Intel's E-core CSV.

perfmon's E-core_TMA_Metrics.csv (E-core TMA 4) gives one formula column per
core (ARL-SKT, LNL-SKT, CMT, GRT). This script reads the CSV itself: the tree
(Level1..Level3 under the area in the Key column), the Info metrics (Key
`Info.*`) and the `Aux` rows (#CLKS, #SLOTS, #Pipeline_Width, ...). Every
formula of the chosen column is parsed here (numbers, + - * /, parentheses,
events, #aux names, other metrics by name) and evaluated by Python on random
but plausible counts. The same counts are written as a counts file and
analysed with `topdown import --cpu MODEL --smt off -l 6 --info`; every node
and Info metric topdown reports must agree with the CSV:

- value: 1e-9 relative (check_common.agree); n/a exactly where Python's
  arithmetic fails (division by zero) or the file lacks an event;
- over-threshold flag: the Threshold column with `>X` / `<X` comparing the
  metric's value, `&` and `|` as and/or, and P the parent's own flag; a
  metric whose value is n/a is never over, one without a threshold never;
- structure: a CSV tree row is a node at its level under its parent, with
  the Key as its area and the Count Domain as its domain; an Info row is an
  Info metric, outside the tree.
- names: the CSV's, except `%_X`, which the model calls `Pct_X` with
  vendor_name `%_X`.

Rows whose formula is `#NA` or empty in the column are noted when the model
leaves them out, and fail when it has them; so are rows that read (through
Aux rows and other metrics too) an event the core's events file (--events)
does not list: a core that borrows another's column (Panther Lake's Darkmont,
Skymont's LNL-SKT) lacks some. Every other row with a formula must be in the
model, and the model may have no metric the CSV does not name.

Units: the CSV's tree formulas are fractions of slots and its thresholds
compare fractions, as topdown's; Info metrics keep the CSV's units (the
percentages multiply by 100 in the formula). So no value is rescaled.

The CSV's terms, as topdown spells them:
  TSC                          the event msr/tsc/
  DurationTimeInMilliSeconds   1000 * the run variable interval-s
  EVENT:sup                    the same event and modifier (topdown reads
                               the modifier in any case)
The E-cores have no SMT: every file says smt_enabled 0.

Counts files (the clocks, the slots split along the tree, other events as
shares of their totals or rates per instruction):
- one per tree leaf, with the nodes from its root to it leading, so that
  every node is over its threshold somewhere;
- one per node with P that is over its own bound while its parent is not
  (found by trying near-threshold counts; a node whose bound is not below
  its parent's cannot be, and is noted);
- random counts of every event the column reads; the same with some counts
  zero; the same with a few events left out (with every name of the same
  count: perfmon's events file of the core, --events, says which names
  have one encoding, and a fixed-counter event is its general-counter twin
  X_P; topdown matches such names, README "Importing counts");
- one file of all-zero counts.
The counts must put every metric with a threshold over it in some file and
under it in another, else the check fails (its flag would go unchecked).

Standard library only, no code from topdown (check_common.py holds what the
independent checks share). Exit status: 0 all agree, 1 a mismatch, 2 an
unreadable CSV or events file or topdown failed, 77 the CSV, the events
file or the model file is absent (ctest reports the test as skipped).
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

TREE_KEYS = ("FE", "BAD", "BE", "RET")
LEVEL_COLUMNS = ("Level1", "Level2", "Level3")
INFO_PREFIX = "Info."
AUX_KEY = "Aux"
NO_FORMULA = ("", "#NA")
TSC_NAME, TSC_EVENT = "TSC", "msr/tsc/"
DURATION_MS = "DurationTimeInMilliSeconds"
PERCENT_PREFIX, MODEL_PERCENT_PREFIX = "%_", "Pct_"
WIDTH = "#Pipeline_Width"
SLOTS = "#SLOTS"

TOKEN = re.compile(r"\s*(?:(?P<number>\d+(?:\.\d+)?)(?![\w.:])|(?P<name>#?\w[\w.:]*)|(?P<op>[-+*/()]))")
COMPARISON = re.compile(r"([<>]=?)\s*(\d+(?:\.\d+)?)")


class CsvError(CheckError):
    pass


class NotAvailable(Exception):
    """A term of a formula has no value: an event the file lacks, or an n/a metric."""


# ------------------------------------------------------------------ the CSV

class Row:
    """One metric or Aux row of the CSV, for the chosen column."""

    def __init__(self, fields, column, where):
        self.key = fields["Key"].strip()
        self.level = next((n + 1 for n, c in enumerate(LEVEL_COLUMNS) if fields[c].strip()), None)
        self.name = fields[LEVEL_COLUMNS[self.level - 1]].strip() if self.level else ""
        self.is_node = self.key in TREE_KEYS
        self.domain = fields["Count Domain"].strip()
        self.parent = None
        self.where = f"{where}: {self.name} ({column})"
        text = fields[column].strip()
        self.formula_text = None if text in NO_FORMULA else text
        self.threshold_text = fields["Threshold"].strip()
        self.formula = None   # (compiled code, names it reads), set by Csv
        self.unlisted = []    # events it reads that the core's events file does not list (then absent)
        self.threshold = None  # compiled code over x and P

    def model_name(self):
        if self.name.startswith(PERCENT_PREFIX):
            return MODEL_PERCENT_PREFIX + self.name[len(PERCENT_PREFIX):]
        return self.name


class Csv:
    """The E-core CSV's metrics and Aux definitions for one column."""

    def __init__(self, path, column):
        try:
            with open(path, encoding="utf-8-sig", newline="") as csv_file:
                lines = list(csv.reader(csv_file))
        except (OSError, UnicodeDecodeError, csv.Error) as error:
            raise CsvError(f"{path}: cannot read it: {error}")
        header = next((n for n, line in enumerate(lines) if line and line[0] == "Key"), None)
        if header is None or column not in lines[header]:
            raise CsvError(f"{path}: no header row with a column {column}")
        names = lines[header]
        self.metrics, self.aux = {}, {}
        open_nodes = {}  # level -> the last node seen there: the parent of the next level's
        for number, line in enumerate(lines[header + 1:], header + 2):
            fields = dict(zip(names, line + [""] * (len(names) - len(line))))
            row = Row(fields, column, f"{path}:{number}")
            if (row.key == AUX_KEY or row.is_node or row.key.startswith(INFO_PREFIX)) and not row.level:
                raise CsvError(f"{row.where}: a {row.key} row without a name in {', '.join(LEVEL_COLUMNS)}")
            if row.key == AUX_KEY:
                self.aux[row.name] = row
            elif row.is_node or row.key.startswith(INFO_PREFIX):
                if row.is_node:
                    row.parent = open_nodes.get(row.level - 1) if row.level > 1 else None
                    if row.level > 1 and row.parent is None:
                        raise CsvError(f"{row.where}: a level-{row.level} node without a parent")
                    open_nodes[row.level] = row.name
                    for deeper in [level for level in open_nodes if level > row.level]:
                        del open_nodes[deeper]
                if row.name in self.metrics:
                    raise CsvError(f"{row.where}: a second row of this name")
                self.metrics[row.name] = row
        for row in list(self.metrics.values()) + list(self.aux.values()):
            if row.formula_text is not None:
                row.formula = self._compile(row)
            if row.threshold_text and row.formula_text is not None:
                row.threshold = compile_threshold(row)
        for needed in (WIDTH, SLOTS):
            if needed not in self.aux or self.aux[needed].formula is None:
                raise CsvError(f"{path}: no Aux row {needed} with a formula in column {column}")

    def _compile(self, row):
        """The formula as a Python expression over term(i), and the names it reads."""
        python, terms, position, text = [], [], 0, row.formula_text
        while position < len(text):
            match = TOKEN.match(text, position)
            if not match or match.end() == position:
                raise CsvError(f"{row.where}: cannot read '{text}' at '{text[position:]}'")
            position = match.end()
            if match["number"]:
                python.append(repr(float(match["number"])))
            elif match["op"]:
                python.append(match["op"])
            else:
                name = match["name"]
                self._check_name(row, name)
                python.append(f"term({len(terms)})")
                terms.append(name)
        try:
            return compile(" ".join(python), row.where, "eval"), terms
        except SyntaxError as error:
            raise CsvError(f"{row.where}: '{text}' is not an expression: {error.msg}")

    def _check_name(self, row, name):
        """A name is an Aux row, a metric of the CSV, the TSC or the duration, or an event (NAME.UMASK)."""
        if name.startswith("#") and name not in self.aux:
            raise CsvError(f"{row.where}: {name} is no Aux row")
        if not name.startswith("#") and name not in self.metrics and name not in (TSC_NAME, DURATION_MS) \
                and "." not in name:
            raise CsvError(f"{row.where}: {name} is neither a metric, an Aux row nor an event")

    def present(self):
        return [row for row in self.metrics.values() if row.formula is not None and not row.unlisted]

    def mark_unlisted(self, listed):
        """Each metric that reads (itself, or through Aux rows and other
        metrics) an event the core's events file does not list: a core the
        column was not written for (Panther Lake's Darkmont under Skymont's
        column) lacks some, and the model cannot count those metrics."""
        for row in self.metrics.values():
            if row.formula is not None:
                row.unlisted = sorted(e for e in self._reads(row, set()) if e.partition(":")[0] not in listed)

    def _reads(self, row, seen):
        events = set()
        for name in row.formula[1]:
            target = self.aux.get(name) or (self.metrics.get(name) if not name.startswith("#") else None)
            if target is not None:
                if target.name not in seen and target.formula is not None:
                    events |= self._reads(target, seen | {target.name})
            elif name not in (TSC_NAME, DURATION_MS):
                events.add(name)
        return events

    def events(self):
        """topdown's names of every event the column's formulas read."""
        found = set()
        for row in self.present() + [a for a in self.aux.values() if a.formula is not None]:
            for name in row.formula[1]:
                if name == TSC_NAME:
                    found.add(TSC_EVENT)
                elif not name.startswith("#") and name not in self.metrics and name != DURATION_MS:
                    found.add(name)
        return found


def compile_threshold(row):
    """`>0.15 & P`, `( > 1.1 | < 0.9 )` as Python over x (the value) and P (the parent's flag)."""
    python = COMPARISON.sub(r"(x \1 \2)", row.threshold_text).replace("&", " and ").replace("|", " or ").strip()
    try:
        code = compile(python, f"{row.where} threshold", "eval")
    except SyntaxError as error:
        raise CsvError(f"{row.where}: cannot read the threshold '{row.threshold_text}': {error.msg}")
    unknown = set(code.co_names) - {"x", "P"}
    if unknown or ("P" in code.co_names and not row.parent):
        raise CsvError(f"{row.where}: threshold '{row.threshold_text}' names {sorted(unknown) or 'P'}, "
                       f"which has no meaning here")
    return code


# ------------------------------------------------------------ the reference

class Reference:
    """The CSV's value and threshold flag of every metric for one counts file."""

    def __init__(self, table, counts, interval):
        self.table = table
        self.counts = counts
        self.interval = interval
        self._values = {}
        self._over = {}

    def aux_value(self, name):
        return self._row_value(self.table.aux[name])

    def _term(self, name):
        if name.startswith("#"):
            return self.aux_value(name)
        if name in self.table.metrics:
            value = self.value(name)
            if value is None:
                raise NotAvailable(name)
            return value
        if name == DURATION_MS:
            return self.interval * 1000
        event = TSC_EVENT if name == TSC_NAME else name
        if event not in self.counts:
            raise NotAvailable(event)
        return self.counts[event]

    def _row_value(self, row):
        if row.formula is None:
            raise CsvError(f"{row.where}: used, but has no formula in this column")
        code, terms = row.formula
        return float(eval(code, {"__builtins__": {}}, {"term": lambda i: self._term(terms[i])}))

    def value(self, name):
        """The CSV's value, or None when n/a."""
        if name not in self._values:
            try:
                self._values[name] = self._row_value(self.table.metrics[name])
            except (ArithmeticError, NotAvailable):
                self._values[name] = None
        return self._values[name]

    def over_threshold(self, name):
        if name not in self._over:
            parent = self.table.metrics[name].parent
            self._over[name] = self._meets(name, self.over_threshold(parent) if parent else False)
        return self._over[name]

    def held_back(self, name):
        """The metric meets its own bound, but its parent is not over: so it is not over either."""
        row = self.table.metrics[name]
        return bool(row.parent) and not self.over_threshold(row.parent) and self._meets(name, True)

    def _meets(self, name, parent_over):
        row, value = self.table.metrics[name], self.value(name)
        if row.threshold is None or value is None:
            return False
        return bool(eval(row.threshold, {"__builtins__": {}}, {"x": value, "P": parent_over}))


# --------------------------------------------------------- random counts

# Events that total others: (total, the prefix of its parts, what the total
# is a share of, that share's range); each part is a share of its total.
FAMILIES = (
    ("LD_HEAD.ANY_AT_RET", "LD_HEAD.", "clks", 0.05, 0.5),
    ("MEM_BOUND_STALLS.LOAD", "MEM_BOUND_STALLS.LOAD_", "clks", 0.05, 0.5),
    ("MEM_BOUND_STALLS.IFETCH", "MEM_BOUND_STALLS.IFETCH_", "clks", 0.02, 0.3),
    ("MEM_BOUND_STALLS_LOAD.ALL", "MEM_BOUND_STALLS_LOAD.", "clks", 0.05, 0.5),
    ("MEM_BOUND_STALLS_IFETCH.ALL", "MEM_BOUND_STALLS_IFETCH.", "clks", 0.02, 0.3),
    ("MEM_SCHEDULER_BLOCK.ALL", "MEM_SCHEDULER_BLOCK.", "clks", 0.02, 0.4),
    ("BR_INST_RETIRED.ALL_BRANCHES", "BR_INST_RETIRED.", "instructions", 0.05, 0.25),
    ("BR_MISP_RETIRED.ALL_BRANCHES", "BR_MISP_RETIRED.", "BR_INST_RETIRED.ALL_BRANCHES", 0.001, 0.08),
    ("MEM_UOPS_RETIRED.ALL_LOADS", "MEM_UOPS_RETIRED.", "instructions", 0.1, 0.5),
    ("UOPS_RETIRED.ALL", "UOPS_RETIRED.", "uops", 1.0, 1.0),
)
# Events the formulas subtract from one that holds them: (part, whole).
PARTS = (
    ("BR_MISP_RETIRED.COND_TAKEN", "BR_MISP_RETIRED.COND"),
    ("MEM_BOUND_STALLS_LOAD.LLC_HIT", "MEM_BOUND_STALLS_LOAD.L2_MISS"),
    ("MEM_BOUND_STALLS_IFETCH.LLC_HIT", "MEM_BOUND_STALLS_IFETCH.L2_MISS"),
)
CYCLE_PREFIXES = ("LD_HEAD.", "MEM_BOUND_STALLS", "MEM_SCHEDULER_BLOCK.", "SERIALIZATION.", "CPU_CLK_")
ENCODING_FIELDS = ("EventCode", "UMask", "CounterMask", "Invert", "EdgeDetect", "MSRIndex", "MSRValue")
FIXED_COUNTER = "Fixed counter"
GENERAL_COUNTER_TWIN = "_P"


def same_counts(events, events_path):
    """Each event's group of names for one count (itself included): events
    of the same encoding in perfmon's events file of the core, and a
    fixed-counter event with its general-counter twin X_P. topdown matches
    such names to each other (README, "Importing counts"), so a file that
    lacks one of them but has another is not missing it."""
    try:
        with open(events_path, encoding="utf-8") as events_file:
            listed = json.load(events_file)["Events"]
        general = {e["EventName"]: tuple(str(e.get(f, "")).lower() for f in ENCODING_FIELDS)
                   for e in listed if not e.get("Counter", "").startswith(FIXED_COUNTER)}
        fixed = {e["EventName"] for e in listed if e.get("Counter", "").startswith(FIXED_COUNTER)}
    except (OSError, json.JSONDecodeError, KeyError, TypeError, AttributeError) as error:
        raise CsvError(f"{events_path}: not a perfmon events file: {error!r}")

    def key(name):
        base, _, modifier = name.partition(":")
        if base in fixed and base + GENERAL_COUNTER_TWIN in general:
            base += GENERAL_COUNTER_TWIN
        return general.get(base, base), modifier.lower()

    groups = {}
    for name in events:
        groups.setdefault(key(name), set()).add(name)
    return {name: frozenset(groups[key(name)]) for name in sorted(events)}


def listed_events(events_path):
    """The event names of perfmon's events file of the core."""
    try:
        with open(events_path, encoding="utf-8") as events_file:
            return {e["EventName"] for e in json.load(events_file)["Events"]}
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as error:
        raise CsvError(f"{events_path}: not a perfmon events file: {error!r}")


def single_event(row):
    """The event of a tree formula `EVENT / #SLOTS`, else None."""
    terms = row.formula[1]
    if len(terms) == 2 and terms[1] == SLOTS and re.fullmatch(r"\s*\S+\s*/\s*#SLOTS\s*", row.formula_text):
        return terms[0]
    return None


def tree_leaves(table):
    nodes = [row for row in table.present() if row.is_node]
    parents = {row.parent for row in nodes}
    return [row.name for row in nodes if row.name not in parents]


def path_to(table, name):
    """The node and its ancestors."""
    path = set()
    while name:
        path.add(name)
        name = table.metrics[name].parent
    return path


def random_counts(rng, table, events, leading_leaf=None, near_thresholds=False):
    """Plausible counts: clocks; the slots split along the tree (a node's
    single event a share of its parent's slots; the nodes from the root to
    leading_leaf, when given, get most, so that their thresholds are met;
    near_thresholds: level-1 shares of more alike size and large shares of
    the parent, so that nodes land near their bounds); families of events
    as shares of their total; the rest cycles or rates per instruction."""
    u = rng.uniform
    clks = u(2e8, 2e9)
    c = {
        "CPU_CLK_UNHALTED.CORE": clks,
        "CPU_CLK_UNHALTED.CORE_P": clks * u(0.85, 1.15),  # MUX's threshold met in some rounds
        "CPU_CLK_UNHALTED.CORE_P:sup": clks * u(0.0, 0.3),
        "CPU_CLK_UNHALTED.REF_TSC": clks / u(0.7, 1.4),
    }
    c[TSC_EVENT] = c["CPU_CLK_UNHALTED.REF_TSC"] / u(0.05, 1.0)
    slots = clks * Reference(table, {}, 1.0).aux_value(WIDTH)
    nodes = [row for row in table.present() if row.is_node]
    roots = [row for row in nodes if row.level == 1]
    path = path_to(table, leading_leaf)
    weights = [u(0.1, 1.0) if near_thresholds else u(0.05, 1.0) ** 2 for _ in roots]
    shares = [w / sum(weights) for w in weights]
    if path:
        lead_share, others = u(0.8, 0.95), sum(w for row, w in zip(roots, weights) if row.name not in path)
        shares = [lead_share if row.name in path else (1 - lead_share) * w / others
                  for row, w in zip(roots, weights)]
    budget = {}  # slots of each node
    for row, share in zip(roots, shares):
        budget[row.name] = slots * share
        event = single_event(row)
        if event:
            c.update(dict.fromkeys(events[event], budget[row.name]))
    for row in nodes:
        event = single_event(row)
        if row.level > 1 and event and event not in c:
            share = (u(0.7, 0.95) if row.name in path else u(0.0, 0.3) if row.parent in path
                     else u(0.3, 1.0) if near_thresholds else u(0.0, 0.8))
            c.update(dict.fromkeys(events[event], budget[row.parent] * share))
        if row.level > 1:
            value = Reference(table, c, 1.0).value(row.name)
            budget[row.name] = slots * value if value is not None else 0.0
    uops = sum(budget[row.name] for row in roots if row.key == "RET")
    instructions = c["INST_RETIRED.ANY"] = uops / u(1.0, 1.5)
    scale = {"clks": clks, "instructions": instructions, "uops": uops}
    for total, prefix, base, low, high in FAMILIES:
        if total not in c:
            c[total] = scale.get(base, c.get(base, instructions)) * u(low, high)
        for event in sorted(events):
            if event.startswith(prefix) and event not in c:
                c[event] = c[total] * u(0.0, 0.6)
    for part, whole in PARTS:
        if whole in c:
            c[part] = c[whole] * u(0.0, 1.0)
    for event in sorted(set(events) - set(c)):
        if event.startswith(CYCLE_PREFIXES):
            c[event] = clks * u(0.0, 0.4)
        else:  # uops, loads, branches, clears, assists: rates per instruction
            c[event] = instructions * 10 ** u(-5, -1)
    return {event: float(round(c[event])) for event in sorted(events)}  # sorted: the variants draw in this order


class Variant:
    """One kind of counts file."""

    def __init__(self, name, zero_share=0.0, missing_share=0.0, all_zero=False, rounds=None,
                 leaves_lead=False, held_back=False):
        self.name = name
        self.zero_share = zero_share
        self.missing_share = missing_share
        self.all_zero = all_zero
        self.rounds = rounds  # None: --rounds
        self.leaves_lead = leaves_lead  # one file per tree leaf, its path to the root leading
        self.held_back = held_back  # one file per node with P: over its bound, its parent not over

    def references(self, rng, table, events, rounds, unreachable):
        """(what the file is for, its Reference) of each file; nodes that no
        try could hold back go to unreachable."""
        if self.leaves_lead:
            for leaf in tree_leaves(table):
                yield leaf, reference_for(rng, table, events, self, leading_leaf=leaf)
        elif self.held_back:
            for row in table.present():
                if row.threshold is None or "P" not in row.threshold.co_names:
                    continue
                for _ in range(HELD_BACK_TRIES):
                    reference = reference_for(rng, table, events, self, near_thresholds=True)
                    if reference.held_back(row.name):
                        yield row.name, reference
                        break
                else:
                    unreachable.append(row.name)
        else:
            for _ in range(self.rounds or rounds):
                yield None, reference_for(rng, table, events, self)

    def apply(self, rng, counts, events):
        if self.all_zero:
            return dict.fromkeys(counts, 0.0)
        if self.zero_share:
            return {e: 0.0 if rng.random() < self.zero_share else v for e, v in counts.items()}
        if self.missing_share:
            left_out = {e for e in counts if rng.random() < self.missing_share}
            left_out = {alias for e in left_out for alias in events[e]}
            return {e: v for e, v in counts.items() if e not in left_out}
        return counts


HELD_BACK_TRIES = 300
VARIANTS = (
    Variant("each tree leaf leads", leaves_lead=True),
    Variant("each node over its bound, its parent not over", held_back=True),
    Variant("all events"),
    Variant("some zero counts", zero_share=0.08),
    Variant("some events left out", missing_share=0.05),
    Variant("all counts zero", all_zero=True, rounds=1),
)


# ------------------------------------------------------------ compare

def check_structure(table, report):
    """Problems with names, places and presence, and the notes on rows the CSV leaves empty."""
    problems, left_out, unlisted = [], [], []
    entries = reported_entries(report)
    for row in table.metrics.values():
        kind, entry = entries.get(row.name, (None, None))
        if row.unlisted:
            if entry is None:
                unlisted.append(f"{row.name} ({', '.join(row.unlisted)})")
            else:
                problems.append(f"{row.name}: the model has it, but the core's events file lists no "
                                f"{', '.join(row.unlisted)}")
            continue
        if row.formula is None:
            if entry is None:
                left_out.append(row.name)
            else:
                problems.append(f"{row.name}: the CSV has no formula for this core, but the model has it")
            continue
        if entry is None:
            problems.append(f"{row.name}: the CSV has '{row.formula_text}', the model lacks it")
            continue
        if entry["name"] != row.model_name() or (entry.get("vendor_name") or row.name) != row.name:
            problems.append(f"{row.name}: topdown names it {entry['name']} (vendor_name "
                            f"'{entry.get('vendor_name', '')}'), expected {row.model_name()}")
        if (kind == "nodes") != row.is_node:
            problems.append(f"{row.name}: topdown reports it {'in' if kind == 'nodes' else 'outside'} the tree, "
                            f"the CSV {'in' if row.is_node else 'outside'} it")
        elif row.is_node:
            got = (entry.get("level"), entry.get("parent") or None, entry.get("area"), entry.get("domain"))
            want = (row.level, row.parent, row.key, row.domain)
            if got != want:
                problems.append(f"{row.name}: topdown level/parent/area/domain {got}, the CSV {want}")
    extras = sorted(set(entries) - set(table.metrics))
    if extras:
        problems.append(f"the model has metrics the CSV does not name: {', '.join(extras)}")
    notes = [f"{len(left_out)} CSV rows have no formula for this core and are not in the model: "
             f"{', '.join(left_out)}"] if left_out else []
    if unlisted:
        notes.append(f"{len(unlisted)} CSV rows read events the core's events file does not list and are not in "
                     f"the model: {'; '.join(unlisted)}")
    return problems, notes


def compare(table, reference, report, label):
    """Mismatches as (key, message), and how many values and flags were compared."""
    problems, tally = [], {"values": 0, "n/a": 0, "thresholds": 0, "over": 0, "held back": 0}
    entries = reported_entries(report)
    for row in table.present():
        if row.name not in entries:
            continue  # check_structure names it once
        entry = entries[row.name][1]
        expected, got = reference.value(row.name), entry.get("value")
        tally["values"] += 1
        tally["n/a"] += expected is None
        if not agree(expected, got):
            missing = f" (topdown: missing {entry['missing_events']})" if entry.get("missing_events") else ""
            problems.append(((row.name, "value"), f"{row.name} [{label}]: CSV '{row.formula_text}' = "
                             f"{fmt(expected)}, topdown {fmt(got)}{missing}; {terms_used(row, reference)}"))
        expected_over = reference.over_threshold(row.name)
        tally["thresholds"] += 1
        tally["over"] += expected_over
        tally["held back"] += reference.held_back(row.name)
        if bool(entry.get("over_threshold")) != expected_over:
            parent = f", parent {row.parent} over {reference.over_threshold(row.parent)}" if row.parent else ""
            problems.append(((row.name, "threshold"), f"{row.name} [{label}]: over threshold per the CSV "
                             f"('{row.threshold_text or 'none'}', value {fmt(expected)}{parent}) {expected_over}, "
                             f"topdown {bool(entry.get('over_threshold'))}"))
    return problems, tally


def terms_used(row, reference):
    shown = []
    for name in sorted(set(row.formula[1])):
        event = TSC_EVENT if name == TSC_NAME else name
        if event in reference.counts:
            shown.append(f"{event}={fmt(reference.counts[event])}")
        elif name in reference.table.metrics:
            shown.append(f"{name}={fmt(reference.value(name))}")
        elif not name.startswith("#") and name != DURATION_MS:
            shown.append(f"{event} absent")
    return "counts: " + ", ".join(shown) if shown else "no counts"


# --------------------------------------------------------------- main

def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topdown", help="the topdown binary")
    parser.add_argument("--csv", required=True, help="perfmon's E-core_TMA_Metrics.csv; absent: skipped")
    parser.add_argument("--column", required=True, help="the CSV's formula column: ARL-SKT, LNL-SKT, CMT or GRT")
    parser.add_argument("--model", required=True, help="topdown's model name (import --cpu), e.g. adl_ecore")
    parser.add_argument("--model-file", required=True, help="the model file; absent: skipped")
    parser.add_argument("--events", required=True,
                        help="perfmon's events file of the core (e.g. ADL/events/alderlake_gracemont_core.json): "
                             "which names count the same; absent: skipped")
    parser.add_argument("--rounds", type=int, default=6, help="random count sets per kind of file")
    parser.add_argument("--seed", type=int, default=4, help="random seed")
    parser.add_argument("--dry-run", action="store_true", help="print the CSV's values for one count set")
    parser.add_argument("--keep", help="write the counts files into this folder and keep them")
    return parser.parse_args()


def reference_for(rng, table, events, variant, **shape):
    counts = variant.apply(rng, random_counts(rng, table, events, **shape), events)
    tsc = counts.get(TSC_EVENT)
    interval = tsc / rng.uniform(1.0e9, 3.6e9) if tsc else rng.uniform(0.5, 5.0)
    return Reference(table, counts, interval)


def dry_run(table, events):
    reference = reference_for(random.Random(1), table, events, VARIANTS[1])
    for row in table.metrics.values():
        where = f"{'  ' * row.level}node" if row.is_node else "info"
        if row.formula is None:
            print(f"{where} {row.name}: no formula for this core")
        else:
            over = " <over>" if reference.over_threshold(row.name) else ""
            print(f"{where} {row.name} = {fmt(reference.value(row.name))}{over}")


def check(args, table, events, folder):
    rng = random.Random(args.seed)
    problems, notes, files, unreachable = [], [], 0, []
    tally = {"values": 0, "n/a": 0, "thresholds": 0, "over": 0, "held back": 0}
    flags_seen = {}  # metric -> the reference's threshold flags over all files
    options = ["--cpu", args.model, "--smt", "off", "-l", "6", "--info"]
    for number, variant in enumerate(VARIANTS):
        for round_number, (target, reference) in enumerate(
                variant.references(rng, table, events, args.rounds, unreachable)):
            for row in table.present():
                flags_seen.setdefault(row.name, set()).add(reference.over_threshold(row.name))
            label = f"{variant.name}, round {round_number}{f' ({target})' if target else ''}"
            path = os.path.join(folder, f"{args.model}-{number}-{round_number}.counts")
            run_variables = {"smt_enabled": 0, "interval-s": reference.interval}
            write_counts_file(path, reference.counts, run_variables,
                              f"{args.column} column of the E-core CSV: {label}")
            report = import_report(args.topdown, path, options)
            if files == 0:
                structure, notes = check_structure(table, report)
                problems += [((problem, "structure"), problem) for problem in structure]
            files += 1
            found, counted = compare(table, reference, report, f"{label}, {os.path.basename(path)}")
            problems += found
            for key, how_many in counted.items():
                tally[key] += how_many
    for name, flags in flags_seen.items():
        if table.metrics[name].threshold is not None and len(flags) < 2:
            problems.append(((name, "coverage"), f"{name}: the counts files never have it "
                             f"{'under' if True in flags else 'over'} its threshold, so that flag goes "
                             f"unchecked: change the counts of check_ecore_model.py"))
    if unreachable:
        notes.append(f"no counts found in {HELD_BACK_TRIES} tries that put these nodes over their own bound "
                     f"and their parent not over (so it is for a node whose bound is not below its parent's, "
                     f"as a node is at most its parent): {', '.join(unreachable)}")
    return problems, notes, tally, files


def main():
    args = parse_arguments()
    missing = missing_input((args.csv, args.model_file, args.events))
    if missing:
        print(missing)
        return SKIP
    if not args.topdown and not args.dry_run:
        print("--topdown PATH is required unless --dry-run is given", file=sys.stderr)
        return 2
    try:
        table = Csv(args.csv, args.column)
        table.mark_unlisted(listed_events(args.events))
        events = same_counts(table.events(), args.events)
        if args.dry_run:
            dry_run(table, events)
            return 0
        problems, notes, tally, files = in_folder(args.keep, lambda folder: check(args, table, events, folder))
    except CheckError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    compared = (f"{len(table.present())} metrics; {tally['values']} values ({tally['n/a']} of them n/a) and "
                f"{tally['thresholds']} threshold flags ({tally['over']} over, {tally['held back']} held back by the "
                f"parent) compared over {files} counts files")
    agreement = f"model {args.model} agrees with column {args.column} of {os.path.basename(args.csv)}"
    return conclude(problems, notes, compared, agreement)


if __name__ == "__main__":
    sys.exit(main())
