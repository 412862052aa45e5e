#pragma once
// `perf script` output of a leader-sampled recording (`perf record -e
// '{a,b,c}:S'`, what `topdown record --print-perf` prints) read into a
// Recording, so that samples taken where topdown does not run are profiled
// as `import` analyses counts. The fields and layouts it reads are in
// README.md ("Profiling perf's samples").
#include <string>
#include <string_view>

#include "events/event.h"
#include "model/model.h"
#include "recording/recording.h"

namespace topdown::recording {

// The `perf script -F` field list the README asks for: everything the reader
// uses. perf's default layout works too (without source lines).
inline constexpr const char* kPerfScriptFields = "comm,tid,pid,time,period,event,ip,sym,dso,srcline";

// Whether `text` (a file's start) is perf script output: its first line
// that is not a # comment holds perf's time field ("11250.862340:"), which
// perf stat's outputs never do.
bool looks_like_perf_script(std::string_view text);

// Reads `path`: each line one group member of one sample (its period is what
// the member counted since the previous sample of its stream), the leader's
// line first, the members' lines after it with the same thread, time and ip;
// perf leaves out a member that counted nothing, which reads as 0. Groups
// come from the `# group: {a,b}` lines of `perf script --header`, else from
// the lines that follow each leader. Event names are matched to the model's
// events as `import` matches them (by name or encoding for the model's CPU)
// or to the model's sample events by name. Every sample carries `symbol`:
// perf already named its function. `--show-lost-events` lines add to
// lost_samples; a last line cut off sets `truncated` with a warning.
// Throws ParseError "path:line: ..." for a line without a field it needs,
// naming the perf script -F list to use, or an event the model does not
// know; Error for a file that cannot be read or holds no samples.
Recording read_perf_script(const std::string& path, const model::Model& model, const events::Resolver& resolver);

// One core type's model of a hybrid CPU, and its resolver.
struct ScriptModel {
  const model::Model& model;
  const events::Resolver& resolver;
};

// As above with each core type's model (`models`: the P-core model first,
// each with its PMU): a file whose events are named cpu_core/EVENT/ and
// cpu_atom/EVENT/ (perf's spelling on a hybrid CPU) gets each group's events
// matched by the model of its leader's core PMU, the group's `pmu` and the
// header's core_types set; groups of a core PMU no model counts on are left
// out with a warning. A file of no core PMU is read with the first model.
Recording read_perf_script(const std::string& path, const std::vector<ScriptModel>& models);

}  // namespace topdown::recording
