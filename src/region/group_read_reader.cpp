#include <unistd.h>

#include "region/group_read.h"
#include "region/readers.h"

namespace topdown::region {
namespace {

class GroupReadReader final : public CounterReader {
 public:
  GroupReadReader(std::shared_ptr<const PerfGroup> group, std::size_t count, uint64_t member_scale)
      : group_(std::move(group)), count_(count), member_scale_(member_scale) {}

  void read(Snapshot& out) override {
    uint64_t words[kGroupReadHeaderWords + kMaxValues];
    const ssize_t got = ::read(group_->leader_fd(), words, (kGroupReadHeaderWords + count_) * sizeof(uint64_t));
    const std::size_t word_count = got > 0 ? static_cast<std::size_t>(got) / sizeof(uint64_t) : 0;
    parse_group_read(words, word_count, count_, member_scale_, out);
    out.epoch = 0;
  }

  Reader kind() const override { return Reader::Read; }

 private:
  std::shared_ptr<const PerfGroup> group_;
  std::size_t count_;
  uint64_t member_scale_;
};

}  // namespace

std::unique_ptr<CounterReader> make_group_read_reader(std::shared_ptr<const PerfGroup> group, std::size_t count,
                                                      uint64_t member_scale) {
  return std::make_unique<GroupReadReader>(std::move(group), count, member_scale);
}

}  // namespace topdown::region
