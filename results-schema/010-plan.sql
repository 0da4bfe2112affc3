-- 010-plan.sql: capacity plans (`cvmbench plan --config`, docs/capacity.md).
-- One plan row per run of the planner; its inputs as read from the
-- database (per platform and measured function, with the cells and runs
-- they came from), every simulated point (platform, policy, parameter,
-- seed) and the answers: the extra warm memory a CVM pool needs over its
-- regular twin at each cold-start target, with its interval. Memory in MiB
-- here (a pool's size), latencies in ms.
CREATE TABLE plan (
	id          INTEGER PRIMARY KEY,
	created_at  TEXT NOT NULL,
	config_path TEXT NOT NULL,
	config_text TEXT NOT NULL,     -- the plan config, verbatim
	trace       TEXT NOT NULL,     -- the trace file as given
	seeds       INTEGER NOT NULL,  -- simulation seeds per point
	bootstrap   INTEGER NOT NULL,  -- bootstrap resamples of the measurements
	price       REAL NOT NULL,     -- $ per GB-second (GB = 1024 MiB)
	budget_mib  REAL               -- the budget question's budget; NULL: none asked
);
CREATE TABLE plan_input (
	plan_id     INTEGER NOT NULL REFERENCES plan(id) ON DELETE CASCADE,
	platform    TEXT NOT NULL,     -- the config's [platform NAME]
	workload    TEXT NOT NULL,     -- the measured function
	trace_fns   INTEGER NOT NULL,  -- trace functions mapped to it
	mem_mib     REAL NOT NULL,     -- host memory of one warm instance (mean over cells)
	mem_source  TEXT NOT NULL,     -- memcg, pss or memcg+pss (cells mixed)
	mem_cells   INTEGER NOT NULL,  -- cells the memory came from
	cold_n      INTEGER NOT NULL,  -- cold-start samples
	cold_p50_ms REAL NOT NULL,
	cold_source TEXT NOT NULL,     -- runc_start, vm_boot+first-call, cold-invocation (mixed: joined by +)
	warm_n      INTEGER NOT NULL,  -- warm latency samples
	warm_p50_ms REAL NOT NULL,
	cells       TEXT NOT NULL,     -- the cell ids used, "3,4,9"
	runs        TEXT NOT NULL,     -- their run ids, "1,2"
	PRIMARY KEY (plan_id, platform, workload)
);
CREATE TABLE plan_point (
	plan_id     INTEGER NOT NULL REFERENCES plan(id) ON DELETE CASCADE,
	platform    TEXT NOT NULL,
	policy      TEXT NOT NULL,     -- ttl, lru, gdsf, hybrid, predictive
	label       TEXT NOT NULL,     -- as `plan --policy` names it: ttl:600, lru:4096MiB
	param       REAL NOT NULL,     -- ttl: s; lru/gdsf: budget MiB; hybrid: range s; predictive: $/s
	question    TEXT NOT NULL CHECK (question IN ('ladder', 'budget')),
	seed        INTEGER NOT NULL,
	invocations INTEGER NOT NULL,
	cold_frac   REAL NOT NULL,
	dropped     INTEGER NOT NULL,
	p50_ms      REAL,
	p99_ms      REAL,
	mean_mib    REAL NOT NULL,     -- time-averaged warm memory (busy or idle)
	peak_mib    REAL NOT NULL,
	idle_gib_s  REAL NOT NULL,
	cost_usd    REAL NOT NULL
);
CREATE INDEX plan_point_plan ON plan_point(plan_id, platform, policy);
CREATE TABLE plan_target (
	plan_id      INTEGER NOT NULL REFERENCES plan(id) ON DELETE CASCADE,
	platform     TEXT NOT NULL,    -- the CVM platform
	twin         TEXT NOT NULL,    -- its regular twin
	policy       TEXT NOT NULL,    -- the policy whose parameter was searched (ttl)
	target_pct   REAL NOT NULL,    -- cold starts at most this % of invocations
	mem_mib      REAL,             -- the platform's mean warm memory at the target (NULL: not reached)
	twin_mem_mib REAL,
	extra_mib    REAL,             -- mem_mib - twin_mem_mib, base measurements, median over seeds
	extra_lo_mib REAL,             -- 2.5 % and 97.5 % over seeds x bootstrap resamples
	extra_hi_mib REAL,
	replicates   INTEGER NOT NULL, -- (seed, resample) pairs where both reached the target
	PRIMARY KEY (plan_id, platform, twin, policy, target_pct)
);
