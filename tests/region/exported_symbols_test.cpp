// libtopdown_region.so exports its public API and nothing else, every symbol
// under the version node of cmake/topdown_region.map: what a program links
// against stays stable while the stages inside change.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr const char* kVersion = "TOPDOWN_REGION_0";

struct Symbol {
  char type = '?';
  std::string name;     // demangled, without the version
  std::string version;  // after "@@" (the default version) or "@"
};

// `nm -DC --defined-only` of the library: "ADDRESS TYPE NAME@@VERSION".
std::vector<Symbol> exported_symbols(const std::string& library) {
  std::vector<Symbol> symbols;
  const std::string command = "nm -DC --defined-only --with-symbol-versions '" + library + "'";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return symbols;
  char line[4096];
  while (std::fgets(line, sizeof line, pipe)) {
    std::string text(line);
    if (!text.empty() && text.back() == '\n') text.pop_back();
    std::istringstream fields(text);
    std::string address;
    Symbol symbol;
    fields >> address >> symbol.type;
    std::getline(fields >> std::ws, symbol.name);
    if (const auto at = symbol.name.rfind('@'); at != std::string::npos) {
      symbol.version = symbol.name.substr(at + 1);
      symbol.name.erase(symbol.name[at - 1] == '@' ? at - 1 : at);
    }
    symbols.push_back(symbol);
  }
  ::pclose(pipe);
  return symbols;
}

// The functions include/topdown/region.h declares.
std::set<std::string> c_functions() {
  std::ifstream in(TOPDOWN_SOURCE_DIR "/include/topdown/region.h");
  const std::string header{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::set<std::string> names;
  const std::regex declaration(R"(\n(?:void|int|const char\*) (td_region_\w+)\()");
  for (auto it = std::sregex_iterator(header.begin(), header.end(), declaration); it != std::sregex_iterator(); ++it) {
    names.insert((*it)[1]);
  }
  return names;
}

// The C++ API of include/topdown/region.hpp: Session's public members, Scope,
// RegionResult, to_text, and what catching Error needs.
bool public_cpp(const std::string& name) {
  static const std::regex api(
      R"(topdown::region::Session::(Session\((topdown::region::Options const&|topdown::region::Session&&)\)|)"
      R"(~Session\(\)|operator=\(topdown::region::Session&&\)|(try_open|region|begin|end|results|result|info)\(.*)|)"
      R"(topdown::region::Scope::~Scope\(\)|)"
      R"(topdown::region::RegionResult::(find\(.*|~RegionResult\(\))|)"
      R"(topdown::region::to_text(\[abi:cxx11\])?\(topdown::region::RegionResult const&\)|)"
      R"((typeinfo|typeinfo name|vtable) for topdown::region::Error)");
  return std::regex_match(name, api);
}

TEST(RegionExportedSymbols, OnlyThePublicApiUnderItsVersion) {
  const std::vector<Symbol> symbols = exported_symbols(TOPDOWN_REGION_SHARED_LIBRARY);
  ASSERT_FALSE(symbols.empty()) << "nm listed nothing for " << TOPDOWN_REGION_SHARED_LIBRARY;
  const std::set<std::string> declared = c_functions();
  ASSERT_GE(declared.size(), 10u) << "the declarations of region.h were not found";
  std::set<std::string> exported_c;
  bool version_defined = false;
  bool session_exported = false;
  for (const Symbol& symbol : symbols) {
    if (symbol.type == 'A') {  // the version node itself
      EXPECT_EQ(symbol.name, kVersion);
      version_defined = version_defined || symbol.name == kVersion;
      continue;
    }
    EXPECT_EQ(symbol.version, kVersion) << symbol.name;
    if (symbol.name.starts_with("td_region_")) {
      exported_c.insert(symbol.name);
    } else {
      EXPECT_TRUE(public_cpp(symbol.name)) << "exported but not public: " << symbol.name;
      session_exported = session_exported || symbol.name.starts_with("topdown::region::Session::begin(");
    }
  }
  EXPECT_TRUE(version_defined) << "no version node " << kVersion;
  EXPECT_EQ(exported_c, declared);
  EXPECT_TRUE(session_exported) << "the C++ API is missing";
}

}  // namespace
