/* bench/bench_plot.h — the bench programs' tables as CSV files and line
   charts, like Triton's perf_report: a program hands over the numbers its
   rows print (bench_plot_point), and at the end (bench_plot_write, called by
   bench_finish) each figure becomes
       <BENCH_PLOT_DIR>/<prog>-<figure slug>.csv   the x label, then one
                      column per series; one row per x, an empty cell
                      where a series has no point at that x
       <BENCH_PLOT_DIR>/<prog>-<figure slug>.svg   a line chart written
                      here: one polyline and markers per series, a legend,
                      axes with ticks, a title
   Nothing is collected or written unless BENCH_PLOT_DIR is set (the
   directory, and its parents, are made when missing). No plotting library:
   the SVG is plain text, self-contained (no fonts, CSS or scripts from
   elsewhere), so a run on a machine with nothing installed still gives
   figures.

   The x axis is log2 when the x values are all positive and span more
   than 16x (sizes that double), linear otherwise; y starts at 0, as a
   throughput is read against zero. With at most 10 distinct x values the
   ticks sit on the values themselves (a bench measures a few sizes, not a
   range), labelled by bench_plot_xtick where given.

   One static table holds everything, bounded below; a point that finds no
   room is dropped and counted, and bench_plot_write reports that as a
   failure (a figure would be silently incomplete otherwise). No malloc, no
   exit: a plot that cannot be written costs a FAILED line, not the run.

   Needs <sys/stat.h>'s mkdir: define _POSIX_C_SOURCE before any include,
   as bench_common.h asks. */
#ifndef BENCH_PLOT_H
#define BENCH_PLOT_H

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#define BENCH_PLOT_MAX_FIGURES 32
#define BENCH_PLOT_MAX_SERIES 12      /* a figure                             */
#define BENCH_PLOT_MAX_POINTS 2048    /* all figures together                 */
#define BENCH_PLOT_MAX_TICKS 16       /* labelled x values a figure           */
#define BENCH_PLOT_NAME 96            /* longer names are cut                 */

typedef struct bench_plot_figure {
    char title[BENCH_PLOT_NAME], xlabel[BENCH_PLOT_NAME], ylabel[BENCH_PLOT_NAME];
    char series[BENCH_PLOT_MAX_SERIES][BENCH_PLOT_NAME];
    int nseries;
    struct { double x; char text[40]; } ticks[BENCH_PLOT_MAX_TICKS];
    int nticks;
} bench_plot_figure;

static struct {
    bench_plot_figure fig[BENCH_PLOT_MAX_FIGURES];
    int nfig;
    struct { int fig, series; double x, y; } pt[BENCH_PLOT_MAX_POINTS];
    int npt;
    int dropped;                                /* points that found no room    */
    double xs[BENCH_PLOT_MAX_POINTS];           /* scratch of bench_plot_write  */
    char slug[BENCH_PLOT_MAX_FIGURES][BENCH_PLOT_NAME];
    char note[256];                             /* under every title            */
} bench_plot_table;

static inline const char *bench_plot_dir(void) {
    const char *d = getenv("BENCH_PLOT_DIR");
    return d && *d ? d : NULL;
}

/* The figure titled `title`, made when new; NULL when the table is full.
   Labels fill in once: the first call that gives one fixes it. */
static inline bench_plot_figure *bench_plot_figure_of(const char *title, const char *xlabel, const char *ylabel, int *index) {
    bench_plot_figure *f = NULL;
    char key[BENCH_PLOT_NAME];
    snprintf(key, sizeof key, "%s", title ? title : "");
    for (int i = 0; i < bench_plot_table.nfig && !f; i++)
        if (strcmp(bench_plot_table.fig[i].title, key) == 0) {
            f = &bench_plot_table.fig[i];
            *index = i;
        }
    if (!f) {
        if (bench_plot_table.nfig == BENCH_PLOT_MAX_FIGURES) return NULL;
        *index = bench_plot_table.nfig;
        f = &bench_plot_table.fig[bench_plot_table.nfig++];
        memset(f, 0, sizeof *f);
        snprintf(f->title, sizeof f->title, "%s", key);
    }
    if (!f->xlabel[0] && xlabel) snprintf(f->xlabel, sizeof f->xlabel, "%s", xlabel);
    if (!f->ylabel[0] && ylabel) snprintf(f->ylabel, sizeof f->ylabel, "%s", ylabel);
    return f;
}

