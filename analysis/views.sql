-- views.sql - the views the analysis commands (show, export, plot, report)
-- read through. Created as TEMP views on a read-only connection each time,
-- so the results database itself is never changed. SQLite has no
-- percentile function: quantiles are computed in C (lib/stats.c) from
-- the rows of v_invocation_measured.

-- A cell measured again in the same run (resumed after a kill, or re-run
-- with --only) has a newer row of the same run and cell_key; the older rows
-- are superseded: kept in the file, never counted (DB_CELL_CURRENT, bench/store/db.h). These
-- TEMP views shadow the tables of those names, so every query of show,
-- export, plot, report and compare, and every view below, sees only the
-- current rows; main.cell, main.skip and main.error still hold them all.
CREATE TEMP VIEW cell AS
SELECT * FROM main.cell
WHERE id IN (SELECT max(id) FROM main.cell GROUP BY run_id, cell_key);

CREATE TEMP VIEW skip AS
SELECT * FROM main.skip
WHERE cell_id IS NULL OR cell_id IN (SELECT id FROM temp.cell);

CREATE TEMP VIEW error AS
SELECT * FROM main.error
WHERE cell_id IS NULL OR cell_id IN (SELECT id FROM temp.cell);

-- Measured invocations that succeeded and have a latency, with the cell
-- columns the figures group by. Latencies in ms for convenience.
CREATE TEMP VIEW v_invocation_measured AS
SELECT i.id AS invocation_id, i.cell_id, c.run_id, c.cell_key,
       c.experiment, c.workload, c.size, c.backend, c.threads, c.wait,
       c.mode, c.repeat_index, i.instance_idx, i.seq, i.start,
       i.latency_ns, i.fn_ns,
       i.latency_ns / 1e6 AS latency_ms, i.fn_ns / 1e6 AS fn_ms
FROM invocation AS i JOIN cell AS c ON c.id = i.cell_id
WHERE i.phase = 'measured' AND i.ok = 1 AND i.latency_ns IS NOT NULL;

-- One row per cell: its columns, invocation counts and what SQL can
-- aggregate (min, max, mean). Median and other quantiles: see above.
-- service = 1: a system-suite cell (its svc.parser note), whose "invocations"
-- are load-generator windows, not function latencies.
CREATE TEMP VIEW v_cell_latency AS
SELECT c.id AS cell_id, c.run_id, c.cell_key, c.experiment, c.workload,
       c.size, c.backend, c.threads, c.wait, c.mode, c.instances,
       c.repeat_index, c.status,
       EXISTS (SELECT 1 FROM cell_param AS p
               WHERE p.cell_id = c.id AND p.key = 'svc.parser') AS service,
       (SELECT count(*) FROM invocation AS i
         WHERE i.cell_id = c.id AND i.phase = 'measured') AS n_invoked,
       (SELECT count(*) FROM invocation AS i
         WHERE i.cell_id = c.id AND i.phase = 'measured' AND i.ok = 0)
         AS n_failed,
       count(m.invocation_id) AS n_measured,
       min(m.latency_ms) AS min_ms, max(m.latency_ms) AS max_ms,
       avg(m.latency_ms) AS mean_ms
FROM cell AS c LEFT JOIN v_invocation_measured AS m ON m.cell_id = c.id
GROUP BY c.id;

-- Skips and errors with the key of their cell (NULL for run-wide ones).
CREATE TEMP VIEW v_skip AS
SELECT s.id, s.run_id, s.cell_id, c.cell_key, s.probe, s.reason
FROM skip AS s LEFT JOIN cell AS c ON c.id = s.cell_id;

CREATE TEMP VIEW v_error AS
SELECT e.id, e.run_id, e.cell_id, c.cell_key, e.at, e.source, e.message
FROM error AS e LEFT JOIN cell AS c ON c.id = e.cell_id;

