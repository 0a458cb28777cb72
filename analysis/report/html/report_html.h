/*
 * The HTML report's page (ms_report_html, report.h; report_html.c): the
 * skeleton, style, script and data block, whose members the parts write
 * (html_parts.h). report_html.c calls the parts; the parts call only
 * json_str.h, never back into report_html.c.
 *
 * The page carries its data as one JSON object in a
 * <script type="application/json"> element; the script (report_html.js,
 * after report_html_sites.js, the call-site and function tables) draws
 * every chart from it with DOM calls that set text, never markup.
 * Strings from logs are written with ms_html_json_str, which escapes
 * '<', '>' and '&' too, so that no log content can end the data element.
 */
#ifndef MPISCOPE_REPORT_HTML_H
#define MPISCOPE_REPORT_HTML_H

#include <stdio.h>
#include <string.h>

#include "html_parts.h"

/* Text escaped for HTML element content and attribute values (the page's
 * markup, report_html.c; the parts write no markup). */
void ms_html_text(FILE *fp, const char *s);

#endif
