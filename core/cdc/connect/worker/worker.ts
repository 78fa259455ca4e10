/**
 * The Connect worker (a standalone herder): connector configs and target states persisted under
 * the data dir, tasks run in-process, statuses with traces, offsets (source offsets in the log's
 * connect-offsets topic, sink offsets as consumer-group offsets). It knows nothing about HTTP:
 * the REST layer maps these calls and ConnectErrors to Kafka Connect's wire shapes.
 */
import path from 'node:path';
import fs from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { readJsonOrBackup, writeFileAtomicSync } from '../../../common/json-store.js';
import type { Logger } from '../../../common/log.js';
import type { TopicLog } from '../../log/types.js';
import { CONVERTER_CLASSES } from '../converters/index.js';
import { ConnectError, connectErrors } from '../errors.js';
import type { ConfigKeyDef, ConnectorConfig, ConnectorPlugin, ValidationErrors, WorkerServices } from '../plugin.js';
import { findPredicate, findTransform, predicateAliases, TRANSFORM_PLUGINS, transformAliases } from '../transforms/index.js';
import { COMMON_DEFS, SINK_DEFS, SOURCE_DEFS, validateCommon } from './connector-config.js';
import { OffsetStore } from './offset-store.js';
import { LINEAGE_KEEP, Recent } from './recent.js';
import { runsInThread, ThreadSinkRunner } from './sink-thread.js';
import { SinkRunner, SourceRunner, type DeliveryTrace, type TaskProgress, type TaskState, type WriteTrace } from './task-runner.js';

export type { DeliveryTrace, WriteTrace } from './task-runner.js';

export const KAFKA_VERSION = '3.9.0';

export type TargetState = 'STARTED' | 'PAUSED' | 'STOPPED';
export type ConnectorState = 'UNASSIGNED' | 'RUNNING' | 'PAUSED' | 'FAILED' | 'RESTARTING' | 'STOPPED';

export interface ConnectorInfo {
  name: string;
  config: ConnectorConfig;
  tasks: { connector: string; task: number }[];
  type: 'source' | 'sink';
}

export interface StateInfo {
  state: string;
  worker_id: string;
  trace?: string;
}

export interface ConnectorStatus {
  name: string;
  connector: StateInfo;
  tasks: (StateInfo & { id: number })[];
  type: 'source' | 'sink';
}

export interface ConfigInfos {
  name: string;
  error_count: number;
  groups: string[];
  configs: { definition: Omit<ConfigKeyDef, 'recommended'>; value: { name: string; value: string | null; recommended_values: string[]; errors: string[]; visible: boolean } }[];
}

export interface ConnectorOffsets {
  offsets: { partition: Record<string, unknown>; offset: Record<string, unknown> | null }[];
}

export type WorkerEvent =
  | { type: 'state'; connector: string; task: number | null; state: string; trace?: string }
  | ({ type: 'progress' } & TaskProgress)
  | { type: 'config'; connector: string; change: 'created' | 'updated' | 'deleted' };

interface Stored {
  config: ConnectorConfig;
  target: TargetState;
  topics: string[];
  created: number;
}

interface Runtime {
  name: string;
  plugin: ConnectorPlugin;
  stored: Stored;
  state: ConnectorState;
  trace?: string;
  taskConfigs: ConnectorConfig[];
  runners: (SourceRunner | SinkRunner | ThreadSinkRunner)[];
  /** Task state shown while a restart is pending. */
  restarting: Set<number>;
  /** What the plugin warns of beside the other connectors (ConnectorPlugin.warnings), shown in its running tasks' status. */
  warnings?: string[];
}

export interface WorkerOptions {
  dataDir: string;
  log: Logger;
  topicLog: TopicLog;
  plugins: ConnectorPlugin[];
  /** host:port shown as worker_id. */
  workerId: string;
  peers: Record<string, string | undefined>;
  resources: Record<string, unknown>;
  now?: () => number;
  /**
   * Run each task of the worker's own sink plugins on a thread of its own, as Kafka Connect does
   * (sink-thread.ts); otherwise all tasks share the event loop. Not with a test clock (`now`).
   */
  sinkThreads?: boolean;
}

export class Worker {
  private readonly runtimes = new Map<string, Runtime>();
  private readonly offsets: OffsetStore;
  private readonly listeners = new Set<(e: WorkerEvent) => void>();
  private readonly file: string;
  private clusterId = '';
  private readonly writes = new Recent<WriteTrace>(LINEAGE_KEEP);
  private readonly deliveries = new Recent<DeliveryTrace>(LINEAGE_KEEP);
  private closed = false;
  /** The last refreshWarnings run, so that runs do not overlap. */
  private warningsDone: Promise<void> = Promise.resolve();

