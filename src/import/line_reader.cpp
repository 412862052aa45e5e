#include "import/line_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/error.h"

namespace topdown::import {
namespace {

constexpr size_t kChunk = 1 << 20;

}  // namespace

LineReader::LineReader(const std::filesystem::path& path) : path_(path.string()), buffer_(kChunk) {
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw Error("cannot read import file " + path_ + ": " + std::strerror(errno) + "; check the path");
}

LineReader::~LineReader() { ::close(fd_); }

bool LineReader::fill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buffer_.size()) {
    if (buffer_.size() >= kMaxLine) {  // the line so far fills the buffer
      throw Error(path_ + ":" + std::to_string(line_number_ + 1) + ": line longer than " + std::to_string(kMaxLine) +
                  " bytes: this is not perf stat -x output or a counts file");
    }
    buffer_.resize(buffer_.size() * 2);
  }
  while (true) {
    ssize_t n = ::read(fd_, buffer_.data() + end_, buffer_.size() - end_);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error("cannot read import file " + path_ + ": " + std::strerror(errno));
    if (n == 0) eof_ = true;
    end_ += static_cast<size_t>(n);
    return n > 0;
  }
}

bool LineReader::next(std::string_view& line) {
  size_t searched = begin_;
  while (true) {
    if (const void* found = std::memchr(buffer_.data() + searched, '\n', end_ - searched)) {
      const size_t newline = static_cast<size_t>(static_cast<const char*>(found) - buffer_.data());
      size_t stop = newline;
      if (stop > begin_ && buffer_[stop - 1] == '\r') --stop;
      line = std::string_view(buffer_.data() + begin_, stop - begin_);
      begin_ = newline + 1;
      complete_ = true;
      ++line_number_;
      return true;
    }
    const size_t unread = end_ - begin_;
    if (!fill()) {
      if (begin_ == end_) return false;
      line = std::string_view(buffer_.data() + begin_, end_ - begin_);
      begin_ = end_;
      complete_ = false;
      ++line_number_;
      return true;
    }
    searched = begin_ + unread;
  }
}

}  // namespace topdown::import
