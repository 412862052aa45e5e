#include <span>

#include "region/readers.h"

namespace topdown::region {
namespace {

class GroupReadReader final : public CounterReader {
 public:
  GroupReadReader(std::shared_ptr<perf::Group> group, std::size_t count, uint64_t member_scale)
      : group_(std::move(group)), count_(count), member_scale_(member_scale) {}

  void read(Snapshot& out) override {
    perf::Times times;
    out.valid = group_->read(std::span(out.values.data(), count_), times) == 0;
    out.scale_members(count_, member_scale_);
    out.time_enabled = times.enabled;
    out.time_running = times.running;
    out.epoch = 0;
  }

  Reader kind() const override { return Reader::Read; }

 private:
  std::shared_ptr<perf::Group> group_;
  std::size_t count_;
  uint64_t member_scale_;
};

}  // namespace

std::unique_ptr<CounterReader> make_group_read_reader(std::shared_ptr<perf::Group> group, std::size_t count,
                                                      uint64_t member_scale) {
  return std::make_unique<GroupReadReader>(std::move(group), count, member_scale);
}

}  // namespace topdown::region
