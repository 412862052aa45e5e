"""Intel's TMA spreadsheet (TMA_Metrics-full-<version>.csv): one row per tree
node, Info metric and auxiliary term, one column of formulas per CPU.

    sheet = TmaSheet.read(path)
    column = sheet.column("ICL")          # one CPU's formulas ("EMR" finds a column "SPR/EMR")
    column.formula("Frontend_Bound")      # the cell, an empty one read as the cell to its right
    column.formula("#Pipeline_Width")     # an auxiliary term (`#` name) of that CPU
    sheet.children("Fetch_Latency")       # what a `##Fetch_Latency` reference sums
    register_and_general(formula)         # the two ways of `X if #PERF_METRICS_MSR else Y`

The layout (VERSIONS.md beside the sheets): three header rows, the third
naming the columns (Key, Level1 .. Level6, then the CPUs from the newest to
the oldest, then Locate-with and the other attributes). A row's name is its
one filled Level cell; its level is that cell's number for tree nodes. An
empty formula cell means the formula of the nearest filled cell to its right
(an older CPU); `#NA` means the CPU has no such metric. Names starting with
`#` are auxiliary terms (constants and shared sub-formulas, key `Aux`);
`##X` in a formula stands for the sum of X's children. Standard library only.
"""

import csv
import re

from perfmon import GeneratorError

NOT_AVAILABLE = "#NA"
TREE_KEYS = {"FE", "BAD", "BE", "BE/Mem", "BE/Core", "RET"}
FIRST_ATTRIBUTE = "Locate-with"
# `REGISTER if #PERF_METRICS_MSR else GENERAL`: the whole formula, the
# condition written once at its top level.
PERF_METRICS_CHOICE = re.compile(r"^(?P<register>.+?)\s+if\s+#PERF_METRICS_MSR\s+else\s+(?P<general>.+)$")


# An event with its unit mask replaced (`EXE_ACTIVITY.3_PORTS_UTIL:u0x80`),
# as the sheet, toplev and perf write some events.
UNIT_MASK_SPELLING = re.compile(r"\b([A-Z][A-Z0-9_.]*):u0x[0-9a-fA-F]+\b")


class SheetRow:
    """One row: its key (FE, BAD, ..., Info.Thread, Aux, Bottleneck), name,
    level (1-6 for tree nodes, 0 otherwise), parent (tree nodes below level
    1) and the raw cells of the CPU columns, newest CPU first."""

    def __init__(self, key, name, level, parent, cells):
        self.key = key
        self.name = name
        self.level = level
        self.parent = parent
        self.cells = cells

    @property
    def is_node(self):
        return self.key in TREE_KEYS

    @property
    def metric_name(self):
        """perfmon's MetricName: a node's own name, `Info_<group>_<name>` for
        an Info metric (Info.Thread SLOTS is Info_Thread_SLOTS), `Bottleneck_<name>`."""
        if self.key.startswith("Info."):
            return "Info_" + self.key.split(".")[-1] + "_" + self.name
        if self.key == "Bottleneck":
            return "Bottleneck_" + self.name
        return self.name


class TmaSheet:
    def __init__(self, path, version, cpus, rows):
        self.path = path
        self.version = version
        self.cpus = cpus          # column names, newest CPU first ("LNL/ARL", "GNR", ...)
        self.rows = rows          # SheetRow, in the sheet's order
        self.by_name = {}
        for row in rows:
            self.by_name.setdefault(row.name, row)

    @classmethod
    def read(cls, path):
        try:
            with open(path, encoding="utf-8", newline="") as handle:
                lines = list(csv.reader(handle))
        except OSError as error:
            raise GeneratorError(f"{path}: cannot read the TMA spreadsheet ({error})")
        if len(lines) < 4 or lines[2][:7] != ["Key", "Level1", "Level2", "Level3", "Level4", "Level5", "Level6"] \
                or FIRST_ATTRIBUTE not in lines[2]:
            raise GeneratorError(f"{path}: not a TMA spreadsheet (its third row must name Key, Level1..6, "
                                 f"the CPUs and {FIRST_ATTRIBUTE})")
        header = lines[2]
        cpus = header[7:header.index(FIRST_ATTRIBUTE)]
        rows, last_at_level = [], {}
        for number, cells in enumerate(lines[3:], start=4):
            cells += [""] * (len(header) - len(cells))
            filled = [(level, cells[level].strip()) for level in range(1, 7) if cells[level].strip()]
            if not cells[0].strip() or not filled:
                continue
            if len(filled) != 1:
                raise GeneratorError(f"{path}:{number}: a row names one metric, in one Level column")
            level, name = filled[0]
            key = cells[0].strip()
            parent = None
            if key in TREE_KEYS:
                parent = last_at_level.get(level - 1) if level > 1 else None
                last_at_level[level] = name
                for deeper in range(level + 1, 7):
                    last_at_level.pop(deeper, None)
            else:
                level = 0
            rows.append(SheetRow(key, name, level, parent, [c.strip() for c in cells[7:7 + len(cpus)]]))
        return cls(path, lines[0][2] if len(lines[0]) > 2 else "", cpus, rows)

    def unit_mask_bases(self):
        """The events any CPU's formula names with its unit mask replaced."""
        return {match.group(1) for row in self.rows for cell in row.cells
                for match in UNIT_MASK_SPELLING.finditer(cell)}

    def column(self, cpu):
        """The column named `cpu`, or the one of several CPUs that names it
        (the 5.02 sheet's `SPR/EMR` for EMR)."""
        named = [i for i, name in enumerate(self.cpus) if name == cpu] or \
                [i for i, name in enumerate(self.cpus) if cpu in name.split("/")]
        if len(named) != 1:
            raise GeneratorError(f"{self.path}: no column {cpu} (columns: {', '.join(self.cpus)})")
        return SheetColumn(self, named[0])

    def children(self, name):
        return [row for row in self.rows if row.is_node and row.parent == name]


class SheetColumn:
    """One CPU's formulas."""

    def __init__(self, sheet, index):
        self.sheet = sheet
        self.index = index
        self.cpu = sheet.cpus[index]

    def formula(self, name):
        """The formula of the row `name` for this CPU (an empty cell reads as
        the nearest filled one to its right); None where the sheet has no
        such row or gives `#NA`."""
        row = self.sheet.by_name.get(name)
        if row is None:
            return None
        cell = next((cell for cell in row.cells[self.index:] if cell), "")
        return cell if cell and cell != NOT_AVAILABLE else None

    def has(self, name):
        return self.formula(name) is not None

    def children(self, name):
        """The children of node `name` this CPU has (what `##name` sums)."""
        return [row.name for row in self.sheet.children(name) if self.has(row.name)]


def register_and_general(formula):
    """(register branch, general-counter branch) of a formula that reads the
    PERF_METRICS register where it can (`X if #PERF_METRICS_MSR else Y`);
    None for a formula with one way only."""
    match = PERF_METRICS_CHOICE.match(formula.strip())
    if not match:
        return None
    return match.group("register").strip(), match.group("general").strip()
