"""The events a generated model counts: their spelling in formulas, and the
event table (models/events/intel_<cpu>.events) with each encoding and
counter restriction taken from perfmon's core events JSON."""

import os
import re

from perfmon import GeneratorError, NotCountable

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED_TABLE = os.path.join(HERE, "..", "..", "models", "events", "intel_core.events")

# The modifiers perfmon writes after an event, as topdown's formulas spell
# them ('=' is escaped in a formula). perf_metrics marks TOPDOWN.SLOTS read
# with the PERF_METRICS fields: topdown always reads them so.
KEPT_MODIFIER = re.compile(r"(c|e|i|eq)\d+|u0x[0-9a-fA-F]+|percore")
CASED_MODIFIERS = {"sup": "SUP", "user": "USER"}
OFFCORE_VALUE = re.compile(r"ocr_msr_val=(0x[0-9a-fA-F]+)")
RETIRE_LATENCY = "retire_latency"

# perf's pseudo-encodings of the fixed counters.
FIXED_ENCODINGS = {0: "event=0xc0", 1: "event=0x3c", 2: "event=0x0,umask=0x3", 3: "event=0x0,umask=0x4"}
EXTRA_REGISTER_TERMS = {"0x1a6": "offcore_rsp", "0x3f7": "frontend", "0x3f6": "ldlat"}


def shared_event_names():
    """Events the shared table intel_core.events spells (fixed counters, PERF_METRICS, TSC)."""
    names = set()
    with open(SHARED_TABLE, encoding="utf-8") as handle:
        for line in handle:
            if line.strip() and not line.startswith("#"):
                names.add(line.split("=", 1)[0].strip())
    return names


# perfmon's uncore units of the server parts, as the kernel names their PMUs
# (each registered once per box: uncore_cha_0, uncore_cha_1, ...).
UNCORE_PMUS = {"CHA": "uncore_cha", "iMC": "uncore_imc", "IMC": "uncore_imc", "UPI LL": "uncore_upi",
               "M2M": "uncore_m2m", "M3UPI": "uncore_m3upi", "IRP": "uncore_irp", "CBO": "uncore_cbox",
               "HA": "uncore_ha", "QPI LL": "uncore_qpi", "PCU": "uncore_pcu", "UBOX": "uncore_ubox",
               "B2CMI": "uncore_b2cmi", "IIO": "uncore_iio"}
# The IIO boxes' port and function masks: the kernel's ch_mask and fc_mask
# terms, whose bits each generation's format files give.
IIO_MASK_TERMS = {"PortMask": "ch_mask", "FCMask": "fc_mask"}
# Modifiers of uncore events: one_unit counts on the first box only.
UNCORE_MODIFIER = re.compile(r"c\d+|one_unit")
# A box filter a metric sets on an event (filter1=0x40433, opc=0x182).
FILTER_MODIFIER = re.compile(r"(filter1|opc)=(0x[0-9a-fA-F]+)")
# The box filters topdown programs, through perf's config1, whose low half
# the kernel writes to a box's filter register 0 and high half to register 1:
# Skylake and Cascade Lake server CHAs' filter 1 whole (perfmon's FILTER_VALUE
# or a metric's filter1=), and Haswell and Broadwell server CBos' opcode
# field, filter 1 bits 20-28 (a metric's opc=).
CHA_FILTER1 = {"Filter1", "CHAFilter1[31:0]", "CHAfilter1"}
CBO_OPCODE_FILTER = "CBoFilter1[28:20]"
CBO_OPCODE_BITS = 9


