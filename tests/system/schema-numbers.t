#!/bin/bash
# tests/system/schema-numbers.t - migrations are numbered by file name
# (issue 11.6): two results-schema files with one number (two branches that
# each added a 003-*) or a gap stop the build with both names and leave no
# generated schema; a database migrated by the build has the newest file's
# number as user_version. Changes nothing outside a private directory.
set -u
cd "$(dirname "$0")/../.."
. tests/system/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

plan 8

mkdir "$tmp/s"
cp results-schema/*.sql "$tmp/s/"
newest=$(ls results-schema/*.sql | sed -n '$s|.*/0*\([0-9]*\)-.*|\1|p')

sh bench/store/embed-sql.sh "$tmp"/s/*.sql >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc $(wc -c <"$tmp/err")" "0 0" "the migrations of this tree embed"

n=$(printf '%03d' "$newest")
printf 'SELECT 1;\n' > "$tmp/s/$n-other-branch.sql"
sh bench/store/embed-sql.sh "$tmp"/s/*.sql >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc $(wc -c <"$tmp/out")" "1 0" "two files numbered $n: exit 1, nothing generated"
grep -q "$n-.*\.sql and .*$n-.*\.sql have one number ($newest)" "$tmp/err"
ok $? = 0 "and the message names both files ($(head -c 160 "$tmp/err"))"

# through the Makefile: the build stops and leaves no schema-gen.c
make -s B="$tmp/b" SCHEMA="$(ls "$tmp"/s/*.sql | tr '\n' ' ')" "$tmp/b/bench/schema-gen.c" \
	>"$tmp/make" 2>&1; rc=$?
ok "$rc" != 0 "make stops on the duplicate number"
is "$(ls "$tmp/b/bench/" | grep -c schema-gen)" 0 "and leaves no schema-gen.c (nor its .tmp)"

rm "$tmp/s/$n-other-branch.sql"
printf 'SELECT 1;\n' > "$tmp/s/$(printf '%03d' $((newest + 2)))-gap.sql"
sh bench/store/embed-sql.sh "$tmp"/s/*.sql >"$tmp/out" 2>"$tmp/err"; rc=$?
is "$rc $(wc -c <"$tmp/out")" "1 0" "a gap (no $((newest + 1))): exit 1, nothing generated"
grep -q "without a gap" "$tmp/err"; ok $? = 0 "and the message says so"

printf '[experiment v]\nworkload = null\ninvocations = 1\nwarmup = 0\n' > "$tmp/v.ini"
CVMBENCH_STATE_DIR=$tmp/state CVMBENCH_DATA_DIR=$tmp/data \
	$CVMBENCH run "$tmp/v.ini" --db "$tmp/v.db" 2>/dev/null
is "$(sqlite3 "$tmp/v.db" "PRAGMA user_version")" "$newest" \
	"user_version of a new database is the newest file's number"