/* One point of `series` in `figure` (e.g. "matmul f16", "cuBLAS", size,
   TFLOP/s). A second point of the same series at the same x keeps the
   larger y: several configs timed at one size plot as the best of them,
   which is what a throughput figure compares. Points that are not finite
   are left out (a row that failed has no number). */
static inline void bench_plot_point(const char *figure, const char *x_label, const char *y_label, const char *series, double x,
                                    double y) {
    if (!bench_plot_dir() || !isfinite(x) || !isfinite(y)) return;
    int fi, si = -1;
    bench_plot_figure *f = bench_plot_figure_of(figure, x_label, y_label, &fi);
    if (!f) {
        bench_plot_table.dropped++;
        return;
    }
    char key[BENCH_PLOT_NAME];
    snprintf(key, sizeof key, "%s", series ? series : "");
    for (int s = 0; s < f->nseries && si < 0; s++)
        if (strcmp(f->series[s], key) == 0) si = s;
    if (si < 0) {
        if (f->nseries == BENCH_PLOT_MAX_SERIES) {
            bench_plot_table.dropped++;
            return;
        }
        si = f->nseries++;
        snprintf(f->series[si], sizeof f->series[si], "%s", key);
    }
    for (int i = 0; i < bench_plot_table.npt; i++)
        if (bench_plot_table.pt[i].fig == fi && bench_plot_table.pt[i].series == si && bench_plot_table.pt[i].x == x) {
            if (y > bench_plot_table.pt[i].y) bench_plot_table.pt[i].y = y;
            return;
        }
    if (bench_plot_table.npt == BENCH_PLOT_MAX_POINTS) {
        bench_plot_table.dropped++;
        return;
    }
    bench_plot_table.pt[bench_plot_table.npt].fig = fi;
    bench_plot_table.pt[bench_plot_table.npt].series = si;
    bench_plot_table.pt[bench_plot_table.npt].x = x;
    bench_plot_table.pt[bench_plot_table.npt++].y = y;
}

/* The text of the x tick at x in `figure` (e.g. "8192x8192x512" where x
   is a derived size): for the SVG only, the CSV keeps the number. Ticks
   beyond the bound keep their number; nothing is lost. */
static inline void bench_plot_xtick(const char *figure, double x, const char *text) {
    int fi;
    bench_plot_figure *f;
    if (!bench_plot_dir() || !isfinite(x) || !(f = bench_plot_figure_of(figure, NULL, NULL, &fi))) return;
    for (int i = 0; i < f->nticks; i++)
        if (f->ticks[i].x == x) return;
    if (f->nticks == BENCH_PLOT_MAX_TICKS) return;
    f->ticks[f->nticks].x = x;
    snprintf(f->ticks[f->nticks++].text, sizeof f->ticks[0].text, "%s", text ? text : "");
}

/* A line under every figure's title: what the numbers came from (the
   device, the back end, smoke mode), so that a figure seen alone says it. */
static inline void bench_plot_note(const char *text) {
    snprintf(bench_plot_table.note, sizeof bench_plot_table.note, "%s", text ? text : "");
}

/* ---- writing ---------------------------------------------------------------------------- */
/* text for XML: the five specials as entities, control characters (not
   allowed in XML 1.0) as '?' */
static inline void bench_plot_xml(FILE *o, const char *s) {
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': fputs("&amp;", o); break;
        case '<': fputs("&lt;", o); break;
        case '>': fputs("&gt;", o); break;
        case '"': fputs("&quot;", o); break;
        case '\'': fputs("&apos;", o); break;
        default: fputc(c < 0x20 && c != '\t' && c != '\n' ? '?' : c, o);
        }
    }
}
/* a CSV field: quoted (quotes doubled) when it holds a comma, quote or line break */
static inline void bench_plot_csv_field(FILE *o, const char *s) {
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, o);
        return;
    }
    fputc('"', o);
    for (; *s; s++) {
        if (*s == '"') fputc('"', o);
        fputc(*s, o);
    }
    fputc('"', o);
}
/* file name part: lower-case letters and digits, every other run as one '-' */
static inline void bench_plot_slugify(char *out, size_t n, const char *s) {
    size_t k = 0;
    for (; *s && k + 1 < n; s++) {
        char c = *s;
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) out[k++] = c;
        else if (k > 0 && out[k - 1] != '-') out[k++] = '-';
    }
    while (k > 0 && out[k - 1] == '-') k--;
    out[k] = 0;
    if (!k) snprintf(out, n, "figure");
}
static inline int bench_plot_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
/* the point of series s at x in figure f, or -1 */
static inline int bench_plot_find(int f, int s, double x) {
    for (int i = 0; i < bench_plot_table.npt; i++)
        if (bench_plot_table.pt[i].fig == f && bench_plot_table.pt[i].series == s && bench_plot_table.pt[i].x == x) return i;
    return -1;
}
/* an x value as a tick label: 2^k for large powers of two (the sizes
   benches sweep), whole numbers as they are, else 3-4 significant digits
   with k/M/G/T */
