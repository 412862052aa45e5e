"""A CPU's metrics read from its column of Intel's TMA spreadsheet, for a CPU
perfmon publishes no metrics file for (Panther Lake in TMA 5.2).

The metrics come out as perfmon.Metric records, as perfmon's converter
would write them, so that the rest of the generator treats them like any
metrics file: a BaseFormula over `tma_<name>` references and lower-case
events, thresholds aliased in percent, the sample event of this CPU.

How a cell becomes a BaseFormula:
- `X if #PERF_METRICS_MSR else Y` keeps X (general_counters.py adds Y back);
- `#Name` (an auxiliary term) is replaced by its own formula, in parentheses;
  a condition on constant terms (`#DS`, `#FP16`, `#PMM_App_Direct`) is
  decided here, and a metric left with `#NA` is not the CPU's;
- `##X` is the sum of X's children this CPU has;
- `EVENT*$PEBS` weighs the event by its retire latency, and
  `EVENT*min($PEBS, COST)` by that latency where the run gives it, else
  by COST (perfmon's form);
- a client CPU leaves out the metrics of the `Server` group and reads an
  empty cell from the nearest client column to its right.
"""

import ast
import csv
import re

from formulas import KEYWORDS, join, tokens
from perfmon import GeneratorError, Metric
from tma_sheet import NOT_AVAILABLE, register_and_general

PEBS_WEIGHT = re.compile(r"(?P<event>[A-Z][A-Z0-9_.]*(?::[A-Za-z0-9_=]+)*)\s*\*\s*\$PEBS")
PEBS_MIN = re.compile(r"(?P<event>[A-Z][A-Z0-9_.]*(?::[A-Za-z0-9_=]+)*)\s*\*\s*min\(\s*\$PEBS\s*,\s*(?P<cost>[^()]*)\)")
# The sheet's names of run facts, in perfmon's BaseFormula spelling.
# Num_CPUs (the CPUs online, 16 where unknown) is always known to topdown.
RUN_FACTS = {"DurationTimeInMilliSeconds": "(1000 * duration_time)", "#DurationTimeInSeconds": "duration_time",
             "TSC": "tsc", "NUM_CORES": "num_cpus", "Num_CPUs": "num_cpus", "#SMT_on": "smt_on"}
SERVER_GROUP = "Server"
NODE_KEYS = {"FE", "BAD", "BE", "BE/Mem", "BE/Core", "RET"}


def full_metric_name(row):
    """perfmon's MetricName: `Info_Memory_TLB_Page_Walks_Utilization` for key Info.Memory.TLB."""
    if row.key.startswith("Info."):
        return row.key.replace(".", "_") + "_" + row.name
    if row.key == "Bottleneck":
        return "Bottleneck_" + row.name
    return row.name


