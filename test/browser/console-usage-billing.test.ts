import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkRoom, screenshotDir, signedInPage, startConsole, waitForRoom, type ConsoleUnderTest } from '../support/console-browser';
import { billingEnv, deliver, stripeEvent, subscription } from '../support/billing';
import { bodyOf } from '../support/http';

/**
 * Usage and billing in the browser against stripe-mock: the month against the plan, plots per day,
 * the records exported; the plans, an upgrade through a checkout session stripe-mock made (its hosted
 * page, which no test may reach, sends the browser straight back as Stripe does after paying), the
 * plan changed by the provider's event, and the portal, which returns to the billing page.
 */
describe('the console: usage and billing', () => {
  let under: ConsoleUnderTest;
  const shots = screenshotDir('console-usage-billing');

  beforeAll(async () => {
    under = await startConsole({ env: billingEnv() });
  });

  afterAll(async () => {
    await under?.stop();
  });

  test('the usage dashboard with its plots and export; upgrading through checkout; the portal', async () => {
    const { watched, workspaceId, user } = await signedInPage(under, 'console-billing');
    const { page, context } = watched;
    for (const sql of ['SELECT 1 AS one', 'SELECT 2 AS two', 'SELECT range AS n FROM range(1000)']) {
      const answer = await under.t.request(`/api/v1/workspaces/${workspaceId}/query`, { method: 'POST', json: { sql }, token: user.accessToken });
      expect(answer.status).toBe(200);
    }
    // Stripe's hosted pages are on the internet: the browser is sent back from them as Stripe does once done.
    const providerPages: string[] = [];
    let backTo = '';
    await context.route(/^https:\/\//, async (route) => {
      providerPages.push(route.request().url());
      await route.fulfill({ status: 303, headers: { location: backTo } });
    });
    try {
      await page.getByRole('link', { name: 'Usage' }).click();
      await waitForRoom(page, 'Usage', shots);
      await page.getByText(/^3 of [\d,]+ included$/).waitFor();
      const queriesPerDay = page.getByRole('figure').filter({ hasText: 'Queries per day' });
      expect(await queriesPerDay.locator('svg rect.plot-bar').count()).toBe(30);
      await page.getByRole('img', { name: /^Queries this month, running total: .* against included in the plan/ }).waitFor();
      await page.getByRole('row', { name: /^query 3 / }).waitFor();
      await checkRoom(watched, shots, '01-usage');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      const lines = readFileSync((await download.path())!, 'utf8')
        .trim()
        .split(/\r?\n/);
      expect(lines[0]).toContain('bytes_scanned');
      expect(lines).toHaveLength(4);

      await page.getByRole('link', { name: 'Plan and billing' }).click();
      await waitForRoom(page, 'Billing', shots);
      await page
        .getByRole('row', { name: /current/ })
        .getByText('Free')
        .waitFor();
      await checkRoom(watched, shots, '02-billing-free');

      // Upgrade: a checkout session made on stripe-mock; back with ?checkout=success, the plan changes with the provider's event.
      backTo = `${under.base}/workspaces/${workspaceId}/billing?checkout=success`;
      await page.getByRole('button', { name: 'Upgrade to Team' }).click();
      await page.getByText('Payment received by the provider').waitFor();
      expect(providerPages).toHaveLength(1);
      const setup = await bodyOf(await under.t.request(`/api/v1/workspaces/${workspaceId}/billing/setup`, { method: 'POST', token: user.accessToken }));
      const created = Math.floor(under.t.clock.now().getTime() / 1000);
      const event = stripeEvent(
        'customer.subscription.created',
        subscription({
          id: `sub_${workspaceId.slice(0, 8)}`,
          customer: setup.customer_id,
          status: 'active',
          lookupKey: 'oxbow_team',
          metadata: { workspace_id: workspaceId, plan: 'team' },
        }),
        { created },
      );
      expect((await deliver(under.t, event)).status).toBe(200);
      await page.getByText('The subscription is active: the workspace is on the team plan.').waitFor({ timeout: 20_000 });
      await page
        .getByRole('row', { name: /current/ })
        .getByText('Team')
        .waitFor();
      expect(await page.getByRole('button', { name: /^Upgrade to/ }).count()).toBe(0);
      await checkRoom(watched, shots, '03-billing-subscribed');

      // The portal: a session made on stripe-mock, back to the billing page.
      backTo = `${under.base}/workspaces/${workspaceId}/billing`;
      await page.getByRole('button', { name: /^Manage billing/ }).click();
      await page.waitForURL(backTo);
      await waitForRoom(page, 'Billing', shots);
      expect(providerPages).toHaveLength(2);
      expect(providerPages.every((url) => url.startsWith('https://'))).toBe(true);
    } catch (error) {
      await page.screenshot({ path: join(shots, 'failure.png'), fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await watched.context.close();
    }
  }, 110_000);
});