static inline void bench_plot_fmt_x(char *buf, size_t n, double v) {
    int e;
    double m = frexp(v, &e);
    if (v > 0 && m == 0.5 && e - 1 >= 17) snprintf(buf, n, "2^%d", e - 1);
    else if (fabs(v) < 1e6 && v == floor(v)) snprintf(buf, n, "%.0f", v);
    else if (fabs(v) >= 1e12) snprintf(buf, n, "%.3gT", v / 1e12);
    else if (fabs(v) >= 1e9) snprintf(buf, n, "%.3gG", v / 1e9);
    else if (fabs(v) >= 1e6) snprintf(buf, n, "%.3gM", v / 1e6);
    else snprintf(buf, n, "%.4g", v);
}
/* a value on an axis with ticks `step` apart: just enough decimals to tell
   neighbours apart */
static inline void bench_plot_fmt_tick(char *buf, size_t n, double v, double step) {
    if (fabs(v) < step * 1e-9) snprintf(buf, n, "0");
    else if (step >= 1e-3 && fabs(v) < 1e7) {
        int d = 0;
        while (d < 6 && fabs(step * pow(10, d) - floor(step * pow(10, d) + 0.5)) > 1e-6 * step * pow(10, d)) d++;
        snprintf(buf, n, "%.*f", d, v);
    } else snprintf(buf, n, "%.3g", v);
}
/* 1, 2, 2.5 or 5 times a power of ten, near span / count */
static inline double bench_plot_step(double span, int count) {
    double raw = span / count, mag = pow(10, floor(log10(raw))), r = raw / mag;
    return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 2.5 ? 2.5 : r <= 5 ? 5 : 10) * mag;
}

/* Lengths of the SVG, in px: the plot area, then the legend at the right. */
enum {
    BENCH_PLOT_WIDTH = 980, BENCH_PLOT_HEIGHT = 560,
    BENCH_PLOT_X0 = 90, BENCH_PLOT_X1 = 690, BENCH_PLOT_Y0 = 62, BENCH_PLOT_Y1 = 476
};

