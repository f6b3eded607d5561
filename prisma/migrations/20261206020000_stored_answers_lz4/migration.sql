-- Stored answers compressed with lz4, where the server has it. They were stored uncompressed so that a
-- large one (a batch's, about 32 KB for 100 items) cost no compression while its request held account
-- locks; that holds for pglz, not for lz4. On the posting bench, batches of 100 wrote 12% less WAL per
-- transfer (4,718 against 5,385 bytes) and cost PostgreSQL less CPU, not more (0.183 and 0.158 against
-- 0.213 and 0.179 ms a transfer, two alternated pairs): uncompressed, an answer of 32 KB is 17 TOAST
-- chunks to write. An answer below the TOAST threshold (about 2 KB, a single posting's) is stored as it
-- is either way. A server built without lz4 (the embedded database)
-- keeps them uncompressed. Catalog changes only: rows already stored stay as they are.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE idempotency_keys ALTER COLUMN response_body SET COMPRESSION lz4;
    ALTER TABLE idempotency_keys ALTER COLUMN response_body SET STORAGE EXTENDED;
  END IF;
END $$;
