/**
 * A topic's messages as Kafka UI and Redpanda Console show them: partition and offset, key,
 * headers, the value as pretty JSON (a schema envelope's schema folded away), tombstones marked,
 * `__deleted: "true"` highlighted; follow mode keeps the newest on top.
 */
import { useMemo } from 'react';
import type { CdcMessage } from '../../../../core/host/contract.js';
import { useShallow } from 'zustand/react/shallow';
import { useStream } from '../stream-store.js';
import { FailureBox } from './FailureBox.js';
import { VirtualTable, type Column } from './VirtualTable.js';

const pretty = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));

function valueOf(m: CdcMessage): unknown {
  return m.payload !== undefined ? m.payload : (m.json ?? m.value);
}

const isDeleted = (m: CdcMessage) => {
  const v = valueOf(m) as Record<string, unknown> | null;
  return !!v && typeof v === 'object' && v.__deleted === 'true';
};

const columns: Column<CdcMessage>[] = [
  { id: 'partition', header: 'partition', numeric: true, cell: (m) => <code>{m.partition}</code> },
  { id: 'offset', header: 'offset', numeric: true, cell: (m) => <code>{m.offset}</code> },
  { id: 'time', header: 'time', cell: (m) => <span className="cdc-muted">{new Date(m.timestamp).toLocaleTimeString()}</span> },
  { id: 'key', header: 'key', cell: (m) => <code>{m.key ?? 'null'}</code> },
  {
    id: 'value',
    header: 'value',
    cell: (m) =>
      m.tombstone ? (
        <span className="cdc-badge cdc-badge-deleted">tombstone (null value)</span>
      ) : (
        <span title={m.payload !== undefined ? 'payload of {schema, payload}; the schema is folded away' : undefined}>
          {isDeleted(m) && <span className="cdc-badge cdc-badge-deleted">__deleted: "true"</span>} <code title={JSON.stringify(valueOf(m), (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x), 2)}>{pretty(valueOf(m))}</code>
        </span>
      ),
  },
  { id: 'headers', header: 'headers', cell: (m) => <code className="cdc-muted">{m.headers.length ? m.headers.map((h) => `${h.key}=${h.value ?? 'null'}`).join(' ') : '—'}</code> },
];

export function MessageStream() {
  const { topics, topic, partition, follow, messages, range, error } = useStream(
    useShallow((s) => ({ topics: s.topics, topic: s.topic, partition: s.partition, follow: s.follow, messages: s.messages, range: s.range, error: s.error })),
  );
  const st = useStream.getState();
  const visible = useMemo(() => topics.filter((t) => !t.internal), [topics]);
  const info = topics.find((t) => t.name === topic);
  return (
    <section className="panel cdc-stream" aria-labelledby="cdc-stream-title">
      <div className="cdc-panel-head">
        <h2 id="cdc-stream-title" className="section-title">
          Messages
        </h2>
        <label>
          Topic{' '}
          <select className="input" value={topic ?? ''} onChange={(e) => void st.choose(e.target.value)} disabled={visible.length === 0}>
            {visible.length === 0 && <option value="">no topic yet</option>}
            {visible.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name} ({t.messages.toLocaleString('en')})
              </option>
            ))}
          </select>
        </label>
        {info && info.partitions.length > 1 && (
          <label>
            Partition{' '}
            <select className="input" value={partition} onChange={(e) => void st.choose(info.name, Number(e.target.value))}>
              <option value={-1}>all ({info.partitions.length})</option>
              {info.partitions.map((p) => (
                <option key={p.partition} value={p.partition}>
                  {p.partition}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="cdc-switch">
          <input type="checkbox" role="switch" checked={follow} onChange={(e) => st.setFollow(e.target.checked)} /> Follow
        </label>
        <span className="cdc-spacer" />
        {range ? (
          <span className="cdc-muted">
            offsets {range.begin}–{range.end - 1}, newest first{messages.length < range.end - range.begin ? ` (last ${messages.length})` : ''}
          </span>
        ) : (
          messages.length > 0 && <span className="cdc-muted">{messages.length.toLocaleString('en')} messages of all partitions, newest first</span>
        )}
      </div>
      {error && <FailureBox failure={error} />}
      {visible.length === 0 && !error ? (
        <p className="cdc-muted">No topic yet: the source connector creates its topic with the first change it captures.</p>
      ) : (
        <VirtualTable label="Messages" rows={messages} columns={columns} rowKey={(m) => `${m.partition}:${m.offset}`} rowClass={(m) => (m.tombstone || isDeleted(m) ? 'cdc-deleted-msg' : undefined)} height={280} empty="No messages in this partition." />
      )}
    </section>
  );
}
