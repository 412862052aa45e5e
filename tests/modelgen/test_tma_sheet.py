#!/usr/bin/env python3
"""tools/modelgen/tma_sheet.py on a small sheet of Intel's layout: a column
per CPU, an empty cell read as the one to its right, #NA, auxiliary terms,
parents from the Level columns, and the two ways of a PERF_METRICS cell."""

import os
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "modelgen"))
from perfmon import GeneratorError  # noqa: E402
from tma_sheet import TmaSheet, register_and_general  # noqa: E402

SHEET = """TMA,Version,5.1-full
.,,,
Key,Level1,Level2,Level3,Level4,Level5,Level6,NEW,MID,OLD/OLDER,Locate-with,Count Domain
FE,Frontend_Bound,,,,,,PERF_METRICS.FRONTEND_BOUND / #PERF_METRICS_SUM if #PERF_METRICS_MSR else IDQ_BUBBLES.CORE / SLOTS,,IDQ_UOPS_NOT_DELIVERED.CORE / SLOTS,X,Slots
FE,,Fetch_Latency,,,,,,#NA,#Pipeline_Width * CYCLES / SLOTS,,Slots
FE,,,ICache_Misses,,,,,,ICACHE / CLKS,,Clocks
FE,,Fetch_Bandwidth,,,,,,,Frontend_Bound - Fetch_Latency,,Slots
BAD,Bad_Speculation,,,,,,,,1 - Frontend_Bound,,Slots
Info.Thread,SLOTS,,,,,,TOPDOWN.SLOTS_P,,TOPDOWN.SLOTS,,
Aux,#Pipeline_Width,,,,,,8,,5,,
"""


class TmaSheetTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.folder.name, "sheet.csv")
        with open(self.path, "w", encoding="utf-8") as out:
            out.write(SHEET)
        self.sheet = TmaSheet.read(self.path)

    def tearDown(self):
        self.folder.cleanup()

    def test_columns_and_version(self):
        self.assertEqual(self.sheet.cpus, ["NEW", "MID", "OLD/OLDER"])
        self.assertEqual(self.sheet.column("OLDER").cpu, "OLD/OLDER")
        self.assertEqual(self.sheet.version, "5.1-full")

    def test_an_empty_cell_reads_as_the_one_to_its_right(self):
        self.assertEqual(self.sheet.column("MID").formula("Frontend_Bound"), "IDQ_UOPS_NOT_DELIVERED.CORE / SLOTS")
        self.assertEqual(self.sheet.column("NEW").formula("Fetch_Bandwidth"), "Frontend_Bound - Fetch_Latency")
        self.assertEqual(self.sheet.column("MID").formula("#Pipeline_Width"), "5")
        self.assertEqual(self.sheet.column("NEW").formula("#Pipeline_Width"), "8")

    def test_na_is_a_metric_the_cpu_lacks(self):
        # NEW's empty cell reads MID's #NA, not OLD's formula.
        for cpu in ("NEW", "MID"):
            self.assertIsNone(self.sheet.column(cpu).formula("Fetch_Latency"))
            self.assertFalse(self.sheet.column(cpu).has("Fetch_Latency"))
        self.assertEqual(self.sheet.column("OLD").formula("Fetch_Latency"), "#Pipeline_Width * CYCLES / SLOTS")
        self.assertIsNone(self.sheet.column("OLD").formula("No_Such_Row"))

    def test_parents_levels_and_children(self):
        rows = {row.name: row for row in self.sheet.rows}
        self.assertEqual((rows["ICache_Misses"].level, rows["ICache_Misses"].parent), (3, "Fetch_Latency"))
        self.assertEqual((rows["Fetch_Bandwidth"].level, rows["Fetch_Bandwidth"].parent), (2, "Frontend_Bound"))
        self.assertEqual((rows["Bad_Speculation"].level, rows["Bad_Speculation"].parent), (1, None))
        self.assertFalse(rows["SLOTS"].is_node)
        self.assertEqual(rows["SLOTS"].metric_name, "Info_Thread_SLOTS")
        self.assertEqual(self.sheet.column("OLD").children("Frontend_Bound"), ["Fetch_Latency", "Fetch_Bandwidth"])
        self.assertEqual(self.sheet.column("NEW").children("Frontend_Bound"), ["Fetch_Bandwidth"])

    def test_the_two_ways_of_a_perf_metrics_cell(self):
        self.assertEqual(register_and_general(self.sheet.column("NEW").formula("Frontend_Bound")),
                         ("PERF_METRICS.FRONTEND_BOUND / #PERF_METRICS_SUM", "IDQ_BUBBLES.CORE / SLOTS"))
        self.assertIsNone(register_and_general(self.sheet.column("OLD").formula("Frontend_Bound")))

    def test_an_unknown_column_or_file_is_an_error(self):
        with self.assertRaisesRegex(GeneratorError, "no column NOPE"):
            self.sheet.column("NOPE")
        with self.assertRaisesRegex(GeneratorError, "cannot read the TMA spreadsheet"):
            TmaSheet.read(os.path.join(self.folder.name, "absent.csv"))


if __name__ == "__main__":
    unittest.main()