  private constructor(private readonly opts: WorkerOptions) {
    this.offsets = new OffsetStore(opts.topicLog);
    this.file = path.join(opts.dataDir, 'connectors.json');
  }

  /** Loads persisted connectors and starts them in their target state. */
  static async start(opts: WorkerOptions): Promise<Worker> {
    const w = new Worker(opts);
    await w.offsets.load();
    const idFile = path.join(opts.dataDir, 'cluster-id');
    if (fs.existsSync(idFile)) w.clusterId = fs.readFileSync(idFile, 'utf8').trim();
    else {
      w.clusterId = randomBytes(16).toString('base64url').slice(0, 22);
      writeFileAtomicSync(idFile, w.clusterId + '\n');
    }
    const stored = readJsonOrBackup<Record<string, Stored>>(w.file);
    if (stored.kind === 'corrupt') opts.log.error('connectors.json was corrupt; kept a backup', { backup: stored.backup });
    if (stored.kind === 'ok') {
      for (const [name, s] of Object.entries(stored.value)) {
        const plugin = w.findPlugin(s.config['connector.class'] ?? '');
        if (!plugin) {
          opts.log.error('a stored connector names a plugin this worker does not have', { connector: name, class: s.config['connector.class'] });
          continue;
        }
        const rt: Runtime = { name, plugin, stored: s, state: 'UNASSIGNED', taskConfigs: [], runners: [], restarting: new Set() };
        w.runtimes.set(name, rt);
        w.startConnector(rt);
      }
    }
    return w;
  }

  onEvent(listener: (e: WorkerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ------------------------------------------------------------------------------ metadata

  serverInfo(): { version: string; commit: string; kafka_cluster_id: string } {
    return { version: KAFKA_VERSION, commit: createHash('sha1').update(`loupe-connect-${KAFKA_VERSION}`).digest('hex').slice(0, 16), kafka_cluster_id: this.clusterId };
  }

  /**
   * ConnectorPluginsResource's list: sinks, sources, transformations, converters, then header
   * converters, each a SortedSet ordered by class name. JsonConverter and StringConverter are
   * HeaderConverters too, so they appear twice.
   */
  plugins(connectorsOnly = true): { class: string; type: string; version?: string }[] {
    type Info = { class: string; type: string; version?: string };
    const byClass = (a: Info, b: Info) => (a.class < b.class ? -1 : a.class > b.class ? 1 : 0);
    const connectors = (type: string): Info[] => this.opts.plugins.filter((p) => p.type === type).map((p) => ({ class: p.class, type: p.type, version: p.version }));
    const out = [...connectors('sink').sort(byClass), ...connectors('source').sort(byClass)];
    if (!connectorsOnly) {
      out.push(...TRANSFORM_PLUGINS.map((t) => ({ class: t.class, type: 'transformation', version: t.version })).sort(byClass));
      for (const type of ['converter', 'header_converter']) out.push(...CONVERTER_CLASSES.map((c) => ({ class: c, type, version: KAFKA_VERSION })).sort(byClass));
    }
    return out;
  }

  findPlugin(cls: string): ConnectorPlugin | undefined {
    const n = cls.trim();
    return this.opts.plugins.find((p) => p.class === n || p.class.split('.').pop() === n || p.aliases?.includes(n));
  }

  /** GET /connector-plugins/{plugin}/config */
  pluginConfig(cls: string): Omit<ConfigKeyDef, 'recommended'>[] {
    const p = this.findPlugin(cls);
    if (p) {
      // AbstractHerder.connectorPluginConfig: the plugin's own keys, then those of
      // Source/SinkConnectorConfig it does not define itself.
      const defs = new Map(p.configDefs.map((d) => [d.name, d]));
      for (const d of [...COMMON_DEFS, ...(p.type === 'source' ? SOURCE_DEFS : SINK_DEFS)]) if (!defs.has(d.name)) defs.set(d.name, d);
      return [...defs.values()].map(stripRecommended);
    }
    const t = findTransform(cls);
    if (t) return t.configDefs.map(stripRecommended);
    throw new ConnectError(404, `Unknown plugin ${cls}.`);
  }

  // ------------------------------------------------------------------------------ connectors

  connectors(): string[] {
    return [...this.runtimes.keys()].sort();
  }

  connectorInfo(name: string): ConnectorInfo {
    const rt = this.require(name);
    return { name, config: { ...rt.stored.config }, tasks: rt.taskConfigs.map((_, i) => ({ connector: name, task: i })), type: rt.plugin.type };
  }

  connectorConfig(name: string): ConnectorConfig {
    return { ...this.require(name).stored.config };
  }

  /**
   * Creates or replaces a connector (POST /connectors, PUT …/config). Validation errors become
   * a 400 listing them, as Kafka Connect's herder does.
   */
  async putConnectorConfig(name: string, config: ConnectorConfig, opts: { allowReplace: boolean; initialState?: 'RUNNING' | 'PAUSED' | 'STOPPED' }): Promise<{ created: boolean; info: ConnectorInfo }> {
    // StandaloneHerder validates first and only then looks for an existing connector, so an
    // invalid config for a taken name is a 400, not a 409.
    const infos = await this.validate(config);
    const existing = this.runtimes.get(name);
    if (infos.error_count > 0) {
      const msgs = infos.configs.flatMap((c) => c.value.errors);
      throw connectErrors.badRequest(
        `Connector configuration is invalid and contains the following ${infos.error_count} error(s):\n${msgs.join('\n')}\nYou can also find the above list of errors at the endpoint \`/connector-plugins/{connectorType}/config/validate\``,
      );
    }
    if (existing && !opts.allowReplace) throw connectErrors.alreadyExists(name);
    const plugin = this.findPlugin(config['connector.class']!)!;
    if (existing) {
      await this.stopTasks(existing);
      existing.plugin = plugin;
      existing.stored.config = { ...config };
      this.save();
      this.startConnector(existing);
      this.emit({ type: 'config', connector: name, change: 'updated' });
      return { created: false, info: this.connectorInfo(name) };
    }
    const target: TargetState = opts.initialState === 'PAUSED' ? 'PAUSED' : opts.initialState === 'STOPPED' ? 'STOPPED' : 'STARTED';
    const rt: Runtime = { name, plugin, stored: { config: { ...config }, target, topics: [], created: this.now() }, state: 'UNASSIGNED', taskConfigs: [], runners: [], restarting: new Set() };
    this.runtimes.set(name, rt);
    this.save();
    this.startConnector(rt);
    this.emit({ type: 'config', connector: name, change: 'created' });
    return { created: true, info: this.connectorInfo(name) };
  }

  /**
   * PATCH …/config: non-null values set, null values remove (ConnectUtils.patchConfig). The
   * herder checks nothing else: a patched `name` is stored as sent, as StandaloneHerder does.
   */
  async patchConnectorConfig(name: string, patch: Record<string, string | null> | null): Promise<ConnectorInfo> {
    const rt = this.require(name);
    if (patch === null) throw connectErrors.internal('Cannot invoke "java.util.Map.forEach(java.util.function.BiConsumer)" because "patch" is null');
    const next: ConnectorConfig = { ...rt.stored.config };
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) delete next[k];
      else next[k] = v;
    }
    return (await this.putConnectorConfig(name, next, { allowReplace: true })).info;
  }

