/* units.c — sizes in the binary unit that fits (see units.h). */
#include "base/units.h"

#include <math.h>
#include <stdio.h>

char *units_bytes(char *buf, size_t len, double bytes)
{
    static const char *const unit[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    if (!isfinite(bytes) || bytes < 0) {
        snprintf(buf, len, "?");
        return buf;
    }
    if (bytes < 1024) {
        snprintf(buf, len, "%.0f B", bytes);
        return buf;
    }
    double v = bytes / 1024;
    size_t u = 0;
    /* 1023.96 MiB would print as "1024.0 MiB": move up before the rounding does */
    while (u + 1 < sizeof unit / sizeof unit[0] && v >= 1023.95) {
        v /= 1024;
        u++;
    }
    snprintf(buf, len, "%.1f %s", v, unit[u]);
    return buf;
}
