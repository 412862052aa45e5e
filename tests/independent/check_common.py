"""Pieces shared by the independent checks (check_seed_model.py,
check_perfmon_model.py, check_ecore_model.py): writing a counts file,
running `topdown import` on it for its JSON report, the comparison rule,
and printing mismatches.

Standard library only, and nothing from topdown itself: the checks compute
their reference values on their own and only read topdown's output.

Comparison rule: values a (reference) and b (topdown) agree when both are
n/a, or when |a - b| <= 1e-9 * max(|a|, |b|) + 1e-12. The relative term is
the required 1e-9; the absolute 1e-12 only matters for values that are
differences of O(1) terms and land near 0 (Backend_Bound = 1 - ...), where
the result's own rounding error (~1e-16) is a huge *relative* error.
"""

import json
import math
import os
import signal
import subprocess
import tempfile

SKIP = 77  # ctest's SKIP_RETURN_CODE: the reference files are not here
REL_TOL = 1e-9
ABS_TOL = 1e-12


class CheckError(Exception):
    """The reference cannot be read or topdown failed: exit status 2."""


def missing_input(paths, why=""):
    """Says which input is absent (the test is then skipped); None when all are here."""
    for path in paths:
        if not os.path.exists(path):
            return f"skipped: {path} does not exist{why}"
    return None


def write_counts_file(path, counts, run_variables, note):
    """A counts file (README, "Importing counts"): run variables first, in
    the order given, then one `EVENT COUNT` line per event."""
    with open(path, "w", encoding="utf-8") as out:
        out.write(f"# {note}\n")
        for name, value in run_variables.items():
            out.write(f"{name} {value!r}\n")
        for event in sorted(counts):
            out.write(f"{event} {int(counts[event])}\n")


def import_report(topdown, counts_path, options):
    """topdown's JSON report on the counts file. JSON rather than --csv: the
    CSV prints 9 significant digits, too few for a 1e-9 comparison, while
    the JSON numbers are the doubles themselves."""
    report_path = counts_path + ".json"
    command = [topdown, "import", *options, "--json", "-o", report_path, counts_path]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        how = (f"was killed by {signal.Signals(-done.returncode).name}" if done.returncode < 0
               else f"exited with {done.returncode}")
        raise CheckError(f"{' '.join(command)} {how}: {done.stderr.strip()}")
    try:
        with open(report_path, encoding="utf-8") as report:
            return json.load(report)
    except (OSError, json.JSONDecodeError) as error:
        raise CheckError(f"{' '.join(command)}: no JSON report in {report_path}: {error}")


def agree(expected, got):
    if expected is None or got is None:
        return expected is None and got is None
    if not math.isfinite(got):
        return False
    return abs(expected - got) <= REL_TOL * max(abs(expected), abs(got)) + ABS_TOL


def fmt(value):
    return "n/a" if value is None else repr(value)


def print_grouped(problems):
    """The first mismatch of each key (metric and kind), with how often it recurred."""
    first, repeats = {}, {}
    for key, message in problems:
        first.setdefault(key, message)
        repeats[key] = repeats.get(key, -1) + 1
    for key, message in first.items():
        again = f" (and in {repeats[key]} more counts files)" if repeats[key] else ""
        print(f"MISMATCH {message}{again}")


def in_folder(keep, work):
    """work(folder)'s result, with folder `keep` (made if needed, and kept)
    or, without one, a temporary folder removed afterwards."""
    if keep:
        os.makedirs(keep, exist_ok=True)
        return work(keep)
    with tempfile.TemporaryDirectory() as folder:
        return work(folder)


def conclude(problems, notes, compared, agreement):
    """Prints the notes, then the mismatches or `ok: agreement: compared`; the exit status."""
    for note in notes:
        print(f"note: {note}")
    if problems:
        print_grouped(problems)
        print(f"{len(problems)} mismatches ({len({key for key, _ in problems})} distinct values, flags or "
              f"structure problems); {compared}")
        return 1
    print(f"ok: {agreement}: {compared}")
    return 0


def reported_entries(report):
    """topdown's nodes and Info metrics, each as (kind, entry), by the
    vendor's name: the entry's vendor_name where it has one, else its name."""
    entries = {}
    for kind in ("nodes", "info"):
        for entry in report.get(kind, []):
            entries[entry.get("vendor_name") or entry["name"]] = (kind, entry)
    return entries
