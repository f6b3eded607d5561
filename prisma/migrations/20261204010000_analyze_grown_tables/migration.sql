-- ledger_analyze_grown_tables: analyzes every table of this schema that holds at least p_rows_min rows
-- and more than twice what PostgreSQL counted at its last analyze (or was never analyzed), and returns
-- their names. The processes call it every second (StatisticsKeeper in libs/db).
--
-- Why: a plan is made from the statistics and kept. Each connection keeps its foreign-key checks' plans
-- for its whole life, and PostgreSQL replans them only when the table is analyzed. On a new database the
-- pool's connections plan those checks while the tables hold a few rows, where any index will do:
-- measured on the posting bench, the checks of entries and journal links against transactions read a
-- tenant's whole index range, and batches of 100 fell from 979 to 97 transfers/s in six minutes.
-- Autovacuum analyzes only after a minute, and not at all where it is off. Analyzing at each doubling
-- costs a few analyzes in a table's life (log2 of its rows) and keeps every plan made on at least half
-- the table.
--
-- One caller at a time: the others find the lock taken and skip their turn. Only the tables this role may
-- analyze (it owns them, or the database; superusers may all): another's would be skipped by ANALYZE
-- with a warning, and named again at every call.
CREATE FUNCTION ledger_analyze_grown_tables(p_rows_min bigint) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  grown text;
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtextextended('ledger:analyze-grown-tables', 0)) THEN
    RETURN;
  END IF;
  FOR grown IN
    SELECT s.relname
      FROM pg_stat_user_tables s
      JOIN pg_class c ON c.oid = s.relid
     WHERE s.schemaname = current_schema()
       AND s.n_live_tup >= p_rows_min
       AND s.n_live_tup > 2 * greatest(c.reltuples, 0)
       AND (pg_has_role(c.relowner, 'USAGE')
            OR pg_has_role((SELECT d.datdba FROM pg_database d WHERE d.datname = current_database()), 'USAGE'))
     ORDER BY s.relname
  LOOP
    EXECUTE format('ANALYZE %I', grown);
    RETURN NEXT grown;
  END LOOP;
END $$;
