#include "common/printable.h"

#include <cstdint>

namespace topdown {
namespace {

bool printable_ascii(unsigned char byte) { return byte >= 0x20 && byte < 0x7f; }

// Length of the valid UTF-8 sequence of two to four bytes at the start of
// `text` that encodes a printable character, or 0: overlong forms,
// surrogates, code points above U+10FFFF and the C1 controls (U+0080-U+009F,
// which some terminals obey) do not count.
size_t printable_utf8_length(std::string_view text) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  size_t length = 0;
  uint32_t code_point = 0;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
    code_point = lead & 0x1fu;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    code_point = lead & 0x0fu;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    code_point = lead & 0x07u;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  for (size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xc0u) != 0x80u) return 0;
    code_point = (code_point << 6) | (byte(i) & 0x3fu);
  }
  constexpr uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code_point < kSmallest[length] || code_point > 0x10ffff) return 0;
  if (code_point >= 0xd800 && code_point <= 0xdfff) return 0;
  if (code_point <= 0x9f) return 0;
  return length;
}

}  // namespace

std::string printable(std::string_view text) {
  constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (printable_ascii(byte)) {
      out += text[i++];
    } else if (const size_t length = printable_utf8_length(text.substr(i))) {
      out.append(text.substr(i, length));
      i += length;
    } else {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xfu];
      ++i;
    }
  }
  return out;
}

}  // namespace topdown
