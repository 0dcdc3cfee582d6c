/* csv.c — one CSV field written safely (csv.h). */
#include "base/csv.h"

#include <stdlib.h>
#include <string.h>

bool csv_plain_number(const char *s)
{
    const char *p = s + (*s == '-' || *s == '+');
    if (!(*p >= '0' && *p <= '9'))
        return false;
    char *end;
    (void)strtod(s, &end);
    return *end == '\0';
}

void csv_put_field(FILE *f, const char *s)
{
    bool formula = *s && strchr("=+-@\t\r", *s) && !csv_plain_number(s);
    if (!formula && !strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    if (formula)
        fputc('\'', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}
