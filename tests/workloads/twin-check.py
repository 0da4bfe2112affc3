# SPDX-License-Identifier: MIT
"""tests/workloads/twin-check.py - the properties by which python.t compares
a Python twin's --output with its C function's where the bytes may differ.
Usage: twin-check.py KIND C_FILE PY_FILE; prints "same: ..." and exits 0,
or prints what differs and exits 1. Python's own parsers (html.parser,
tarfile, sqlite3), Pillow's GIF decoder and a PPM reader here read both
files: neither side's code.
"""
import html.parser
import sys
import tarfile


class Table(html.parser.HTMLParser):
    """The title and the rows of <td> texts, entities resolved."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.title, self.rows, self.where = "", [], None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag == "td":
            self.rows[-1].append("")
        self.where = tag if tag in ("title", "td") else None

    def handle_endtag(self, tag):
        self.where = None

    def handle_data(self, data):
        if self.where == "title":
            self.title += data
        elif self.where == "td":
            self.rows[-1][-1] += data


def page_table(path):
    t = Table()
    with open(path, encoding="latin-1") as f:
        t.feed(f.read())
    return t.title, t.rows


def check_table(c, p):
    a, b = page_table(c), page_table(p)
    if a != b:
        raise AssertionError("the pages' tables differ")
    return "same title, same %d x %d cells" % (len(a[1]), len(a[1][0]))


def tar_members(path):
    """name -> (type, permission bits, bytes) of every member, "./" and "/" trimmed."""
    members = {}
    with tarfile.open(path) as tar:
        for m in tar.getmembers():
            name = m.name.removeprefix("./").rstrip("/")
            data = tar.extractfile(m).read() if m.isfile() else b""
            members[name] = (m.type, m.mode & 0o777, data)
    return members


def check_tar(c, p):
    a, b = tar_members(c), tar_members(p)
    if a != b:
        raise AssertionError("members differ: %s" % sorted(set(a.items()) ^ set(b.items()))[:3])
    return "the same %d members (names, types, modes, bytes)" % len(a)


def lr_lines(path):
    """logistic-regression's --output: {kind: [fields]} of its lines."""
    lines = {}
    with open(path) as f:
        for line in f:
            kind, *rest = line.split()
            lines.setdefault(kind, []).append(rest)
    return lines


def check_lr(c, p):
    """Same vocabulary, TF-IDF within 1e-12, probabilities within 1e-3, weights
    within 5e-3 (sklearn's lbfgs converges, logistic-regression.c stops after
    300 steps), the same predictions and accuracy."""
    a, b = lr_lines(c), lr_lines(p)
    if a["v"] != b["v"]:
        raise AssertionError("the vocabularies differ")
    xa = {(r, col): float(v) for r, col, v in a["x"]}
    xb = {(r, col): float(v) for r, col, v in b["x"]}
    if xa.keys() != xb.keys() or max(abs(xa[k] - xb[k]) for k in xa) > 1e-12:
        raise AssertionError("the TF-IDF matrices differ")
    dp = max(abs(float(u[1]) - float(v[1])) for u, v in zip(a["p"], b["p"], strict=True))
    dw = max(abs(float(u[1]) - float(v[1])) for u, v in zip(a["w"], b["w"], strict=True))
    flips = sum((float(u[1]) >= .5) != (float(v[1]) >= .5) for u, v in zip(a["p"], b["p"]))
    if dp > 1e-3 or dw > 5e-3 or flips or a["acc"] != b["acc"]:
        raise AssertionError("probabilities %.2g apart, weights %.2g, %d predictions "
                             "differ, accuracy %s / %s" % (dp, dw, flips, a["acc"], b["acc"]))
    return ("%d features, TF-IDF equal, probabilities within %.1e, weights within "
            "%.1e, same predictions" % (len(a["v"]), dp, dw))


def scores(path):
    with open(path) as f:
        rows = [line.split() for line in f]
    return [float(r[1]) for r in rows], [float(r[2]) for r in rows]


