#!/usr/bin/env python3
"""Generates topdown's Arm models from Arm's telemetry data.

    tools/modelgen/arm_model.py [--telemetry DIR] [--out DIR] [--check]

For each Arm CPU of the telemetry folder (default:
../shared/reference/arm-telemetry beside the source tree) it writes
models/<name>.model and models/events/arm_<name>.events; revisions whose
data differ get a model each. Descriptions and advice come from
arm_text.ini, our own words. Run by a developer after changing the
generator, the text or the pinned data; the output is committed. Standard
library only.
"""

import argparse
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from arm_telemetry import read_products, revision_runs  # noqa: E402
from arm_writer import ArmModel, write_event_table, write_model  # noqa: E402
from generated_files import check, write_atomically  # noqa: E402
from perfmon import GeneratorError  # noqa: E402
from text_table import read_text_table  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))


def model_name(product, first_stepping, has_later_runs):
    """neoverse-v2, arm-c1-pro; an older revision with other data: arm-c1-pro-r0p0."""
    words = product.lower().replace(" ", "-")
    name = words if words.startswith("neoverse") else "arm-" + words
    return name + (f"-r{first_stepping >> 4}p{first_stepping & 0xF}" if has_later_runs else "")


def models(telemetry_dir):
    for product, files in sorted(read_products(telemetry_dir).items()):
        runs = revision_runs(files)
        for index, (telemetry, lowest, highest) in enumerate(runs):
            has_later_runs = index + 1 < len(runs)
            name = model_name(product, telemetry.stepping, has_later_runs)
            yield ArmModel(name, telemetry, lowest, highest)


def run(args, out, quiet=False):
    try:
        text = read_text_table(args.text)
        for model in models(args.telemetry):
            model.build(text)
            write_atomically(os.path.join(out, f"{model.name}.model"), write_model(model, args.telemetry))
            write_atomically(os.path.join(out, "events", f"{model.table_name}.events"), write_event_table(model))
            if not quiet:
                print(f"{model.name}: {len(model.nodes)} tree nodes, {len(model.infos)} Info metrics")
    except GeneratorError as error:
        print(f"arm_model: {error}", file=sys.stderr)
        return 1
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--telemetry", default=os.path.join(SOURCE, "..", "shared", "reference", "arm-telemetry"))
    parser.add_argument("--out", default=os.path.join(SOURCE, "models"))
    parser.add_argument("--text", default=os.path.join(HERE, "arm_text.ini"))
    parser.add_argument("--check", action="store_true",
                        help="generate into a scratch folder and fail if --out's files differ (exit 1) "
                             "or the telemetry folder is missing (exit 77)")
    args = parser.parse_args()
    if args.check:
        return check(args.telemetry, args.out, "arm_model", lambda scratch: run(args, scratch, quiet=True))
    return run(args, args.out)


if __name__ == "__main__":
    sys.exit(main())
