import { readFileSync } from 'node:fs';

/** What one table scan of a query read, as its profile tells. */
export interface ScanRead {
  /** The scanned table's name (unqualified), when the scan is of a lake table. */
  table: string | undefined;
  files: string[];
  /** False when the profile abbreviated the list (it names five files at most). */
  complete: boolean;
}

export interface QueryProfile {
  cpuMs: number;
  scans: ScanRead[];
}

interface ProfileNode {
  operator_type?: string;
  cpu_time?: number;
  extra_info?: Record<string, unknown>;
  children?: ProfileNode[];
}

const abbreviation = '...';

/**
 * DuckDB writes each query's profile (JSON) to the connection's profiling file; this reads the CPU
 * time and, per table scan, the files it opened: `Filename(s)` lists them comma-separated, and after
 * five ends the list with `...`, which `Total Files Read` then exceeds.
 */
export function readQueryProfile(path: string): QueryProfile | undefined {
  let text: string;
  try {
    // A few kilobytes at most, read right after the query that wrote it.
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const root = JSON.parse(text) as ProfileNode;
  const scans: ScanRead[] = [];
  const visit = (node: ProfileNode) => {
    if (node.operator_type === 'TABLE_SCAN' && node.extra_info) scans.push(scanRead(node.extra_info));
    for (const child of node.children ?? []) visit(child);
  };
  visit(root);
  return { cpuMs: Math.round((root.cpu_time ?? 0) * 1000), scans };
}

function scanRead(info: Record<string, unknown>): ScanRead {
  const listed = typeof info['Filename(s)'] === 'string' ? info['Filename(s)'].split(', ').map((name) => name.trim()) : [];
  const files = listed.filter((name) => name && name !== abbreviation);
  const total = Number(info['Total Files Read'] ?? files.length);
  return {
    table: typeof info.Table === 'string' ? info.Table.toLowerCase() : undefined,
    files,
    complete: !listed.includes(abbreviation) && total <= files.length,
  };
}
