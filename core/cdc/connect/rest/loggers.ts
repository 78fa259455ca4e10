/**
 * The logger levels behind /admin/loggers, kept as Kafka Connect's Loggers class keeps them over
 * log4j 1 (reload4j): a hierarchy of named loggers, each with an explicit level or none (then the
 * nearest ancestor's applies), and last-modified times only for levels changed through the API.
 *
 * The worker starts with what config/connect-log4j.properties sets (root INFO,
 * org.reflections ERROR). A Java worker also holds a logger for every class that has logged;
 * this one knows only the loggers named here or through PUT, so GET /admin/loggers/{name} answers
 * 404 for a class logger that a Java worker would report with its effective level.
 */
const ROOT = 'root';
const LEVELS = new Set(['ALL', 'TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL', 'OFF']);

export interface LoggerLevel {
  level: string;
  last_modified: number | null;
}

export class Loggers {
  private rootLevel = 'INFO';
  /** Loggers that exist, with their explicit level or null. */
  private readonly loggers = new Map<string, string | null>([['org.reflections', 'ERROR']]);
  private readonly lastModified = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** log4j's Level.toLevel(s.toUpperCase(), null); null for an unknown level. */
  static parseLevel(s: string): string | null {
    const u = s.toUpperCase();
    return LEVELS.has(u) ? u : null;
  }

  level(name: string): LoggerLevel | null {
    if (name.toLowerCase() === ROOT) return this.describe(ROOT);
    return this.loggers.has(name) ? this.describe(name) : null;
  }

  /** Loggers with an explicit level and the root, by name (a TreeMap upstream). */
  allLevels(): Record<string, LoggerLevel> {
    const names = [...this.loggers].filter(([, l]) => l !== null).map(([n]) => n);
    names.push(ROOT);
    names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(names.map((n) => [n, this.describe(n)]));
  }

  /**
   * Sets the level of `namespace` and of every logger whose name starts with it (a plain prefix
   * match, as upstream), creating `namespace` when missing; `root` means all loggers. Returns the
   * names touched, sorted, including those already at that level.
   */
  setLevel(namespace: string, level: string): string[] {
    let targets: string[];
    if (namespace.toLowerCase() === ROOT) targets = [...this.loggers.keys(), ROOT];
    else {
      if (!this.loggers.has(namespace)) this.loggers.set(namespace, null);
      targets = [...this.loggers.keys()].filter((n) => n.startsWith(namespace));
    }
    for (const n of targets) {
      if (this.effective(n) === level) continue;
      if (n === ROOT) this.rootLevel = level;
      else this.loggers.set(n, level);
      this.lastModified.set(n, this.now());
    }
    return targets.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  private effective(name: string): string {
    if (name === ROOT) return this.rootLevel;
    const own = this.loggers.get(name);
    if (own) return own;
    for (let i = name.lastIndexOf('.'); i > 0; i = name.lastIndexOf('.', i - 1)) {
      const parent = this.loggers.get(name.slice(0, i));
      if (parent) return parent;
    }
    return this.rootLevel;
  }

  private describe(name: string): LoggerLevel {
    return { level: this.effective(name), last_modified: this.lastModified.get(name) ?? null };
  }
}
