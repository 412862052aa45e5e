// Measures two regions of a small program with the C++ API and prints their
// TopDown trees:
//   region_example [LEVEL [MODEL_FILE]]
// (MODEL_FILE instead of this CPU's model: tests/data/software.model opens
// even without a PMU.)
// A named region ("sum" and "lookup") adds up all its calls; "lookup" runs
// inside "sum", so its slots are also part of "sum"'s.
#include <topdown/region.hpp>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <vector>

namespace {

// Table lookups at pseudo-random places: loads that often miss the cache.
uint64_t lookup(const std::vector<uint32_t>& table, uint64_t seed, int count) {
  uint64_t sum = 0;
  for (int i = 0; i < count; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    sum += table[(seed >> 33) % table.size()];
  }
  return sum;
}

}  // namespace

int main(int argc, char** argv) {
  topdown::region::Options options;
  options.level = argc > 1 ? std::atoi(argv[1]) : 1;
  if (argc > 2) options.model_file = argv[2];
  std::optional<topdown::region::Error> error;
  auto session = topdown::region::Session::try_open(options, &error);
  if (!session) {
    std::cerr << "region_example: " << error->what() << '\n';
    return 1;
  }
  std::vector<uint32_t> table(1 << 24);
  for (std::size_t i = 0; i < table.size(); ++i) table[i] = static_cast<uint32_t>(i * 2654435761u);

  const auto sum_id = session->region("sum");
  const auto lookup_id = session->region("lookup");
  uint64_t total = 0;
  for (int round = 0; round < 100; ++round) {
    topdown::region::Scope sum(*session, sum_id);
    for (uint32_t i = 0; i < 100000; ++i) total += i * static_cast<uint64_t>(round);
    session->begin(lookup_id);
    total += lookup(table, static_cast<uint64_t>(round), 20000);
    session->end();
  }

  const auto& info = session->info();
  std::cout << "topdown regions (" << info.title << ", read with "
            << (info.reader == topdown::region::Reader::Rdpmc ? "rdpmc" : "read()") << "), checksum " << total << "\n";
  for (const auto& result : session->results()) std::cout << to_text(result);
  return 0;
}
