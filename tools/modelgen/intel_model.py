#!/usr/bin/env python3
"""Generates topdown's Intel models from Intel's perfmon data.

    tools/modelgen/intel_model.py [--perfmon DIR] [--out DIR] [CPU ...]

For each CPU (all of cpus.py's table without arguments) it reads the CPU's
metrics and core events JSON from the perfmon folder (default:
../shared/reference/intel-perfmon beside the source tree) and writes
models/<name>.model and models/events/intel_<name>.events. Descriptions,
advice and units come from intel_text.ini, our own words shared by every
CPU. Run by a developer after changing the table or the pinned perfmon
files; the output is committed. Standard library only.
"""

import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from cpus import CPUS, EVENT_TABLES  # noqa: E402
from errata import correct_errata  # noqa: E402
from ecore_model import ECORE_CPUS, EcoreModel, ecore_cpus, write_ecore_model  # noqa: E402
from event_table import EventTable  # noqa: E402
from formulas import FormulaTranslator, ThresholdTranslator, safe_name  # noqa: E402
from general_counters import SHEETS, general_counter_forms, read_sheet, unit_mask_bases  # noqa: E402
from generated_files import check, write_atomically  # noqa: E402
from intel_extra import read_extras  # noqa: E402
from model_writer import metrics_source, write_model  # noqa: E402
from perfmon import (GeneratorError, NotCountable, Elsewhere, cpu_matches, read_events, read_metrics,  # noqa: E402
                     read_retire_latencies)
from sheet_metrics import sheet_metrics  # noqa: E402
from text_table import read_text_table  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
EXTRAS = os.path.join(HERE, "intel_extra.ini")


class Generated:
    """One CPU's model: the metrics kept, each translated, and what was left out."""

    def __init__(self, cpu, header, metrics, events, uncore, latencies, elsewhere, extras, errata, perfmon):
        self.cpu = cpu
        self.header = header
        self.extras = extras
        self.errata = errata  # the errata of perfmon's file corrected (errata.py)
        fix_parents(metrics, elsewhere.parents, cpu)
        self.table = EventTable(events, latencies, uncore, extras)
        self.general_forms = general_counter_forms(cpu, perfmon, {m.name for m in metrics}, self.table.spell,
                                                   events)
        names = {"tma_" + m.name.lower(): safe_name(m.name) for m in metrics}
        self.formulas = FormulaTranslator(names, self.table.spell)
        self.left_out = {}  # MetricName -> why
        self.metrics = self.keep_countable(metrics)
        self.translate_thresholds()
        for metric in extras.metrics:
            self.table.mark_used(metric.translated)
        self.metrics += extras.metrics
        self.table.used |= {name for name in unit_mask_bases(perfmon) if name in events}

    def keep_countable(self, metrics):
        translated = {}
        for metric in metrics:
            where = f"{self.cpu.name}: {metric.name}"
            try:
                if metric.base_formula:
                    translated[metric.name] = self.formulas.base_formula(metric.base_formula, where)
                else:
                    translated[metric.name] = self.formulas.alias_formula(metric, where)
            except NotCountable as reason:
                self.left_out[metric.name] = str(reason)
        # A metric that uses (or hangs under) a left-out one is left out too.
        changed = True
        while changed:
            changed = False
            for metric in metrics:
                if metric.name in self.left_out:
                    continue
                uses = set(translated[metric.name].replace("(", " ").replace(")", " ").split())
                blocked = sorted(n for n in uses | {metric.parent} if n in self.left_out)
                if blocked:
                    self.left_out[metric.name] = "needs " + ", ".join(blocked)
                    changed = True
        kept = [m for m in metrics if m.name not in self.left_out]
        self.left_out_legacy = [m.legacy_name for m in metrics if m.name in self.left_out]
        for metric in kept:
            where = f"{self.cpu.name}: {metric.name}"
            metric.translated = translated[metric.name]
            if self.general_forms:
                metric.translated = self.general_forms.form(metric.name, metric.translated, where)
            self.table.mark_used(metric.translated)
        return kept

    def translate_thresholds(self):
        by_legacy = {m.legacy_name: m for m in self.metrics}
        thresholds = ThresholdTranslator(by_legacy, {})
        for metric in sorted(self.metrics, key=lambda m: (not m.is_node, m.level)):
            where = f"{self.cpu.name}: {metric.name} threshold"
            unknown = [v for v in metric.threshold_metrics.values() if v not in by_legacy]
            unknown += [n for n in self.left_out_legacy if n in metric.threshold]
            metric.threshold_text = None if unknown else thresholds.translate(metric, where)
        for metric in self.metrics:
            if metric.threshold_text:
                metric.threshold_text = thresholds.fold_other_nodes(metric)


