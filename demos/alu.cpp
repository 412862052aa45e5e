#include "kernels.h"

namespace topdown::demo {

// Six independent chains of add/xor/shift on registers: no memory, no
// branches worth predicting, enough parallelism to fill every integer ALU
// each cycle (Retiring / Light_Operations, high IPC).
uint64_t alu_chains(uint64_t iterations) {
  uint64_t a = 1, b = 2, c = 3, d = 4, e = 5, f = 6;
  for (uint64_t i = 0; i < iterations; ++i) {
    a = (a + 0x9e37) ^ (a >> 3);
    b = (b + 0x7f4a) ^ (b >> 5);
    c = (c + 0x7c15) ^ (c >> 7);
    d = (d + 0xbf58) ^ (d >> 11);
    e = (e + 0x476d) ^ (e >> 13);
    f = (f + 0x1ce4) ^ (f >> 17);
    // Keeps the chains in registers and stops the compiler from reasoning
    // across iterations (closed forms, unrolling into fewer operations).
    asm volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f));
  }
  return a ^ b ^ c ^ d ^ e ^ f;
}

}  // namespace topdown::demo
