"""One Arm CPU's model: Arm's decision tree as topdown's tree, the other
metrics as Info metrics, and the event table of the raw codes they count.

Tree: the stage-1 roots are level 1; a decision-tree metric that a node
names in `next_items` is its child. Tree nodes are fractions (Arm's percent
/ 100). The stage-2 groups a node names are the Info metrics to read next:
each Info metric lists its Arm groups, and the node's advice names the
groups. A metric of the decision tree that no node names is an Info metric.
"""

import re

from model_writer import entry
from perfmon import GeneratorError

# Ours: Arm's data gives no thresholds. Level 1 as Intel's TMA does; a
# deeper node, a share of its parent's stall cycles, when it is the larger
# part of a parent that is over its own threshold.
LEVEL_ONE_THRESHOLDS = {"frontend_bound": 0.15, "bad_speculation": 0.15, "backend_bound": 0.20, "retiring": 0.70,
                        "frontend_stalled_cycles": 0.20, "backend_stalled_cycles": 0.20}
DEEPER_THRESHOLD = "this > 0.5 and parent_over"
AREAS = {"frontend_bound": "FE", "bad_speculation": "BAD", "backend_bound": "BE", "retiring": "RET",
         "frontend_stalled_cycles": "FE", "backend_stalled_cycles": "BE"}
DOMAINS = {"percent of slots": "Slots", "percent of cycles": "Cycles"}
# A deeper node is a share of its parent's stall cycles (Arm: percent of cycles).
DEEPER_DOMAIN = "Stalls"
EVENT = re.compile(r"\b[A-Z][A-Z0-9_]*\b")
# perf's generic names of two architected events, so that files counting
# them as `cycles` and `instructions` import.
GENERIC_ALIASES = {"cycles": "CPU_CYCLES", "instructions": "INST_RETIRED"}
CLOCK = "CPU_CYCLES"
CYCLE_COUNTERS = 1


def node_name(arm_name):
    """frontend_bound -> Frontend_Bound, l1d_cache_mpki -> L1D_Cache_MPKI."""
    acronyms = {"mpki", "ipc", "tlb", "itlb", "dtlb", "ll", "fp", "sve", "sme", "cme", "cas", "lse", "simd", "dp",
                "agu", "ls", "vpu", "lsu", "iq", "mcq", "za", "sm", "dram", "lsrt", "std", "sx", "mx"}
    return "_".join(w.upper() if w in acronyms or any(c.isdigit() for c in w) else w.capitalize()
                    for w in arm_name.split("_"))


class Metric:
    def __init__(self, arm_name, arm, parent=None, level=0):
        self.arm_name = arm_name
        self.name = node_name(arm_name)
        self.arm = arm
        self.parent = parent
        self.level = level
        self.next_groups = []
        self.also_see = []  # nodes elsewhere in the tree that Arm names next
        self.sample = []
        self.groups = []


