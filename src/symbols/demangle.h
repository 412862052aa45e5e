#pragma once
#include <string>

namespace topdown::symbols {

// The C++ spelling of an Itanium-mangled name ("_Z..."); any other name as given.
std::string demangle(const char* name);

}  // namespace topdown::symbols
