// Counting by cgroup with one set of counters per CPU (collect/bpf_cgroups.h).
// The plan's events are opened once on each CPU; whenever a CPU switches
// from one cgroup's task to another's (the cgroup-switches software event),
// this reads every event on that CPU and adds what it advanced since the
// last reading there to each counted cgroup the outgoing task is in (its
// own and its counted ancestors). User space runs the same reading on
// every CPU just before it collects the sums, so the running task's share
// is not left out.
//
// Only uapi types are used, so no vmlinux.h (and no BTF of the build
// machine's kernel) is needed.
#include <linux/bpf.h>
// After the uapi types it uses:
#include <bpf/bpf_helpers.h>

#define MAX_EVENTS 64  // events of one plan, well above what a TMA tree counts
#define MAX_LEVELS 16  // cgroup nesting searched, from the root down
#define NO_SLOT 0xffffffffu

// The counter of event E on CPU C at E * cpu_slots + C.
struct {
  __uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
  __uint(key_size, sizeof(__u32));
  __uint(value_size, sizeof(__u32));
} counters SEC(".maps");

// Cgroup id (as name_to_handle_at gives it) -> the cgroup's slot in sums.
struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __type(key, __u64);
  __type(value, __u32);
} slot_of_cgroup SEC(".maps");

// What each event read on this CPU when it was last read here.
struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __type(key, __u32);
  __type(value, struct bpf_perf_event_value);
} last_reading SEC(".maps");

// Each counted cgroup's running totals on this CPU: slot * event_count + E.
struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __type(key, __u32);
  __type(value, struct bpf_perf_event_value);
} sums SEC(".maps");

// Set before loading.
const volatile __u32 event_count = 0;
const volatile __u32 cpu_slots = 1;

static __always_inline void add(struct bpf_perf_event_value *sum, const struct bpf_perf_event_value *step) {
  __sync_fetch_and_add(&sum->counter, step->counter);
  __sync_fetch_and_add(&sum->enabled, step->enabled);
  __sync_fetch_and_add(&sum->running, step->running);
}

// What one reading on this CPU adds to: the slot of the task's cgroup at
// each level (NO_SLOT: not counted) down to its own cgroup's level.
struct task_slots {
  __u32 slot[MAX_LEVELS];
  __u32 depth;
  __u32 cpu;
};

// Event `event`'s advance since its last reading here, added to each slot.
// A bpf_loop callback: the verifier checks it once for any event count.
static long account_event(__u32 event, void *context) {
  const struct task_slots *task = context;
  struct bpf_perf_event_value now;
  if (bpf_perf_event_read_value(&counters, event * cpu_slots + task->cpu, &now, sizeof now) != 0) return 0;
  struct bpf_perf_event_value *last = bpf_map_lookup_elem(&last_reading, &event);
  if (!last) return 0;
  const struct bpf_perf_event_value step = {
      .counter = now.counter - last->counter,
      .enabled = now.enabled - last->enabled,
      .running = now.running - last->running,
  };
  *last = now;
  for (__u32 level = 0; level < MAX_LEVELS; ++level) {
    if (level >= task->depth) break;
    const __u32 slot = task->slot[level];
    if (slot == NO_SLOT) continue;
    const __u32 key = slot * event_count + event;
    struct bpf_perf_event_value *sum = bpf_map_lookup_elem(&sums, &key);
    if (sum) add(sum, &step);
  }
  return 0;
}

static __always_inline int account_current_task(void) {
  struct task_slots task = {.depth = 0, .cpu = bpf_get_smp_processor_id()};
  // Levels are searched from the root (0) down by id, so a cgroup namespace,
  // whose root is not the hierarchy's, changes nothing.
  for (__u32 level = 0; level < MAX_LEVELS; ++level) {
    task.slot[level] = NO_SLOT;
    if (task.depth < level) continue;  // below the task's own cgroup
    const __u64 id = bpf_get_current_ancestor_cgroup_id(level);
    if (id == 0) continue;
    const __u32 *slot = bpf_map_lookup_elem(&slot_of_cgroup, &id);
    if (slot) task.slot[level] = *slot;
    task.depth = level + 1;
  }
  bpf_loop(event_count < MAX_EVENTS ? event_count : MAX_EVENTS, account_event, &task, 0);
  return 0;
}

// Attached to the cgroup-switches event of each CPU: runs in the switch,
// while the outgoing task is still current.
SEC("perf_event")
int on_cgroup_switch(void *context) { return account_current_task(); }

// Run by user space on each CPU (BPF_PROG_TEST_RUN with a CPU) before it
// reads the sums; never attached.
SEC("raw_tp/sched_switch")
int on_read(void *context) { return account_current_task(); }

char LICENSE[] SEC("license") = "Dual BSD/GPL";
