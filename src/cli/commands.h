#pragma once
// The subcommands. Each returns the process exit status.
#include <string>

#include "settings/options.h"

namespace topdown::cli {

using settings::ImportOptions;
using settings::RecordOptions;
using settings::ProfileOptions;
using settings::ReportOptions;
using settings::StatOptions;

int run_stat(const StatOptions& options);
int run_import(const ImportOptions& options);
int run_record(const RecordOptions& options);
int run_report(const ProfileOptions& options);
int run_info();
int run_list(const std::string& cpu, const std::string& metrics_file);
int run_describe(const std::string& name, const std::string& cpu, const std::string& metrics_file);

}  // namespace topdown::cli
