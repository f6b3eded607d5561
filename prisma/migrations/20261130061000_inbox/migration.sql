-- Inbox: signed messages from gateways, turned into postings through each source's mapping.

-- A gateway that sends us events. Its public endpoint is /v1/inbound/<id>: the id finds the source
-- (ids are UUIDv7, unique in practice; the index is not unique so that every unique key keeps
-- tenant_id), and the signature with its secret proves the sender.
CREATE TABLE inbound_sources (
  tenant_id   uuid NOT NULL REFERENCES tenants (id),
  id          uuid NOT NULL,
  name        text NOT NULL CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$'),
  secret      text NOT NULL CHECK (length(secret) >= 32),
  mappings    jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, name)
);
CREATE INDEX inbound_sources_id_idx ON inbound_sources (id);

-- One row per message received: the primary key is the dedupe. It is claimed first (a concurrent copy
-- of the message waits on the key, then finds it taken), then the posting is made and its id recorded,
-- all in one transaction: a message is either recorded and posted, or neither.
CREATE TABLE inbox_messages (
  tenant_id       uuid NOT NULL,
  source_id       uuid NOT NULL,
  message_id      text NOT NULL CHECK (length(message_id) BETWEEN 1 AND 255),
  type            text NOT NULL,
  status          text NOT NULL CHECK (status IN ('posted', 'ignored')),
  transaction_id  uuid,
  received_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, source_id, message_id),
  FOREIGN KEY (tenant_id, source_id) REFERENCES inbound_sources (tenant_id, id)
);
