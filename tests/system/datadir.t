#!/bin/bash
# tests/system/datadir.t - one data directory for cvmfn and cvmbench: the
# model `cvmfn prepare` writes is the one `cvmbench run` uses, with the
# default directory (in a private mount namespace with a tmpfs on /var/tmp,
# so the machine's /var/tmp is not touched) and with $CVMBENCH_DATA_DIR.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_STATE_DIR=$tmp/state
unset CVMBENCH_DATA_DIR CVMFN_DATA_DIR

plan 6

cat > "$tmp/c.ini" <<'INI'
[experiment d]
workload = cnn-classification
size = test
invocations = 1
warmup = 0
INI
model=cnn-classification-squeezenet1_1-seed1.model

# Prepare with cvmfn, then run with cvmbench; print where data files are
# and whether the model is the very file cvmfn wrote (inode and mtime).
cat > "$tmp/both.sh" <<'SH'
set -u
cvmbench=$1 cvmfn=$2 tmp=$3 model=$4
"$cvmfn" prepare cnn-classification --size test >/dev/null || echo "prepare failed"
before=$(find /var/tmp -name "$model" -printf '%i %T@\n')
"$cvmbench" run "$tmp/c.ini" --db "$tmp/d.db" 2>"$tmp/run.err" || echo "run failed: $?"
find /var/tmp -type f -printf '%h\n' | sort -u
after=$(find /var/tmp -name "$model" -printf '%i %T@\n')
[ -n "$before" ] && [ "$before" = "$after" ] && echo "same model"
SH

if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	skip_rest 3 "needs root and unshare -m (a private tmpfs on /var/tmp)"
else
	out=$(unshare -m --propagation private bash -c \
		'mount -t tmpfs cvmbench-test /var/tmp && bash "$@"' _ \
		"$tmp/both.sh" "$CVMBENCH" "$CVMFN" "$tmp" "$model")
	echo "$out" | sed 's/^/# /'
	is "$(echo "$out" | grep -c '^/var/tmp')" 1 "default: cvmfn and cvmbench use one data directory"
	is "$(echo "$out" | grep '^/var/tmp')" /var/tmp/cvmbench/data "and it is /var/tmp/cvmbench/data"
	echo "$out" | grep -q "^same model$"
	ok $? = 0 "cvmbench run used the model cvmfn prepare wrote"
fi

# The same with the one variable set.
export CVMBENCH_DATA_DIR=$tmp/data
rm -f "$tmp/d.db"
$CVMFN prepare cnn-classification --size test >/dev/null
before=$(stat -c '%i %Y' "$tmp/data/$model" 2>/dev/null)
$CVMBENCH run "$tmp/c.ini" --db "$tmp/d.db" 2>/dev/null; rc=$?
ok "$rc" = 0 "CVMBENCH_DATA_DIR: run exits 0"
ok "${before:-none}" != none "CVMBENCH_DATA_DIR: cvmfn prepare wrote the model there"
is "$(stat -c '%i %Y' "$tmp/data/$model" 2>/dev/null)" "$before" "and cvmbench run used that file"

