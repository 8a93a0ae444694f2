// Ten commits racing on one branch (run it on PostgreSQL: `TEST_DB=postgres`, real concurrent transactions through
// the production Neon drivers): each ref move is a compare-and-swap in the commit's batch, so the branch history
// stays linear and holds exactly the winners; every loser gets GitLab's "Could not update branch" and leaves
// nothing (no commit reachable, no push event).
import { describe, expect, it } from 'vitest';
import { createUser } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';

describe('parallel POST /repository/commits on one branch', () => {
  it('linear history of exactly the winners; losers get the conflict error and record nothing', async () => {
    const owner = await createUser();
    const created = await api.post('/projects', { token: owner.token, body: { name: `race-${Date.now()}`, initialize_with_readme: true } });
    expect(created.status).toBe(201);
    const id = (created.body as { id: number }).id;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api.post(`/projects/${id}/repository/commits`, {
          token: owner.token,
          body: { branch: 'master', commit_message: `racer ${i}`, actions: [{ action: 'create', file_path: `racer-${i}.txt`, content: `${i}` }] },
        }),
      ),
    );
    const winners = results.filter((r) => r.status === 201).map((r) => r.body as { id: string; parent_ids: string[]; title: string });
    const losers = results.filter((r) => r.status !== 201);
    console.log(`10 racing commits: ${winners.length} won, ${losers.length} lost the compare-and-swap`);
    expect(winners.length).toBeGreaterThanOrEqual(1);
    for (const l of losers) {
      expect(l.status, l.text).toBe(400);
      expect(l.body).toEqual({ message: 'Could not update branch master. Please refresh and try again.' });
    }
    const log = (await api.get(`/projects/${id}/repository/commits`, { token: owner.token, query: { per_page: 100 } })).body as {
      id: string;
      parent_ids: string[];
      title: string;
    }[];
    // Linear: each commit's only parent is the next one down; the history is the winners plus the initial commit.
    log.forEach((c, i) => expect(c.parent_ids).toEqual(i + 1 < log.length ? [log[i + 1]!.id] : []));
    expect(new Set(log.slice(0, -1).map((c) => c.id))).toEqual(new Set(winners.map((w) => w.id)));
    expect(log.at(-1)!.title).toBe('Initial commit');
    const tree = (await api.get(`/projects/${id}/repository/tree`, { token: owner.token, query: { per_page: 100 } })).body as { name: string }[];
    expect(tree.map((e) => e.name).sort()).toEqual(['README.md', ...winners.map((w) => `${w.title.replace('racer ', 'racer-')}.txt`)].sort());
    const pushes = (await api.get(`/projects/${id}/events`, { token: owner.token, query: { action: 'pushed', per_page: 100 } })).body as unknown[];
    expect(pushes).toHaveLength(winners.length + 1);
  });
});
