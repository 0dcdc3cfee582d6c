/* html_history.c — the history page (see html_history.h): skeleton, data, Chart.js and the
 * page's script, which draws only what the data says (compute nothing here). */
#include "report/html_history.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "report/html.h"
#include "report/report.h"
#include "report/report_history.h"

static const char history_style[] =
    "body { font: 14px/1.4 sans-serif; margin: 1em 2em; color: #222; }\n"
    "h2 { margin-top: 1.6em; border-bottom: 1px solid #ccc; }\n"
    ".chart { position: relative; height: 340px; max-width: 1100px; }\n"
    "table { border-collapse: collapse; margin: .6em 0; }\n"
    "td, th { padding: 2px 8px; text-align: right; border-bottom: 1px solid #eee; }\n"
    "td:first-child, th:first-child { text-align: left; }\n"
    "tr.change td { background: #fde0dd; font-weight: bold; }\n"
    "p.summary { font-family: monospace; }\n";

static const char history_script[] =
    "\"use strict\";\n"
    "(function () {\n"
    "  var status = document.getElementById(\"status\"), errors = 0, charts = 0;\n"
    "  function fail(msg) {\n"
    "    errors++;\n"
    "    status.setAttribute(\"data-errors\", String(errors));\n"
    "    var li = document.createElement(\"li\");\n"
    "    li.textContent = msg;\n"
    "    document.getElementById(\"errors\").appendChild(li);\n"
    "  }\n"
    "  window.addEventListener(\"error\", function (e) { fail(String(e.message)); });\n"
    "  var D = JSON.parse(document.getElementById(\"data\").textContent);\n"
    "  function el(tag, text, cls) {\n"
    "    var e = document.createElement(tag);\n"
    "    if (text !== undefined && text !== null) e.textContent = String(text);\n"
    "    if (cls) e.className = cls;\n"
    "    return e;\n"
    "  }\n"
    "  function fmt(v) { return v === null || v === undefined ? \"-\" : Number(v).toPrecision(4); }\n"
    "  /* vertical markers at the change points, with the medians before and after */\n"
    "  var markers = {\n"
    "    id: \"changeMarkers\",\n"
    "    afterDatasetsDraw: function (chart) {\n"
    "      var cps = chart.options.plugins.changeMarkers.points, ctx = chart.ctx, n = 0;\n"
    "      var x = chart.scales.x, y = chart.scales.y;\n"
    "      cps.forEach(function (c) {\n"
    "        var px = (x.getPixelForValue(c.index - 1) + x.getPixelForValue(c.index)) / 2;\n"
    "        ctx.save();\n"
    "        ctx.strokeStyle = \"#d7191c\";\n"
    "        ctx.setLineDash([6, 4]);\n"
    "        ctx.beginPath();\n"
    "        ctx.moveTo(px, y.top);\n"
    "        ctx.lineTo(px, y.bottom);\n"
    "        ctx.stroke();\n"
    "        ctx.setLineDash([]);\n"
    "        ctx.fillStyle = \"#d7191c\";\n"
    "        ctx.font = \"12px sans-serif\";\n"
    "        ctx.fillText(fmt(c.before) + \" \\u2192 \" + fmt(c.after) + \" (\" +\n"
    "          (c.percent >= 0 ? \"+\" : \"\") + c.percent.toFixed(1) + \" %)\", px + 4, y.top + 14);\n"
    "        ctx.restore();\n"
    "        n++;\n"
    "      });\n"
    "      chart.canvas.setAttribute(\"data-markers\", String(n));\n"
    "      var pts = chart.getDatasetMeta(2).data.filter(function (p) {\n"
    "        return !p.skip && isFinite(p.x) && isFinite(p.y);\n"
    "      }).length;\n"
    "      chart.canvas.setAttribute(\"data-points\", String(pts));\n"
    "    }\n"
    "  };\n"
    "  var names = D.series.map(function (s) { return s.label; });\n"
    "  var root = document.getElementById(\"phases\");\n"
    "  D.phases.forEach(function (ph) {\n"
    "    var sec = el(\"section\");\n"
    "    sec.appendChild(el(\"h2\", ph.phase));\n"
    "    var idx = {};\n"
    "    names.forEach(function (n, i) { idx[n] = i; });\n"
    "    var cps = ph.change_points.map(function (c) {\n"
    "      return { index: idx[c.first], before: c.before, after: c.after, percent: c.percent };\n"
    "    });\n"
    "    /* the level of each segment: before the first change, then each change's after */\n"
    "    var level = names.map(function (n, i) {\n"
    "      if (!cps.length) return null;\n"
    "      var v = cps[0].before;\n"
    "      cps.forEach(function (c) { if (i >= c.index) v = c.after; });\n"
    "      return v;\n"
    "    });\n"
    "    var med = ph.labels.map(function (r) { return r.median; });\n"
    "    var wrap = el(\"div\", null, \"chart\"), cv = el(\"canvas\", null, \"history-chart\");\n"
    "    wrap.appendChild(cv);\n"
    "    sec.appendChild(wrap);\n"
    "    var drawn = med.filter(function (v) { return v !== null; }).length;\n"
    "    cv.setAttribute(\"data-expect-points\", String(drawn));\n"
    "    cv.setAttribute(\"data-expect-markers\", String(cps.length));\n"
    "    new Chart(cv, {\n"
    "      type: \"line\",\n"
    "      data: { labels: names, datasets: [\n"
    "        { label: \"interval (low)\", data: ph.labels.map(function (r) { return r.lo; }),\n"
    "          borderWidth: 0, pointRadius: 0, fill: false },\n"
    "        { label: D.confidence * 100 + \" % interval\", data: ph.labels.map(function (r) { return r.hi; }),\n"
    "          borderWidth: 0, pointRadius: 0, backgroundColor: \"rgba(31, 119, 180, 0.18)\", fill: \"-1\" },\n"
    "        { label: \"median\", data: med, borderColor: \"rgb(31, 119, 180)\",\n"
    "          backgroundColor: \"rgb(31, 119, 180)\", pointRadius: 3, fill: false, spanGaps: true },\n"
    "        { label: \"level\", data: level, borderColor: \"rgba(90, 90, 90, 0.8)\", borderDash: [2, 2],\n"
    "          pointRadius: 0, stepped: \"middle\", fill: false }\n"
    "      ] },\n"
    "      options: { animation: false, maintainAspectRatio: false,\n"
    "        scales: { y: { title: { display: true, text: D.metric + \" (\" + D.unit + \")\" } } },\n"
    "        plugins: { legend: { labels: { filter: function (i) { return i.text !== \"interval (low)\"; } } },\n"
    "          changeMarkers: { points: cps } } },\n"
    "      plugins: [markers]\n"
    "    });\n"
    "    charts++;\n"
    "    ph.change_points.forEach(function (c) { sec.appendChild(el(\"p\", c.text, \"summary\")); });\n"
    "    if (!ph.change_points.length) sec.appendChild(el(\"p\", \"no change point\", \"summary\"));\n"
    "    var t = el(\"table\"), hr = el(\"tr\");\n"
    "    [\"label\", \"runs\", \"median\", \"interval\", \"change\"].forEach(function (h) { hr.appendChild(el(\"th\", h)); });\n"
    "    t.appendChild(hr);\n"
    "    ph.labels.forEach(function (r) {\n"
    "      var tr = el(\"tr\", null, r.change ? \"change\" : \"\");\n"
    "      var c = ph.change_points.filter(function (x) { return x.first === r.label; })[0];\n"
    "      [r.label, r.runs, fmt(r.median), fmt(r.lo) + \" - \" + fmt(r.hi),\n"
    "       c ? (c.percent >= 0 ? \"+\" : \"\") + c.percent.toFixed(1) + \" %\" : \"\"].forEach(function (v) {\n"
    "        tr.appendChild(el(\"td\", v));\n"
    "      });\n"
    "      t.appendChild(tr);\n"
    "    });\n"
    "    sec.appendChild(t);\n"
    "    root.appendChild(sec);\n"
    "  });\n"
    "  status.setAttribute(\"data-charts\", String(charts));\n"
    "  status.setAttribute(\"data-done\", \"1\");\n"
    "})();\n";

