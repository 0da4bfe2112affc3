#!/bin/bash
# tests/system/build.t - the build itself: the version a binary reports and
# stores follows the checkout (an empty commit, then `make`, reports the new
# commit), CFLAGS given on the command line keep the flags the code needs,
# and the guest agent links only what its main reaches.
# Changes nothing outside a private directory.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

plan 11

# --- the version follows the checkout ----------------------------------------
if ! command -v git >/dev/null; then
	[ -n "${CI:-}" ] && { _tap 1 "git is missing (CI)"; skip_rest 5 "git missing"; }
	[ -z "${CI:-}" ] && skip_rest 6 "git is not installed"
elif ! git rev-parse --git-dir >/dev/null 2>&1; then
	[ -n "${CI:-}" ] && { _tap 1 "not a git checkout (CI runs on a clone)"; skip_rest 5 "no git"; }
	[ -z "${CI:-}" ] && skip_rest 6 "not a git checkout: the version is 'unknown'"
else
	want=$(git describe --always --dirty --tags)
	is "$($CVMBENCH --version)" "cvmbench $want" "$CVMBENCH --version is git describe of the checkout"
	printf '[experiment v]\nworkload = null\nsize = test\ninvocations = 1\nwarmup = 0\n' > "$tmp/v.ini"
	CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data \
		$CVMBENCH run "$tmp/v.ini" --db "$tmp/v.db" 2>/dev/null
	is "$(sqlite3 "$tmp/v.db" "SELECT cvmbench_version FROM run")" "$want" \
		"run.cvmbench_version is git describe of the checkout"

	# A copy of the working tree as a repository of its own, with this
	# tree's objects (newer than its sources: nothing to recompile).
	c=$tmp/copy
	mkdir "$c"
	git ls-files -z -co --exclude-standard | xargs -0 cp --parents -t "$c" 2>/dev/null
	git_c() { git -C "$c" -c user.name=t -c user.email=t@t "$@"; }
	git_c init -q && git_c add -A && git_c commit -q -m one
	cp -r build "$c/build"
	make -C "$c" cvmbench >"$tmp/make1" 2>&1; rc=$?
	is "$rc" 0 "the copy builds"
	is "$("$c/cvmbench" --version)" "cvmbench $(git_c describe --always --dirty --tags)" \
		"the copy reports its own commit"
	git_c commit -q --allow-empty -m two
	make -C "$c" cvmbench >"$tmp/make2" 2>&1
	is "$("$c/cvmbench" --version)" "cvmbench $(git_c describe --always --dirty --tags)" \
		"after an empty commit, make reports the new commit"
	make -C "$c" cvmbench >"$tmp/make3" 2>&1
	grep -q "is up to date\|Nothing to be done" "$tmp/make3"
	ok $? = 0 "and a second make with no change rebuilds nothing"
fi

# --- CFLAGS on the command line ------------------------------------------------
# make -n prints the compile commands without running them (objects in $tmp).
make -n -B B="$tmp/b" CFLAGS='-O1 -fsanitize=undefined' "$tmp/b/bench/store/db.o" \
	"$tmp/b/workloads/matmul.o" "$tmp/b/probes/null.o" cvmbench >"$tmp/n" 2>&1
total=$(grep -c -- ' -c -o ' "$tmp/n")
good=$(grep -c -- '-std=gnu11 .*-D_GNU_SOURCE.*-O1 -fsanitize=undefined.* -c -o ' "$tmp/n")
[ "$total" -gt 0 ] || good=none
ok "$total.$good" = "$total.$total" "make CFLAGS=... keeps -std=gnu11 and -D_GNU_SOURCE on every compile ($good of $total)"
grep -q -- '-fsanitize=undefined.* -o cvmbench' "$tmp/n"
ok $? = 0 "and passes CFLAGS to the link (a sanitizer needs its runtime)"
make -n -B B="$tmp/b" CFLAGS='-fsanitize=address' cvmfn >"$tmp/fn" 2>&1
grep -- '-o cvmfn' "$tmp/fn" | grep -v -q -- '-static\|nodl.o'
ok $? = 0 "a sanitizer CFLAGS links cvmfn dynamically, without the nodl.c stubs"

# --- what the guest agent links -------------------------------------------------
# cvmbench-agent is linked from an archive, so code that no guest code calls
# (the journal of host settings, tracefs-host.c) stays out of it.
agent=$(dirname "$CVMBENCH")/cvmbench-agent
if [ ! -x "$agent" ]; then
	skip_rest 2 "no $agent (make all builds it)"
else
	nm "$agent" > "$tmp/agent.nm" 2>&1
	ok "$(grep -c ' T agent_' "$tmp/agent.nm")" -gt 0 \
		"nm lists cvmbench-agent's own functions (so the next check can fail)"
	is "$(grep -c ' T \(journal\|tracefs_host\)_' "$tmp/agent.nm")" 0 \
		"cvmbench-agent links no journal and no tracefs-host.c (nothing in a guest calls them)"
fi
