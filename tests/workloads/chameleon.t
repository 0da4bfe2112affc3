#!/usr/bin/env bash
# chameleon: the template engine against a hand-written page, against
# Python's html.escape, and determinism across threads and seeds.
cd "$(dirname "$0")/../.." || exit 1
. tests/workloads/lib.sh
digest() { "$fn" run chameleon --data-dir "$d" "$@" | sed -n 's/^digest //p'; }
echo 1..9

# 1: a 2x2 table with every character html.escape() replaces, by hand.
printf 'a&b\t<i>x</i>\n"q" it'"'"'s\tplain\n' > "$d/t.tsv"
cat > "$d/want.html" <<'HTML'
<!DOCTYPE html>
<html><head><title>rows &amp; cols</title></head>
<body>
<table>
<tr><td>a&amp;b</td><td>&lt;i&gt;x&lt;/i&gt;</td></tr>
<tr><td>&quot;q&quot; it&#x27;s</td><td>plain</td></tr>
</table>
</body></html>
HTML
"$fn" run chameleon --data-dir "$d" --input "$d/t.tsv" --output "$d/got.html" >/dev/null
cmp -s "$d/want.html" "$d/got.html"
ok $? "2x2 table with & < > \" ' renders byte for byte as written by hand"

# 2: a random table (tricky characters, ragged rows) against Python's rendering.
if [ -x "$PY" ]; then
	"$PY" - "$d/r.tsv" "$d/r.want" <<'PYEOF'
import html, random, sys
random.seed(7)
alpha = "ab <>&\"'x;#é"
rows = [["".join(random.choice(alpha) for _ in range(random.randint(0, 12)))
         for _ in range(random.randint(1, 6))] for _ in range(40)]
rows[0][0] = rows[0][0] or "x"
open(sys.argv[1], "w").write("\n".join("\t".join(r) for r in rows) + "\n")
out = ['<!DOCTYPE html>\n<html><head><title>%s</title></head>\n<body>\n<table>\n'
       % html.escape("rows & cols")]
for r in rows:
    out.append("<tr>" + "".join("<td>%s</td>" % html.escape(c) for c in r) + "</tr>\n")
out.append("</table>\n</body></html>\n")
open(sys.argv[2], "w").write("".join(out))
PYEOF
	"$fn" run chameleon --data-dir "$d" --input "$d/r.tsv" --output "$d/r.got" >/dev/null
	cmp -s "$d/r.want" "$d/r.got"
	ok $? "random 40-row table matches Python html.escape rendering"
else
	noref "$PY missing"
fi

# 3: the generated 10x10 table: 100 cells, escaped exactly as html.escape does.
"$fn" run chameleon --data-dir "$d" --output "$d/g.html" >/dev/null
if [ -x "$PY" ]; then
	"$PY" - "$d/g.html" <<'PYEOF'
import html, re, sys
page = open(sys.argv[1]).read()
rows = re.findall(r"<tr>(.*?)</tr>", page)
cells = [c for r in rows for c in re.findall(r"<td>(.*?)</td>", r)]
assert len(rows) == 10 and len(cells) == 100, (len(rows), len(cells))
raw = [html.unescape(c) for c in cells]
assert all(html.escape(r) == c for r, c in zip(raw, cells)), "escaping differs"
assert any(set(r) & set("&<>\"'") for r in raw), "no cell needed escaping"
PYEOF
	ok $? "generated 10x10 table: 100 cells, escaping equals html.escape"
else
	noref "$PY missing"
fi

# 4-5: determinism across threads and seeds
a=$(digest --threads 1); b=$(digest --threads 2)
[ -n "$a" ] && [ "$a" = "$b" ]; ok $? "same digest at --threads 1 and 2"
c=$(digest --seed 2)
[ -n "$c" ] && [ "$a" != "$c" ]; ok $? "another seed gives another digest"

# 6: small size renders 100 x 100 cells
"$fn" run chameleon --data-dir "$d" --size small | grep -q "rendered 100 rows, 10000 cells"
ok $? "small size renders 100x100 cells"

# 7-9: bad input
out=$("$fn" run chameleon --data-dir "$d" --input "$d/nope.tsv" 2>&1); rc=$?
[ $rc -ne 0 ] && [[ $out == *nope.tsv* ]]; ok $? "missing --input file is an error naming it"
out=$("$fn" run chameleon --data-dir "$d" --variant fancy 2>&1); rc=$?
[ $rc -ne 0 ] && [[ $out == *fancy* ]]; ok $? "unknown variant is an error"
mkdir "$d/ro"; chmod 555 "$d/ro"
target="$d/ro/x.html"
# root writes into read-only directories: use a missing directory there
[ "$(id -u)" = 0 ] && target="$d/ro/missing/x.html"
out=$("$fn" run chameleon --data-dir "$d" --output "$target" 2>&1); rc=$?
[ $rc -ne 0 ] && [ -z "$(ls -A "$d/ro")" ] && [[ $out == *x.html* ]]
ok $? "unwritable output directory: error naming the file, no partial file"
