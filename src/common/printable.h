#pragma once
// Text from an input file (a line of an import file, an event name) quoted in
// a message to a terminal: a binary file must not be able to move the cursor,
// change colours or clear the screen.
#include <string>
#include <string_view>

namespace topdown {

// `text` with printable ASCII and valid UTF-8 characters as they are, and
// every other byte (control characters such as ESC and DEL, C1 controls,
// bytes of invalid or cut UTF-8) written out as the four characters \xNN:
// ESC "[2J" becomes `\x1b[2J`.
std::string printable(std::string_view text);

}  // namespace topdown
