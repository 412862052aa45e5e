#!/usr/bin/env python3
"""The generator's reading of Intel's vendor data: the errata of perfmon's
metrics files (tools/modelgen/errata.py), the unit mask's extension of the
Lion Cove events (umask2) and the corrected Lunar Lake and Arrow Lake lists,
and the metrics made from a column of the TMA spreadsheet (sheet_metrics.py)
against a metrics file perfmon made from the same column.

    vendor_data_test.py PERFMON_DIR

Exit 77 (skipped) without the perfmon folder.
"""

import ast
import os
import re
import sys
import unittest

sys.dont_write_bytecode = True  # importing the generator leaves no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "modelgen"))
from cpus import CPUS  # noqa: E402
from errata import ERRATA, Erratum, correct_errata  # noqa: E402
from event_table import encoding  # noqa: E402
from perfmon import GeneratorError, read_events, read_metrics  # noqa: E402
from sheet_metrics import sheet_metrics  # noqa: E402
from tma_sheet import TmaSheet  # noqa: E402

PERFMON = sys.argv.pop(1) if len(sys.argv) > 1 else ""
COSTED = ("L3_Hit_Latency", "Contested_Accesses", "Data_Sharing")


def metrics_of(cpu):
    return read_metrics(os.path.join(PERFMON, cpu.directory, "metrics", cpu.metrics))[1]


def corrected(name):
    metrics = metrics_of(CPUS[name])
    correct_errata(name, metrics)
    return {m.name: m.base_formula for m in metrics}


class Errata(unittest.TestCase):
    def test_costs_read_as_intels_next_granite_rapids_file_writes_them(self):
        # perfmon's TMA 5.2 Granite Rapids file has the parentheses the 5.1 file lacks.
        _, fixed = read_metrics(os.path.join(PERFMON, "tma-5.2", "GNR", "metrics", "graniterapids_metrics.json"))
        intel = {m.name: m.base_formula for m in fixed}
        ours = corrected("gnr@5.1")
        for name in COSTED:
            self.assertEqual(ours[name], intel[name], name)

    def test_each_load_is_charged_the_difference_of_the_costs(self):
        for cpu in ("mtl", "lnl", "arl"):
            latency = corrected(cpu)["L3_Hit_Latency"]
            self.assertIn("mem_load_retired.l3_hit * ( ( 12 * tma_info_system_core_frequency ) - "
                          "( 3 * tma_info_system_core_frequency ) )", latency, cpu)
            self.assertNotRegex(latency, r"l3_hit \* \( 12 ", cpu)

    def test_emerald_and_granite_rapids_read_l3_bound_where_perfmon_expands_it(self):
        both = ["Bottleneck_Data_Cache_Memory_Bandwidth", "Bottleneck_Data_Cache_Memory_Latency"]
        for cpu, names in (("emr@5.1", both), ("emr", both), ("gnr@5.1", ["Bottleneck_Data_Cache_Memory_Latency"])):
            formulas = corrected(cpu)
            for name in names:
                self.assertNotIn("hbm_bound", formulas[name], (cpu, name))
                self.assertIn("tma_memory_bound * tma_l3_bound / (", formulas[name], (cpu, name))

    def test_sapphire_rapids_hbm_metrics_become_readable(self):
        formulas = corrected("sprhbm")
        self.assertEqual(formulas["Info_Memory_Mix_Offcore_Read_HBM_PKI"],
                         "1000 * ocr.demand_data_rd.pmm / tma_info_inst_mix_instructions")
        ast.parse(formulas["Info_Memory_SoC_R2C_HBM_BW"].replace(".", "_"), mode="eval")

    def test_an_erratum_perfmon_no_longer_has_is_an_error(self):
        stale = Erratum(["emr"], ["L3_Hit_Latency"], r"\bhbm_bound\b", "tma_l3_bound", "test")
        with self.assertRaisesRegex(GeneratorError, "emr: the erratum of L3_Hit_Latency"):
            correct_errata("emr", metrics_of(CPUS["emr"]), [stale])

    def test_every_erratum_names_cpus_and_metrics_of_the_generator(self):
        for erratum in ERRATA:
            self.assertTrue(set(erratum.cpus) <= set(CPUS), erratum.cpus)
            for cpu in erratum.cpus:
                names = {m.name for m in metrics_of(CPUS[cpu])}
                self.assertTrue(set(erratum.metrics) <= names, (cpu, erratum.metrics))


