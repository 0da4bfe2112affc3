# SPDX-License-Identifier: MIT
"""`cvmfn run NAME --runtime python`: init, --repeat calls, print times and
the digest as cvmfn run does (its --json fields, plus "runtime")."""
import json
import platform
import sys
import time

import functions
import memstat
import wlargs
from output import Output

EXIT_OK, EXIT_FAILED, EXIT_INIT = 0, 1, 3


def run(name, params, interp_ns=-1):
    try:
        fn, import_ns, init_ns = functions.open_instance(name, params)
    except Exception as e:
        sys.stderr.write("cvmfn (python): %s\n" % e)
        return EXIT_INIT
    res = {"workload": name, "size": params.size, "seed": params.seed,
           "threads": fn.threads, "interp_ns": interp_ns, "import_ns": import_ns,
           "init_ns": init_ns, "runtime": "python" + platform.python_version()}
    res["rss_kb"], res["pss_kb"] = memstat.read()
    times, digests = [], []
    for i in range(params.repeat):
        out = Output()
        t0 = time.monotonic_ns()
        try:
            fn.invoke(out)
        except Exception as e:
            sys.stderr.write("cvmfn (python): %s: %s: %s\n" % (name, type(e).__name__, e))
            return EXIT_FAILED
        times.append(time.monotonic_ns() - t0)
        out.write_files()
        if wlargs.digest_due(params.digest_every, i):
            digests.append(out.digest())
            if digests[-1] != digests[0]:
                sys.stderr.write("cvmfn (python): invocation %d gave digest %s, the first "
                                 "gave %s\n" % (i + 1, digests[-1], digests[0]))
                return EXIT_FAILED
    res.update(repeat=params.repeat, fn_ns_first=times[0], fn_ns_min=min(times),
               fn_ns_mean=sum(times) // len(times), digests=len(digests),
               summary=fn.summary, digest=digests[0])
    if params.json:
        print(json.dumps(res, separators=(",", ":")))
    else:
        print("%s size=%s seed=%d threads=%d runtime=%s" % (
            name, params.size, params.seed, fn.threads, res["runtime"]))
        print("interpreter start %.3f ms, imports %.3f ms, init %.3f ms, rss %d KiB, "
              "pss %d KiB" % (interp_ns / 1e6, import_ns / 1e6, res["init_ns"] / 1e6,
                              res["rss_kb"], res["pss_kb"]))
        print("invoke x%d: first %.3f ms, min %.3f ms" % (
            params.repeat, times[0] / 1e6, min(times) / 1e6))
        if fn.summary:
            print("result: %s" % fn.summary)
        print("digest %s" % digests[0])
    return EXIT_OK