class ArmModel:
    def __init__(self, name, telemetry, lowest, highest):
        self.name = name
        self.telemetry = telemetry
        self.lowest = lowest
        self.highest = highest
        self.table_name = ("" if name.startswith("arm-") else "arm_") + name.replace("-", "_")
        self.nodes = []
        self.infos = []
        self.text = {}

    @property
    def title(self):
        product = self.telemetry.product
        product = product if product.startswith("Neoverse") else "C1 " + product.split("-", 1)[1]
        suffix = f" r{self.telemetry.variant}p{self.telemetry.revision}" if self.highest is not None else ""
        return f"Arm {product}{suffix}"

    def cpus(self):
        t = self.telemetry
        match = f"Arm 0x{t.implementer:X} 0x{t.part:X}"
        if self.lowest is None and self.highest is None:
            return match
        return match + f" 0x{self.lowest or 0:X}-0x{self.highest if self.highest is not None else 0xFF:X}"

    def build(self, text):
        self.text = text
        t = self.telemetry
        self.build_tree()
        in_tree = {m.arm_name for m in self.nodes}
        groups_of = {}
        for group, contents in t.groups.items():
            for arm_name in contents["metrics"]:
                if arm_name not in t.metrics:
                    raise GeneratorError(f"{t.path}: group {group} names {arm_name}, which is no metric")
                groups_of.setdefault(arm_name, []).append(group)
        for node in self.nodes:
            node.groups = groups_of.get(node.arm_name, [])
        for arm_name in ordered_metrics(t.groups, t.metrics):
            if arm_name not in in_tree:
                info = Metric(arm_name, t.metrics[arm_name])
                info.groups = groups_of.get(arm_name, [])
                self.infos.append(info)
        self.check_text()

    def build_tree(self):
        """Breadth-first from the roots: a metric's parent is the shallowest
        node that names it next (C1-Nano's interlock nodes also point to
        backend_mem_bound, which backend_bound names first); a later naming
        becomes a pointer in the naming node's advice."""
        t = self.telemetry
        for decision in t.decisions.values():
            for item in decision["next_items"]:
                if item not in t.decisions and item not in t.groups:
                    raise GeneratorError(f"{t.path}: {decision['name']} names next {item}, no metric or group")
        placed = {}
        queue = [self.new_node(root, None) for root in t.roots]
        placed.update((node.arm_name, node) for node in queue)
        while queue:
            node = queue.pop(0)
            for item in t.decisions.get(node.arm_name, {}).get("next_items", []):
                if item in t.groups:
                    node.next_groups.append(item)
                elif item in placed:
                    node.also_see.append(placed[item].name)
                else:
                    placed[item] = self.new_node(item, node)
                    queue.append(placed[item])
        self.nodes = depth_first([n for n in placed.values() if n.parent is None], list(placed.values()))

    def new_node(self, arm_name, parent):
        t = self.telemetry
        if arm_name not in t.metrics:
            raise GeneratorError(f"{t.path}: the decision tree names {arm_name}, which is no metric")
        node = Metric(arm_name, t.metrics[arm_name], parent, parent.level + 1 if parent else 1)
        node.sample = t.decisions.get(arm_name, {}).get("sample_events") or node.arm.get("sample_events", [])
        return node

    def check_text(self):
        wanted = [m.arm_name for m in self.nodes] + ["group " + g for m in self.infos for g in m.groups[:1]]
        missing = sorted({w for w in wanted if "description" not in self.text.get(w, {})})
        if missing:
            raise GeneratorError(f"{self.name}: {', '.join(missing)} have no description in arm_text.ini; "
                                 "write one there")

    def root_of(self, node):
        while node.parent:
            node = node.parent
        return node

    def events(self):
        """Every event the model's formulas and sample lists name."""
        names = set()
        for metric in self.nodes + self.infos:
            names.update(EVENT.findall(metric.arm["formula"]))
        for node in self.nodes:
            names.update(node.sample)
        unknown = sorted(n for n in names if n not in self.telemetry.events)
        if unknown:
            raise GeneratorError(f"{self.telemetry.path}: {', '.join(unknown)} are not events of the file")
        return names


def depth_first(roots, nodes):
    ordered = []
    for root in roots:
        ordered.append(root)
        ordered += depth_first([n for n in nodes if n.parent is root], nodes)
    return ordered


def ordered_metrics(groups, metrics):
    """The metrics in the order of Arm's groups, then those in no group."""
    order = [m for contents in groups.values() for m in contents["metrics"]] + sorted(metrics)
    return list(dict.fromkeys(order))


