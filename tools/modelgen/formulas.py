"""perfmon's formulas and thresholds in topdown's expression language.

BaseFormula names other metrics as `tma_<lower-case name>` and events in
lower case; tree nodes are fractions in it, as in topdown. Thresholds are
written over the metrics' legacy names in perfmon's units (tree nodes in
percent); they become `this > 0.15 and parent_over` and the like.
"""

import ast
import re

from perfmon import GeneratorError, NotCountable

TOKEN = re.compile(r"\s*(?:(?P<number>\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)"
                   r"|(?P<name>[A-Za-z_#][A-Za-z0-9_.#]*(?::[A-Za-z0-9_]+(?:=[0-9A-Fa-fx]+)?)*)"
                   r"|(?P<op><=|>=|==|!=|[-+*/(),<>&|]))")

# perfmon's spelling of run facts -> topdown's run variables and events.
RUN_TERMS = {
    "smt_on": "smt_enabled",
    "tsc": "msr/tsc/",
    "duration_time": "duration_time",
    "num_cpus": "#num_cpus_online",
}
KEYWORDS = {"if", "else", "and", "or", "not", "min", "max"}
# perfmon's machine sizes: run variables from the CPU probe (sockets and the
# cores of each from sysfs topology; CHA boxes are the uncore_cha_N PMUs) or
# an import's counts file.
MACHINE_SIZES = {"SOCKET_COUNT": "#socket_count", "CHAS_PER_SOCKET": "#chas_per_socket",
                 "CORES_PER_SOCKET": "#cores_per_socket"}

NAME_SPLIT_BY_BLANKS = re.compile(r"(\w)\s+(_\w)")


def safe_name(name):
    """A model name may not start with a digit (perfmon's 4K_Aliasing)."""
    return "G" + name if name[0].isdigit() else name


def tokens(text, where):
    position, out = 0, []
    text = text.strip()
    while position < len(text):
        match = TOKEN.match(text, position)
        if not match or match.end() == position:
            raise GeneratorError(f"{where}: cannot read '{text[position:position + 30]}' in '{text}'")
        out.append((match.lastgroup, match.group(match.lastgroup)))
        position = match.end()
    return out


class FormulaTranslator:
    """Translates the formulas of one CPU's metrics.

    metric_names: `tma_x` -> MetricName for every metric of the file.
    event_spelling: a callable from a perfmon event (upper case, with
    modifiers) to topdown's spelling; it raises when the event cannot be
    counted (the metric is then left out).
    """

    def __init__(self, metric_names, event_spelling):
        self.metric_names = metric_names
        self.event_spelling = event_spelling

    def base_formula(self, text, where):
        # EMR's TMA 5.2 file writes a name with blanks before its next part
        # (tma_info_system  _smt_2t_utilization); no name starts with '_'.
        text = NAME_SPLIT_BY_BLANKS.sub(r"\1\2", text)
        check_python_syntax(text, where)
        out = []
        for kind, value in tokens(text, where):
            if kind != "name" or value in KEYWORDS:
                out.append(value)
            elif value in self.metric_names:
                out.append(self.metric_names[value])
            elif value.startswith("tma_"):
                raise GeneratorError(f"{where}: names {value}, which no metric of the file is")
            elif value in RUN_TERMS:
                out.append(RUN_TERMS[value])
            else:
                out.append(self.event_spelling(perfmon_event(value), where))
        return join(out)

    def alias_formula(self, metric, where):
        """A metric without BaseFormula: its Formula over one-letter aliases."""
        check_python_syntax(metric.formula, where)
        spelled = {alias: self.event_spelling(event, where) for alias, event in metric.events.items()}
        out = []
        for kind, value in tokens(metric.formula, where):
            if kind != "name" or value in KEYWORDS:
                out.append(value)
            elif value in metric.events:
                out.append(spelled[value])
            elif value in metric.constants:
                out.append(constant(metric.constants[value], where))
            elif value == "DURATIONTIMEINSECONDS":
                out.append("duration_time")
            else:
                raise GeneratorError(f"{where}: '{value}' is neither an alias nor a known name")
        return join(out)


