// Opens a session and measures one region, or says why it cannot.
#include <topdown/region.hpp>

#include <iostream>

int main() {
  std::optional<topdown::region::Error> error;
  auto session = topdown::region::Session::try_open({}, &error);
  if (!session) {
    std::cout << "error " << static_cast<int>(error->code()) << ": " << error->what() << '\n';
    return 0;
  }
  {
    topdown::region::Scope scope(*session, "loop");
    volatile unsigned sink = 0;
    for (unsigned i = 0; i < 1000000; ++i) sink = sink + i;
  }
  std::cout << "opened " << session->info().method << '\n' << to_text(*session->result("loop"));
  return 0;
}
