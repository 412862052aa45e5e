/* The C API: one region around a loop, its level-1 nodes printed.
 *   region_example_c [MODEL_FILE]
 * MODEL_FILE instead of this CPU's model: tests/data/software.model opens
 * even without a PMU. */
#include <stdint.h>
#include <stdio.h>
#include <topdown/region.h>

int main(int argc, char** argv) {
  td_region_options options;
  td_region_session* session;
  td_region_report* report;
  td_region_id loop;
  volatile uint64_t sum = 0;
  size_t r, n, w;
  uint64_t i;

  td_region_options_init(&options);
  if (argc > 1) options.model_file = argv[1];
  if (td_region_open(&options, &session) != TD_REGION_OK) {
    fprintf(stderr, "region_example_c: %s\n", td_region_last_error());
    return 1;
  }
  td_region_register(session, "loop", &loop);
  for (r = 0; r < 10; ++r) {
    td_region_begin(session, loop);
    for (i = 0; i < 1000000; ++i) sum = sum + i * r;
    td_region_end(session);
  }
  if (td_region_get_report(session, &report) != TD_REGION_OK) {
    fprintf(stderr, "region_example_c: %s\n", td_region_last_error());
    td_region_close(session);
    return 1;
  }
  printf("read with %s, counted as %s\n", report->reader, report->method);
  for (r = 0; r < report->region_count; ++r) {
    const td_region_result* region = &report->regions[r];
    printf("%s: %llu calls\n", region->name, (unsigned long long)region->calls);
    for (n = 0; n < region->node_count; ++n) {
      const td_region_node* node = &region->nodes[n];
      if (node->has_fraction) {
        printf("  %-20s %5.1f%%%s\n", node->name, node->fraction * 100, node->bottleneck ? "  <==" : "");
      } else {
        printf("  %-20s   n/a\n", node->name);
      }
    }
    for (w = 0; w < region->warning_count; ++w) printf("  warning: %s\n", region->warnings[w]);
  }
  td_region_report_free(report);
  td_region_close(session);
  return 0;
}
