#include "model/section_reader.h"

#include <algorithm>

namespace topdown::model {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// Offset of the first non-blank character at or after `from`.
std::size_t skip_blanks(std::string_view line, std::size_t from) {
  while (from < line.size() && is_blank(line[from])) ++from;
  return from;
}

std::string_view trim_right(std::string_view text) {
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

SourceLocation at(const std::string& file, int line, std::size_t offset) {
  return {file, line, static_cast<int>(offset) + 1};
}

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  void read_line(std::string_view line, int number) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::size_t first = skip_blanks(line, 0);
    if (first == line.size() || line.front() == '#') return;
    if (first > 0) return continuation(line, number, first);
    finish_entry();
    if (line.front() == '[') return header(line, number);
    key_value(line, number);
  }

  // The kind of the section read last; empty before the first.
  std::string_view last_kind() const { return sections_.empty() ? std::string_view() : sections_.back().kind; }

  std::vector<Section> finish() {
    finish_entry();
    return std::move(sections_);
  }

 private:
  void header(std::string_view line, int number) {
    const std::size_t close = line.find(']');
    if (close == std::string_view::npos) {
      throw ParseError(at(file_, number, line.size()),
                       "section header has no closing ']'; write [KIND] or [KIND NAME]");
    }
    const std::size_t after = skip_blanks(line, close + 1);
    if (after != line.size()) {
      throw ParseError(at(file_, number, after),
                       "unexpected text after ']'; put comments on their own line starting with '#'");
    }
    Section section;
    section.where = at(file_, number, 0);
    const std::size_t kind_begin = skip_blanks(line, 1);
    std::size_t kind_end = kind_begin;
    while (kind_end < close && !is_blank(line[kind_end])) ++kind_end;
    const std::size_t name_begin = skip_blanks(line, kind_end);
    section.kind = line.substr(kind_begin, kind_end - kind_begin);
    section.kind_at = at(file_, number, kind_begin);
    section.name = trim_right(line.substr(name_begin, close - name_begin));
    section.name_at = at(file_, number, name_begin);
    if (section.kind.empty()) {
      throw ParseError(section.kind_at, "empty section header; write [KIND] or [KIND NAME]");
    }
    sections_.push_back(std::move(section));
  }

  void key_value(std::string_view line, int number) {
    const SourceLocation key_at = at(file_, number, 0);
    if (sections_.empty()) {
      throw ParseError(key_at, "key outside any section; start the file with a [model] section");
    }
    const std::size_t equals = line.find('=');
    if (equals == std::string_view::npos) {
      throw ParseError(key_at, "missing '=' in this line; write 'key = value'");
    }
    const std::string_view key = trim_right(line.substr(0, equals));
    if (key.empty()) {
      throw ParseError(key_at, "missing key before '='; write 'key = value'");
    }
    if (std::any_of(key.begin(), key.end(), is_blank)) {
      throw ParseError(key_at, "key '" + std::string(key) + "' contains blanks; keys are single words");
    }
    Section& section = sections_.back();
    if (const Entry* earlier = section.find(key)) {
      throw ParseError(key_at, "duplicate key '" + std::string(key) + "' (first given at line " +
                                   std::to_string(earlier->key_at.line) + "); keep only one");
    }
    open_ = Entry{std::string(key), key_at, {}};
    entry_open_ = true;
    const std::size_t value_begin = skip_blanks(line, equals + 1);
    if (value_begin < line.size()) {
      open_.lines.push_back({at(file_, number, value_begin), std::string(trim_right(line.substr(value_begin)))});
    }
  }

  void continuation(std::string_view line, int number, std::size_t first) {
    if (!entry_open_) {
      throw ParseError(at(file_, number, first),
                       "indented line continues no key; remove the indentation or put it under a "
                       "'key = value' line");
    }
    open_.lines.push_back({at(file_, number, first), std::string(trim_right(line.substr(first)))});
  }

  void finish_entry() {
    if (!entry_open_) return;
    entry_open_ = false;
    if (open_.lines.empty()) {
      throw ParseError(open_.key_at, "key '" + open_.key + "' has no value; write '" + open_.key + " = VALUE'");
    }
    sections_.back().entries.push_back(std::move(open_));
  }

  std::string file_;
  std::vector<Section> sections_;
  Entry open_;
  bool entry_open_ = false;
};

}  // namespace

std::string Entry::text() const {
  std::string joined;
  for (const ValueLine& line : lines) {
    if (!joined.empty()) joined += ' ';
    joined += line.text;
  }
  return joined;
}

SourceLocation Entry::locate(std::size_t offset) const {
  for (const ValueLine& line : lines) {
    if (offset <= line.text.size()) return advance(line.where, line.text, offset);
    offset -= line.text.size() + 1;
  }
  return lines.back().where;
}

std::string Entry::formula_text() const {
  std::string text = lines.front().text;
  int line_number = lines.front().where.line;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const ValueLine& line = lines[i];
    text.append(static_cast<std::size_t>(line.where.line - line_number), '\n');
    text.append(static_cast<std::size_t>(line.where.column - 1), ' ');
    text += line.text;
    line_number = line.where.line;
  }
  return text;
}

const Entry* Section::find(std::string_view key) const {
  for (const Entry& entry : entries) {
    if (entry.key == key) return &entry;
  }
  return nullptr;
}

std::vector<Section> read_sections(std::istream& in, const std::string& file) {
  Reader reader(file);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) reader.read_line(line, ++number);
  return reader.finish();
}

std::optional<Section> read_first_section(std::istream& in, const std::string& file, std::string_view kind) {
  Reader reader(file);
  std::string line;
  int number = 0;
  bool inside = false;
  while (std::getline(in, line)) {
    const bool header = !line.empty() && line.front() == '[';
    if (header && inside) break;
    reader.read_line(line, ++number);
    if (header) inside = reader.last_kind() == kind;
  }
  std::vector<Section> sections = reader.finish();
  if (!inside) return std::nullopt;
  return std::move(sections.back());
}

SourceLocation advance(SourceLocation base, std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  const std::string_view before = text.substr(0, offset);
  const std::size_t last_newline = before.rfind('\n');
  if (last_newline == std::string_view::npos) {
    base.column += static_cast<int>(offset);
  } else {
    base.line += static_cast<int>(std::count(before.begin(), before.end(), '\n'));
    base.column = static_cast<int>(offset - last_newline);
  }
  return base;
}

}  // namespace topdown::model
