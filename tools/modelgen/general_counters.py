"""The general-counter form of the formulas that read Intel's PERF_METRICS
register, from Intel's TMA spreadsheet.

perfmon's metrics files keep only the register's way of counting levels 1
and 2 (Ice Lake on). The spreadsheet they are made from writes both,
`PERF_METRICS.X / #PERF_METRICS_SUM if #PERF_METRICS_MSR else <general
counters>`; a machine without the register (most virtual machines) needs the
second. Each metric whose cell in the CPU's column has both ways becomes
`<perfmon's formula> if perf_metrics else <the sheet's general-counter
formula>` in topdown's expression language, so `--perf-metrics off` plans no
PERF_METRICS field.

The spreadsheet counts the slots with TOPDOWN.SLOTS (fixed counter 3) where
the register is not used, except on Lion Cove; topdown reads them from
TOPDOWN.SLOTS_P, the general counter counting the same slots, wherever the
CPU has it: a machine that hides the register usually hides the fourth fixed
counter too.
"""

import os

from formulas import KEYWORDS, join, safe_name, tokens
from perfmon import GeneratorError
from tma_sheet import TmaSheet, register_and_general

# The spreadsheet of each model's TMA version, in the perfmon folder: 5.1's
# for the models of TMA 5.1 and older, 5.2's for those of 5.2.
SHEETS = {"5.2": os.path.join("TMA", "TMA_Metrics-full-5.2.csv")}
SHEET = os.path.join("TMA", "TMA_Metrics-full-5.1.csv")

# Model name -> its CPU's column of the TMA 5.1 spreadsheet. Sapphire Rapids'
# model is TMA 5.01, whose sheet (5.02) has no general-counter formulas: the
# 5.1 sheet's are the nearest published ones (VERSIONS.md).
SHEET_COLUMNS = {"icl": "ICL", "rkl": "RKL", "tgl": "TGL", "icx": "ICX", "spr": "SPR", "sprhbm": "SPR-HBM",
                 "emr": "EMR", "gnr": "GNR", "adl": "ADL/RPL", "mtl": "MTL", "lnl": "LNL/ARL", "arl": "LNL/ARL",
                 "ptl": "PTL"}
# The sheet's auxiliary terms that are run variables in topdown.
RUN_VARIABLES = {"#SMT_on": "smt_enabled", "#EBS_Mode": "ebs_mode", "#PERF_METRICS_MSR": "perf_metrics"}
FIXED_SLOTS, GENERAL_SLOTS = "TOPDOWN.SLOTS", "TOPDOWN.SLOTS_P"


class GeneralCounterForms:
    """The general-counter forms of one CPU's metrics.

    column: the CPU's tma_sheet.SheetColumn. metric_names: the MetricNames of
    the model's metrics. spell: the event table's spelling of an event (it
    marks the event used)."""

    def __init__(self, column, metric_names, spell, events):
        self.column = column
        self.spell = spell
        self.slots_event = GENERAL_SLOTS if GENERAL_SLOTS in events else FIXED_SLOTS
        self.by_metric_name = {row.metric_name: row for row in column.sheet.rows if row.metric_name in metric_names}
        self.given = []  # the metrics that got a general-counter form

    def form(self, metric_name, formula, where):
        """`formula if perf_metrics else <general counters>` where the sheet
        gives that metric both ways; `formula` itself otherwise."""
        row = self.by_metric_name.get(metric_name)
        cell = self.column.formula(row.name) if row else None
        ways = register_and_general(cell) if cell else None
        if not ways or "PERF_METRICS." not in formula and FIXED_SLOTS not in formula:
            return formula
        self.given.append(metric_name)
        general = self.translate(ways[1], f"{where} ({self.column.sheet.path}, column {self.column.cpu})")
        return f"{formula} if perf_metrics else {general}"

    def translate(self, text, where):
        out = []
        for kind, value in tokens(text, where):
            if kind != "name" or value in KEYWORDS:
                out.append(value)
            elif value.startswith("##"):
                out.append("(" + " + ".join(self.metric(child, where) for child in self.children(value[2:], where)) + ")")
            elif value in RUN_VARIABLES:
                out.append(RUN_VARIABLES[value])
            elif value.startswith("#"):
                out.append("(" + self.translate(self.auxiliary(value, where), where) + ")")
            elif value in self.column.sheet.by_name:
                out.append(self.metric(value, where))
            else:
                out.append(self.spell(self.slots_event if value == FIXED_SLOTS else value, where))
        if any(part.startswith("PERF_METRICS.") for part in out):
            raise GeneratorError(f"{where}: the general-counter formula '{text}' reads the PERF_METRICS register")
        return join(out)

    def metric(self, sheet_name, where):
        row = self.column.sheet.by_name[sheet_name]
        if row.metric_name not in self.by_metric_name:
            raise GeneratorError(f"{where}: the general-counter formula names {sheet_name}, which the model lacks")
        return safe_name(row.metric_name)

    def children(self, node, where):
        children = self.column.children(node)
        if not children:
            raise GeneratorError(f"{where}: ##{node} sums the children of a node that has none here")
        return children

    def auxiliary(self, name, where):
        formula = self.column.formula(name)
        if formula is None:
            raise GeneratorError(f"{where}: the sheet gives no {name} for {self.column.cpu}")
        return formula


def general_counter_forms(cpu, perfmon, metric_names, spell, events):
    """The forms for a model (cpus.Cpu) with a sheet column; None for the others."""
    column = SHEET_COLUMNS.get(cpu.name)
    if column is None:
        return None
    sheet = SHEETS.get(cpu.version, SHEET)
    return GeneralCounterForms(read_sheet(os.path.join(perfmon, sheet)).column(column), metric_names, spell, events)


def unit_mask_bases(perfmon):
    """The events the sheets name with their unit mask replaced
    (`EXE_ACTIVITY.3_PORTS_UTIL:u0x80`): a model's table keeps those its CPU
    has, so that import reads toplev's and perf's files that spell them so."""
    bases = set()
    for sheet in [SHEET, *SHEETS.values()]:
        bases |= read_sheet(os.path.join(perfmon, sheet)).unit_mask_bases()
    return bases


_sheets = {}


def read_sheet(path):
    if path not in _sheets:
        _sheets[path] = TmaSheet.read(path)
    return _sheets[path]
