-- What a source's files are written in when they are not UTF-8 (UTF-8 is recognised first); null: the
-- format's default (MT940 windows-1252, the others UTF-8 only). 'utf-8' refuses any other text.
ALTER TABLE statement_sources ADD COLUMN charset text
  CONSTRAINT statement_sources_charset_known
  CHECK (charset IN ('utf-8', 'iso-8859-1', 'windows-1252', 'iso-8859-2', 'windows-1250'));

-- The charset an import's file was read in, set when it completes. Every import before this column was read
-- as UTF-8 (nothing else was accepted), which the default records for them.
ALTER TABLE statement_imports ADD COLUMN charset text NOT NULL DEFAULT 'utf-8'
  CONSTRAINT statement_imports_charset_known
  CHECK (charset IN ('utf-8', 'iso-8859-1', 'windows-1252', 'iso-8859-2', 'windows-1250'));