class SheetMetrics:
    """The metrics of one CPU's column. attributes: name -> the row's
    Locate-with, Count Domain, Threshold and Metric Group cells."""

    def __init__(self, column, client):
        self.column = column
        self.sheet = column.sheet
        self.attributes = read_attributes(self.sheet.path)
        self.client_columns = client_columns(self.sheet.path) if client else None
        rows = [r for r in self.sheet.rows if r.key not in ("Aux", ".") and self.cell(r.name) is not None]
        self.rows = [r for r in rows if not (client and SERVER_GROUP in self.groups(r.name))]
        self.kept = {r.name for r in self.rows}
        self.names = {r.name: full_metric_name(r) for r in self.rows}

    def cell(self, name):
        """The formula of `name` for this CPU: an empty cell reads the nearest
        filled one to its right (of a client column, on a client)."""
        row = self.sheet.by_name.get(name)
        if row is None:
            return None
        for index in range(self.column.index, len(row.cells)):
            if self.client_columns is not None and index != self.column.index and index not in self.client_columns:
                continue
            if row.cells[index]:
                return None if row.cells[index] == NOT_AVAILABLE else row.cells[index]
        return None

    def groups(self, name):
        return [g for g in self.attributes[name]["Metric Group"].split(";") if g]

    def metrics(self):
        out = []
        for row in self.rows:
            where = f"{self.column.cpu}: {row.name}"
            formula = self.base_formula(self.cell(row.name), where)
            if formula is None:
                continue
            out.append(Metric(self.raw(row, formula)))
        return out

    def raw(self, row, formula):
        attributes = self.attributes[row.name]
        name = self.names[row.name]
        raw = {"MetricName": name, "LegacyName": legacy_name(name), "Level": row.level or 1,
               "ParentCategory": row.parent if row.key in NODE_KEYS else None, "Category": "TMA",
               "Events": [], "Constants": [], "Formula": "", "BaseFormula": formula,
               "MetricGroup": ";".join(self.groups(row.name)), "CountDomain": attributes["Count Domain"],
               "LocateWith": locate_for(attributes["Locate-with"], self.column.cpu),
               "UnitOfMeasure": "percent" if row.key in NODE_KEYS else ""}
        raw["Threshold"] = self.threshold(row, attributes["Threshold"])
        return raw

    def threshold(self, row, text):
        """`> 0.1 & P` over the node and its ancestors, in perfmon's percent
        for tree nodes; an Info metric's `< 3`. Other forms are left out."""
        rule = text.split(";")[0].strip()
        match = re.fullmatch(r"([<>]=?)\s*([0-9.]+)(\s*&\s*P)?", rule)
        if not match:
            return {}
        is_node = row.key in NODE_KEYS
        scale = 100 if is_node else 1
        terms, aliases = [], []
        current, with_parent = row, True
        while current is not None and with_parent:
            rule = self.attributes[current.name]["Threshold"].split(";")[0].strip()
            match = re.fullmatch(r"([<>]=?)\s*([0-9.]+)(\s*&\s*P)?", rule)
            if not match:
                return {}
            alias = chr(ord("a") + len(aliases))
            aliases.append({"Alias": alias, "Value": legacy_name(self.names[current.name])})
            terms.append(f"{alias} {match.group(1)} {float(match.group(2)) * scale:g}")
            with_parent = bool(match.group(3)) and is_node
            current = self.sheet.by_name.get(current.parent) if current.parent else None
        return {"ThresholdMetrics": aliases, "Formula": " & ".join(terms)}

    def base_formula(self, cell, where):
        ways = register_and_general(cell)
        text = self.expand(ways[0] if ways else cell, where)
        text = fold_constant_conditions(text, where)
        if NOT_AVAILABLE in text:
            return None
        return text

    def expand(self, text, where, depth=0):
        if depth > 20:
            raise GeneratorError(f"{where}: the auxiliary terms name each other in a cycle")
        text = PEBS_MIN.sub(lambda m: pebs_min(m.group("event"), m.group("cost")), text)
        text = PEBS_WEIGHT.sub(lambda m: f"( {m.group('event')} * {m.group('event')}:retire_latency )", text)
        out = []
        for kind, value in tokens(text, where):
            if kind != "name" or value in KEYWORDS:
                out.append(value)
            elif value == NOT_AVAILABLE:
                out.append(value)
            elif value in RUN_FACTS:
                out.append(RUN_FACTS[value])
            elif value.startswith("##"):
                children = [c for c in self.column.children(value[2:]) if c in self.kept]
                if not children:
                    raise GeneratorError(f"{where}: {value} sums the children of a node that has none here")
                out += ["(", " + ".join(self.reference(c) for c in children), ")"]
            elif value in self.names:
                out.append(self.reference(value))
            elif value in self.sheet.by_name and self.sheet.by_name[value].key == "Aux":
                aux = self.cell(value)
                out += [NOT_AVAILABLE] if aux is None else ["(", self.expand(aux, where, depth + 1), ")"]
            elif value.startswith("#") or value in self.sheet.by_name:
                out.append(NOT_AVAILABLE)  # a term or metric this CPU has not
            else:
                out.append(value.lower())
        return join(out)

    def reference(self, name):
        return "tma_" + self.names[name].lower()


