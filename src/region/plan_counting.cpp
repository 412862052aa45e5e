#include "events/model_resolver.h"
#include "region/open_session.h"

namespace topdown::region {
namespace {

// One group on the calling thread, read as a whole; the session enables it.
std::vector<perf_event_attr> group_attrs(const std::vector<perf::Event>& events) {
  std::vector<perf_event_attr> attrs;
  for (const perf::Event& event : events) {
    attrs.push_back(perf::make_attr(event, {.read_format = perf::kReadGroup, .disabled = attrs.empty()}));
  }
  return attrs;
}

Counting plan_metrics(const cpu::CpuInfo& cpu, const metrics::Support& support, const Options& options) {
  if (options.level >= 2 && !support.level2) {
    throw Error(ErrorCode::UnsupportedCpu,
                "level 2 needs the level-2 fields of PERF_METRICS (Sapphire Rapids and later), which the " +
                    support.pmu + " PMU of this CPU (" + cpu.id.brand + ") does not offer; use level 1");
  }
  Counting counting;
  counting.events = metrics::group_events(support.type, options.level, options.include_kernel);
  counting.attrs = group_attrs(counting.events);
  counting.method = make_metrics_method(options.level);
  counting.perf_metrics = true;
  counting.method_name = "perf-metrics";
  counting.title = "Intel PERF_METRICS (" + cpu.id.brand + ")";
  return counting;
}

model::Model load_model_file(const std::string& file) {
  try {
    return model::load_model(file);
  } catch (const topdown::Error& error) {
    throw Error(ErrorCode::Model, error.what());
  }
}

model::Model load_model(const cpu::CpuInfo& cpu, const Options& options) {
  if (!options.model_file.empty()) return load_model_file(options.model_file);
  const std::filesystem::path dir =
      options.models_dir.empty() ? model_dir() : std::filesystem::path(options.models_dir);
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) {
    throw Error(ErrorCode::Model, "model folder " + dir.string() +
                                      " does not exist; set TOPDOWN_MODELS or Options::models_dir to the folder "
                                      "holding the *.model files");
  }
  try {
    return model::select_model(dir, cpu.id);
  } catch (const ParseError& broken) {
    throw Error(ErrorCode::Model, broken.what());
  } catch (const topdown::Error& none) {
    throw Error(ErrorCode::UnsupportedCpu, none.what());
  }
}

Counting plan_model(const cpu::CpuInfo& cpu, const Options& options) {
  model::Model model = load_model(cpu, options);
  schedule::Selection selection;
  selection.max_level = options.level;
  model::RunVariables vars;
  vars.smt_enabled = cpu.smt_enabled;
  const schedule::CounterBudget budget = schedule::host_budget(cpu, model);
  schedule::Plan plan;
  try {
    const events::Resolver resolver(events::resolver_config(model, cpu));
    plan = schedule::make_plan(model, vars, selection, resolver, budget);
  } catch (const topdown::Error& error) {
    throw Error(ErrorCode::Model, error.what());
  }
  std::size_t events = 0;
  for (const schedule::Group& group : plan.groups) events += group.events.size();
  if (plan.groups.size() != 1 || events > kMaxValues) {
    throw Error(ErrorCode::DoesNotFit,
                "level " + std::to_string(options.level) + " of the " + model.name + " model needs " +
                    std::to_string(events) + " events in " + std::to_string(plan.groups.size()) + " groups of the " +
                    std::to_string(budget.general) +
                    " general counters that count on this CPU, but a region reads one group and never "
                    "multiplexes; " +
                    (options.level > 1 ? std::string("use level 1")
                                       : std::string("regions need a CPU with more working counters")));
  }
  Counting counting;
  std::vector<std::string> names;
  for (const events::Encoding& encoding : plan.groups.front().events) {
    counting.events.push_back(encoding.perf_event(options.include_kernel));
    names.push_back(encoding.name);
  }
  counting.attrs = group_attrs(counting.events);
  counting.method =
      make_model_method(model, schedule::select_nodes(model, selection), std::move(names), vars, plan.identities);
  counting.method_name = "model " + model.name;
  counting.title = model.title;
  return counting;
}

}  // namespace

void check_options(const Options& options) {
  if (options.level < 1 || options.level > 2) {
    throw Error(ErrorCode::InvalidArgument,
                "level " + std::to_string(options.level) + " is not offered for regions; use level 1 or 2");
  }
}

Counting plan_counting(const cpu::CpuInfo& cpu, const std::optional<metrics::Support>& support,
                       const Options& options) {
  check_options(options);
  if (options.model_file.empty() && cpu.id.vendor == cpu::Vendor::Intel && support) {
    return plan_metrics(cpu, *support, options);
  }
  return plan_model(cpu, options);
}

Reader choose_reader(ReaderChoice choice, std::optional<double> rdpmc_ns, std::optional<double> read_ns) {
  switch (choice) {
    case ReaderChoice::Rdpmc:
      if (!rdpmc_ns) {
        throw Error(ErrorCode::ReaderUnavailable,
                    "rdpmc was forced but cannot read these counters here (the kernel does not allow user-space "
                    "rdpmc: check /sys/bus/event_source/devices/cpu/rdpmc); use ReaderChoice::Auto or Read");
      }
      return Reader::Rdpmc;
    case ReaderChoice::Read:
      if (!read_ns) {
        throw Error(ErrorCode::ReaderUnavailable,
                    "read() was forced but the counter group cannot be read; use ReaderChoice::Auto");
      }
      return Reader::Read;
    case ReaderChoice::Auto:
      break;
  }
  if (rdpmc_ns && (!read_ns || *rdpmc_ns <= *read_ns)) return Reader::Rdpmc;
  if (read_ns) return Reader::Read;
  throw Error(ErrorCode::ReaderUnavailable,
              "the counters opened but neither rdpmc nor read() could read them (is the group in an error "
              "state, e.g. pinned by another tool?)");
}

}  // namespace topdown::region
