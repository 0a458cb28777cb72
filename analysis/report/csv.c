/* CSV fields: see csv.h. */
#include "csv.h"

#include <string.h>

#include "safe_text.h"

void ms_csv_field(FILE *fp, const char *s)
{
    int formula = s[0] && strchr("=+-@\t\r", s[0]);
    if (!formula && !strpbrk(s, ",\"\r\n")) {
        ms_text_put(fp, s, strlen(s), 0, 0);
        return;
    }
    fputc('"', fp);
    if (formula)
        fputc('\'', fp);
    for (const char *q; (q = strchr(s, '"')); s = q + 1) {
        ms_text_put(fp, s, (size_t)(q - s) + 1, 0, 0);
        fputc('"', fp);
    }
    ms_text_put(fp, s, strlen(s), 0, 0);
    fputc('"', fp);
}
