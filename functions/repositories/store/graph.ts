// Generation numbers for the commits of one write. A commit's generation is 1 + its parents' highest (1 for a root).
// Parents stored earlier are not read here: for each commit we count what the write alone says (`generation`) and
// note, for every parent outside the write it reaches through commits of the write, the longest distance to it
// (`reaches`); the insert completes the number in SQL with the stored parents' generations, in the same batch.

export interface GraphNode {
  oid: string;
  parents: readonly string[];
}

export interface Generation {
  generation: number;
  reaches: { oid: string; distance: number }[];
}

/** Each commit's generation within the write and the stored parents it reaches, iteratively (histories are deep). */
export function generations(commits: readonly GraphNode[]): Map<string, Generation> {
  const byOid = new Map(commits.map((c) => [c.oid, c]));
  const done = new Map<string, { generation: number; reaches: Map<string, number> }>();
  for (const start of commits) {
    // Depth-first, parents before children, with an explicit stack.
    const stack: { node: GraphNode; expanded: boolean }[] = [{ node: start, expanded: false }];
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      if (done.has(top.node.oid)) {
        stack.pop();
        continue;
      }
      if (!top.expanded) {
        top.expanded = true;
        for (const p of top.node.parents) {
          const parent = byOid.get(p);
          if (parent && !done.has(p)) stack.push({ node: parent, expanded: false });
        }
        continue;
      }
      stack.pop();
      let generation = 1;
      const reaches = new Map<string, number>();
      for (const p of top.node.parents) {
        const parent = done.get(p);
        if (!parent) {
          // Stored earlier (or a cycle, which hashing makes impossible): its generation is the database's to add.
          if (!byOid.has(p)) reaches.set(p, Math.max(reaches.get(p) ?? 0, 1));
          continue;
        }
        generation = Math.max(generation, parent.generation + 1);
        for (const [oid, distance] of parent.reaches) reaches.set(oid, Math.max(reaches.get(oid) ?? 0, distance + 1));
      }
      done.set(top.node.oid, { generation, reaches });
    }
  }
  return new Map([...done].map(([oid, g]) => [oid, { generation: g.generation, reaches: [...g.reaches].map(([o, distance]) => ({ oid: o, distance })) }]));
}
