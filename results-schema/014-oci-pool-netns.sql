-- 014-oci-pool-netns.sql: oci_pool_event holds the events of a cell's
-- network-namespace pool too (`netns-pool = N`, bench/backends/
-- oci-pool-netns.c): pool says which pool ('cgroup': every row before this
-- migration; 'netns': a named network namespace with a veth pair), and
-- veth_ns a netns slot's veth pair alone (`ip link add ... type veth peer
-- ... netns NS`: the exec of ip and the kernel's creation of both devices
-- under its RTNL lock) within cost_ns; NULL for cgroups and the events
-- that make nothing. A netns pool's fallback makes a namespace on the
-- spot: its cost_ns is the fallback's own latency.
ALTER TABLE oci_pool_event ADD COLUMN pool TEXT NOT NULL DEFAULT 'cgroup'
	CHECK (pool IN ('cgroup', 'netns'));
ALTER TABLE oci_pool_event ADD COLUMN veth_ns INTEGER;