def header_comment(model, telemetry_dir):
    t = model.telemetry
    source = t.path.replace(telemetry_dir.rstrip("/") + "/", "")
    lines = [f"{model.title}: Arm's topdown methodology, {t.slots} slots per cycle.",
             f"Generated by tools/modelgen/arm_model.py from Arm's telemetry data {source}",
             "(see ../shared/reference/arm-telemetry/VERSIONS.md); do not edit: change the generator or",
             "tools/modelgen/arm_text.ini and regenerate.",
             "Formulas, the tree (the decision tree's next_items), groups, units and sample events are",
             "Arm's; tree nodes are fractions (Arm's percent / 100); thresholds, descriptions and advice",
             "are ours (Arm gives no thresholds): level 1 over "
             + ", ".join(f"{node_name(n)} {v:g}" for n, v in LEVEL_ONE_THRESHOLDS.items()
                         if n in {m.arm_name for m in model.nodes}) + ";",
             f"a deeper node, a share of its parent's stall cycles, `{DEEPER_THRESHOLD}`."]
    return ["#" + (" " + line if line else "") for line in lines] + [""]


def write_model(model, telemetry_dir):
    out = header_comment(model, telemetry_dir)
    out += ["[model]", f"name = {model.name}", f"title = {model.title}", f"cpus = {model.cpus()}",
            f"event_table = {model.table_name}", "methodology = Arm Topdown Methodology",
            f"fixed_counters = {CYCLE_COUNTERS}", f"clock = {CLOCK}", ""]
    for node in model.nodes:
        out += node_section(model, node)
    for info in model.infos:
        out += info_section(model, info)
    return "\n".join(out)


def node_section(model, node):
    text = model.text[node.arm_name]
    out = [f"[node {node.name}]"]
    if node.parent:
        out.append(f"parent = {node.parent.name}")
    out += entry("formula", f"({node.arm['formula']}) / 100")
    if node.level == 1:
        out.append(f"threshold = this > {LEVEL_ONE_THRESHOLDS[node.arm_name]:g}")
    else:
        out.append(f"threshold = {DEEPER_THRESHOLD}")
    out.append(f"vendor_name = {node.arm_name}")
    out.append(f"domain = {DOMAINS.get(node.arm['units'], DEEPER_DOMAIN) if node.level == 1 else DEEPER_DOMAIN}")
    out.append(f"area = {AREAS[model.root_of(node).arm_name]}")
    if node.groups:
        out += entry("groups", ", ".join(node.groups))
    if node.sample:
        out += entry("sample", ", ".join(node.sample))
    out += entry("description", text["description"])
    advice = text.get("advice", "")
    if node.next_groups:
        advice += (" " if advice else "") + "Arm's methodology reads next the Info metrics of " + \
            ", ".join(node.next_groups) + "."
    if node.also_see:
        advice += (" " if advice else "") + "Arm's methodology also points to " + ", ".join(node.also_see) + "."
    if advice:
        out += entry("advice", advice)
    return out + [""]


def info_section(model, info):
    out = [f"[info {info.name}]"]
    out += entry("formula", info.arm["formula"])
    out.append(f"vendor_name = {info.arm_name}")
    out.append(f"unit = {info.arm['units']}")
    if info.groups:
        out += entry("groups", ", ".join(info.groups))
    first_group = model.text.get("group " + info.groups[0], {}) if info.groups else {}
    description = f"{info.arm['title']}, in {info.arm['units']}."
    if first_group:
        description += " " + first_group["description"]
    out += entry("description", description)
    return out + [""]


def write_event_table(model):
    t = model.telemetry
    lines = [f"# {model.title}: the events its model counts, each the raw code of Arm's data on the",
             "# CPU's core PMU (config = the event code), whatever the PMU is called (armv8_pmuv3_0, ...).",
             "# Generated by tools/modelgen/arm_model.py; do not edit.", ""]
    for name in sorted(model.events()):
        lines.append(table_line(name, name, t))
    lines += ["", "# perf's generic names of the same counts."]
    for alias, event in GENERIC_ALIASES.items():
        lines.append(table_line(alias, event, t))
    return "\n".join(lines) + "\n"


def table_line(name, event, telemetry):
    line = f"{name} = {raw_code(telemetry.events[event]['code'])}"
    # Linux counts CPU_CYCLES on PMUv3's cycle counter (PMCCNTR) when it is
    # free: the one fixed counter, beside the event counters.
    return line + " fixed=0" if event == CLOCK else line


def raw_code(code):
    return f"r{int(code, 16):04x}"