class UnitMaskExtension(unittest.TestCase):
    def test_umask_ext_is_the_umask2_term(self):
        event = {"EventName": "X", "EventCode": "0xc5", "UMask": "0x40", "UMaskExt": "0x01", "Counter": "0,1,2,3"}
        self.assertEqual(encoding(event, set(range(4))), "cpu/event=0xc5,umask=0x40,umask2=0x01/")
        event["UMaskExt"] = "0x00"
        self.assertEqual(encoding(event, set(range(4))), "cpu/event=0xc5,umask=0x40/")

    def test_lunar_and_arrow_lake_count_intels_corrected_events(self):
        for name in ("lnl", "arl"):
            cpu = CPUS[name]
            self.assertTrue(cpu.events_directory.startswith("events-2026-07"), name)
            events = read_events([os.path.join(PERFMON, cpu.events_directory, "events", f) for f in cpu.events])
            counters = set(range(10))
            fwd = encoding(events["BR_INST_RETIRED.COND_TAKEN_FWD"], counters)
            self.assertEqual(fwd, "cpu/event=0xc4,umask=0x00,umask2=0x01/")
            self.assertNotEqual(fwd, encoding(events["BR_INST_RETIRED.NEAR_CALL"], counters))
            self.assertEqual(encoding(events["BR_MISP_RETIRED.COND_TAKEN_BWD_COST"], counters),
                             "cpu/event=0xc5,umask=0x41/")
            self.assertEqual(encoding(events["BR_MISP_RETIRED.COND_TAKEN_FWD_COST"], counters),
                             "cpu/event=0xc5,umask=0x40,umask2=0x01/")
            self.assertRegex(encoding(events["MEM_LOAD_RETIRED.L1_HIT_L1"], counters),
                             re.escape("cpu/event=0xd1,umask=0x00,umask2=0x01/"))
        arl = CPUS["arl"]
        self.assertIn("LD_BLOCKS.STORE_EARLY",
                      read_events([os.path.join(PERFMON, arl.events_directory, "events", f) for f in arl.events]))


class SheetColumn(unittest.TestCase):
    """Panther Lake's model comes from the sheet's PTL column; read the same
    way, the LNL/ARL column of the 5.1 sheet must give perfmon's Lunar Lake
    file: every metric of it, in the same place, domain and groups, with the
    same formula up to spacing and redundant parentheses."""

    def test_lunar_lake_column_gives_perfmons_lunar_lake_file(self):
        column = TmaSheet.read(os.path.join(PERFMON, "TMA", "TMA_Metrics-full-5.1.csv")).column("LNL/ARL")
        header, made = sheet_metrics(column)
        self.assertEqual(header["TmaVersion"], "5.1")
        made = {m.name: m for m in made}
        lunar_lake = metrics_of(CPUS["lnl"])
        correct_errata("lnl", lunar_lake)  # perfmon's lost parentheses: the sheet has them
        perfmon = {m.name: m for m in lunar_lake}
        self.assertEqual(sorted(set(perfmon) - set(made)), [])
        for name, metric in perfmon.items():
            with self.subTest(name):
                ours = made[name]
                self.assertEqual((ours.level, ours.parent, ours.domain, ours.is_node),
                                 (metric.level, metric.parent, metric.domain, metric.is_node))
                if metric.base_formula:
                    self.assertEqual(ast.dump(ast.parse(python(ours.base_formula))),
                                     ast.dump(ast.parse(python(metric.base_formula))))


def python(formula):
    """A BaseFormula as Python: names with dots and modifiers made identifiers."""
    return re.sub(r"[A-Za-z_][A-Za-z0-9_.]*(?::[A-Za-z0-9_=]+)*",
                  lambda m: m.group(0) if m.group(0) in ("if", "else", "min", "max", "and", "or", "not")
                  else re.sub(r"\W", "_", m.group(0)), formula)


if __name__ == "__main__":
    if not os.path.isdir(PERFMON):
        print(f"skipped: {PERFMON or 'the perfmon folder'} does not exist")
        sys.exit(77)
    unittest.main()
