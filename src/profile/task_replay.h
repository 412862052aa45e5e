#pragma once
// A recording's executable mappings and task events fed to a resolver in
// time order, up to each sample's time: the address spaces as they were
// when the sample was taken.
#include <cstddef>
#include <cstdint>

#include "recording/recording.h"

namespace topdown::profile {

// `Resolver` has symbols::Symbolizer's map, exec, fork and exit members.
template <class Resolver>
class TaskReplay {
 public:
  TaskReplay(const recording::Recording& recording, Resolver& resolver) : recording_(recording), resolver_(resolver) {}

  // Feeds what happened up to `time` (of one instant, mappings before task
  // events); true when an address space changed (a mapping, exec or exit).
  bool until(uint64_t time) {
    bool changed = false;
    const auto& mappings = recording_.mappings;
    const auto& tasks = recording_.tasks;
    while (true) {
      const bool mapping_next = next_mapping_ < mappings.size() && mappings[next_mapping_].time <= time &&
                                (next_task_ >= tasks.size() || mappings[next_mapping_].time <= tasks[next_task_].time);
      if (mapping_next) {
        const recording::Mapping& m = mappings[next_mapping_++];
        if (m.executable) {
          resolver_.map(m.pid, m.start, m.length, m.file_offset, m.path, m.build_id);
          changed = true;
        }
        continue;
      }
      if (next_task_ >= tasks.size() || tasks[next_task_].time > time) return changed;
      const recording::Task& task = tasks[next_task_++];
      switch (task.kind) {
        case recording::Task::Kind::Exec:
          resolver_.exec(task.pid);
          changed = true;
          break;
        case recording::Task::Kind::Fork:
          if (task.pid == task.tid) resolver_.fork(task.pid, task.parent_pid);  // a new thread shares its maps
          break;
        case recording::Task::Kind::Exit:
          if (task.pid == task.tid) {
            resolver_.exit(task.pid);
            changed = true;
          }
          break;
        case recording::Task::Kind::Comm:
          break;
      }
    }
  }

 private:
  const recording::Recording& recording_;
  Resolver& resolver_;
  std::size_t next_mapping_ = 0;
  std::size_t next_task_ = 0;
};

}  // namespace topdown::profile
