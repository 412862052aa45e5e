#include "expr/lexer.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <utility>

#include "expr/identifier.h"

namespace topdown::expr {
namespace {

constexpr bool is_hex_digit(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

std::string describe_char(char c) {
  if (c >= ' ' && c <= '~') return std::string("'") + c + "'";
  std::array<char, 16> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "byte 0x%02x", static_cast<unsigned char>(c));
  return buffer.data();
}

struct Spelling {
  std::string_view text;
  TokenKind kind;
};

// Longest first, so "<=" wins over "<".
constexpr std::array<Spelling, 18> kOperators = {{
    {"<=", TokenKind::LessEqual},
    {">=", TokenKind::GreaterEqual},
    {"==", TokenKind::Equal},
    {"!=", TokenKind::NotEqual},
    {"&&", TokenKind::And},
    {"||", TokenKind::Or},
    {"(", TokenKind::LeftParen},
    {")", TokenKind::RightParen},
    {",", TokenKind::Comma},
    {"+", TokenKind::Plus},
    {"-", TokenKind::Minus},
    {"*", TokenKind::Star},
    {"/", TokenKind::Slash},
    {"%", TokenKind::Percent},
    {"<", TokenKind::Less},
    {">", TokenKind::Greater},
    {"&", TokenKind::And},
    {"|", TokenKind::Or},
}};

constexpr std::array<Spelling, 5> kKeywords = {{
    {"if", TokenKind::If},
    {"else", TokenKind::Else},
    {"and", TokenKind::And},
    {"or", TokenKind::Or},
    {"not", TokenKind::Not},
}};

}  // namespace

TokenKind keyword_kind(std::string_view word) {
  const auto keyword =
      std::find_if(kKeywords.begin(), kKeywords.end(), [&](const Spelling& spelling) { return spelling.text == word; });
  return keyword == kKeywords.end() ? TokenKind::Identifier : keyword->kind;
}

std::string describe(const Token& token) {
  switch (token.kind) {
    case TokenKind::End:
      return "end of formula";
    case TokenKind::Number:
      return "number " + std::string(token.text);
    case TokenKind::Identifier:
      return "name '" + std::string(token.text) + "'";
    default:
      return "'" + std::string(token.text) + "'";
  }
}

SourceLocation locate(std::string_view text, std::size_t offset, const SourceLocation& where) {
  SourceLocation at = where;
  at.line = std::max(where.line, 1);
  at.column = std::max(where.column, 1);
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++at.line;
      at.column = 1;
    } else {
      ++at.column;
    }
  }
  return at;
}

void Lexer::fail(std::size_t offset, const std::string& message) const {
  throw ParseError(locate(text_, offset, where_), message);
}

Token Lexer::make(TokenKind kind, std::size_t start, std::size_t length) {
  Token token;
  token.kind = kind;
  token.offset = start;
  token.text = text_.substr(start, length);
  pos_ = start + length;
  return token;
}

Token Lexer::next() {
  while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
  const std::size_t start = pos_;
  if (start == text_.size()) return make(TokenKind::End, start, 0);
  const char c = text_[start];
  const bool fraction_start = c == '.' && start + 1 < text_.size() && is_digit(text_[start + 1]);
  if (is_digit(c) || fraction_start) return read_number(start);
  if (is_name_start(c) || c == '#' || c == '\\') return read_identifier(start);
  if (c == '=' && text_.substr(start, 2) != "==") fail(start, "expected '==' to compare but found a single '='");
  if (c == '!' && text_.substr(start, 2) != "!=") fail(start, "expected '!=' but found '!'; negate with 'not'");
  for (const auto& op : kOperators) {
    if (text_.substr(start, op.text.size()) == op.text) {
      return make(op.kind, start, op.text.size());
    }
  }
  fail(start, "expected a number, name or operator but found " + describe_char(c));
}

