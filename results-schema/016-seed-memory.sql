-- 016-seed-memory.sql: seed_memory rows say when they were taken and what
-- the child wrote itself. called: 0 before the next fork (every child
-- ready, none called yet), 1 after the cell's calls; NULL in rows from
-- before this file. private_dirty_kb: Private_Dirty of smaps_rollup, the
-- pages the child wrote (anonymous and copied on write). uss_kb (Private_Clean
-- + Private_Dirty) also counts page-cache pages only this child has mapped
-- so far, such as code the seed never ran: they turn Shared_Clean once a
-- sibling maps them, so a child's USS falls as siblings are added while
-- private_dirty_kb does not (docs/experiments/seed-tree.md).
ALTER TABLE seed_memory ADD COLUMN called INTEGER;
ALTER TABLE seed_memory ADD COLUMN private_dirty_kb INTEGER;
