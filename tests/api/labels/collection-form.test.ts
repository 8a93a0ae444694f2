// The collection form GitLab 13.x still serves (deprecated in 12.4, used by python-gitlab's `label.save()`):
// `PUT /{projects,groups}/:id/labels` and `DELETE .../labels` with the label named in the body by `name` or
// `label_id`. It answers as the `.../labels/:label_id` form does.
import { describe, expect, it } from 'vitest';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createLabel } from '../../factories/labels.ts';
import { createProject } from '../../factories/projects.ts';
import { createUser } from '../../factories/users.ts';
import { api } from '../../helpers/app.ts';

async function project() {
  const owner = await createUser();
  const group = await createGroup(owner.token);
  const created = await createProject(owner.token, { namespaceId: group.id });
  return { owner, group, project: created };
}

describe('PUT /projects/:id/labels', () => {
  it('updates the label named by `name` or `label_id`, answering as PUT .../labels/:label_id', async () => {
    const { owner, project: p } = await project();
    const base = `/projects/${p.id}/labels`;
    const label = await createLabel(owner.token, 'projects', p.id, { name: 'bug', color: '#FF0000' });
    const twin = await createLabel(owner.token, 'projects', p.id, { name: 'twin', color: '#FF0000' });

    const byName = await api.put(base, { token: owner.token, body: { name: 'bug', new_name: 'defect', color: '#00FF00', description: 'd', priority: 2 } });
    expect(byName.status, byName.text).toBe(200);
    const itemForm = await api.put(`${base}/${twin.id}`, { token: owner.token, body: { new_name: 'twin2', color: '#00FF00', description: 'd', priority: 2 } });
    expect(byName.body).toEqual({ ...itemForm.body, id: label.id, name: 'defect' });

    const byId = await api.put(base, { token: owner.token, form: { label_id: String(label.id), priority: '' } });
    expect(byId.status, byId.text).toBe(200);
    expect(byId.body).toMatchObject({ id: label.id, name: 'defect', priority: null });
    expect((await api.get(`${base}/${label.id}`, { token: owner.token })).body).toEqual(byId.body);
  });

  it("Grape's parameter rules, then 404 for a label that is not the project's own", async () => {
    const { owner, group, project: p } = await project();
    const base = `/projects/${p.id}/labels`;
    const label = await createLabel(owner.token, 'projects', p.id);
    const groupLabel = await createLabel(owner.token, 'groups', group.id);
    const put = (body: Record<string, unknown>) => api.put(base, { token: owner.token, body });
    const cases: Array<[Record<string, unknown>, number, unknown]> = [
      [{ color: 'red' }, 400, { error: 'label_id, name are missing, exactly one parameter must be provided' }],
      [{ name: label.name, label_id: label.id, color: 'red' }, 400, { error: 'label_id, name are mutually exclusive' }],
      [{ name: label.name }, 400, { error: 'new_name, color, description, priority are missing, at least one parameter must be provided' }],
      [
        {},
        400,
        {
          error:
            'new_name, color, description, priority are missing, at least one parameter must be provided, label_id, name are missing, exactly one parameter must be provided',
        },
      ],
      [{ label_id: 'bug', color: 'red' }, 400, { error: 'label_id is invalid' }],
      [{ name: 'no such label', color: 'red' }, 404, { message: '404 Label Not Found' }],
      [{ name: groupLabel.name, color: 'red' }, 404, { message: '404 Label Not Found' }],
    ];
    for (const [body, status, expected] of cases) {
      const res = await put(body);
      expect([res.status, res.body], JSON.stringify(body)).toEqual([status, expected]);
    }
  });

  it('needs a signed-in reporter, as the item form', async () => {
    const { owner, project: p } = await project();
    const label = await createLabel(owner.token, 'projects', p.id);
    const guest = await createUser();
    await addMember(owner.token, 'projects', p.id, guest.user.id, 10);
    expect(await api.put(`/projects/${p.id}/labels`, { body: { name: label.name, color: 'red' } })).toMatchObject({ status: 401 });
    expect(await api.put(`/projects/${p.id}/labels`, { token: guest.token, body: { name: label.name, color: 'red' } })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
  });
});

describe('DELETE /projects/:id/labels', () => {
  it('deletes the label named by `name` or `label_id`', async () => {
    const { owner, project: p } = await project();
    const base = `/projects/${p.id}/labels`;
    const one = await createLabel(owner.token, 'projects', p.id);
    const two = await createLabel(owner.token, 'projects', p.id);
    expect((await api.delete(base, { token: owner.token, body: {} })).body).toEqual({
      error: 'label_id, name are missing, exactly one parameter must be provided',
    });
    expect((await api.delete(base, { token: owner.token, body: { name: one.name } })).status).toBe(204);
    expect((await api.delete(base, { token: owner.token, form: { label_id: String(two.id) } })).status).toBe(204);
    expect((await api.get(base, { token: owner.token, query: { include_ancestor_groups: 'false' } })).body).toEqual([]);
    expect(await api.delete(base, { token: owner.token, body: { name: one.name } })).toMatchObject({ status: 404, body: { message: '404 Label Not Found' } });
  });
});

describe('PUT and DELETE /groups/:id/labels', () => {
  it('updates by `name` or `label_id` as PUT .../labels/:label_id; deletes by `name` (the only key 13.x takes there)', async () => {
    const { owner, group } = await project();
    const base = `/groups/${group.id}/labels`;
    const label = await createLabel(owner.token, 'groups', group.id, { name: 'g-bug' });
    const twin = await createLabel(owner.token, 'groups', group.id, { name: 'g-twin' });

    const byName = await api.put(base, { token: owner.token, body: { name: 'g-bug', new_name: 'g-defect', color: '#00FF00', description: 'd' } });
    expect(byName.status, byName.text).toBe(200);
    const itemForm = await api.put(`${base}/${twin.id}`, { token: owner.token, body: { new_name: 'g-twin2', color: '#00FF00', description: 'd' } });
    expect(byName.body).toEqual({ ...itemForm.body, id: label.id, name: 'g-defect' });
    const byId = await api.put(base, { token: owner.token, body: { label_id: label.id, description: null } });
    expect(byId.body).toMatchObject({ id: label.id, name: 'g-defect', description: null });
    expect((await api.put(base, { token: owner.token, body: { label_id: label.id } })).body).toEqual({
      error: 'new_name, color, description are missing, at least one parameter must be provided',
    });

    expect((await api.delete(base, { token: owner.token, body: { label_id: label.id } })).body).toEqual({ error: 'name is missing' });
    expect((await api.delete(base, { token: owner.token, body: { name: 'g-defect' } })).status).toBe(204);
    expect((await api.get(base, { token: owner.token })).body.map((l: { name: string }) => l.name)).toEqual(['g-twin2']);
  });
});
