-- 009-cell-matrix-index.sql: cell.matrix_index - the cell's position in the
-- expanded matrix of its run's config (0-based), the order `run --dry-run`
-- lists the cells in. A shard's cells keep their index in the whole matrix,
-- so a merged study sorts by it as the unsharded run would. The analysis
-- orders a run's cells by it (analysis/cell-order.c). NULL: a row written
-- before this migration (the analysis then expands the run's config again).

ALTER TABLE cell ADD COLUMN matrix_index INTEGER;