Token Lexer::read_number(std::size_t start) {
  std::size_t pos = start;
  double value = 0;
  std::from_chars_result parsed{};
  const bool hex = text_.substr(start, 2) == "0x" || text_.substr(start, 2) == "0X";
  if (hex) {
    pos += 2;
    while (pos < text_.size() && is_hex_digit(text_[pos])) ++pos;
    std::uint64_t integer = 0;
    parsed = std::from_chars(text_.data() + start + 2, text_.data() + pos, integer, 16);
    value = static_cast<double>(integer);
  } else {
    while (pos < text_.size() && is_digit(text_[pos])) ++pos;
    if (pos < text_.size() && text_[pos] == '.') {
      ++pos;
      while (pos < text_.size() && is_digit(text_[pos])) ++pos;
    }
    if (pos < text_.size() && (text_[pos] == 'e' || text_[pos] == 'E')) {
      std::size_t digits = pos + 1;
      if (digits < text_.size() && (text_[digits] == '+' || text_[digits] == '-')) ++digits;
      if (digits < text_.size() && is_digit(text_[digits])) {
        pos = digits;
        while (pos < text_.size() && is_digit(text_[pos])) ++pos;
      }
    }
    parsed = std::from_chars(text_.data() + start, text_.data() + pos, value);
  }
  const bool glued = pos < text_.size() && (is_name_char(text_[pos]) || text_[pos] == '\\');
  if (parsed.ec == std::errc::invalid_argument || glued) {
    std::size_t end = pos;
    while (end < text_.size() && (is_name_char(text_[end]) || text_[end] == '\\')) ++end;
    fail(start, "expected a number but found '" + std::string(text_.substr(start, end - start)) + "'");
  }
  if (parsed.ec == std::errc::result_out_of_range) {
    fail(start, "number " + std::string(text_.substr(start, pos - start)) + " is out of range");
  }
  Token token = make(TokenKind::Number, start, pos - start);
  token.number = value;
  return token;
}

std::size_t Lexer::read_name(std::size_t pos, std::string& name, bool& plain) const {
  while (pos < text_.size()) {
    const char c = text_[pos];
    if (is_name_char(c)) {
      name += c;
      ++pos;
    } else if (c == '\\') {
      if (pos + 1 == text_.size()) fail(pos, "expected a character after '\\' but found end of formula");
      name += text_[pos + 1];
      plain = false;
      pos += 2;
    } else {
      break;
    }
  }
  return pos;
}

// perf writes "cpu@EVENT\,cmask\=1@" for cpu/EVENT,cmask=1/ so that the
// terms survive its own tokenizer; the '@'s stand for the slashes.
std::size_t Lexer::read_terms(std::size_t at, std::string& name) const {
  const std::string opener = name + '@';
  name += '/';
  std::size_t pos = at + 1;
  while (pos < text_.size() && text_[pos] != '@') {
    if (text_[pos] == '\\' && pos + 1 < text_.size()) ++pos;
    name += text_[pos];
    ++pos;
  }
  if (pos == text_.size()) {
    fail(pos, "expected '@' to close '" + opener + "' but found end of formula");
  }
  name += '/';
  return pos + 1;
}

Token Lexer::read_identifier(std::size_t start) {
  std::string name;
  bool plain = true;
  std::size_t pos = start;
  if (text_[pos] == '#') {
    name += '#';
    ++pos;
    if (pos == text_.size() || !(is_name_start(text_[pos]) || text_[pos] == '\\')) {
      fail(pos, "expected a name after '#' but found " +
                    (pos == text_.size() ? std::string("end of formula") : describe_char(text_[pos])));
    }
  }
  pos = read_name(pos, name, plain);
  const auto rest = text_.substr(pos);
  const bool continues = rest.size() > 2 && (is_name_char(rest[2]) || rest[2] == '\\');
  if (plain && name == "interval" && rest.starts_with("-s") && !continues) {
    name = kIntervalSeconds;
    pos += 2;
    plain = false;
  } else if (rest.starts_with('@')) {
    pos = read_terms(pos, name);
    plain = false;
  } else if (plain && rest.starts_with('/') && is_pmu_name(name)) {
    const auto close = rest.find('/', 1);
    const auto terms = rest.substr(1, close == std::string_view::npos ? 0 : close - 1);
    if (!terms.empty() && std::none_of(terms.begin(), terms.end(), is_space)) {
      name.append(rest.substr(0, close + 1));
      pos += close + 1;
      plain = false;
    }
  }
  Token token = make(plain ? keyword_kind(name) : TokenKind::Identifier, start, pos - start);
  token.name = std::move(name);
  token.plain = plain;
  return token;
}

}  // namespace topdown::expr
