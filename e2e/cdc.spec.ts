/**
 * The CDC workbench in Chromium against the real `loupe serve` from a clean data dir, through
 * accessible names only: set up the seed's pipeline (variant 1, then variant 2 on a fresh
 * instance), change rows by SQL, see every version in Raw and the winner in FINAL, run
 * OPTIMIZE … FINAL CLEANUP and see the after-state equal the source; and a sink that fails,
 * shown FAILED with its trace.
 */
import { test, expect, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoupeServe } from './loupe-serve.js';
import { servedLoupe } from './served-loupe.js';
import { inEveryLook } from './looks.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS = path.join(ROOT, 'test-results', 'screenshots');
const DOC_SHOTS = process.env.LOUPE_SCREENSHOTS === 'docs' ? path.join(ROOT, 'docs', 'screenshots') : null;

test.describe.configure({ mode: 'serial' });

async function shoot(page: Page, name: string) {
  await inEveryLook(page, {
    async theme(w, theme) {
      const file = `${name}-${w}-${theme}.png`;
      await page.screenshot({ path: path.join(SHOTS, file), fullPage: true });
      if (DOC_SHOTS && w === 1440) {
        mkdirSync(DOC_SHOTS, { recursive: true });
        await page.screenshot({ path: path.join(DOC_SHOTS, file), fullPage: true });
      }
    },
  });
}

async function openCdc(page: Page, loupe: LoupeServe) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(loupe.openUrl);
  await page.getByRole('navigation').getByRole('link', { name: 'CDC' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'CDC' })).toBeVisible();
}

/** Replaces the SQL editor's text (Monaco) as a user typing it would; insertText: no auto-closed quotes. */
async function typeSql(page: Page, sql: string) {
  const editor = page.getByRole('textbox', { name: 'SQL' });
  await editor.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(sql);
}

async function runSql(page: Page, sql: string) {
  await typeSql(page, sql);
  await page.getByRole('button', { name: 'Run SQL' }).click();
  await expect(page.getByRole('list', { name: 'Statement results' })).toContainText('Query OK');
}

/** Rows of a named table whose cells include `text`. */
const rowsWith = (page: Page, table: string, text: string) => page.getByRole('table', { name: table, exact: true }).getByRole('row').filter({ hasText: text });

