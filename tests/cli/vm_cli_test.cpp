// Virtual machines with partial PMUs (tests/data/sysfs-vm-*): `info --root`
// lists what the machine counts and what that costs the model, `stat --root
// --print-perf` plans only that and says what it leaves out, and a report of
// counts of such a plan shows the left-out nodes n/a with the reason, in
// text, CSV and JSON alike.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>

#include "eval/evaluate.h"
#include "events/model_resolver.h"
#include "report/report.h"
#include "run_command.h"
#include "schedule/plan.h"
#include "settings/stat.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::string kData = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/";

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(VmInfo, KvmGuestOnSapphireRapidsSaysWhatItCannotCount) {
  const auto r = run_command(kTopdown + " info --root " + kData + "sysfs-vm-kvm-spr");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.err, "cpu:            GenuineIntel family 0x6 model 0x8F stepping 8")) << r.err;
  EXPECT_TRUE(has(r.err, "nmi watchdog:   on: it holds a counter on every CPU; `sysctl kernel.nmi_watchdog=0`"))
      << r.err;
  EXPECT_TRUE(has(r.err, "hypervisor:     yes")) << r.err;
  EXPECT_TRUE(has(r.err, "model:          spr")) << r.err;
  // Without PERF_METRICS the TMA 5.2 model counts its nodes on general
  // counters, so no PERF_METRICS field is missed and the tree counts here.
  EXPECT_FALSE(has(r.err, "cannot count: PERF_METRICS")) << r.err;
  EXPECT_TRUE(has(r.err, "  counts:       model-specific events\n")) << r.err;
  EXPECT_TRUE(has(r.err, "  cannot count: uncore_imc events (no uncore_imc PMU in sysfs)\n")) << r.err;
  EXPECT_TRUE(has(r.err, "  counts:       FRONTEND_RETIRED.*\n")) << r.err;
  EXPECT_TRUE(has(r.err, "  perf metrics: off; general counters planned: 7 (one left to the NMI watchdog)\n")) << r.err;
  EXPECT_TRUE(has(r.err, "  not counted here (")) << r.err;
  EXPECT_TRUE(has(r.err, " Info_System_DRAM_BW_Use")) << r.err;
  EXPECT_FALSE(has(r.err, " Backend_Bound")) << r.err;
}

TEST(VmInfo, EachGuestListsItsOwnLimits) {
  const auto arch = run_command(kTopdown + " info --root " + kData + "sysfs-vm-arch-only");
  ASSERT_EQ(arch.exit_code, 0) << arch.err;
  EXPECT_TRUE(has(arch.err,
                  "  cannot count: model-specific events (its kernel drives it as generic_arch_v2+, which "
                  "counts only the architectural events)\n"))
      << arch.err;
  const auto terms = run_command(kTopdown + " info --root " + kData + "sysfs-vm-no-terms");
  ASSERT_EQ(terms.exit_code, 0) << terms.err;
  EXPECT_TRUE(has(terms.err, "  cannot count: FRONTEND_RETIRED.* (frontend term missing)\n")) << terms.err;
  EXPECT_TRUE(has(terms.err, "  cannot count: OCR.* (offcore response) (offcore_rsp term missing)\n")) << terms.err;
  EXPECT_TRUE(has(terms.err, "  perf metrics: on;")) << terms.err;
  const auto zen4 = run_command(kTopdown + " info --root " + kData + "sysfs-vm-zen4");
  ASSERT_EQ(zen4.exit_code, 0) << zen4.err;
  EXPECT_TRUE(has(zen4.err, "general counters: 6 reported")) << zen4.err;
  EXPECT_TRUE(has(zen4.err, "  every node and Info metric of the model counts here\n")) << zen4.err;
}

TEST(VmPrintPerf, KvmGuestPlansOneCounterFewerAndSaysWhatItLeavesOut) {
  const auto r = run_command(kTopdown + " stat --root " + kData + "sysfs-vm-kvm-spr -l 3 --print-perf -- ./app");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.err,
                  "# the NMI watchdog (/proc/sys/kernel/nmi_watchdog is 1) holds a counter on every CPU, so the "
                  "plan uses 7 general counters; free it with `sysctl kernel.nmi_watchdog=0`"))
      << r.err;
  // Said once, as a comment of the plan (no `topdown: note:` line a shell would run).
  EXPECT_EQ(r.err.find("NMI watchdog"), r.err.rfind("NMI watchdog")) << r.err;
  EXPECT_TRUE(has(r.err, "perf stat -x, -o perf.csv -e ")) << r.err;
  EXPECT_FALSE(has(r.err, "PERF_METRICS.")) << r.err;
  EXPECT_FALSE(has(r.err, "perf stat -a")) << r.err;  // no uncore
  const auto groups = run_command(kTopdown + " stat --root " + kData + "sysfs-vm-kvm-spr -l 3 --print-groups");
  ASSERT_EQ(groups.exit_code, 0) << groups.err;
  EXPECT_TRUE(has(groups.err, "on 7 general counters + 4 fixed (one more is the NMI watchdog's)")) << groups.err;
}

