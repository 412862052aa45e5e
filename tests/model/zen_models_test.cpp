// The shipped AMD Zen 4 and Zen 5 models: their structure, and their
// formulas evaluated over synthetic counts that obey the hardware identity
//   frontend + backend + smt_contention + dispatched == width * cycles.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "model/model.h"

namespace topdown::model {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

struct Zen {
  const char* file;
  const char* name;
  double width;
  const char* latency_event;  // frontend no-op cycles with all slots empty
  const char* resync_event;
  std::map<std::string, std::string> vendor_names;
  unsigned family;
};

// Names the model in failure messages instead of dumping the struct's bytes.
void PrintTo(const Zen& zen, std::ostream* out) { *out << zen.name; }

const Zen kZen5 = {"zen5.model",
                   "zen5",
                   8,
                   "de_no_dispatch_per_slot.no_ops_from_frontend:c8",
                   "bp_redirects.resync",
                   {{"Frontend_Bound", "frontend_bound"},
                    {"Fetch_Latency", "frontend_bound_by_latency"},
                    {"Fetch_Bandwidth", "frontend_bound_by_bandwidth"},
                    {"Bad_Speculation", "bad_speculation"},
                    {"Branch_Mispredicts", "bad_speculation_from_mispredicts"},
                    {"Machine_Clears", "bad_speculation_from_pipeline_restarts"},
                    {"Backend_Bound", "backend_bound"},
                    {"Memory_Bound", "backend_bound_by_memory"},
                    {"Core_Bound", "backend_bound_by_cpu"},
                    {"SMT_Contention", "smt_contention"},
                    {"Retiring", "retiring"},
                    {"Light_Operations", "retiring_from_fastpath"},
                    {"Heavy_Operations", "retiring_from_microcode"}},
                   0x1A};

const Zen kZen4 = {"zen4.model",
                   "zen4",
                   6,
                   "de_no_dispatch_per_slot.no_ops_from_frontend:c6",
                   "resyncs_or_nc_redirects",
                   {{"Frontend_Bound", "frontend_bound"},
                    {"Fetch_Latency", "frontend_bound_latency"},
                    {"Fetch_Bandwidth", "frontend_bound_bandwidth"},
                    {"Bad_Speculation", "bad_speculation"},
                    {"Branch_Mispredicts", "bad_speculation_mispredicts"},
                    {"Machine_Clears", "bad_speculation_pipeline_restarts"},
                    {"Backend_Bound", "backend_bound"},
                    {"Memory_Bound", "backend_bound_memory"},
                    {"Core_Bound", "backend_bound_cpu"},
                    {"SMT_Contention", "smt_contention"},
                    {"Retiring", "retiring"},
                    {"Light_Operations", "retiring_fastpath"},
                    {"Heavy_Operations", "retiring_microcode"}},
                   0x19};

const std::vector<std::string> kTreeOrder = {
    "Frontend_Bound", "Fetch_Latency",    "Fetch_Bandwidth", "Bad_Speculation", "Branch_Mispredicts",
    "Machine_Clears", "Backend_Bound",    "Memory_Bound",    "Core_Bound",      "SMT_Contention",
    "Retiring",       "Light_Operations", "Heavy_Operations"};

const std::map<std::string, std::string> kParents = {
    {"Fetch_Latency", "Frontend_Bound"},       {"Fetch_Bandwidth", "Frontend_Bound"},
    {"Branch_Mispredicts", "Bad_Speculation"}, {"Machine_Clears", "Bad_Speculation"},
    {"Memory_Bound", "Backend_Bound"},         {"Core_Bound", "Backend_Bound"},
    {"Light_Operations", "Retiring"},          {"Heavy_Operations", "Retiring"}};

constexpr double kCycles = 1e6;
constexpr double kInstructions = 2e6;

// Synthetic counts. Slot counts are given in thousandths of all slots so that
// every expected fraction below can be read off directly.
class Counts {
 public:
  explicit Counts(const Zen& zen) : zen_(zen) {
    set("ls_not_halted_cyc", kCycles);
    set("ex_ret_instr", kInstructions);
    set_slots("de_no_dispatch_per_slot.no_ops_from_frontend", 250);
    set_slots("de_no_dispatch_per_slot.backend_stalls", 300);
    set_slots("de_no_dispatch_per_slot.smt_contention", 50);
    set_slots("de_src_op_disp.all", 400);  // 1000 - 250 - 300 - 50: the identity
    set_slots("ex_ret_ops", 350);          // 50 dispatched ops never retired
    set(zen.latency_event, 0.1 * kCycles);
    set("ex_ret_brn_misp", 3000);
    set(zen.resync_event, 1000);
    set("ex_no_retire.not_complete", 400000);
    set("ex_no_retire.load_not_complete", 100000);
    set("ex_ret_ucode_ops", 0.1 * count("ex_ret_ops"));
  }