class EventTable:
    def __init__(self, events, retire_latencies, uncore_events=None, extras=None):
        self.events = events
        # intel_extra.ini's events (written as given) and terms (spelled as given).
        self.extra_events = extras.events if extras else {}
        self.terms = extras.terms if extras else {}
        self.not_countable = extras.not_countable if extras else {}
        # By upper-case name: perfmon's metrics write UNC_UPI_TXL_FLITS where its events say TxL.
        self.uncore_events = {name.upper(): event for name, event in (uncore_events or {}).items()}
        self.retire_latencies = retire_latencies
        self.shared = shared_event_names()
        self.used = set()
        # An uncore event with the box filter a metric sets, by the name formulas
        # use (filtered_name): its perfmon event and the filter modifiers.
        self.filtered = {}
        self.latencies_used = {}  # event -> perfmon's mean, or None where the run must measure it

    def spell(self, perfmon_event, where):
        base, *modifiers = perfmon_event.split(":")
        if base == "TSC":
            return "msr/tsc/"
        if RETIRE_LATENCY in modifiers:
            return self.retire_latency(base)
        if base in self.not_countable:
            raise NotCountable(f"{base}: {self.not_countable[base]}")
        if base in self.terms and not modifiers:
            self.mark_used(self.terms[base])
            return f"({self.terms[base]})"
        if base in self.extra_events:
            self.used.add(base)
            return perfmon_event
        if base.upper() in self.uncore_events and base not in self.events:
            return self.spell_uncore(base.upper(), modifiers, perfmon_event)
        if base not in self.events and base not in self.shared:
            raise NotCountable(f"{base} is not a core event of this CPU")
        spelled = base
        for modifier in modifiers:
            offcore = OFFCORE_VALUE.fullmatch(modifier)
            if modifier == "perf_metrics":
                continue
            if modifier.lower() in CASED_MODIFIERS:
                spelled += ":" + CASED_MODIFIERS[modifier.lower()]
            elif KEPT_MODIFIER.fullmatch(modifier):
                spelled += ":" + modifier
            elif offcore:
                spelled += ":ocr_msr_val\\=" + offcore.group(1)
            else:
                raise NotCountable(f"{where}: topdown has no modifier '{modifier}' ({perfmon_event})")
        self.used.add(base)
        return spelled

    def mark_used(self, formula):
        """The events a formula written in topdown's language names."""
        self.used |= {name for name in re.findall(r"[A-Za-z0-9_./-]+", formula)
                      if name in self.events or name in self.extra_events}

    def spell_uncore(self, base, modifiers, perfmon_event):
        filters = [m for m in modifiers if FILTER_MODIFIER.fullmatch(m)]
        others = [m for m in modifiers if m not in filters]
        # Raises when it cannot be counted.
        uncore_encoding(self.uncore_events[base], self.uncore_counters(base), filters)
        for modifier in others:
            if not UNCORE_MODIFIER.fullmatch(modifier):
                raise NotCountable(f"topdown has no uncore modifier '{modifier}' ({perfmon_event})")
        name = filtered_name(base, filters)
        if filters:
            self.filtered[name] = (base, filters)
        self.used.add(name)
        return ":".join([name] + others)

    def countable_uncore(self, base):
        try:
            uncore_encoding(self.uncore_events[base], self.uncore_counters(base))
            return True
        except NotCountable:
            return False

    def uncore_counters(self, base):
        """Every counter of the event's unit, as the unit's events list them."""
        unit = self.uncore_events[base]["Unit"]
        return {int(c) for e in self.uncore_events.values() if e["Unit"] == unit
                for c in e.get("Counter", "").split(",") if c.strip().isdigit()}

    def retire_latency(self, base):
        """The formula name of the event's mean retire latency: perfmon's mean where it publishes one,
        else the model lists it as measured (the run gives it, or the nodes using it are n/a)."""
        self.latencies_used[base] = self.retire_latencies.get(base)
        return "Retire_Latency_" + re.sub(r"\W", "_", base)

    def sample_event(self, name):
        """LocateWith's event as a sampling event (precise when perfmon says so), or None."""
        event = self.events.get(name)
        if event is None:
            return None
        precise = event.get("Precise", event.get("PEBS", "0")) not in ("0", "")
        self.used.add(name)
        return name + (":pp" if precise else "")

    def general_counters(self, field):
        counts = [int(c) for e in self.events.values() for c in e.get(field, "").split(",") if c.strip().isdigit()]
        return max(counts) + 1 if counts else 0

    def fixed_counters(self):
        """The highest fixed counter + 1 (Skymont has 0-2 and 4-6, no 3)."""
        fixed = [int(e["Counter"].split()[-1]) for e in self.events.values() if e["Counter"].startswith("Fixed counter")]
        return max(fixed) + 1 if fixed else 0

    def write(self, cpu, hand_written=False):
        which = "hand-written model names" if hand_written else "model counts"
        source = f"perfmon's {', '.join(cpu.events)}" + (" and intel_extra.ini" if self.extra_events else "")
        lines = [f"# {cpu.title}: the encodings and counter restrictions of the events its",
                 f"# {which}, from {source}. Generated by",
                 "# tools/modelgen/intel_model.py; do not edit. Fixed-counter, PERF_METRICS",
                 "# and TSC events come from intel_core.events.", ""]
        all_counters = set(range(self.general_counters(counter_field(self.events))))
        for name in sorted(self.used - self.shared):
            if name in self.extra_events:
                lines.append(f"{name} = {self.extra_events[name]}")
            elif name in self.events:
                lines.append(f"{name} = {encoding(self.events[name], all_counters)}")
            elif name in self.filtered:
                base, filters = self.filtered[name]
                lines.append(f"{name} = {uncore_encoding(self.uncore_events[base], self.uncore_counters(base), filters)}")
            else:
                lines.append(f"{name} = {uncore_encoding(self.uncore_events[name], self.uncore_counters(name))}")
        return "\n".join(lines) + "\n"


