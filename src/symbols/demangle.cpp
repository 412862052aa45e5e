#include "symbols/demangle.h"

#include <cxxabi.h>

#include <cstdlib>
#include <cstring>
#include <memory>

namespace topdown::symbols {

std::string demangle(const char* name) {
  if (std::strncmp(name, "_Z", 2) != 0) {
    return name;
  }
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> readable(abi::__cxa_demangle(name, nullptr, nullptr, &status),
                                                       &std::free);
  return status == 0 && readable ? std::string(readable.get()) : std::string(name);
}

}  // namespace topdown::symbols
