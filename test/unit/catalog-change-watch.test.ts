import { afterAll, describe, expect, test } from 'bun:test';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogChangeWatch } from '../../src/engine/catalog-change-watch';

describe('catalog change watch', () => {
  const dir = mkdtempSync(join(tmpdir(), 'oxbow-watch-'));
  const file = join(dir, 'catalog.sqlite');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a write to the catalog or its log changes the signature; an observation right after a write is not trusted', () => {
    writeFileSync(file, 'catalog');
    const watch = new CatalogChangeWatch(file);
    const fresh = watch.observe();
    expect(fresh.settled).toBe(false);
    expect(CatalogChangeWatch.unchanged(fresh, watch.observe())).toBe(false);

    const later = Date.now() + 100;
    const settled = watch.observe(later);
    expect(settled.settled).toBe(true);
    expect(CatalogChangeWatch.unchanged(settled, watch.observe(later + 10))).toBe(true);

    appendFileSync(`${file}-wal`, 'frame');
    expect(CatalogChangeWatch.unchanged(settled, watch.observe(later + 20))).toBe(false);
    const withLog = watch.observe(later + 200);
    appendFileSync(file, 'checkpoint');
    expect(CatalogChangeWatch.unchanged(withLog, watch.observe(later + 210))).toBe(false);
  });

  test('an unchanged catalog is read again at least every second', () => {
    const watch = new CatalogChangeWatch(file);
    const at = Date.now() + 100;
    const first = watch.observe(at);
    expect(CatalogChangeWatch.unchanged(first, watch.observe(at + 999))).toBe(true);
    expect(CatalogChangeWatch.unchanged(first, watch.observe(at + 1_000))).toBe(false);
  });
});
