// Model files: load arbitrary bytes as a model. Bad files must end in
// topdown::Error (ParseError with file:line:col) with a one-line message that
// names the file. A file that loads is then used the way a run uses it: its
// dependencies with SMT on and off, the events it needs, and an evaluation
// of every node from counts chosen by event name.
#include <cmath>
#include <cstdint>

#include "error_message.h"
#include "eval/evaluate.h"
#include "fuzz_values.h"
#include "import/import.h"
#include "memory_file.h"
#include "model/dependencies.h"
#include "model/model.h"

namespace {

using namespace topdown;

counts::Sample sample_for(const std::set<std::string>& events) {
  counts::Sample sample;
  sample.duration_s = 1;
  for (const std::string& event : events) {
    // Only what an import or a run can give: finite counts of at least 0.
    const auto value = fuzz::value_for(event);
    if (!value || !std::isfinite(*value)) continue;
    sample.events.emplace(event, counts::Count{std::fabs(*value), 1000, 1000 - fuzz::name_hash(event) % 1000});
  }
  return sample;
}

void use(const model::Model& model) {
  std::vector<std::string> nodes;
  for (const model::Node& node : model.nodes) nodes.push_back(node.name);
  const counts::Sample sample = sample_for(import::model_events(model));
  for (bool smt : {false, true}) {
    model::RunVariables vars;
    vars.smt_enabled = smt;
    const model::Dependencies dependencies(model, vars);
    for (const std::string& node : nodes) dependencies.events_of(node);
    eval::Options options;
    options.vars = vars;
    for (const eval::NodeResult& result : eval::evaluate(model, nodes, sample, options).nodes) {
      if (result.value && !std::isfinite(*result.value)) __builtin_trap();  // values are numbers or n/a
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fuzz::MemoryFile file(data, size);
  model::Model model;
  try {
    model = model::load_model(file.path());
  } catch (const Error& error) {
    fuzz::check_refusal(error, file.path());
    return 0;
  }
  try {
    use(model);
  } catch (const Error&) {  // a cycle among the formulas a run chooses
  }
  return 0;
}
