// The [model] section read alone (load_header, which chooses and lists the
// models): bad bytes end in topdown::Error with a one-line message naming the
// file; a header that reads is the one load_model reads from the same bytes,
// and a refused header means a refused file.
#include <cstdint>
#include <optional>

#include "error_message.h"
#include "memory_file.h"
#include "model/model.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace topdown;
  const fuzz::MemoryFile file(data, size);
  std::optional<model::ModelHeader> header;
  try {
    header = model::load_header(file.path());
  } catch (const Error& error) {
    fuzz::check_refusal(error, file.path());
  }
  std::optional<model::Model> whole;
  try {
    whole = model::load_model(file.path());
  } catch (const Error&) {  // a mistake after the header, or the header's own
  }
  if (whole && !header) __builtin_trap();
  if (whole && !(static_cast<const model::ModelHeader&>(*whole) == *header)) __builtin_trap();
  return 0;
}
