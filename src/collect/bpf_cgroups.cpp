#include "collect/bpf_cgroups.h"

#include "common/error.h"

#if TOPDOWN_HAVE_BPF

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <fmt/format.h>
#include <linux/perf_event.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <string>

#include "cgroup_counts.skel.h"
#include "collect/counter_set.h"
#include "common/fd.h"

namespace topdown::collect {
namespace {

constexpr size_t kMaxEvents = 64;       // MAX_EVENTS of the program
constexpr uint32_t kMinSlots = 512;     // cgroups counted at once, at least
constexpr uint32_t kSlotsPerFound = 4;  // room for cgroups made later, per cgroup there at the start

// libbpf's own messages (and the verifier's log) would be noise: a failure
// is said once, with its errno, by the Error thrown.
int quiet(enum libbpf_print_level /*level*/, const char* /*format*/, va_list /*arguments*/) { return 0; }

struct SkeletonDeleter {
  void operator()(cgroup_counts* skeleton) const { cgroup_counts__destroy(skeleton); }
};
using Skeleton = std::unique_ptr<cgroup_counts, SkeletonDeleter>;

struct LinkDeleter {
  void operator()(bpf_link* link) const { bpf_link__destroy(link); }
};
using Link = std::unique_ptr<bpf_link, LinkDeleter>;

std::string failure(std::string_view what, int err) {
  return fmt::format("--cgroup-counting bpf: {}: {}", what, std::strerror(err < 0 ? -err : err));
}

// The program (with maps sized for `events` events and `slots` cgroups),
// loaded into the kernel.
Skeleton load_program(size_t events, uint32_t slots, int possible_cpus) {
  libbpf_set_print(quiet);
  Skeleton skeleton(cgroup_counts__open());
  if (!skeleton) throw Error(failure("cannot open the BPF program", errno));
  skeleton->rodata->event_count = static_cast<uint32_t>(events);
  skeleton->rodata->cpu_slots = static_cast<uint32_t>(possible_cpus);
  const auto entries = [](size_t n) { return static_cast<uint32_t>(std::max<size_t>(n, 1)); };
  bpf_map__set_max_entries(skeleton->maps.counters, entries(events * static_cast<size_t>(possible_cpus)));
  bpf_map__set_max_entries(skeleton->maps.slot_of_cgroup, slots);
  bpf_map__set_max_entries(skeleton->maps.last_reading, entries(events));
  bpf_map__set_max_entries(skeleton->maps.sums, entries(events * slots));
  if (const int err = cgroup_counts__load(skeleton.get())) {
    throw Error(failure("the kernel refused the BPF program (needs root, or CAP_BPF and CAP_PERFMON)", err));
  }
  return skeleton;
}

// The cgroup-switches software event of `cpu`, whose every occurrence runs
// the program, attached; -1 ... as the errno.
Link attach_to_switches(const cgroup_counts& skeleton, int cpu) {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_CGROUP_SWITCHES;
  attr.sample_period = 1;
  attr.disabled = 1;  // the attachment enables it
  Fd event(static_cast<int>(::syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC)));
  if (!event.valid()) throw Error(failure(fmt::format("cannot open the cgroup-switches event on CPU {}", cpu), errno));
  Link link(bpf_program__attach_perf_event(skeleton.progs.on_cgroup_switch, event.get()));
  if (!link) throw Error(failure(fmt::format("cannot attach the BPF program on CPU {}", cpu), errno));
  (void)event.release();  // the link closes it
  return link;
}

// The id the kernel gives a cgroup v2 directory: its inode number (kernfs
// numbers inodes by node id on 64-bit machines); 0 when it is gone.
uint64_t cgroup_id(const std::filesystem::path& directory) {
  struct stat status {};
  if (::stat(directory.c_str(), &status) != 0) return 0;
  return status.st_ino;
}

}  // namespace

struct BpfCgroups::State {
  struct Counted {
    uint64_t id;
    uint32_t slot;
  };

  std::vector<int> cpus;
  std::optional<CgroupTree> tree;
  int possible_cpus = 0;
  uint32_t slots = 0;
  std::unique_ptr<CounterSet> counters;
  std::vector<counts::EventKey> events;        // index in the program's maps
  std::set<std::pair<size_t, int>> opened_on;  // (event, CPU) pairs that have a counter
  Skeleton skeleton;
  std::vector<Link> links;
  std::map<std::string, Counted> counted;  // by cgroup name
  std::vector<uint32_t> free_slots;
  uint32_t next_slot = 0;
  bool said_full = false;

  int map_fd(const bpf_map* map) const { return bpf_map__fd(map); }

