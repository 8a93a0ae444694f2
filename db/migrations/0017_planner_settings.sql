-- JIT compilation off for this database. The listings' visibility rules are correlated subqueries whose estimated
-- cost (hundreds of thousands of units on a near-empty database) passes PostgreSQL's jit_above_cost and
-- jit_optimize_above_cost, so every such statement spent about 2 s compiling ~340 functions with LLVM to run for a
-- few milliseconds (GET /events: 2,100 ms with JIT, 40 ms without, on PostgreSQL 15). Statements here are short
-- OLTP reads and writes; none runs long enough for compiled expressions to pay back. A per-database setting holds
-- for every new session, which is what Neon's HTTP and WebSocket connections are. A role that does not own the
-- database cannot set it: the migration warns and goes on (set `jit = off` on the compute instead).
DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I SET jit = off', current_database());
EXCEPTION WHEN insufficient_privilege THEN
  RAISE WARNING 'jit stays as the server sets it: % cannot alter database %', current_user, current_database();
END
$$;
