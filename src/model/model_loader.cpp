// load_model: turns the sections of a model file into a checked Model.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#include "common/graph.h"
#include "common/strings.h"
#include "model/entry_values.h"
#include "model/model.h"
#include "model/model_header.h"
#include "model/section_reader.h"

namespace topdown::model {
namespace {

constexpr int kMaxLevel = 6;

const Keys kNodeKeys = {"vendor_name", "parent", "formula", "identity", "fallback",    "threshold",
                        "domain",      "area",   "groups",  "sample",   "description", "advice"};
const Keys kInfoKeys = {"vendor_name", "formula", "unit", "threshold", "groups", "description"};

bool is_identifier(std::string_view name) {
  auto word_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  if (name.empty() || (name.front() >= '0' && name.front() <= '9')) return false;
  return std::all_of(name.begin(), name.end(), word_char);
}

expr::Expression parse_formula(const Entry& entry) {
  return expr::Expression::parse(entry.formula_text(), entry.value_at());
}

std::optional<expr::Expression> parse_optional_formula(const Section& section, std::string_view key) {
  const Entry* entry = section.find(key);
  if (!entry) return std::nullopt;
  return parse_formula(*entry);
}

std::vector<std::string> parse_list(const Section& section, std::string_view key) {
  std::vector<std::string> values;
  if (const Entry* entry = section.find(key)) {
    for (ListItem& item : split_list(*entry)) values.push_back(std::move(item.text));
  }
  return values;
}

// Where `name` is written as a whole identifier in `entry`'s formula; the
// value's start when it cannot be found (for example when written escaped).
SourceLocation find_reference(const Entry& entry, const std::string& name) {
  const std::string text = entry.formula_text();
  auto part_of_name = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':' || c == '#' || c == '\\';
  };
  for (std::size_t pos = text.find(name); pos != std::string::npos; pos = text.find(name, pos + 1)) {
    const std::size_t end = pos + name.size();
    if ((pos == 0 || !part_of_name(text[pos - 1])) && (end == text.size() || !part_of_name(text[end]))) {
      return advance(entry.value_at(), text, pos);
    }
  }
  return entry.value_at();
}

// A node or info metric with the entries later checks point at.
struct Draft {
  Node node;
  const Entry* parent = nullptr;
  const Entry* formula = nullptr;
  const Entry* identity = nullptr;
  const Entry* fallback = nullptr;
  const Entry* threshold = nullptr;
  const Entry* vendor_name = nullptr;
};

struct Definition {
  const Entry* entry;
  expr::Expression formula;
};

class Loader {
 public:
  Loader(const std::filesystem::path& file, const std::vector<Section>& sections) : file_(file.string()) {
    model_.source = file;
    for (const Section& section : sections) add(section);
  }

  Model build() {
    if (!model_section_) throw no_model_section(file_);
    check_vendor_names();
    check_definition_references();
    resolve_parents();
    check_reference_cycles();
    check_threshold_queries();
    check_retire_latencies_listed();
    for (Definition& definition : definitions_) {
      model_.definitions.emplace_back(definition.entry->key, std::move(definition.formula));
    }
    order_nodes();
    return std::move(model_);
  }

 private:
  void add(const Section& section) {
    if (section.kind == "model") return add_model(section);
    if (section.kind == "constants") return add_constants(section);
    if (section.kind == "retire_latencies") return add_retire_latencies(section);
    if (section.kind == "define") return add_definitions(section);
    if (section.kind == "node") return add_node(section, false);
    if (section.kind == "info") return add_node(section, true);
    throw ParseError(section.kind_at, "unknown section " + section_title(section) +
                                          "; use [model], [constants], [retire_latencies], [define], "
                                          "[node NAME] or [info NAME]");
  }

  void add_model(const Section& section) {
    if (model_section_) {
      throw ParseError(section.where, "second [model] section (first at line " +
                                          std::to_string(model_section_->where.line) + "); a file describes one model");
    }
    model_section_ = &section;
    static_cast<ModelHeader&>(model_) = header_from(section, model_.source);
  }

  void add_constants(const Section& section) {
    expect_no_name(section);
    for (const Entry& entry : section.entries) {
      claim_name(entry.key, entry.key_at, "constant");
      model_.constants[entry.key] = parse_constant(entry);
    }
  }

  // EVENT = MEAN, or EVENT = measured where the vendor publishes no mean.
  void add_retire_latencies(const Section& section) {
    expect_no_name(section);
    for (const Entry& entry : section.entries) {
      std::string name = retire_latency_name(entry.key);
      if (model_.retire_latencies.count(name)) {
        throw ParseError(entry.key_at, "retire latency of '" + entry.key + "' given twice; keep one line");
      }
      RetireLatency latency{entry.key, std::nullopt};
      if (entry.text() != "measured") latency.mean = parse_constant(entry, "retire latency of", ", or measured");
      model_.retire_latencies.emplace(std::move(name), std::move(latency));
    }
  }

