import { readFileSync } from 'node:fs';

export interface QueryProfile {
  cpuMs: number;
  /** Data files the scans opened; undefined when the profile does not list them. */
  filesRead: Set<string> | undefined;
}

interface ProfileNode {
  operator_type?: string;
  cpu_time?: number;
  extra_info?: Record<string, unknown>;
  children?: ProfileNode[];
}

/**
 * DuckDB writes each query's profile (JSON) to the connection's profiling file; this reads the CPU
 * time and the files the table scans opened.
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
  let listed = true;
  const files = new Set<string>();
  const visit = (node: ProfileNode) => {
    if (node.operator_type === 'TABLE_SCAN' && node.extra_info) {
      const names = node.extra_info['Filename(s)'];
      if (typeof names === 'string') for (const name of names.split('\n')) files.add(name.trim());
      else if (Number(node.extra_info['Total Files Read'] ?? 0) > 0) listed = false;
    }
    for (const child of node.children ?? []) visit(child);
  };
  visit(root);
  return { cpuMs: Math.round((root.cpu_time ?? 0) * 1000), filesRead: listed ? files : undefined };
}
