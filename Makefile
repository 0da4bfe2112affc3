# cvmbench - plain GNU make, pkg-config for every library.
#
#   make            build cvmbench, the static cvmfn, cvmbench-agent and cvmload
#   make quick      run configs/quick.ini into results.db and write report/
#   make guest      build (or find cached) the guest image of the qemu backend
#   make rootfs-NAME build (or find cached) the Debian rootfs configs/rootfs/NAME.list
#   make check      the layering test (tests/layering.t), unit, workload and
#                   system tests through prove (TAP), but the long ones
#   make check-long the long tests (LONG_TESTS below: real TCG guests, model
#                   workloads, soaks and sweeps), the fuzz targets for
#                   FUZZ_LONG_SECONDS each, then their sanitizer share;
#                   .ci/run runs it after make check
#   make asan       the sanitizer build (ASan + UBSan) in build-asan/:
#                   build-asan/cvmbench, a dynamically linked build-asan/cvmfn
#                   (ASan cannot link -static) and build-asan/tests/*.t
#   make check-asan unit, harness system and workload tests against build-asan/
#                   (make check runs it after the whole suite)
#   make fuzz       the fuzz targets of the config parser and of the database
#                   readers (clang, libFuzzer, ASan, UBSan)
#   make clean
#
# CFLAGS (default -O2 -g) and LDFLAGS are yours to replace on the command line;
# the flags the code needs (-std=gnu11 -D_GNU_SOURCE ...) are kept apart and
# always added. A CFLAGS with -fsanitize=... links cvmfn dynamically.
#
# The tests take the binaries under test from the environment:
#   CVMBENCH   the cvmbench binary (default ./cvmbench)
#   CVMFN      the cvmfn binary (default ./cvmfn)
#   CVMLOAD    the cvmload binary (default ./cvmload)
# e.g. CVMBENCH=build-asan/cvmbench CVMFN=build-asan/cvmfn CVMBENCH_SHARE_DIR=$PWD \
#      prove tests/workloads/matmul.t
# (cvmbench runs the cvmfn next to it unless CVMBENCH_CVMFN says otherwise).
# Under ASan set ASAN_OPTIONS as check-asan does (ASAN_ENV_OPTIONS below).
#
# B=DIR puts objects in DIR (default build) and BIN=DIR the two binaries
# (default the top directory); `make asan` is `make B=build-asan BIN=build-asan
# CFLAGS="$ASAN_CFLAGS" all tests` (ASAN_CFLAGS below).

CC      ?= cc
CFLAGS  ?= -O2 -g
override REQ_CFLAGS := -std=gnu11 -Wall -Wextra -D_GNU_SOURCE -MMD -MP
PKG_CONFIG ?= pkg-config

B   := build
BIN := .
ASAN_DIR    := build-asan
ASAN_CFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all
ASAN_ENV_OPTIONS := abort_on_error=0:detect_leaks=1:halt_on_error=1
# system tests that run against build-asan/ in check-asan (native backend only:
# the dynamic cvmfn does not run in a bare container rootfs)
ASAN_SYSTEM_TESTS := harness.t cold.t datadir.t db.t call-log.t
# compare and merge: the analysis side's memory handling (issue 15); compare
# under ASan runs in check-long (the database fuzzer, ASan and UBSan, runs
# compare's code on every input in make check)
ASAN_SYSTEM_TESTS += merge.t
# cvmload: sockets, an HTTP reader and its report, C of its own (issue 35)
ASAN_SYSTEM_TESTS += cvmload.t
# resume and shards: the run plan and the superseded rows (issue 17); they run
# under ASan in check-long (85 s of the sanitizer share on a busy machine)
ASAN_SYSTEM_LONG := resume.t shard.t compare.t
# The sanitizer and fuzz builds are sub-makes: they get every CPU unless the
# caller gave -j itself (then its jobserver is shared).
NPROC := $(shell nproc 2>/dev/null || echo 1)
SUB_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))
# Long tests: `make check-long`, not `make check` (docs/performance.md, "Test
# suite time", has each file's time). Each is here for the reason beside it.
# the model workloads: minutes of inference against the reference models
LONG_TESTS := tests/workloads/image-recognition.t tests/workloads/model-seeds.t \
	tests/workloads/cnn-classification.t tests/workloads/rnn-generate.t \
	tests/workloads/logistic-regression.t tests/workloads/video-processing.t \
	tests/workloads/video-face-detection.t tests/workloads/digest.t