  void set(const std::string& event, double value) { values_[event] = value; }
  void set_slots(const std::string& event, int thousandths) { set(event, zen_.width * kCycles * thousandths / 1000); }
  double count(const std::string& event) const { return values_.at(event); }
  std::optional<double> find(std::string_view event) const {
    const auto it = values_.find(event);
    if (it == values_.end()) return std::nullopt;
    return it->second;
  }

 private:
  const Zen& zen_;
  std::map<std::string, double, std::less<>> values_;
};

// Evaluates a model over counts the way the eval stage will: constants,
// definitions and nodes by name, smt_enabled from the run, events from the
// counts. An unknown name fails the test, so a typo in a model shows up here.
class Evaluation {
 public:
  Evaluation(const Model& model, const Counts& counts, bool smt_enabled)
      : model_(model), counts_(counts), smt_enabled_(smt_enabled) {}
  Evaluation(const Evaluation&) = delete;
  Evaluation& operator=(const Evaluation&) = delete;

  expr::Value value(std::string_view node) const { return get(node).formula.evaluate(scope_); }
  expr::Value identity(std::string_view node) const { return get(node).identity.value().evaluate(scope_); }
  double number(std::string_view node) const {
    const expr::Value result = value(node);
    if (!result) ADD_FAILURE() << node << " is n/a";
    return result.value_or(-1);
  }

 private:
  const Node& get(std::string_view name) const {
    const Node* node = model_.find(name);
    if (!node) throw Error("the model has no node " + std::string(name));
    return *node;
  }

  expr::Value lookup(std::string_view name) const {
    if (const auto constant = model_.constants.find(name); constant != model_.constants.end()) {
      return constant->second;
    }
    for (const auto& [defined, formula] : model_.definitions) {
      if (defined == name) return formula.evaluate(scope_);
    }
    if (model_.find(name)) return value(name);
    if (name == "smt_enabled") return smt_enabled_ ? 1.0 : 0.0;
    if (const auto count = counts_.find(name)) return count;
    throw Error("no value for '" + std::string(name) + "'");
  }