  void add_definitions(const Section& section) {
    expect_no_name(section);
    for (const Entry& entry : section.entries) {
      claim_name(entry.key, entry.key_at, "definition");
      definition_index_[entry.key] = definitions_.size();
      definitions_.push_back({&entry, parse_formula(entry)});
    }
  }

  void add_node(const Section& section, bool info) {
    const std::string what = info ? "info metric" : "node";
    if (section.name.empty()) {
      throw ParseError(section.kind_at, "[" + section.kind + "] needs a name; write [" + section.kind + " NAME]");
    }
    claim_name(section.name, section.name_at, what);
    check_keys(section, info ? kInfoKeys : kNodeKeys);
    Draft draft;
    draft.formula = section.find("formula");
    if (!draft.formula) {
      throw ParseError(section.where, what + " '" + section.name + "' has no formula; add 'formula = ...'");
    }
    draft.parent = section.find("parent");
    draft.identity = section.find("identity");
    draft.fallback = section.find("fallback");
    draft.threshold = section.find("threshold");
    draft.vendor_name = section.find("vendor_name");
    Node& node = draft.node;
    node.name = section.name;
    node.is_info = info;
    node.level = info ? 0 : 1;
    node.where = section.where;
    node.vendor_name = value_of(section, "vendor_name");
    node.parent = value_of(section, "parent");
    node.formula = parse_formula(*draft.formula);
    node.identity = parse_optional_formula(section, "identity");
    node.fallback = parse_optional_formula(section, "fallback");
    node.threshold = parse_optional_formula(section, "threshold");
    node.domain = value_of(section, "domain");
    node.unit = value_of(section, "unit");
    node.area = value_of(section, "area");
    node.groups = parse_list(section, "groups");
    node.sample_events = parse_list(section, "sample");
    node.description = value_of(section, "description");
    node.advice = value_of(section, "advice");
    node_index_[node.name] = drafts_.size();
    drafts_.push_back(std::move(draft));
  }

  // Constants, definitions, nodes and info metrics share one name space, as
  // formulas refer to all of them by bare name.
  void claim_name(const std::string& name, const SourceLocation& where, const std::string& what) {
    if (!is_identifier(name)) {
      throw ParseError(where,
                       "bad " + what + " name '" + name + "'; use letters, digits and '_', not starting with a digit");
    }
    if (is_run_variable(name)) {
      throw ParseError(where, "'" + name + "' is a run variable; choose another " + what + " name");
    }
    const auto [it, inserted] = claimed_.try_emplace(name, Claim{what, where});
    if (inserted) return;
    const Claim& first = it->second;
    const std::string line = std::to_string(first.where.line);
    if (first.what == what) {
      throw ParseError(where,
                       "duplicate " + what + " name '" + name + "' (first at line " + line + "); rename one of them");
    }
    throw ParseError(where, "'" + name + "' is already the name of a " + first.what + " (line " + line +
                                "); choose another " + what + " name");
  }

  // A vendor name must find exactly one node (Model::find).
  void check_vendor_names() {
    std::map<std::string, const Draft*, std::less<>> seen;
    for (const Draft& draft : drafts_) {
      const std::string& vendor = draft.node.vendor_name;
      if (vendor.empty() || vendor == draft.node.name) continue;
      const auto [it, inserted] = seen.try_emplace(vendor, &draft);
      if (!inserted || node_index_.count(vendor)) {
        const Node& other = inserted ? drafts_[node_index_.at(vendor)].node : it->second->node;
        throw ParseError(draft.vendor_name->value_at(), "vendor_name '" + vendor + "' of '" + draft.node.name +
                                                            "' is also used by '" + other.name +
                                                            "'; each name must find one node");
      }
    }
  }

  // A definition may use only definitions written above it, so that the file
  // reads top-down; nodes it uses are checked for cycles with the nodes.
  void check_definition_references() {
    for (std::size_t i = 0; i < definitions_.size(); ++i) {
      const Entry& entry = *definitions_[i].entry;
      for (const std::string& name : definitions_[i].formula.identifiers()) {
        const auto other = definition_index_.find(name);
        if (other == definition_index_.end() || other->second < i) continue;
        throw ParseError(find_reference(entry, name),
                         other->second == i
                             ? "definition '" + entry.key + "' uses itself; this is a cycle"
                             : "definition '" + entry.key + "' uses '" + name + "', defined later (line " +
                                   std::to_string(definitions_[other->second].entry->key_at.line) + "); move '" + name +
                                   "' above it");
      }
    }
  }