TEST(VmPrintPerf, ArchitecturalOnlyGuestPlansOnlyArchitecturalEvents) {
  const auto r = run_command(kTopdown + " stat --root " + kData + "sysfs-vm-arch-only -l 2 --print-perf -- ./app");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.err,
                  "# not counted (this machine's PMU does not count model-specific events: its kernel drives "
                  "it as generic_arch_v2+, which counts only the architectural events, a virtual machine?): "))
      << r.err;
  EXPECT_TRUE(has(r.err, "Frontend_Bound")) << r.err;
  EXPECT_FALSE(has(r.err, "UOPS_ISSUED")) << r.err;
}

TEST(VmPrintPerf, NoTermsGuestLeavesOutOnlyTheTermsEvents) {
  const auto r = run_command(kTopdown + " stat --root " + kData + "sysfs-vm-no-terms -l 4 --print-perf -- ./app");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.err,
                  "# not counted (this machine's PMU does not count OCR.* (offcore response): offcore_rsp "
                  "term missing, a virtual machine?): "))
      << r.err;
  EXPECT_TRUE(has(r.err, "PERF_METRICS.RETIRING")) << r.err;
  EXPECT_FALSE(has(r.err.substr(r.err.find("perf stat ")), "OCR.")) << r.err;
}

// A stat of fake counts on the architectural-events-only guest: every event
// of the plan counted; the nodes it left out are n/a with the reason in
// every format, IPC is computed.
TEST(VmReport, LeftOutNodesAreNaWithTheReasonInEveryFormat) {
  const std::filesystem::path root = kData + "sysfs-vm-arch-only";
  const cpu::CpuInfo cpu = cpu::detect(root / "sys", root / "proc", cpu::CounterCheck::Skip);
  const model::Model model = model::select_model(std::string(TOPDOWN_SOURCE_DIR) + "/models", cpu.id);
  const events::Resolver resolver(events::resolver_config(model, cpu));
  settings::StatOptions options;
  options.all_info = true;
  settings::StatPlanning planning = settings::plan_stat(options, cpu, model, {});
  settings::find_countable(planning, options.perf_metrics, cpu, model, resolver, schedule::TrialOpen());
  const schedule::Plan plan =
      schedule::make_plan(model, planning.vars, planning.selection, resolver, planning.budget, planning.countable);
  counts::Sample sample;
  sample.duration_s = 1;
  for (const schedule::Group& group : plan.groups) {
    for (const events::Encoding& event : group.events) sample.add({event.name, 0}, {2e9, 1000000000, 1000000000});
  }
  eval::Options eval_options;
  eval_options.vars = planning.vars;
  eval_options.identities = plan.identities;
  eval_options.uncountable_events = plan.uncountable_events;
  const eval::Evaluation evaluation = eval::evaluate(model, plan.nodes, sample, eval_options);
  const eval::NodeResult* frontend = evaluation.find("Frontend_Bound");
  ASSERT_NE(frontend, nullptr);
  EXPECT_FALSE(frontend->value.has_value());
  EXPECT_TRUE(has(frontend->not_countable, "generic_arch_v2+")) << frontend->not_countable;
  const eval::NodeResult* ipc = evaluation.find("Info_Thread_IPC");
  ASSERT_NE(ipc, nullptr);
  ASSERT_TRUE(ipc->value.has_value());
  EXPECT_DOUBLE_EQ(*ipc->value, 1.0);
  report::RunInfo run;
  run.model_name = model.name;
  const std::string reason =
      "this machine's PMU does not count model-specific events: its kernel drives it as "
      "generic_arch_v2+";
  EXPECT_TRUE(has(report::render_text(evaluation, sample, run, {}), reason));
  EXPECT_TRUE(has(report::render_csv(evaluation, sample, run), reason));
  const nlohmann::json json = nlohmann::json::parse(report::render_json(evaluation, sample, run));
  EXPECT_TRUE(has(json.dump(), reason));
}

}  // namespace
}  // namespace topdown::testing
