-- The transactions' metadata index holds only transactions that have metadata. Every posting without
-- any (most of them: the bench's, a wallet's transfers) put an "empty item" into the GIN index, which
-- meant one update of the index's metapage per posting transaction (its pending list) and, each time
-- the pending list outgrew gin_pending_list_limit, one posting that merged the whole list into the index
-- while it held its accounts' locks. Every containment test on a transaction's metadata (the list's
-- filter, group matching's metadata key) names the same predicate (T_HAS_METADATA), so it can still use
-- the index; the list's filter of {} matches every transaction and is no filter at all.
-- The index is rebuilt in this migration's transaction: on a large ledger, postings wait for the build.
DROP INDEX transactions_metadata_idx;
CREATE INDEX transactions_metadata_idx ON transactions USING gin (metadata jsonb_path_ops)
  WHERE metadata <> '{}'::jsonb;
