"""Our descriptions, advice and units, one table for every Intel model
(intel_text.ini): `[NAME]` sections of `key = value` entries, values
continued on lines that start with blanks, `#` comments in column 1."""

from perfmon import GeneratorError


def read_text_table(path):
    table, section, key = {}, None, None
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as error:
        raise GeneratorError(f"{path}: cannot read the text table ({error})")
    for number, line in enumerate(lines, 1):
        where = f"{path}:{number}"
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("["):
            if not line.endswith("]"):
                raise GeneratorError(f"{where}: a section header must end with ']'")
            section, key = line[1:-1].strip(), None
            if section in table:
                raise GeneratorError(f"{where}: [{section}] is written twice")
            table[section] = {}
        elif line[0] in " \t":
            if key is None:
                raise GeneratorError(f"{where}: a continuation line without an entry above it")
            table[section][key] += " " + line.strip()
        else:
            if section is None or "=" not in line:
                raise GeneratorError(f"{where}: expected 'key = value' inside a [NAME] section")
            key, value = (part.strip() for part in line.split("=", 1))
            if key in table[section]:
                raise GeneratorError(f"{where}: {key} is written twice in [{section}]")
            table[section][key] = value
    return table
