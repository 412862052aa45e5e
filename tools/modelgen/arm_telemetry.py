"""Reading Arm's telemetry data (../shared/reference/arm-telemetry): one JSON
file per CPU and revision with its PMU events, metrics, metric groups and
the topdown methodology (stage 1, stage 2 and the decision tree).

Only facts are taken from them (formulas, units, groups, the decision tree,
event codes, the MIDR fields); the text of the models is ours (arm_text.ini).
"""

import glob
import json
import os

from perfmon import GeneratorError

# The CPU folders of the data; the C1-SME2 files describe the SME2 unit
# beside the cores, not a core, and are not read.
FOLDERS = ("neoverse", "lumex")
NOT_A_CORE = "C1-SME2"


class Telemetry:
    """One file: a CPU at one revision."""

    def __init__(self, path):
        try:
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
            config = data["product_configuration"]
            self.product = config["product_name"]
            self.implementer = int(config["implementer"], 16)
            self.part = int(config["part_num"], 16)
            self.variant = int(config["major_revision"])
            self.revision = int(config["minor_revision"])
            self.slots = int(config["num_slots"])
            self.events = data["events"]
            self.metrics = data["metrics"]
            self.groups = data["groups"]["metrics"]
            method = data["methodologies"]["topdown_methodology"]
            self.stage_1 = method["metric_grouping"]["stage_1"]
            self.roots = method["decision_tree"]["root_nodes"]
            self.decisions = {entry["name"]: entry for entry in method["decision_tree"]["metrics"]}
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise GeneratorError(f"{path}: not an Arm telemetry CPU file ({error!r})")
        self.path = path

    @property
    def stepping(self):
        """MIDR's variant << 4 | revision, as model files spell Arm steppings."""
        return self.variant << 4 | self.revision

    def content(self):
        """What a model is made of: two revisions with the same content share a model."""
        return json.dumps([self.slots, self.events, self.metrics, self.groups, self.stage_1, self.roots,
                           self.decisions], sort_keys=True)


def read_products(folder):
    """Product name -> its files' Telemetry, oldest revision first."""
    products = {}
    for sub in FOLDERS:
        for path in sorted(glob.glob(os.path.join(folder, sub, "*.json"))):
            if os.path.islink(path):
                continue
            telemetry = Telemetry(path)
            if telemetry.product != NOT_A_CORE:
                products.setdefault(telemetry.product, []).append(telemetry)
    if not products:
        raise GeneratorError(f"{folder}: no Arm telemetry CPU files under {', '.join(FOLDERS)}/")
    for files in products.values():
        files.sort(key=lambda t: t.stepping)
    return products


def revision_runs(files):
    """Consecutive revisions with the same content, each run one model:
    [(first file of the run, lowest stepping, highest stepping)], None where
    open: the oldest file stands for the revisions before it too."""
    runs = []
    for telemetry in files:
        if runs and runs[-1][0].content() == telemetry.content():
            continue
        runs.append([telemetry, telemetry.stepping if runs else None, None])
    for earlier, later in zip(runs, runs[1:]):
        earlier[2] = later[1] - 1
    return [tuple(run) for run in runs]