  void resolve_parents() {
    for (Draft& draft : drafts_) {
      if (!draft.parent) continue;
      const auto parent = node_index_.find(draft.node.parent);
      if (parent == node_index_.end()) {
        throw ParseError(draft.parent->value_at(), "unknown parent '" + draft.node.parent + "' of '" + draft.node.name +
                                                       "'; add a [node " + draft.node.parent +
                                                       "] section or fix the name");
      }
      if (drafts_[parent->second].node.is_info) {
        throw ParseError(draft.parent->value_at(), "parent '" + draft.node.parent +
                                                       "' is an info metric; only [node] sections "
                                                       "can be parents");
      }
    }
    for (Draft& draft : drafts_) {
      if (!draft.parent) continue;
      std::vector<std::string> chain = {draft.node.name};
      for (const Draft* up = &draft; up->parent;) {
        up = &drafts_[node_index_.at(up->node.parent)];
        const bool seen = std::find(chain.begin(), chain.end(), up->node.name) != chain.end();
        chain.push_back(up->node.name);
        if (seen) {
          throw ParseError(draft.parent->value_at(),
                           "parents form a loop: " + arrows(chain) + "; a level-1 node has no parent");
        }
        if (static_cast<int>(chain.size()) > kMaxLevel) {
          throw ParseError(draft.parent->value_at(),
                           "'" + draft.node.name + "' would be below level " + std::to_string(kMaxLevel) + " (" +
                               arrows(chain) + "); the tree has at most " + std::to_string(kMaxLevel) + " levels");
        }
      }
      draft.node.level = static_cast<int>(chain.size());
    }
  }

  static std::string arrows(const std::vector<std::string>& names) { return join(names, " -> "); }

  std::vector<std::size_t> all_drafts() const {
    std::vector<std::size_t> indices(drafts_.size());
    std::iota(indices.begin(), indices.end(), std::size_t{0});
    return indices;
  }

  // Nodes referring to each other (through formula, identity or the
  // definitions these use) must not go round in a circle, or no evaluation
  // order exists.
  void check_reference_cycles() {
    const std::vector<std::size_t> cycle = find_cycle(all_drafts(), [&](std::size_t index) {
      std::vector<std::size_t> used;
      for (const Reference& next : references(drafts_[index])) used.push_back(next.node);
      return used;
    });
    if (!cycle.empty()) report_cycle(cycle);
  }

  // A node used by a formula, and the name written there: the node itself
  // or the definition that leads to it.
  struct Reference {
    std::size_t node;
    std::string written;
  };

  std::vector<Reference> references(const Draft& draft) const {
    std::set<std::string> names = draft.node.formula.identifiers();
    if (draft.node.identity) names.merge(draft.node.identity->identifiers());
    if (draft.node.fallback) names.merge(draft.node.fallback->identifiers());
    std::vector<Reference> found;
    for (const std::string& name : names) {
      for (std::size_t node : nodes_reached(name)) found.push_back({node, name});
    }
    return found;
  }

  // The nodes `name` stands for: itself if a node, those its definition uses
  // (through earlier definitions) if a definition.
  std::set<std::size_t> nodes_reached(const std::string& name) const {
    if (const auto node = node_index_.find(name); node != node_index_.end()) return {node->second};
    std::set<std::size_t> nodes;
    if (const auto definition = definition_index_.find(name); definition != definition_index_.end()) {
      for (const std::string& used : definitions_[definition->second].formula.identifiers()) {
        nodes.merge(nodes_reached(used));
      }
    }
    return nodes;
  }

  // `cycle`: its nodes, the first repeated at the end. The error points at
  // the first node's use of the second.
  [[noreturn]] void report_cycle(const std::vector<std::size_t>& cycle) const {
    std::vector<std::string> names;
    for (std::size_t index : cycle) names.push_back(drafts_[index].node.name);
    const Draft& first = drafts_[cycle[0]];
    const std::size_t next = cycle[1];
    std::string written;
    for (const Reference& reference : references(first)) {
      if (reference.node == next) written = reference.written;
    }
    const Entry* entry = first.formula;
    if (first.node.formula.identifiers().count(written) == 0) {
      const bool in_identity = first.node.identity && first.node.identity->identifiers().count(written) > 0;
      entry = in_identity ? first.identity : first.fallback;
    }
    throw ParseError(find_reference(*entry, written),
                     "cycle among formulas: " + arrows(names) + "; one of them must not use the other");
  }

  // Calls visit(entry, formula) for every value formula: definitions and the
  // nodes' formulas, identities and fallbacks (not thresholds).
  template <typename Visit>
  void for_each_value_formula(const Visit& visit) const {
    for (const Definition& definition : definitions_) visit(definition.entry, definition.formula);
    for (const Draft& draft : drafts_) {
      visit(draft.formula, draft.node.formula);
      if (draft.identity) visit(draft.identity, *draft.node.identity);
      if (draft.fallback) visit(draft.fallback, *draft.node.fallback);
    }
  }

