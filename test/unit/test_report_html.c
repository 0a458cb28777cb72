/* The escaping of the HTML report (report_html.h): log strings in its JSON
 * data block and in its markup. test/html/run.sh checks whole pages. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../analysis/report/html/report_html.h"

/* What fn writes for s. */
static char *written(void (*fn)(FILE *, const char *), const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    cr_assert_not_null(fp);
    fn(fp, s);
    cr_assert_eq(fclose(fp), 0);
    return buf;
}

static void expect_json(const char *in, const char *want)
{
    char *got = written(ms_html_json_str, in);
    cr_expect_str_eq(got, want, "for \"%s\"", in);
    free(got);
}

static void expect_text(const char *in, const char *want)
{
    char *got = written(ms_html_text, in);
    cr_expect_str_eq(got, want, "for \"%s\"", in);
    free(got);
}

Test(report_html, json_cannot_end_the_script_element)
{
    expect_json("</script><b>&x", "\"\\u003c/script\\u003e\\u003cb\\u003e\\u0026x\"");
    expect_json("<!--", "\"\\u003c!--\"");
}

Test(report_html, json_quotes_and_controls)
{
    expect_json("a\"b\\c", "\"a\\\"b\\\\c\"");
    expect_json("tab\there\nnl\x01", "\"tab\\u0009here\\u000anl\\u0001\"");
    expect_json("", "\"\"");
}

Test(report_html, json_line_separators_and_bad_utf8)
{
    /* U+2028 and U+2029 end a line in older JavaScript. */
    expect_json("a\xe2\x80\xa8" "b\xe2\x80\xa9", "\"a\\u2028b\\u2029\"");
    expect_json("bad\xff\xc0z", "\"bad\\ufffd\\ufffdz\"");
    /* Valid UTF-8 passes as is. */
    expect_json("\xc2\xb5s \xe2\x86\x92", "\"\xc2\xb5s \xe2\x86\x92\"");
}

Test(report_html, text_markup_and_quotes)
{
    expect_text("<img src=x onerror='a()'>&\"", "&lt;img src=x onerror=&#39;a()&#39;&gt;&amp;&quot;");
    expect_text("tab\tbad\xff", "tab bad\xef\xbf\xbd");
    expect_text("/tmp/run-\xc2\xb5", "/tmp/run-\xc2\xb5");
}
