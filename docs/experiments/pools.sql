-- pools.sql - the tables of configs/pools.ini (docs/experiments/pools.md):
--   sqlite3 -header -column pools.db < docs/experiments/pools.sql
-- p50 / p99 are nearest-rank percentiles of runc_start.cold_start_ns (fork
-- of the runtime to the first reply) over the measured starts of a cell.
CREATE TEMP VIEW pool_start AS
SELECT c.id AS cell_id, c.experiment, c.backend,
       CAST(substr(c.spec, instr(c.spec, char(10) || 'parallel = ') + 12, 4) AS INTEGER) AS k,
       s.id AS start_id, s.cold_start_ns, s.blocked_ns
FROM runc_start s JOIN invocation i ON i.id = s.invocation_id
JOIN cell c ON c.id = s.cell_id
WHERE i.phase = 'measured' AND s.cold_start_ns IS NOT NULL;

-- 1. p50 / p99 against concurrency, per variant
WITH ranked AS (
	SELECT *, row_number() OVER (PARTITION BY cell_id ORDER BY cold_start_ns) AS r,
	       count(*) OVER (PARTITION BY cell_id) AS n
	FROM pool_start)
SELECT experiment, backend, k, n AS starts,
       round(max(CASE WHEN r <= (n * 50 + 99) / 100 THEN cold_start_ns END) / 1e6, 1) AS p50_ms,
       round(max(CASE WHEN r <= (n * 99 + 99) / 100 THEN cold_start_ns END) / 1e6, 1) AS p99_ms,
       round(avg(blocked_ns) / 1e6, 2) AS blocked_ms
FROM ranked GROUP BY cell_id ORDER BY experiment, backend, k;

-- 2. the lock-contention table per variant: blocked time per start, by lock
-- (per start of the cell, also the starts that never waited for that lock);
-- a cell whose starts never waited on a lock has one row, lock '(none)'
SELECT p.experiment, p.backend, p.k, COALESCE(l.lock, '(none)') AS lock,
       round(COALESCE(sum(l.count), 0) * 1.0 / n.starts, 1) AS waits_per_start,
       round(COALESCE(sum(l.blocked_ns), 0) / 1e6 / n.starts, 3) AS blocked_ms_per_start
FROM pool_start p LEFT JOIN runc_lock l ON l.start_id = p.start_id
JOIN (SELECT cell_id, count(*) AS starts FROM pool_start GROUP BY cell_id) n
  ON n.cell_id = p.cell_id
GROUP BY p.cell_id, l.lock
HAVING l.lock IS NOT NULL OR NOT EXISTS (SELECT 1 FROM runc_lock l2 JOIN pool_start p2
       ON p2.start_id = l2.start_id WHERE p2.cell_id = p.cell_id)
ORDER BY p.experiment, p.backend, p.k, blocked_ms_per_start DESC;

-- 3. the pools (cgroup, netns): takes, fallbacks (drained), refills and what
-- they cost; fallback_ms: a netns fallback's namespace made on the spot
-- (cgroup fallbacks make nothing: the runtime makes the cgroup in the start);
-- veth_ms: a namespace's veth pair alone, per slot made
SELECT c.experiment, c.backend, e.pool,
       CAST(substr(c.spec, instr(c.spec, char(10) || 'parallel = ') + 12, 4) AS INTEGER) AS k,
       sum(e.event = 'take') AS takes, sum(e.event = 'fallback') AS fallbacks,
       sum(e.event = 'refill') AS refills, min(CASE WHEN e.event <> 'fill' THEN e.free END) AS min_free,
       round(sum(CASE WHEN e.event = 'refill' THEN e.cost_ns END) / 1e6, 2) AS refill_ms,
       round(sum(CASE WHEN e.event = 'refill' THEN e.cpu_ns END) / 1e6, 2) AS refill_cpu_ms,
       round(avg(CASE WHEN e.event IN ('fill', 'refill') THEN e.cost_ns END) / 1e6, 3) AS ms_per_slot,
       round(avg(CASE WHEN e.event = 'fallback' THEN e.cost_ns END) / 1e6, 2) AS fallback_ms,
       round(avg(e.veth_ns) / 1e6, 3) AS veth_ms
FROM oci_pool_event e JOIN cell c ON c.id = e.cell_id
GROUP BY c.id, e.pool ORDER BY c.experiment, c.backend, e.pool, k;

-- 4. the prepared filter's one compile per cell
SELECT c.experiment, c.backend, round(m.value / 1e6, 2) AS compile_ms
FROM metric m JOIN cell c ON c.id = m.cell_id WHERE m.name = 'seccomp.prepare_ns';
