#!/usr/bin/env bash
# logistic-regression: TF-IDF against scikit-learn's TfidfVectorizer and the
# trained classifier against LogisticRegression(C=1), determinism, bad input.
cd "$(dirname "$0")/../.." || exit 1
. tests/workloads/lib.sh
digest() { "$fn" run logistic-regression --data-dir "$d" "$@" | sed -n 's/^digest //p'; }
echo 1..14

# check.py OUT: writes "tfidf ERR", "vocab 0|1", "agree FRACTION", "acc OURS SKLEARN",
# "wdist REL" (relative L2 distance of weights + intercept to sklearn's optimum)
cat > "$d/check.py" <<'PYEOF'
import sys
import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
docs, labels, vocab, X, prob, W = [], [], [], {}, {}, {}
for line in open(sys.argv[1]):
    t, rest = line.rstrip("\n").split(" ", 1)
    if t == "d":
        l, text = rest.split(" ", 1); labels.append(int(l)); docs.append(text)
    elif t == "v": vocab.append(rest)
    elif t == "x":
        r, c, v = rest.split(); X[int(r), int(c)] = float(v)
    elif t == "p":
        i, v = rest.split(); prob[int(i)] = float(v)
    elif t == "w":
        j, v = rest.split(); W[int(j)] = float(v)
    elif t == "acc": acc = float(rest)
# defaults: lowercase, token_pattern (?u)\b\w\w+\b, smooth_idf, norm l2, no sublinear tf
vec = TfidfVectorizer(smooth_idf=True, norm="l2", sublinear_tf=False)
M = vec.fit_transform(docs)
print("vocab", int(list(vec.get_feature_names_out()) == vocab))
ours = np.zeros(M.shape) if M.shape[1] == len(vocab) else None
if ours is not None:
    for (r, c), v in X.items(): ours[r, c] = v
    print("tfidf", np.abs(M.toarray() - ours).max())
y = np.array(labels)
fit = LogisticRegression(C=1.0, tol=1e-10, max_iter=100000).fit(M, y)
sk = fit.predict(M)
opt = np.append(fit.coef_[0], fit.intercept_[0])
ours_w = np.array([W[j] for j in range(len(opt))]) if len(W) == len(opt) else None
if ours_w is not None:
    print("wdist", np.linalg.norm(ours_w - opt) / np.linalg.norm(opt))
mine = np.array([int(prob[i] >= 0.5) for i in range(len(docs))])
print("agree", (sk == mine).mean())
print("acc", acc, (sk == y).mean())
PYEOF
have_sk() { [ -x "$PY" ] && "$PY" -c 'import sklearn, numpy' 2>/dev/null; }
# Each check fails when its line is missing (an empty result file must not pass).
agree_ok() { awk '$1 == "agree" { f = 1; v = ($2 >= 0.95) } END { exit !(f && v) }' "$1"; }
acc_ok() {
	awk '$1 == "acc" { f = 1; d = $2 - $3; if (d < 0) d = -d; v = (d <= 0.03 && $2 >= 0.8) }
	     END { exit !(f && v) }' "$1"
}
wdist_ok() { awk -v max="$2" '$1 == "wdist" { f = 1; v = ($2 <= max) } END { exit !(f && v) }' "$1"; }
tfidf_ok() { awk '$1 == "tfidf" { f = 1; v = ($2 < 1e-12) } END { exit !(f && v) }' "$1"; }

