/* Opens a session and measures one region, or says why it cannot. */
#include <stdio.h>
#include <topdown/region.h>

int main(void) {
  td_region_options options;
  td_region_session* session;
  td_region_report* report;
  volatile unsigned sink = 0;
  unsigned i;
  int code;
  td_region_options_init(&options);
  code = td_region_open(&options, &session);
  if (code != TD_REGION_OK) {
    printf("error %d: %s\n", code, td_region_last_error());
    return 0;
  }
  td_region_begin_named(session, "loop");
  for (i = 0; i < 1000000; ++i) sink = sink + i;
  td_region_end(session);
  if (td_region_get_report(session, &report) == TD_REGION_OK) {
    printf("opened %s, %zu region(s)\n", report->method, report->region_count);
    td_region_report_free(report);
  }
  td_region_close(session);
  return 0;
}
