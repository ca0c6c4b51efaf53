import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { backends, createTestBackend, type TestBackend } from '../support/backends';
import { TestClock } from '../support/test-clock';
import { openStore } from '../../src/store/open-store';
import { migrate } from '../../src/store/migrations';
import type { Store } from '../../src/store/store';
import { StoreViewLimits } from '../../src/sharing/public-throttle';
import { AppError } from '../../src/errors/app-error';

/** Public view limits counted in the store, as API replicas share them: two limiters stand for two replicas. */
for (const backend of backends) {
  describe(`public view limits in the store on ${backend}`, () => {
    let env: TestBackend;
    let store: Store;
    const clock = new TestClock();
    const perMinute = { address: 5, link: 8 };

    beforeAll(async () => {
      env = await createTestBackend(backend);
      store = openStore(env.config.metadata);
      await migrate(store);
    });
    afterAll(async () => {
      await store.close();
      await env.cleanup();
    });

    const refusal = async (view: Promise<void>): Promise<string | undefined> => {
      try {
        await view;
        return undefined;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        expect(Number(error.headers['retry-after'])).toBeGreaterThan(0);
        return error.message;
      }
    };

    test('views through either replica count against the same address and link; the sliding minute opens again', async () => {
      clock.set('2026-05-01T10:00:00.000Z');
      const replicas = [new StoreViewLimits(store, perMinute, clock), new StoreViewLimits(store, perMinute, clock)];
      const link = `chart:${crypto.randomUUID()}`;
      const view = (i: number, address: string) =>
        replicas[i % 2]!.take([
          { limit: 'address', key: address },
          { limit: 'link', key: link },
        ]);
      const outcomes: (string | undefined)[] = [];
      for (let i = 0; i < 6; i++) outcomes.push(await refusal(view(i, 'a')));
      expect(outcomes.slice(0, 5)).toEqual([undefined, undefined, undefined, undefined, undefined]);
      expect(outcomes[5]).toContain('from this address');
      // Other addresses still see the link, up to its own limit (8 counted views, the refused one included).
      const others: (string | undefined)[] = [];
      for (let i = 0; i < 3; i++) others.push(await refusal(view(i, `b${i}`)));
      expect(others.slice(0, 2)).toEqual([undefined, undefined]);
      expect(others[2]).toContain('of this link');
      // Two minutes on, the window holds none of it.
      clock.advance(120_000);
      expect(await refusal(view(0, 'a'))).toBeUndefined();
    });

    test('views arriving together on both replicas never pass the limit together', async () => {
      clock.set('2026-05-01T11:00:00.000Z');
      const replicas = [new StoreViewLimits(store, perMinute, clock), new StoreViewLimits(store, perMinute, clock)];
      const link = `page:${crypto.randomUUID()}`;
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          refusal(
            replicas[i % 2]!.take([
              { limit: 'address', key: `c${i}` },
              { limit: 'link', key: link },
            ]),
          ),
        ),
      );
      expect(outcomes.filter((outcome) => outcome === undefined)).toHaveLength(perMinute.link);
    });
  });
}
