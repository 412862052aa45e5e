#pragma once
// Every counter group opened on every place it counts: one task (the
// workload, or each thread of an attached process) or one CPU. Private to the
// collect stage.
#include <sys/types.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "collect/collect.h"
#include "counts/counts.h"
#include "perf/group.h"

namespace topdown::collect {

// perf_event_open's (pid, cpu): a task on any CPU (cpu -1), everything on
// one CPU (pid -1), or a cgroup's tasks on one CPU (pid the descriptor of
// its directory).
struct Placement {
  pid_t pid = -1;
  int cpu = -1;
  bool attached = false;  // a process given with -p, named in errors
  // As perf labels it: "CPU3", "COMM-TID" (a thread of an attached process,
  // like --per-thread), the command's name for the workload.
  std::string label;
  std::string cgroup;  // the cgroup's name when pid is its directory's descriptor
};

class CounterSet {
 public:
  // Opens each group on each placement. A thread that exits before its
  // counters are open is left out; an event the kernel refuses while its PMU
  // counts the others is left out, said once on stderr with
  // perf::explain_open_failure's reason (what needs it is then n/a); any
  // other failure throws Error with that reason.
  CounterSet(const std::vector<CounterGroup>& groups, const std::vector<Placement>& placements, const Options& options,
             Start start);

  // Starts the leaders opened with Start::OnEnable.
  void enable() const;
  // Running totals since the start of each placement that has counters, in
  // the order of the placements, labelled as Placement::label; one Count per
  // event name, not scaled.
  std::vector<counts::Place> read() const;

  // Each open event on a CPU placement with its descriptor, for a reader
  // other than read(): the BPF way hands them to its program.
  struct OpenEvent {
    int cpu;
    counts::EventKey key;
    int fd;
  };
  std::vector<OpenEvent> open_events() const;

 private:
  // One CounterGroup opened on one placement; its events are read one by one.
  struct OpenGroup {
    size_t placement;                    // index into placements_
    std::vector<counts::EventKey> keys;  // of each event, as its counts are labelled
    perf::Group group;
    // A software event in a cgroup runs only while the cgroup has a task on
    // its CPU, and never shares a counter: its count is exact, and the
    // kernel's enabled time (which can run on across a task's migration) is
    // replaced by its running time rather than used to scale it.
    std::vector<bool> exact_when_running;
  };
  // Opens `group` on placements_[placement], on `box_type` when given; false
  // when the placement's thread ended meanwhile.
  bool open_group(const CounterGroup& group, size_t placement, std::optional<uint32_t> box_type, const Options& options,
                  Start start);

  std::set<std::string, std::less<>> refused_;  // events left out, each said once
  std::vector<Placement> placements_;           // those with counters
  std::vector<OpenGroup> groups_;
};

}  // namespace topdown::collect
