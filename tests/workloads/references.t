#!/bin/bash
# references: a missing reference turns a check into a SKIP on a developer's
# machine, but into a failure under CI (env CI set), where .ci/install-deps
# installs every reference the tests use. Checked on graph-bfs.t and
# logistic-regression.t with an interpreter that does not exist.
. tests/workloads/lib.sh
echo "1..4"
for t in graph-bfs logistic-regression; do
	REF_PYTHON=$d/no-python CI= bash "tests/workloads/$t.t" > "$d/dev" 2>&1
	grep -q '# SKIP' "$d/dev" && ! grep -q '^not ok' "$d/dev"
	ok $? "$t.t without CI: missing Python is a SKIP"
	REF_PYTHON=$d/no-python CI=1 bash "tests/workloads/$t.t" > "$d/ci" 2>&1
	grep -q '^not ok .*reference missing under CI' "$d/ci" && ! grep -q '# SKIP' "$d/ci"
	ok $? "$t.t under CI: missing Python is a failure"
done
