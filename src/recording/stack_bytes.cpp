#include "recording/stack_bytes.h"

namespace topdown::recording {

std::span<const std::byte> StackBytes::bytes() const {
  if (file_) return std::as_bytes(std::span(file_->bytes().data(), file_->bytes().size()));
  if (own_) return std::span(*own_);
  return {};
}

void StackBytes::release_before(std::size_t offset) const {
  if (file_) file_->release_before(offset);
}

}  // namespace topdown::recording
