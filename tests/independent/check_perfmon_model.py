#!/usr/bin/env python3
"""Independent check of an Intel model against Intel's perfmon metrics file.

Every metric of the perfmon file (skylake_metrics.json, icelake_metrics.json,
...) is evaluated here by Python itself from its expanded `Formula` field:
perfmon writes the formulas in Python's syntax over one-letter aliases of its
`Events` and `Constants`, so they are evaluated as written, with the aliases
bound to counts. The same random counts are written as a counts file and
analysed with `topdown import --cpu MODEL --smt on|off -l 6 --info`; every
tree node and Info metric topdown reports must agree in value (1e-9
relative, n/a exactly where Python's arithmetic fails, e.g. division by
zero) and in its over-threshold flag, and be placed as perfmon has it:
nodes at perfmon's level under perfmon's parent, Info metrics outside the
tree. The model's metrics perfmon does not have are listed as notes, not
judged. The model may leave a perfmon metric out only for a reason this
check finds in perfmon's files itself, and the notes list them by reason:
perfmon's formula cannot be evaluated (below); it reads uncore events
(UNC_*, FREERUN_*); it counts with a
modifier topdown does not take (eq1: cycles where the count equals the
threshold); it reads an event the CPU's core events files
(<CPU>/events/*core.json) do not list; its parent node is left out; its
BaseFormula names metrics the model leaves out. A metric left out for none
of these reasons is a mismatch. (EMR's and GNR's Bottleneck metrics, whose
BaseFormula names hbm_bound, a node of SPR-HBM only, are evaluated from
their expanded Formula like every other: it has L3_Bound's formula there.)

Formulas perfmon writes that Python cannot read as written: a comparison
with a space inside (`q > = 0`, Granite Rapids and the client Lion/Redwood
Cove files) is read as `>=`; the spreadsheet's `#NA` (`#NA if 0 > 2 else
...` in sapphirerapidshbm_metrics.json) is a value that is n/a where the
formula reaches it. A formula that stays unreadable or is more than
arithmetic, comparisons, conditionals and min/max (`a[0]` in uncore C-state
metrics) cannot be evaluated: it is noted, and the model must not have that
metric (if it does, that is a mismatch: its values could not be checked).

Errata: the TMA 5.1 files of Meteor Lake, Lunar Lake, Arrow Lake and
Granite Rapids write each load's cost in L3_Hit_Latency, Contested_Accesses
and Data_Sharing (and in every metric whose expansion holds them) without
its parentheses: `a * ( 12 * F ) - ( 3 * F )`, F the core frequency's
expansion. Intel's TMA spreadsheet charges each load the difference
(`MEM_LOAD_RETIRED.L3_HIT*min($PEBS, #Mem_XSNP_None_Cost -
#Mem_L2_Hit_Cost)`), as perfmon's TMA 5.2 Granite Rapids file writes it:
this check reads those files' formulas so (`a * ( ( 12 * F ) - ( 3 * F ) )`)
and fails if one of the three named metrics lacks the erratum.

Retire latencies (`EVENT:retire_latency`): with --retire-latency FILE
(perfmon's *_retire_latency.json) the alias is the `MEAN` of the event's
entry in its `Data`, which the model holds as its default. Every other event
read with :retire_latency (all of them without the option) is one a run must
measure: it gets a random latency of 1 to 400 cycles, which is the alias's
value and, written in perfmon's format, is given to topdown import with
--retire-latencies.

Parents that contradict the file's own Level (cascadelakex: Level 3 under a
level-4 parent; sapphirerapidshbm: Level 3 with no parent): the model must
keep the Level, and its parent, one level up, must be the parent another
perfmon metrics file of the same folder tree (<tree>/<CPU>/metrics/*.json)
gives that node at that Level, the ancestor of perfmon's parent at that
level, or the metric of that level the node's own threshold names (TMA
thresholds name the node and its ancestors). That is noted; any other
placement is a mismatch.

Names: topdown's node and Info names are perfmon's MetricName (or the
node's vendor_name where MetricName is not a valid name, 4K_Aliasing).
Perfmon gives tree nodes in percent; topdown in fractions, so a node's
reference value is perfmon's / 100. Info metrics keep perfmon's units.

perfmon's terms, as topdown spells them:
  TOPDOWN.SLOTS:perf_metrics   the event TOPDOWN.SLOTS (fixed counter 3)
  SYSTEM_TSC_FREQ, TSC          the TSC count of the run, event msr/tsc/
  HYPERTHREADING_ON (smt_on)    the run variable smt_enabled (--smt)
  THREADS_PER_CORE              2 with SMT on, else 1
  DURATIONTIMEINMILLISECONDS    1000 * interval-s; DURATIONTIMEINSECONDS interval-s
  a constant named by a number  that number (perfmon's "20" for the
                                dependent-loads weight)
  machine sizes (the number of logical CPUs, sockets, CHAs and cores per
  socket) are written into the counts file as counts of the names in
  MACHINE_SIZES; topdown reads num_cpus_online, socket_count,
  chas_per_socket and cores_per_socket as run variables.

PERF_METRICS (--perf-metrics on|off, for Ice Lake and later): the run
variable perf_metrics is written into each counts file. With it on, the
file has the PERF_METRICS.* events (their values are slots, as perf gives
them). With it off the file has none of them, and the reference reads each
register field from the general-counter event counting the same slots
(GENERAL_COUNTER_SLOTS below); Bad_Speculation has no such event on Ice
Lake and is the slots the other three leave. The slots are counted alike by
TOPDOWN.SLOTS and TOPDOWN.SLOTS_P, so both are written, with equal counts.

Thresholds: perfmon's Threshold.Formula with its `&` and `|` read as `and`
and `or`, its aliases bound to the named metrics' values in perfmon's units.
A metric whose own value is n/a is never over (topdown's rule); a
comparison with an n/a metric inside the formula is false. A metric without
a threshold formula must never be flagged. The E-core TMA 3.6 files
(sierraforest, grandridge) write thresholds differently: no ThresholdMetrics
aliases, the metrics named by their LegacyName, `&&` and `||`, and numbers
that are fractions though the values are percent
(`metric_TMA_Frontend_Bound(%) >0.20` means 20%): there each legacy name is
bound to the metric's value with tree nodes as fractions (Info metrics in
their own units). A threshold that reads a metric that cannot be evaluated
is noted and not judged.

Counts files per SMT (and PERF_METRICS) setting: random counts of every
event; some counts zero; only the events the reference actually reads
(topdown may not require more); and one file of all-zero counts.

Standard library only, no code from topdown (check_common.py holds what the
independent checks share). Exit status: 0 all agree, 1 a mismatch, 2 an
unreadable metrics file or topdown failed, 77 the metrics file or the model
file is absent (ctest reports the test as skipped).
"""