def check_scores(c, p):
    """A classifier's "I LOGIT PROB" lines: logits within 2e-5 of their
    spread (std), probabilities within 2e-5, the same top-5 (float32 sums
    in another order: docs/workloads.md)."""
    (lc, pc), (lp, pp) = scores(c), scores(p)
    if len(lc) != len(lp):
        raise AssertionError("%d scores against %d" % (len(lc), len(lp)))
    mean = sum(lc) / len(lc)
    std = (sum((v - mean) ** 2 for v in lc) / len(lc)) ** 0.5
    dl = max(abs(u - v) for u, v in zip(lc, lp)) / std
    dp = max(abs(u - v) for u, v in zip(pc, pp))
    top = [sorted(range(len(x)), key=lambda i: -x[i])[:5] for x in (pc, pp)]
    if dl > 2e-5 or dp > 2e-5 or top[0] != top[1]:
        raise AssertionError("logits %.2g std apart, probabilities %.2g, top-5 %s / %s" %
                             (dl, dp, top[0], top[1]))
    return "%d classes: logits within %.1e std, probabilities within %.1e, top-5 %s" % (
        len(lc), dl, dp, top[0])


def gif_frames(path):
    """(size, loop, [(duration ms, gray bytes)]) of an animated GIF, each
    frame composited by Pillow (python3-pil) and read as 8-bit gray."""
    from PIL import Image, ImageSequence
    with Image.open(path) as im:
        frames = [(f.info.get("duration"), f.convert("L").tobytes())
                  for f in ImageSequence.Iterator(im)]
        return im.size, im.info.get("loop"), frames


def check_gif(c, p):
    """video-processing: the same frame count, size, loop and delays, every
    pixel within 1 gray level (OpenCV's 11-bit resize weights against
    video-processing.c's 8-bit ones)."""
    (sc, lc, fc), (sp, lp, fp) = gif_frames(c), gif_frames(p)
    if (sc, lc, len(fc)) != (sp, lp, len(fp)) or [f[0] for f in fc] != [f[0] for f in fp]:
        raise AssertionError("size %s / %s, loop %s / %s, %d / %d frames, delays %s / %s" % (
            sc, sp, lc, lp, len(fc), len(fp), fc[0][0], fp[0][0]))
    diff = [abs(a - b) for (_, x), (_, y) in zip(fc, fp) for a, b in zip(x, y)]
    if max(diff) > 1:
        raise AssertionError("a pixel %d gray levels apart" % max(diff))
    return "%d frames %dx%d, loop %s, %s ms, pixels within %d (%.1f%% equal)" % (
        len(fc), sc[0], sc[1], lc, fc[0][0], max(diff), 100.0 * diff.count(0) / len(diff))


def ppm_faces(path):
    """video-face-detection's --output: [(width, height, RGB bytes, sorted
    faces (x, y, w, h, neighbours))] of its P6 sequence."""
    with open(path, "rb") as f:
        data = f.read()
    pos, frames = 0, []
    while pos < len(data):
        if data[pos:pos + 3] != b"P6\n":
            raise AssertionError("%s: no P6 frame at byte %d" % (path, pos))
        pos, faces = pos + 3, []
        while data[pos:pos + 1] == b"#":
            end = data.index(b"\n", pos)
            words = data[pos + 1:end].split()
            if words[0] == b"face":
                faces.append(tuple(int(v) for v in words[1:6]))
            pos = end + 1
        end = data.index(b"\n", pos)
        w, h = (int(v) for v in data[pos:end].split())
        pos = data.index(b"\n", end + 1) + 1       # the "255" line
        frames.append((w, h, data[pos:pos + 3 * w * h], sorted(faces)))
        pos += 3 * w * h
    return frames


def check_faces(c, p):
    """video-face-detection: the same frames (sizes and RGB bytes) and on
    each the same faces with the same neighbour counts."""
    a, b = ppm_faces(c), ppm_faces(p)
    if len(a) != len(b):
        raise AssertionError("%d frames against %d" % (len(a), len(b)))
    for i, (u, v) in enumerate(zip(a, b)):
        if u[:3] != v[:3]:
            raise AssertionError("frame %d differs (%dx%d / %dx%d)" % (i, u[0], u[1], v[0], v[1]))
        if u[3] != v[3]:
            raise AssertionError("frame %d: faces %s / %s" % (i, u[3], v[3]))
    return "%d frames %dx%d, the same %d faces with their neighbour counts" % (
        len(a), a[0][0], a[0][1], sum(len(u[3]) for u in a))


CHECKS = {"table": check_table, "tar": check_tar, "lr": check_lr, "scores": check_scores,
          "gif": check_gif, "faces": check_faces}


def main(kind, c, p):
    try:
        print("same: " + CHECKS[kind](c, p))
        return 0
    except AssertionError as e:
        print("differ: %s" % e)
        return 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