static inline void bench_plot_svg(FILE *o, const char *prog, int fi, const double *xs, int nx) {
    static const char *const colors[10] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                           "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
    const bench_plot_figure *f = &bench_plot_table.fig[fi];
    const double X0 = BENCH_PLOT_X0, X1 = BENCH_PLOT_X1, Y0 = BENCH_PLOT_Y0, Y1 = BENCH_PLOT_Y1;
    double ymin = 0, ymax = 0;
    for (int i = 0; i < bench_plot_table.npt; i++)
        if (bench_plot_table.pt[i].fig == fi) {
            if (bench_plot_table.pt[i].y > ymax) ymax = bench_plot_table.pt[i].y;
            if (bench_plot_table.pt[i].y < ymin) ymin = bench_plot_table.pt[i].y;
        }
    /* y: from 0 (or the lowest value, if below), up to a tick above the
       top, with room for the top marker */
    if (!(ymax > ymin)) ymax = ymin + 1;
    double ystep = bench_plot_step(ymax - ymin, 5);
    double ylo = floor(ymin / ystep) * ystep, yhi = ceil(ymax / ystep) * ystep;
    if (yhi - ymax < 0.03 * (yhi - ylo)) yhi += ystep;
    /* x: log2 when the values are positive and span more than 16x */
    int logx = xs[0] > 0 && xs[nx - 1] / xs[0] > 16;
    double tlo = logx ? log2(xs[0]) : xs[0], thi = logx ? log2(xs[nx - 1]) : xs[nx - 1];
    if (thi > tlo) {
        double pad = 0.05 * (thi - tlo);
        tlo -= pad;
        thi += pad;
    } else if (logx) {
        tlo -= 1, thi += 1;
    } else {
        double pad = fabs(tlo) > 0 ? 0.5 * fabs(tlo) : 1;
        tlo -= pad, thi += pad;
    }
#define BENCH_PLOT_PX(v) (X0 + ((logx ? log2(v) : (v)) - tlo) / (thi - tlo) * (X1 - X0))
#define BENCH_PLOT_PY(v) (Y1 - ((v) - ylo) / (yhi - ylo) * (Y1 - Y0))

    fprintf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n",
            BENCH_PLOT_WIDTH, BENCH_PLOT_HEIGHT, BENCH_PLOT_WIDTH, BENCH_PLOT_HEIGHT);
    fprintf(o, "<title>");
    bench_plot_xml(o, prog);
    fprintf(o, ": ");
    bench_plot_xml(o, f->title);
    fprintf(o, "</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(o, "<text class=\"title\" x=\"%.1f\" y=\"30\" text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\">",
            (X0 + X1) / 2);
    bench_plot_xml(o, f->title);
    fprintf(o, "</text>\n");
    if (bench_plot_table.note[0]) {
        fprintf(o, "<text class=\"note\" x=\"%.1f\" y=\"47\" text-anchor=\"middle\" font-size=\"11\" fill=\"#555555\">",
                (X0 + X1) / 2);
        bench_plot_xml(o, bench_plot_table.note);
        fprintf(o, "</text>\n");
    }

    /* y ticks and grid */
    fprintf(o, "<g class=\"y-axis\" stroke=\"#dddddd\">\n");
    for (int k = 0; k <= 100; k++) {
        double v = ylo + k * ystep;
        if (v > yhi + ystep * 1e-6) break;
        char t[48];
        bench_plot_fmt_tick(t, sizeof t, v, ystep);
        fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", X0, BENCH_PLOT_PY(v), X1, BENCH_PLOT_PY(v));
        fprintf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" stroke=\"none\" fill=\"#333333\">%s</text>\n", X0 - 6,
                BENCH_PLOT_PY(v) + 4, t);
    }
    fprintf(o, "</g>\n");

    /* x ticks: on the values themselves when there are few, else every
       power of two (log) or a 1-2-5 step; a label that would overlap the
       one before it goes a line lower, and if that overlaps too it is left
       out (its tick stays) */
    double ticks[64];
    int nt = 0;
    if (nx <= 10) {
        for (int i = 0; i < nx; i++) ticks[nt++] = xs[i];
    } else if (logx) {
        int e0 = (int)ceil(log2(xs[0])), e1 = (int)floor(log2(xs[nx - 1])), every = (e1 - e0) / 10 + 1;
        for (int e = e0; e <= e1 && nt < 64; e += every) ticks[nt++] = ldexp(1, e);
    } else {
        double st = bench_plot_step(xs[nx - 1] - xs[0], 8);
        for (double v = ceil(xs[0] / st) * st; v <= xs[nx - 1] + st * 1e-9 && nt < 64; v += st) ticks[nt++] = v;
    }
    double xstep = nt > 1 ? ticks[1] - ticks[0] : 1;
    double last_right[2] = {-1e9, -1e9};
    fprintf(o, "<g class=\"x-axis\" stroke=\"#dddddd\">\n");
    for (int i = 0; i < nt; i++) {
        char t[48] = "";
        for (int k = 0; k < f->nticks && !t[0]; k++)
            if (f->ticks[k].x == ticks[i]) snprintf(t, sizeof t, "%s", f->ticks[k].text);
        if (!t[0]) {
            /* powers of two on a log axis all as 2^k once any is large, not 65536 beside 2^18 */
            if (logx && nx > 10 && ticks[nt - 1] >= 131072) snprintf(t, sizeof t, "2^%d", (int)floor(log2(ticks[i]) + 0.5));
            else if (nx <= 10 || logx) bench_plot_fmt_x(t, sizeof t, ticks[i]);
            else bench_plot_fmt_tick(t, sizeof t, ticks[i], xstep);
        }
        double px = BENCH_PLOT_PX(ticks[i]), half = 3.4 * (double)strlen(t);
        fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", px, Y0, px, Y1 + 5);
        int line = px - half > last_right[0] + 6 ? 0 : px - half > last_right[1] + 6 ? 1 : -1;
        if (line >= 0) {
            fprintf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" stroke=\"none\" fill=\"#333333\">", px,
                    Y1 + 20 + 14 * line);
            bench_plot_xml(o, t);
            fprintf(o, "</text>");
            last_right[line] = px + half;
        }
        fprintf(o, "\n");
    }
    fprintf(o, "</g>\n");
    fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#333333\"/>\n", X0, Y0, X1 - X0,
            Y1 - Y0);
    fprintf(o, "<text class=\"x-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\">", (X0 + X1) / 2, Y1 + 54);
    bench_plot_xml(o, f->xlabel);
    fprintf(o, "%s</text>\n", logx ? " (log scale)" : "");
    fprintf(o, "<text class=\"y-label\" x=\"0\" y=\"0\" text-anchor=\"middle\" font-size=\"13\" "
               "transform=\"translate(22 %.1f) rotate(-90)\">", (Y0 + Y1) / 2);
    bench_plot_xml(o, f->ylabel);
    fprintf(o, "</text>\n");

    /* the series: a polyline through the points in x order, a marker on each */
    for (int s = 0; s < f->nseries; s++) {
        const char *color = colors[s % 10], *dash = s >= 10 ? " stroke-dasharray=\"6 3\"" : "";
        fprintf(o, "<g class=\"series\" stroke=\"%s\" fill=\"%s\">\n<title>", color, color);
        bench_plot_xml(o, f->series[s]);
        fprintf(o, "</title>\n<polyline fill=\"none\" stroke-width=\"2\"%s points=\"", dash);
        int first = 1;
        for (int i = 0; i < nx; i++) {
            int p = bench_plot_find(fi, s, xs[i]);
            if (p < 0) continue;
            fprintf(o, "%s%.1f,%.1f", first ? "" : " ", BENCH_PLOT_PX(xs[i]), BENCH_PLOT_PY(bench_plot_table.pt[p].y));
            first = 0;
        }
        fprintf(o, "\"/>\n");
        for (int i = 0; i < nx; i++) {
            int p = bench_plot_find(fi, s, xs[i]);
            if (p < 0) continue;
            char xt[48];
            bench_plot_fmt_x(xt, sizeof xt, xs[i]);
            fprintf(o, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>", BENCH_PLOT_PX(xs[i]),
                    BENCH_PLOT_PY(bench_plot_table.pt[p].y));
            bench_plot_xml(o, f->series[s]);
            fprintf(o, ": %s, %.4g</title></circle>\n", xt, bench_plot_table.pt[p].y);
        }
        fprintf(o, "</g>\n");
    }

    /* the legend, right of the plot */
    fprintf(o, "<g class=\"legend\">\n");
    for (int s = 0; s < f->nseries; s++) {
        double y = Y0 + 12 + 22 * s;
        const char *color = colors[s % 10], *dash = s >= 10 ? " stroke-dasharray=\"6 3\"" : "";
        fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"%s/>", X1 + 20, y,
                X1 + 48, y, color, dash);
        fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>", X1 + 34, y, color);
        fprintf(o, "<text class=\"legend-entry\" x=\"%.1f\" y=\"%.1f\">", X1 + 56, y + 4);
        bench_plot_xml(o, f->series[s]);
        fprintf(o, "</text>\n");
    }
    fprintf(o, "</g>\n</svg>\n");