def pebs_min(event, cost):
    weighted = f"( {event} * {event}:retire_latency )"
    fixed = f"{event} * ( {cost.strip()} )"
    return f"( min( {weighted} , {fixed} ) if ( {event}:retire_latency >= 0 ) else ( {fixed} ) )"


def legacy_name(metric_name):
    return "metric_TMA_" + metric_name


def locate_for(text, cpu):
    """The Locate-with of `cpu`: the cell reads `A/B ? X : C ? Y : Z`
    (`SNB/JKT ? #NA : FRONTEND_RETIRED.L2_MISS_PS;FRONTEND_RETIRED.L1I_MISS_PS`)."""
    text = text.strip()
    while "?" in text:
        condition, _, rest = text.partition("?")
        chosen, _, text = rest.partition(":")
        if cpu in [c.strip() for c in condition.split("/")]:
            text = chosen
            break
        text = text.strip()
    text = text.strip()
    if text == NOT_AVAILABLE:
        return ""
    # perfmon names the precise event without the sheet's `_PS` suffix.
    return ";".join(re.sub(r"_PS$", "", event.strip()) for event in text.split(";"))


def fold_constant_conditions(text, where):
    """Decides `A if COND else B` where COND is made of numbers alone."""
    names = {}

    def placeholder(match):
        names.setdefault(match.group(0), f"v{len(names)}")
        return names[match.group(0)]

    python = re.sub(r"#NA|(?<![\w.])[A-Za-z_][A-Za-z0-9_.]*(?::[A-Za-z0-9_=]+)*", lambda m: m.group(0)
                    if m.group(0) in KEYWORDS else placeholder(m), text)
    try:
        tree = ast.parse(python, mode="eval")
    except SyntaxError as error:
        raise GeneratorError(f"{where}: '{text}' does not parse ({error.msg})")
    if not any(isinstance(node, ast.IfExp) for node in ast.walk(tree)):
        return text
    tree = ConstantConditions().visit(tree)
    folded = ast.unparse(tree)
    for original, short in sorted(names.items(), key=lambda item: -len(item[1])):
        folded = re.sub(rf"\b{short}\b", original, folded)
    return folded


class ConstantConditions(ast.NodeTransformer):
    def visit_IfExp(self, node):
        self.generic_visit(node)
        if not any(isinstance(part, ast.Name) for part in ast.walk(node.test)):
            value = eval(compile(ast.Expression(node.test), "condition", "eval"), {"__builtins__": {}})
            return node.body if value else node.orelse
        return node


def read_attributes(path):
    """Row name -> its attribute cells (Locate-with and the columns after it)."""
    with open(path, encoding="utf-8", newline="") as handle:
        lines = list(csv.reader(handle))
    header = lines[2]
    out = {}
    for cells in lines[3:]:
        cells += [""] * (len(header) - len(cells))
        names = [cells[level].strip() for level in range(1, 7) if cells[level].strip()]
        if names and names[0] not in out:
            out[names[0]] = {key: cells[header.index(key)].strip() for key in
                             ("Locate-with", "Count Domain", "Threshold", "Metric Group")}
    return out


def client_columns(path):
    """The indexes (among the CPU columns) of the columns the sheet's second
    row does not mark `Server`."""
    with open(path, encoding="utf-8", newline="") as handle:
        lines = list(csv.reader(handle))
    header, marks = lines[2], lines[1] + [""] * len(lines[2])
    cpus = range(7, header.index("Locate-with"))
    return {index - 7 for index in cpus if marks[index].strip() != "Server"}


def sheet_metrics(column, client=True):
    """(header, metrics) as perfmon.read_metrics gives them."""
    header = {"TmaVersion": column.sheet.version.split("-")[0]}
    return header, SheetMetrics(column, client).metrics()
