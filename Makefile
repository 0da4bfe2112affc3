# cvmbench - plain GNU make, pkg-config for every library.
#
#   make            build cvmbench and the static cvmfn
#   make quick      run configs/quick.ini into results.db and write report/
#   make check      unit, workload and system tests through prove (TAP)
#   make fuzz       the config fuzz target (clang, libFuzzer, ASan, UBSan)
#   make clean

CC      ?= cc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -D_GNU_SOURCE -MMD -MP
PKG_CONFIG ?= pkg-config
VERSION := $(shell git describe --always --dirty --tags 2>/dev/null || echo unknown)

B := build

# --- libraries -------------------------------------------------------------
# Required by the harness.
REQ_PKGS := sqlite3 inih libcjson
# Optional: a probe whose library is missing builds as "unsupported".
have_pkg = $(shell $(PKG_CONFIG) --exists $(1) && echo 1)
HAVE_TRACEFS := $(call have_pkg,libtracefs libtraceevent)
HAVE_HWLOC   := $(call have_pkg,hwloc)
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
ifeq ($(HAVE_PFM),1)
FEATURES += -DHAVE_LIBPFM
PFM_LIBS := -lpfm
endif

# Objects are rebuilt when the detected features change (a library was
# installed or removed, or HAVE_X= given on the command line).
FEATURE_STAMP := $(B)/features
$(shell mkdir -p $(B); echo '$(FEATURES)' | cmp -s - $(FEATURE_STAMP) || \
	echo '$(FEATURES)' > $(FEATURE_STAMP))

BENCH_CFLAGS := $(CFLAGS) $(FEATURES) -Ibench -Iprobes -Iworkloads \
	-DCVMBENCH_VERSION='"$(VERSION)"' \
	$(shell $(PKG_CONFIG) --cflags $(REQ_PKGS) $(OPT_PKGS))
BENCH_LIBS := $(shell $(PKG_CONFIG) --libs $(REQ_PKGS) $(OPT_PKGS)) $(PFM_LIBS) -lgif -lz -lpthread -lm

# cvmfn is static: it runs unchanged in a bare container rootfs or a busybox guest.
FN_CFLAGS := $(CFLAGS) -Iworkloads -pthread
FN_LIBS   := -static -pthread -lsqlite3 -lgif -lz -lm

# --- sources -----------------------------------------------------------------
FN_SRCS    := $(sort $(wildcard workloads/*.c))
FN_OBJS    := $(FN_SRCS:%.c=$(B)/%.o)
# cvmbench links the workload registry too (one list of workloads for both
# programs), but not cvmfn's main or its static-only dlopen stubs.
WL_OBJS    := $(filter-out $(B)/workloads/cvmfn.o $(B)/workloads/nodl.o,$(FN_OBJS))
BENCH_SRCS := $(sort $(wildcard bench/*.c probes/*.c))
BENCH_OBJS := $(BENCH_SRCS:%.c=$(B)/%.o) $(B)/bench/schema-gen.o $(WL_OBJS)
SCHEMA     := $(sort $(wildcard results-schema/*.sql))

UNIT_SRCS  := $(sort $(wildcard tests/unit/*.c))
UNIT_BINS  := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%.t)
# Unit tests link every harness object but the one holding main().
LIB_OBJS   := $(filter-out $(B)/bench/main.o,$(BENCH_OBJS))

all: cvmbench cvmfn

cvmbench: $(BENCH_OBJS)
	$(CC) -o $@ $^ $(BENCH_LIBS)

cvmfn: $(FN_OBJS)
	$(CC) -o $@ $^ $(FN_LIBS)

$(B)/workloads/%.o: workloads/%.c
	@mkdir -p $(@D)
	$(CC) $(FN_CFLAGS) -c -o $@ $<

$(B)/bench/%.o: bench/%.c $(FEATURE_STAMP)
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -c -o $@ $<

$(B)/probes/%.o: probes/%.c $(FEATURE_STAMP)
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -c -o $@ $<

# The migrations are compiled in, in file-name order (001-..., 002-...).
$(B)/bench/schema-gen.c: $(SCHEMA) bench/embed-sql.sh
	@mkdir -p $(@D)
	sh bench/embed-sql.sh $(SCHEMA) > $@

$(B)/bench/schema-gen.o: $(B)/bench/schema-gen.c
	$(CC) $(BENCH_CFLAGS) -c -o $@ $<

# The version string must follow the checkout.
$(B)/bench/version.o: .FORCE
.FORCE:

$(B)/tests/%.t: tests/unit/%.c $(LIB_OBJS)
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -Itests/unit -o $@ $< $(LIB_OBJS) $(BENCH_LIBS)

tests: $(UNIT_BINS)

check: all tests fuzz-if-clang
	prove --exec '' $(UNIT_BINS) $(sort $(wildcard tests/workloads/*.t tests/system/*.t)) \
		$(FUZZ_TESTS)

# --- fuzzing -------------------------------------------------------------------
# `make fuzz` builds the config parser's fuzz target (tests/fuzz/config.c) with
# libFuzzer, ASan and UBSan; the harness objects it links are built apart in
# build-fuzz/ so the normal build is untouched. tests/fuzz/config.t runs it in
# `make check` for FUZZ_SECONDS on a seed corpus from configs/ (and SKIPs, or
# fails under CI, when clang with libFuzzer is missing).
FUZZ_CC    ?= clang
FUZZ_B     := build-fuzz
FUZZ_SAN   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_BASE  := -O1 -g -std=gnu11 -D_GNU_SOURCE -MMD -MP $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_CFLAGS := $(FUZZ_BASE) $(FEATURES) -Ibench -Iprobes -Iworkloads \
	-DCVMBENCH_VERSION='"$(VERSION)"' \
	$(shell $(PKG_CONFIG) --cflags $(REQ_PKGS) $(OPT_PKGS))
FUZZ_OBJS  := $(patsubst $(B)/%,$(FUZZ_B)/%,$(LIB_OBJS))
FUZZ_BIN   := $(FUZZ_B)/fuzz-config
FUZZ_TESTS := tests/fuzz/config.t

fuzz: $(FUZZ_BIN)

$(FUZZ_BIN): tests/fuzz/config.c $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(BENCH_LIBS)

$(FUZZ_B)/workloads/%.o: workloads/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_BASE) -Iworkloads -pthread -c -o $@ $<

$(FUZZ_B)/bench/schema-gen.o: $(B)/bench/schema-gen.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_B)/%.o: %.c $(FEATURE_STAMP)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

# make check builds the target where clang can (the test says why not otherwise);
# the generated schema first, so that the sub-make does not write it at the same time.
fuzz-if-clang: $(B)/bench/schema-gen.c
	@if command -v $(FUZZ_CC) >/dev/null; then $(MAKE) --no-print-directory fuzz; \
	else echo "make fuzz: no $(FUZZ_CC): tests/fuzz/config.t will skip"; fi

# The main job. Exit status 3 of `run` means "finished, some cells skipped":
# the report shows which and why, so it is not a failure here.
quick: all
	./cvmbench run configs/quick.ini --db results.db || [ $$? -eq 3 ]
	./cvmbench report report --db results.db

clean:
	rm -rf $(B) $(FUZZ_B) cvmbench cvmfn

.PHONY: all tests check quick clean fuzz fuzz-if-clang .FORCE

-include $(shell find $(B) $(FUZZ_B) -name '*.d' 2>/dev/null)