async function changeAndClean(page: Page, variant: 1 | 2) {
  // merges paused, so the versions stay in their own parts while we look
  await page.getByRole('switch', { name: 'Pause merges' }).check();
  await expect(page.getByText('Merges are paused')).toBeVisible();

  await runSql(page, "INSERT INTO customers (created_at, id, name) VALUES ('2030-01-01 00:00:01', 42, 'Barbara')");
  await expect(rowsWith(page, 'Source rows', 'Barbara')).toHaveCount(1);
  await expect(rowsWith(page, 'Raw', 'Barbara')).toHaveCount(1, { timeout: 20_000 });
  await runSql(page, "UPDATE customers SET name = 'Barbara L.', created_at = '2030-01-01 00:00:02' WHERE id = 42");
  await expect(rowsWith(page, 'Raw', 'Barbara L.')).toHaveCount(1, { timeout: 20_000 });
  await runSql(page, 'DELETE FROM customers WHERE id = 2');
  // (not rows with "deleted": the header's __deleted matches too, which made this pass before the delete landed)
  await expect(rowsWith(page, 'Raw', 'Grace Hopper')).toHaveCount(2, { timeout: 20_000 });

  // Raw: both versions of 42, the later one the winner; FINAL: only the winner, and id 2 gone
  await expect(rowsWith(page, 'Raw', 'Barbara')).toHaveCount(2);
  await expect(rowsWith(page, 'Raw', 'Barbara L.')).toContainText('★ highest version');
  await expect(rowsWith(page, 'Raw', 'Barbara L.').getByTitle('Winner: highest version 2030-01-01 00:00:02.000')).toBeVisible();
  await expect(rowsWith(page, 'Raw', 'Grace Hopper')).toHaveCount(2);
  await expect(rowsWith(page, 'Raw', 'Grace Hopper').filter({ hasText: 'deleted' })).toContainText('id vanishes');
  await expect(rowsWith(page, 'FINAL', 'Barbara')).toHaveCount(1);
  await expect(rowsWith(page, 'FINAL', 'Barbara L.')).toHaveCount(1);
  await expect(rowsWith(page, 'FINAL', 'Grace Hopper')).toHaveCount(0);
  await expect(page.getByText('Yes: FINAL holds exactly the source')).toBeVisible();
  // the change messages on the topic, the delete marked; and each change followed to its part
  const messages = page.getByRole('table', { name: 'Messages' });
  await expect(messages.getByRole('row').filter({ hasText: '__deleted: "true"' })).toHaveCount(1);
  await expect(messages.getByRole('row').filter({ hasText: 'Barbara L.' })).toHaveCount(1);
  const flow = page.getByRole('list', { name: 'Recent changes through the pipeline' });
  // variant 1's sink inserts blocks with a dedup token; variant 2's queue table feeds the view
  await expect(flow.getByRole('listitem').filter({ hasText: 'delete' })).toContainText(variant === 1 ? 'insert block of' : 'through the queue table and view');
  await expect(flow.getByRole('listitem').filter({ hasText: 'update' }).first()).toContainText(/part all_\d+_\d+_\d+/);
  await expect(flow.getByRole('listitem').filter({ hasText: 'update' }).first()).toContainText(/commit → topic \d[\d,]* ms/);
  // the four stage counters have counted the changes (each its own transaction) and their rows
  const counters = page.getByRole('group', { name: 'Stage counters' });
  await expect(counters.getByRole('figure').filter({ hasText: 'transactions committed' })).toContainText(/transactions committed: [1-9]/, { timeout: 20_000 });
  await expect(counters.getByRole('figure').filter({ hasText: 'rows inserted' })).toContainText(/rows inserted \(ClickHouse\): [1-9]/);
  await shoot(page, `cdc-v${variant}-versions`);
  await inEveryLook(page, {
    async theme(w, theme) {
      await page.getByRole('heading', { name: 'Flow' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, `cdc-v${variant}-flow-${w}-${theme}.png`) });
    },
  });

  await page.getByRole('button', { name: 'Run OPTIMIZE FINAL CLEANUP' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'FINAL CLEANUP' })).toContainText('vanished');
  await expect(rowsWith(page, 'After cleanup', 'Barbara')).toHaveCount(1);
  await expect(rowsWith(page, 'After cleanup', 'Barbara L.')).toHaveCount(1);
  await expect(rowsWith(page, 'After cleanup', 'Grace Hopper')).toHaveCount(0);
  await expect(rowsWith(page, 'Raw', 'removed by cleanup')).toHaveCount(3);
  // the after-state equals the source: every source row once, nothing else
  const source = await page.getByRole('table', { name: 'Source rows' }).getByRole('row').count();
  await expect(page.getByRole('table', { name: 'After cleanup' }).getByRole('row')).toHaveCount(source);
  await expect(page.getByText('Yes: FINAL holds exactly the source')).toBeVisible();
}