import argparse
import ast
import glob
import json
import os
import random
import re
import sys
import tempfile

sys.dont_write_bytecode = True  # importing check_common leaves no __pycache__ in the source tree
from check_common import (SKIP, CheckError, agree, fmt, import_report, missing_input, print_grouped,
                          write_counts_file)

PERCENT = 100.0  # perfmon's tree nodes are percentages, topdown's fractions
TSC_EVENT = "msr/tsc/"
SLOTS_EVENT = "TOPDOWN.SLOTS"
SLOTS_ON_GENERAL_COUNTER = "TOPDOWN.SLOTS_P"

# perfmon event name -> topdown's, and how many of topdown's counts make one of perfmon's.
EVENT_NAMES = {
    "TOPDOWN.SLOTS:perf_metrics": (SLOTS_EVENT, 1),
    "TSC": (TSC_EVENT, 1),
    # Package energy: perfmon reads the MSR, in units of 2^-14 J (the
    # servers' DRAM energy in 2^-16 J); the kernel's RAPL events count 2^-32 J.
    "UNC_PKG_ENERGY_STATUS": ("power/energy-pkg/", 2 ** 18),
    "FREERUN_PKG_ENERGY_STATUS": ("power/energy-pkg/", 2 ** 18),
    "FREERUN_DRAM_ENERGY_STATUS": ("power/energy-dram/", 2 ** 16),
}

# A box filter a metric sets on an uncore event: topdown names the filtered
# event after it (UNC_C_TOR_INSERTS.MISS_OPCODE:opc=0x182 is
# UNC_C_TOR_INSERTS.MISS_OPCODE.OPC_0x182; filter1=0x40433 gives .FILTER1_0x40433).
BOX_FILTER = re.compile(r"(filter1|opc)=(0x[0-9a-fA-F]+)")

# Machine sizes perfmon names as constants: the name written into the counts
# file, and the range its random value is drawn from.
MACHINE_SIZES = {
    "system.sockets[0].cpus.count * system.socket_count": ("num_cpus_online", 1, 256),
    "SOCKET_COUNT": ("socket_count", 1, 4),
    "CHAS_PER_SOCKET": ("chas_per_socket", 8, 60),
    "CORES_PER_SOCKET": ("cores_per_socket", 4, 128),
}

# Without the PERF_METRICS register: the general-counter event that counts
# the slots of each register field. The bad-speculation field is what is
# left of TOPDOWN.SLOTS.
GENERAL_COUNTER_SLOTS = {
    "PERF_METRICS.FRONTEND_BOUND": "IDQ_UOPS_NOT_DELIVERED.CORE",
    "PERF_METRICS.RETIRING": "UOPS_RETIRED.SLOTS",
    "PERF_METRICS.BACKEND_BOUND": "TOPDOWN.BACKEND_BOUND_SLOTS",
}
SLOTS_LEFT_OVER = "PERF_METRICS.BAD_SPECULATION"
PERF_METRICS_PREFIX = "PERF_METRICS."

# Names a formula may use besides its aliases: the functions, and the
# duration, which Sapphire Rapids' formulas name without an alias.
BUILTINS = {"min": min, "max": max}
DURATION_S = "DURATIONTIMEINSECONDS"


class PerfmonError(CheckError):
    pass


# ------------------------------------------------------------ perfmon

RETIRE_LATENCY = ":retire_latency"
# perfmon writes some comparisons with a space inside the operator ("q > = 0").
SPLIT_OPERATOR = re.compile(r"([<>=!])\s+=")
# What a formula may be made of: arithmetic, comparisons, conditionals, min/max
# calls, names and numbers. Anything else (perfmon's "a[0]" in uncore metrics)
# is a formula this check cannot evaluate.
FORMULA_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Compare, ast.IfExp, ast.BoolOp, ast.Call,
                 ast.Name, ast.Constant, ast.Load, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.USub, ast.UAdd,
                 ast.Gt, ast.GtE, ast.Lt, ast.LtE, ast.Eq, ast.NotEq, ast.And, ast.Or)


class NotAvailableValue(ArithmeticError):
    """The spreadsheet's #NA, where a formula reaches it: the metric is n/a."""


# The spreadsheet's not-available value, as a name Python can read.
NOT_AVAILABLE = "NOT_AVAILABLE"
# The core frequency as perfmon's expanded formulas write it.
CORE_FREQUENCY = (r"\( \( \( \w+ \) / \w+ \) \* \w+ / \( 1000000000 \) / "
                  r"\( \( durationtimeinmilliseconds / 1000 \) \) \)")
UNPARENTHESISED_COST = re.compile(rf"(\w+) \* \( ([0-9.]+) \* ({CORE_FREQUENCY}) \) - \( ([0-9.]+) \* \3 \)")
# The TMA 5.1 metrics files with that erratum, and the metrics that must have
# it (the TMA 5.2 files, in the folder below, have the parentheses).
COST_ERRATA = {
    file: ("L3_Hit_Latency", "Contested_Accesses", "Data_Sharing")
    for file in ("meteorlake_metrics_redwoodcove_core.json", "lunarlake_metrics_lioncove_core.json",
                 "arrowlake_metrics_lioncove_core.json", "graniterapids_metrics.json")
}
TMA_52_FOLDER = "tma-5.2"


def cost_errata_of(path):
    """The metrics of the metrics file at `path` that have the erratum."""
    if TMA_52_FOLDER in os.path.normpath(path).split(os.sep):
        return ()
    return COST_ERRATA.get(os.path.basename(path), ())


class Unevaluable(Exception):
    """perfmon's formula cannot be evaluated as written, or needs a value no one gives."""


