/**
 * Walks a syntax tree (Markdown's or HTML's: any node with `children`) depth first, in document
 * order, without recursion, so a deeply nested article cannot overflow the stack. `visit` sees each
 * node below `root` with its parent and index; returning `SKIP` leaves the node's children
 * unvisited. Children are read after the visit, so a visit may replace or change them.
 */
export const SKIP = Symbol('skip');

interface TreeNode {
  type: string;
  children?: readonly TreeNode[];
}

export function walkTree<Node extends TreeNode>(
  root: { children: readonly Node[] },
  visit: (node: Node, parent: { children: Node[] }, index: number) => void | typeof SKIP,
): void {
  const stack: Array<{ parent: { children: Node[] }; index: number }> = [];
  const pushChildren = (parent: { children?: readonly TreeNode[] }) => {
    const children = parent.children ?? [];
    for (let index = children.length - 1; index >= 0; index--)
      stack.push({ parent: parent as { children: Node[] }, index });
  };
  pushChildren(root);
  while (stack.length > 0) {
    const { parent, index } = stack.pop()!;
    const node = parent.children[index];
    if (node === undefined) continue;
    if (visit(node, parent, index) === SKIP) continue;
    pushChildren(parent.children[index] as TreeNode);
  }
}
