-- 003-digest-time.sql: the time cvmfn spent hashing a call's output.
-- The output digest is taken after the function's end time and after the
-- reply's timing line, so neither fn_ns nor latency_ns includes it
-- (workloads/protocol.h). digest_ns is that SHA-256 alone; NULL when the
-- call was not hashed (cvmfn --digest first | N) or the row predates 003.
ALTER TABLE invocation ADD COLUMN digest_ns INTEGER;
