#!/usr/bin/python3
# tests/system/key-outside.py SVG... - whether the key of each gnuplot SVG
# lies outside its plot area: every key entry (the text beside a sample,
# found by its plot's <title>) below the x axis, i.e. lower than the
# lowest y tick label. Prints "outside", or FILE: and the titles whose
# entry sits inside the plot area (where it can cover points), or FILE: no
# key / no axis found.
import re, sys

NUM = r'-?[0-9]+(?:\.[0-9]+)?'


def texts(svg, anchor):
    """(x, y, text) of each unrotated text anchored at @anchor."""
    found = re.findall(r'<g transform="translate\((' + NUM + r'),(' + NUM + r')\)"[^>]*'
                       r'text-anchor="' + anchor + r'"[^>]*>\s*<text>(.*?)</text>', svg, re.S)
    return [(float(x), float(y), re.sub(r'<[^>]*>', '', t).strip()) for x, y, t in found]


def check(path):
    svg = open(path).read()
    right = texts(svg, "end")
    yticks = [y for x, y, t in right if re.fullmatch(NUM, t)]
    titles = [t for t in re.findall(r'<g id="gnuplot_plot_[0-9]+" ><title>(.*?)</title>', svg)
              if not re.fullmatch(r'gnuplot_plot_[0-9]+', t)]
    keys = [(y, t) for x, y, t in right if t in titles]
    if not yticks or not titles or len(keys) < len(titles):
        return "%s: no key or no axis found" % path
    inside = ["'%s'" % t for y, t in keys if y <= max(yticks)]
    return "%s: %s" % (path, " ".join(inside)) if inside else ""


bad = [b for b in (check(p) for p in sys.argv[1:]) if b]
print("\n".join(bad) if bad else "outside")
