#include "region/method.h"
#include "region/perf_metrics.h"

namespace topdown::region {
namespace {

class MetricsMethod final : public Method {
 public:
  explicit MetricsMethod(int level) : level_(level) {}

  void evaluate(const Totals& totals, RegionResult& result) const override {
    const int64_t slots = totals.deltas[0];
    result.nodes = metrics::decode(slots, totals.deltas.data() + 1, level_);
    if (totals.time_running > 0) {
      result.counted_share = static_cast<double>(totals.time_running) / static_cast<double>(totals.time_enabled);
      // The fractions hold for the whole time; slots were counted only while running.
      const double scale = 1.0 / result.counted_share;
      result.slots = static_cast<double>(slots) * scale;
      for (NodeValue& node : result.nodes) {
        if (node.slots) node.slots = *node.slots * scale;
      }
    } else if (slots > 0) {
      result.slots = static_cast<double>(slots);
    }
  }

 private:
  int level_;
};

}  // namespace

std::unique_ptr<Method> make_metrics_method(int level) { return std::make_unique<MetricsMethod>(level); }

}  // namespace topdown::region
