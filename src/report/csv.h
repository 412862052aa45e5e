#pragma once
// CSV written from values, one field at a time, never by editing rendered
// text: a report's rows as fields, and the line writer that quotes them.
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "report/report.h"

namespace topdown::report {

using CsvRow = std::vector<std::string>;

// One CSV line ending in "\n": the fields joined by commas, a field quoted
// (its quotes doubled) when it holds a comma, a quote, CR or LF (RFC 4180).
std::string csv_line(const CsvRow& fields);
// The same line appended to `out`, with `leading` fields (a record's time
// and scope) before `fields`: no line is built apart, for streams of many.
void append_csv_line(std::string& out, const CsvRow& leading, const CsvRow& fields);

// The column names of a report's CSV, as README.md documents them.
const CsvRow& csv_header();
// The header of this evaluation's rows: with stat -r's spread columns after
// the others when it summarizes repeated runs.
CsvRow csv_header(const eval::Evaluation& evaluation);

// The columns of sampled reports (topdown report): function, module, share,
// samples, then csv_header()'s, then node_samples.
const CsvRow& csv_sampled_header();

// A hybrid CPU's report's core_type and core_share fields (empty when the
// share is not known), the columns a core_typed layout leads with.
CsvRow core_type_fields(const Report& report);

// The samples each node's value rests on (Sampled::node_samples).
using NodeSamples = std::map<std::string, uint64_t, std::less<>>;

// The fields of each node that every record repeats (kind, name, level,
// parent, vendor_name), written once: a stream of intervals would quote and
// format them thousands of times. Nodes are known by address: keep one for
// the reports of one model.
class CsvNodeFields {
 public:
  const std::string& of(const model::Node& node);

 private:
  std::unordered_map<const model::Node*, std::string> rendered_;
};

// A report's rows appended to `out`, each after the `leading` fields: each
// node and Info metric, then each extra event; with `node_samples` (topdown
// report), a column with the node's samples (empty for an event), then the
// sampled report's tree and call path.
// `identities` (optional) keeps the nodes' unchanging fields between calls.
void append_csv_rows(std::string& out, const CsvRow& leading, const eval::Evaluation& evaluation,
                     const counts::Sample& sample, const RunInfo& run, const NodeSamples* node_samples = nullptr,
                     CsvNodeFields* identities = nullptr);

}  // namespace topdown::report
