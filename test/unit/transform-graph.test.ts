import { describe, expect, test } from 'bun:test';
import { TransformGraph, type GraphNode } from '../../src/transforms/transform-graph';
import { parseSelector, selectIds } from '../../src/transforms/selector';

const node = (id: string, reads: string[] = [], dependsOn: string[] = []): GraphNode => ({ id, name: id, target: `t.${id}`, reads, dependsOn });

describe('transform graph', () => {
  test('dependencies come from the tables the SQL reads and from depends_on', () => {
    const graph = new TransformGraph([node('a', ['raw.x']), node('b', ['t.a', 'raw.y']), node('c', [], ['b']), node('d', ['t.a', 't.c'])]);
    expect(graph.edges()).toEqual([
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'a', to: 'd' },
      { from: 'c', to: 'd' },
    ]);
    expect(graph.order()).toEqual(['a', 'b', 'c', 'd']);
    expect([...graph.withUpstream(['c'])].sort()).toEqual(['a', 'b', 'c']);
    expect([...graph.withDownstream(['b'])].sort()).toEqual(['b', 'c', 'd']);
    expect(graph.dependenciesWithin('d', new Set(['c', 'd']))).toEqual(['c']);
    expect(graph.findCycle()).toBeUndefined();
  });

  test('the order respects every edge and is stable, whatever the creation order', () => {
    const graph = new TransformGraph([node('d', ['t.b', 't.c']), node('c', ['t.a']), node('b', ['t.a']), node('a')]);
    expect(graph.order()).toEqual(['a', 'c', 'b', 'd']);
    expect(graph.order(['d', 'b'])).toEqual(['b', 'd']);
  });

  test('cycles are found with their path', () => {
    expect(new TransformGraph([node('a', ['t.c']), node('b', ['t.a']), node('c', ['t.b'])]).findCycle()).toEqual(['a', 'c', 'b', 'a']);
    expect(new TransformGraph([node('a', [], ['a'])]).findCycle()).toEqual(['a', 'a']);
  });

  test('selectors: name, +name, name+, +name+, unions; bad terms and unknown names refused', () => {
    const graph = new TransformGraph([node('a'), node('b', ['t.a']), node('c', ['t.b']), node('x')]);
    const select = (selector: string) => [...selectIds(graph, selector)].sort();
    expect(select('b')).toEqual(['b']);
    expect(select('+b')).toEqual(['a', 'b']);
    expect(select('b+')).toEqual(['b', 'c']);
    expect(select('+b+')).toEqual(['a', 'b', 'c']);
    expect(select('a, x')).toEqual(['a', 'x']);
    expect(parseSelector('+a+')).toEqual([{ name: 'a', upstream: true, downstream: true }]);
    expect(() => select('++a')).toThrow('not a selector term');
    expect(() => select('nope')).toThrow('No transform is named');
    expect(() => select('  ')).toThrow('names no transform');
  });
});
