/**
 * A connect service in its own process for crash tests: prints its URL, then (on "go" from
 * stdin) inserts rows one statement at a time until it is killed.
 */
import { silentLogger } from '../../../common/log.js';
import { startConnectService } from '../service.js';

const dir = process.argv[2]!;
const h = await startConnectService({ host: '127.0.0.1', port: 0, dataDir: dir, log: silentLogger, peers: {} }, {});
process.stdout.write(`URL ${h.url}\n`);
process.stdin.once('data', async () => {
  let id = 1000;
  for (;;) {
    h.api.source.executeSync('demo', `INSERT INTO customers (id, name) VALUES (${id}, 'n${id}')`);
    id++;
    if (id % 50 === 0) await new Promise((r) => setImmediate(r));
  }
});
