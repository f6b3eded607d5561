-- The checks that an account's or a journal stripe's key never changes, run after the row is updated
-- instead of before (migration 20261205010000_statement_level_references made them; the law and
-- the refusal are the same: SQLSTATE 23503 from ledger_forbid_referenced_change).
--
-- Why: while a table has any BEFORE UPDATE row trigger, PostgreSQL locks every row an UPDATE changes
-- before it runs that table's BEFORE triggers, whether or not one of them then fires (its column list and
-- WHEN are looked at after the lock). That lock is a WAL record of its own. Every posting updates its
-- accounts and its journal stripe's head, so each of their rows was locked, logged, then updated:
-- pg_walinspect over 1,000 transfers posted in batches of 100 counted 1,847 Heap/LOCK records before this
-- and 20 after (the stripes' FOR UPDATE). An AFTER row trigger with the same column list and WHEN queues
-- nothing for an UPDATE that does not name a key column, and a refused change is rolled back with its
-- statement all the same. A tenant's row keeps its BEFORE trigger: no posting updates it, and the
-- foreign keys still declared on tenants (accounts, API keys) would otherwise refuse a change first.

DROP TRIGGER accounts_key_fixed ON accounts;
CREATE TRIGGER accounts_key_fixed AFTER UPDATE OF tenant_id, id, currency ON accounts
  FOR EACH ROW WHEN ((OLD.tenant_id, OLD.id, OLD.currency) IS DISTINCT FROM (NEW.tenant_id, NEW.id, NEW.currency))
  EXECUTE FUNCTION ledger_forbid_referenced_change();

DROP TRIGGER journal_heads_key_fixed ON journal_heads;
CREATE TRIGGER journal_heads_key_fixed AFTER UPDATE OF tenant_id, stripe ON journal_heads
  FOR EACH ROW WHEN ((OLD.tenant_id, OLD.stripe) IS DISTINCT FROM (NEW.tenant_id, NEW.stripe))
  EXECUTE FUNCTION ledger_forbid_referenced_change();
