"""The Intel CPUs the generator writes models for, and the perfmon files of
each (pinned in ../shared/reference/intel-perfmon/VERSIONS.md).

`cpus` is taken from perfmon's mapfile.csv (the rows of the core events
file) unless given here. `events_directory` is where the core events files
are read, when not beside the metrics: Intel's corrected Lunar Lake and
Arrow Lake lists (events-2026-07/, see VERSIONS.md), whose pinned ones
encode several branch and load events wrongly. A hybrid CPU's P-core model names its PMU
(`cpu_core`), core type and the E-core model beside it (`companion`).

`version` is the TMA version of the metrics file (its header's TmaVersion,
which the generator checks; None for a file without a TMA tree). A CPU may
be listed once per version: the newest is the model NAME (models/NAME.model,
chosen by default), each older one NAME@VERSION (models/NAME@VERSION.model),
which a team pins with --cpu NAME@VERSION (docs/model-format.md).
"""


class Cpu:
    def __init__(self, name, title, directory, metrics, events, version=None, retire_latency=None, cpus=None,
                 pmu=None, core_type=None, companion=None, server_uncore=False, pfm_pmu=None, events_directory=None,
                 sheet_column=None):
        self.name = name
        self.version = version
        self.key = name  # NAME, or NAME@VERSION for a version older than the CPU's newest (set below)
        self.title = title
        self.directory = directory
        self.events_directory = events_directory or directory
        self.metrics = metrics
        self.events = events          # core events files; the first one is the one the mapfile names
        self.retire_latency = retire_latency
        self.cpus = cpus
        self.pmu = pmu
        self.core_type = core_type
        self.companion = companion    # the model of the CPU's other core type (ecore_model.py writes it)
        # Its uncore events (<CPU>/events/*_uncore.json) are the server units
        # topdown programs (CHA, memory controller, UPI, ...); a client's
        # uncore PMUs are named differently and are not generated.
        self.server_uncore = server_uncore
        # libpfm4's name of the CPU, for events a user names that the tables lack.
        self.pfm_pmu = pfm_pmu
        # The column of the TMA spreadsheet of its version that holds its
        # metrics, for a CPU perfmon publishes no metrics file for (metrics None).
        self.sheet_column = sheet_column


def hybrid_p_core(name, title, directory, metrics, events, version, events_directory=None, sheet_column=None):
    return Cpu(name, title, directory, metrics, [events], version, pmu="cpu_core", core_type="P-core",
               companion=f"{name}_ecore", events_directory=events_directory, sheet_column=sheet_column)


def version_order(version):
    """TMA versions are decimal numbers: 5.01 < 5.1 < 5.2."""
    return float(version)


def keyed(cpus):
    """{key: cpu}: each CPU's newest version under its name, older ones as NAME@VERSION."""
    newest = {}
    for cpu in cpus:
        if cpu.name not in newest or version_order(cpu.version) > version_order(newest[cpu.name].version):
            newest[cpu.name] = cpu
    for cpu in cpus:
        cpu.key = cpu.name if newest[cpu.name] is cpu else f"{cpu.name}@{cpu.version}"
    return {cpu.key: cpu for cpu in cpus}


# Intel's TMA 5.2 files of the servers (perfmon HEAD of 2026-08-13), beside the pinned ones.
TMA_5_2 = "tma-5.2"