#undef BENCH_PLOT_PX
#undef BENCH_PLOT_PY
}

static inline void bench_plot_csv(FILE *o, int fi, const double *xs, int nx) {
    const bench_plot_figure *f = &bench_plot_table.fig[fi];
    bench_plot_csv_field(o, f->xlabel[0] ? f->xlabel : "x");
    for (int s = 0; s < f->nseries; s++) {
        fputc(',', o);
        bench_plot_csv_field(o, f->series[s]);
    }
    fputc('\n', o);
    for (int i = 0; i < nx; i++) {
        fprintf(o, "%.10g", xs[i]);
        for (int s = 0; s < f->nseries; s++) {
            int p = bench_plot_find(fi, s, xs[i]);
            if (p < 0) fputc(',', o);
            else fprintf(o, ",%.6g", bench_plot_table.pt[p].y);
        }
        fputc('\n', o);
    }
}

/* mkdir -p: each parent of dir in turn; what fails shows when a file is opened */
static inline void bench_plot_mkdirs(const char *dir) {
    char p[4096];
    if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p) return;
    for (char *c = p + 1; *c; c++)
        if (*c == '/') {
            *c = 0;
            mkdir(p, 0777);
            *c = '/';
        }
    mkdir(p, 0777);
}

/* One file; 1 when written whole, else a FAILED line (`left` more files
   not tried, as the same directory would fail them too), the partial file
   removed. */