  async deleteConnector(name: string): Promise<void> {
    const rt = this.require(name);
    this.runtimes.delete(name);
    await this.stopTasks(rt);
    this.save();
    this.refreshWarnings();
    this.emit({ type: 'config', connector: name, change: 'deleted' });
  }

  status(name: string): ConnectorStatus {
    const rt = this.runtimes.get(name);
    if (!rt) throw new ConnectError(404, `No status found for connector ${name}`);
    const wid = this.opts.workerId;
    const conn: StateInfo = { state: rt.state, worker_id: wid };
    if (rt.trace && rt.state === 'FAILED') conn.trace = rt.trace;
    const tasks = rt.stored.target === 'STOPPED' && !rt.runners.length ? [] : rt.taskConfigs.map((_, i) => this.taskStatusOf(rt, i));
    return { name, connector: conn, tasks, type: rt.plugin.type };
  }

  taskStatus(name: string, id: number): StateInfo & { id: number } {
    const rt = this.runtimes.get(name);
    if (!rt || !Number.isInteger(id) || id < 0 || id >= rt.taskConfigs.length) throw new ConnectError(404, `No status found for task ${name}-${id}`);
    return this.taskStatusOf(rt, id);
  }

  taskConfigs(name: string): { id: { connector: string; task: number }; config: ConnectorConfig }[] {
    const rt = this.require(name);
    return rt.taskConfigs.map((config, task) => ({ id: { connector: name, task }, config: { ...config } }));
  }

  pause(name: string): void {
    const rt = this.runtimes.get(name);
    if (!rt) throw new ConnectError(404, `Unknown connector ${name}`);
    if (rt.stored.target === 'PAUSED') return;
    const wasStopped = rt.stored.target === 'STOPPED';
    rt.stored.target = 'PAUSED';
    this.save();
    if (wasStopped) this.startConnector(rt);
    else {
      for (const r of rt.runners) r.pause();
      if (rt.state === 'RUNNING') this.setConnectorState(rt, 'PAUSED');
    }
  }

