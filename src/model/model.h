#pragma once
// A TMA model: the tree of nodes, Info metrics, constants and shared
// definitions for one CPU family, loaded from a data file (models/*.model).
// See docs/model-format.md for the file format.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "cpu/cpu_info.h"
#include "expr/expression.h"

namespace topdown::model {

struct Node {
  std::string name;         // TMA name: Frontend_Bound, Fetch_Latency, ...
  std::string vendor_name;  // the vendor's own metric name, if any
  std::string parent;       // empty for level-1 nodes and Info metrics
  int level = 0;            // 1..6 for tree nodes, 0 for Info metrics
  bool is_info = false;     // an Info metric (IPC, CPI, ...) not a tree node
  expr::Expression formula;
  // Another formula with the same value that the scheduler may use instead
  // when it needs fewer events (e.g. "level 1 sums to 1").
  std::optional<expr::Expression> identity;
  // What the node is when the counts lack events of `formula` (and of
  // `identity`) but have these: a lesser form, such as level 1 from the
  // PERF_METRICS fields alone where TMA 5.x also corrects by events perf
  // stat --topdown does not count. Only import uses it, and marks the value
  // (and every value computed from it) approximate.
  std::optional<expr::Expression> fallback;
  // Boolean expression; `this` is the node's own value, `parent_over` whether
  // the parent is over its threshold, `over(NODE)` whether another node is.
  // Nodes without one are never "over".
  std::optional<expr::Expression> threshold;
  std::string domain;  // Slots, Clocks, Stalls, ... (tree nodes)
  std::string unit;    // for Info metrics: "IPC", "GB/s", ...
  std::string area;    // FE, BAD, BE/Mem, ...
  std::vector<std::string> groups;
  std::vector<std::string> sample_events;
  std::string description;  // our own words
  std::string advice;       // what to do when it is the bottleneck (optional)
  SourceLocation where;     // the [node ...] header in the file
};

// Which CPUs a model is for: vendor plus family and optional model and
// stepping ranges (Arm: implementer, part number, variant << 4 | revision).
struct CpuMatch {
  cpu::Vendor vendor = cpu::Vendor::Other;
  unsigned family = 0;
  unsigned model_min = 0;
  unsigned model_max = 0xffffffff;
  unsigned stepping_min = 0;
  unsigned stepping_max = 0xffffffff;
  bool operator==(const CpuMatch&) const = default;
};

// "AMD 0x1A", "Intel 0x6 0x3C-0x3F", "Intel 0x6 0x55 0x5-0xF", "Arm 0x41
// 0xD4F": the spelling of the model file's cpus key.
std::string to_string(const CpuMatch& match);

// Names whose values come from the run rather than from counters or the model:
// smt_enabled, ebs_mode, perf_metrics, num_cpus_online, interval-s, duration_time, #smt_on, #slots, and in
// thresholds `this` and `parent_over` (docs/model-format.md).
bool is_run_variable(std::string_view name);

// The formula name of an event's mean retire latency in cycles:
// "Retire_Latency_" and the event's name with each character other than a
// letter, digit or '_' as '_' (MEM_INST_RETIRED.STLB_HIT_LOADS:
// Retire_Latency_MEM_INST_RETIRED_STLB_HIT_LOADS). A run variable: the run's
// measured value, else the model's [retire_latencies] default, else unknown.
std::string retire_latency_name(std::string_view event);
bool is_retire_latency(std::string_view name);

// For the identifier "over(NODE)" of a threshold: NODE; otherwise nullopt.
std::optional<std::string_view> over_target(std::string_view identifier);

// The counters a CPU of this model has per hardware thread, for plans made
// for another machine (--cpu); 0 where the model does not say.
struct ModelCounters {
  unsigned general = 0;              // with SMT on
  unsigned general_without_smt = 0;  // with SMT off (Intel lends the sibling's counters)
  unsigned fixed = 0;
  unsigned general_for(bool smt_enabled) const {
    return smt_enabled || general_without_smt == 0 ? general : general_without_smt;
  }
  bool operator==(const ModelCounters&) const = default;
};

// What a model file's [model] section says: enough to list the model and to
// choose it for a CPU without reading the rest of the file.
struct ModelHeader {
  std::string name;   // short id used by --cpu: zen4, zen5, hsw, ...
  std::string title;  // "AMD Zen 5 (family 0x1A)"
  std::vector<CpuMatch> cpus;
  // Our own event tables (models/events/<name>.events), the first that knows
  // an event wins.
  std::vector<std::string> event_tables;
  std::string pfm_pmu;  // libpfm4 PMU name for this CPU, empty if none
  // The sysfs PMU the core events open on (cpu_core, cpu_atom on hybrid
  // Intel); empty for the CPU's one core PMU (x86 "cpu", Arm's PMU of the
  // counted CPUs).
  std::string pmu;
  // Which kind of core of a hybrid CPU the model describes ("P-core",
  // "E-core"); empty on CPUs with one kind. Models of one hybrid CPU list the
  // same cpus, each with its own pmu.
  std::string core_type;
  // On a hybrid CPU, the model of its other core type (adl_ecore for adl's
  // P-cores), whose tree is reported beside this one; empty otherwise.
  std::string companion;
  // The method and version the tree follows, as `topdown list --models` shows
  // it ("TMA 5.01", "Arm Topdown Methodology"); empty when the file does not say.
  std::string methodology;
  // The version of that method ("5.2"), a decimal number; empty when the
  // file does not say. One name may have several versions, each its own
  // file: `--cpu NAME@VERSION` picks one, `--cpu NAME` the newest.
  std::string version;
  // The event that counts the core's clock (unhalted cycles): runs of one
  // file counted one after another are joined through it, since runs of one
  // plan agree in cycles better than in time. Empty: joined through time.
  std::string clock;
  ModelCounters counters;
  std::filesystem::path source;

