/* units.h — sizes for people: bytes in the binary unit that fits (B, KiB, MiB, GiB, TiB,
 * PiB), so a message says "478.7 TiB", never "501953696.9 MiB". Every size fsbench prints
 * in a message or plan goes through here.
 */
#ifndef FSBENCH_UNITS_H
#define FSBENCH_UNITS_H

#include <stddef.h>

/* bytes as "512 B", "1.5 KiB", "2.0 MiB", "1023.9 MiB", "1.0 GiB", "478.7 TiB": the largest
 * unit that leaves at least 1, one decimal (whole bytes below 1 KiB); negative or not
 * finite: "?". Into buf (len bytes); returns buf. */
char *units_bytes(char *buf, size_t len, double bytes);

#endif
