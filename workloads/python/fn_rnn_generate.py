# SPDX-License-Identifier: MIT
"""rnn-generate: FunctionBench's rnn_generate_character_level, the PyTorch
tutorial's name generator ("Generating names with a character-level RNN"),
here, as rnn-generate.c, with an LSTM cell: torch.nn.LSTM(77, 128) and
torch.nn.Linear(128, 59) (python3-torch 1.13), greedy decoding (the
tutorial's topk(1)), a name ends at EOS or after 20 generated letters.

The weights are rnn-generate.c's model file (generated from the seed by
`cvmfn prepare`), in PyTorch's own layout: weight_ih, weight_hh, bias_ih,
bias_hh, out.weight, out.bias. The request is rnn-generate.c's: request i
is language i mod 18 and start letter A + (i / 18) mod 26, 4 (test), 64
(small) or 468 (large) names. init loads the weights; invoke generates
every name. The digest (language and name, each NUL-terminated) is the C
one's: both choose the largest output in float32, so the names are equal
unless two outputs tie within float32 rounding (docs/workloads.md).
"""
import os

import inputs

REQUIRES = [("torch", "python3-torch"), ("numpy", "python3-numpy")]
MODEL_HEADER = 104
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ .,;'-"
EOS = len(LETTERS)
CATEGORIES = ("Arabic", "Chinese", "Czech", "Dutch", "English", "French", "German",
              "Greek", "Irish", "Italian", "Japanese", "Korean", "Polish",
              "Portuguese", "Russian", "Scottish", "Spanish", "Vietnamese")
HIDDEN, MAX_LENGTH = 128, 20


def load_model(params, torch, numpy):
    name = "rnn-generate-lstm128-seed%d.model" % params.seed
    path = os.path.join(params.data_dir, name)
    if not os.path.exists(path):
        raise inputs.MissingInput("%s: No such file or directory (run `cvmfn prepare "
                                  "rnn-generate --seed %d`)" % (path, params.seed))
    with open(path, "rb") as f:
        w = numpy.frombuffer(f.read()[MODEL_HEADER:], dtype="<f4")
    lstm = torch.nn.LSTM(len(CATEGORIES) + EOS + 1, HIDDEN)
    out = torch.nn.Linear(HIDDEN, EOS + 1)
    off = 0
    with torch.no_grad():
        for t in (lstm.weight_ih_l0, lstm.weight_hh_l0, lstm.bias_ih_l0, lstm.bias_hh_l0,
                  out.weight, out.bias):
            t.copy_(torch.from_numpy(w[off:off + t.numel()].copy()).view_as(t))
            off += t.numel()
    if off != len(w):
        raise ValueError("%s holds %d floats, the network %d" % (path, len(w), off))
    return lstm.eval(), out.eval()


class Function:
    def __init__(self, params):
        import numpy
        import torch
        if params.variant not in (None, "lstm"):
            raise ValueError("rnn-generate: unknown variant '%s' (variants: lstm)" %
                             params.variant)
        self.torch, self.threads = torch, params.threads
        torch.set_num_threads(params.threads)
        self.lstm, self.linear = load_model(params, torch, numpy)
        self.count = params.pick(4, 64, len(CATEGORIES) * 26)
        self.output, self.summary, self.names = params.output, "", []

    def sample(self, i):
        """Request @i's name: one LSTM step per letter, the largest output next."""
        torch, cats = self.torch, len(CATEGORIES)
        letter = 26 + (i // cats) % 26
        name, state = LETTERS[letter], None
        x = torch.zeros(1, 1, cats + EOS + 1)
        x[0, 0, i % cats] = 1
        for _ in range(MAX_LENGTH):
            x[0, 0, cats + letter] = 1
            h, state = self.lstm(x, state)
            x[0, 0, cats + letter] = 0
            letter = int(self.linear(h[0, 0]).argmax())
            if letter == EOS:
                break
            name += LETTERS[letter]
        return name

    def invoke(self, out):
        with self.torch.no_grad():
            self.names = [self.sample(i) for i in range(self.count)]
        for i, name in enumerate(self.names):
            out.ref(CATEGORIES[i % len(CATEGORIES)].encode() + b"\0")
            out.ref(name.encode() + b"\0")
        last = self.count - 1
        self.summary = "%d names, %d letters: %s (%s), %s (%s)" % (
            self.count, sum(map(len, self.names)), self.names[0], CATEGORIES[0],
            self.names[last], CATEGORIES[last % len(CATEGORIES)])
        if self.output:
            out.file(self.output, self.lines)

    def lines(self):
        return "".join("%s %s\n" % (CATEGORIES[i % len(CATEGORIES)], n)
                       for i, n in enumerate(self.names)).encode()
