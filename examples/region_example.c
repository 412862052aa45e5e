/* The C API: one region around a loop, its level-1 nodes printed. */
#include <stdint.h>
#include <stdio.h>
#include <topdown/region.h>

int main(void) {
  td_region_options options;
  td_region_session* session;
  td_region_report* report;
  td_region_id loop;
  volatile uint64_t sum = 0;
  size_t r, n;
  uint64_t i;

  td_region_options_init(&options);
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
  }
  td_region_report_free(report);
  td_region_close(session);
  return 0;
}
