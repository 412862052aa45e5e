#include "compare/json_scan.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace topdown::compare {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

void append_utf8(std::string& out, unsigned code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

}  // namespace

char JsonScanner::peek() {
  while (at_ < text_.size() && is_space(text_[at_])) ++at_;
  if (at_ == text_.size()) throw ScanError{"the text ends inside a value", true};
  return text_[at_];
}

void JsonScanner::expect(char c) {
  if (peek() != c) throw ScanError{std::string("expected '") + c + "', found " + found()};
  ++at_;
}

std::string JsonScanner::found() {
  switch (peek()) {
    case '"':
      return "a string";
    case '{':
      return "an object";
    case '[':
      return "an array";
    case 't':
    case 'f':
      return "true or false";
    case 'n':
      return text_.substr(at_, 4) == "null" ? "null" : "a word that is not JSON";
    default: {
      double value = 0;
      const auto [end, error] = std::from_chars(text_.data() + at_, text_.data() + text_.size(), value);
      if (error == std::errc::result_out_of_range) return "a number beyond the range of a double";
      if (error == std::errc() && std::isfinite(value)) return "a number";
      return "'" + std::string(1, text_[at_]) + "', which starts no JSON value";
    }
  }
}

bool JsonScanner::next_key(std::string& key) {
  if (peek() == '}') {
    ++at_;
    first_ = false;
    return false;
  }
  if (!first_) expect(',');
  string(key);
  expect(':');
  return true;
}

bool JsonScanner::next_item() {
  if (peek() == ']') {
    ++at_;
    first_ = false;
    return false;
  }
  if (!first_) expect(',');
  return true;
}

bool JsonScanner::null() {
  if (peek() != 'n') return false;
  literal("null");
  first_ = false;
  return true;
}

void JsonScanner::literal(std::string_view word) {
  const std::string_view rest = text_.substr(at_, word.size());
  if (rest != word) throw ScanError{"a word that is not JSON", rest.size() < word.size() && word.starts_with(rest)};
  at_ += word.size();
}

void JsonScanner::string(std::string& out) {
  if (peek() != '"') throw ScanError{"expected a string, found " + found()};
  ++at_;
  out.clear();
  while (true) {
    const size_t stop = text_.find_first_of("\"\\", at_);
    if (stop == std::string_view::npos) throw ScanError{"the text ends inside a string", true};
    out.append(text_.data() + at_, stop - at_);
    at_ = stop + 1;
    if (text_[stop] == '"') break;
    if (at_ >= text_.size()) throw ScanError{"the text ends inside a string", true};
    const char escaped = text_[at_++];
    switch (escaped) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'u': {
        unsigned code = 0;
        const char* digits = text_.data() + at_;
        if (at_ + 4 > text_.size() || std::from_chars(digits, digits + 4, code, 16).ptr != digits + 4) {
          throw ScanError{"a bad \\u escape"};
        }
        at_ += 4;
        append_utf8(out, code);
        break;
      }
      default:
        out += escaped;  // \" \\ \/
    }
  }
  first_ = false;
}

void JsonScanner::skip_string() {
  ++at_;  // the opening quote
  while (true) {
    const size_t stop = text_.find_first_of("\"\\", at_);
    if (stop == std::string_view::npos) throw ScanError{"the text ends inside a string", true};
    at_ = stop + (text_[stop] == '\\' ? 2 : 1);
    if (text_[stop] == '"') return;
  }
}

double JsonScanner::number() {
  peek();
  double value = 0;
  const auto [end, error] = std::from_chars(text_.data() + at_, text_.data() + text_.size(), value);
  // from_chars also reads "nan" and "inf", which JSON has not.
  if (error != std::errc() || !std::isfinite(value)) throw ScanError{"expected a number, found " + found()};
  at_ = static_cast<size_t>(end - text_.data());
  first_ = false;
  return value;
}

void JsonScanner::skip_value() {
  const char c = peek();
  if (c == '"') {
    skip_string();
  } else if (c == '{' || c == '[') {
    // Brackets in strings do not count: skip strings whole.
    int depth = 0;
    do {
      const size_t stop = text_.find_first_of("\"{}[]", at_);
      if (stop == std::string_view::npos) throw ScanError{"the text ends inside a value", true};
      at_ = stop;
      switch (text_[stop]) {
        case '"':
          skip_string();
          continue;
        case '{':
        case '[':
          ++depth;
          break;
        default:
          --depth;
      }
      ++at_;
    } while (depth > 0);
  } else if (c == 't') {
    literal("true");
  } else if (c == 'f') {
    literal("false");
  } else if (c == 'n') {
    literal("null");
  } else {
    number();
  }
  first_ = false;
}

void JsonScanner::end() {
  while (at_ < text_.size() && is_space(text_[at_])) ++at_;
  if (at_ != text_.size()) throw ScanError{"more text after the value"};
}

}  // namespace topdown::compare
