#pragma once
// CSV written from values, one field at a time, never by editing rendered
// text: a report's rows as fields, and the line writer that quotes them.
#include <string>
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

// A report's rows, unquoted: each node and Info metric, then each extra event.
std::vector<CsvRow> csv_rows(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run);

}  // namespace topdown::report
