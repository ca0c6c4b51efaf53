import { AppError } from '../errors/app-error';
import type { TransformGraph } from './transform-graph';

/** One term of a selector: a transform's name, with `+` before for its upstream and after for its downstream. */
interface SelectorTerm {
  name: string;
  upstream: boolean;
  downstream: boolean;
}

const term = /^(\+?)([A-Za-z0-9_-]+)(\+?)$/;

/**
 * dbt's node selection: `name`, `+name` (with everything it depends on), `name+` (with everything that
 * depends on it), `+name+`; several terms separated by spaces or commas select their union.
 */
export function parseSelector(selector: string): SelectorTerm[] {
  const parts = selector.split(/[\s,]+/).filter(Boolean);
  if (parts.length === 0)
    throw new AppError('BAD_REQUEST', 'The selector names no transform', { hint: 'Write `name`, `+name`, `name+` or `+name+`, several separated by spaces.' });
  return parts.map((part) => {
    const match = term.exec(part);
    if (!match)
      throw new AppError('BAD_REQUEST', `"${part}" is not a selector term`, {
        hint: 'Write `name`, `+name`, `name+` or `+name+`, several separated by spaces.',
      });
    return { upstream: match[1] === '+', name: match[2]!, downstream: match[3] === '+' };
  });
}

/** The ids a selector names in the graph; an unknown name is 404. */
export function selectIds(graph: TransformGraph, selector: string): Set<string> {
  const selected = new Set<string>();
  for (const { name, upstream, downstream } of parseSelector(selector)) {
    const node = graph.nodes.find((candidate) => candidate.name === name);
    if (!node)
      throw new AppError('NOT_FOUND', `No transform is named "${name}"`, { hint: 'List the transforms with GET /workspaces/{workspace_id}/transforms.' });
    selected.add(node.id);
    if (upstream) for (const id of graph.withUpstream([node.id])) selected.add(id);
    if (downstream) for (const id of graph.withDownstream([node.id])) selected.add(id);
  }
  return selected;
}
