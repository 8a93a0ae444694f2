// The SQL visibility filter (visibleSnippetsFilter, used by the lists) and the policy (snippet:read, used by the
// single-snippet endpoints) must agree: for every caller, the snippets the filter keeps are exactly those GET answers
// with 200.
import { and, eq, inArray } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { namespaces, projects, snippets } from '../../../db/schema/index.ts';
import { anonymous, type Actor } from '../../../functions/lib/context.ts';
import { visibleSnippetsFilter } from '../../../db/queries/lib/access.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createProjectSnippet, createSnippet, type SnippetEntity } from '../../factories/snippets.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { api, testDb } from '../../helpers/app.ts';

const VISIBILITIES = ['private', 'internal', 'public'] as const;

it('visibleSnippetsFilter keeps exactly the snippets GET shows, for every kind of caller', async () => {
  const author = await createUser();
  const guest = await createUser();
  const stranger = await createUser();
  const external = await createUser({ external: true });
  const externalMember = await createUser({ external: true });
  const admin = await createAdmin();
  const group = await createGroup(author.token, { visibility: 'public' });

  const all: { snippet: SnippetEntity; path: string }[] = [];
  for (const visibility of VISIBILITIES) {
    const s = await createSnippet(author.token, { visibility });
    all.push({ snippet: s, path: `/snippets/${s.id}` });
  }
  for (const projectVisibility of VISIBILITIES) {
    const project = await createProject(author.token, { visibility: projectVisibility, namespaceId: group.id });
    await addMember(author.token, 'projects', project.id, guest.user.id, 10);
    await addMember(author.token, 'projects', project.id, externalMember.user.id, 10);
    for (const visibility of VISIBILITIES) {
      const s = await createProjectSnippet(author.token, project.id, { visibility });
      all.push({ snippet: s, path: `/projects/${project.id}/snippets/${s.id}` });
    }
  }
  const ids = all.map((x) => x.snippet.id);

  const callers: [string, Actor, string | undefined][] = [
    ['author', { user: author.user, scopes: ['api'], via: 'personal_access_token' }, author.token],
    ['guest member', { user: guest.user, scopes: ['api'], via: 'personal_access_token' }, guest.token],
    ['stranger', { user: stranger.user, scopes: ['api'], via: 'personal_access_token' }, stranger.token],
    ['external', { user: external.user, scopes: ['api'], via: 'personal_access_token' }, external.token],
    ['external member', { user: externalMember.user, scopes: ['api'], via: 'personal_access_token' }, externalMember.token],
    ['admin', { user: admin.user, scopes: ['api'], via: 'personal_access_token' }, admin.token],
    ['anonymous', anonymous, undefined],
  ];
  const counts: Record<string, number> = {};
  for (const [name, actor, token] of callers) {
    const kept = await testDb()
      .db.select({ id: snippets.id })
      .from(snippets)
      .leftJoin(projects, eq(projects.id, snippets.projectId))
      .leftJoin(namespaces, eq(namespaces.id, projects.namespaceId))
      .where(and(inArray(snippets.id, ids), visibleSnippetsFilter(actor)));
    const shown: number[] = [];
    for (const { snippet, path } of all) if ((await api.get(path, { token })).status === 200) shown.push(snippet.id);
    expect(
      kept.map((r) => r.id).sort((a, b) => a - b),
      name,
    ).toEqual(shown.sort((a, b) => a - b));
    counts[name] = shown.length;
  }
  // Personal private/internal/public, then 3 projects x 3 snippets: anonymous sees the two public-in-public ones.
  expect(counts).toEqual({ author: 12, 'guest member': 11, stranger: 6, external: 2, 'external member': 10, admin: 12, anonymous: 2 });
});
