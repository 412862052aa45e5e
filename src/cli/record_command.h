#pragma once
// `topdown record`'s options, registered on the program's parser.
#include <CLI/CLI.hpp>

#include "settings/options.h"

namespace topdown::cli {

// Adds the record subcommand, parsing into `options`; the command after
// "--" is the caller's to fill in.
CLI::App* add_record_command(CLI::App& app, settings::RecordOptions& options);

}  // namespace topdown::cli
