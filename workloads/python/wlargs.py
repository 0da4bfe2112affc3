# SPDX-License-Identifier: MIT
"""cvmfn's command line (cvmfn.c's options), parsed for the Python twins.

Every option cvmfn takes is accepted with the same meaning; those that only
concern the C runner's thread pool (--wait) are kept and ignored.
"""
import os

SIZES = ("test", "small", "large")
DATA_DIR_ENV, DATA_DIR_DEFAULT = "CVMBENCH_DATA_DIR", "/var/tmp/cvmbench/data"
VALUED = ("size", "seed", "threads", "wait", "repeat", "data-dir", "scratch-dir",
          "variant", "input", "output", "key", "iv", "digest", "runtime", "layer", "children")
FLAGS = ("prepare", "json")
COMMANDS = ("run", "serve", "check", "seed", "fork-check")


class UsageError(Exception):
    pass


class Params:
    """What one instance is given (struct wl_params and cvmfn_opts)."""

    def __init__(self, opts):
        self.size = opts.get("size", "test")
        if self.size not in SIZES:
            raise UsageError("bad --size '%s': test, small or large" % self.size)
        self.seed = number(opts, "seed", 1, 0)
        self.threads = number(opts, "threads", 0, 0) or os.cpu_count() or 1
        self.repeat = number(opts, "repeat", 1, 1)
        self.digest_every = digest_policy(opts.get("digest", "every"))
        env_dir = os.environ.get(DATA_DIR_ENV, "")
        self.data_dir = opts.get("data-dir", env_dir or DATA_DIR_DEFAULT)
        self.scratch_dir = opts.get("scratch-dir", self.data_dir)
        for key in ("variant", "input", "output", "key", "iv"):
            setattr(self, key.replace("-", "_"), opts.get(key))
        self.json = "json" in opts
        self.layer = opts.get("layer")                 # seed (seed.py)
        self.children = number(opts, "children", 4, 1)  # fork-check (forkcheck.py)

    def pick(self, test, small, large):
        """The value for the instance's size (wl_pick)."""
        return {"test": test, "small": small, "large": large}[self.size]


def number(opts, key, default, low):
    text = opts.get(key)
    if text is None:
        return default
    if not text.isdigit() or int(text) < low:
        raise UsageError("bad --%s '%s'" % (key, text))
    return int(text)


def digest_policy(text):
    """every -> 1, first -> 0, N -> N (output.c's wl_digest_policy_parse)."""
    if text == "every":
        return 1
    if text == "first":
        return 0
    if text.isdigit() and int(text) >= 1:
        return int(text)
    raise UsageError("bad --digest '%s': every, first or a count N >= 1" % text)


def digest_due(every, index):
    """Whether call @index (0 = the first) is hashed (wl_digest_due)."""
    return index == 0 or (every > 0 and index % every == 0)


def parse(argv):
    if len(argv) < 2 or argv[0] not in COMMANDS:
        raise UsageError("usage: %s NAME [cvmfn's options]" % "|".join(COMMANDS))
    cmd, name, opts, i = argv[0], argv[1], {}, 2
    while i < len(argv):
        word = argv[i]
        key = word[2:] if word.startswith("--") else None
        if key in FLAGS:
            opts[key] = True
        elif key in VALUED and i + 1 < len(argv):
            opts[key] = argv[i + 1]
            i += 1
        else:
            raise UsageError("unexpected argument '%s'" % word)
        i += 1
    return cmd, name, Params(opts)
