/**
 * The source console: the rows of demo.customers, SQL in (MySQL's errors out), a quick form for
 * one row, and the scenario player that runs canned change sequences step by step.
 */
import { useMemo, useState } from 'react';
import { useCdc } from '../store.js';
import { SCENARIOS } from '../scenarios.js';
import { FailureBox } from './FailureBox.js';
import { VirtualTable, type Column } from './VirtualTable.js';
import { SqlEditor } from './SqlEditor.js';
import { editorErrorSpot, useSqlEditor } from '../sql-editor-store.js';
import '../panels.css';

const cellText = (v: unknown) => (v === null || v === undefined ? 'NULL' : typeof v === 'object' ? JSON.stringify(v) : String(v));
const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

function QuickForm() {
  const [id, setId] = useState('42');
  const [name, setName] = useState('Barbara');
  const run = (sql: string) => void useCdc.getState().runSql(sql);
  const n = Number(id);
  const ok = id.trim() !== '' && Number.isInteger(n);
  return (
    <form className="cdc-quick" onSubmit={(e) => e.preventDefault()} aria-label="Change one row">
      <label>
        id <input className="input cdc-input-id" value={id} onChange={(e) => setId(e.target.value)} inputMode="numeric" />
      </label>
      <label>
        name <input className="input" value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <button type="button" className="btn btn-small" disabled={!ok} onClick={() => run(`INSERT INTO customers (id, name) VALUES (${n}, ${quote(name)})`)}>
        Insert
      </button>
      <button type="button" className="btn btn-small" disabled={!ok} onClick={() => run(`UPDATE customers SET name = ${quote(name)}, created_at = NOW() WHERE id = ${n}`)}>
        Update
      </button>
      <button type="button" className="btn btn-small" disabled={!ok} onClick={() => run(`DELETE FROM customers WHERE id = ${n}`)}>
        Delete
      </button>
    </form>
  );
}

function Player() {
  const player = useCdc((s) => s.player);
  const st = useCdc.getState();
  const sc = SCENARIOS.find((s) => s.id === player.scenario)!;
  const done = player.step >= sc.steps.length;
  return (
    <div className="cdc-player" aria-label="Scenario player" role="group">
      <label>
        Scenario{' '}
        <select className="input" value={player.scenario} disabled={player.playing} onChange={(e) => st.chooseScenario(e.target.value)}>
          {SCENARIOS.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title}
            </option>
          ))}
        </select>
      </label>
      {player.playing ? (
        <button type="button" className="btn btn-small" onClick={() => st.pause()}>
          Pause
        </button>
      ) : (
        <button type="button" className="btn btn-small btn-primary" onClick={() => void st.play()}>
          Play
        </button>
      )}
      <button type="button" className="btn btn-small" disabled={player.playing || done} onClick={() => void st.step()}>
        Step
      </button>
      <span className="cdc-muted" role="status">
        {done ? `Done: ${sc.steps.length} of ${sc.steps.length} steps` : `Step ${player.step} of ${sc.steps.length}`}
      </span>
      <progress max={sc.steps.length} value={player.step} aria-label="Scenario progress" />
      <p className="cdc-muted cdc-player-shows">Shows: {sc.shows}.</p>
      {!done && sc.id !== 'burst' && (
        <p className="cdc-next">
          Next: <code>{sc.steps[player.step]}</code>
        </p>
      )}
    </div>
  );
}

export function SourceConsole() {
  const { sourceRows, sql, sqlRun } = useCdc();
  const columns = useMemo<Column<unknown[]>[]>(() => sourceRows.columns.map((c, i) => ({ id: c, header: c, numeric: c === 'id', cell: (r) => <code>{cellText(r[i])}</code> })), [sourceRows.columns]);
  const ran = useSqlEditor((s) => s.ran);
  const marked = sqlRun.phase === 'error' ? editorErrorSpot(ran, sqlRun.error, sql) : null;
  const idIndex = sourceRows.columns.indexOf('id');
  return (
    <section className="panel cdc-source" aria-labelledby="cdc-source-title">
      <div className="cdc-panel-head">
        <h2 id="cdc-source-title" className="section-title">
          Source: demo.customers
        </h2>
        <span className="cdc-muted">{sourceRows.total.toLocaleString('en')} rows (embedded MySQL 8.0 source)</span>
      </div>
      <SqlEditor />
      <div className="cdc-row">
        <button type="button" className="btn btn-primary btn-small" disabled={sqlRun.phase === 'running'} onClick={() => void useSqlEditor.getState().run()}>
          Run SQL
        </button>
        <span className="cdc-muted">Ctrl+Enter runs. Statements run in database demo.</span>
      </div>
      {sqlRun.phase === 'error' && sqlRun.error && <FailureBox failure={sqlRun.error} note={marked ? `Marked in the editor at line ${marked.line}, column ${marked.startColumn}.` : undefined} />}
      {sqlRun.phase === 'done' && (
        <div role="status">
        <ul className="cdc-results" aria-label="Statement results">
          {sqlRun.results.map((r, i) => (
            <li key={i}>
              {r.kind === 'rows' ? `${r.rows.length} row${r.rows.length === 1 ? '' : 's'} in set` : `Query OK, ${r.affectedRows} row${r.affectedRows === 1 ? '' : 's'} affected`}
              {r.info ? ` (${r.info})` : ''}
              {r.position && (
                <span className="cdc-muted">
                  {' '}
                  · binlog {r.position.file}:{r.position.pos}
                </span>
              )}
            </li>
          ))}
        </ul>
        </div>
      )}
      <QuickForm />
      <Player />
      {sourceRows.phase === 'error' && sourceRows.error && <FailureBox failure={sourceRows.error} />}
      <VirtualTable
        label="Source rows"
        rows={sourceRows.rows}
        total={sourceRows.total}
        offset={sourceRows.offset}
        onRange={useCdc.getState().setSourceRange}
        columns={columns}
        rowKey={(r, i) => (idIndex >= 0 ? cellText(r[idIndex]) : String(i))}
        height={260}
        empty={sourceRows.phase === 'running' ? 'Loading…' : 'The table is empty.'}
      />
    </section>
  );
}
