// GraphQL over award emoji: the AwardEmoji type and awardEmojiAdd/Remove/Toggle with their deprecated twins
// (addAwardEmoji, removeAwardEmoji, toggleAwardEmoji; 13.6 shapes). The awardable is found by global id through the
// award-emoji service (its domain's finder decides readability), and the same service verbs as REST do the work.
import { GraphQLError } from 'graphql';
import type { RequestContext } from '../lib/context.ts';
import { mutation, resourceNotAvailable } from '../graphql/errors.ts';
import { scalars } from '../graphql/scalars.ts';
import type { Resolvers } from '../graphql/generated.ts';
import type { AwardEmojiModel } from './models.ts';
import { emojiInfo } from './emoji.ts';
import { addAward, findAwardableById, isEmojiAwardable, removeAward, toggleAward, type Awardable } from './service.ts';

interface AwardInput {
  /** A global id of an awardable (`ID!` in the contract; parsed as the AwardableID scalar, with its messages). */
  awardableId: string;
  name: string;
  clientMutationId?: string | null;
}

/**
 * Mutations::AwardEmojis::Base: a readable awardable that is emoji-awardable (a system note is not: 'Cannot award
 * emoji to this resource'); whether the caller may award is the service's (the policy's awardable:award).
 */
async function awardable(ctx: RequestContext, input: AwardInput): Promise<Awardable> {
  const { type, id } = scalars.AwardableID.parseValue(input.awardableId) as { type: string; id: number | string };
  if (typeof id !== 'number') throw resourceNotAvailable();
  const found = await findAwardableById(ctx, { type, id });
  // Found readable; checked before the service's permission check, as Mutations::AwardEmojis::Base does.
  if (!isEmojiAwardable(found)) throw new GraphQLError('Cannot award emoji to this resource');
  return found;
}

const toModel = (a: { award: AwardEmojiModel['award']; user: AwardEmojiModel['user'] }): AwardEmojiModel => ({ award: a.award, user: a.user, total: null });

async function add(ctx: RequestContext, input: AwardInput) {
  const { value, errors } = await mutation(async () => addAward({ ctx, input: { awardable: await awardable(ctx, input), name: input.name } }));
  return { clientMutationId: input.clientMutationId, errors, awardEmoji: value ? toModel(value) : null };
}

async function remove(ctx: RequestContext, input: AwardInput) {
  const { errors } = await mutation(async () => removeAward({ ctx, input: { awardable: await awardable(ctx, input), name: input.name } }));
  return { clientMutationId: input.clientMutationId, errors, awardEmoji: null };
}

async function toggle(ctx: RequestContext, input: AwardInput) {
  const { value, errors } = await mutation(async () => toggleAward({ ctx, input: { awardable: await awardable(ctx, input), name: input.name } }));
  return { clientMutationId: input.clientMutationId, errors, awardEmoji: value?.award ? toModel(value.award) : null, toggledOn: value?.toggledOn ?? false };
}

export const awardEmojiResolvers: Resolvers = {
  AwardEmoji: {
    name: (a) => a.award.name,
    description: (a) => emojiInfo(a.award.name)?.description ?? a.award.name,
    emoji: (a) => emojiInfo(a.award.name)?.emoji ?? '',
    unicode: (a) => emojiInfo(a.award.name)?.unicode ?? '',
    unicodeVersion: (a) => emojiInfo(a.award.name)?.unicodeVersion ?? '',
    user: (a) => a.user,
  },
  Mutation: {
    awardEmojiAdd: (_root, { input }, { ctx }) => add(ctx, input),
    awardEmojiRemove: (_root, { input }, { ctx }) => remove(ctx, input),
    awardEmojiToggle: (_root, { input }, { ctx }) => toggle(ctx, input),
    addAwardEmoji: (_root, { input }, { ctx }) => add(ctx, input),
    removeAwardEmoji: (_root, { input }, { ctx }) => remove(ctx, input),
    toggleAwardEmoji: (_root, { input }, { ctx }) => toggle(ctx, input),
  },
};
