"""Reading Intel's perfmon files: metrics, events, the CPU map.

Only facts are taken from them (formulas, thresholds, levels, groups, event
encodings, counter restrictions); the text of the models comes from our own
table (intel_text.ini).
"""

import csv
import json
import os
import re


class GeneratorError(Exception):
    pass


class NotCountable(Exception):
    """A metric needs something topdown cannot count here; it is left out, with this reason."""


def load_json(path):
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, json.JSONDecodeError) as error:
        raise GeneratorError(f"{path}: cannot read it as JSON ({error}); check the perfmon folder")


class Metric:
    def __init__(self, raw):
        self.raw = raw
        self.name = raw["MetricName"]
        self.legacy_name = raw["LegacyName"]
        self.level = int(raw["Level"])
        self.parent = raw.get("ParentCategory") or None
        self.category = raw.get("Category", "")
        self.is_node = self.category == "TMA" and not self.name.startswith(("Info_", "Bottleneck_"))
        self.events = {e["Alias"]: e["Name"] for e in raw["Events"]}
        self.constants = {c["Alias"]: c["Name"] for c in raw["Constants"]}
        self.formula = raw["Formula"]
        self.base_formula = (raw.get("BaseFormula") or "").strip()
        threshold = raw.get("Threshold") or {}
        self.threshold = threshold.get("Formula", "").strip()
        self.threshold_metrics = {t["Alias"]: t["Value"] for t in threshold.get("ThresholdMetrics", [])}
        self.groups = [g for g in (raw.get("MetricGroup") or "").split(";") if g]
        self.locate = [e.strip() for e in (raw.get("LocateWith") or "").split(";") if e.strip()]
        self.domain = raw.get("CountDomain") or ""
        self.unit = raw.get("UnitOfMeasure") or ""


def read_metrics(path):
    document = load_json(path)
    try:
        return document.get("Header", {}), [Metric(m) for m in document["Metrics"]]
    except (KeyError, TypeError, AttributeError) as error:
        raise GeneratorError(f"{path}: not a perfmon metrics file ({error!r})")


def read_events(paths):
    """EventName -> the perfmon record, over the given events files."""
    events = {}
    for path in paths:
        document = load_json(path)
        for event in document.get("Events", []):
            events.setdefault(event["EventName"], event)
    return events


def read_retire_latencies(path):
    """Event -> mean retire latency in cycles (Granite Rapids' defaults)."""
    if not path or not os.path.exists(path):
        return {}
    document = load_json(path)
    return {name: float(values["MEAN"]) for name, values in document["Data"].items()}


def cpu_matches(mapfile, core_events):
    """The `cpus` items of the processors whose cores perfmon's mapfile
    describes with `core_events` ("/CLX/events/cascadelakex_core.json")."""
    items = []
    with open(mapfile, encoding="utf-8-sig") as handle:
        for row in csv.DictReader(handle):
            if row["EventType"] not in ("core", "hybridcore") or row["Filename"] != core_events:
                continue
            family_model = row["Family-model"]
            item = stepping_item(family_model)
            if item not in items:
                items.append(item)
    if not items:
        raise GeneratorError(f"{mapfile}: no core row for {core_events}; check the CPU's events file")
    return items


def stepping_item(family_model):
    """'GenuineIntel-6-55-[56789ABCDEF]' -> 'Intel 6 0x55 0x5-0xF'."""
    match = re.fullmatch(r"GenuineIntel-6-([0-9A-F]{2})(?:-\[([0-9A-F]+)\])?", family_model, re.I)
    if not match:
        raise GeneratorError(f"mapfile: cannot read the CPU id '{family_model}'")
    model, steppings = match.groups()
    item = f"Intel 6 0x{model.upper()}"
    if steppings:
        values = sorted(int(s, 16) for s in steppings)
        if values != list(range(values[0], values[-1] + 1)):
            raise GeneratorError(f"mapfile: steppings of '{family_model}' are not one range")
        item += f" 0x{values[0]:X}" if len(values) == 1 else f" 0x{values[0]:X}-0x{values[-1]:X}"
    return item


class Elsewhere:
    """What every metrics file of the perfmon folder says, for fixing one file.

    parents: (name, level) -> parent, from every file where the parent's
    level is one less: the fix for a file whose ParentCategory contradicts
    its Level (Serializing_Operation and Nop_Instructions of SKX, CLX, RKL)."""

    def __init__(self, perfmon):
        self.parents = {}
        for directory in sorted(os.listdir(perfmon)):
            folder = os.path.join(perfmon, directory, "metrics")
            if not os.path.isdir(folder):
                continue
            for file in sorted(os.listdir(folder)):
                if "_metrics" not in file:
                    continue
                _, metrics = read_metrics(os.path.join(folder, file))
                levels = {m.name: m.level for m in metrics}
                for m in metrics:
                    if m.parent and levels.get(m.parent) == m.level - 1:
                        self.parents.setdefault((m.name, m.level), m.parent)