int report_html_history(FILE *out, const struct series *sr, const struct hist_result *h,
                        const char *order, const char *chartjs_path)
{
    return report_html_history_steps(out, sr, h, order, chartjs_path, NULL);
}

int report_html_history_steps(FILE *out, const struct series *sr, const struct hist_result *h,
                              const char *order, const char *chartjs_path,
                              const struct run_set *steps)
{
    size_t jslen;
    char *chartjs = html_chartjs_load(chartjs_path, &jslen);
    if (!chartjs)
        return -1;
    json_t *m = hist_json(sr, h, order);
    char *data = m ? json_dumps(m, JSON_COMPACT | JSON_ESCAPE_SLASH) : NULL;
    json_decref(m);
    if (!data) {
        free(chartjs);
        return m ? error("out of memory") : -1;
    }
    char title[256];
    snprintf(title, sizeof title, "fsbench history: %zu labels, %s to %s", sr->nlabels,
             sr->nlabels ? sr->labels[0].label : "", sr->nlabels ? sr->labels[sr->nlabels - 1].label : "");
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
    html_put_escaped(out, title);
    fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", history_style);
    html_put_escaped(out, title);
    fputs("</h1>\n<div id=\"status\" data-errors=\"0\"></div>\n<ul id=\"errors\"></ul>\n", out);
    fprintf(out, "<p>Per phase each label's median of %s with its %.0f %% interval (band), the "
                 "level of each segment (dashed) and the change points (red markers: the "
                 "medians before and after); %.0f %% false alarms per series and phase.</p>\n",
            cmp_metric_get(sr->metric)->name, h->confidence * 100, h->alpha * 100);
    if (steps)
        report_aging_steps_html(out, steps);
    fputs("<div id=\"phases\"></div>\n<script type=\"application/json\" id=\"data\">", out);
    return html_page_end(out, data, chartjs, jslen, history_script);
}
