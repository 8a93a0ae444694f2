// GraphQL over test cases (13.6): createTestCase, whose payload is the created Issue (there is no TestCase type in
// 13.6). Unlicensed: the payload's errors, not a top-level error.
import { mutation } from '../graphql/errors.ts';
import type { Resolvers } from '../graphql/generated.ts';
import { parseGlobalId } from '../graphql/ids.ts';
import { createTestCase } from './service.ts';

const LABEL_MODELS = ['Label', 'ProjectLabel', 'GroupLabel'];

/** A label id as a global id of a label, or a bare number (13.6 takes `[ID]`); anything else names no label. */
function labelIdOf(value: string): number | null {
  if (/^\d{1,10}$/.test(value)) return Number(value) <= 2_147_483_647 ? Number(value) : null;
  const gid = parseGlobalId(value);
  return gid && LABEL_MODELS.includes(gid.type) && typeof gid.id === 'number' ? gid.id : null;
}

export const testCaseResolvers: Resolvers = {
  Mutation: {
    createTestCase: async (_root, { input }, { ctx }) => {
      const labelIds = (input.labelIds ?? []).flatMap((id) => labelIdOf(id) ?? []);
      const { value, errors } = await mutation(() =>
        createTestCase({ ctx, input: { projectPath: input.projectPath, title: input.title, description: input.description, labelIds } }),
      );
      return { clientMutationId: input.clientMutationId, errors, testCase: value };
    },
  },
};