  resume(name: string): void {
    const rt = this.runtimes.get(name);
    if (!rt) throw new ConnectError(404, `Unknown connector ${name}`);
    if (rt.stored.target === 'STARTED') return;
    const wasStopped = rt.stored.target === 'STOPPED';
    rt.stored.target = 'STARTED';
    this.save();
    if (wasStopped) this.startConnector(rt);
    else {
      for (const r of rt.runners) r.resume();
      if (rt.state === 'PAUSED') this.setConnectorState(rt, 'RUNNING');
    }
  }

  /** PUT …/stop: tasks shut down and their configs dropped; offsets can then be changed. */
  async stop(name: string): Promise<void> {
    const rt = this.runtimes.get(name);
    // StandaloneHerder.stopConnector has no existence check: MemoryConfigBackingStore.putTargetState
    // throws an IllegalArgumentException, which the REST layer answers with a 500.
    if (!rt) throw connectErrors.internal(`No connector \`${name}\` configured`);
    rt.stored.target = 'STOPPED';
    this.save();
    await this.stopTasks(rt);
    rt.taskConfigs = [];
    this.setConnectorState(rt, 'STOPPED');
  }

  /**
   * POST …/restart. Without flags only the Connector instance restarts (204 upstream). With
   * includeTasks/onlyFailed the returned status shows RESTARTING for what will restart (202).
   */
  async restart(name: string, includeTasks: boolean, onlyFailed: boolean): Promise<ConnectorStatus | undefined> {
    const rt = this.runtimes.get(name);
    if (!rt) throw includeTasks || onlyFailed ? new ConnectError(404, `Unknown connector: ${name}`) : connectErrors.notFound(name);
    if (!includeTasks && !onlyFailed) {
      await this.restartConnectorOnly(rt);
      return undefined;
    }
    const restartConnector = !onlyFailed || rt.state === 'FAILED';
    const tasks = includeTasks ? rt.runners.map((r, i) => ({ r, i })).filter(({ r }) => !onlyFailed || r.state === 'FAILED').map(({ i }) => i) : [];
    if (restartConnector) rt.state = 'RESTARTING';
    for (const i of tasks) rt.restarting.add(i);
    const status = this.status(name);
    void (async () => {
      if (restartConnector && !includeTasks) await this.restartConnectorOnly(rt);
      else if (restartConnector && tasks.length === rt.runners.length) {
        await this.stopTasks(rt);
        this.startConnector(rt);
      } else {
        if (restartConnector) this.setConnectorState(rt, rt.stored.target === 'PAUSED' ? 'PAUSED' : 'RUNNING');
        for (const i of tasks) await this.restartTaskRuntime(rt, i);
      }
      rt.restarting.clear();
    })().catch((err) => this.opts.log.error('restart failed', { connector: name, error: (err as Error).message }));
    return status;
  }

  async restartTask(name: string, id: number): Promise<void> {
    const rt = this.require(name);
    if (!Number.isInteger(id) || id < 0 || id >= rt.runners.length) throw new ConnectError(404, `Task ${name}-${id} not found`);
    await this.restartTaskRuntime(rt, id);
  }

  /** Kafka Connect answers an unknown connector with an empty list here, not a 404. */
  activeTopics(name: string): { [connector: string]: { topics: string[] } } {
    const rt = this.runtimes.get(name);
    return { [name]: { topics: rt ? [...rt.stored.topics].sort() : [] } };
  }

  resetActiveTopics(name: string): void {
    const rt = this.runtimes.get(name);
    if (!rt) return;
    rt.stored.topics = [];
    this.save();
  }

  // --------------------------------------------------------------------------------- offsets

