#pragma once
// What the option parser leaves over, checked before anything runs: an
// unknown or misplaced option is an error naming it (and the nearest valid
// option), never the start of a command to run.
#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topdown::cli {

// The valid name closest to `given` among `names` when it is close enough to
// be the one meant (a typo or a dropped letter); nullopt otherwise, and for
// names too short to tell a typo from another option.
std::optional<std::string> nearest_name(std::string_view given, const std::vector<std::string>& names);

// "topdown: unknown command 'stats' (did you mean 'stat'?); see 'topdown
// --help'" for a first word that names none of `commands`.
std::string unknown_command_message(std::string_view given, const std::vector<std::string>& commands);

// "unknown option '--bogus' (did you mean '--info'?)" for `command`'s options
// (its --long names and -s short names).
std::string unknown_option_message(const CLI::App& command, std::string_view given);

// The one-line error for the words the parser left over in the subcommand
// `command`, or nullopt when they are fine: a subcommand that runs a command
// (stat, record) takes its first non-option word and all after it as the
// command, so only an option before it is wrong; any other subcommand takes
// no leftovers and no command after "--".
std::optional<std::string> leftover_error(const CLI::App& command, bool runs_a_command,
                                          const std::vector<std::string>& after_double_dash);

// A parse failure of CLI11 as one line that names the subcommand and where to
// read its options.
std::string parse_error_line(const CLI::App& app, const CLI::ParseError& error);

// The one-line error for an option before the subcommand ("topdown -l 2
// stat"), naming the subcommand among `words` (the arguments) when there is
// one; nullopt when `words` starts with no such option.
std::optional<std::string> option_before_command(const std::vector<std::string>& words,
                                                 const std::vector<std::string>& commands);

// The one-line error for a value the parser took but no option can mean, or
// nullopt: an empty value (-o '', --cpu '': the default would silently take
// its place), or one that starts with '=' (-l=2: a short option's value
// follows it without '='). Also for what the parser stored before it failed.
std::optional<std::string> value_error(const CLI::App& command);

// A check for a number option: the value must be a finite number that
// `fits` accepts; otherwise "'TEXT' is not WHAT".
CLI::Validator number_that(const std::function<bool(double)>& fits, const std::string& what);

// -p's check: each of its values a process id.
CLI::Validator process_id_check();

}  // namespace topdown::cli
