"""Writing generated files, and --check's comparison with the committed ones."""

import filecmp
import os
import tempfile


def write_atomically(path, content):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(content)
    os.replace(temporary, path)


def compare(generated, committed, program):
    """1 when a generated file differs from the committed one (the models were
    edited by hand, or the generator or its inputs changed without a rerun)."""
    stale = []
    for folder, _, files in os.walk(generated):
        for file in files:
            relative = os.path.relpath(os.path.join(folder, file), generated)
            theirs = os.path.join(committed, relative)
            if not os.path.exists(theirs) or not filecmp.cmp(os.path.join(folder, file), theirs, shallow=False):
                stale.append(relative)
    for relative in sorted(stale):
        print(f"{program}: {os.path.join(committed, relative)} is not what the generator writes; "
              f"run tools/modelgen/{program}.py and commit the result")
    return 1 if stale else 0


def check(inputs, committed, program, generate):
    """--check: generate(folder) into a scratch folder and compare with the
    committed files; 77 (skipped) when the vendor data are absent."""
    if not os.path.isdir(inputs):
        print(f"{program}: {inputs} is missing; nothing to check against")
        return 77
    with tempfile.TemporaryDirectory() as scratch:
        return generate(scratch) or compare(scratch, committed, program)