def fix_parents(metrics, parents_elsewhere, cpu):
    levels = {m.name: m.level for m in metrics}
    by_legacy = {m.legacy_name: m for m in metrics}
    for metric in metrics:
        if metric.is_node and metric.level > 1 and not metric.parent:
            metric.parent = parent_named_by_threshold(metric, by_legacy, cpu)
        if metric.parent and levels.get(metric.parent) != metric.level - 1:
            parent = parents_elsewhere.get((metric.name, metric.level))
            if levels.get(parent) != metric.level - 1:
                raise GeneratorError(f"{cpu.name}: {metric.name} is at level {metric.level} under "
                                     f"{metric.parent}, and no other CPU's file says where it belongs")
            metric.parent = parent


def parent_named_by_threshold(metric, by_legacy, cpu):
    """A deeper node without ParentCategory (SPR-HBM's HBM_Bound): its own
    threshold names its ancestors, the one a level up is its parent."""
    named = [by_legacy[v] for v in metric.threshold_metrics.values() if v in by_legacy]
    parents = [m.name for m in named if m.is_node and m.level == metric.level - 1]
    if len(parents) != 1:
        raise GeneratorError(f"{cpu.name}: {metric.name} is at level {metric.level} without a parent, "
                             "and its threshold does not name one")
    return parents[0]


def generate(cpu, perfmon, text, out, elsewhere):
    directory = os.path.join(perfmon, cpu.directory)
    if cpu.sheet_column:
        column = read_sheet(os.path.join(perfmon, SHEETS[cpu.version])).column(cpu.sheet_column)
        header, metrics = sheet_metrics(column)
    else:
        header, metrics = read_metrics(os.path.join(directory, "metrics", cpu.metrics))
    events = read_events([os.path.join(perfmon, cpu.events_directory, "events", f) for f in cpu.events])
    uncore = read_uncore_events(directory) if cpu.server_uncore else {}
    latencies = read_retire_latencies(os.path.join(directory, "metrics", cpu.retire_latency)
                                      if cpu.retire_latency else None)
    if (header.get("TmaVersion") or None) != cpu.version:
        raise GeneratorError(f"{cpu.key}: {metrics_source(cpu)} is TMA {header.get('TmaVersion')!r}, "
                             f"cpus.py says {cpu.version!r}; correct cpus.py")
    extras = read_extras(EXTRAS, cpu.name)
    errata = correct_errata(cpu.key, metrics)
    generated = Generated(cpu, header, metrics, events, uncore, latencies, elsewhere, extras, errata, perfmon)
    # The mapfile names the CPU's folder of perfmon's HEAD (SPR, not tma-5.2/SPR).
    cpus = cpu.cpus or cpu_matches(os.path.join(perfmon, "mapfile.csv"),
                                   f"/{os.path.basename(cpu.directory)}/events/{cpu.events[0]}")
    model_path = os.path.join(out, f"{cpu.key}.model")
    events_path = os.path.join(out, "events", f"intel_{cpu.key}.events")
    write_atomically(model_path, write_model(generated, cpus, text))
    write_atomically(events_path, generated.table.write(cpu))
    missing = [m.name for m in generated.metrics if "description" not in text.get(m.name, {})]
    return generated, missing


