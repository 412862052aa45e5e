/* topdown region library, C API: the TopDown (TMA) breakdown of code regions,
 * measured from user space on the calling thread.
 *
 *   td_region_options options;
 *   td_region_options_init(&options);
 *   td_region_session* session;
 *   if (td_region_open(&options, &session) != TD_REGION_OK) {
 *     fprintf(stderr, "%s\n", td_region_last_error());   // no PMU, not permitted, ...
 *   } else {
 *     td_region_id work;
 *     td_region_register(session, "work", &work);
 *     td_region_begin(session, work);  ...  td_region_end(session);
 *     td_region_report* report;
 *     td_region_get_report(session, &report);  ...  td_region_report_free(report);
 *     td_region_close(session);
 *   }
 *
 * Every function returns TD_REGION_OK or an error code and never aborts the
 * program; td_region_last_error() gives the message of the calling thread's
 * last failed call.
 *
 * Threads: a session belongs to the thread that opened it and counts that
 * thread only. td_region_register, td_region_begin and td_region_end from any
 * other thread fail with TD_REGION_ERR_WRONG_THREAD and change nothing.
 * td_region_get_report and td_region_close may be called from another thread
 * once the owner has stopped using the session (after a join, say); they must
 * never run at the same time as the owner's calls. Give each thread its own
 * session to measure several threads: sessions are independent.
 * See docs/region-library.md. */
#ifndef TOPDOWN_REGION_H
#define TOPDOWN_REGION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes; the same values as topdown::region::ErrorCode. */
enum {
  TD_REGION_OK = 0,
  TD_REGION_ERR_NO_PMU = 1,             /* the kernel exposes no CPU performance counters */
  TD_REGION_ERR_NOT_PERMITTED = 2,      /* perf_event_paranoid or missing CAP_PERFMON */
  TD_REGION_ERR_UNSUPPORTED_CPU = 3,    /* no TopDown model or PERF_METRICS for this CPU */
  TD_REGION_ERR_DOES_NOT_FIT = 4,       /* the level needs more counters than one group has */
  TD_REGION_ERR_READER_UNAVAILABLE = 5, /* the forced reader cannot be used here */
  TD_REGION_ERR_OPEN_FAILED = 6,        /* perf_event_open failed for another reason */
  TD_REGION_ERR_WRONG_THREAD = 7,       /* the session belongs to another thread */
  TD_REGION_ERR_BAD_NESTING = 8,        /* end without begin, or regions nested too deep */
  TD_REGION_ERR_INVALID_ARGUMENT = 9,   /* a null pointer, an unknown id, a level outside 1-2 */
  TD_REGION_ERR_MODEL = 10,             /* the model files are missing or broken */
  TD_REGION_ERR_INTERNAL = 11
};

typedef enum {
  TD_REGION_READER_AUTO = 0,  /* time both at open and use the cheaper */
  TD_REGION_READER_RDPMC = 1, /* rdpmc through the perf mmap page */
  TD_REGION_READER_READ = 2   /* read() of the counter group */
} td_region_reader;

/* Fill it with td_region_options_init, then change what you need: the
 * library learns from struct_size which version of the struct the program
 * was built with, so that fields can be added later. */
typedef struct td_region_options {
  size_t struct_size;      /* sizeof(td_region_options): set by td_region_options_init */
  int level;               /* 1 or 2 (default 1) */
  td_region_reader reader; /* default TD_REGION_READER_AUTO */
  int include_kernel;      /* count kernel mode too (default 0: user mode only) */
  const char* models_dir;  /* NULL: $TOPDOWN_MODELS, else the installed models */
  const char* model_file;  /* NULL: the CPU's model or PERF_METRICS; else count this model file
                              (tests/data/software.model in the sources opens without a PMU) */
  uint64_t reset_slots;    /* Intel PERF_METRICS with rdpmc: reset after this many slots; 0 = default */
} td_region_options;

typedef struct td_region_session td_region_session;
typedef uint32_t td_region_id;

typedef struct td_region_node {
  const char* name;        /* TMA name: Frontend_Bound, Memory_Bound, ... */
  const char* vendor_name; /* the CPU vendor's name for it ("" if none) */
  const char* parent;      /* "" for level 1 */
  int level;
  int has_fraction; /* 0: n/a (an event was not counted, or no slots) */
  double fraction;  /* share of the region's slots */
  int has_slots;
  double slots; /* the same as a slot count */
  int over_threshold;
  int bottleneck;
} td_region_node;

typedef struct td_region_result {
  const char* name;
  const char* parent; /* the enclosing region at its first call, "" at the top */
  int depth;
  uint64_t calls;         /* begin/end pairs whose counts are included */
  uint64_t dropped_calls; /* pairs whose counts could not be read (see the docs) */
  int has_slots;
  double slots;         /* pipeline slots of all calls */
  double counted_share; /* 1 = the counters ran the whole time */
  size_t node_count;
  const td_region_node* nodes; /* tree order */
  size_t warning_count;
  const char* const* warnings; /* one line each: dropped calls, suspicious counts, misuse */
} td_region_result;

typedef struct td_region_report {
  size_t region_count;
  const td_region_result* regions; /* in the order regions were registered */
  const char* reader;              /* "rdpmc" or "read" */
  const char* method;              /* "perf-metrics" or "model <name>" */
} td_region_report;

/* Sets struct_size and the defaults. */
void td_region_options_init(td_region_options* options);
/* TD_REGION_ERR_INVALID_ARGUMENT when options->struct_size is not set by
 * td_region_options_init (a struct this library does not know). */
int td_region_open(const td_region_options* options, td_region_session** session);
void td_region_close(td_region_session* session);

/* A region name's id, registered on first use; ids are cheap to begin. */
int td_region_register(td_region_session* session, const char* name, td_region_id* id);
int td_region_begin(td_region_session* session, td_region_id id);
int td_region_begin_named(td_region_session* session, const char* name);
/* Ends the innermost open region. */
int td_region_end(td_region_session* session);

/* Every pointer of the report, the strings too, stays valid until
 * td_region_report_free. */
int td_region_get_report(const td_region_session* session, td_region_report** report);
void td_region_report_free(td_region_report* report);

/* The message of this thread's last failed call ("" if none). */
const char* td_region_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* TOPDOWN_REGION_H */
