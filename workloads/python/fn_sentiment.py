# SPDX-License-Identifier: MIT
"""sentiment: VADER-style compound polarity of every sentence of a text.

FaaSProfiler's function calls TextBlob, which Debian 12 does not package;
the nearest Debian library is NLTK's VADER (python3-nltk), which is not in
the python rootfs and whose rules (capitals, idioms, "least", "never so")
go beyond sentiment.c's. So this twin is plain Python (re, math) running
sentiment.c's rules (docs/workloads.md, section sentiment) on its lexicon:
boosters, negators and the but-rule over the three tokens before a word,
'!' emphasis, compound = sum / sqrt(sum^2 + 15).

The lexicon and the generated text come from `cvmfn prepare sentiment`
(lexicon, text: split at '.'), or --input (one sentence per line). The
digest (each score with 4 decimals) is sentiment.c's.
"""
import math
import re

import inputs

REQUIRES = []
TOKEN, HAS_LETTER = re.compile(r"[A-Za-z']+"), re.compile(r"[A-Za-z']")
BOOST_DISTANCE = (1.0, 0.95, 0.9)
NEGATION_SCALAR, EXCLAMATION_INCR, NORMALIZE_ALPHA = -0.74, 0.292, 15.0
WORD_MAX = 24


def parse_lexicon(text):
    lexicon = {}
    for line in text.decode().splitlines():
        word, kind, value = line.split("\t")
        lexicon[word] = (kind, float(value))
    return lexicon


def classify(lexicon, token):
    word = token.lower()
    if len(word) >= WORD_MAX - 1:
        return ("o", 0.0)
    if word in lexicon:
        return lexicon[word]
    return ("n", 0.0) if len(word) >= 3 and word.endswith("n't") else ("o", 0.0)


def apply_rules(v, window, i, but_at):
    base = v
    for k, (kind, value) in enumerate(window):
        if kind == "b":
            v += (-1 if base < 0 else 1) * value * BOOST_DISTANCE[k]
    for kind, _ in window:
        if kind == "n":
            v *= NEGATION_SCALAR
    if but_at >= 0 and i < but_at:
        v *= 0.5
    elif but_at >= 0 and i > but_at:
        v *= 1.5
    return v


def compound(lexicon, sentence):
    tokens = [classify(lexicon, t) for t in TOKEN.findall(sentence)]
    but_at = next((i for i, (kind, _) in enumerate(tokens) if kind == "c"), -1)
    total, window = 0.0, []
    for i, (kind, value) in enumerate(tokens):
        if kind == "v":
            total += apply_rules(value, window, i, but_at)
        window = [(kind, value)] + window[:2]
    if total != 0:
        total += (-1 if total < 0 else 1) * EXCLAMATION_INCR * float(min(sentence.count("!"), 4))
    return total / math.sqrt(total * total + NORMALIZE_ALPHA)


class Function:
    threads = 1

    def __init__(self, params):
        self.lexicon = parse_lexicon(inputs.read(params, "sentiment", "lexicon"))
        if params.input:
            with open(params.input, "rb") as f:
                text, sep = f.read().decode("latin-1"), "\n"
        else:
            text, sep = inputs.read(params, "sentiment", "text").decode("latin-1"), "."
        self.sentences = [s for s in text.split(sep) if HAS_LETTER.search(s)]
        self.output, self.summary = params.output, ""

    def invoke(self, out):
        scores = [compound(self.lexicon, s) for s in self.sentences]
        for v in scores:
            out.double(v, 4)
        pos = sum(v >= 0.05 for v in scores)
        neg = sum(v <= -0.05 for v in scores)
        self.summary = "%d sentences: %d positive, %d negative, %d neutral, mean %.4f" % (
            len(scores), pos, neg, len(scores) - pos - neg,
            sum(scores) / len(scores) if scores else 0.0)
        if self.output:
            out.file(self.output, "".join("%.4f\n" % (0.0 if abs(v) < 0.00005 else v)
                                          for v in scores).encode())