test.describe('variant 1: source connector → topic → ClickHouse sink', () => {
  const served = servedLoupe({ screenshots: SHOTS });

  test('set up, change rows, see versions and winners, clean up to the source', async ({ page }) => {
    test.setTimeout(120_000);
    await openCdc(page, served.current);
    await expect(page.getByRole('radiogroup', { name: 'Variant' }).getByRole('radio', { name: /Variant 1/ })).toBeChecked();
    await expect(page.getByText('Set up the pipeline to create the target table')).toBeVisible();
    // the specification's cluster DDL beside the single-node form embedded ClickHouse will run, with the notice
    const ddl = page.getByRole('group', { name: 'Target table' });
    await expect(ddl.getByRole('textbox', { name: /Target table \(ClickHouse, the specification's cluster form\)/ })).toHaveValue(/ON CLUSTER '\{cluster\}'[\s\S]*ReplicatedReplacingMergeTree/);
    await expect(ddl.getByRole('textbox', { name: 'Embedded form of Target table' })).toContainText('ENGINE = ReplacingMergeTree(created_at, __deleted)');
    await expect(ddl.getByRole('textbox', { name: 'Embedded form of Target table' })).not.toContainText("ON CLUSTER '{cluster}'");
    await expect(ddl.getByRole('note', { name: 'Notice for Target table' })).toContainText('ON CLUSTER');
    await shoot(page, 'cdc-empty');
    await page.getByRole('button', { name: 'Set up pipeline' }).click();
    // once it runs the steps fold away; open them
    await page.getByText('The pipeline runs').click();
    const steps = page.getByRole('list', { name: 'Set-up steps' });
    await expect(steps).toContainText('Target table');
    await expect(steps).toContainText('Embedded ClickHouse');
    await expect(steps).toContainText('POST /connectors → 201 Created: mysql-source-customers');
    await expect(steps).toContainText('POST /connectors → 201 Created: clickhouse-sink');
    await page.getByText('The pipeline runs').click();
    // the snapshot of the seed's three rows arrives
    await expect(rowsWith(page, 'FINAL', 'Ada Lovelace')).toHaveCount(1, { timeout: 20_000 });
    await changeAndClean(page, 1);
    await shoot(page, 'cdc-v1-cleanup');

    // exactly-once: the sink's state, then the whole topic replayed through it without a duplicate
    const state = page.getByRole('table', { name: 'Exactly-once state' });
    await expect(state.getByRole('row').filter({ hasText: 'customers-0' })).toContainText('AFTER_PROCESSING');
    await page.getByRole('button', { name: 'Replay from the start' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Replayed the topic from offset 0' })).toContainText('no duplicates.', { timeout: 30_000 });
    await expect(rowsWith(page, 'FINAL', 'Barbara L.')).toHaveCount(1);
    await page.getByRole('heading', { name: 'Exactly-once' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, 'cdc-exactly-once-1440-light.png') });

    // MySQL's own error, with a line saying what to do, marked in the editor where it points
    await typeSql(page, 'SELECT * FROM nope');
    await page.getByRole('button', { name: 'Run SQL' }).click();
    await expect(page.getByRole('alert').filter({ hasText: "ERROR 1146 (42S02): Table 'demo.nope' doesn't exist" })).toContainText('demo.customers');
    // Monaco has alert regions of its own
    const mysqlAlert = page.getByRole('alert').filter({ hasText: 'MySQL refused it' });
    await expect(mysqlAlert).toContainText('Marked in the editor at line 1, column 15.');
    await expect(page.locator('.cdc-sql-editor .squiggly-error').first()).toBeVisible();
    // a syntax error on the third line, run with Ctrl+Enter from the editor
    await typeSql(page, 'SELECT id, name\nFROM customers\nWHER id = 1');
    await page.keyboard.press('ControlOrMeta+Enter');
    await expect(mysqlAlert).toContainText("ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near");
    await expect(mysqlAlert).toContainText('Marked in the editor at line 3');
    await expect(page.locator('.cdc-sql-editor .squiggly-error').first()).toBeVisible();
    await page.getByRole('heading', { name: 'Source: demo.customers' }).scrollIntoViewIfNeeded();
    await shoot(page, 'cdc-sql-error');
    // and Ctrl+Enter runs a good statement too
    await typeSql(page, 'SELECT COUNT(*) FROM customers');
    await page.keyboard.press('ControlOrMeta+Enter');
    await expect(page.getByRole('list', { name: 'Statement results' })).toContainText('1 row in set');
    await expect(page.locator('.cdc-sql-editor .squiggly-error')).toHaveCount(0);
  });

  test("a connector's config edited from the panel (PUT …/config), shown as a diff against its last version", async ({ page }) => {
    test.setTimeout(60_000);
    await openCdc(page, served.current);
    const sink = page.getByRole('listitem', { name: 'Connector clickhouse-sink' });
    await sink.getByText(/^Config: \d+ keys/).click();
    await expect(sink).toContainText('One version so far');
    await sink.getByRole('button', { name: 'Edit config' }).click();
    const box = sink.getByRole('textbox', { name: 'Config of clickhouse-sink' });
    const config = JSON.parse(await box.inputValue()) as Record<string, string>;
    // a value Kafka Connect refuses: its own {error_code,message}, nothing saved
    await box.fill(JSON.stringify({ ...config, 'tasks.max': 'many' }, null, 2));
    await sink.getByRole('button', { name: 'Save config' }).click();
    await expect(sink.getByRole('alert')).toContainText('{"error_code":400,"message":"Connector configuration is invalid and contains the following 1 error(s):\\nInvalid value many for configuration tasks.max');
    // one changed, one removed, one added: the unsaved changes are listed before saving
    const next: Record<string, string> = { ...config, 'consumer.override.max.poll.records': '1000', 'errors.tolerance': 'none' };
    delete next['errors.retry.timeout'];
    await box.fill(JSON.stringify(next, null, 2));
    await expect(sink.getByRole('table', { name: 'Unsaved changes of clickhouse-sink' }).getByRole('row')).toHaveCount(4);
    await sink.getByRole('button', { name: 'Save config' }).click();
    const diff = sink.getByRole('table', { name: 'Config changes of clickhouse-sink' });
    await expect(diff.getByRole('row').filter({ hasText: 'consumer.override.max.poll.records' })).toContainText(/changed.*5000.*1000/);
    await expect(diff.getByRole('row').filter({ hasText: 'errors.retry.timeout' })).toContainText(/removed.*60/);
    await expect(diff.getByRole('row').filter({ hasText: 'errors.tolerance' })).toContainText(/added.*none/);
    await expect(sink).toContainText('2 versions, 1 changed, 1 added, 1 removed since the previous one');
    // Kafka Connect holds the new config: a refresh reads it back and keeps no third version
    await page.getByRole('button', { name: 'Refresh connectors' }).click();
    await expect(sink).toContainText('2 versions');
    await expect(sink.getByRole('combobox')).toContainText('v1 · seen');
    // the history outlives the page: opened again, the diff is still there
    await openCdc(page, served.current);
    await sink.getByText(/^Config: \d+ keys/).click();
    await expect(sink).toContainText('2 versions, 1 changed, 1 added, 1 removed since the previous one');
    await expect(sink).toContainText('task 0: RUNNING', { timeout: 20_000 });
    // the source's database password is kept and shown only as a fingerprint
    const source = page.getByRole('listitem', { name: 'Connector mysql-source-customers' });
    await source.getByText(/^Config: \d+ keys/).click();
    await source.getByText(/^Current config/).click();
    await expect(source).toContainText(/"database\.password": "\(hidden, #[0-9a-f]{8}\)"/);
    await expect(source).not.toContainText('"dbz"');
    await source.getByText(/^Config: \d+ keys/).click();
    await sink.scrollIntoViewIfNeeded();
    await shoot(page, 'cdc-connector-diff');
  });

  test('a sink that fails is listed first, FAILED, with its trace', async ({ page }) => {
    test.setTimeout(90_000);
    await openCdc(page, served.current);
    await page.getByRole('button', { name: 'Tear down' }).click();
    await expect(page.getByRole('list', { name: 'Set-up steps' })).toContainText('Delete connector clickhouse-sink');
    await expect(page.getByText('No connectors yet')).toBeVisible();
    // with no pipeline the configuration opens by itself
    await expect(page.locator('details.cdc-configs')).toHaveAttribute('open', '');
    const sink = page.getByRole('textbox', { name: /Sink connector/ });
    const config = JSON.parse(await sink.inputValue()) as { name: string; config: Record<string, string> };
    config.config['topic2TableMap'] = 'customers=no_such_table';
    config.config.exactlyOnce = 'false';
    await sink.fill(JSON.stringify(config, null, 2));
    await page.getByRole('button', { name: 'Set up pipeline' }).click();
    await expect(page.getByText('The pipeline runs')).toBeVisible();
    // the sink fails on its first batch: make a change
    await runSql(page, "UPDATE customers SET name = 'Ada L.' WHERE id = 1");
    const failed = page.getByRole('listitem', { name: 'Connector clickhouse-sink' });
    await expect(failed).toContainText('task 0: FAILED', { timeout: 30_000 });
    await expect(failed.getByRole('group').filter({ hasText: 'Trace of the failure' })).toContainText('org.apache.kafka.connect.errors.ConnectException: Exiting WorkerSinkTask due to unrecoverable exception.');
    // failed first
    await expect(page.locator('.cdc-connector').first()).toHaveAttribute('aria-label', 'Connector clickhouse-sink');
    // the recreated sink's config against the one saved earlier: the change that broke it
    await failed.getByText(/^Config: \d+ keys/).click();
    await expect(failed.getByRole('table', { name: 'Config changes of clickhouse-sink' }).getByRole('row').filter({ hasText: 'topic2TableMap' })).toContainText(/added.*customers=no_such_table/);
    await failed.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, 'cdc-failed-1440-light.png') });
  });
});

test.describe('variant 2: queue table + materialized view', () => {
  const served = servedLoupe();

  test('set up, change rows, see versions and winners, clean up to the source', async ({ page }) => {
    test.setTimeout(120_000);
    await openCdc(page, served.current);
    await page.getByRole('radiogroup', { name: 'Variant' }).getByRole('radio', { name: /Variant 2/ }).check();
    await expect(page.getByText(/^Configuration:.*queue table, materialized view/)).toBeVisible();
    // the Kafka queue table becomes a Null table Loupe's consumer feeds, and says so
    const queue = page.getByRole('group', { name: 'Queue table' });
    await expect(queue.getByRole('textbox', { name: 'Embedded form of Queue table' })).toContainText('ENGINE = Null');
    await expect(queue.getByRole('note', { name: 'Notice for Queue table' })).toContainText('Kafka');
    await queue.scrollIntoViewIfNeeded();
    await shoot(page, 'cdc-v2-wizard');
    await page.getByRole('button', { name: 'Set up pipeline' }).click();
    await page.getByText('The pipeline runs').click();
    const steps = page.getByRole('list', { name: 'Set-up steps' });
    await expect(steps).toContainText('Materialized view');
    await expect(steps).toContainText('POST /connectors → 201 Created: mysql-source-customers-v2');
    await expect(steps).not.toContainText('Sink connector');
    await page.getByText('The pipeline runs').click();
    await expect(rowsWith(page, 'FINAL', 'Ada Lovelace')).toHaveCount(1, { timeout: 20_000 });
    await changeAndClean(page, 2);
    await shoot(page, 'cdc-v2-cleanup');
  });

  test('the scenario player steps, plays, and plays a burst of 10,000 changes through to FINAL', async ({ page }) => {
    test.setTimeout(180_000);
    await openCdc(page, served.current);
    const player = page.getByRole('group', { name: 'Scenario player' });
    await player.getByRole('combobox', { name: 'Scenario' }).selectOption({ label: 'Update one id five times' });
    await player.getByRole('button', { name: 'Step' }).click();
    await expect(player.getByRole('status')).toHaveText('Step 1 of 5');
    await player.getByRole('button', { name: 'Play' }).click();
    await expect(player.getByRole('status')).toHaveText('Done: 5 of 5 steps', { timeout: 30_000 });
    await expect(rowsWith(page, 'FINAL', 'Barbara v5')).toHaveCount(1, { timeout: 20_000 });
    await player.getByRole('combobox', { name: 'Scenario' }).selectOption({ label: 'A burst of 10,000 changes' });
    await player.getByRole('button', { name: 'Play' }).click();
    await expect(player.getByRole('status')).toHaveText('Done: 20 of 20 steps', { timeout: 120_000 });
    await expect(page.getByText('10,003 rows (embedded MySQL 8.0 source)')).toBeVisible();
    await expect(page.getByRole('heading', { name: /^FINAL/ })).toContainText('10,003 rows', { timeout: 60_000 });
  });
});