  void count(const Cgroup& cgroup);
  void forget(const std::string& name);
  void run_on_every_cpu() const;
  std::vector<bpf_perf_event_value> sums_so_far() const;
};

// Its slot starts from zero, then the program finds it by id.
void BpfCgroups::State::count(const Cgroup& cgroup) {
  const uint64_t id = cgroup_id(cgroup.directory);
  if (id == 0) return;  // removed meanwhile
  uint32_t slot = 0;
  if (!free_slots.empty()) {
    slot = free_slots.back();
    free_slots.pop_back();
  } else if (next_slot < slots) {
    slot = next_slot++;
  } else {
    if (!said_full) {
      std::fprintf(stderr,
                   "topdown: warning: the BPF way counts %u cgroups at once; %s and any more are not counted (restart "
                   "serve to make room, or use --cgroup-counting perf)\n",
                   slots, cgroup.name.c_str());
      said_full = true;
    }
    return;
  }
  const std::vector<bpf_perf_event_value> zero(static_cast<size_t>(possible_cpus));
  for (size_t event = 0; event < events.size(); ++event) {
    const auto key = static_cast<uint32_t>(slot * events.size() + event);
    if (bpf_map_update_elem(map_fd(skeleton->maps.sums), &key, zero.data(), BPF_ANY) != 0)
      throw Error(failure("cannot clear a cgroup's sums", errno));
  }
  if (bpf_map_update_elem(map_fd(skeleton->maps.slot_of_cgroup), &id, &slot, BPF_ANY) != 0)
    throw Error(failure("cannot add cgroup " + cgroup.name, errno));
  counted.emplace(cgroup.name, Counted{id, slot});
}

void BpfCgroups::State::forget(const std::string& name) {
  const auto it = counted.find(name);
  bpf_map_delete_elem(map_fd(skeleton->maps.slot_of_cgroup), &it->second.id);
  free_slots.push_back(it->second.slot);
  counted.erase(it);
}

// The task running on each CPU has its share since the last switch added.
void BpfCgroups::State::run_on_every_cpu() const {
  const int program = bpf_program__fd(skeleton->progs.on_read);
  for (const int cpu : cpus) {
    bpf_test_run_opts run{};
    run.sz = sizeof run;
    run.flags = BPF_F_TEST_RUN_ON_CPU;
    run.cpu = static_cast<uint32_t>(cpu);
    if (const int err = bpf_prog_test_run_opts(program, &run))
      throw Error(failure(fmt::format("cannot run the BPF program on CPU {}", cpu), err));
  }
}

// Every slot's sums up to the highest used, each CPU's value in turn.
std::vector<bpf_perf_event_value> BpfCgroups::State::sums_so_far() const {
  const auto entries = static_cast<uint32_t>(next_slot * events.size());
  std::vector<bpf_perf_event_value> values(static_cast<size_t>(entries) * static_cast<size_t>(possible_cpus));
  std::vector<uint32_t> keys(entries);
  uint32_t done = 0;
  uint32_t batch = 0;
  bool first = true;
  while (done < entries) {
    uint32_t count = entries - done;
    const int err =
        bpf_map_lookup_batch(map_fd(skeleton->maps.sums), first ? nullptr : &batch, &batch, keys.data() + done,
                             values.data() + static_cast<size_t>(done) * possible_cpus, &count, nullptr);
    first = false;
    done += count;
    if (err != 0 && errno != ENOENT) throw Error(failure("cannot read the cgroups' sums", errno));
    if (err != 0 || count == 0) break;
  }
  return values;
}