class Metric:
    """One perfmon metric: its formula and threshold, compiled as Python.
    `unevaluable` says why its value cannot be computed (None: it can), and
    `threshold_unjudged` why its threshold flag cannot be (None: it can)."""

    def __init__(self, raw, where, retire_latencies):
        self.name = raw["MetricName"]
        self.legacy_name = raw["LegacyName"]
        # Tree nodes: the TMA hierarchy. Info_* and Bottleneck_* are level-1
        # TMA metrics outside the tree, like the metrics of other categories.
        self.is_node = raw.get("Category") == "TMA" and not self.name.startswith(("Info_", "Bottleneck_"))
        self.level = raw["Level"]
        self.parent = raw.get("ParentCategory") or None
        self.events = {e["Alias"]: e["Name"] for e in raw["Events"]}
        self.base_formula = raw.get("BaseFormula", "")  # named metrics, not expanded
        self.constants = {c["Alias"]: c["Name"] for c in raw["Constants"]}
        self.retire_latencies = {}
        self.unevaluable = None
        metrics_path = where
        where = f"{where}: {self.name}"
        try:
            for alias, event in self.events.items():
                if event.endswith(RETIRE_LATENCY):
                    plain = event[:-len(RETIRE_LATENCY)]
                    if plain not in retire_latencies:
                        raise Unevaluable(f"no retire latency of {plain} is given")
                    self.retire_latencies[alias] = retire_latencies[plain]
            self.formula = compile_python(with_costs_parenthesised(raw["Formula"], metrics_path), f"{where} Formula",
                                          set(self.events) | set(self.constants) | set(BUILTINS)
                                          | {DURATION_S, NOT_AVAILABLE})
            for alias in self.retire_latencies:  # a number given with the model, not a count
                del self.events[alias]
        except Unevaluable as why:
            self.unevaluable = str(why)
            self.formula = None
        threshold = raw.get("Threshold") or {}
        self.threshold_text = threshold.get("Formula", "").strip()
        self.threshold_metrics = {t["Alias"]: t["Value"] for t in threshold.get("ThresholdMetrics", [])}
        # TMA 3.6 (the E-core servers) names the metrics themselves in the
        # formula, by their legacy names, instead of aliases.
        self.threshold_over_legacy_names = bool(self.threshold_text) and not self.threshold_metrics
        self.threshold = None
        self.threshold_unjudged = None

    def compile_threshold(self, where, legacy_names):
        """The threshold formula as Python: perfmon's & and | (&& and || in
        TMA 3.6) as `and` and `or`; legacy names, where they stand for
        aliases, replaced by aliases of their own."""
        if not self.threshold_text:
            return
        python = self.threshold_text.replace("&&", " and ").replace("||", " or ")
        python = python.replace("&", " and ").replace("|", " or ")
        if self.threshold_over_legacy_names:
            named = sorted((n for n in legacy_names if n in python), key=len, reverse=True)
            for number, legacy in enumerate(named):
                alias = f"threshold_metric_{number}"
                python, found = re.subn(re.escape(legacy) + r"(?![\w.(%])", f" {alias} ", python)
                if found:
                    self.threshold_metrics[alias] = legacy
        try:
            self.threshold = compile_python(python.strip(), f"{where}: {self.name} Threshold",
                                            set(self.threshold_metrics))
        except Unevaluable as why:
            self.threshold_unjudged = f"its threshold cannot be evaluated: {why}"

    def to_topdown_units(self, value):
        return value / PERCENT if self.is_node and value is not None else value


def with_costs_parenthesised(formula, metrics_path):
    """The formula with each `a * ( A * F ) - ( B * F )` read as
    `a * ( ( A * F ) - ( B * F ) )` in the files COST_ERRATA names."""
    if not cost_errata_of(metrics_path):
        return formula
    return UNPARENTHESISED_COST.sub(r"\1 * ( ( \2 * \3 ) - ( \4 * \3 ) )", formula)


def check_cost_errata(path, raw_metrics):
    """Each metric COST_ERRATA names for this file has the erratum (else Intel
    fixed it, and the check must no longer correct it)."""
    for entry in raw_metrics:
        if entry["MetricName"] in cost_errata_of(path) \
                and not UNPARENTHESISED_COST.search(entry["Formula"]):
            raise PerfmonError(f"{path}: {entry['MetricName']} no longer has the unparenthesised cost; "
                               "remove it from COST_ERRATA")


def compile_python(source, where, allowed_names):
    source = SPLIT_OPERATOR.sub(r"\1=", source).replace("#NA", NOT_AVAILABLE)
    try:
        tree = ast.parse(source, where, "eval")
    except SyntaxError as error:
        raise Unevaluable(f"Python cannot read '{shorten(source)}': {error.msg}")
    for node in ast.walk(tree):
        if not isinstance(node, FORMULA_NODES):
            raise Unevaluable(f"'{shorten(source)}' has a {type(node).__name__}, which is not arithmetic")
        if isinstance(node, ast.Call) and (not isinstance(node.func, ast.Name) or node.func.id not in BUILTINS
                                           or node.keywords):
            raise Unevaluable(f"'{shorten(source)}' calls something other than min and max")
    code = compile(tree, where, "eval")
    unknown = set(code.co_names) - allowed_names
    if unknown:
        raise PerfmonError(f"{where}: '{source}' uses {sorted(unknown)}, which are neither aliases nor known names")
    return code


def shorten(text, length=60):
    return text if len(text) <= length else text[:length] + "..."