# cvmfn rebuilt with clang, every workload run twice
LONG_TESTS += tests/workloads/compilers.t
# real TCG guests booted (one guest image, built once in build/test-cache)
LONG_TESTS += tests/system/compare-real.t tests/system/vm-boot.t tests/system/vm-robust.t \
	tests/system/qemu.t tests/system/qemu-agent.t tests/system/qemu-keys.t \
	tests/system/pin-vcpu.t tests/system/hostmem.t tests/system/ksm-vms.t \
	tests/system/guest-idle.t
# seed-layer in two TCG guests (regular, model): the agent's seed, ~1-2 min
LONG_TESTS += tests/system/seed-vm.t
# Fig. 7's co-runner in a second TCG guest on the system rootfs (built on first use, minutes)
LONG_TESTS += tests/system/corunner-vm.t
# a service (the system suite) in a TCG guest on the system rootfs: minutes
LONG_TESTS += tests/system/services-guest.t
# loadgen = host: nginx in a TCG guest, cvmload on the host through its user-mode NIC
LONG_TESTS += tests/system/services-host.t
# services in runc and crun on the system rootfs (corunner-vm.t builds it first here)
LONG_TESTS += tests/system/services-oci.t
# minmem's search with real TCG boots (~10 boots of hello-world)
LONG_TESTS += tests/system/minmem-boot.t
# a real KVM guest booted where /dev/kvm opens (elsewhere a SKIP at once, with list's reason)
LONG_TESTS += tests/system/kvm-guest.t
# soaks: 17 x 256 instances; the main job's whole config; the tree built again
# the small rootfs built with mmdebstrap (minutes), a runc cell and a TCG guest on it
LONG_TESTS += tests/system/rootfs.t
# runtime = python in runc and a TCG guest on the python rootfs (built on first use, ~15 min);
# the torch and OpenCV twins against C (each imports for 2-3 s, ResNet models of ~100 MB)
LONG_TESTS += tests/system/python-runtime.t tests/workloads/python-nets.t
# Python seeds with torch imported (each bare child imports torch after the fork)
LONG_TESTS += tests/system/zygote-python-torch.t
LONG_TESTS += tests/system/journal-long.t tests/system/quick.t tests/system/build.t
# the study end to end: three studies (one killed) and four reports, ~25 s
LONG_TESTS += tests/system/study.t
CHECK_TESTS := $(filter-out $(LONG_TESTS),$(sort $(wildcard tests/workloads/*.t tests/system/*.t)))
# every workload test once against the sanitizer cvmfn (compilers.t builds its
# own clang cvmfn, so it is left out); the long ones in check-long
ASAN_WORKLOAD_ALL := $(filter-out tests/workloads/compilers.t,\
	$(sort $(wildcard tests/workloads/*.t)))
ASAN_WORKLOAD_TESTS := $(filter-out $(LONG_TESTS),$(ASAN_WORKLOAD_ALL))
ASAN_WORKLOAD_LONG  := $(filter $(LONG_TESTS),$(ASAN_WORKLOAD_ALL))

# One version string, in one generated source ($(B)/bench/version.c), rewritten
# only when `git describe` changes (a commit, or the tree becoming dirty): then
# version.o is recompiled and the binaries relinked, and nothing else rebuilt.
# Outside a git checkout the version is "unknown".
VERSION := $(shell git describe --always --dirty --tags 2>/dev/null || echo unknown)
VERSION_C := $(B)/bench/version.c
VERSION_TEXT := /* generated by the Makefile from git describe */\n\043include "version.h"\nconst char cvmbench_version[] = "$(VERSION)";\n
$(shell mkdir -p $(B)/bench; printf '$(VERSION_TEXT)' | cmp -s - $(VERSION_C) || \
	printf '$(VERSION_TEXT)' > $(VERSION_C))

# --- libraries -------------------------------------------------------------
# Required by the harness.
REQ_PKGS := sqlite3 inih libcjson libcrypto
# Optional: a probe whose library is missing builds as "unsupported".
have_pkg = $(shell $(PKG_CONFIG) --exists $(1) && echo 1)
HAVE_TRACEFS := $(call have_pkg,libtracefs libtraceevent)
HAVE_HWLOC   := $(call have_pkg,hwloc)
HAVE_SECCOMP := $(call have_pkg,libseccomp)
HAVE_PFM     := $(shell printf '\043include <perfmon/pfmlib.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo 1)

OPT_PKGS :=
ifeq ($(HAVE_TRACEFS),1)
OPT_PKGS += libtracefs libtraceevent
FEATURES += -DHAVE_TRACEFS
endif
ifeq ($(HAVE_HWLOC),1)
OPT_PKGS += hwloc
FEATURES += -DHAVE_HWLOC
endif
ifeq ($(HAVE_SECCOMP),1)
OPT_PKGS += libseccomp
FEATURES += -DHAVE_SECCOMP
endif
ifeq ($(HAVE_PFM),1)
FEATURES += -DHAVE_LIBPFM
PFM_LIBS := -lpfm
endif
# cJSON is required by the harness; the static guest agent is built without
# FEATURES, so lib/qmp.c builds there as a stub (no QMP client in a guest).
FEATURES += -DHAVE_CJSON

# Objects are rebuilt when the detected features change (a library was
# installed or removed, or HAVE_X= given on the command line).
FEATURE_STAMP := $(B)/features
$(shell mkdir -p $(B); echo '$(FEATURES)' | cmp -s - $(FEATURE_STAMP) || \
	echo '$(FEATURES)' > $(FEATURE_STAMP))

# The parts of the harness (docs/internals.md; tests/layering.t holds the rules
# between them). Every header has a name of its own, so one include path each.
# A backend is one file in bench/backends/ or one folder below it (found here)
# and one line in bench/backends/backend-list.h.
BACKEND_DIRS := $(patsubst %/,%,$(sort $(wildcard bench/backends/*/)))
CORE_DIRS := bench bench/cmd bench/config bench/store bench/run bench/calib bench/cluster
BENCH_DIRS := lib journal tracing $(CORE_DIRS) bench/services bench/agent bench/env bench/knobs bench/backends \
	$(BACKEND_DIRS) probes analysis planner
BENCH_INCS := $(addprefix -I,$(BENCH_DIRS)) -Imetrics -Iworkloads
BENCH_CFLAGS := $(REQ_CFLAGS) $(CFLAGS) $(FEATURES) $(BENCH_INCS) \
	$(shell $(PKG_CONFIG) --cflags $(REQ_PKGS) $(OPT_PKGS))
BENCH_LIBS := $(shell $(PKG_CONFIG) --libs $(REQ_PKGS) $(OPT_PKGS)) $(PFM_LIBS) -lpthread -lm

# cvmfn is static: it runs unchanged in a bare container rootfs or a busybox guest.
# A sanitizer build cannot link -static: there cvmfn is dynamic and uses the C
# library's dlopen and NSS instead of the static-only stubs in workloads/nodl.c
# and workloads/nonss.c. libcrypto (libssl-dev) gives the output digest's SHA-256.
FN_STATIC := $(if $(findstring -fsanitize,$(CFLAGS)),,-static)
FN_CFLAGS := $(REQ_CFLAGS) $(CFLAGS) -Iworkloads -pthread
FN_LIBS   := $(FN_STATIC) -pthread -lsqlite3 -lcrypto -lgif -lz -lm

# --- sources -----------------------------------------------------------------
FN_SRCS    := $(sort $(wildcard workloads/*.c))
FN_OBJS    := $(FN_SRCS:%.c=$(B)/%.o)
FN_LINK    := $(if $(FN_STATIC),$(FN_OBJS),$(filter-out $(B)/workloads/nodl.o $(B)/workloads/nonss.o,$(FN_OBJS)))
# cvmbench links the workload registry (workload-registry.h: names, variants,
# sizes; one list of workloads for both programs) and the pool's wait-key
# parser, not the functions: data and parsing only.
WL_REG_OBJS := $(addprefix $(B)/workloads/,workload-registry.o video-variant.o pool-wait.o)
# The functions and their runner, without cvmfn's main or its static-only
# dlopen and NSS stubs: for the unit tests that run them (workload-ops, sgemm).
WL_FN_OBJS := $(filter-out $(B)/workloads/cvmfn.o $(B)/workloads/nodl.o \
		$(B)/workloads/nonss.o $(WL_REG_OBJS),$(FN_OBJS))
BENCH_SRCS := $(sort $(foreach d,$(BENCH_DIRS),$(wildcard $(d)/*.c)))
BENCH_OBJS := $(BENCH_SRCS:%.c=$(B)/%.o) $(B)/bench/schema-gen.o $(B)/bench/version.o \
	$(WL_REG_OBJS)
SCHEMA     := $(sort $(wildcard results-schema/*.sql))

UNIT_SRCS  := $(sort $(wildcard tests/unit/*.c))
UNIT_BINS  := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%.t)
# Unit tests link every harness object but the one holding main(), and the
# workloads' functions.
LIB_OBJS   := $(filter-out $(B)/bench/cmd/main.o,$(BENCH_OBJS))
UNIT_OBJS  := $(LIB_OBJS) $(WL_FN_OBJS)
UNIT_LIBS  := $(BENCH_LIBS) -lgif -lz

all: $(BIN)/cvmbench $(BIN)/cvmfn $(BIN)/cvmbench-agent $(BIN)/cvmload

$(BIN)/cvmbench: $(BENCH_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(BENCH_LIBS)

$(BIN)/cvmfn: $(FN_LINK)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(FN_LIBS)

# cvmbench-agent: the static program inside a guest (docs/agent.md). It
# links the agent protocol, the probes, environment detection, lib/ and
# the journal's file code (a probe journals what it changes) - not the store
# (no SQLite, no db-*.c: tests/layering.t checks its sources' includes) and
# no optional library: its objects are built apart, in $(B)/agent-obj/,
# without FEATURES, so it links statically with the C library and libcrypto
# only (env-machine.c hashes the machine id), with cvmfn's stand-ins for
# dlopen and NSS (workloads/nodl.c, nonss.c) that keep the static link clean.
# Static like cvmfn (dynamic under a sanitizer: the guest image then leaves it out).
AGENT_SRCS := bench/agent/agent.c bench/agent/agent-proto.c bench/agent/agent-guest.c \
	bench/agent/seed-client.c bench/agent/zygote-mem.c \
	$(sort $(wildcard bench/agent/guest/*.c probes/*.c bench/env/*.c lib/*.c tracing/*.c)) \
	$(sort $(wildcard journal/*.c)) bench/knobs/corunner-kv.c \
	$(addprefix bench/services/,svc-list.c svc-proc.c svc-server.c svc-wire.c)
AGENT_OBJS := $(AGENT_SRCS:%.c=$(B)/agent-obj/%.o) $(B)/agent-obj/version.o
AGENT_CFLAGS := $(REQ_CFLAGS) $(CFLAGS) $(BENCH_INCS) -Ibench/agent/guest -pthread \
	-DCVMBENCH_GUEST_AGENT

AGENT_STUBS := $(if $(FN_STATIC),$(B)/workloads/nodl.o $(B)/workloads/nonss.o)

# Its main, then an archive of the other objects: the linker takes from it only
# what main reaches, so what no guest code calls stays out of the program (the
# journal, tracefs-host.c, the tracepoint counters, the runc timeline: their
# callers are built without libtracefs here). A missing symbol still fails the link.
AGENT_MAIN := $(B)/agent-obj/bench/agent/guest/agent-main.o
AGENT_LIB  := $(B)/agent-obj/libagent.a

$(AGENT_LIB): $(filter-out $(AGENT_MAIN),$(AGENT_OBJS))
	rm -f $@ && $(AR) rcs $@ $^

$(BIN)/cvmbench-agent: $(AGENT_MAIN) $(AGENT_LIB) $(AGENT_STUBS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(FN_STATIC) -pthread -lcrypto -lm

$(B)/agent-obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(AGENT_CFLAGS) -c -o $@ $<

$(B)/agent-obj/version.o: $(VERSION_C)
	@mkdir -p $(@D)
	$(CC) $(AGENT_CFLAGS) -c -o $@ $<

$(B)/workloads/%.o: workloads/%.c
	@mkdir -p $(@D)
	$(CC) $(FN_CFLAGS) -c -o $@ $<

# cvmload: the system suite's open-loop HTTP load generator (docs/experiments/
# system-suite.md). Its folder is not in BENCH_DIRS: a program of its own,
# the C library and lib/clock.h only, static like cvmfn so it can be copied
# into a guest image.
LOADGEN_SRCS := $(sort $(wildcard bench/services/loadgen/*.c))
LOADGEN_OBJS := $(LOADGEN_SRCS:%.c=$(B)/%.o)

$(BIN)/cvmload: $(LOADGEN_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(FN_STATIC) -lm

$(LOADGEN_OBJS): $(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(REQ_CFLAGS) $(CFLAGS) -Ibench/services/loadgen -Ilib -c -o $@ $<

# The Python functions (workloads/python/, docs/workloads.md) as one zip
# application, linked into cvmfn by workloads/pyapp.c (--runtime python).
PY_SRCS := $(sort $(wildcard workloads/python/*.py))
$(B)/cvmfn-python.zip: $(PY_SRCS)
	@mkdir -p $(@D)
	rm -f $@ && python3 -m zipfile -c $@ $(PY_SRCS)

$(B)/workloads/pyapp.o: $(B)/cvmfn-python.zip
$(B)/workloads/pyapp.o: FN_CFLAGS += -DPYAPP_ZIP='"$(B)/cvmfn-python.zip"'

# Every harness source (BENCH_DIRS) with the harness's flags; rebuilt when
# the detected features change.
$(BENCH_SRCS:%.c=$(B)/%.o): $(B)/%.o: %.c $(FEATURE_STAMP)
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -c -o $@ $<

# The migrations are compiled in, in file-name order (001-..., 002-...); each
# one's number is the one in its name. Two files with one number, or a gap,
# stop the build here (embed-sql.sh names them) and leave no schema-gen.c.
$(B)/bench/schema-gen.c: $(SCHEMA) bench/store/embed-sql.sh
	@mkdir -p $(@D)
	sh bench/store/embed-sql.sh $(SCHEMA) > $@.tmp && mv $@.tmp $@ || { rm -f $@.tmp; exit 1; }

$(B)/bench/schema-gen.o: $(B)/bench/schema-gen.c
	$(CC) $(BENCH_CFLAGS) -c -o $@ $<

$(B)/bench/version.o: $(VERSION_C)
	$(CC) $(BENCH_CFLAGS) -c -o $@ $<

$(B)/tests/%.t: tests/unit/%.c $(UNIT_OBJS)
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) $(LDFLAGS) -Itests/unit -o $@ $< $(UNIT_OBJS) $(UNIT_LIBS)

# cvmload's HTTP reader is not a harness object: its unit test links it alone.
$(B)/tests/loadgen-http.t: tests/unit/loadgen-http.c $(B)/bench/services/loadgen/loadgen-http.o
	@mkdir -p $(@D)
	$(CC) $(REQ_CFLAGS) $(CFLAGS) $(LDFLAGS) -Ibench/services/loadgen -Itests/unit -o $@ $^

tests: $(UNIT_BINS)

# The suite but its long tests, then the sanitizer build's share of it (check-asan).
check: all tests fuzz-if-clang
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_DB_SECONDS=$(FUZZ_DB_SECONDS) \
		prove --timer --exec '' tests/layering.t $(UNIT_BINS) \
		$(CHECK_TESTS) $(FUZZ_TESTS)
	$(MAKE) --no-print-directory check-asan

# The long tests, then the fuzz targets for longer, then the sanitizer build's
# share of the long tests.
check-long: all tests asan fuzz-if-clang
	prove --timer --exec '' $(LONG_TESTS)
	FUZZ_SECONDS=$(FUZZ_LONG_SECONDS) FUZZ_DB_SECONDS=$(FUZZ_LONG_SECONDS) \
		prove --timer --exec '' $(FUZZ_TESTS)
	$(ASAN_ENV) prove --timer --exec '' $(ASAN_WORKLOAD_LONG) \
		$(addprefix tests/system/,$(ASAN_SYSTEM_LONG))

# --- fuzzing -------------------------------------------------------------------
# `make fuzz` builds the fuzz targets with libFuzzer, ASan and UBSan: the config
# parser's (tests/fuzz/config.c), the database readers' (tests/fuzz/db.c:
# show, export, compare, the figures' data and report's pages on a mutated
# results database) and the system suite's output parsers'
# (tests/fuzz/svc-parse.c); the harness objects they link are built apart in
# build-fuzz/ so the normal build is untouched. tests/fuzz/config.t, db.t and
# svc-parse.t run them in `make check` for FUZZ_SECONDS each, on a seed corpus
# from configs/, tests/fuzz/db-corpus/ and tests/fixtures/services/ (and SKIP,
# or fail under CI, when clang with libFuzzer is missing). Every seed and
# regression input runs first whatever the time; make check then fuzzes the
# config and output parsers FUZZ_SECONDS each (thousands of inputs a second)
# and the database readers FUZZ_DB_SECONDS (a seed takes them half a second:
# the seeds' first pass is most of it), check-long all three FUZZ_LONG_SECONDS.
FUZZ_SECONDS      ?= 3
FUZZ_DB_SECONDS   ?= 10
FUZZ_LONG_SECONDS ?= 60
FUZZ_CC    ?= clang
FUZZ_B     := build-fuzz
FUZZ_SAN   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_BASE  := -O1 -g -std=gnu11 -D_GNU_SOURCE -MMD -MP $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_CFLAGS := $(FUZZ_BASE) $(FEATURES) $(BENCH_INCS) \
	$(shell $(PKG_CONFIG) --cflags $(REQ_PKGS) $(OPT_PKGS))
FUZZ_OBJS  := $(patsubst $(B)/%,$(FUZZ_B)/%,$(LIB_OBJS))
FUZZ_BIN   := $(FUZZ_B)/fuzz-config $(FUZZ_B)/fuzz-db $(FUZZ_B)/fuzz-svc-parse
FUZZ_TESTS := tests/fuzz/config.t tests/fuzz/db.t tests/fuzz/svc-parse.t

fuzz: $(FUZZ_BIN)

$(FUZZ_BIN): $(FUZZ_B)/fuzz-%: tests/fuzz/%.c $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(BENCH_LIBS)

$(FUZZ_B)/workloads/%.o: workloads/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_BASE) -Iworkloads -pthread -c -o $@ $<

$(FUZZ_B)/bench/schema-gen.o: $(B)/bench/schema-gen.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_B)/bench/version.o: $(VERSION_C)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_B)/%.o: %.c $(FEATURE_STAMP)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

# make check builds the target where clang can (the test says why not otherwise);
# the generated schema first, so that the sub-make does not write it at the same time.
fuzz-if-clang: $(B)/bench/schema-gen.c
	@if command -v $(FUZZ_CC) >/dev/null; then $(MAKE) $(SUB_JOBS) --no-print-directory fuzz; \
	else echo "make fuzz: no $(FUZZ_CC): $(FUZZ_TESTS) will skip"; fi

# The main job. Exit status 3 of `run` means "finished, some cells skipped":
# the report shows which and why, so it is not a failure here.
quick: all
	./cvmbench run configs/quick.ini --db results.db || [ $$? -eq 3 ]
	./cvmbench report report --db results.db

# The guest image the qemu backend boots (docs/backends/qemu.md): built from
# Debian packages once, cached under its content hash.
guest: all
	./cvmbench guest build

# The Debian root filesystems of configs/rootfs/*.list (docs/rootfs.md), built
# or found in the cache: make rootfs-small, rootfs-python, rootfs-system.
ROOTFS_NAMES := $(basename $(notdir $(wildcard configs/rootfs/*.list)))
.PHONY: $(addprefix rootfs-,$(ROOTFS_NAMES))
$(addprefix rootfs-,$(ROOTFS_NAMES)): rootfs-%: all
	./cvmbench rootfs build $*

# The sanitizer build, in its own directory. Its cvmbench finds analysis/ and
# configs/ through CVMBENCH_SHARE_DIR (build-asan/analysis holds its objects).
asan:
	$(MAKE) $(SUB_JOBS) B=$(ASAN_DIR) BIN=$(ASAN_DIR) CFLAGS='$(ASAN_CFLAGS)' all tests

ASAN_ENV = CVMBENCH=$(ASAN_DIR)/cvmbench CVMFN=$(ASAN_DIR)/cvmfn CVMLOAD=$(ASAN_DIR)/cvmload \
	CVMBENCH_SHARE_DIR=$(CURDIR) \
	ASAN_OPTIONS=$(ASAN_ENV_OPTIONS) UBSAN_OPTIONS=print_stacktrace=1 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp

check-asan: asan
	$(ASAN_ENV) prove --timer --exec '' $(UNIT_SRCS:tests/unit/%.c=$(ASAN_DIR)/tests/%.t) \
		$(addprefix tests/system/,$(ASAN_SYSTEM_TESTS)) $(ASAN_WORKLOAD_TESTS)

clean:
	rm -rf $(B) $(ASAN_DIR) $(FUZZ_B) cvmbench cvmfn cvmbench-agent cvmload

.PHONY: all tests check check-long quick clean asan check-asan fuzz fuzz-if-clang guest

# (not below build/test-cache: a rootfs tree there has Debian's own *.d directories)
-include $(shell find $(B) $(FUZZ_B) -path $(B)/test-cache -prune -o -name '*.d' -type f -print 2>/dev/null)
