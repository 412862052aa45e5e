"""perfmon's errata: the places where a pinned metrics file's BaseFormula says
something its own expanded Formula or Intel's TMA spreadsheet
(../shared/reference/intel-perfmon/TMA/) contradicts, and what the generator
reads there instead. The README lists them too; each generated model's header
names the ones corrected in it.

Each erratum names its models (their keys in cpus.py: the newest version
of a CPU by its name, an older one as NAME@VERSION) and metrics, perfmon's text (a
regular expression over the BaseFormula) and ours; it must match in every
metric it names, so that an erratum Intel fixes in a later file is noticed
rather than carried along.
"""

import re

from perfmon import GeneratorError


class Erratum:
    def __init__(self, cpus, metrics, perfmon_text, ours, why):
        self.cpus = cpus
        self.metrics = metrics
        self.perfmon_text = re.compile(perfmon_text)
        self.ours = ours
        self.why = why


CORE_FREQUENCY = "tma_info_system_core_frequency"

ERRATA = [
    # TMA 5.1 JSON of the client Redwood and Lion Cove cores and of Granite
    # Rapids: `EVENT * ( 12 * f ) - ( 3 * f )`, the loads times the first cost
    # less one L2 hit cost in all.
    Erratum(["mtl", "lnl", "arl", "gnr@5.1"], ["L3_Hit_Latency", "Contested_Accesses", "Data_Sharing"],
            rf"([a-z0-9_.]+) \* \( ([0-9.]+) \* {CORE_FREQUENCY} \) - \( ([0-9.]+) \* {CORE_FREQUENCY} \)",
            rf"\1 * ( ( \2 * {CORE_FREQUENCY} ) - ( \3 * {CORE_FREQUENCY} ) )",
            "perfmon's JSON leaves out the parentheses around each load's cost (EVENT * (A * f) - (B * f)); read "
            "as Intel's TMA spreadsheet writes it, EVENT * min($PEBS, A - B), and perfmon's TMA 5.2 file of "
            "Granite Rapids: EVENT * ((A * f) - (B * f))"),
    # EMR and GNR have no HBM_Bound node (SPR-HBM has).
    Erratum(["emr@5.1", "emr"], ["Bottleneck_Data_Cache_Memory_Bandwidth", "Bottleneck_Data_Cache_Memory_Latency"],
            r"\bhbm_bound\b", "tma_l3_bound",
            "its BaseFormula names hbm_bound, a node this CPU lacks; perfmon's expanded Formula has L3_Bound's "
            "formula in its place, and so has the model"),
    Erratum(["gnr@5.1"], ["Bottleneck_Data_Cache_Memory_Latency"],
            r"\bhbm_bound\b", "tma_l3_bound",
            "its BaseFormula names hbm_bound, a node this CPU lacks; perfmon's expanded Formula has L3_Bound's "
            "formula in its place, and so has the model"),
    # The spreadsheet's `#NA if #Memory > 2 else ...`, #Memory being 0 in perfmon's files.
    Erratum(["sprhbm"], ["Info_Memory_Mix_Offcore_Read_HBM_PKI", "Info_Memory_SoC_R2C_HBM_BW"],
            r"^\s*if 0 > 2 else ", "",
            "perfmon's BaseFormula lost the spreadsheet's #NA (`if 0 > 2 else X`, which no one can read); the "
            "condition never holds, so the metric is X"),
]


def correct_errata(cpu, metrics, errata=None):
    """Corrects the BaseFormula of `cpu`'s metrics by each erratum for it;
    [(metric names, why)] of the errata corrected. Raises GeneratorError when an
    erratum does not match a metric it names (perfmon fixed it, or the metric
    is gone)."""
    by_name = {metric.name: metric for metric in metrics}
    corrected = []
    for erratum in errata if errata is not None else ERRATA:
        if cpu not in erratum.cpus:
            continue
        for name in erratum.metrics:
            metric = by_name.get(name)
            text, found = erratum.perfmon_text.subn(erratum.ours, metric.base_formula) if metric else ("", 0)
            if not found:
                raise GeneratorError(f"{cpu}: the erratum of {name} ({erratum.perfmon_text.pattern}) is not in "
                                     "perfmon's file; remove it from errata.py if Intel fixed it")
            metric.base_formula = text.strip()
        corrected.append((erratum.metrics, erratum.why))
    return corrected
