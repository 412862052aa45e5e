#include "perf/ring_buffer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace topdown::perf {

std::size_t ring_data_pages(std::size_t wanted) {
  std::size_t pages = 1;
  while (pages < wanted) pages *= 2;
  return pages;
}

int RingBuffer::map(int fd, std::size_t data_pages) {
  const auto page_size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t pages = ring_data_pages(data_pages);
  Mapping mapping = Mapping::map(fd, (1 + pages) * page_size, PROT_READ | PROT_WRITE);
  if (!mapping.valid()) return errno;
  mapping_ = std::move(mapping);
  const auto* base = static_cast<const std::byte*>(mapping_.address());
  // Kernels since 4.1 say where the data starts; older ones put it after the
  // first page.
  const perf_event_mmap_page* meta = page();
  data_ = base + (meta->data_offset != 0 ? meta->data_offset : page_size);
  data_size_ = meta->data_size != 0 ? meta->data_size : pages * page_size;
  return 0;
}

Pending RingBuffer::pending() const {
  Pending pending;
  const uint64_t head = __atomic_load_n(&page()->data_head, __ATOMIC_ACQUIRE);
  const uint64_t tail = page()->data_tail;  // only we write it
  pending.head = head;
  const uint64_t size = head - tail;
  if (size == 0 || size > data_size_) return pending;
  const std::size_t start = tail & (data_size_ - 1);
  const std::size_t until_end = data_size_ - start;
  if (size <= until_end) {
    pending.first = {data_ + start, static_cast<std::size_t>(size)};
  } else {
    pending.first = {data_ + start, until_end};
    pending.second = {data_, static_cast<std::size_t>(size - until_end)};
  }
  return pending;
}

void RingBuffer::release(const Pending& pending) {
  auto* meta = static_cast<perf_event_mmap_page*>(mapping_.address());
  __atomic_store_n(&meta->data_tail, pending.head, __ATOMIC_RELEASE);
}

void RingBuffer::for_each_record(
    const Pending& pending, const std::function<void(const perf_event_header&, std::span<const std::byte>)>& visit) {
  std::size_t offset = 0;
  const std::size_t total = pending.size();
  const auto byte_at = [&](std::size_t at) {
    return at < pending.first.size() ? pending.first.data() + at : pending.second.data() + (at - pending.first.size());
  };
  while (offset + sizeof(perf_event_header) <= total) {
    perf_event_header header;
    // Records are 8-byte aligned and the buffer's size a multiple of 8, so
    // a header never wraps.
    std::memcpy(&header, byte_at(offset), sizeof header);
    if (header.size < sizeof header || offset + header.size > total) return;
    const std::size_t end = offset + header.size;
    if (offset >= pending.first.size() || end <= pending.first.size()) {
      visit(header, {byte_at(offset), header.size});
    } else {
      const std::size_t head_part = pending.first.size() - offset;
      scratch_.resize(header.size);
      std::memcpy(scratch_.data(), byte_at(offset), head_part);
      std::memcpy(scratch_.data() + head_part, pending.second.data(), header.size - head_part);
      visit(header, scratch_);
    }
    offset = end;
  }
}

}  // namespace topdown::perf