if have_sk; then
	"$fn" run logistic-regression --data-dir "$d" --size test --output "$d/t.out" >/dev/null
	"$PY" "$d/check.py" "$d/t.out" > "$d/t.res"
	grep -q '^vocab 1$' "$d/t.res"; ok $? "200 reviews: vocabulary equals TfidfVectorizer's"
	tfidf_ok "$d/t.res"
	ok $? "200 reviews: TF-IDF matrix equals sklearn's ($(grep tfidf "$d/t.res"))"
	# 1000 reviews (a cut of the small set through --input) for the classifier
	"$fn" run logistic-regression --data-dir "$d" --size small --output "$d/s.out" >/dev/null
	awk '$1 == "d" { print $2 "\t" substr($0, 5) } ' "$d/s.out" | head -1000 > "$d/in.tsv"
	"$fn" run logistic-regression --data-dir "$d" --input "$d/in.tsv" --output "$d/i.out" >/dev/null
	"$PY" "$d/check.py" "$d/i.out" > "$d/i.res"
	agree_ok "$d/i.res"
	ok $? "1000 reviews: predictions agree with LogisticRegression(C=1) ($(grep agree "$d/i.res"))"
	acc_ok "$d/i.res"
	ok $? "training accuracy within 3 points of sklearn's ($(grep acc "$d/i.res"))"
	wdist_ok "$d/t.res" 0.05 && wdist_ok "$d/i.res" 0.05
	ok $? "weights within 5 % (relative L2) of sklearn's optimum: $(grep -h wdist "$d/t.res" "$d/i.res" | tr '\n' ' ')"
	: > "$d/empty.res"
	! agree_ok "$d/empty.res" && ! acc_ok "$d/empty.res" && ! wdist_ok "$d/empty.res" 1
	ok $? "the agree, acc and wdist checks fail on an empty result file"
else
	for i in 1 2 3 4 5 6; do noref "$PY with python3-sklearn missing"; done
fi

# the TF-IDF check itself: a result without the tfidf line fails it
printf 'vocab 1\nagree 1\n' > "$d/notfidf.res"; printf 'tfidf 0\n' > "$d/tfidf0.res"
! tfidf_ok "$d/notfidf.res" && ! tfidf_ok /dev/null && tfidf_ok "$d/tfidf0.res"
ok $? "the TF-IDF check fails on a result without the tfidf line, passes on 'tfidf 0'"

# tokenization corner cases through --input: case, 1-char words, digits, _
printf '1\tGood GOOD good, a I x2 snake_case 42!\n0\tBad. bad; A b c_d 4 x2\n1\tnice good\n0\tterrible bad\n' > "$d/tok.tsv"
"$fn" run logistic-regression --data-dir "$d" --input "$d/tok.tsv" --output "$d/tok.out" >/dev/null
grep '^v ' "$d/tok.out" | cut -c3- | tr '\n' ' ' > "$d/tok.vocab"
[ "$(cat "$d/tok.vocab")" = "42 bad c_d good nice snake_case terrible x2 " ]
ok $? "hand-made --input: vocabulary is '$(cat "$d/tok.vocab")'"
if have_sk; then
	"$PY" "$d/check.py" "$d/tok.out" > "$d/tok.res"
	grep -q '^vocab 1$' "$d/tok.res" &&
		tfidf_ok "$d/tok.res"
	ok $? "hand-made --input: TF-IDF equals sklearn's"
else
	noref "$PY with python3-sklearn missing"
fi

a=$(digest --threads 1); b=$(digest --threads 2)
[ -n "$a" ] && [ "$a" = "$b" ]; ok $? "same digest at --threads 1 and 2"
c=$(digest --seed 2)
[ -n "$c" ] && [ "$a" != "$c" ]; ok $? "another seed gives another digest"

out=$("$fn" run logistic-regression --data-dir "$d" --input "$d/nope.tsv" 2>&1); rc=$?
[ $rc -ne 0 ] && [[ $out == *nope.tsv* ]]; ok $? "missing --input file is an error naming it"
printf '1\tgood\nmaybe\tbad\n' > "$d/bad.tsv"
out=$("$fn" run logistic-regression --data-dir "$d" --input "$d/bad.tsv" 2>&1); rc=$?
[ $rc -ne 0 ] && [[ $out == *"line 2"* ]]; ok $? "malformed --input line is an error naming the line"
out=$("$fn" run logistic-regression --data-dir "$d" --output "$d/missing/l.out" 2>&1); rc=$?
[ $rc -ne 0 ] && [[ $out == *l.out* ]] && [ ! -e "$d/missing" ]
ok $? "unwritable output: error naming the file, nothing written"