def counter_field(events):
    """SMT off gives a thread every counter: perfmon's CounterHTOff where it has one."""
    return "CounterHTOff" if any("CounterHTOff" in e for e in events.values()) else "Counter"


def encoding(event, all_counters):
    field = counter_field({"e": event})
    counter = event[field]
    code = event["EventCode"].split(",")[0].strip().lower()
    terms = [f"event={code}", f"umask={event['UMask'].lower()}"]
    # The unit mask's extension (Lion Cove on): the PMU's umask2 field,
    # without which the event counts another.
    umask_ext = int(event.get("UMaskExt") or "0", 16)
    if umask_ext:
        terms.append(f"umask2={umask_ext:#04x}")
    if counter.startswith("Fixed counter"):
        # Counters 0-3 take perf's pseudo-encodings; the later ones (the
        # E-cores' topdown counters) are found by their own event code.
        index = int(counter.split()[-1])
        return f"cpu/{FIXED_ENCODINGS.get(index, ','.join(terms))}/ fixed={index}"
    for key, term in (("CounterMask", "cmask"), ("Invert", "inv"), ("EdgeDetect", "edge"), ("AnyThread", "any")):
        if event.get(key, "0") not in ("0", ""):
            terms.append(f"{term}={int(event[key], 0)}")
    register = event.get("MSRIndex", "0").split(",")[0].strip().lower()
    if register in EXTRA_REGISTER_TERMS:
        terms.append(f"{EXTRA_REGISTER_TERMS[register]}={event['MSRValue'].lower()}")
    elif int(register, 0) != 0:
        raise GeneratorError(f"{event['EventName']}: extra register {register} is unknown to the generator")
    counters = {int(c) for c in counter.split(",") if c.strip().isdigit()}
    restriction = "" if counters >= all_counters else " counters=" + counter_list(counters)
    return "cpu/" + ",".join(terms) + "/" + restriction


def filtered_name(base, filters):
    """The name formulas and the event table give an uncore event with a box
    filter of a metric's: UNC_C_TOR_INSERTS.MISS_OPCODE:opc=0x182 is
    UNC_C_TOR_INSERTS.MISS_OPCODE.OPC_0x182; without filters, `base`."""
    for modifier in filters:
        term, value = FILTER_MODIFIER.fullmatch(modifier).groups()
        base += f".{term.upper()}_{value}"
    return base