  // "spr@5.01" when the model has a version, else its name: what --cpu
  // takes for exactly this model, and what a recording remembers.
  std::string versioned_name() const;
  bool matches(const cpu::CpuId& id) const;
  // The model is for `cpu`: for its id, or for one of its core kinds (an Arm
  // big.LITTLE system's little cores).
  bool runs_on(const cpu::CpuInfo& cpu) const;
  bool operator==(const ModelHeader&) const = default;
};

// One [retire_latencies] entry: an event whose mean retire latency formulas use.
struct RetireLatency {
  std::string event;           // MEM_INST_RETIRED.STLB_HIT_LOADS
  std::optional<double> mean;  // the vendor's mean; none: only a measured value serves
  bool operator==(const RetireLatency&) const = default;
};

struct Model : ModelHeader {
  std::map<std::string, double, std::less<>> constants;
  // By formula name (retire_latency_name).
  std::map<std::string, RetireLatency, std::less<>> retire_latencies;
  // Shared definitions (SLOTS, CORE_CLKS, ...) in file order; a definition may
  // use constants, events, run variables, earlier definitions and nodes.
  std::vector<std::pair<std::string, expr::Expression>> definitions;
  std::vector<Node> nodes;  // tree nodes in depth-first file order, then Info metrics

  const Node* find(std::string_view wanted) const;  // by TMA name or vendor name
  // Tree nodes under `parent`, in order; children("") are the level-1 nodes.
  std::vector<const Node*> children(std::string_view parent) const;
};

// Orders two method versions as the decimal numbers they are (5.01 < 5.1 <
// 5.2): negative when `a` is older, 0 when they are the same version,
// positive when `a` is newer. Both must pass is_version.
int compare_versions(std::string_view a, std::string_view b);
// Digits with at most one '.' between digits: "5.2", "4".
bool is_version(std::string_view text);

// Loads one model file. Throws ParseError naming file, line and column for
// syntax errors, unknown keys, bad formulas, unknown parents, duplicate or
// cyclic nodes.
Model load_model(const std::filesystem::path& file);

// The [model] section of `file` alone, checked as load_model checks it;
// reading stops at the section header after it.
ModelHeader load_header(const std::filesystem::path& file);

// The header of every *.model file in `dir`, by file name; throws on a
// missing or empty folder, the first bad header, and two files defining one
// model name and version.
std::vector<ModelHeader> load_headers(const std::filesystem::path& dir);

// The model for `name` (a --cpu argument: a model's name, or the start of one
// model's name or title, with an optional `@VERSION`) or else the first whose
// cpus fit `id`; of a name with several versions, the newest unless `name`
// pins one. Only the headers are read to choose; then the chosen file is
// loaded. Throws Error naming the nearest models when none fits, and the
// versions there are when the pinned one is not among them.
Model select_model(const std::filesystem::path& dir, const cpu::CpuId& id, const std::string& name_override = "");

// The model of each core type: `model` and, on a hybrid CPU, its companion
// from `dir` (which must be of another PMU and core type, else Error naming
// both models).
std::vector<Model> with_companion(Model model, const std::filesystem::path& dir);

// `models` (with_companion's) and, for each hybrid core PMU of `cpu` that
// none of them counts on, the model in `dir` of that further core type: the
// one counting on the PMU (cpu_lowpower: Arrow Lake-H's low-power E-cores)
// whose cpus share a CPU with the first model's. A companion names one other
// core type; a third is found by its PMU.
std::vector<Model> with_core_type_pmus(std::vector<Model> models, const cpu::CpuInfo& cpu,
                                       const std::filesystem::path& dir);

// The model of each core kind of an Arm CPU with several (big.LITTLE), when
// `model` is one of theirs: each bound to the core PMU that counts on its
// kind (`pmu`) and named in reports by its title (`core_type`): `model`'s
// kind first, then the kinds Linux numbers last (the big cores) first. A
// kind without a model in `dir` or without a core PMU of its own is left
// out (uncounted_core_kinds says which). Just `model` on other CPUs, or
// when no kind is left.
std::vector<Model> with_core_kinds(Model model, const cpu::CpuInfo& cpu, const std::filesystem::path& dir);

// A core kind that with_core_kinds left out, and why.
struct UncountedKind {
  enum class Why {
    NoModel,    // no model in the directory fits its MIDR
    NoPmu,      // no core PMU counts on all its CPUs
    SharedPmu,  // its core PMU is another kind's, whose model counts on it
  };
  cpu::CoreKind kind;
  Why why = Why::NoModel;
  std::string pmu;            // its PMU (NoModel, SharedPmu)
  std::string counted_model;  // SharedPmu: the model counting on that PMU
};

// The core kinds of `cpu` that none of `models` (with_core_kinds') counts;
// none when the models are not bound to this CPU's kinds (a CPU of one
// kind, another CPU's model, a metrics file).
std::vector<UncountedKind> uncounted_core_kinds(const cpu::CpuInfo& cpu, const std::vector<Model>& models);

}  // namespace topdown::model
