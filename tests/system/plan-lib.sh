# tests/system/plan-lib.sh - for the planner's tests on craft-plan-db.py's
# databases (plan-db.t, plan-report.t). plan_ini TRACE [LINE...] prints a plan
# config over TRACE with the crafted database's two platforms (regular: qemu,
# confidential none, ksm on; model: qemu, confidential model, ksm off, twin
# regular) and the given [plan] lines ('budget = 2GiB', 'seeds = 2', ...).
plan_ini() {
	local trace=$1 line
	shift
	printf '[plan]\ntrace = %s\n' "$trace"
	for line; do printf '%s\n' "$line"; done
	printf '[platform regular]\nbackend = qemu\nconfidential = none\nksm = on\n'
	printf '[platform model]\nbackend = qemu\nconfidential = model\nksm = off\ntwin = regular\n'
}
