#pragma once
// The subcommands. Each returns the process exit status.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compare/compare.h"
#include "settings/options.h"

namespace topdown::cli {

using settings::ImportOptions;
using settings::ProfileOptions;
using settings::RecordOptions;
using settings::ReportOptions;
using settings::StatOptions;

int run_stat(const StatOptions& options);
int run_import(const ImportOptions& options);
int run_record(const RecordOptions& options);
int run_report(const ProfileOptions& options);
// The reports import writes for `options`, handed to `write` record by record.
void import_records(const ImportOptions& options, const std::function<void(std::string_view)>& write);

// topdown compare A B (compare_command.cpp).
struct CompareOptions {
  std::string a;
  std::string b;
  double alpha = 0.05;
  double min_change = compare::kDefaultMinChange;  // points, or percent for Info metrics
  std::vector<std::string> fail_if;                // NODE>+LIMIT, NODE<-LIMIT
  ReportOptions report;                            // -l (for perf files), --csv, --json, -o, --no-color, --html
  std::string cpu;                                 // the model for perf files and perf script
  std::string model_file;                          // --model FILE: the model for recordings and perf script
  settings::Toggle smt = settings::Toggle::Auto;
};
// Exit status: 0, or kGateFailed when a --fail-if gate tripped.
constexpr int kGateFailed = 1;
int run_compare(const CompareOptions& options);
// topdown info; `root`: read ROOT/sys and ROOT/proc (another machine's, a test's tree).
int run_info(const std::string& root);
int run_list(const std::string& cpu, const std::string& metrics_file);
// topdown list --models: every model of the model folder, one row each.
enum class ModelListFormat { Text, Markdown };
int run_list_models(ModelListFormat format);
int run_describe(const std::string& name, const std::string& cpu, const std::string& metrics_file);

}  // namespace topdown::cli