def check_python_syntax(text, where):
    """perfmon's formulas are Python expressions; one that Python cannot read
    (perfmon has a few: `if 0 > 2 else ...`, `> =`) is a mistake in the file,
    and the metric is left out rather than guessed at."""
    try:
        python = " ".join(value if kind != "name" or value in KEYWORDS else "v" for kind, value in tokens(text, where))
        compile(python.replace("&", " and ").replace("|", " or "), where, "eval")
    except (GeneratorError, SyntaxError) as error:
        reason = error.msg if isinstance(error, SyntaxError) else "an unknown character"
        raise NotCountable(f"perfmon's formula is not a valid expression ({reason}: {text.strip()[:50]}...)")


def constant(name, where):
    if name == "SYSTEM_TSC_FREQ":
        return "msr/tsc/"
    if name == "DURATIONTIMEINMILLISECONDS":
        return "(1000 * duration_time)"
    if name in ("HYPERTHREADING_ON",):
        return "smt_enabled"
    if name == "THREADS_PER_CORE":
        return "(2 if smt_enabled else 1)"
    if name in MACHINE_SIZES:
        return MACHINE_SIZES[name]
    if re.fullmatch(r"\d+(\.\d+)?", name):
        return name
    raise NotCountable(f"topdown has no value for perfmon's constant {name}")


def perfmon_event(lower):
    """'cpu_clk_unhalted.thread_p:sup' -> 'CPU_CLK_UNHALTED.THREAD_P:sup'."""
    base, _, modifiers = lower.partition(":")
    return base.upper() + (":" + modifiers if modifiers else "")


def join(parts):
    text = ""
    for part in parts:
        if text and not text.endswith("(") and part not in (")", ","):
            text += " "
        text += part
    return text.replace("( ", "(")


# ------------------------------------------------------------ thresholds

class ThresholdTranslator:
    """perfmon's Threshold.Formula -> topdown's threshold of one metric."""

    def __init__(self, by_legacy_name, thresholds_by_name):
        self.by_legacy_name = by_legacy_name        # LegacyName -> Metric
        self.nodes_by_name = {m.name: m for m in by_legacy_name.values() if m.is_node}
        self.thresholds_by_name = thresholds_by_name  # MetricName -> its parsed terms, filled as we go

    def translate(self, metric, where):
        if not metric.threshold:
            return None
        python, aliases, percent = self.aliased(metric)
        python = python.replace("&&", "&").replace("||", "|").replace("&", " and ").replace("|", " or ")
        try:
            tree = ast.parse(python, mode="eval").body
        except SyntaxError as error:
            raise GeneratorError(f"{where}: threshold '{metric.threshold}' does not parse ({error.msg})")
        names = {}
        for alias, legacy in aliases.items():
            if legacy not in self.by_legacy_name:
                raise GeneratorError(f"{where}: threshold names {legacy}, which no metric of the file is")
            names[alias] = self.by_legacy_name[legacy]
        terms = [Expression(names, metric, where, percent).text(node) for node in conjuncts(tree)]
        self.thresholds_by_name[metric.name] = [t.replace("this", safe_name(metric.name)) for t in terms]
        return self.fold_parent(metric, terms)

    def aliased(self, metric):
        """The threshold over aliases, the aliases, and whether its numbers are percent.

        TMA 5 files alias the metrics (ThresholdMetrics) and compare tree
        nodes in percent. The E-core TMA 3.6 files (Sierra Forest, Grand
        Ridge) write the legacy names themselves and compare with fractions
        (`metric_TMA_Frontend_Bound(%) >0.20` means 20%)."""
        if metric.threshold_metrics:
            return metric.threshold, metric.threshold_metrics, True
        text, aliases = metric.threshold, {}
        for number, legacy in enumerate(sorted(self.by_legacy_name, key=len, reverse=True)):
            if legacy in text:
                alias = f"m{number}"
                text = text.replace(legacy, alias)
                aliases[alias] = legacy
        return text, aliases, False

    def fold_other_nodes(self, metric):
        """A comparison that is exactly another node's whole threshold becomes
        over(Node) (Retiring's `Heavy_Operations > 0.1`): the same flag, and
        the report says which node's threshold it is."""
        text = metric.threshold_text
        for name, terms in self.thresholds_by_name.items():
            node = self.nodes_by_name.get(name)
            if node and name != metric.name and len(terms) == 1:
                text = re.sub(r"(?<![\w.])" + re.escape(terms[0]) + r"(?![\w.])", f"over({safe_name(name)})", text)
        return text

    def fold_parent(self, metric, terms):
        """Terms that are exactly the parent's own threshold become parent_over."""
        parent_terms = self.thresholds_by_name.get(metric.parent) if metric.parent else None
        if parent_terms and all(t in terms for t in parent_terms) and len(terms) > len(parent_terms):
            terms = [t for t in terms if t not in parent_terms] + ["parent_over"]
        return " and ".join(terms)