BpfCgroups::BpfCgroups(std::vector<Cgroup> cgroups, std::optional<CgroupTree> tree, std::vector<int> cpus,
                       const std::vector<CounterGroup>& groups, const Options& options)
    : state_(std::make_unique<State>()) {
  State& state = *state_;
  state.cpus = std::move(cpus);
  state.tree = std::move(tree);
  state.possible_cpus = libbpf_num_possible_cpus();
  if (state.possible_cpus <= 0) throw Error(failure("cannot count the possible CPUs", state.possible_cpus));
  if (state.tree) cgroups = cgroups_in(*state.tree);

  std::vector<CounterGroup> task_groups;
  for (const CounterGroup& group : groups) {
    if (!group.events.empty() && !group.events.front().uncore) task_groups.push_back(group);
  }
  std::vector<Placement> placements;
  for (const int cpu : state.cpus) placements.push_back({-1, cpu, false, "CPU" + std::to_string(cpu), {}});
  Options counting = options;
  counting.count_children = false;  // the program reads them on their CPU, which an inherited counter refuses
  state.counters = std::make_unique<CounterSet>(task_groups, placements, counting, Start::OnEnable);

  const std::vector<CounterSet::OpenEvent> opened = state.counters->open_events();
  std::map<counts::EventKey, size_t, counts::EventKeyLess> index;
  for (const CounterSet::OpenEvent& event : opened) {
    if (index.emplace(event.key, state.events.size()).second) state.events.push_back(event.key);
  }
  if (state.events.size() > kMaxEvents) {
    throw Error(
        fmt::format("--cgroup-counting bpf counts at most {} events and the plan has {}; use "
                    "--cgroup-counting perf or a lower --level",
                    kMaxEvents, state.events.size()));
  }
  state.slots = std::max<uint32_t>(kMinSlots, static_cast<uint32_t>(cgroups.size()) * kSlotsPerFound);
  state.skeleton = load_program(state.events.size(), state.slots, state.possible_cpus);
  for (const CounterSet::OpenEvent& event : opened) {
    const size_t number = index.at(event.key);
    const auto key = static_cast<uint32_t>(number * static_cast<size_t>(state.possible_cpus) + event.cpu);
    if (bpf_map_update_elem(state.map_fd(state.skeleton->maps.counters), &key, &event.fd, BPF_ANY) != 0)
      throw Error(
          failure(fmt::format("the kernel refused the counter of '{}' to the BPF program", event.key.event), errno));
    state.opened_on.emplace(number, event.cpu);
  }
  for (const Cgroup& cgroup : cgroups) state.count(cgroup);
  for (const int cpu : state.cpus) state.links.push_back(attach_to_switches(*state.skeleton, cpu));
}

BpfCgroups::~BpfCgroups() = default;

void BpfCgroups::enable() const { state_->counters->enable(); }

std::vector<counts::Place> BpfCgroups::read() {
  State& state = *state_;
  std::set<std::string> gone;
  if (state.tree) {
    std::set<std::string> present;
    for (const Cgroup& cgroup : cgroups_in(*state.tree)) {
      present.insert(cgroup.name);
      if (state.counted.count(cgroup.name) == 0) state.count(cgroup);
    }
    for (const auto& [name, counted] : state.counted) {
      if (present.count(name) == 0) gone.insert(name);
    }
  }
  state.run_on_every_cpu();
  const std::vector<bpf_perf_event_value> sums = state.sums_so_far();
  const auto cpus = static_cast<size_t>(state.possible_cpus);
  std::vector<counts::Place> places;
  for (const auto& [name, counted] : state.counted) {
    for (const int cpu : state.cpus) {
      counts::Place& place = places.emplace_back("CPU" + std::to_string(cpu), counts::Sample{}, name);
      for (size_t event = 0; event < state.events.size(); ++event) {
        if (state.opened_on.count({event, cpu}) == 0) continue;
        const bpf_perf_event_value& sum =
            sums[(counted.slot * state.events.size() + event) * cpus + static_cast<size_t>(cpu)];
        place.sample.add(state.events[event], {static_cast<double>(sum.counter), sum.enabled, sum.running});
      }
    }
  }
  for (const std::string& name : gone) state.forget(name);
  return places;
}

std::optional<std::string> bpf_refused(int cpu) {
  try {
    const Skeleton skeleton = load_program(1, 1, libbpf_num_possible_cpus());
    const Link link = attach_to_switches(*skeleton, cpu);
    bpf_test_run_opts run{};
    run.sz = sizeof run;
    run.flags = BPF_F_TEST_RUN_ON_CPU;
    run.cpu = static_cast<uint32_t>(cpu);
    if (const int err = bpf_prog_test_run_opts(bpf_program__fd(skeleton->progs.on_read), &run))
      throw Error(failure("the kernel cannot run the BPF program on a chosen CPU", err));
  } catch (const Error& error) {
    return error.what();
  }
  return std::nullopt;
}

}  // namespace topdown::collect

#else

namespace topdown::collect {

struct BpfCgroups::State {};

BpfCgroups::BpfCgroups(std::vector<Cgroup> /*cgroups*/, std::optional<CgroupTree> /*tree*/, std::vector<int> /*cpus*/,
                       const std::vector<CounterGroup>& /*groups*/, const Options& /*options*/) {
  throw Error(*bpf_refused(0));
}

BpfCgroups::~BpfCgroups() = default;

void BpfCgroups::enable() const {}

std::vector<counts::Place> BpfCgroups::read() { return {}; }

std::optional<std::string> bpf_refused(int /*cpu*/) {
  return "--cgroup-counting bpf: this topdown was built without libbpf";
}

}  // namespace topdown::collect

#endif
