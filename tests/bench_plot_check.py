#!/usr/bin/env python3
"""tests/bench_plot_check.py DIR -- checks the figures a bench program wrote
with BENCH_PLOT_DIR=DIR (bench/bench_plot.h), with the standard library only.

Every .csv: a header (the x label, then one column per series), at least one
data row, every row as long as the header, x numeric and strictly
increasing, every other cell numeric or empty, and each series with at least
one value.

Every .svg: parses as XML, the root is <svg>, there is a title (a <title>
element or a text of class "title"), a legend with at least one entry, and
for each legend entry a series group (<g class="series"> whose <title> is the
entry) holding a polyline or path.

A .csv and the .svg of the same name are one figure: the legend must name
the CSV's series, in order, and each series must have as many markers as the
CSV has values for it. A file without its pair is a problem.

Prints one "ok" line a file; exits 1 on any problem (each on a "FAIL" line),
or when DIR holds no .csv or .svg at all."""

import csv
import math
import os
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def number(cell):
    """the cell as a finite float, or None"""
    try:
        v = float(cell)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def check_csv(path):
    """(series names, values per series); raises ValueError on a problem"""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise ValueError("empty file, no header")
    header = rows[0]
    if len(header) < 2:
        raise ValueError(f"header {header!r}: want the x label and at least one series")
    if any(not h.strip() for h in header[1:]):
        raise ValueError(f"header {header!r}: a series without a name")
    if len(set(header[1:])) != len(header) - 1:
        raise ValueError(f"header {header!r}: a series named twice")
    data = rows[1:]
    if not data:
        raise ValueError("no data rows")
    counts = [0] * (len(header) - 1)
    last_x = None
    for n, row in enumerate(data, start=2):
        if len(row) != len(header):
            raise ValueError(f"line {n}: {len(row)} cells, the header has {len(header)}")
        x = number(row[0])
        if x is None:
            raise ValueError(f"line {n}: x {row[0]!r} is not a number")
        if last_x is not None and not x > last_x:
            raise ValueError(f"line {n}: x {x} does not follow {last_x} (not increasing)")
        last_x = x
        for k, cell in enumerate(row[1:]):
            if cell == "":
                continue
            if number(cell) is None:
                raise ValueError(f"line {n}, column {header[k + 1]!r}: {cell!r} is neither a number nor empty")
            counts[k] += 1
    for name, c in zip(header[1:], counts):
        if c == 0:
            raise ValueError(f"series {name!r} has no value")
    return header[1:], counts, len(data)


def classes(el):
    return el.get("class", "").split()


def check_svg(path):
    """(legend names, markers per series); raises ValueError on a problem"""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        raise ValueError(f"not well-formed XML: {e}") from None
    if root.tag != SVG + "svg":
        raise ValueError(f"root element is {root.tag!r}, not svg")
    title = root.find(SVG + "title")
    titles = [t for t in root.iter(SVG + "text") if "title" in classes(t)]
    if (title is None or not (title.text or "").strip()) and not any((t.text or "").strip() for t in titles):
        raise ValueError("no title (neither <title> nor a text of class title)")
    legends = [g for g in root.iter(SVG + "g") if "legend" in classes(g)]
    if len(legends) != 1:
        raise ValueError(f"{len(legends)} legends, want one")
    names = [t.text or "" for t in legends[0].iter(SVG + "text") if "legend-entry" in classes(t)]
    if not names:
        raise ValueError("the legend has no entries")
    series = {}
    for g in root.iter(SVG + "g"):
        if "series" not in classes(g):
            continue
        t = g.find(SVG + "title")
        name = t.text if t is not None and t.text else None
        if name is None:
            raise ValueError("a series group without a <title>")
        if name in series:
            raise ValueError(f"two series groups named {name!r}")
        series[name] = g
    markers = []
    for name in names:
        g = series.get(name)
        if g is None:
            raise ValueError(f"legend entry {name!r} has no series group")
        if g.find(SVG + "polyline") is None and g.find(SVG + "path") is None:
            raise ValueError(f"series {name!r} has no polyline or path")
        markers.append(sum(1 for c in g.iter(SVG + "circle") if "point" in classes(c)))
    extra = set(series) - set(names)
    if extra:
        raise ValueError(f"series not in the legend: {sorted(extra)}")
    return names, markers


def main(argv):
    if len(argv) != 2:
        print("usage: bench_plot_check.py DIR", file=sys.stderr)
        return 2
    top = argv[1]
    if not os.path.isdir(top):
        print(f"FAIL {top}: not a directory")
        return 1
    files = sorted(f for f in os.listdir(top) if f.endswith((".csv", ".svg")))
    if not files:
        print(f"FAIL {top}: no .csv or .svg files (was the bench run with BENCH_PLOT_DIR={top}?)")
        return 1
    problems = 0
    csvs, svgs = {}, {}
    for name in files:
        path = os.path.join(top, name)
        stem = name[:-4]
        try:
            if name.endswith(".csv"):
                heads, counts, nrows = check_csv(path)
                csvs[stem] = (heads, counts)
                print(f"ok   {path}: {nrows} row(s), series {', '.join(heads)}")
            else:
                names, markers = check_svg(path)
                svgs[stem] = (names, markers)
                print(f"ok   {path}: {len(names)} series, {sum(markers)} marker(s)")
        except (ValueError, OSError, UnicodeDecodeError, csv.Error) as e:
            print(f"FAIL {path}: {e}")
            problems += 1
    # each figure: its CSV and its SVG agree
    for stem in sorted(set(csvs) | set(svgs)):
        base = os.path.join(top, stem)
        if stem not in svgs or stem not in csvs:
            # a file that failed its own check is reported already; one that is missing is not
            for have, want in (("csv", "svg"), ("svg", "csv")):
                if f"{stem}.{have}" in files and f"{stem}.{want}" not in files:
                    print(f"FAIL {base}.{have}: no {base}.{want} beside it")
                    problems += 1
            continue
        heads, counts = csvs[stem]
        names, markers = svgs[stem]
        if heads != names:
            print(f"FAIL {base}: the CSV's series {heads} and the SVG's legend {names} differ")
            problems += 1
        elif counts != markers:
            print(f"FAIL {base}: values per series {counts} in the CSV, markers {markers} in the SVG")
            problems += 1
        else:
            print(f"ok   {base}: CSV and SVG agree")
    if problems:
        print(f"{problems} problem(s) in {top}")
        return 1
    print(f"all {len(files)} file(s) in {top} ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
