import { describe, expect, it } from 'vitest';
import { settleOnce } from './settle-once.js';

describe('settleOnce', () => {
  it('takes the first outcome and ignores the rest', async () => {
    const s = settleOnce<string>();
    expect(s.done).toBe(false);
    s.resolve('code');
    s.reject(new Error('timeout'));
    s.resolve('other');
    expect(s.done).toBe(true);
    await expect(s.promise).resolves.toBe('code');
    const r = settleOnce<string>();
    r.reject(new Error('closed'));
    r.resolve('late');
    await expect(r.promise).rejects.toThrow('closed');
  });
});
