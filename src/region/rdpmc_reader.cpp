#include "region/mmap_read.h"
#include "region/readers.h"

#ifdef TOPDOWN_RDPMC
namespace topdown::region {
namespace {

uint64_t no_tsc() { return 0; }

class RdpmcReader final : public CounterReader {
 public:
  RdpmcReader(std::shared_ptr<perf::Group> group, std::size_t count)
      : group_(std::move(group)), count_(count), fallback_(make_group_read_reader(group_, count, 1)) {}

  void read(Snapshot& out) override {
    const PageRead leader = read_page(*group_->page(0), rdpmc, read_tsc);
    if (!leader.on_counter) return fallback_->read(out);
    out.values[0] = leader.count;
    out.time_enabled = leader.time_enabled;
    out.time_running = leader.time_running;
    // Members run exactly when their leader does: only the leader's times count.
    for (std::size_t i = 1; i < count_; ++i) {
      const PageRead member = read_page(*group_->page(i), rdpmc, no_tsc);
      if (!member.on_counter) return fallback_->read(out);
      out.values[i] = member.count;
    }
    out.epoch = 0;
    out.valid = true;
  }

  Reader kind() const override { return Reader::Rdpmc; }

 private:
  std::shared_ptr<perf::Group> group_;
  std::size_t count_;
  std::unique_ptr<CounterReader> fallback_;
};

class MetricsRdpmcReader final : public CounterReader {
 public:
  MetricsRdpmcReader(std::shared_ptr<perf::Group> group, int level, metrics::ResetSchedule schedule)
      : group_(std::move(group)), bank_(metrics::field_count(level)), schedule_(schedule) {}

  void read(Snapshot& out) override {
    out.valid = false;
    // A second attempt follows a reschedule found (and a new period started)
    // by the first.
    for (int attempt = 0; attempt < 2; ++attempt) {
      uint64_t fields = 0;
      const PageRead slots = read_page(
          *group_->page(0),
          [&fields](uint32_t counter) {
            fields = rdpmc(metrics::kRdpmcMetrics);
            return rdpmc(counter);
          },
          read_tsc);
      if (!slots.on_counter) return;
      if (slots.lock != period_lock_) {
        // The kernel updated the page: it rescheduled the group, which
        // restarts SLOTS and PERF_METRICS at a moment we cannot know.
        restart_period();
        ++epoch_;
        continue;
      }
      bank_.cumulative(slots.count, fields, out);
      out.time_enabled = slots.time_enabled;
      out.time_running = slots.time_running;
      out.epoch = epoch_;
      out.valid = true;
      if (schedule_.due(slots.count)) {
        bank_.close_period(slots.count, fields);
        restart_period();
      }
      return;
    }
  }

  void start() override {
    restart_period();
    ++epoch_;
  }

  Reader kind() const override { return Reader::Rdpmc; }

 private:
  void restart_period() {
    group_->reset();
    const volatile perf_event_mmap_page& page = *group_->page(0);
    period_lock_ = page.lock;
  }

  std::shared_ptr<perf::Group> group_;
  metrics::PeriodBank bank_;
  metrics::ResetSchedule schedule_;
  uint32_t period_lock_ = 0;
  uint64_t epoch_ = 0;
};

}  // namespace

std::unique_ptr<CounterReader> make_rdpmc_reader(std::shared_ptr<perf::Group> group, std::size_t count) {
  return std::make_unique<RdpmcReader>(std::move(group), count);
}

std::unique_ptr<CounterReader> make_metrics_rdpmc_reader(std::shared_ptr<perf::Group> group, int level,
                                                         metrics::ResetSchedule schedule) {
  return std::make_unique<MetricsRdpmcReader>(std::move(group), level, schedule);
}

bool rdpmc_usable(const perf::Group& group, std::size_t events) {
  for (std::size_t i = 0; i < events && i < group.size(); ++i) {
    const volatile perf_event_mmap_page& page = *group.page(i);
    if ((page.capabilities & kCapUserRdpmc) == 0 || page.index == 0) return false;
  }
  return true;
}

}  // namespace topdown::region
#endif
