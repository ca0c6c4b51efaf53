import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { checkRoom, screenshotDir, signedInPage, startConsole, waitForRoom, type ConsoleUnderTest } from '../support/console-browser';
import { createSourceDatabase, queryRows, throttledReader, type SourceDatabase } from '../support/connections';
import { useBusinessPlan } from '../support/workspaces';

const rows = 200_000;

/** A Postgres connection made in the browser through the form its type's JSON Schema generates, tested, configured, synced and watched. */
describe('the console: a Postgres connection', () => {
  let under: ConsoleUnderTest;
  let source: SourceDatabase;
  // The source's reader: each 2,000th row of `readings` costs it 50 ms, so a sync reads for five seconds and its progress can be watched.
  let reader: { role: string; drop(): Promise<void> } | undefined;
  const shots = screenshotDir('console-connections');

  beforeAll(async () => {
    source = await createSourceDatabase();
    await source.sql.unsafe('CREATE TABLE readings (id bigint PRIMARY KEY, sensor int, value double precision, taken_at timestamptz)');
    await source.sql.unsafe(
      `INSERT INTO readings SELECT g, g % 100, g * 0.5, timestamptz '2026-01-01' + g * interval '1 minute' FROM generate_series(1, ${rows}) g`,
    );
    await source.sql.unsafe('ANALYZE readings');
    reader = await throttledReader(source, 'readings', 2_000, 0.05);
    under = await startConsole();
  });

  afterAll(async () => {
    await under?.stop();
    await reader?.drop();
    await source.drop();
  });

  test('made through the generated form, tested, its streams chosen and previewed, scheduled, synced with live progress, paused', async () => {
    const { watched, workspaceId, user } = await signedInPage(under, 'console-pg');
    await useBusinessPlan(under.t, workspaceId);
    const { page } = watched;
    try {
      await page.getByRole('link', { name: 'Connections' }).click();
      await waitForRoom(page, 'Connections', shots);
      await page.getByText('No connections yet.').waitFor();
      await checkRoom(watched, shots, '01-connections-empty');

      await page.getByRole('link', { name: 'New connection' }).click();
      await waitForRoom(page, 'New connection', shots);
      await page.getByLabel('Source type').selectOption({ label: 'PostgreSQL' });
      const url = new URL(source.url);
      // Required fields are marked, defaults filled in, enums are lists, the password a password field.
      expect(await page.getByLabel('Port').inputValue()).toBe('5432');
      expect(await page.getByLabel('SSL mode').inputValue()).toBe('prefer');
      expect(await page.getByLabel('Schemas').inputValue()).toBe('public');
      expect(await page.getByLabel('Password').getAttribute('type')).toBe('password');
      expect(await page.getByLabel(/^Host/).getAttribute('required')).not.toBeNull();
      await page.getByLabel('Connection name').fill('plant_db');
      await page.getByLabel(/^Host/).fill('not a host');
      await page.getByLabel('Port').fill(url.port);
      await page.getByLabel(/^Database/).fill(source.name);
      await page.getByLabel(/^Username/).fill(reader!.role);
      await page.getByLabel('Password').fill('any password will do');
      await page.getByLabel('SSL mode').selectOption('disable');
      await checkRoom(watched, shots, '02-new-connection-form');

      // The service's complaint about a field of the spec is shown at that field.
      await page.getByRole('button', { name: 'Create connection' }).click();
      const hostError = page
        .locator('.field')
        .filter({ has: page.getByLabel(/^Host/) })
        .locator('.field-error');
      await hostError.waitFor();
      expect(await page.getByLabel(/^Host/).getAttribute('aria-invalid')).toBe('true');
      await page.getByLabel(/^Host/).fill(url.hostname);
      await page.getByRole('button', { name: 'Create connection' }).click();
      await waitForRoom(page, 'plant_db', shots);
      await page.getByText('The connection was created.').waitFor();

      // The secret never comes back: the settings say one is stored.
      const storedPassword = page.getByLabel('Password');
      expect(await storedPassword.inputValue()).toBe('');
      await page.getByText('A value is stored: leave the field empty to keep it.').waitFor();

      await page.getByRole('button', { name: 'Test connection' }).click();
      await page.getByText(/^The source answered/).waitFor();

      // Streams: the table discovered at the source, its key, a cursor for an incremental mode, a preview.
      await page.getByRole('checkbox', { name: 'Sync readings' }).waitFor();
      expect(await page.getByLabel('Primary key of readings').inputValue()).toBe('id');
      await page.getByLabel('Sync mode of readings').selectOption('incremental_append_deduped');
      await page.getByLabel('Cursor of readings').selectOption('taken_at');
      await page.getByRole('button', { name: 'Preview readings' }).click();
      await page.getByRole('heading', { name: 'Preview of readings' }).waitFor();
      await page.getByText('Rows 1–20 of 20').waitFor();
      await page.getByRole('button', { name: 'Save streams' }).click();
      await page.getByText('Saved.').first().waitFor();

      // The schedule: an interval, with the next runs the service computed.
      await page.getByLabel('At an interval').check();
      await page.getByLabel('Every').fill('6h');
      await page.getByRole('button', { name: 'Save schedule' }).click();
      const nextRuns = page.getByRole('list', { name: 'Next runs (UTC)' }).getByRole('listitem');
      await nextRuns.first().waitFor();
      expect(await nextRuns.count()).toBeGreaterThanOrEqual(3);
      await checkRoom(watched, shots, '03-connection-configured');

      // A full refresh reads the table in one scan: the page reads the job while it runs, the stream being read and its counts moving.
      await page.getByRole('button', { name: 'Full refresh' }).click();
      const progress = page.locator('.sync-job .progress-row');
      await progress.getByText(/Reading readings: [1-9][\d,]* records read/).waitFor({ timeout: 60_000 });
      await checkRoom(watched, shots, '04-sync-running');
      const readings = new Set<string>();
      const job = page.locator('.sync-job').first();
      const succeeded = job.locator('.sync-job-header .badge-succeeded');
      const deadline = Date.now() + 90_000;
      while ((await succeeded.count()) === 0 && Date.now() < deadline) {
        const text = await progress.innerText({ timeout: 1_000 }).catch(() => '');
        if (/Reading readings: [1-9]/.test(text)) readings.add(text);
        await Bun.sleep(200);
      }
      await succeeded.waitFor({ timeout: 1_000 });
      // The counts moved while the page watched (it reads the job every second).
      expect(readings.size).toBeGreaterThanOrEqual(2);
      const streamRow = job.getByRole('row', { name: /readings/ });
      expect(await streamRow.getByRole('cell').nth(4).innerText()).toBe('200,000');
      expect(await streamRow.getByRole('cell').nth(2).innerText()).toBe('Full refresh, overwrite');
      await checkRoom(watched, shots, '05-sync-succeeded');

      // Then a sync in the stream's own mode: incremental on the cursor, nothing new to read.
      await source.sql.unsafe("INSERT INTO readings VALUES (200001, 1, 1.5, timestamptz '2027-01-01')");
      await page.getByRole('button', { name: 'Sync now' }).click();
      const incremental = page
        .locator('.sync-job')
        .first()
        .getByRole('row', { name: /readings/ });
      await incremental.getByText('Incremental, deduplicated by the key').waitFor();
      await page.locator('.sync-job').first().locator('.sync-job-header .badge-succeeded').waitFor({ timeout: 90_000 });
      expect(await page.locator('.sync-job').count()).toBe(2);

      const [counted] = await queryRows(under.t, user, workspaceId, 'SELECT count(*) AS n, max(id) AS top FROM plant_db.readings');
      expect(counted).toEqual({ n: rows + 1, top: rows + 1 });

      // Paused: the schedule plans nothing; resumed: it does again.
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.getByText('None planned (paused).').waitFor();
      await page.locator('.details .badge-paused').waitFor();
      await page.getByRole('button', { name: 'Resume' }).click();
      await nextRuns.first().waitFor();

      await page.getByRole('link', { name: 'All connections' }).click();
      await waitForRoom(page, 'Connections', shots);
      await page
        .getByRole('row', { name: /plant_db/ })
        .getByText('succeeded')
        .waitFor();
      await checkRoom(watched, shots, '06-connections-list');

      // Deleted from its room, its tables with it: the list no longer has it, and its table is gone.
      await page.getByRole('link', { name: 'plant_db' }).click();
      await page.getByRole('button', { name: 'Delete connection…' }).click();
      await page.getByRole('dialog').getByLabel('Drop its tables too').check();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete the connection' }).click();
      await waitForRoom(page, 'Connections', shots);
      await page.getByRole('row', { name: /plant_db/ }).waitFor({ state: 'detached' });
      const gone = await under.t.request(`/api/v1/workspaces/${workspaceId}/query`, {
        method: 'POST',
        json: { sql: 'SELECT count(*) FROM plant_db.readings' },
        token: user.accessToken,
      });
      expect(gone.status).toBe(400);
    } catch (error) {
      await page.screenshot({ path: join(shots, 'failure.png'), fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await watched.context.close();
    }
  }, 110_000);
});