static inline int bench_plot_file(const char *prog, int fi, const char *ext, const double *xs, int nx, int left) {
    char path[4096];
    const char *dir = bench_plot_dir();
    int n = snprintf(path, sizeof path, "%s/%s-%s.%s", dir, prog, bench_plot_table.slug[fi], ext);
    if (n < 0 || n >= (int)sizeof path) {
        printf("FAILED  plot: path too long: %s/%s-%s.%s\n", dir, prog, bench_plot_table.slug[fi], ext);
        return 0;
    }
    errno = 0;
    FILE *o = fopen(path, "w");
    if (!o) {
        printf("FAILED  plot: cannot write %s: %s (%d more file%s not tried)\n", path, strerror(errno), left,
               left == 1 ? "" : "s");
        return 0;
    }
    if (ext[0] == 'c') bench_plot_csv(o, fi, xs, nx);
    else bench_plot_svg(o, prog, fi, xs, nx);
    int bad = ferror(o);
    errno = 0;
    if (fclose(o) != 0) bad = 1;
    if (bad) {
        printf("FAILED  plot: error writing %s: %s (%d more file%s not tried)\n", path,
               errno ? strerror(errno) : "write error", left, left == 1 ? "" : "s");
        remove(path);
        return 0;
    }
    printf("# plot: %s\n", path);
    return 1;
}

/* Every figure as CSV and SVG under BENCH_PLOT_DIR (nothing when unset);
   returns the number of failures (files not written, points dropped), each
   with a FAILED line. The table is emptied, so a second call writes only
   what came after the first. */
static inline int bench_plot_write(const char *prog) {
    const char *dir = bench_plot_dir();
    int failures = 0;
    char name[BENCH_PLOT_NAME];
    if (!dir) return 0;
    /* the program's name as it goes into file names: letters, digits, _ . - */
    snprintf(name, sizeof name, "%s", prog && *prog ? prog : "bench");
    for (char *c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || strchr("_.-", *c)))
            *c = '-';
    if (bench_plot_table.dropped) {
        printf("FAILED  plot: %d point(s) dropped: the table holds %d figures, %d series a figure, %d points\n",
               bench_plot_table.dropped, BENCH_PLOT_MAX_FIGURES, BENCH_PLOT_MAX_SERIES, BENCH_PLOT_MAX_POINTS);
        failures++;
    }
    if (!bench_plot_table.nfig) printf("# plot: %s has no figures\n", name);
    else bench_plot_mkdirs(dir);
    for (int fi = 0; fi < bench_plot_table.nfig; fi++) {
        /* file names: the title's slug, made unique with -2, -3, ... */
        char base[BENCH_PLOT_NAME - 16];
        bench_plot_slugify(base, sizeof base, bench_plot_table.fig[fi].title);
        snprintf(bench_plot_table.slug[fi], sizeof bench_plot_table.slug[fi], "%s", base);
        for (int k = 2, clash = 1; clash; k++) {
            clash = 0;
            for (int j = 0; j < fi && !clash; j++) clash = strcmp(bench_plot_table.slug[j], bench_plot_table.slug[fi]) == 0;
            if (clash) snprintf(bench_plot_table.slug[fi], sizeof bench_plot_table.slug[fi], "%s-%d", base, k % 100000);
        }
        /* the distinct x values, ascending */
        int nx = 0;
        for (int i = 0; i < bench_plot_table.npt; i++)
            if (bench_plot_table.pt[i].fig == fi) bench_plot_table.xs[nx++] = bench_plot_table.pt[i].x;
        qsort(bench_plot_table.xs, (size_t)nx, sizeof(double), bench_plot_cmp);
        int nd = 0;
        for (int i = 0; i < nx; i++)
            if (nd == 0 || bench_plot_table.xs[i] != bench_plot_table.xs[nd - 1])
                bench_plot_table.xs[nd++] = bench_plot_table.xs[i];
        if (!nd) continue;   /* a figure that only has tick labels */
        int left = 2 * (bench_plot_table.nfig - fi) - 1;
        if (!bench_plot_file(name, fi, "csv", bench_plot_table.xs, nd, left) ||
            !bench_plot_file(name, fi, "svg", bench_plot_table.xs, nd, left - 1)) {
            failures++;
            break;
        }
    }
    fflush(stdout);
    bench_plot_table.nfig = bench_plot_table.npt = bench_plot_table.dropped = 0;
    return failures;
}

#endif /* BENCH_PLOT_H */
