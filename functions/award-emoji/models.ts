// What GraphQL's AwardEmoji type is resolved from. schema/codegen.ts maps each `<Type>Model` exported here to the
// GraphQL type <Type>.
import type { AwardView } from '../../db/queries/award-emoji.ts';

export type AwardEmojiModel = AwardView;
