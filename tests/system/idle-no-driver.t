#!/bin/bash
# tests/system/idle-no-driver.t - the idle experiments where there is no
# cpuidle driver, on every machine: the tool's detection reads machine B's
# captured tree (tests/fixtures/machines/B-pvm-no-cpuidle, through
# CVMBENCH_SYSROOT) while the cells run here. poll cannot be chosen: its
# cell is skipped before it costs anything, with the reason `list` gives;
# hlt is measured as it is ("hlt, no cpuidle driver"); spin keeps the CPUs
# busy and is stored as spin; the idle probe without cpuidle states is a
# skip with its exact reason. Needs no root.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh
. tests/system/idle-nodrv-lib.sh

plan 12
why=
[ -x ./cvmbench ] || why="cvmbench not built"
command -v sqlite3 > /dev/null || why="no sqlite3"
if [ -n "$why" ]; then skip_rest 12 "$why"; exit 0; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CVMBENCH_SYSROOT=$PWD/tests/fixtures/machines/B-pvm-no-cpuidle/root
export CVMBENCH_STATE_DIR=$tmp/state
check_no_driver "$tmp" "test root"
