"""The facts a CPU's model needs beyond perfmon's pinned files (intel_extra.ini):
events and terms topdown spells its own way, constants and metrics of other
Intel documents."""

import re

from perfmon import GeneratorError
from text_table import read_text_table

KINDS = ("events", "terms", "constants", "not_countable", "metric")
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")


class ExtraMetric:
    """A metric perfmon's file does not have, shaped like perfmon.Metric for the writer."""

    def __init__(self, name, entries, where):
        missing = [key for key in ("formula", "groups") if key not in entries]
        if missing:
            raise GeneratorError(f"{where}: [.. metric {name}] needs {', '.join(missing)}")
        self.name = self.legacy_name = name
        self.translated = entries["formula"]
        self.threshold_text = entries.get("threshold")
        self.groups = [g.strip() for g in entries["groups"].split(",")]
        self.is_node, self.parent, self.level = False, None, 0
        self.locate, self.domain, self.unit = [], "", ""


class Extras:
    def __init__(self, events=None, terms=None, constants=None, not_countable=None, metrics=None):
        self.events = events or {}
        self.terms = terms or {}
        self.constants = constants or {}
        self.not_countable = not_countable or {}  # perfmon event -> why this CPU cannot count it
        self.metrics = metrics or []


def read_extras(path, cpu):
    """The extras of one CPU (model name); empty where the file has none. A
    section names one or more CPUs before its kind; an entry two sections give
    one CPU must not differ."""
    extras = Extras()
    given = {}  # (kind, name) -> (value, section)
    for section, entries in read_text_table(path).items():
        where = f"{path}: [{section}]"
        cpus, kind, rest = section_parts(section, where)
        if cpu not in cpus:
            continue
        if kind == "metric":
            extras.metrics.append(ExtraMetric(rest[0], entries, where))
            continue
        for name, value in entries.items():
            earlier = given.setdefault((kind, name), (value, section))
            if earlier[0] != value:
                raise GeneratorError(f"{where}: {name} differs from [{earlier[1]}] for {cpu}")
        if kind == "constants":
            try:
                extras.constants.update({name: float(value) for name, value in entries.items()})
            except ValueError as error:
                raise GeneratorError(f"{where}: a constant must be a number ({error})")
        else:
            getattr(extras, kind).update(entries)
    return extras


def section_parts(section, where):
    """'[skx clx terms]' -> (['skx', 'clx'], 'terms', []); '[skl metric X]' -> (['skl'], 'metric', ['X'])."""
    words = section.split()
    kind_at = next((i for i, word in enumerate(words) if word in KINDS), None)
    if kind_at is None or kind_at == 0 or len(words) - kind_at != (2 if words[kind_at] == "metric" else 1):
        raise GeneratorError(f"{where}: expected [<cpu> ... <{'|'.join(KINDS[:-1])}>] or [<cpu> ... metric <Name>]")
    return words[:kind_at], words[kind_at], words[kind_at + 1:]


def names_in(formula):
    return set(NAME.findall(formula))
