import { describe, expect, it } from 'vitest';
import { SKIP, walkTree } from '../src/base/trees.ts';

type Node = { type: string; children?: Node[] };
const tree = (): { type: 'root'; children: Node[] } => ({
  type: 'root',
  children: [
    { type: 'a', children: [{ type: 'a1' }, { type: 'a2', children: [{ type: 'a2x' }] }] },
    { type: 'b', children: [{ type: 'b1' }] },
    { type: 'c' },
  ],
});

describe('walkTree', () => {
  it('visits every node below the root in document order, with its parent and index', () => {
    const seen: string[] = [];
    walkTree<Node>(tree(), (node, parent, index) => {
      expect(parent.children[index]).toBe(node);
      seen.push(node.type);
    });
    expect(seen).toEqual(['a', 'a1', 'a2', 'a2x', 'b', 'b1', 'c']);
  });

  it('skips the children of a node whose visit says SKIP, and walks into what a visit put in its place', () => {
    const seen: string[] = [];
    walkTree<Node>(tree(), (node, parent, index) => {
      seen.push(node.type);
      if (node.type === 'a') return SKIP;
      if (node.type === 'b') parent.children[index] = { type: 'B', children: [{ type: 'B1' }] };
      return undefined;
    });
    expect(seen).toEqual(['a', 'b', 'B1', 'c']);
  });

  it('walks a tree nested 100,000 deep without overflowing the stack', () => {
    const root: { type: 'root'; children: Node[] } = { type: 'root', children: [] };
    let parent: { children: Node[] } = root;
    for (let depth = 0; depth < 100_000; depth++) {
      const node: Node = { type: 'q', children: [] };
      parent.children.push(node);
      parent = node as { children: Node[] };
    }
    let count = 0;
    walkTree<Node>(root, () => void count++);
    expect(count).toBe(100_000);
  });
});
