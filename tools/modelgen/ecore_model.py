"""The E-core models of Intel's hybrid CPUs, from perfmon's
E-core_TMA_Metrics.csv (E-core TMA 4): one formula column per core, the
tree in the Level1..Level3 columns, helper definitions in the `Aux` rows.

Each model opens its events on the hybrid CPU's `cpu_atom` PMU and fits the
same CPUs as the P-core model; its encodings come from the E-core events
file of that CPU. Arrow Lake-H's low-power E-cores (Crestmont, perfmon's
`LowPower_Atom`) are a third core type: their model opens on `cpu_lowpower`
and fits only the CPUs whose mapfile rows name their own events file.
"""

import csv
import os
import re

from event_table import EventTable
from formulas import tokens
from model_writer import entry
from perfmon import GeneratorError, NotCountable, cpu_matches, read_events

AREAS = {"FE": "FE", "BAD": "BAD", "BE": "BE", "RET": "RET"}
AUX_NAMES = {"#CLKS": "CLKS", "#CLKS_P": "CLKS_P", "#SLOTS": "SLOTS"}
RUN_TERMS = {"TSC": "msr/tsc/", "#DurationTimeInSeconds": "duration_time"}
CONSTANT = "Pipeline_Width"


class EcoreCpu:
    """core_name: the E-core's own name where its TMA column is another
    core's (borrowed until Intel publishes its own), else None."""

    def __init__(self, name, title, column, directory, events, p_core_events, pmu="cpu_atom", core_type="E-core",
                 core_name=None):
        self.name = name
        self.title = title
        self.column = column
        self.directory = directory
        self.events = [events]
        # The events file whose mapfile rows name the CPUs the model fits: the
        # P-cores' for the E-cores every such CPU has, the core type's own for
        # one only some have (Arrow Lake-H's low-power E-cores).
        self.p_core_events = p_core_events
        self.pmu = pmu
        self.core_type = core_type
        self.core_name = core_name

    @property
    def methodology(self):
        if self.core_name:
            return f"E-core TMA 4 of Skymont ({self.column}); none published for {self.core_name} yet"
        return "E-core TMA 4"


ECORE_CPUS = {cpu.name: cpu for cpu in [
    EcoreCpu("adl_ecore", "Intel Alder Lake / Raptor Lake E-core (Gracemont)", "GRT", "ADL",
             "alderlake_gracemont_core.json", "alderlake_goldencove_core.json"),
    EcoreCpu("mtl_ecore", "Intel Meteor Lake E-core (Crestmont)", "CMT", "MTL",
             "meteorlake_crestmont_core.json", "meteorlake_redwoodcove_core.json"),
    EcoreCpu("lnl_ecore", "Intel Lunar Lake E-core (Skymont)", "LNL-SKT", "LNL",
             "lunarlake_skymont_core.json", "lunarlake_lioncove_core.json"),
    EcoreCpu("arl_ecore", "Intel Arrow Lake E-core (Skymont)", "ARL-SKT", "ARL",
             "arrowlake_skymont_core.json", "arrowlake_lioncove_core.json"),
    EcoreCpu("arl_lpecore", "Intel Arrow Lake-H low-power E-core (Crestmont)", "CMT", "ARL",
             "arrowlake_crestmont_core.json", "arrowlake_crestmont_core.json", pmu="cpu_lowpower",
             core_type="LPE-core"),
    # Intel publishes no E-core TMA for Darkmont yet: Skymont's is the nearest
    # (as toplev does), with Panther Lake's own atom encodings.
    EcoreCpu("ptl_ecore", "Intel Panther Lake E-core (Darkmont)", "LNL-SKT", "PTL",
             "pantherlake_darkmont_core.json", "pantherlake_cougarcove_core.json", core_name="Darkmont"),
]}


class Row:
    def __init__(self, raw, header, column):
        self.key = raw[0].strip()
        levels = [raw[header.index(f"Level{n}")].strip() for n in (1, 2, 3)]
        self.level = next((n + 1 for n, name in enumerate(levels) if name), 0)
        self.name = levels[self.level - 1] if self.level else ""
        self.formula = raw[header.index(column)].strip()
        self.domain = raw[header.index("Count Domain")].strip()
        self.groups = [g.strip() for g in raw[header.index("Metric Group")].split(",") if g.strip()]
        self.threshold = raw[header.index("Threshold")].strip()
        self.is_node = self.key in AREAS


def read_rows(path, column):
    with open(path, encoding="utf-8-sig") as handle:
        raw = list(csv.reader(handle))
    header_at = next((i for i, row in enumerate(raw) if row and row[0] == "Key"), None)
    if header_at is None or column not in raw[header_at]:
        raise GeneratorError(f"{path}: no header row with the column {column}; check the E-core CSV")
    header = raw[header_at]
    return [Row(row, header, column) for row in raw[header_at + 1:] if row and row[0] not in (".", "")]


def model_name(name):
    """'%_Tpause_Cycles' -> 'Pct_Tpause_Cycles': model names are identifiers."""
    return re.sub(r"^%_", "Pct_", name)


