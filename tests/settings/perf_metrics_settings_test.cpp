// --perf-metrics off is honoured by every level a model computes from
// general counters, and refused, naming the node and the field, where a
// model reads a node from the PERF_METRICS register only; --perf-metrics on
// is refused where the model reads no chosen node from the register.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "common/error.h"
#include "events/model_resolver.h"
#include "expr/expression.h"
#include "settings/perf_metrics.h"

namespace topdown::settings {
namespace {

const std::filesystem::path kModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";

class PerfMetricsOff : public ::testing::Test {
 protected:
  std::vector<std::string> tree() const {
    std::vector<std::string> nodes;
    for (const model::Node& node : model_.nodes) {
      if (!node.is_info) nodes.push_back(node.name);
    }
    return nodes;
  }

  model::Model model_ = model::load_model(kModels / "lnl.model");
  events::Resolver resolver_{events::offline_resolver_config(model_)};
  model::RunVariables without_register_{false, false, false};
};

TEST_F(PerfMetricsOff, EveryNodeOfAGeneratedModelHasAGeneralCounterForm) {
  EXPECT_NO_THROW(check_perf_metrics_choice(Toggle::Off, model_, without_register_, tree(), resolver_));
}

TEST_F(PerfMetricsOff, ANodeReadFromTheRegisterOnlyIsRefused) {
  auto frontend = std::find_if(model_.nodes.begin(), model_.nodes.end(),
                               [](const model::Node& node) { return node.name == "Frontend_Bound"; });
  ASSERT_NE(frontend, model_.nodes.end());
  frontend->formula = expr::Expression::parse("PERF_METRICS.FRONTEND_BOUND / TOPDOWN.SLOTS");
  EXPECT_THROW(
      {
        try {
          check_perf_metrics_choice(Toggle::Off, model_, without_register_, tree(), resolver_);
        } catch (const Error& error) {
          EXPECT_STREQ(error.what(),
                       "--perf-metrics off: model lnl reads Frontend_Bound from Intel's PERF_METRICS register only "
                       "(PERF_METRICS.FRONTEND_BOUND), with no general-counter formula; leave out --perf-metrics "
                       "off");
          throw;
        }
      },
      Error);
  // Only when the option asks for it, and only for the nodes chosen.
  EXPECT_NO_THROW(check_perf_metrics_choice(Toggle::Auto, model_, without_register_, tree(), resolver_));
  EXPECT_NO_THROW(check_perf_metrics_choice(Toggle::Off, model_, without_register_, {"Backend_Bound"}, resolver_));
}

TEST_F(PerfMetricsOff, OnIsHonouredWhereTheModelReadsTheRegister) {
  EXPECT_NO_THROW(check_perf_metrics_choice(Toggle::On, model_, without_register_, tree(), resolver_));
}

TEST(PerfMetricsOn, AModelWithoutTheRegisterRefusesIt) {
  const model::Model skylake = model::load_model(kModels / "skl.model");
  const events::Resolver resolver{events::offline_resolver_config(skylake)};
  std::vector<std::string> nodes;
  for (const model::Node& node : skylake.nodes) nodes.push_back(node.name);
  EXPECT_THROW(
      {
        try {
          check_perf_metrics_choice(Toggle::On, skylake, {false, false, false}, nodes, resolver);
        } catch (const Error& error) {
          EXPECT_STREQ(error.what(),
                       "--perf-metrics on: model skl reads none of the nodes chosen from Intel's PERF_METRICS "
                       "register (its CPU has none, or these nodes come from general counters only); leave out "
                       "--perf-metrics on");
          throw;
        }
      },
      Error);
  EXPECT_NO_THROW(check_perf_metrics_choice(Toggle::Off, skylake, {false, false, false}, nodes, resolver));
}

}  // namespace
}  // namespace topdown::settings
