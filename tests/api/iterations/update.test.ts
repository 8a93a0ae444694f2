// updateIteration (GitLab 13.6 EE Mutations::Iterations::Update, Iterations::UpdateService) and the iterations
// connection's `timeframe` argument (TimeFrameArguments, 13.5).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { iterations } from '../../../db/schema/index.ts';
import { addMember, createGroup } from '../../factories/groups.ts';
import { createIteration, day, gqlAs } from '../../factories/iterations.ts';
import { createUser } from '../../factories/users.ts';
import { testDb } from '../../helpers/app.ts';

const RESOURCE_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

const UPDATE = `mutation($input: UpdateIterationInput!) {
  updateIteration(input: $input) { clientMutationId errors iteration { id title description startDate dueDate state } }
}`;

async function fixture() {
  const owner = await createUser();
  const developer = await createUser();
  const reporter = await createUser();
  const group = await createGroup(owner.token);
  const sub = await createGroup(owner.token, { parentId: group.id });
  await addMember(owner.token, 'groups', group.id, developer.user.id, 30);
  await addMember(owner.token, 'groups', group.id, reporter.user.id, 20);
  const first = await createIteration(owner.token, group.full_path, { title: 'First', description: 'one', startDate: day(10), dueDate: day(15) });
  const second = await createIteration(owner.token, group.full_path, { title: 'Second', startDate: day(20), dueDate: day(25) });
  return { owner, developer, reporter, group, sub, first, second, firstId: Number(first.id.split('/').pop()) };
}

const row = async (id: number) => (await testDb().db.select().from(iterations).where(eq(iterations.id, id)))[0]!;

describe('updateIteration', () => {
  it('updates the attributes given (developers), by global or plain id, through the group or a subgroup', async () => {
    const f = await fixture();
    const res = await gqlAs(f.developer.token, UPDATE, {
      input: { groupPath: f.group.full_path, id: f.first.id, title: 'Renamed', description: null, clientMutationId: 'm1' },
    });
    expect(res.body).toEqual({
      data: {
        updateIteration: {
          clientMutationId: 'm1',
          errors: [],
          iteration: { id: f.first.id, title: 'Renamed', description: null, startDate: day(10), dueDate: day(15), state: 'upcoming' },
        },
      },
    });
    // IterationsResolver includes ancestors: the root group's iteration through the subgroup, by its plain id.
    const moved = await gqlAs(f.owner.token, UPDATE, { input: { groupPath: f.sub.full_path, id: String(f.firstId), startDate: day(11), dueDate: day(16) } });
    expect(moved.body.data.updateIteration).toMatchObject({ errors: [], iteration: { title: 'Renamed', startDate: day(11), dueDate: day(16) } });
    expect(await row(f.firstId)).toMatchObject({ title: 'Renamed', description: null, startDate: day(11), dueDate: day(16) });
  });

  it('keeps dates that do not change out of the date rules (a past iteration can be renamed; its own dates do not overlap)', async () => {
    const f = await fixture();
    await testDb()
      .db.update(iterations)
      .set({ startDate: day(-9), dueDate: day(-5) })
      .where(eq(iterations.id, f.firstId));
    const res = await gqlAs(f.owner.token, UPDATE, { input: { groupPath: f.group.full_path, id: f.first.id, title: 'Past', startDate: day(-9) } });
    expect(res.body.data.updateIteration).toMatchObject({ errors: [], iteration: { title: 'Past', state: 'closed' } });
  });

  it('returns the model errors and writes nothing', async () => {
    const f = await fixture();
    const before = await row(f.firstId);
    for (const [attributes, errors] of [
      [{ title: '' }, ["Title can't be blank"]],
      [{ title: 'x'.repeat(256) }, ['Title is too long (maximum is 255 characters)']],
      [{ title: 'Second' }, ['Title already being used for another group or project iteration.']],
      [{ startDate: day(19), dueDate: day(21) }, ['Dates cannot overlap with other existing Iterations']],
      [{ dueDate: day(9) }, ['Due date must be greater than start date']],
      [{ startDate: day(-1) }, ['Start date cannot be in the past']],
      [{ startDate: 'soon' }, ["Start date can't be blank"]],
    ] as const) {
      const res = await gqlAs(f.owner.token, UPDATE, { input: { groupPath: f.group.full_path, id: f.first.id, ...attributes } });
      expect({ attributes, body: res.body }).toEqual({ attributes, body: { data: { updateIteration: { clientMutationId: null, errors, iteration: null } } } });
    }
    expect(await row(f.firstId)).toEqual(before);
  });

  it('refuses an empty attribute list before anything else', async () => {
    const f = await fixture();
    const res = await gqlAs(undefined, UPDATE, { input: { groupPath: 'nowhere', id: '1' } });
    expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual(['The list of iteration attributes is empty']);
  });

  it('is the resource error for reporters, strangers, anonymous callers, free instances and unknown ids', async () => {
    const f = await fixture();
    const stranger = await createUser();
    const before = await row(f.firstId);
    for (const [token, id, tier] of [
      [f.reporter.token, f.first.id, 'premium'],
      [stranger.token, f.first.id, 'premium'],
      [undefined, f.first.id, 'premium'],
      [f.owner.token, f.first.id, 'free'],
      [f.owner.token, 'gid://gitlab/Iteration/999999', 'premium'],
      [f.owner.token, 'gid://gitlab/Milestone/1', 'premium'],
    ] as const) {
      const res = await gqlAs(token, UPDATE, { input: { groupPath: f.group.full_path, id, title: 'Nope' } }, tier);
      expect({ id, tier, data: res.body.data, errors: res.body.errors?.map((e: { message: string }) => e.message) }).toEqual({
        id,
        tier,
        data: { updateIteration: null },
        errors: [RESOURCE_ERROR],
      });
    }
    expect(await row(f.firstId)).toEqual(before);
  });
});

describe('Group.iterations(timeframe:)', () => {
  const QUERY = `query($path: ID!, $timeframe: Timeframe, $start: Time, $end: Time) {
    group(fullPath: $path) { iterations(timeframe: $timeframe, startDate: $start, endDate: $end) { nodes { title } } }
  }`;

  it('lists the iterations overlapping the timeframe, and refuses it with the deprecated pair or reversed', async () => {
    const f = await fixture();
    const run = (variables: Record<string, unknown>) => gqlAs(f.owner.token, QUERY, { path: f.group.full_path, ...variables });
    const nodes = async (variables: Record<string, unknown>) => (await run(variables)).body.data.group.iterations.nodes.map((n: { title: string }) => n.title);
    expect(await nodes({ timeframe: { start: day(15), end: day(20) } })).toEqual(['First', 'Second']);
    expect(await nodes({ timeframe: { start: day(16), end: day(19) } })).toEqual([]);
    expect(await nodes({ timeframe: { start: day(0), end: day(12) } })).toEqual(['First']);
    const messages = async (variables: Record<string, unknown>) => (await run(variables)).body.errors?.map((e: { message: string }) => e.message);
    expect(await messages({ timeframe: { start: day(1), end: day(2) }, start: day(1), end: day(2) })).toEqual([
      'startDate and endDate are deprecated in favor of timeframe. Please use only timeframe.',
    ]);
    expect(await messages({ timeframe: { start: day(5), end: day(2) } })).toEqual(['startDate is after endDate']);
  });
});
