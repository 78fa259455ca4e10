-- Variant 2: the materialized view extracts payload.created_at, payload.id, payload.name and
-- payload.__deleted from each message (schemas enabled: the row sits under "payload"), converts
-- created_at from epoch milliseconds to a UTC DateTime (divided by 1000) and __deleted to UInt64,
-- and writes into the target table.
CREATE MATERIALIZED VIEW IF NOT EXISTS default.customers_mv ON CLUSTER '{cluster}' TO default.customers
AS SELECT
    toDateTime(JSONExtractInt(msg_json_str, 'payload', 'created_at') / 1000, 'UTC') AS created_at,
    JSONExtractInt(msg_json_str, 'payload', 'id') AS id,
    JSONExtractString(msg_json_str, 'payload', 'name') AS name,
    toUInt64(JSONExtractString(msg_json_str, 'payload', '__deleted') = 'true') AS __deleted
FROM default.customers_queue
