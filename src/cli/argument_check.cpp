#include "cli/argument_check.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "common/nearest_names.h"
#include "common/printable.h"

namespace topdown::cli {
namespace {

std::vector<std::string> option_names(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    for (const std::string& name : option->get_snames()) names.push_back("-" + name);
  }
  return names;
}

std::string command_name(const CLI::App& command) {
  return command.get_parent() == nullptr ? "topdown" : "topdown " + command.get_name();
}

std::string help_hint(const CLI::App& command) { return "; see '" + command_name(command) + " --help'"; }

// " (did you mean 'NAME'?)" for the nearest of `names`, or nothing.
std::string suggestion(std::string_view given, const std::vector<std::string>& names) {
  const auto nearest = nearest_name(given, names);
  return nearest ? " (did you mean '" + *nearest + "'?)" : "";
}

}  // namespace

std::optional<std::string> nearest_name(std::string_view given, const std::vector<std::string>& names) {
  // A third of the name may be wrong, at least one letter and at most three:
  // beyond that a suggestion is a guess, and so it is for a one-letter -x.
  if (given.size() < 4) return std::nullopt;
  const std::vector<std::string> nearest = nearest_names(given, names, std::clamp<std::size_t>(given.size() / 3, 1, 3));
  if (nearest.empty()) return std::nullopt;
  return nearest.front();
}

std::string unknown_command_message(std::string_view given, const std::vector<std::string>& commands) {
  return "topdown: unknown command '" + std::string(given) + "'" + suggestion(given, commands) +
         "; see 'topdown --help'";
}

std::string unknown_option_message(const CLI::App& command, std::string_view given) {
  const std::string_view name = given.substr(0, given.find('='));
  return command_name(command) + ": unknown option '" + printable(name) + "'" +
         suggestion(name, option_names(command)) + help_hint(command);
}

std::optional<std::string> leftover_error(const CLI::App& command, bool runs_a_command,
                                          const std::vector<std::string>& after_double_dash) {
  const std::vector<std::string> leftovers = command.remaining();
  if (runs_a_command) {
    if (!leftovers.empty() && leftovers.front().size() > 1 && leftovers.front().starts_with('-')) {
      return unknown_option_message(command, leftovers.front());
    }
    return std::nullopt;
  }
  for (const std::string& word : leftovers) {
    if (word.size() > 1 && word.starts_with('-')) return unknown_option_message(command, word);
  }
  if (!leftovers.empty()) {
    return command_name(command) + ": unexpected argument '" + printable(leftovers.front()) + "'" + help_hint(command);
  }
  if (!after_double_dash.empty()) {
    return command_name(command) + " runs no command: remove '-- " + printable(after_double_dash.front()) +
           (after_double_dash.size() > 1 ? " ...'" : "'") + help_hint(command);
  }
  return std::nullopt;
}

std::string parse_error_line(const CLI::App& app, const CLI::ParseError& error) {
  const std::vector<CLI::App*> parsed = app.get_subcommands();
  const CLI::App& where = parsed.empty() ? app : *parsed.front();
  std::string what = error.what();
  std::replace(what.begin(), what.end(), '\n', ' ');
  return command_name(where) + ": " + what + help_hint(where);
}

std::optional<std::string> option_before_command(const std::vector<std::string>& words,
                                                 const std::vector<std::string>& commands) {
  if (words.empty() || !words.front().starts_with('-')) return std::nullopt;
  const std::string& option = words.front();
  if (option == "-h" || option == "--help" || option == "--version") return std::nullopt;
  const auto named = std::find_first_of(words.begin(), words.end(), commands.begin(), commands.end());
  const std::string command = named == words.end() ? "COMMAND" : *named;
  return "topdown: '" + printable(option) + "' comes before the command: options follow it, as in 'topdown " + command +
         " " + printable(option) + " ...'; see 'topdown " + command + " --help'";
}

std::optional<std::string> value_error(const CLI::App& command) {
  for (const CLI::Option* option : command.get_options()) {
    if (option->get_items_expected_min() == 0) continue;  // a flag
    const std::string name = option->get_name();
    for (const std::string& value : option->results()) {
      if (value.empty()) {
        return command_name(command) + ": " + name + " '': give a value, or leave the option out for its default" +
               help_hint(command);
      }
      if (value.starts_with('=') && !option->get_snames().empty()) {
        const std::string short_name = "-" + option->get_snames().front();
        return command_name(command) + ": " + short_name + printable(value) +
               ": a short option takes its value after a space (" + short_name + " " + printable(value.substr(1)) +
               ", or " + name + printable(value) + ")" + help_hint(command);
      }
    }
  }
  return std::nullopt;
}

CLI::Validator number_that(const std::function<bool(double)>& fits, const std::string& what) {
  return CLI::Validator(
      [fits, what](const std::string& text) -> std::string {
        double value = 0;
        const char* end = text.data() + text.size();
        const auto [stop, error] = std::from_chars(text.data(), end, value);
        if (error == std::errc() && stop == end && std::isfinite(value) && fits(value)) return "";
        return "'" + printable(text) + "' is not " + what;
      },
      what);
}

CLI::Validator process_id_check() {
  return number_that(
      [](double pid) { return pid >= 1 && pid <= std::numeric_limits<int>::max() && pid == std::floor(pid); },
      "a process id (a whole number above 0)");
}

}  // namespace topdown::cli