def read_retire_latencies(path):
    """perfmon's mean retire latency (cycles) of each event, from its *_retire_latency.json."""
    if not path:
        return {}
    try:
        with open(path, encoding="utf-8") as latency_file:
            data = json.load(latency_file)["Data"]
        return {event: float(stats["MEAN"]) for event, stats in data.items()}
    except (OSError, json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
        raise PerfmonError(f"{path}: not a perfmon retire-latency file: {error!r}")


def measured_retire_latencies(path, given, rng):
    """A random mean retire latency for each event the metrics read with :retire_latency that `given`
    (perfmon's published means) lacks: the latencies a run would measure."""
    try:
        with open(path, encoding="utf-8") as metrics_file:
            raw = json.load(metrics_file)
        events = {e["Name"][:-len(RETIRE_LATENCY)] for m in raw["Metrics"] for e in m["Events"]
                  if e["Name"].endswith(RETIRE_LATENCY)}
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as error:
        raise PerfmonError(f"{path}: not a perfmon metrics file: {error!r}")
    return {event: round(rng.uniform(1, 400), 2) for event in sorted(events - set(given))}


def write_retire_latency_file(path, latencies):
    with open(path, "w", encoding="utf-8") as out:
        json.dump({"Data": {event: {"MEAN": mean} for event, mean in latencies.items()}}, out, indent=1)


def read_metrics(path, retire_latencies):
    try:
        with open(path, encoding="utf-8") as metrics_file:
            raw = json.load(metrics_file)
        metrics = [Metric(entry, path, retire_latencies) for entry in raw["Metrics"]]
        check_cost_errata(path, raw["Metrics"])
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as error:
        raise PerfmonError(f"{path}: not a perfmon metrics file: {error!r}")
    names = {m.name for m in metrics}
    legacy = {m.legacy_name: m for m in metrics}
    for metric in metrics:
        if metric.parent and metric.parent not in names:
            raise PerfmonError(f"{path}: {metric.name}'s parent {metric.parent} is not a metric")
        metric.compile_threshold(path, legacy)
        unknown = set(metric.threshold_metrics.values()) - set(legacy)
        if unknown:
            raise PerfmonError(f"{path}: {metric.name}'s threshold names unknown metrics {sorted(unknown)}")
        if metric.threshold is not None and not metric.threshold_unjudged:
            unevaluable = sorted(legacy[n].name for n in metric.threshold_metrics.values() if legacy[n].unevaluable)
            if unevaluable:
                metric.threshold_unjudged = f"its threshold reads {', '.join(unevaluable)}, which cannot be evaluated"
    return metrics


def topdown_event(perfmon_name):
    return topdown_event_and_scale(perfmon_name)[0]


def topdown_event_and_scale(perfmon_name):
    """topdown's name of a perfmon event, and what its count is divided by."""
    if perfmon_name in EVENT_NAMES:
        return EVENT_NAMES[perfmon_name]
    base, *modifiers = perfmon_name.split(":")
    filters = [BOX_FILTER.fullmatch(m) for m in modifiers if BOX_FILTER.fullmatch(m)]
    if not filters:
        return perfmon_name, 1
    for found in filters:
        base += f".{found.group(1).upper()}_{found.group(2)}"
    return ":".join([base] + [m for m in modifiers if not BOX_FILTER.fullmatch(m)]), 1


# ----------------------------------------------------------- settings

class Setting:
    """The run variables of one group of counts files."""

    def __init__(self, smt, perf_metrics):
        self.smt = smt                    # bool
        self.perf_metrics = perf_metrics  # bool, or None: not written (no such register)

    def label(self):
        text = f"smt {'on' if self.smt else 'off'}"
        if self.perf_metrics is not None:
            text += f", perf_metrics {'on' if self.perf_metrics else 'off'}"
        return text

    def run_variables(self, interval):
        variables = {"smt_enabled": int(self.smt)}
        if self.perf_metrics is not None:
            variables["perf_metrics"] = int(self.perf_metrics)
        variables["interval-s"] = interval
        return variables

    def reads_register(self, perfmon_event):
        return self.perf_metrics is not False or not perfmon_event.startswith(PERF_METRICS_PREFIX)


def events_to_count(metrics, setting):
    """topdown's names of every event perfmon's formulas use in this setting."""
    events = {TSC_EVENT}
    metrics = [m for m in metrics if not m.unevaluable]
    for metric in metrics:
        for perfmon_name in metric.events.values():
            if setting.reads_register(perfmon_name):
                events.add(topdown_event(perfmon_name))
            elif perfmon_name != SLOTS_LEFT_OVER and perfmon_name not in GENERAL_COUNTER_SLOTS:
                raise PerfmonError(f"{metric.name} uses {perfmon_name}, which has no general-counter "
                                   f"equivalent here: check this model with --perf-metrics on only")
    if setting.perf_metrics is False:
        events |= set(GENERAL_COUNTER_SLOTS.values()) | {SLOTS_EVENT, SLOTS_ON_GENERAL_COUNTER}
    for metric in metrics:
        for constant in metric.constants.values():
            if constant in MACHINE_SIZES:
                events.add(MACHINE_SIZES[constant][0])
    return events


# --------------------------------------------------------- reference

class NotAvailable:
    """An n/a metric inside a threshold: arithmetic stays n/a, comparisons are false."""

    def _same(self, *_):
        return self

    def _false(self, _):
        return False

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _same
    __truediv__ = __rtruediv__ = __neg__ = _same
    __lt__ = __le__ = __gt__ = __ge__ = _false

    def __bool__(self):
        return False


NA = NotAvailable()


class Reference:
    """perfmon's value and threshold flag of every metric for one counts file."""

    def __init__(self, metrics, counts, setting, interval):
        self.metrics = {m.name: m for m in metrics}
        self.by_legacy_name = {m.legacy_name: m for m in metrics}
        self.counts = counts
        self.setting = setting
        self.interval = interval
        self.events_read = set()
        self._values = {}
        self._over = {}

    def count(self, event):
        self.events_read.add(event)
        return self.counts[event]

    def event(self, perfmon_name):
        if self.setting.reads_register(perfmon_name):
            name, scale = topdown_event_and_scale(perfmon_name)
            return self.count(name) / scale
        if perfmon_name == SLOTS_LEFT_OVER:
            return self.count(SLOTS_EVENT) - sum(self.count(e) for e in GENERAL_COUNTER_SLOTS.values())
        return self.count(GENERAL_COUNTER_SLOTS[perfmon_name])

    def constant(self, name):
        if name == "HYPERTHREADING_ON":
            return int(self.setting.smt)
        if name == "THREADS_PER_CORE":
            return 2 if self.setting.smt else 1
        if name == "SYSTEM_TSC_FREQ":
            return self.count(TSC_EVENT)
        if name == "DURATIONTIMEINMILLISECONDS":
            return self.interval * 1000
        if name in MACHINE_SIZES:
            return self.count(MACHINE_SIZES[name][0])
        try:
            return float(name)
        except ValueError:
            raise PerfmonError(f"constant {name}: no value known for it (add it to check_perfmon_model.py)")

    def value(self, name):
        """perfmon's value (its units), or None when n/a."""
        if name not in self._values:
            self._values[name] = self._evaluate(self.metrics[name])
        return self._values[name]

    def _evaluate(self, metric):
        reference = self

        class Scope(dict):
            def __missing__(self, alias):
                if alias in metric.retire_latencies:
                    return metric.retire_latencies[alias]
                if alias in metric.events:
                    return reference.event(metric.events[alias])
                if alias in metric.constants:
                    return reference.constant(metric.constants[alias])
                if alias == DURATION_S:
                    return reference.interval
                if alias == NOT_AVAILABLE:
                    raise NotAvailableValue(alias)
                raise KeyError(alias)  # then Python looks in the builtins: min, max

        try:
            return float(eval(metric.formula, {"__builtins__": BUILTINS}, Scope()))
        except ArithmeticError:  # division by zero, #NA
            return None

    def topdown_value(self, name):
        return self.metrics[name].to_topdown_units(self.value(name))

    def threshold_inputs(self, metric):
        """The values a metric's threshold formula compares, by alias (None: n/a)."""
        values = {}
        for alias, legacy_name in metric.threshold_metrics.items():
            named = self.by_legacy_name[legacy_name]
            value = self.value(named.name)
            if metric.threshold_over_legacy_names:  # TMA 3.6: its numbers are fractions
                value = named.to_topdown_units(value)
            values[alias] = value
        return values

    def over_threshold(self, name):
        if name not in self._over:
            metric = self.metrics[name]
            over = False
            judged = metric.threshold is not None and not metric.threshold_unjudged
            if self.value(name) is not None and judged:
                values = {alias: NA if value is None else value
                          for alias, value in self.threshold_inputs(metric).items()}
                try:
                    over = bool(eval(metric.threshold, {"__builtins__": {}}, values))
                except ArithmeticError:
                    over = False
            self._over[name] = over
        return self._over[name]


# ------------------------------------------------------ random counts

# Cycle counts the formulas subtract from each other: each a share of the one before.
ORDERED_CYCLES = [
    ("CYCLE_ACTIVITY.STALLS_TOTAL", "CYCLE_ACTIVITY.STALLS_MEM_ANY", "CYCLE_ACTIVITY.STALLS_L1D_MISS",
     "CYCLE_ACTIVITY.STALLS_L2_MISS", "CYCLE_ACTIVITY.STALLS_L3_MISS"),
    ("CYCLE_ACTIVITY.CYCLES_MEM_ANY", "CYCLE_ACTIVITY.CYCLES_L1D_MISS"),
    ("MEMORY_ACTIVITY.CYCLES_L1D_MISS", "MEMORY_ACTIVITY.STALLS_L1D_MISS", "MEMORY_ACTIVITY.STALLS_L2_MISS",
     "MEMORY_ACTIVITY.STALLS_L3_MISS"),
    ("UOPS_EXECUTED.CORE_CYCLES_GE_1", "UOPS_EXECUTED.CORE_CYCLES_GE_2", "UOPS_EXECUTED.CORE_CYCLES_GE_3"),
    ("IDQ.ALL_MITE_CYCLES_ANY_UOPS", "IDQ.ALL_MITE_CYCLES_4_UOPS"),
    ("IDQ.DSB_CYCLES_ANY", "IDQ.DSB_CYCLES_OK"),
    ("IDQ.MITE_CYCLES_ANY", "IDQ.MITE_CYCLES_OK"),
    ("OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DATA_RD", "OFFCORE_REQUESTS_OUTSTANDING.ALL_DATA_RD:c4"),
]
CYCLE_WORDS = ("CYCLES", "STALL", "ACTIVE", "PENDING", "EMPTY", "FULL", "DURATION", "UTIL", "BOUND_ON",
               "OCCUPANCY", ":c", "CLK", "BUSY", "PAUSE", "LICENSE", "C0")
LEVEL1_FIELDS = ("FRONTEND_BOUND", "BAD_SPECULATION", "RETIRING", "BACKEND_BOUND")
# The E-core servers' (TMA 3.6) level-1 events, by the field they count, and
# their slots per cycle (perfmon's "( 6 )"); their other events of the same
# name (TOPDOWN_FE_BOUND.ICACHE, ...) are shares of the level-1 event.
E_CORE_LEVEL1 = {"FRONTEND_BOUND": "TOPDOWN_FE_BOUND", "BAD_SPECULATION": "TOPDOWN_BAD_SPECULATION",
                 "RETIRING": "TOPDOWN_RETIRING", "BACKEND_BOUND": "TOPDOWN_BE_BOUND"}
E_CORE_WIDTH = 6
# Sapphire Rapids' level-2 fields, each a share of its level-1 field.
LEVEL2_FIELDS = {"FETCH_LATENCY": "FRONTEND_BOUND", "BRANCH_MISPREDICTS": "BAD_SPECULATION",
                 "HEAVY_OPERATIONS": "RETIRING", "MEMORY_BOUND": "BACKEND_BOUND"}


def random_counts(rng, events, setting):
    """Plausible counts for every event: thread and core clocks, slots split
    into the level-1 shares (the register fields and the general-counter
    events of the same slots alike), chains of cycle counts, and the other
    events as shares of the cycles or rates per instruction."""
    u = rng.uniform
    clks = u(2e8, 2e9)
    core_clks = clks * u(1.0, 2.0) / 2 if setting.smt else clks
    instructions = clks * u(0.2, 4.0)
    slots = 5 * clks
    # Shares spread widely so that every threshold is met in some rounds and missed in others.
    weights = [u(0.05, 1.0) ** 2 for _ in LEVEL1_FIELDS]
    share = {field: w / sum(weights) for field, w in zip(LEVEL1_FIELDS, weights)}
    c = {
        "CPU_CLK_UNHALTED.THREAD": clks,
        "CPU_CLK_UNHALTED.THREAD_P": clks,
        "CPU_CLK_UNHALTED.THREAD_ANY": 2 * core_clks if setting.smt else clks,
        "CPU_CLK_UNHALTED.DISTRIBUTED": core_clks,
        "CPU_CLK_UNHALTED.THREAD_P:SUP": clks * u(0, 0.3),
        "CPU_CLK_UNHALTED.REF_TSC": clks / u(0.7, 1.4),
        "INST_RETIRED.ANY": instructions,
        "INST_RETIRED.ANY_P:SUP": instructions * u(0, 0.2),
        SLOTS_EVENT: slots,
        "TOPDOWN.SLOTS:percore": slots * u(1.0, 2.0) if setting.smt else slots,
        "IDQ_UOPS_NOT_DELIVERED.CORE": slots * share["FRONTEND_BOUND"],
        "UOPS_RETIRED.SLOTS": slots * share["RETIRING"],
        "UOPS_RETIRED.RETIRE_SLOTS": 4 * core_clks * share["RETIRING"],
        "TOPDOWN.BACKEND_BOUND_SLOTS": slots * share["BACKEND_BOUND"],
    }
    for field in LEVEL1_FIELDS:
        c[PERF_METRICS_PREFIX + field] = slots * share[field]
    for field, parent in LEVEL2_FIELDS.items():
        c[PERF_METRICS_PREFIX + field] = c[PERF_METRICS_PREFIX + parent] * u(0.0, 1.0)
    c["CPU_CLK_UNHALTED.CORE"] = clks
    c["CPU_CLK_UNHALTED.CORE_P"] = clks * u(0.85, 1.15)  # Info_System_MUX: both sides of its 0.9 to 1.1 band
    for field, event in E_CORE_LEVEL1.items():
        c[event + ".ALL_P"] = E_CORE_WIDTH * clks * share[field]
    c["UOPS_ISSUED.ANY"] = c["UOPS_RETIRED.SLOTS"] * u(1.0, 1.3)
    branches = c["BR_INST_RETIRED.ALL_BRANCHES"] = instructions * u(0.03, 0.25)
    mispredicts = c["BR_MISP_RETIRED.ALL_BRANCHES"] = branches * u(0.001, 0.05)
    clears = c["MACHINE_CLEARS.COUNT"] = instructions * 10 ** u(-6, -3)
    c["INT_MISC.CLEARS_COUNT"] = (mispredicts + clears) * u(1.0, 1.2)
    c["INT_MISC.RECOVERY_CYCLES"] = c["INT_MISC.CLEARS_COUNT"] * u(2.0, 20.0)
    c["INT_MISC.RECOVERY_CYCLES_ANY"] = c["INT_MISC.RECOVERY_CYCLES"] * (u(1.0, 2.0) if setting.smt else 1.0)
    c["INT_MISC.UOP_DROPPING"] = c["IDQ_UOPS_NOT_DELIVERED.CORE"] * u(0.0, 0.1)
    c["CPU_CLK_UNHALTED.REF_XCLK_ANY"] = c["CPU_CLK_UNHALTED.REF_TSC"] / 25 * u(1.0, 2.0)
    c["CPU_CLK_UNHALTED.REF_DISTRIBUTED"] = c["CPU_CLK_UNHALTED.REF_TSC"] * u(0.5, 1.0)
    c["CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE"] = c["CPU_CLK_UNHALTED.REF_DISTRIBUTED"] * u(0, 0.5)
    c[TSC_EVENT] = c["CPU_CLK_UNHALTED.REF_TSC"] / u(0.05, 1.0)
    for chain in ORDERED_CYCLES:
        value = clks * u(0.1, 0.98)
        for event in chain:
            c[event] = value
            value *= u(0.2, 0.98)
    for name, low, high in MACHINE_SIZES.values():
        c[name] = rng.randint(low, high)
    for event in sorted(events - set(c)):
        if event.split(".")[0] in E_CORE_LEVEL1.values():
            c[event] = c[event.split(".")[0] + ".ALL_P"] * u(0.0, 0.7)
        elif any(word in event for word in CYCLE_WORDS):
            c[event] = clks * u(0.0, 0.4)
        elif event.startswith(("UNC_", "FREERUN_")):
            c[event] = clks * u(0.001, 0.2)
        elif event.startswith(("UOPS_DISPATCHED", "IDQ.", "LSD.", "UOPS_DECODED", "UOPS_EXECUTED")):
            c[event] = core_clks * u(0.0, 2.0)
        else:  # loads, branches, misses, assists: rates per instruction
            c[event] = instructions * 10 ** u(-5, -1)
    c[SLOTS_ON_GENERAL_COUNTER] = c[SLOTS_EVENT]
    return {event: float(round(c[event])) for event in sorted(events)}  # sorted: with_zeros draws in this order


def with_zeros(rng, counts, share):
    zeroed = {e: 0.0 if rng.random() < share else v for e, v in counts.items()}
    if SLOTS_ON_GENERAL_COUNTER in zeroed:  # one count under two names
        zeroed[SLOTS_ON_GENERAL_COUNTER] = zeroed[SLOTS_EVENT]
    return zeroed


class Variant:
    """One kind of counts file written for each setting."""

    def __init__(self, name, zero_share=0.0, only_events_read=False, all_zero=False, rounds=None):
        self.name = name
        self.zero_share = zero_share
        self.only_events_read = only_events_read
        self.all_zero = all_zero
        self.rounds = rounds  # None: --rounds


VARIANTS = (
    Variant("all events"),
    Variant("some zero counts", zero_share=0.08),
    Variant("only events the reference reads", only_events_read=True),
    Variant("all counts zero", all_zero=True, rounds=1),
)


# ------------------------------------------------------------ compare

def reported_entries(report):
    """topdown's nodes and Info metrics by perfmon's name."""
    entries = {}
    for kind in ("nodes", "info"):
        for entry in report.get(kind, []):
            entries[entry.get("vendor_name") or entry["name"]] = (kind, entry)
    return entries


UNCORE_PREFIXES = ("UNC_", "FREERUN_")
# Event modifiers topdown does not take: eq1 (count cycles where the count
# equals the threshold; Lion Cove's IDQ.*_UOPS:c8:i1:eq1).
MODIFIERS_TOPDOWN_LACKS = ("eq1",)
# Events perfmon's formulas read that its events files do not list.
NOT_IN_EVENTS_FILES = (PERF_METRICS_PREFIX, "TSC")
BASE_FORMULA_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class PerfmonTree:
    """What the other files of the perfmon folder tree (<tree>/<CPU>/...)
    say: where each tree node sits in the other metrics files, and the core
    events of this file's CPU."""

    def __init__(self, metrics_path):
        cpu_folder = os.path.dirname(os.path.dirname(os.path.abspath(metrics_path)))
        tree = os.path.dirname(cpu_folder)
        self.placements = {}  # node name -> {(level, parent)}
        for path in sorted(glob.glob(os.path.join(tree, "*", "metrics", "*.json"))):
            for entry in json_list(path, "Metrics"):
                if "MetricName" not in entry:
                    continue
                if entry.get("ParentCategory") and not os.path.samefile(path, metrics_path):
                    self.placements.setdefault(entry["MetricName"], set()).add(
                        (entry.get("Level"), entry["ParentCategory"]))
        self.core_events = set()
        for path in glob.glob(os.path.join(cpu_folder, "events", "*core.json")):
            if not os.path.basename(path).endswith("uncore.json"):
                self.core_events |= {e["EventName"] for e in json_list(path, "Events") if "EventName" in e}


def json_list(path, key):
    """The list of dicts under `key` in a perfmon JSON file; [] if it has none."""
    try:
        with open(path, encoding="utf-8") as json_file:
            entries = json.load(json_file)[key]
    except (OSError, json.JSONDecodeError, KeyError, TypeError):
        return []
    return [entry for entry in entries if isinstance(entry, dict)] if isinstance(entries, list) else []


def why_absent(metric, by_name, reported, tree):
    """Why the model may leave a perfmon metric out; None: no reason this check knows."""
    events = metric.events.values()
    if metric.unevaluable:
        return "perfmon's formula cannot be evaluated"
    if any(event.startswith(UNCORE_PREFIXES) for event in events):
        return "they read uncore events"
    modifiers = sorted({m for event in events for m in event.split(":")[1:] if m in MODIFIERS_TOPDOWN_LACKS})
    if modifiers:
        return f"they count with modifiers topdown does not take: {', '.join(modifiers)}"
    unknown = sorted({event.split(":")[0] for event in events if tree.core_events
                      and not event.startswith(NOT_IN_EVENTS_FILES) and event.split(":")[0] not in tree.core_events})
    if unknown:
        return f"they read events this CPU's core events files do not list: {', '.join(unknown)}"
    if metric.is_node and metric.parent and metric.parent not in reported:
        return "their parent is not in the model"
    ours = {n.lower(): n for n in by_name} | {"tma_" + n.lower(): n for n in by_name}
    named = set(BASE_FORMULA_NAME.findall(metric.base_formula))
    left_out = sorted({ours[n] for n in named if n in ours and ours[n] not in reported})
    if left_out:
        return f"their BaseFormula names metrics the model leaves out: {', '.join(left_out)}"
    return None


def contradicts_level(metric, by_name):
    """perfmon's ParentCategory does not sit one level above the metric's own Level."""
    if metric.parent is None:
        return metric.level != 1
    return by_name[metric.parent].level != metric.level - 1


def acceptable_parents(metric, by_name, tree):
    """Where a node whose perfmon parent contradicts its Level (or is not
    given) may be put, one level up: the parent another perfmon file gives it
    at this Level, the ancestor of perfmon's parent at that level, or the
    metric of that level its own threshold names (a TMA threshold names the
    node and its ancestors: in every pinned file, the threshold of each node
    with a consistent parent names that parent)."""
    parents = {parent for level, parent in tree.placements.get(metric.name, ()) if level == metric.level}
    by_legacy_name = {m.legacy_name: m.name for m in by_name.values()}
    parents |= {by_legacy_name[legacy] for legacy in metric.threshold_metrics.values()}
    ancestor = metric.parent
    while ancestor is not None:
        if by_name[ancestor].level == metric.level - 1:
            parents.add(ancestor)
        ancestor = by_name[ancestor].parent
    return {p for p in parents if p in by_name and by_name[p].level == metric.level - 1}


def check_structure(metrics, report, tree):
    """Every perfmon metric topdown reports is a node or an Info metric as
    perfmon has it, a node at perfmon's level under perfmon's parent (where
    perfmon's parent contradicts its level: under one acceptable_parents
    gives, noted), and can be evaluated from perfmon's formula; every
    perfmon metric the model leaves out has a reason why_absent knows. The
    notes name the left-out metrics by reason, the metrics topdown has that
    perfmon does not (this check cannot judge them), and the thresholds that
    cannot be judged."""
    problems, notes, absent = [], [], {}
    entries = reported_entries(report)
    by_name = {m.name: m for m in metrics}

    def topdown_name(perfmon_name):
        return entries[perfmon_name][1]["name"] if perfmon_name in entries else perfmon_name

    for metric in metrics:
        kind, entry = entries.get(metric.name, (None, None))
        if entry is None:
            why = f" ({metric.unevaluable})" if metric.unevaluable else ""
            absent.setdefault(why_absent(metric, by_name, entries, tree), []).append(metric.name + why)
        elif metric.unevaluable:
            problems.append(f"{metric.name}: the model has it, but perfmon's formula cannot be evaluated: "
                            f"{metric.unevaluable}")
        elif (kind == "nodes") != metric.is_node:
            reported_as = "a node" if kind == "nodes" else "an Info metric"
            problems.append(f"{metric.name}: topdown reports it as {reported_as}, "
                            f"perfmon {'in the tree' if metric.is_node else 'outside the tree'}")
        elif metric.is_node:
            got = (entry.get("level"), entry.get("parent") or None)
            if got == (metric.level, topdown_name(metric.parent) if metric.parent else None):
                continue
            accepted = set()
            if contradicts_level(metric, by_name):
                accepted = {topdown_name(p) for p in acceptable_parents(metric, by_name, tree)}
            if got[0] == metric.level and got[1] in accepted:
                given = (f"perfmon's parent {metric.parent} (level {by_name[metric.parent].level}) contradicts "
                         f"its level {metric.level}" if metric.parent
                         else f"perfmon gives no parent for its level {metric.level}")
                notes.append(f"{metric.name}: {given}; the model puts it under {got[1]}, one level up, as accepted")
            else:
                also = f" (acceptable parents: {', '.join(sorted(accepted))})" if accepted else ""
                problems.append(f"{metric.name}: topdown level/parent {got[0]}/{got[1]}, "
                                f"perfmon {metric.level}/{metric.parent}{also}")
    for name in absent.pop(None, []):
        problems.append(f"{name}: the model leaves it out, though perfmon's formula can be evaluated on core "
                        f"events and modifiers topdown takes")
    for reason in sorted(absent):
        names = absent[reason]
        notes.append(f"{len(names)} perfmon metrics are not in the model ({reason}): {'; '.join(names)}")
    unjudged = [f"{m.name} ({m.threshold_unjudged})" for m in metrics
                if m.threshold_unjudged and not m.unevaluable and m.name in entries]
    if unjudged:
        notes.append(f"thresholds not judged: {'; '.join(unjudged)}")
    extras = sorted(set(entries) - set(by_name))
    if extras:
        notes.append(f"{len(extras)} metrics of the model are not perfmon's and were not checked: {', '.join(extras)}")
    return problems, notes


def compare(metrics, reference, report, label):
    """Mismatches as (key, message), and what was compared."""
    problems = []
    tally = {"values": 0, "n/a": 0, "thresholds": 0, "metrics": set()}
    entries = reported_entries(report)
    for metric in metrics:
        if metric.name not in entries or metric.unevaluable:
            continue  # check_structure names it once
        entry = entries[metric.name][1]
        tally["metrics"].add(metric.name)
        expected = reference.topdown_value(metric.name)
        got = entry.get("value")
        tally["values"] += 1
        tally["n/a"] += expected is None
        if not agree(expected, got):
            missing = f" (topdown: missing {entry['missing_events']})" if entry.get("missing_events") else ""
            problems.append(((metric.name, "value"),
                             f"{metric.name} [{label}]: perfmon {fmt(expected)}, topdown {fmt(got)}{missing}; "
                             f"{counts_used(metric, reference)}"))
        if metric.threshold_unjudged:
            continue  # check_structure notes it
        tally["thresholds"] += 1
        expected_over = reference.over_threshold(metric.name)
        if bool(entry.get("over_threshold")) != expected_over:
            problems.append(((metric.name, "threshold"),
                             f"{metric.name} [{label}]: over threshold per perfmon "
                             f"({metric.threshold_text or 'none'}) {expected_over}, topdown "
                             f"{bool(entry.get('over_threshold'))} (perfmon value {fmt(reference.value(metric.name))}; "
                             f"{threshold_values(metric, reference)})"))
    return problems, tally


def counts_used(metric, reference):
    names = set()
    for event in metric.events.values():
        if reference.setting.reads_register(event):
            names.add(topdown_event(event))
        else:  # the register's field from general counters
            names |= set(GENERAL_COUNTER_SLOTS.values()) | {SLOTS_EVENT}
    names |= {TSC_EVENT for c in metric.constants.values() if c == "SYSTEM_TSC_FREQ"}
    names |= {MACHINE_SIZES[c][0] for c in metric.constants.values() if c in MACHINE_SIZES}
    names = sorted(names)
    shown = ", ".join(f"{n}={fmt(reference.counts.get(n))}" for n in names)
    return f"counts: {shown}" if shown else "no counts"


def threshold_values(metric, reference):
    return ", ".join(f"{alias}={fmt(value)}" for alias, value in sorted(reference.threshold_inputs(metric).items()))


# --------------------------------------------------------------- main

def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topdown", help="the topdown binary")
    parser.add_argument("--model", required=True, help="topdown's model name (import --cpu), e.g. icl")
    parser.add_argument("--model-file", required=True, help="the model file; absent: skipped")
    parser.add_argument("--metrics", required=True, help="perfmon's *_metrics.json; absent: skipped")
    parser.add_argument("--retire-latency", help="perfmon's *_retire_latency.json: the MEAN of each event is its "
                        "retire latency (without it, metrics reading retire latencies are not evaluated)")
    parser.add_argument("--smt", nargs="+", choices=("on", "off"), default=["off", "on"],
                        help="SMT settings to check (default both)")
    parser.add_argument("--perf-metrics", nargs="+", choices=("on", "off"),
                        help="PERF_METRICS settings to check (default: no perf_metrics run variable)")
    parser.add_argument("--rounds", type=int, default=10, help="random count sets per setting and kind of file")
    parser.add_argument("--seed", type=int, default=6, help="random seed")
    parser.add_argument("--dry-run", action="store_true",
                        help="print perfmon's values for one count set per setting; do not run topdown")
    parser.add_argument("--keep", help="write the counts files into this folder and keep them")
    return parser.parse_args()


def settings_of(args):
    perf_metrics = [None] if not args.perf_metrics else [choice == "on" for choice in args.perf_metrics]
    return [Setting(smt == "on", pm) for pm in perf_metrics for smt in args.smt]


def counts_for(rng, metrics, setting, variant, events):
    counts = random_counts(rng, events, setting)
    # Machine sizes are facts about the machine, not counts: never zero.
    sizes = {name: counts[name] for name, _, _ in MACHINE_SIZES.values() if name in counts}
    if variant.all_zero:
        counts = dict.fromkeys(counts, 0.0)
    elif variant.zero_share:
        counts = with_zeros(rng, counts, variant.zero_share)
    counts.update(sizes)
    interval = counts[TSC_EVENT] / rng.uniform(2.0e9, 3.6e9) if counts[TSC_EVENT] else rng.uniform(0.5, 5)
    reference = Reference(metrics, counts, setting, interval)
    for metric in metrics:
        if not metric.unevaluable:
            reference.over_threshold(metric.name)  # reads every event the reference needs
    if variant.only_events_read:
        reference.counts = {e: v for e, v in counts.items() if e in reference.events_read}
        if SLOTS_EVENT in reference.counts and setting.perf_metrics is False:
            reference.counts[SLOTS_ON_GENERAL_COUNTER] = counts[SLOTS_ON_GENERAL_COUNTER]
    return reference


def dry_run(metrics, settings):
    rng = random.Random(1)
    for setting in settings:
        reference = counts_for(rng, metrics, setting, VARIANTS[0], events_to_count(metrics, setting))
        print(f"== {setting.label()}")
        for metric in (m for m in metrics if not m.unevaluable):
            over = " <over>" if reference.over_threshold(metric.name) else ""
            where = f"{'  ' * metric.level}node" if metric.is_node else "info"
            print(f"{where} {metric.name} = {fmt(reference.topdown_value(metric.name))}{over}")
    print(f"perfmon: {sum(m.is_node for m in metrics)} tree nodes, "
          f"{sum(not m.is_node for m in metrics)} other metrics")


def check(args, metrics, tree, settings, measured, folder):
    rng = random.Random(args.seed)
    problems, notes, files = [], [], 0
    tally = {"values": 0, "n/a": 0, "thresholds": 0, "metrics": set()}
    latency_options = []
    if measured:
        latency_path = os.path.join(folder, f"{args.model}-measured_retire_latency.json")
        write_retire_latency_file(latency_path, measured)
        latency_options = ["--retire-latencies", latency_path]
    for setting in settings:
        events = events_to_count(metrics, setting)
        options = ["--cpu", args.model, "--smt", "on" if setting.smt else "off", "-l", "6", "--info",
                   *latency_options]
        for number, variant in enumerate(VARIANTS):
            for round_number in range(variant.rounds or args.rounds):
                reference = counts_for(rng, metrics, setting, variant, events)
                label = f"{setting.label()}, {variant.name}, round {round_number}"
                path = os.path.join(folder, f"{args.model}-{files}-{number}-{round_number}.counts")
                write_counts_file(path, reference.counts, setting.run_variables(reference.interval), label)
                report = import_report(args.topdown, path, options)
                if files == 0:
                    structure, notes = check_structure(metrics, report, tree)
                    problems += [((problem, "structure"), problem) for problem in structure]
                files += 1
                found, counted = compare(metrics, reference, report, f"{label}, {os.path.basename(path)}")
                problems += found
                tally["metrics"] |= counted.pop("metrics")
                for key, how_many in counted.items():
                    tally[key] += how_many
    return problems, notes, tally, files


def main():
    args = parse_arguments()
    missing = missing_input([args.metrics, args.model_file] + ([args.retire_latency] if args.retire_latency else []))
    if missing:
        print(missing)
        return SKIP
    try:
        given = read_retire_latencies(args.retire_latency)
        measured = measured_retire_latencies(args.metrics, given, random.Random(args.seed))
        metrics = read_metrics(args.metrics, {**given, **measured})
        tree = PerfmonTree(args.metrics)
        settings = settings_of(args)
        if args.dry_run:
            dry_run(metrics, settings)
            return 0
        if not args.topdown:
            print("--topdown PATH is required unless --dry-run is given", file=sys.stderr)
            return 2
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            problems, notes, tally, files = check(args, metrics, tree, settings, measured, args.keep)
        else:
            with tempfile.TemporaryDirectory() as folder:
                problems, notes, tally, files = check(args, metrics, tree, settings, measured, folder)
    except CheckError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for note in notes:
        print(f"note: {note}")
    compared = (f"{len(tally['metrics'])} metrics; {tally['values']} values ({tally['n/a']} of them n/a) "
                f"and {tally['thresholds']} threshold flags compared over {files} counts files "
                f"({', '.join(s.label() for s in settings)})")
    if problems:
        print_grouped(problems)
        print(f"{len(problems)} mismatches ({len({key for key, _ in problems})} distinct values, flags or "
              f"structure problems); {compared}")
        return 1
    print(f"ok: model {args.model} agrees with {os.path.basename(args.metrics)}: {compared}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