  // A Retire_Latency_ name is a run variable only for the events the model
  // lists: any other is a misspelling that would stay unknown in every run.
  void check_retire_latencies_listed() const {
    auto check = [&](const Entry* entry, const expr::Expression& formula) {
      for (const std::string& name : formula.identifiers()) {
        if (is_retire_latency(name) && !model_.retire_latencies.count(name)) {
          throw ParseError(find_reference(*entry, name), "'" + name +
                                                             "' is the retire latency of an event [retire_latencies] "
                                                             "does not list; list the event there");
        }
      }
    };
    for_each_value_formula(check);
    for (const Draft& draft : drafts_) {
      if (draft.threshold) check(draft.threshold, *draft.node.threshold);
    }
  }

  // over(NODE) asks for another node's verdict, which exists only once values
  // are known: it belongs in thresholds, must name a node with a threshold,
  // and verdicts must not wait on each other in a circle (parent_over waits
  // on the parent's verdict too).
  void check_threshold_queries() const {
    auto reject_query = [](const Entry* entry, const expr::Expression& formula) {
      for (const std::string& name : formula.identifiers()) {
        if (over_target(name)) {
          throw ParseError(find_reference(*entry, "over"),
                           "over(...) may only be used in a threshold; it asks whether a node is over its threshold");
        }
      }
    };
    for_each_value_formula(reject_query);
    for (const Draft& draft : drafts_) {
      for (const std::size_t target : verdicts_needed(draft)) {
        if (!drafts_[target].node.threshold) {
          throw ParseError(find_reference(*draft.threshold, drafts_[target].node.name),
                           "over(" + drafts_[target].node.name + ") in the threshold of '" + draft.node.name +
                               "': that node has no threshold, so it is never over; add one or drop the test");
        }
      }
    }
    const std::vector<std::size_t> cycle =
        find_cycle(all_drafts(), [&](std::size_t index) { return verdicts_needed(drafts_[index]); });
    if (cycle.empty()) return;
    std::vector<std::string> names;
    for (std::size_t index : cycle) names.push_back(drafts_[index].node.name);
    // The threshold that closes the circle.
    throw ParseError(drafts_[cycle[cycle.size() - 2]].threshold->value_at(),
                     "thresholds wait on each other in a circle: " + arrows(names) +
                         "; break it by dropping an over(...) or parent_over");
  }

  // The nodes whose verdicts the draft's threshold needs: over(NODE) targets,
  // and the parent when it uses parent_over.
  std::vector<std::size_t> verdicts_needed(const Draft& draft) const {
    std::vector<std::size_t> needed;
    if (!draft.node.threshold) return needed;
    for (const std::string& name : draft.node.threshold->identifiers()) {
      if (name == "parent_over" && !draft.node.parent.empty()) needed.push_back(node_index_.at(draft.node.parent));
      const auto target = over_target(name);
      if (!target) continue;
      const auto it = node_index_.find(*target);
      if (it == node_index_.end()) {
        throw ParseError(find_reference(*draft.threshold, std::string(*target)),
                         "over(" + std::string(*target) + ") in the threshold of '" + draft.node.name +
                             "': no node has that name; write over(NODE) with a node of this model");
      }
      needed.push_back(it->second);
    }
    return needed;
  }

  // Model::nodes lists the tree depth-first (children in file order), then
  // the info metrics, whatever order the file used.
  void order_nodes() {
    std::vector<std::size_t> order;
    std::function<void(const std::string&)> add_children = [&](const std::string& parent) {
      for (std::size_t i = 0; i < drafts_.size(); ++i) {
        const Node& node = drafts_[i].node;
        if (node.is_info || node.parent != parent) continue;
        order.push_back(i);
        add_children(node.name);
      }
    };
    add_children("");
    for (std::size_t i = 0; i < drafts_.size(); ++i) {
      if (drafts_[i].node.is_info) order.push_back(i);
    }
    for (std::size_t i : order) model_.nodes.push_back(std::move(drafts_[i].node));
  }

  struct Claim {
    std::string what;
    SourceLocation where;
  };

  std::string file_;
  Model model_;
  const Section* model_section_ = nullptr;
  std::map<std::string, Claim, std::less<>> claimed_;
  std::vector<Definition> definitions_;
  std::map<std::string, std::size_t, std::less<>> definition_index_;
  std::vector<Draft> drafts_;
  std::map<std::string, std::size_t, std::less<>> node_index_;
};

}  // namespace

Model load_model(const std::filesystem::path& file) {
  std::ifstream in = open_model_file(file);
  const std::vector<Section> sections = read_sections(in, file.string());
  throw_if_unreadable(in, file);
  return Loader(file, sections).build();
}

}  // namespace topdown::model
