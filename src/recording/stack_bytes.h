#pragma once
// The bytes of a recording's user stack copies (record --call-graph dwarf):
// for a recording read from its data file, that file's own pages, mapped,
// never copied, so a large recording is not held twice; for one built in
// memory, bytes of its own. Copies of a StackBytes share the bytes.
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "common/mapped_file.h"

namespace topdown::recording {

// How far a reader of the stack copies goes before it gives back the pages
// behind it (MappedFile::release_before): few calls, little held.
inline constexpr std::size_t kStackReleaseStep = std::size_t{8} << 20;

class StackBytes {
 public:
  StackBytes() = default;
  // The stacks lie in `file` (UserStack::first_byte is an offset into it).
  explicit StackBytes(std::shared_ptr<const MappedFile> file) : file_(std::move(file)) {}
  explicit StackBytes(std::vector<std::byte> own)
      : own_(std::make_shared<const std::vector<std::byte>>(std::move(own))) {}

  std::span<const std::byte> bytes() const;
  // The bytes before `offset` will not be read again: their memory may go.
  void release_before(std::size_t offset) const;

 private:
  std::shared_ptr<const MappedFile> file_;
  std::shared_ptr<const std::vector<std::byte>> own_;
};

}  // namespace topdown::recording
