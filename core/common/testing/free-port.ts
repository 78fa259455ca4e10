import net from 'node:net';

/**
 * Ports are picked below Linux's ephemeral range (32768–60999): a port the kernel gives to another
 * test's `listen(0)` or outgoing connection between the check and the bind would make a server
 * started on it fail with EADDRINUSE.
 */
const LOW = 20000;
const HIGH = 32768;

/** A base port with `count` consecutive free ports on 127.0.0.1 (checked, not guaranteed later). */
export async function freePortBase(count = 8): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = LOW + Math.floor(Math.random() * (HIGH - LOW - count));
    let ok = true;
    for (let i = 0; i < count && ok; i++) ok = await isFree(base + i);
    if (ok) return base;
  }
  throw new Error('no free port range found');
}

/** One free port on 127.0.0.1, for a server a test starts later (a child process, say). */
export function freePort(): Promise<number> {
  return freePortBase(1);
}

export function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** Occupies a port until the returned function is called. */
export async function occupy(port: number): Promise<() => Promise<void>> {
  const s = net.createServer();
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => resolve());
  });
  return () => new Promise((resolve) => s.close(() => resolve()));
}