-- Fidelity flags a probe raised on a cell (metrics named flag_*, value not 0),
-- with what each means (docs/probes/hostmem.md, docs/probes/ksm.md), and the
-- cell's setup flags.
CREATE TEMP VIEW v_flag AS
SELECT m.id, c.run_id, c.cell_key, m.probe, m.name,
	CASE m.name
	WHEN 'flag_pss_drop_disagree' THEN
		'summed PSS and the host''s MemAvailable drop differ by more than 10 %'
	WHEN 'flag_memcg_pss_disagree' THEN
		printf('summed PSS and the VMs'' memory cgroups differ by more than 10 %% '
		       || '(PSS %+.1f %% of the cgroup figure; a CVM''s private memory is in '
		       || 'the cgroup only)',
		       (SELECT n.value FROM metric AS n WHERE n.cell_id = m.cell_id
			AND n.probe = m.probe AND n.name = 'pss_vs_memcg_pct'
			AND n.invocation_id IS NULL))
	WHEN 'flag_convergence_timeout' THEN
		'KSM did not converge within ksm-timeout: steady state taken anyway'
	WHEN 'flag_model_merged' THEN
		'a model VM had merged pages (over 1 % of its RAM)'
	WHEN 'flag_vmexit_fidelity' THEN
		'kvm_exit and KVM''s own exits counter differ by more than 1 % (show --table vmexit)'
	WHEN 'flag_noisy' THEN
		printf('a noisy machine: other processes used %.0f %% of the CPUs'' time and '
		       || 'steal took %.0f %%, over the cell''s noise-threshold of %g %%',
		       (SELECT n.value FROM metric AS n WHERE n.cell_id = m.cell_id
			AND n.probe = m.probe AND n.name = 'other_cpu_pct'),
		       (SELECT n.value FROM metric AS n WHERE n.cell_id = m.cell_id
			AND n.probe = m.probe AND n.name = 'steal_pct'),
		       (SELECT n.value FROM metric AS n WHERE n.cell_id = m.cell_id
			AND n.probe = m.probe AND n.name = 'threshold_pct'))
	ELSE m.name END AS meaning
FROM metric AS m JOIN cell AS c ON c.id = m.cell_id
WHERE m.invocation_id IS NULL AND m.name LIKE 'flag\_%' ESCAPE '\' AND m.value != 0
UNION ALL
-- Setup flags of a cell (cell_param sanity.*, e.g. sanity.corunner_shares_llc),
-- their value says what is wrong with the setup.
SELECT p.rowid, c.run_id, c.cell_key, 'setup', p.key, p.value
FROM cell_param AS p JOIN cell AS c ON c.id = p.cell_id
WHERE p.key LIKE 'sanity.%';

-- Invocations naming their cell (cell_id, cell_key), for `cvmbench export`.
CREATE TEMP VIEW v_export_invocation AS
SELECT i.id, i.cell_id, c.run_id, c.cell_key, i.instance_idx, i.seq, i.phase,
       i.start, i.started_at, i.latency_ns, i.fn_ns, i.ok, i.digest, i.error
FROM invocation AS i JOIN cell AS c ON c.id = i.cell_id;

-- Cells, once each, for `cvmbench export`: an invocation, metric or phase row
-- names its cell by cell_id (and cell_key) instead of repeating it.
CREATE TEMP VIEW v_export_cell AS
SELECT c.id, c.run_id, c.cell_key, c.experiment, c.workload, c.size, c.backend,
       c.threads, c.wait, c.mode, c.instances, c.invocations, c.warmup,
       c.repeat_index AS repeat, c.seed, c.probes, c.status, c.started_at, c.ended_at,
       c.spec
FROM cell AS c;

-- Probe metrics with their cell's run and key, for `cvmbench export`.
CREATE TEMP VIEW v_export_metric AS
SELECT m.id, m.cell_id, c.run_id, c.cell_key, m.invocation_id, m.probe,
       m.name, m.value, m.unit
FROM metric AS m JOIN cell AS c ON c.id = m.cell_id;

-- Container start phases (the runc probe) with their start and cell, for
-- `cvmbench export`: one row per phase of each traced start.
CREATE TEMP VIEW v_export_runc_phase AS
SELECT p.rowid AS id, s.cell_id, c.run_id, c.cell_key, s.invocation_id,
       s.start_idx, s.runtime, p.seq, p.phase, p.start_ns, p.duration_ns,
       s.total_ns AS start_total_ns, s.cold_start_ns, s.blocked_ns,
       s.namespaces
FROM runc_phase AS p JOIN runc_start AS s ON s.id = p.start_id
JOIN cell AS c ON c.id = s.cell_id;
