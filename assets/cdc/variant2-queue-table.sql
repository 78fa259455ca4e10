-- Variant 2: the message-queue table reads the topic demo.customers (RegexRouter $2.$3) as raw
-- JSON strings. On a server this is the Kafka engine; embedded ClickHouse turns it into a Null
-- table of the same column that Loupe's consumer feeds from the topic log.
CREATE TABLE IF NOT EXISTS default.customers_queue ON CLUSTER '{cluster}'
(
    `msg_json_str` String
)
ENGINE = Kafka('127.0.0.1:9092', 'demo.customers', 'clickhouse-customers', 'JSONAsString')
