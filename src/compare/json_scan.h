#pragma once
// A pull reader of JSON text for the few fields compare needs from reports
// of many records: values it does not ask for are skipped without being
// built, which is several times faster than building each record as a
// document. Private to compare.
#include <optional>
#include <string>
#include <string_view>

namespace topdown::compare {

// Malformed or cut-off JSON, or a value of the wrong type: `what` says what
// was expected and what was found.
struct ScanError {
  std::string what;
  bool cut_off = false;  // the text ended inside a value
};

class JsonScanner {
 public:
  explicit JsonScanner(std::string_view text) : text_(text) {}

  // Objects: begin_object(), then while (next_key(key)) read or skip the value.
  void begin_object() {
    expect('{');
    first_ = true;
  }
  bool next_key(std::string& key);
  // Arrays: begin_array(), then while (next_item()) read or skip the value.
  void begin_array() {
    expect('[');
    first_ = true;
  }
  bool next_item();

  bool next_is(char c) { return peek() == c; }
  bool null();  // consumes a null and says so; false (nothing consumed) for another value
  void string(std::string& out);
  double number();  // a finite one
  void skip_value();
  // Throws ScanError unless only white space is left.
  void end();

 private:
  char peek();
  void expect(char c);
  std::string found();  // what the next value is, for messages
  void skip_string();
  void literal(std::string_view word);

  std::string_view text_;
  size_t at_ = 0;
  // Just inside an opening bracket: no member or item read yet. Every value
  // read or skipped clears it, so it holds for the innermost container.
  bool first_ = true;
};

}  // namespace topdown::compare
