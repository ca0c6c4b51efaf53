/** A node's place in the drawing, in the SVG's units. */
export interface PlacedNode {
  id: string;
  x: number;
  y: number;
  layer: number;
}

export interface PlacedEdge {
  from: string;
  to: string;
  /** The SVG path from the right side of `from` to the left side of `to`. */
  path: string;
}

export interface Layout {
  nodes: Map<string, PlacedNode>;
  edges: PlacedEdge[];
  width: number;
  height: number;
}

export const nodeSize = { width: 200, height: 64 };
const gap = { x: 72, y: 24 };
const margin = 12;

/**
 * Lays a DAG out left to right: each node one column after the furthest of its dependencies (the
 * longest path), and within a column ordered by where its dependencies sit (a barycentre pass), so
 * that edges mostly run straight and rarely cross. `order` is the service's run order (every node
 * after its dependencies).
 */
export function layoutDag(order: string[], edges: { from: string; to: string }[]): Layout {
  const parents = new Map<string, string[]>(order.map((id) => [id, []]));
  for (const edge of edges) parents.get(edge.to)?.push(edge.from);
  const layerOf = new Map<string, number>();
  for (const id of order) layerOf.set(id, Math.max(-1, ...(parents.get(id) ?? []).map((parent) => layerOf.get(parent) ?? -1)) + 1);

  const columns: string[][] = [];
  for (const id of order) (columns[layerOf.get(id)!] ??= []).push(id);
  const rowOf = new Map<string, number>();
  for (const column of columns) {
    const weight = (id: string) => {
      const rows = (parents.get(id) ?? []).map((parent) => rowOf.get(parent)).filter((row): row is number => row !== undefined);
      return rows.length === 0 ? Number.POSITIVE_INFINITY : rows.reduce((sum, row) => sum + row, 0) / rows.length;
    };
    const sorted = column.map((id, index) => ({ id, index, weight: weight(id) })).sort((a, b) => a.weight - b.weight || a.index - b.index);
    sorted.forEach((entry, row) => rowOf.set(entry.id, row));
  }

  const nodes = new Map<string, PlacedNode>();
  for (const id of order) {
    const layer = layerOf.get(id)!;
    nodes.set(id, { id, layer, x: margin + layer * (nodeSize.width + gap.x), y: margin + rowOf.get(id)! * (nodeSize.height + gap.y) });
  }
  const placedEdges = edges.flatMap((edge) => {
    const from = nodes.get(edge.from);
    const to = nodes.get(edge.to);
    if (!from || !to) return [];
    const [x1, y1] = [from.x + nodeSize.width, from.y + nodeSize.height / 2];
    const [x2, y2] = [to.x - 6, to.y + nodeSize.height / 2];
    const bend = Math.max(24, (x2 - x1) / 2);
    return [{ from: edge.from, to: edge.to, path: `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}` }];
  });
  const tallest = Math.max(0, ...columns.map((column) => column.length));
  return {
    nodes,
    edges: placedEdges,
    width: margin * 2 + columns.length * nodeSize.width + Math.max(0, columns.length - 1) * gap.x,
    height: margin * 2 + tallest * nodeSize.height + Math.max(0, tallest - 1) * gap.y,
  };
}