def box_filter_config1(event, filters):
    """perf's config1 for the box filter the event needs (its FILTER_VALUE, or
    the metric's filter1=/opc= modifiers); 0 for an event without one. Raises
    NotCountable for a filter topdown does not program or a value it lacks."""
    name = event["EventName"]
    given = dict(FILTER_MODIFIER.fullmatch(m).groups() for m in filters)
    wanted = event.get("Filter")
    if wanted in CHA_FILTER1 and event.get("Unit") == "CHA" and set(given) <= {"filter1"}:
        value = int(given.get("filter1") or event.get("FILTER_VALUE") or "0", 16)
        if value == 0:
            raise NotCountable(f"{name} needs a value for the CHA's filter 1, which neither the event nor the "
                               "metric gives")
        return value << 32
    if wanted == CBO_OPCODE_FILTER and set(given) == {"opc"}:
        opcode = int(given["opc"], 16)
        if opcode >= 1 << CBO_OPCODE_BITS:
            raise NotCountable(f"{name}: opcode {given['opc']} does not fit the CBo's opcode filter")
        return opcode << (32 + 20)
    if given:
        raise NotCountable(f"{name} takes no box filter {', '.join(sorted(given))} topdown programs")
    return 0


def uncore_encoding(event, unit_counters, filters=()):
    """An uncore event on its unit's PMU family, with the box filter of
    `filters` (FILTER_MODIFIER items); raises NotCountable for what topdown
    cannot program (other box filters, other units' port masks, fixed and
    free-running counters, units it does not know)."""
    name = event["EventName"]
    pmu = UNCORE_PMUS.get(event.get("Unit"))
    if pmu is None:
        raise NotCountable(f"{name} is on the uncore unit {event.get('Unit')}, which topdown does not count")
    if event.get("CounterType", "PGMABLE") not in ("PGMABLE", None):
        raise NotCountable(f"{name} is on a {event['CounterType'].lower()} uncore counter, "
                           "which topdown does not count")
    masks = IIO_MASK_TERMS if pmu == "uncore_iio" else {}
    config1 = box_filter_config1(event, filters)
    for key in ("PortMask", "FCMask", "ExtSel", "FILTER_VALUE"):
        if key not in masks and int(event.get(key) or "0", 0) != 0 and not (key == "FILTER_VALUE" and config1):
            raise NotCountable(f"{name} needs the uncore term {key}, which topdown does not program")
    # Skylake server's list names the IIO masks a filter ("fc, chnl"): they are the terms above.
    if event.get("Filter") not in (None, "", "na") and not config1 and not (
            masks and set(event["Filter"].replace(" ", "").split(",")) <= {"fc", "chnl"}):
        raise NotCountable(f"{name} needs a box filter register ({event['Filter']}), "
                           "which topdown does not program")
    umask_ext = int(event.get("UMaskExt") or "0", 16)
    if masks:
        umask_ext = without_iio_masks(event, umask_ext)
    umask = (umask_ext << 8) | int(event.get("UMask") or "0", 16)
    terms = [f"event={event['EventCode'].lower()}", f"umask={umask:#x}"]
    terms += [f"{term}={int(event[key], 16):#x}" for key, term in masks.items() if int(event.get(key) or "0", 16)]
    if int(event.get("CounterMask") or "0", 0) != 0:
        terms.append(f"thresh={int(event['CounterMask'], 0)}")
    if config1:
        terms.append(f"config1={config1:#x}")
    # Always listed: the scheduler knows an uncore box's counters only from its events.
    counters = {int(c) for c in event.get("Counter", "").split(",") if c.strip().isdigit()} or unit_counters
    return f"{pmu}/{','.join(terms)}/ counters={counter_list(counters)} uncore"


def without_iio_masks(event, umask_ext):
    """Granite Rapids' and Sierra Forest's lists repeat an IIO event's masks in
    its UMaskExt (the port mask from bit 4, the function mask from bit 16:
    config bits 36 and 48, where the kernel's ch_mask and fc_mask put them);
    the rest of the extension is what the unit mask adds."""
    repeated = (int(event.get("FCMask") or "0", 16) << 16) | (int(event.get("PortMask") or "0", 16) << 4)
    if umask_ext and umask_ext != repeated:
        raise NotCountable(f"{event['EventName']}: its UMaskExt {umask_ext:#x} is not its port and function "
                           "masks, which topdown cannot tell apart from the unit mask")
    return 0


def counter_list(counters):
    ordered = sorted(counters)
    if ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]}-{ordered[-1]}" if len(ordered) > 1 else str(ordered[0])
    return ",".join(str(c) for c in ordered)
