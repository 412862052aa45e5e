#pragma once
// The lexical layer of model files (docs/model-format.md): sections of
// `key = value` entries with indented continuation lines, every piece
// remembering where it came from so later checks can point at it.
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace topdown::model {

// The part of a value written on one physical line, trimmed.
struct ValueLine {
  SourceLocation where;  // its first character
  std::string text;
};

struct Entry {
  std::string key;
  SourceLocation key_at;
  std::vector<ValueLine> lines;  // never empty

  const SourceLocation& value_at() const { return lines.front().where; }
  // The value as prose or list: its lines joined with one space.
  std::string text() const;
  // Where the character at `offset` of text() was written.
  SourceLocation locate(std::size_t offset) const;
  // The value as a formula: its lines joined with newlines and indented to
  // their columns, so that a parser starting at value_at() reports the true
  // line and column of any character.
  std::string formula_text() const;
};

struct Section {
  std::string kind;        // the first word of the header: model, node, ...
  std::string name;        // the rest of the header, trimmed (may be empty)
  SourceLocation where;    // the '['
  SourceLocation kind_at;  // the first character of `kind`
  SourceLocation name_at;  // the first character of `name`
  std::vector<Entry> entries;

  const Entry* find(std::string_view key) const;
};

// Splits a model file into sections. Throws ParseError for lines that fit no
// rule: a key outside any section, a line without '=', a header without ']',
// a continuation without a key, a key without a value, or a key repeated
// within its section.
std::vector<Section> read_sections(std::istream& in, const std::string& file);

// The first section of `kind`, read (with the lines above it) up to the
// header that ends it and no further, so that choosing a model costs one
// section per file; nullopt when the file has none.
std::optional<Section> read_first_section(std::istream& in, const std::string& file, std::string_view kind);

// `base` moved forward over the first `offset` characters of `text`.
SourceLocation advance(SourceLocation base, std::string_view text, std::size_t offset);

}  // namespace topdown::model