  const Model& model_;
  const Counts& counts_;
  bool smt_enabled_;
  expr::FunctionScope scope_{[this](std::string_view name) { return lookup(name); }};
};

bool over_threshold(const Node& node, double own_value, bool parent_over) {
  const expr::FunctionScope scope([&](std::string_view name) -> expr::Value {
    if (name == "this") return own_value;
    if (name == "parent_over") return parent_over ? 1.0 : 0.0;
    throw Error("threshold of " + node.name + " uses '" + std::string(name) + "'");
  });
  const expr::Value result = node.threshold.value().evaluate(scope);
  return result.has_value() && *result != 0;
}

class ZenModel : public ::testing::TestWithParam<Zen> {
 protected:
  ZenModel()
      : model_(load_model(std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models" / GetParam().file)),
        counts_(GetParam()) {}

  const Node& node(std::string_view name) const {
    const Node* found = model_.find(name);
    if (!found) throw Error("no node " + std::string(name));
    return *found;
  }

  Model model_;
  Counts counts_;
};

TEST_P(ZenModel, DescribesTheCpu) {
  const Zen& zen = GetParam();
  EXPECT_EQ(model_.name, zen.name);
  EXPECT_EQ(model_.constants.at("Pipeline_Width"), zen.width);
  EXPECT_EQ(model_.event_tables, std::vector<std::string>{std::string("amd_") + zen.name});
  ASSERT_FALSE(model_.cpus.empty());
  for (const CpuMatch& match : model_.cpus) {
    EXPECT_EQ(match.vendor, cpu::Vendor::Amd);
    EXPECT_EQ(match.family, zen.family);
  }
  ASSERT_EQ(model_.definitions.size(), 1u);
  EXPECT_EQ(model_.definitions[0].first, "SLOTS");
}

TEST_P(ZenModel, HasThirteenTreeNodesOnTwoLevels) {
  std::vector<std::string> tree;
  for (const Node& each : model_.nodes) {
    if (!each.is_info) tree.push_back(each.name);
  }
  EXPECT_THAT(tree, ElementsAreArray(kTreeOrder));
  for (const std::string& name : kTreeOrder) {
    const Node& tree_node = node(name);
    const auto parent = kParents.find(name);
    EXPECT_EQ(tree_node.parent, parent == kParents.end() ? "" : parent->second) << name;
    EXPECT_EQ(tree_node.level, parent == kParents.end() ? 1 : 2) << name;
    EXPECT_EQ(tree_node.vendor_name, GetParam().vendor_names.at(name)) << name;
    EXPECT_EQ(tree_node.domain, "Slots") << name;
    EXPECT_TRUE(tree_node.threshold.has_value()) << name;
    EXPECT_FALSE(tree_node.description.empty()) << name;
    EXPECT_FALSE(tree_node.advice.empty()) << name;
  }
  EXPECT_EQ(&node(GetParam().vendor_names.at("Memory_Bound")), &node("Memory_Bound"));
}

TEST_P(ZenModel, HasDescribedInfoMetrics) {
  std::vector<std::string> infos;
  for (const Node& each : model_.nodes) {
    if (!each.is_info) continue;
    infos.push_back(each.name);
    EXPECT_EQ(each.level, 0) << each.name;
    EXPECT_FALSE(each.unit.empty()) << each.name;
    EXPECT_FALSE(each.description.empty()) << each.name;
  }
  EXPECT_THAT(infos, ElementsAre("IPC", "CPI", "UopsPI", "Microcode_Fraction", "Branch_Misprediction_Ratio",
                                 "IpMispredict", "Dispatch_Utilization"));
  EXPECT_EQ(node("IPC").unit, "instructions/cycle");
}

TEST_P(ZenModel, UsesOnlyTheDocumentedEvents) {
  std::set<std::string> events;
  auto collect = [&](const expr::Expression& formula) {
    for (const std::string& name : formula.identifiers()) {
      if (!model_.constants.count(name) && name != "SLOTS" && !model_.find(name) && !is_run_variable(name)) {
        events.insert(name);
      }
    }
  };
  for (const auto& definition : model_.definitions) collect(definition.second);
  for (const Node& each : model_.nodes) {
    collect(each.formula);
    if (each.identity) collect(*each.identity);
    if (each.threshold) collect(*each.threshold);
  }
  const Zen& zen = GetParam();
  EXPECT_EQ(events, (std::set<std::string>{"ls_not_halted_cyc", "de_no_dispatch_per_slot.no_ops_from_frontend",
                                           zen.latency_event, "de_no_dispatch_per_slot.backend_stalls",
                                           "de_no_dispatch_per_slot.smt_contention", "de_src_op_disp.all", "ex_ret_ops",
                                           "ex_ret_brn_misp", zen.resync_event, "ex_no_retire.not_complete",
                                           "ex_no_retire.load_not_complete", "ex_ret_ucode_ops", "ex_ret_instr"}));
}

TEST_P(ZenModel, LevelOneIsTheShareOfSlots) {
  const Evaluation eval(model_, counts_, true);
  EXPECT_DOUBLE_EQ(eval.number("Frontend_Bound"), 0.25);
  EXPECT_DOUBLE_EQ(eval.number("Backend_Bound"), 0.30);
  EXPECT_DOUBLE_EQ(eval.number("SMT_Contention"), 0.05);
  EXPECT_DOUBLE_EQ(eval.number("Retiring"), 0.35);
  EXPECT_DOUBLE_EQ(eval.number("Bad_Speculation"), 0.05);  // (400 - 350) / 1000
  double sum = 0;
  for (const Node* level_one : model_.children("")) sum += eval.number(level_one->name);
  EXPECT_DOUBLE_EQ(sum, 1.0);
}

TEST_P(ZenModel, BackendIdentityEqualsItsFormula) {
  for (const bool smt : {true, false}) {
    Counts counts = counts_;
    if (!smt) {
      // Without SMT no slot goes to the other thread; dispatch takes them.
      counts.set_slots("de_no_dispatch_per_slot.smt_contention", 0);
      counts.set_slots("de_src_op_disp.all", 450);
    }
    const Evaluation eval(model_, counts, smt);
    EXPECT_DOUBLE_EQ(eval.identity("Backend_Bound").value(), 0.30) << "smt " << smt;
    EXPECT_DOUBLE_EQ(eval.identity("Backend_Bound").value(), eval.number("Backend_Bound"));
  }
  EXPECT_EQ(node("Backend_Bound").identity->identifiers(),
            (std::set<std::string>{"Frontend_Bound", "Bad_Speculation", "Retiring", "SMT_Contention"}));
}

TEST_P(ZenModel, LevelTwoSplitsItsParents) {
  const Evaluation eval(model_, counts_, true);
  const double width = GetParam().width;
  // width * 0.1 * cycles / (width * cycles)
  EXPECT_DOUBLE_EQ(eval.number("Fetch_Latency"), width * 0.1 * kCycles / (width * kCycles));
  EXPECT_DOUBLE_EQ(eval.number("Fetch_Bandwidth"), 0.25 - 0.1);
  EXPECT_DOUBLE_EQ(eval.number("Branch_Mispredicts"), 0.05 * 3000 / 4000);
  EXPECT_DOUBLE_EQ(eval.number("Machine_Clears"), 0.05 * 1000 / 4000);
  EXPECT_DOUBLE_EQ(eval.number("Memory_Bound"), 0.30 * 100000 / 400000);
  EXPECT_DOUBLE_EQ(eval.number("Core_Bound"), 0.30 - 0.075);
  EXPECT_DOUBLE_EQ(eval.number("Light_Operations"), 0.35 * 0.9);
  EXPECT_DOUBLE_EQ(eval.number("Heavy_Operations"), 0.35 * 0.1);
  for (const Node* level_one : model_.children("")) {
    const std::vector<const Node*> children = model_.children(level_one->name);
    if (children.empty()) continue;
    ASSERT_EQ(children.size(), 2u) << level_one->name;
    EXPECT_DOUBLE_EQ(eval.number(children[0]->name) + eval.number(children[1]->name), eval.number(level_one->name))
        << level_one->name;
  }
}

TEST_P(ZenModel, SmtContentionNeedsNoEventWithoutSmt) {
  const expr::Expression& formula = node("SMT_Contention").formula;
  const expr::Expression without_smt = formula.fold(
      [](std::string_view name) { return name == "smt_enabled" ? std::optional<expr::Value>(0.0) : std::nullopt; });
  EXPECT_TRUE(without_smt.is_constant());
  EXPECT_EQ(without_smt.evaluate(expr::FunctionScope([](std::string_view) { return expr::Value(); })), 0.0);
  EXPECT_TRUE(formula.identifiers().count("de_no_dispatch_per_slot.smt_contention"));

  Counts counts = counts_;
  counts.set_slots("de_no_dispatch_per_slot.smt_contention", 80);
  EXPECT_EQ(Evaluation(model_, counts, false).value("SMT_Contention"), 0.0);
  EXPECT_DOUBLE_EQ(Evaluation(model_, counts, true).number("SMT_Contention"), 0.08);
}

TEST_P(ZenModel, SplitsOfZeroCountsAreNotAvailable) {
  Counts counts = counts_;
  counts.set("ex_ret_brn_misp", 0);
  counts.set(GetParam().resync_event, 0);
  counts.set("ex_no_retire.not_complete", 0);
  counts.set("ex_no_retire.load_not_complete", 0);
  const Evaluation eval(model_, counts, true);
  EXPECT_EQ(eval.value("Branch_Mispredicts"), std::nullopt);
  EXPECT_EQ(eval.value("Machine_Clears"), std::nullopt);
  EXPECT_EQ(eval.value("Memory_Bound"), std::nullopt);
  EXPECT_EQ(eval.value("Core_Bound"), std::nullopt);
  EXPECT_DOUBLE_EQ(eval.number("Bad_Speculation"), 0.05);
}

TEST_P(ZenModel, ThresholdsAreTheDocumentedOnes) {
  const std::map<std::string, double> level_one = {{"Frontend_Bound", 0.15},
                                                   {"Bad_Speculation", 0.15},
                                                   {"Backend_Bound", 0.2},
                                                   {"Retiring", 0.7},
                                                   {"SMT_Contention", 0.1}};
  for (const auto& [name, limit] : level_one) {
    EXPECT_TRUE(over_threshold(node(name), limit + 0.01, false)) << name;
    EXPECT_FALSE(over_threshold(node(name), limit - 0.01, true)) << name;
  }
  for (const auto& [name, parent] : kParents) {
    const double limit = name == "Memory_Bound" || name == "Core_Bound" ? 0.2 : 0.1;
    EXPECT_TRUE(over_threshold(node(name), limit + 0.01, true)) << name;
    EXPECT_FALSE(over_threshold(node(name), limit + 0.01, false)) << name;
    EXPECT_FALSE(over_threshold(node(name), limit - 0.01, true)) << name;
  }
}

TEST_P(ZenModel, InfoMetricsUseTheCounts) {
  const Evaluation eval(model_, counts_, true);
  const double retired_ops = 0.35 * GetParam().width * kCycles;
  EXPECT_DOUBLE_EQ(eval.number("IPC"), 2.0);
  EXPECT_DOUBLE_EQ(eval.number("CPI"), 0.5);
  EXPECT_DOUBLE_EQ(eval.number("UopsPI"), retired_ops / kInstructions);
  EXPECT_DOUBLE_EQ(eval.number("Microcode_Fraction"), 0.1);
  EXPECT_DOUBLE_EQ(eval.number("Branch_Misprediction_Ratio"), 3000 / kInstructions);
  EXPECT_DOUBLE_EQ(eval.number("IpMispredict"), kInstructions / 3000);
  EXPECT_DOUBLE_EQ(eval.number("Dispatch_Utilization"), 0.4);
}

INSTANTIATE_TEST_SUITE_P(Shipped, ZenModel, ::testing::Values(kZen5, kZen4),
                         [](const ::testing::TestParamInfo<Zen>& param) { return std::string(param.param.name); });

}  // namespace
}  // namespace topdown::model
