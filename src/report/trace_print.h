/* trace_print.h — `fsbench trace stats` and `trace dump` printed (see trace_print.c). */
#ifndef FSBENCH_REPORT_TRACE_PRINT_H
#define FSBENCH_REPORT_TRACE_PRINT_H

struct trace_file;
struct trace_info;
struct trace_stats;

/* The initial state and every record, one a line, on stdout. 0, or -1 after error(). */
int trace_print_dump(struct trace_file *t);
/* The stats as one JSON object on stdout. 0, or -1 after error(). */
int trace_print_json(const struct trace_info *in, const struct trace_stats *s);
/* The stats as text on stdout; path: the trace's file as the user named it. */
void trace_print_text(const char *path, const struct trace_info *in,
                      const struct trace_stats *s);

#endif
