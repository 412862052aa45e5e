// A library the symbols tests load with dlopen, after the process started.
namespace plugin {

[[gnu::noinline]] double scale(double value, int times) {
  for (int i = 0; i < times; ++i) {
    value = value * 1.5 + 0.25;
  }
  return value;
}

}  // namespace plugin