  async getOffsets(name: string): Promise<ConnectorOffsets> {
    const rt = this.require(name);
    if (rt.plugin.type === 'source') return { offsets: this.offsets.list(name) };
    const committed = await this.opts.topicLog.committedOffsets(this.groupOf(rt));
    return {
      offsets: committed
        .sort((a, b) => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1))
        .map((o) => ({ partition: { kafka_topic: o.topic, kafka_partition: o.partition }, offset: { kafka_offset: o.offset } })),
    };
  }

  async alterOffsets(name: string, body: unknown): Promise<{ message: string }> {
    const rt = this.require(name);
    const list = (body as ConnectorOffsets | null)?.offsets;
    if (!Array.isArray(list) || list.length === 0) throw connectErrors.badRequest('Partitions / offsets need to be provided for an alter offsets request');
    this.requireStopped(rt);
    if (rt.plugin.type === 'source') {
      for (const o of list) if (!o || typeof o.partition !== 'object' || o.partition === null) throw connectErrors.badRequest('Source partitions may not be null');
      await this.offsets.write(name, list.map((o) => ({ partition: o.partition, offset: o.offset ?? null })));
    } else {
      const group = this.groupOf(rt);
      const current = new Map((await this.opts.topicLog.committedOffsets(group)).map((o) => [`${o.topic}:${o.partition}`, o]));
      for (const o of list) {
        const p = o?.partition as { kafka_topic?: unknown; kafka_partition?: unknown } | null;
        if (!p || typeof p !== 'object') throw connectErrors.badRequest('The partition for a sink connector offset cannot be null or missing');
        if (!('kafka_topic' in p) || !('kafka_partition' in p)) throw connectErrors.badRequest("The partition for a sink connector offset must contain the keys 'kafka_topic' and 'kafka_partition'");
        if (typeof p.kafka_topic !== 'string') throw connectErrors.badRequest("Kafka topic names must be valid strings, but found " + JSON.stringify(p.kafka_topic));
        const part = Number(p.kafka_partition);
        if (!Number.isInteger(part)) throw connectErrors.badRequest('Failed to parse the following Kafka partition value in the provided offsets: ' + JSON.stringify(p.kafka_partition) + '. Partition values for sink connectors need to be integers.');
        const key = `${p.kafka_topic}:${part}`;
        if (o.offset === null || o.offset === undefined) current.delete(key);
        else {
          const off = (o.offset as { kafka_offset?: unknown }).kafka_offset;
          if (off === undefined) throw connectErrors.badRequest("The offset for a sink connector should either be null or contain the key 'kafka_offset'");
          const n = Number(off);
          if (!Number.isInteger(n) || n < 0) throw connectErrors.badRequest('Failed to parse the following Kafka offset value in the provided offsets: ' + JSON.stringify(off) + '. Offset values for sink connectors need to be integers.');
          current.set(key, { topic: p.kafka_topic, partition: part, offset: n });
        }
      }
      await this.opts.topicLog.deleteGroup(group);
      if (current.size) await this.opts.topicLog.commitOffsets(group, [...current.values()]);
    }
    return modifiedOffsetsMessage('altered');
  }

  async resetOffsets(name: string): Promise<{ message: string }> {
    const rt = this.require(name);
    this.requireStopped(rt);
    if (rt.plugin.type === 'source') await this.offsets.write(name, this.offsets.list(name).map((o) => ({ partition: o.partition, offset: null })));
    else await this.opts.topicLog.deleteGroup(this.groupOf(rt));
    return modifiedOffsetsMessage('reset');
  }

  // ------------------------------------------------------------------------------ validation

  /** PUT /connector-plugins/{c}/config/validate and the check before create/update. */
  async validate(config: ConnectorConfig): Promise<ConfigInfos> {
    const cls = config['connector.class'];
    if (cls === undefined) throw connectErrors.badRequest(`Connector config ${javaMap(config)} contains no connector type`);
    const plugin = this.findPlugin(cls);
    // Plugins.connectorClass throws a plain ConnectException: a 500, not a 400.
    if (!plugin) {
      throw connectErrors.internal(
        `Failed to find any class that implements Connector and which name matches ${cls}, available connectors are: ${this.opts.plugins.map((p) => `PluginDesc{klass=class ${p.class}, name='${p.class}', version='${p.version}', encodedVersion=${p.version}, type=${p.type}, typeName='${p.type}', location='classpath'}`).join(', ')}`,
      );
    }
    const errors: ValidationErrors = {};
    const merge = (e: ValidationErrors) => {
      for (const [k, v] of Object.entries(e)) if (v.length) (errors[k] ??= []).push(...v);
    };
    const name = config.name;
    const nameError = name === undefined || name === null ? undefined : nonEmptyStringWithoutControlChars('name', name);
    if (nameError) merge({ name: [nameError] });
    merge(validateCommon(config, plugin.type));
    const services = this.services(name ?? 'validate');
    merge(await plugin.validate(config, services));
    for (const [k, v] of Object.entries(config)) if (v === null) merge({ [k]: ['Null value can not be supplied as the configuration value.'] });

    const defs: ConfigKeyDef[] = [...COMMON_DEFS, ...(plugin.type === 'source' ? SOURCE_DEFS : SINK_DEFS)];
    // ConnectorConfig.enrich: per alias its type, then (transforms) the implicit predicate and
    // negate keys, then the plugin's own keys, all in the group "<Kind>: <alias>"
    const typeDef = (kind: 'transforms' | 'predicates', alias: string): ConfigKeyDef => ({
      ...COMMON_DEFS[0]!,
      name: `${kind}.${alias}.type`,
      type: 'CLASS',
      required: true,
      default_value: null,
      importance: 'HIGH',
      documentation: `Class for the '${alias}' ${kind === 'transforms' ? 'transformation' : 'predicate'}.`,
      group: `${kind === 'transforms' ? 'Transforms' : 'Predicates'}: ${alias}`,
      order: 0,
      width: 'LONG',
      display_name: `${kind === 'transforms' ? 'Transformation' : 'Predicate'} type for ${alias}`,
    });
    for (const alias of transformAliases(config)) {
      const group = `Transforms: ${alias}`;
      defs.push(typeDef('transforms', alias));
      defs.push(
        { ...typeDef('transforms', alias), name: `transforms.${alias}.predicate`, type: 'STRING', required: false, importance: 'MEDIUM', documentation: 'The alias of a predicate used to determine whether to apply this transformation.', order: 1, width: 'NONE', display_name: 'predicate' },
        { ...typeDef('transforms', alias), name: `transforms.${alias}.negate`, type: 'BOOLEAN', required: false, default_value: 'false', importance: 'MEDIUM', documentation: 'Whether the configured predicate should be negated.', order: 2, width: 'NONE', display_name: 'negate' },
      );
      const t = findTransform(config[`transforms.${alias}.type`] ?? '');
      for (const td of t?.configDefs ?? []) if (td.name !== 'predicate' && td.name !== 'negate') defs.push({ ...td, name: `transforms.${alias}.${td.name}`, group });
    }
    for (const alias of predicateAliases(config)) {
      defs.push(typeDef('predicates', alias));
      const p = findPredicate(config[`predicates.${alias}.type`] ?? '');
      for (const pd of p?.configDefs ?? []) defs.push({ ...pd, name: `predicates.${alias}.${pd.name}`, group: `Predicates: ${alias}` });
    }
    defs.push(...plugin.configDefs);
    const seen = new Set<string>();
    const configs: ConfigInfos['configs'] = [];
    for (const def of defs) {
      if (seen.has(def.name)) continue;
      seen.add(def.name);
      configs.push(this.configInfo(def, config, errors[def.name] ?? []));
    }
    for (const [k, msgs] of Object.entries(errors)) {
      if (seen.has(k)) continue;
      seen.add(k);
      configs.push({ definition: { name: k, type: 'STRING', required: false, default_value: null, importance: 'LOW', documentation: '', group: null, width: 'NONE', display_name: k, dependents: [], order: -1 }, value: { name: k, value: config[k] ?? null, recommended_values: [], errors: msgs, visible: true } });
    }
    const groups = [...new Set(defs.map((d) => d.group).filter((g): g is string => !!g))];
    // AbstractHerder names the result after connector.class as given (an alias stays an alias).
    return { name: cls, error_count: configs.reduce((n, c) => n + c.value.errors.length, 0), groups, configs };
  }

  /** Recent source writes and sink deliveries (in memory, newest last) for the pipeline view. */
  lineage(): { writes: readonly WriteTrace[]; deliveries: readonly DeliveryTrace[] } {
    return { writes: this.writes.list(), deliveries: this.deliveries.list() };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.runtimes.values()].map((rt) => this.stopTasks(rt)));
    this.listeners.clear();
  }

  // ------------------------------------------------------------------------------ internals

  private configInfo(def: ConfigKeyDef, config: ConnectorConfig, errors: string[]): ConfigInfos['configs'][number] {
    const raw = config[def.name];
    const value = raw === undefined ? def.default_value : def.type === 'PASSWORD' ? '[hidden]' : raw;
    return { definition: stripRecommended(def), value: { name: def.name, value, recommended_values: def.recommended ? [...def.recommended] : [], errors, visible: true } };
  }

  private taskStatusOf(rt: Runtime, i: number): StateInfo & { id: number } {
    const r = rt.runners[i];
    const state: TaskState | 'RESTARTING' = rt.restarting.has(i) ? 'RESTARTING' : r ? r.state : 'UNASSIGNED';
    const out: StateInfo & { id: number } = { id: i, state, worker_id: this.opts.workerId };
    if (r?.trace && state === 'FAILED') out.trace = r.trace;
    // Loupe's own: a running task's trace carries the warnings its connector has beside others
    else if (rt.warnings?.length && state !== 'FAILED') out.trace = rt.warnings.join('\n');
    return out;
  }

  private require(name: string): Runtime {
    const rt = this.runtimes.get(name);
    if (!rt) throw connectErrors.notFound(name);
    return rt;
  }

  private requireStopped(rt: Runtime): void {
    if (rt.stored.target !== 'STOPPED' || rt.runners.length) {
      throw connectErrors.badRequest(
        `Connectors must be in the STOPPED state before their offsets can be modified. This can be done for the specified connector by issuing a 'PUT' request to the '/connectors/${rt.name}/stop' endpoint`,
      );
    }
  }

  private groupOf(rt: Runtime): string {
    return rt.stored.config['consumer.override.group.id'] ?? `connect-${rt.name}`;
  }

  private services(connector: string): WorkerServices {
    const dir = path.join(this.opts.dataDir, 'connectors', connector.replace(/[^A-Za-z0-9._-]/g, '_'));
    return {
      log: this.opts.log.child(connector),
      get dataDir() {
        fs.mkdirSync(dir, { recursive: true });
        return dir;
      },
      peers: this.opts.peers,
      now: () => this.now(),
      resource: <T>(n: string) => (n === 'topicLog' ? (this.opts.topicLog as T) : (this.opts.resources[n] as T | undefined)),
    };
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /** Starts the Connector (task configs) and its tasks according to the target state. */
  private startConnector(rt: Runtime): void {
    if (rt.stored.target === 'STOPPED') {
      rt.taskConfigs = [];
      this.setConnectorState(rt, 'STOPPED');
      return;
    }
    try {
      const maxTasks = Math.max(1, Number(rt.stored.config['tasks.max'] ?? 1) || 1);
      rt.taskConfigs = rt.plugin.taskConfigs(rt.stored.config, maxTasks).slice(0, maxTasks);
    } catch (err) {
      rt.taskConfigs = [];
      rt.trace = `org.apache.kafka.connect.errors.ConnectException: ${(err as Error).message}`;
      this.setConnectorState(rt, 'FAILED', rt.trace);
      return;
    }
    rt.runners = rt.taskConfigs.map((tc, i) => this.makeRunner(rt, i, tc));
    this.setConnectorState(rt, rt.stored.target === 'PAUSED' ? 'PAUSED' : 'RUNNING');
    for (const r of rt.runners) r.start(rt.stored.target === 'PAUSED');
    this.refreshWarnings();
  }

  /**
   * Recomputes every connector's warnings beside the others of its plugin (ConnectorPlugin.warnings)
   * and logs those that are new. Run when connectors start, go or take a new topic.
   */
  private refreshWarnings(): void {
    const run = async () => {
      const live = [...this.runtimes.values()].filter((rt) => rt.stored.target !== 'STOPPED' && rt.plugin.warnings);
      const partitions = new Map<string, number>();
      for (const rt of live) {
        for (const t of [...rt.stored.topics, ...(rt.stored.config.topics ?? '').split(',').map((x) => x.trim()).filter(Boolean)]) {
          if (!partitions.has(t)) partitions.set(t, (await this.opts.topicLog.describeTopic(t).catch(() => undefined))?.partitions.length ?? 1);
        }
      }
      const peers = (rt: Runtime) => ({ name: rt.name, config: rt.stored.config, topics: rt.stored.topics });
      for (const rt of this.runtimes.values()) {
        const before = new Set(rt.warnings ?? []);
        const same = live.filter((o) => o.plugin === rt.plugin);
        rt.warnings = live.includes(rt) ? rt.plugin.warnings!(peers(rt), same.map(peers), (t) => partitions.get(t) ?? 1) : [];
        for (const w of rt.warnings) if (!before.has(w)) this.opts.log.warn(`connector ${rt.name}: ${w}`);
      }
    };
    this.warningsDone = this.warningsDone.then(run).catch((err: unknown) => this.opts.log.error('could not check the connectors against each other', { error: (err as Error).message }));
  }

  private makeRunner(rt: Runtime, i: number, tc: ConnectorConfig): SourceRunner | SinkRunner | ThreadSinkRunner {
    const hooks = {
      onState: (state: TaskState, trace?: string) => this.emit({ type: 'state', connector: rt.name, task: i, state, ...(trace ? { trace } : {}) }),
      onProgress: (p: TaskProgress) => this.emit({ type: 'progress', ...p }),
      onWrite: (t: WriteTrace[]) => this.writes.add(t),
      onDeliver: (t: DeliveryTrace[]) => this.deliveries.add(t),
      onTopic: (topic: string) => {
        if (!rt.stored.topics.includes(topic)) {
          rt.stored.topics.push(topic);
          if (this.runtimes.get(rt.name) === rt) this.save();
          this.refreshWarnings();
        }
      },
    };
    const services = this.services(rt.name);
    if (rt.plugin.type === 'source') return new SourceRunner(rt.name, i, tc, this.opts.topicLog, services, hooks, rt.plugin, this.offsets, rt.stored.config);
    if (this.opts.sinkThreads && !this.opts.now && runsInThread(rt.plugin)) return new ThreadSinkRunner(rt.name, i, tc, this.opts.topicLog, services, hooks, rt.plugin, rt.stored.config, rt.taskConfigs.length);
    return new SinkRunner(rt.name, i, tc, this.opts.topicLog, services, hooks, rt.plugin, rt.stored.config, rt.taskConfigs.length);
  }

  private async stopTasks(rt: Runtime): Promise<void> {
    const runners = rt.runners;
    rt.runners = [];
    await Promise.all(runners.map((r) => r.stop()));
  }

  private async restartConnectorOnly(rt: Runtime): Promise<void> {
    this.setConnectorState(rt, 'RESTARTING');
    const maxTasks = Math.max(1, Number(rt.stored.config['tasks.max'] ?? 1) || 1);
    let next: ConnectorConfig[];
    try {
      next = rt.plugin.taskConfigs(rt.stored.config, maxTasks).slice(0, maxTasks);
    } catch (err) {
      rt.trace = `org.apache.kafka.connect.errors.ConnectException: ${(err as Error).message}`;
      this.setConnectorState(rt, 'FAILED', rt.trace);
      return;
    }
    if (JSON.stringify(next) !== JSON.stringify(rt.taskConfigs) || rt.runners.length !== next.length) {
      await this.stopTasks(rt);
      if (this.closed || this.runtimes.get(rt.name) !== rt) return;
      this.startConnector(rt);
    } else this.setConnectorState(rt, rt.stored.target === 'STOPPED' ? 'STOPPED' : rt.stored.target === 'PAUSED' ? 'PAUSED' : 'RUNNING');
  }

  private async restartTaskRuntime(rt: Runtime, i: number): Promise<void> {
    const old = rt.runners[i];
    if (!old) return;
    await old.stop();
    // While the old task stopped, the worker may have closed or the connector's tasks been
    // stopped or replaced: a fresh runner then would belong to nobody and never be stopped.
    if (this.closed || rt.runners[i] !== old || this.runtimes.get(rt.name) !== rt) {
      rt.restarting.delete(i);
      return;
    }
    const fresh = this.makeRunner(rt, i, rt.taskConfigs[i]!);
    rt.runners[i] = fresh;
    rt.restarting.delete(i);
    fresh.start(rt.stored.target === 'PAUSED');
  }

  private setConnectorState(rt: Runtime, state: ConnectorState, trace?: string): void {
    rt.state = state;
    if (state !== 'FAILED') rt.trace = undefined;
    this.emit({ type: 'state', connector: rt.name, task: null, state, ...(trace ? { trace } : {}) });
  }

  private save(): void {
    const out: Record<string, Stored> = {};
    for (const [n, rt] of this.runtimes) out[n] = rt.stored;
    // Connector configs hold credentials (database.password, password): owner-only file.
    writeFileAtomicSync(this.file, JSON.stringify(out, null, 2) + '\n', { mode: 0o600 });
    fs.chmodSync(this.file, 0o600);
  }

  private emit(e: WorkerEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        /* a listener's problem */
      }
    }
  }
}

