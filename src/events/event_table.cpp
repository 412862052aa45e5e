#include "events/event_table.h"

#include <cctype>
#include <vector>

#include "common/input_file.h"
#include "common/strings.h"
#include "cpu/cpu_info.h"
#include "events/raw_syntax.h"

namespace topdown::events {
namespace {

struct Token {
  std::string_view text;
  int column = 0;
};

std::vector<Token> tokens_of(std::string_view line, size_t from) {
  std::vector<Token> tokens;
  for (std::string_view word : split_words(line.substr(from))) {
    tokens.push_back({word, static_cast<int>(word.data() - line.data()) + 1});
  }
  return tokens;
}

bool valid_event_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-' && c != '/') {
      return false;
    }
  }
  return true;
}

void read_attribute(const Token& token, TableEntry& entry, const SourceLocation& where) {
  const size_t equals = token.text.find('=');
  const std::string_view key = token.text.substr(0, equals);
  const std::string_view value = equals == std::string_view::npos ? std::string_view() : token.text.substr(equals + 1);
  try {
    if (key == "uncore" && equals == std::string_view::npos) {
      entry.uncore = true;
    } else if (key == "counters" && !value.empty()) {
      entry.counter_mask = 0;
      for (int counter : cpu::parse_index_list(value, "counters")) {
        if (counter >= 64) throw Error("counter " + std::to_string(counter) + " is beyond 63");
        entry.counter_mask |= 1ull << counter;
      }
    } else if (key == "topdown_metric" && equals == std::string_view::npos) {
      entry.topdown_metric = true;
    } else if (key == "fixed" && !value.empty()) {
      entry.fixed_counter = static_cast<int>(parse_number(value, "fixed"));
    } else {
      throw Error("unknown attribute '" + std::string(token.text) +
                  "'; use counters=0-3, fixed=N, uncore or topdown_metric");
    }
  } catch (const ParseError&) {
    throw;
  } catch (const Error& error) {
    throw ParseError(where, error.what());
  }
}

}  // namespace

EventTable EventTable::load(const std::filesystem::path& file) {
  const std::optional<std::string> text = read_whole_file(file);
  if (!text) throw Error(file.string() + ": cannot read this event table");
  return parse(*text, file.string());
}

EventTable EventTable::parse(std::string_view text, const std::string& file_name) {
  EventTable table;
  table.name_ = std::filesystem::path(file_name).stem().string();
  int line_number = 0;
  while (!text.empty()) {
    const size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    ++line_number;
    line = line.substr(0, line.find('#'));
    const auto at = [&](int column) { return SourceLocation{file_name, line_number, column}; };

    const size_t equals = line.find('=');
    const std::vector<Token> left = tokens_of(line.substr(0, equals), 0);
    if (left.empty() && equals == std::string_view::npos) continue;  // blank or comment
    if (equals == std::string_view::npos || left.size() > 1) {
      throw ParseError(at(left.front().column), "expected 'name = pmu/terms/ [attributes]'");
    }
    if (left.empty() || !valid_event_name(left.front().text)) {
      throw ParseError(at(left.empty() ? 1 : left.front().column),
                       "event names use letters, digits, '_', '.', '-' and '/' only");
    }
    const std::vector<Token> right = tokens_of(line, equals + 1);
    if (right.empty()) {
      throw ParseError(at(static_cast<int>(equals) + 2), "missing definition after '='");
    }
    TableEntry entry;
    entry.name = std::string(left.front().text);
    entry.where = at(left.front().column);
    entry.definition = std::string(right.front().text);
    entry.definition_where = at(right.front().column);
    try {
      if (!split_pmu_spelling(entry.definition) && !split_raw_spelling(entry.definition)) {
        throw Error("definition '" + entry.definition + "' is not like cpu/event=0x76/ or r76");
      }
    } catch (const Error& error) {
      throw ParseError(entry.definition_where, error.what());
    }
    for (size_t i = 1; i < right.size(); ++i) {
      read_attribute(right[i], entry, at(right[i].column));
    }
    const std::string key = lowercase(entry.name);
    if (const auto* earlier = table.find(key)) {
      throw ParseError(entry.where, "event '" + entry.name + "' is defined twice (first on line " +
                                        std::to_string(earlier->where.line) + ")");
    }
    table.entries_.emplace(key, std::move(entry));
  }
  return table;
}

const TableEntry* EventTable::find(std::string_view name) const {
  const auto found = entries_.find(lowercase(name));
  return found == entries_.end() ? nullptr : &found->second;
}

}  // namespace topdown::events