class EcoreModel:
    def __init__(self, cpu, perfmon):
        self.cpu = cpu
        rows = read_rows(os.path.join(perfmon, "E-core_TMA_Metrics.csv"), cpu.column)
        self.table = EventTable(read_events([os.path.join(perfmon, cpu.directory, "events", cpu.events[0])]), {})
        self.aux = {r.name: r.formula for r in rows if r.key == "Aux"}
        self.rows = [r for r in rows if r.key != "Aux" and r.name]
        self.names = {r.name for r in self.rows}
        self.left_out = {}
        self.translated = {}
        for row in self.rows:
            try:
                self.translated[row.name] = self.translate(row.formula, row.name)
            except NotCountable as reason:
                self.left_out[row.name] = str(reason)
        self.parents = self.tree_parents()

    def translate(self, formula, where):
        if not formula or formula == "#NA":
            raise NotCountable("the E-core CSV gives no formula for this core")
        out = []
        for kind, value in tokens(formula, where):
            if kind != "name":
                out.append(value)
            elif value in AUX_NAMES:
                out.append(AUX_NAMES[value])
            elif value in RUN_TERMS:
                out.append(RUN_TERMS[value])
            elif value in self.names:
                out.append(model_name(value))
            else:
                out.append(self.table.spell(value, where))
        return " ".join(out).replace("( ", "(").replace(" )", ")")

    def tree_parents(self):
        parents, stack = {}, []
        for row in self.rows:
            if not row.is_node:
                continue
            del stack[row.level - 1:]
            parents[row.name] = stack[-1] if stack else None
            stack.append(row.name)
        return parents

    def defines(self):
        width = self.aux.get("#Pipeline_Width")
        if not width:
            raise GeneratorError(f"E-core CSV: no #Pipeline_Width for {self.cpu.column}")
        return width, [f"CLKS = {self.translate(self.aux['#CLKS'], 'CLKS')}",
                       f"CLKS_P = {self.translate(self.aux['#CLKS_P'], 'CLKS_P')}",
                       f"SLOTS = {CONSTANT} * CLKS"]


def threshold(text):
    """'>0.15 & P' -> 'this > 0.15 and parent_over'; '( > 1.1 | < 0.9 )' likewise."""
    if not text:
        return None
    out = text.replace("&", " and ").replace("|", " or ")
    out = re.sub(r"(?<![\w.])P(?![\w.])", "parent_over", out)
    out = re.sub(r"([<>]=?)\s*", r"this \1 ", out)
    return re.sub(r"\s+", " ", out).replace("( ", "(").replace(" )", ")").strip()


def ecore_cpus(cpu, perfmon):
    """The hybrid CPUs of this E-core: the mapfile's rows of its P-core events file."""
    return cpu_matches(os.path.join(perfmon, "mapfile.csv"), f"/{cpu.directory}/events/{cpu.p_core_events}")


def write_ecore_model(model, cpus, text):
    cpu, table = model.cpu, model.table
    width, defines = model.defines()
    lines = [f"{cpu.title}: the E-core tree of Top-down Microarchitecture Analysis, E-core TMA 4.",
             *([f"Intel publishes no E-core TMA for {cpu.core_name} yet: this is Skymont's (column {cpu.column}), the",
                "nearest published one, until Intel publishes its own."] if cpu.core_name else []),
             "Generated by tools/modelgen/intel_model.py from Intel's perfmon E-core_TMA_Metrics.csv (column",
             f"{cpu.column}) and {cpu.directory}/events/{cpu.events[0]}; do not edit: change the generator or",
             "tools/modelgen/intel_text.ini and regenerate. Formulas, thresholds and domains are perfmon's;",
             "descriptions, advice and units are ours. Percentages of the CSV's Info metrics stay percentages."]
    if model.left_out:
        lines += ["", "Left out, because topdown cannot count or compute them here:"]
        lines += [f"- {name}: {why}" for name, why in sorted(model.left_out.items())]
    out = ["#" + (" " + line if line else "") for line in lines] + [""]
    out += ["[model]", f"name = {cpu.name}", f"title = {cpu.title} ({cpu.methodology})", f"cpus = {', '.join(cpus)}",
            f"event_table = intel_{cpu.name}, intel_core", f"methodology = {cpu.methodology}", "version = 4",
            f"pmu = {cpu.pmu}", f"core_type = {cpu.core_type}", f"counters = {table.general_counters('Counter')}",
            f"counters_without_smt = {table.general_counters('Counter')}",
            f"fixed_counters = {table.fixed_counters()}", "clock = CPU_CLK_UNHALTED.CORE", "",
            "[constants]", f"{CONSTANT} = {width}", "", "[define]"] + defines + [""]
    for row in model.rows:
        if row.name in model.left_out:
            continue
        name = model_name(row.name)
        out.append(f"[{'node' if row.is_node else 'info'} {name}]")
        if row.is_node and model.parents[row.name]:
            out.append(f"parent = {model.parents[row.name]}")
        out += entry("formula", model.translated[row.name])
        rule = threshold(row.threshold)
        if rule:
            out += entry("threshold", rule)
        if name != row.name:
            out.append(f"vendor_name = {row.name}")
        own = text.get(row.name, {})
        if row.is_node:
            out += [f"domain = {row.domain}", f"area = {AREAS[row.key]}"]
        elif own.get("unit"):
            out.append(f"unit = {own['unit']}")
        if row.groups:
            out += entry("groups", ", ".join(row.groups))
        for key in ("description", "advice"):
            if own.get(key) and (key == "description" or row.is_node):
                out += entry(key, own[key])
        out.append("")
    return "\n".join(out)
