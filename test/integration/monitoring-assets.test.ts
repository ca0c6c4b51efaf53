import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startTestApp, type TestApp } from '../support/test-app';
import { testEnv } from '../support/test-env';
import type { Dashboard } from '@grafana/schema';

const projectRoot = resolve(import.meta.dir, '..', '..');
const rulesFile = join(projectRoot, 'ops', 'prometheus', 'oxbow-alerts.yml');
const rulesTests = join(projectRoot, 'ops', 'prometheus', 'oxbow-alerts.test.yml');
const dashboardFile = join(projectRoot, 'ops', 'grafana', 'oxbow-dashboard.json');
const token = 'metrics-token-for-monitoring-0123';

const promtool = (...args: string[]) => {
  const run = Bun.spawnSync([join(testEnv.toolsDir(), 'bin', 'promtool'), ...args], { stdout: 'pipe', stderr: 'pipe' });
  return { exitCode: run.exitCode, output: run.stdout.toString() + run.stderr.toString() };
};

/** Every metric name a PromQL expression reads (histogram series by their family name). */
function metricNames(expr: string): string[] {
  return [...expr.matchAll(/\b((?:oxbow|process|nodejs)_[a-z0-9_]+)\b/g)].map((match) => match[1]!.replace(/_(bucket|count|sum)$/, ''));
}

/**
 * The alert rules and the dashboard in ops/ load into real Prometheus and Grafana versions: promtool
 * (Prometheus 3.16) checks and unit-tests the rules and parses every panel's query; the dashboard
 * type-checks against Grafana 13.2's own dashboard schema (@grafana/schema, generated from the schema
 * Grafana validates dashboards with); and every series they read is one the service exports.
 */
describe('monitoring: alert rules and the Grafana dashboard', () => {
  const dashboard = JSON.parse(readFileSync(dashboardFile, 'utf8')) as Dashboard;
  const queries = (dashboard.panels ?? []).flatMap((panel) =>
    ('targets' in panel ? (panel.targets ?? []) : []).map((target) => ({ panel: panel.title, expr: String((target as { expr?: unknown }).expr) })),
  );
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'oxbow-monitoring-'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  test('promtool accepts the rules, and its unit tests see each alert fire on the series that should raise it', () => {
    const checked = promtool('check', 'rules', rulesFile);
    expect(checked.output).toContain('SUCCESS: 7 rules found');
    expect(checked.exitCode).toBe(0);
    const tested = promtool('test', 'rules', rulesTests);
    expect(tested.output).toContain('SUCCESS');
    expect(tested.exitCode).toBe(0);
  });

  test('promtool would refuse a broken rule (the check can fail)', () => {
    const broken = join(scratch, 'broken.yml');
    writeFileSync(broken, 'groups:\n  - name: x\n    rules:\n      - alert: Broken\n        expr: sum(rate(oxbow_http_requests_total[5m]) >\n');
    expect(promtool('check', 'rules', broken).exitCode).not.toBe(0);
  });

  test('every panel query of the dashboard is valid PromQL', () => {
    expect(queries.length).toBeGreaterThan(20);
    // Grafana's own variables stand for a duration and a label value; the rest is PromQL as written.
    const rules = queries.map(
      ({ expr }, index) =>
        `      - record: dashboard:query_${index}\n        expr: ${JSON.stringify(expr.replaceAll('$__rate_interval', '5m').replaceAll('$instance', '.*'))}`,
    );
    const file = join(scratch, 'dashboard-queries.yml');
    writeFileSync(file, `groups:\n  - name: dashboard\n    rules:\n${rules.join('\n')}\n`);
    const checked = promtool('check', 'rules', file);
    expect(checked.output).toContain(`SUCCESS: ${queries.length} rules found`);
    expect(checked.exitCode).toBe(0);
  });

  test("the dashboard type-checks against Grafana's dashboard schema, and a wrong field would not", () => {
    const schemaTypes = join(projectRoot, 'node_modules', '@grafana', 'schema', 'dist', 'types', 'index.d.ts');
    const text = readFileSync(dashboardFile, 'utf8');
    const check = (name: string, json: string) => {
      writeFileSync(
        join(scratch, `${name}.ts`),
        `import type { Dashboard } from '@grafana/schema';\nexport const dashboard = ${json.trim()} satisfies Dashboard;\n`,
      );
      const compilerOptions = {
        strict: true,
        noEmit: true,
        module: 'Preserve',
        moduleResolution: 'bundler',
        target: 'ES2023',
        lib: ['ES2023', 'DOM'],
        types: [],
        skipLibCheck: true,
        paths: { '@grafana/schema': [schemaTypes] },
      };
      writeFileSync(join(scratch, `${name}.json`), JSON.stringify({ compilerOptions, files: [`${name}.ts`] }));
      return Bun.spawnSync([join(projectRoot, 'node_modules', '.bin', 'tsc'), '-p', join(scratch, `${name}.json`)], { stdout: 'pipe', stderr: 'pipe' });
    };
    const good = check('dashboard', text);
    expect(good.stdout.toString()).toBe('');
    expect(good.exitCode).toBe(0);
    const wrong = check('wrong', text.replace('"graphTooltip": 1', '"graphTooltip": "shared"'));
    expect(wrong.stdout.toString()).toContain('DashboardCursorSync');
    expect(dashboard.schemaVersion).toBe(42);
  });

  describe('against the metrics the service exports', () => {
    let t: TestApp;
    let exported: Set<string>;
    beforeAll(async () => {
      t = await startTestApp('local', { worker: true, env: { METRICS_TOKEN: token } });
      const text = await (await t.request('/metrics', { headers: { authorization: `Bearer ${token}` } })).text();
      exported = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]!));
    });
    afterAll(() => t.stop());

    test('every series the rules and the dashboard read exists', () => {
      const rules = readFileSync(rulesFile, 'utf8');
      const read = new Set([...metricNames(rules), ...queries.flatMap(({ expr }) => metricNames(expr))]);
      expect(read.size).toBeGreaterThan(12);
      expect([...read].filter((name) => !exported.has(name)).sort()).toEqual([]);
    });
  });
});
