/**
 * The CDC workbench's state and actions: the pipeline wizard (variant, editable configs and DDL,
 * each step's outcome), the source console (rows, SQL, the scenario player), the target views
 * (Raw, FINAL, after cleanup, parts, merges) and the connectors. Every host call goes through the
 * bridge; components read this store and render.
 */
import { create } from 'zustand';
import type { CdcConnectorStatus, CdcPipelineTemplate, CdcSqlErrorDetail, CdcStatementResult } from '../../../core/host/contract.js';
import { bridge, HostError } from '../../bridge.js';
import { SCENARIOS } from './scenarios.js';
import { useTarget } from './target-store.js';

export type Phase = 'idle' | 'running' | 'done' | 'error';

/** An error in the real system's words, plus a plain line with what to do. */
export interface Failure {
  system: 'MySQL' | 'Kafka Connect' | 'ClickHouse' | 'Loupe';
  text: string;
  hint?: string;
}

export interface WizardStep {
  label: string;
  system: Failure['system'];
  phase: Phase;
  detail?: string;
  error?: Failure;
}

export interface EditableTemplate {
  source: string;
  sink: string;
  statements: { label: string; sql: string }[];
}

const SOURCE = { database: 'demo', table: 'customers' };
/** Source rows read beyond each edge of what the grid shows. */
const SOURCE_PAD = 200;

export function failureOf(err: unknown, system: Failure['system']): Failure {
  if (err instanceof HostError) {
    const d = err.detail as Partial<CdcSqlErrorDetail> & { error_code?: number; code?: string } | undefined;
    if (system === 'MySQL' && d?.text) return { system, text: d.text, hint: mysqlHint(d.errno) };
    if (system === 'Kafka Connect' && d?.error_code !== undefined) return { system, text: JSON.stringify({ error_code: d.error_code, message: err.message }), hint: connectHint(d.error_code, err.message) };
    if (err.code === 'unavailable') return { system, text: err.message, hint: 'Start the service on the Services page, or point Settings at a running one.' };
    return { system, text: err.message, hint: system === 'ClickHouse' ? clickhouseHint(err.message) : undefined };
  }
  return { system, text: err instanceof Error ? err.message : String(err) };
}

function mysqlHint(errno?: number): string | undefined {
  if (errno === 1146) return 'The table does not exist in the source: check the name, or USE the right database (the demo table is demo.customers).';
  if (errno === 1062) return 'A row with that primary key exists: UPDATE it, or use INSERT … ON DUPLICATE KEY UPDATE.';
  if (errno === 1064) return 'The statement does not parse as MySQL; the text after "near" is where it stopped.';
  return undefined;
}

function connectHint(code: number, message: string): string | undefined {
  if (code === 409 && /already exists/.test(message)) return 'A connector of that name runs already: tear the pipeline down first, or rename it in the config.';
  if (code === 400) return 'Kafka Connect refused the configuration; the message names the setting.';
  return undefined;
}

function clickhouseHint(message: string): string | undefined {
  if (/Code: 57\./.test(message)) return 'The table exists already: tear the pipeline down first (it drops the target), or keep the table.';
  if (/Code: 60\./.test(message)) return 'The table does not exist: set up the pipeline first.';
  if (/Cancelled merging parts/.test(message)) return 'Merges are stopped on this table (SYSTEM STOP MERGES); OPTIMIZE needs them: turn "Pause merges" off, or run it from here, which resumes them for the cleanup.';
  if (/Code: 62\./.test(message)) return 'ClickHouse could not parse the statement; the position is given in the message.';
  return undefined;
}

function templateText(t: CdcPipelineTemplate): EditableTemplate {
  return {
    source: JSON.stringify(t.source, null, 2),
    sink: t.sink ? JSON.stringify(t.sink, null, 2) : '',
    statements: t.statements.map((s) => ({ ...s })),
  };
}

export interface CdcState {
  variant: 1 | 2;
  template: CdcPipelineTemplate | null;
  edited: EditableTemplate | null;
  templateError?: Failure;
  wizard: { phase: Phase; steps: WizardStep[] };
  /** The connectors, tables and views the last set-up created, newest first (what Tear down removes). */
  created: { connectors: string[]; objects: { name: string; view: boolean }[] } | null;

  /** A window of the source table around what the grid shows: rows from `offset`. */
  sourceRows: { phase: Phase; columns: string[]; rows: unknown[][]; total: number; offset: number; error?: Failure };
  sourceRange: [number, number];
  sql: string;
  sqlRun: { phase: Phase; results: CdcStatementResult[]; error?: Failure };

  player: { scenario: string; step: number; playing: boolean; error?: Failure };

  connectors: CdcConnectorStatus[];
  connectorsError?: Failure;

  setVariant(v: 1 | 2): Promise<void>;
  loadTemplate(): Promise<void>;
  editSource(text: string): void;
  editSink(text: string): void;
  editStatement(i: number, sql: string): void;
  setUp(): Promise<void>;
  tearDown(): Promise<void>;