/**
 * Worker.completeModifyOffsetsCallback: the short text only when the connector's alterOffsets()
 * returns true. SinkConnector/SourceConnector return false by default, and neither ClickHouse's
 * sink nor Debezium 1.9.8's MySQL connector overrides it, so Kafka Connect answers with the long one.
 */
function modifiedOffsetsMessage(kind: 'altered' | 'reset'): { message: string } {
  return {
    message: `The Connect framework-managed offsets for this connector have been ${kind} successfully. However, if this connector manages offsets externally, they will need to be manually ${kind} in the system that the connector uses.`,
  };
}

function stripRecommended(d: ConfigKeyDef): Omit<ConfigKeyDef, 'recommended'> {
  const { recommended: _r, ...rest } = d;
  void _r;
  return { name: rest.name, type: rest.type, required: rest.required, default_value: rest.default_value, importance: rest.importance, documentation: rest.documentation, group: rest.group, order: rest.order, width: rest.width, display_name: rest.display_name, dependents: rest.dependents };
}

/** java.lang.String.trim(): strips every char up to U+0020 at both ends, and nothing else. */
export function javaTrim(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s.charCodeAt(start) <= 0x20) start++;
  while (end > start && s.charCodeAt(end - 1) <= 0x20) end--;
  return s.slice(start, end);
}

/**
 * ConfigDef.NonEmptyStringWithoutControlChars on the value ConfigDef.parseType made of it
 * (String.trim(), which strips every char up to U+0020).
 */
function nonEmptyStringWithoutControlChars(key: string, raw: string): string | undefined {
  const value = javaTrim(raw);
  if (value === '') return `Invalid value ${value} for configuration ${key}: String may not be empty`;
  const found: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const c = value.codePointAt(i)!;
    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) found.push(c);
  }
  if (found.length) return `Invalid value ${value} for configuration ${key}: String may not contain control sequences but had the following ASCII chars: ${found.join(', ')}`;
  return undefined;
}

/** Java's Map.toString: {k=v, k2=v2} */
function javaMap(m: Record<string, string>): string {
  return `{${Object.entries(m)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ')}}`;
}