def conjuncts(node):
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return [part for value in node.values for part in conjuncts(value)]
    return [node]


class Expression:
    """Writes a threshold's AST in topdown's language; a number compared with
    a tree node is divided by 100 (perfmon's percent -> our fraction)."""

    def __init__(self, names, metric, where, percent):
        self.names = names
        self.metric = metric
        self.where = where
        self.percent = percent

    def text(self, node):
        if isinstance(node, ast.BoolOp):
            word = " and " if isinstance(node.op, ast.And) else " or "
            return "(" + word.join(self.text(v) for v in node.values) + ")"
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return "not " + self.text(node.operand)
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right = node.left, node.comparators[0]
            op = COMPARISONS[type(node.ops[0])]
            # The usual form, a node against a number, keeps the number in
            # our unit; anything else reads the node in perfmon's percent.
            unit = PERCENT if self.percent else 1.0
            for one, other in ((left, right), (right, left)):
                if self.is_node(one) and self.is_number(other):
                    scaled = number(self.value(other) / unit)
                    named = self.arithmetic(one, 1)
                    return f"{named} {op} {scaled}" if one is left else f"{scaled} {op} {named}"
            return f"{self.arithmetic(left, unit)} {op} {self.arithmetic(right, unit)}"
        raise GeneratorError(f"{self.where}: threshold '{self.metric.threshold}' has a form the generator "
                             f"does not know ({ast.dump(node)[:60]})")

    def is_node(self, node):
        return isinstance(node, ast.Name) and self.names[node.id].is_node

    @staticmethod
    def is_number(node):
        return not any(isinstance(part, ast.Name) for part in ast.walk(node))

    def value(self, node):
        return eval(compile(ast.Expression(node), self.where, "eval"), {"__builtins__": {}})  # numbers only

    def arithmetic(self, node, node_scale):
        if self.is_number(node):
            return number(self.value(node))
        if isinstance(node, ast.Name):
            target = self.names[node.id]
            name = "this" if target.name == self.metric.name else safe_name(target.name)
            return f"({number(node_scale)} * {name})" if target.is_node and node_scale != 1 else name
        if isinstance(node, ast.BinOp) and type(node.op) in ARITHMETIC:
            left = self.arithmetic(node.left, node_scale)
            right = self.arithmetic(node.right, node_scale)
            return f"({left} {ARITHMETIC[type(node.op)]} {right})"
        raise GeneratorError(f"{self.where}: threshold '{self.metric.threshold}' has a term the generator "
                             f"does not know ({ast.dump(node)[:60]})")


COMPARISONS = {ast.Gt: ">", ast.Lt: "<", ast.GtE: ">=", ast.LtE: "<=", ast.Eq: "==", ast.NotEq: "!="}
ARITHMETIC = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}
PERCENT = 100.0


def number(value):
    text = repr(round(value, 12))
    return text[:-2] if text.endswith(".0") else text