def generate_ecore(cpu, perfmon, text, out):
    model = EcoreModel(cpu, perfmon)
    write_atomically(os.path.join(out, f"{cpu.name}.model"), write_ecore_model(model, ecore_cpus(cpu, perfmon), text))
    write_atomically(os.path.join(out, "events", f"intel_{cpu.name}.events"), model.table.write(cpu))
    missing = [r.name for r in model.rows if r.name not in model.left_out and "description" not in text.get(r.name, {})]
    return model, missing


def generate_event_table(cpu, perfmon, out):
    """The perfmon encodings of the events a hand-written model names."""
    directory = os.path.join(perfmon, cpu.directory)
    events = read_events([os.path.join(perfmon, cpu.events_directory, "events", f) for f in cpu.events])
    uncore = read_uncore_events(directory) if cpu.server_uncore else {}
    with open(os.path.join(SOURCE, "models", f"{cpu.name}.model"), encoding="utf-8") as handle:
        words = set(re.findall(r"[A-Za-z0-9_.]+", handle.read()))
    table = EventTable(events, {}, uncore)
    upper_words = {word.upper() for word in words}
    table.used = {name for name in events if name in words} | {
        name.upper() for name in uncore if name.upper() in upper_words and table.countable_uncore(name.upper())}
    write_atomically(os.path.join(out, "events", f"intel_{cpu.name}.events"), table.write(cpu, hand_written=True))
    return len(table.used)


def read_uncore_events(directory):
    """The uncore events of a CPU's perfmon folder (<CPU>/events/*_uncore*.json)."""
    events_dir = os.path.join(directory, "events")
    return read_events([os.path.join(events_dir, f) for f in sorted(os.listdir(events_dir)) if "_uncore" in f])


def every_name():
    return list(CPUS) + list(ECORE_CPUS) + list(EVENT_TABLES)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--perfmon", default=os.path.join(SOURCE, "..", "shared", "reference", "intel-perfmon"))
    parser.add_argument("--out", default=os.path.join(SOURCE, "models"))
    parser.add_argument("--text", default=os.path.join(HERE, "intel_text.ini"))
    parser.add_argument("--check", action="store_true",
                        help="generate into a scratch folder and fail if --out's files differ (exit 1) "
                             "or the perfmon folder is missing (exit 77)")
    parser.add_argument("cpus", nargs="*", help="model names (default: every CPU of cpus.py)")
    args = parser.parse_args()
    known = every_name()
    unknown = [c for c in args.cpus if c not in known]
    if unknown:
        parser.error(f"unknown CPU {', '.join(unknown)}; choose from {', '.join(known)}")
    if args.check:
        return check(args.perfmon, args.out, "intel_model", lambda scratch: run(args, scratch, quiet=True))
    return run(args, args.out)


def run(args, out, quiet=False):
    known = every_name()
    try:
        text = read_text_table(args.text)
        elsewhere = Elsewhere(args.perfmon)
        for name in args.cpus or known:
            if name in EVENT_TABLES:
                count = generate_event_table(EVENT_TABLES[name], args.perfmon, out)
                if not quiet:
                    print(f"{name}: an event table of {count} events")
                continue
            if name in ECORE_CPUS:
                model, missing = generate_ecore(ECORE_CPUS[name], args.perfmon, text, out)
                kept = len(model.rows) - len(model.left_out)
            else:
                model, missing = generate(CPUS[name], args.perfmon, text, out, elsewhere)
                kept = len(model.metrics)
            if missing:
                raise GeneratorError(f"{name}: {', '.join(missing)} have no description in {args.text}; "
                                     "write one there")
            if not quiet:
                print(f"{name}: {kept} metrics, {len(model.left_out)} left out")
    except GeneratorError as error:
        print(f"intel_model: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