  loadSource(): Promise<void>;
  setSourceRange(start: number, end: number): void;
  setSql(sql: string): void;
  runSql(sql?: string): Promise<boolean>;

  chooseScenario(id: string): void;
  step(): Promise<void>;
  play(): Promise<void>;
  pause(): void;

  loadConnectors(): Promise<void>;
  connectorAction(name: string, action: 'pause' | 'resume' | 'restart'): Promise<void>;
  refreshAll(): Promise<void>;
}

/** The newest source read wins: a slow answer after a newer one is dropped. */
let sourceSeq = 0;

export const useCdc = create<CdcState>((set, get) => ({
  variant: 1,
  template: null,
  edited: null,
  wizard: { phase: 'idle', steps: [] },
  created: null,
  sourceRows: { phase: 'idle', columns: [], rows: [], total: 0, offset: 0 },
  sourceRange: [0, 40],
  sql: "INSERT INTO customers (id, name) VALUES (42, 'Barbara');",
  sqlRun: { phase: 'idle', results: [] },
  player: { scenario: SCENARIOS[0]!.id, step: 0, playing: false },
  connectors: [],

  async setVariant(v) {
    set({ variant: v });
    await get().loadTemplate();
  },

  async loadTemplate() {
    try {
      const t = await bridge().invoke('cdc.pipelineTemplate', { variant: get().variant });
      set({ template: t, edited: templateText(t), templateError: undefined });
    } catch (err) {
      set({ templateError: failureOf(err, 'Loupe') });
    }
  },

  editSource: (text) => set((s) => ({ edited: s.edited && { ...s.edited, source: text } })),
  editSink: (text) => set((s) => ({ edited: s.edited && { ...s.edited, sink: text } })),
  editStatement: (i, sql) => set((s) => ({ edited: s.edited && { ...s.edited, statements: s.edited.statements.map((st, j) => (j === i ? { ...st, sql } : st)) } })),

  async setUp() {
    const { edited, template } = get();
    if (!edited || !template) return;
    const steps: WizardStep[] = [
      ...edited.statements.map((s): WizardStep => ({ label: s.label, system: 'ClickHouse', phase: 'idle' })),
      { label: 'Source connector', system: 'Kafka Connect', phase: 'idle' },
      ...(edited.sink ? [{ label: 'Sink connector', system: 'Kafka Connect', phase: 'idle' } as WizardStep] : []),
    ];
    const update = (i: number, patch: Partial<WizardStep>) => set((s) => ({ wizard: { ...s.wizard, steps: s.wizard.steps.map((st, j) => (j === i ? { ...st, ...patch } : st)) } }));
    set({ wizard: { phase: 'running', steps } });
    const created = { connectors: [] as string[], objects: [] as { name: string; view: boolean }[] };
    let i = 0;
    try {
      for (const st of edited.statements) {
        update(i, { phase: 'running' });
        try {
          const r = await bridge().invoke('cdc.targetSql', { sql: st.sql });
          // what the statement created, and whether it is a view (dropped with DROP VIEW)
          const made = /CREATE\s+(MATERIALIZED\s+VIEW|TABLE)\s+(?:IF\s+NOT\s+EXISTS\s+)?([\w.`]+)/i.exec(st.sql);
          if (made) created.objects.unshift({ name: made[2]!.replace(/`/g, ''), view: made[1]!.toUpperCase() !== 'TABLE' });
          update(i, { phase: 'done', detail: r.notice ? `Ran. Embedded ClickHouse: ${r.notice}` : 'Ran.' });
        } catch (err) {
          update(i, { phase: 'error', error: failureOf(err, 'ClickHouse') });
          throw err;
        }
        i++;
      }
      for (const [label, text] of [['source', edited.source], ['sink', edited.sink]] as const) {
        if (!text) continue;
        update(i, { phase: 'running' });
        let body: { name: string; config: Record<string, string> };
        try {
          body = JSON.parse(text) as { name: string; config: Record<string, string> };
        } catch (err) {
          update(i, { phase: 'error', error: { system: 'Loupe', text: `The ${label} config is not JSON: ${(err as Error).message}`, hint: 'Fix the JSON in the editor above; it must be {"name": …, "config": {…}} as POST /connectors takes it.' } });
          throw err;
        }
        try {
          const r = await bridge().invoke('cdc.createConnector', { name: body.name, config: body.config });
          created.connectors.push(r.name);
          update(i, { phase: 'done', detail: `POST /connectors → 201 Created: ${r.name} (${r.type || label})` });
        } catch (err) {
          update(i, { phase: 'error', error: failureOf(err, 'Kafka Connect') });
          throw err;
        }
        i++;
      }
      set((s) => ({ wizard: { ...s.wizard, phase: 'done' }, created }));
    } catch {
      set((s) => ({ wizard: { ...s.wizard, phase: 'error' }, created: created.connectors.length || created.objects.length ? created : s.created }));
    }
    void get().refreshAll();
  },

  async tearDown() {
    const created = get().created;
    const names = created?.connectors ?? get().connectors.map((c) => c.name);
    const objects = created?.objects ?? [];
    set({ wizard: { phase: 'running', steps: [] } });
    const steps: WizardStep[] = [];
    for (const name of names) {
      try {
        await bridge().invoke('cdc.connectorAction', { name, action: 'delete' });
        steps.push({ label: `Delete connector ${name}`, system: 'Kafka Connect', phase: 'done', detail: 'DELETE /connectors/' + name + ' → 204' });
      } catch (err) {
        steps.push({ label: `Delete connector ${name}`, system: 'Kafka Connect', phase: 'error', error: failureOf(err, 'Kafka Connect') });
      }
    }
    for (const { name: t, view } of objects) {
      try {
        await bridge().invoke('cdc.targetSql', { sql: `DROP ${view ? 'VIEW' : 'TABLE'} IF EXISTS ${t}` });
        steps.push({ label: `Drop ${t}`, system: 'ClickHouse', phase: 'done', detail: 'Dropped.' });
      } catch (err) {
        steps.push({ label: `Drop ${t}`, system: 'ClickHouse', phase: 'error', error: failureOf(err, 'ClickHouse') });
      }
    }
    set({ wizard: { phase: steps.some((s) => s.phase === 'error') ? 'error' : 'idle', steps }, created: null });
    useTarget.getState().reset();
    void get().refreshAll();
  },

  async loadSource() {
    set((s) => ({ sourceRows: { ...s.sourceRows, phase: 'running' } }));
    const [start, end] = get().sourceRange;
    const offset = Math.max(0, start - SOURCE_PAD);
    const mine = ++sourceSeq;
    try {
      const r = await bridge().invoke('cdc.sourceRows', { ...SOURCE, offset, limit: end - offset + SOURCE_PAD });
      if (mine !== sourceSeq) return;
      set({ sourceRows: { phase: 'done', columns: r.columns, rows: r.rows, total: r.total, offset } });
    } catch (err) {
      if (mine !== sourceSeq) return;
      set((s) => ({ sourceRows: { ...s.sourceRows, phase: 'error', error: failureOf(err, 'MySQL') } }));
    }
  },

  setSourceRange(start, end) {
    set({ sourceRange: [start, end] });
    const w = get().sourceRows;
    if (start >= w.offset && Math.min(end, w.total) <= w.offset + w.rows.length) return;
    void get().loadSource();
  },

  setSql: (sql) => set({ sql }),

  async runSql(sql) {
    const text = sql ?? get().sql;
    set((s) => ({ sqlRun: { ...s.sqlRun, phase: 'running' } }));
    try {
      const r = await bridge().invoke('cdc.sql', { database: SOURCE.database, sql: text });
      set({ sqlRun: { phase: 'done', results: r.results } });
      void get().loadSource();
      return true;
    } catch (err) {
      set({ sqlRun: { phase: 'error', results: [], error: failureOf(err, 'MySQL') } });
      return false;
    }
  },

  chooseScenario: (id) => set({ player: { scenario: id, step: 0, playing: false } }),

  async step() {
    const { player } = get();
    const sc = SCENARIOS.find((s) => s.id === player.scenario)!;
    if (player.step >= sc.steps.length) return;
    const ok = await get().runSql(sc.steps[player.step]);
    set((s) => ({ player: ok ? { ...s.player, step: s.player.step + 1 } : { ...s.player, playing: false, error: s.sqlRun.error } }));
  },

  async play() {
    const sc = SCENARIOS.find((s) => s.id === get().player.scenario)!;
    if (get().player.step >= sc.steps.length) set((s) => ({ player: { ...s.player, step: 0 } }));
    set((s) => ({ player: { ...s.player, playing: true, error: undefined } }));
    while (get().player.playing && get().player.step < sc.steps.length) {
      await get().step();
      // a pause between steps so each change lands in its own insert block, as a presenter wants
      if (sc.id !== 'burst') await new Promise((r) => setTimeout(r, 700));
    }
    set((s) => ({ player: { ...s.player, playing: false } }));
    void useTarget.getState().load();
  },

  pause: () => set((s) => ({ player: { ...s.player, playing: false } })),

  async loadConnectors() {
    try {
      const r = await bridge().invoke('cdc.connectors', {});
      set({ connectors: r.connectors, connectorsError: undefined });
    } catch (err) {
      set({ connectorsError: failureOf(err, 'Kafka Connect') });
    }
  },

  async connectorAction(name, action) {
    try {
      await bridge().invoke('cdc.connectorAction', { name, action });
    } catch (err) {
      set({ connectorsError: failureOf(err, 'Kafka Connect') });
    }
    await get().loadConnectors();
  },

  async refreshAll() {
    const target = useTarget.getState();
    await Promise.all([get().loadSource(), target.load().then(() => target.loadCompare()), get().loadConnectors()]);
  },
}));
