// Which test files `npm test` runs in which phase: before the services start, side by side, one heavy file
// at a time beside those, or alone at the end.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The module through which every test reaches the services `npm test` starts (their addresses). */
const servicesModule = join('test', 'support', 'test-env.ts');

/**
 * A line `// npm test: alone, <why>` in a test file keeps it out of the side-by-side phase: its bounds are
 * wall-clock times (a deadline, a CPU-to-wall ratio) that other suites' work on the same cores would
 * stretch. Such files run one after another once that phase is over.
 */
const aloneMarker = /^\/\/ npm test: alone, \S/m;

/**
 * A line `// npm test: heavy, <why>` marks a file that starts several busy processes of its own (service
 * replicas, a browser): two of them side by side would take both cores from everything else, so they run
 * one at a time, beside the shared files. Every file under `test/browser/` is heavy (Chromium).
 */
const heavyMarker = /^\/\/ npm test: heavy, \S/m;
const heavyFolder = join('test', 'browser') + '/';

export interface TestPlan {
  /** Reach none of the services: run first, before any starts. */
  withoutServices: string[];
  /** Run side by side, each file in a process of its own. */
  shared: string[];
  /** Run one after another, beside the shared ones. */
  heavy: string[];
  /** Run one after another, after all the others. */
  alone: string[];
}

export function planTestRun(projectRoot: string): TestPlan {
  const files = [...new Bun.Glob('test/**/*.test.ts').scanSync({ cwd: projectRoot })].sort();
  const imports = new ImportGraph(projectRoot);
  const plan: TestPlan = { withoutServices: [], shared: [], heavy: [], alone: [] };
  for (const file of files) {
    const source = readFileSync(join(projectRoot, file), 'utf8');
    if (!imports.reaches(file, servicesModule)) plan.withoutServices.push(file);
    else if (aloneMarker.test(source)) plan.alone.push(file);
    else if (heavyMarker.test(source) || file.startsWith(heavyFolder)) plan.heavy.push(file);
    else plan.shared.push(file);
  }
  return plan;
}

/** The project's own modules a file imports, directly or through others (packages are not followed). */
class ImportGraph {
  private readonly transpiler = new Bun.Transpiler({ loader: 'ts' });
  private readonly edges = new Map<string, string[]>();

  constructor(private readonly root: string) {}

  reaches(from: string, target: string): boolean {
    const seen = new Set<string>();
    const pending = [from];
    for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
      if (file === target) return true;
      if (seen.has(file)) continue;
      seen.add(file);
      pending.push(...this.importsOf(file));
    }
    return false;
  }

  private importsOf(file: string): string[] {
    let found = this.edges.get(file);
    if (!found) {
      const source = readFileSync(join(this.root, file), 'utf8');
      found = this.transpiler
        .scan(source)
        .imports.filter((entry) => entry.path.startsWith('.'))
        .flatMap((entry) => this.resolveModule(dirname(file), entry.path) ?? []);
      this.edges.set(file, found);
    }
    return found;
  }

  private resolveModule(fromDir: string, specifier: string): string | undefined {
    const base = resolve(this.root, fromDir, specifier);
    const candidate = [base, `${base}.ts`, join(base, 'index.ts')].find((path) => path.endsWith('.ts') && existsSync(path));
    return candidate && relative(this.root, candidate);
  }
}
