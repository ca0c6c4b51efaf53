import { expect, test } from 'bun:test';
import { layoutDag, nodeSize } from '../../web/src/rooms/transforms/dag-layout';

/** A random DAG of n nodes: edges only from an earlier node to a later one, so the index order is a run order. */
function randomDag(n: number, seed: number): { order: string[]; edges: { from: string; to: string }[] } {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const order = Array.from({ length: n }, (_, i) => `t${i}`);
  const edges = [];
  for (let to = 1; to < n; to++) for (let from = 0; from < to; from++) if (next() < 0.15) edges.push({ from: order[from]!, to: order[to]! });
  return { order, edges };
}

const overlaps = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.abs(a.x - b.x) < nodeSize.width && Math.abs(a.y - b.y) < nodeSize.height;

test('every node sits a column after each of its dependencies, none overlaps another, all inside the drawing', () => {
  for (const [n, seed] of [
    [1, 1],
    [2, 7],
    [12, 3],
    [40, 11],
    [80, 5],
  ] as const) {
    const { order, edges } = randomDag(n, seed);
    const layout = layoutDag(order, edges);
    expect(layout.nodes.size).toBe(n);
    for (const edge of edges) expect(layout.nodes.get(edge.to)!.layer).toBeGreaterThan(layout.nodes.get(edge.from)!.layer);
    const placed = [...layout.nodes.values()];
    for (const [i, a] of placed.entries()) {
      expect(a.x + nodeSize.width).toBeLessThanOrEqual(layout.width);
      expect(a.y + nodeSize.height).toBeLessThanOrEqual(layout.height);
      for (const b of placed.slice(i + 1)) expect(overlaps(a, b)).toBe(false);
    }
    expect(layout.edges).toHaveLength(edges.length);
  }
});

test('a chain is one row, a fork puts its branches in the next column; each edge runs from the right of one to the left of the other', () => {
  const chain = layoutDag(
    ['a', 'b', 'c'],
    [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
    ],
  );
  expect([...chain.nodes.values()].map((node) => [node.layer, node.y])).toEqual([
    [0, 12],
    [1, 12],
    [2, 12],
  ]);
  const fork = layoutDag(
    ['root', 'left', 'right', 'alone'],
    [
      { from: 'root', to: 'left' },
      { from: 'root', to: 'right' },
    ],
  );
  expect(['root', 'left', 'right', 'alone'].map((id) => fork.nodes.get(id)!.layer)).toEqual([0, 1, 1, 0]);
  const edge = fork.edges[0]!;
  const [from, to] = [fork.nodes.get('root')!, fork.nodes.get('left')!];
  expect(edge.path.startsWith(`M ${from.x + nodeSize.width} ${from.y + nodeSize.height / 2} `)).toBe(true);
  expect(edge.path.endsWith(`${to.x - 6} ${to.y + nodeSize.height / 2}`)).toBe(true);
});