CPUS = keyed([
    Cpu("hsx", "Intel Haswell server", "HSX", "haswellx_metrics.json", ["haswellx_core.json"], "5.01",
        server_uncore=True),
    Cpu("bdw", "Intel Broadwell client", "BDW", "broadwell_metrics.json", ["broadwell_core.json"], "5.01"),
    Cpu("bdx", "Intel Broadwell server", "BDX", "broadwellx_metrics.json", ["broadwellx_core.json"], "5.01",
        server_uncore=True),
    Cpu("skx", "Intel Skylake server", "SKX", "skylakex_metrics.json", ["skylakex_core.json"], "5.01",
        server_uncore=True),
    Cpu("clx", "Intel Cascade Lake server", "CLX", "cascadelakex_metrics.json", ["cascadelakex_core.json"], "5.01",
        server_uncore=True),
    Cpu("skl", "Intel Skylake client", "SKL", "skylake_metrics.json", ["skylake_core.json"], "5.01", pfm_pmu="skl"),
    Cpu("icl", "Intel Ice Lake client", "ICL", "icelake_metrics.json", ["icelake_core.json"], "5.1", pfm_pmu="icl"),
    Cpu("rkl", "Intel Rocket Lake client", "RKL", "rocketlake_metrics.json", ["rocketlake_core.json"], "5.01"),
    Cpu("tgl", "Intel Tiger Lake client", "TGL", "tigerlake_metrics.json", ["tigerlake_core.json"], "5.1"),
    Cpu("icx", "Intel Ice Lake server", "ICX", "icelakex_metrics.json", ["icelakex_core.json"], "5.1",
        server_uncore=True),
    Cpu("icx", "Intel Ice Lake server", f"{TMA_5_2}/ICX", "icelakex_metrics.json", ["icelakex_core.json"], "5.2",
        server_uncore=True),
    Cpu("spr", "Intel Sapphire Rapids server", "SPR", "sapphirerapids_metrics.json", ["sapphirerapids_core.json"],
        "5.01", server_uncore=True, pfm_pmu="spr"),
    Cpu("spr", "Intel Sapphire Rapids server", f"{TMA_5_2}/SPR", "sapphirerapids_metrics.json",
        ["sapphirerapids_core.json"], "5.2", server_uncore=True, pfm_pmu="spr"),
    Cpu("emr", "Intel Emerald Rapids server", "EMR", "emeraldrapids_metrics.json", ["emeraldrapids_core.json"], "5.1",
        server_uncore=True),
    Cpu("emr", "Intel Emerald Rapids server", f"{TMA_5_2}/EMR", "emeraldrapids_metrics.json",
        ["emeraldrapids_core.json"], "5.2", server_uncore=True),
    Cpu("gnr", "Intel Granite Rapids server", "GNR", "graniterapids_metrics.json", ["graniterapids_core.json"], "5.1",
        retire_latency="graniterapids_retire_latency.json", server_uncore=True),
    Cpu("gnr", "Intel Granite Rapids server", f"{TMA_5_2}/GNR", "graniterapids_metrics.json",
        ["graniterapids_core.json"], "5.2", retire_latency="graniterapids_retire_latency.json", server_uncore=True),
    # Xeon Max shares Sapphire Rapids' CPU id; it is chosen with --cpu.
    Cpu("sprhbm", "Intel Sapphire Rapids HBM (Xeon Max)", "SPR", "sapphirerapidshbm_metrics.json",
        ["sapphirerapids_core.json"], "5.1", cpus=["Intel 6 0x8F"], server_uncore=True),
    Cpu("srf", "Intel Sierra Forest (E-core server)", "SRF", "sierraforest_metrics.json", ["sierraforest_core.json"],
        "3.6", server_uncore=True),
    Cpu("grr", "Intel Grand Ridge (E-core)", "GRR", "grandridge_metrics.json", ["grandridge_core.json"], "3.6",
        server_uncore=True),
    # Intel publishes no TMA tree for Clearwater Forest yet: its metrics file
    # holds system and uncore metrics only, which the model gives as Info metrics.
    Cpu("cwf", "Intel Clearwater Forest (E-core server)", "CWF", "clearwaterforest_metrics.json",
        ["clearwaterforest_core.json"], server_uncore=True),
    hybrid_p_core("adl", "Intel Alder Lake / Raptor Lake P-core", "ADL", "alderlake_metrics_goldencove_core.json",
                  "alderlake_goldencove_core.json", "5.1"),
    hybrid_p_core("mtl", "Intel Meteor Lake P-core", "MTL", "meteorlake_metrics_redwoodcove_core.json",
                  "meteorlake_redwoodcove_core.json", "5.1"),
    hybrid_p_core("lnl", "Intel Lunar Lake P-core", "LNL", "lunarlake_metrics_lioncove_core.json",
                  "lunarlake_lioncove_core.json", "5.1", events_directory="events-2026-07/LNL"),
    hybrid_p_core("arl", "Intel Arrow Lake P-core", "ARL", "arrowlake_metrics_lioncove_core.json",
                  "arrowlake_lioncove_core.json", "5.1", events_directory="events-2026-07/ARL"),
    # perfmon publishes Panther Lake's events but no metrics file: its metrics
    # are the PTL column of the TMA 5.2 spreadsheet (sheet_metrics.py).
    hybrid_p_core("ptl", "Intel Panther Lake P-core", "PTL", None, "pantherlake_cougarcove_core.json", "5.2",
                  sheet_column="PTL"),
])

# The hand-written Haswell model keeps its tree, but its encodings come from
# perfmon too: a table of the perfmon events it names (intel_hsw.events,
# listed after the model's own table), so that no event needs libpfm4.
EVENT_TABLES = {cpu.name: cpu for cpu in [
    Cpu("hsw", "Intel Haswell client", "HSW", None, ["haswell_core.json"]),
]}
