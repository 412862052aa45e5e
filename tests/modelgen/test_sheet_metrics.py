#!/usr/bin/env python3
"""tools/modelgen/sheet_metrics.py on a small sheet of Intel's layout: a
client CPU's metrics made from its column (empty cells read from the client
columns to the right, never a server's), auxiliary terms and `##` sums
expanded, `$PEBS` weights, conditions on constants decided, thresholds over
the ancestors in percent, the CPU's Locate-with event."""

import os
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "modelgen"))
from sheet_metrics import sheet_metrics  # noqa: E402
from tma_sheet import TmaSheet  # noqa: E402

SHEET = """TMA,Version,5.2-full
.,,,,,,,,Server,,,
Key,Level1,Level2,Level3,Level4,Level5,Level6,NEW,SRV,OLD,Locate-with,Count Domain,Metric Description,Threshold,Version,Metric Group
FE,Frontend_Bound,,,,,,PERF_METRICS.FRONTEND_BOUND / #PERF_METRICS_SUM if #PERF_METRICS_MSR else IDQ.X / SLOTS,,,OLD ? #NA : FRONTEND_RETIRED.LATENCY_GE_4_PS,Slots,d,> 0.15,5,TmaL1
FE,,Fetch_Latency,,,,,,SERVER_ONLY.EVENT / CLKS,FETCH.STALLS*$PEBS / CLKS,,Clocks,d,> 0.1 & P,5,TmaL2
FE,,Fetch_Bandwidth,,,,,,,Frontend_Bound - ##Frontend_Bound + Fetch_Latency,,Slots,d,> 0.2,5,TmaL2
FE,,,Local_MEM,,,,,,LOCAL.DRAM / CLKS,,Clocks,d,> 0.1 & P,5,Server
BAD,Bad_Speculation,,,,,,,,"LOADS*min($PEBS, #Cost) / CLKS if #DS else #NA",,Slots,d,> 0.15,5,TmaL1
Info.Thread,CLKS,,,,,,,,CPU_CLK_UNHALTED.THREAD,,,d,,5,
Info.Memory.TLB,Walks,,,,,,,,WALKS:c1 / CLKS,,,d,< 3,5,
Aux,#PERF_METRICS_SUM,,,,,,,,PERF_METRICS.FRONTEND_BOUND + PERF_METRICS.RETIRING,,,,,,
Aux,#Cost,,,,,,,,4 * 2,,,,,,
Aux,#DS,,,,,,,,0,,,,,,
"""


class SheetMetricsTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        path = os.path.join(self.folder.name, "sheet.csv")
        with open(path, "w", encoding="utf-8") as out:
            out.write(SHEET)
        self.header, metrics = sheet_metrics(TmaSheet.read(path).column("NEW"))
        self.by_name = {m.name: m for m in metrics}

    def tearDown(self):
        self.folder.cleanup()

    def test_version_and_metrics(self):
        self.assertEqual(self.header, {"TmaVersion": "5.2"})
        # Local_MEM is of the Server group; Bad_Speculation is #NA where #DS is 0.
        self.assertEqual(sorted(self.by_name),
                         ["Fetch_Bandwidth", "Fetch_Latency", "Frontend_Bound", "Info_Memory_TLB_Walks",
                          "Info_Thread_CLKS"])

    def test_register_branch_with_aux_expanded(self):
        self.assertEqual(self.by_name["Frontend_Bound"].base_formula,
                         "perf_metrics.frontend_bound / (perf_metrics.frontend_bound + perf_metrics.retiring)")

    def test_empty_cell_skips_server_columns_and_pebs_is_retire_latency(self):
        self.assertEqual(self.by_name["Fetch_Latency"].base_formula,
                         "(fetch.stalls * fetch.stalls:retire_latency) / tma_info_thread_clks")

    def test_children_sum(self):
        self.assertEqual(self.by_name["Fetch_Bandwidth"].base_formula,
                         "tma_frontend_bound - (tma_fetch_latency + tma_fetch_bandwidth) + tma_fetch_latency")

    def test_tree_place_domain_and_sample(self):
        latency = self.by_name["Fetch_Latency"]
        self.assertEqual((latency.level, latency.parent, latency.domain, latency.is_node), (2, "Frontend_Bound",
                                                                                          "Clocks", True))
        self.assertEqual(self.by_name["Frontend_Bound"].locate, ["FRONTEND_RETIRED.LATENCY_GE_4"])
        self.assertFalse(self.by_name["Info_Thread_CLKS"].is_node)

    def test_thresholds_in_percent_over_the_ancestors(self):
        latency = self.by_name["Fetch_Latency"]
        self.assertEqual(latency.threshold, "a > 10 & b > 15")
        self.assertEqual(latency.threshold_metrics, {"a": "metric_TMA_Fetch_Latency", "b": "metric_TMA_Frontend_Bound"})
        self.assertEqual(self.by_name["Fetch_Bandwidth"].threshold, "a > 20")
        self.assertEqual(self.by_name["Info_Memory_TLB_Walks"].threshold, "a < 3")


if __name__ == "__main__":
    unittest.main()
