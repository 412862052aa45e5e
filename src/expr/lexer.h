#pragma once
// Splits a formula into tokens. Identifiers come out with their final name:
// escapes resolved, "pmu@terms@" rewritten to "pmu/terms/", PMU terms and
// interval-s joined into one name.
#include <cstddef>
#include <string>
#include <string_view>

#include "common/error.h"

namespace topdown::expr {

enum class TokenKind {
  End,
  Number,
  Identifier,
  LeftParen,
  RightParen,
  Comma,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  Equal,
  NotEqual,
  And,  // and, &&, & (perf's thresholds)
  Or,   // or, ||, |
  Not,
  If,
  Else,
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::size_t offset = 0;  // into the formula text
  std::string_view text;   // as written
  double number = 0;       // TokenKind::Number
  std::string name;        // TokenKind::Identifier
  bool plain = false;      // an identifier written without escapes, '@' or '/': may name a function
};

// TokenKind::Identifier unless `word` is one of the grammar's reserved words.
TokenKind keyword_kind(std::string_view word);

// "'('", "identifier 'X'", "end of formula": for "expected A but found B".
std::string describe(const Token& token);

// `where` advanced over text[0, offset): lines and columns count from 1, and a
// newline starts a new line at column 1.
SourceLocation locate(std::string_view text, std::size_t offset, const SourceLocation& where);

class Lexer {
 public:
  Lexer(std::string_view text, const SourceLocation& where) : text_(text), where_(where) {}

  Token next();

  [[noreturn]] void fail(std::size_t offset, const std::string& message) const;

 private:
  Token read_number(std::size_t start);
  Token read_identifier(std::size_t start);
  std::size_t read_name(std::size_t pos, std::string& name, bool& plain) const;
  std::size_t read_terms(std::size_t at, std::string& name) const;
  Token make(TokenKind kind, std::size_t start, std::size_t length);

  std::string_view text_;
  SourceLocation where_;
  std::size_t pos_ = 0;
};

}  // namespace topdown::expr
