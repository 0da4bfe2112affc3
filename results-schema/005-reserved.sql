-- 005-reserved.sql: a placeholder so that this branch (hostmem, issue 13)
-- builds with its migration numbered 006 as assigned; another branch holds
-- number 005. It changes nothing. Drop it at the merge.
SELECT 1;
