-- The seed's target table (variant 1 and 2): a replicated replacing engine with version column
-- created_at and delete flag __deleted, ordered by id, created on a cluster. Embedded ClickHouse
-- runs it translated (no ON CLUSTER, ReplacingMergeTree, non_replicated_deduplication_window)
-- and shows both texts.
CREATE TABLE IF NOT EXISTS default.customers ON CLUSTER '{cluster}'
(
    `created_at` DateTime64,
    `id` Int64,
    `name` Nullable(String),
    `__deleted` UInt8
)
ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}', created_at, __deleted)
ORDER BY id
SETTINGS allow_experimental_replacing_merge_with_cleanup = 1
