// GraphQL over the notes domain: the Note and Discussion types, the Noteable connections (notes, discussions) and the
// createNote mutation (13.6 shapes). Notes of a page of noteables load in one query (DataLoader); what the actor may
// read or do is the policy's; createNote calls the same service verb as REST (event, to-dos, touch).
import { noteableType } from '../graphql/noteable-type.ts';
import { authorOrGhost } from '../users/ghost.ts';
import { GraphQLError } from 'graphql';
import type { NoteView } from '../../db/queries/notes.ts';
import { arrayConnection, type ConnectionArgs } from '../graphql/connection.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { mutation, resourceNotAvailable } from '../graphql/errors.ts';
import type { Resolvers } from '../graphql/generated.ts';
import { toGlobalId } from '../graphql/ids.ts';
import { scalars } from '../graphql/scalars.ts';
import type { DiscussionModel, NoteModel } from './models.ts';
import { isDomainError } from '../lib/errors.ts';
import { can } from '../lib/policy.ts';
import { createNote } from './create.ts';
import { findDiscussion, findNoteableById, noteFacts, type Noteable } from './service.ts';
import { iso, renderPlainText } from '../lib/format.ts';

const DISCUSSION_ERROR = "The discussion does not exist or you don't have permission to perform this action";

/** The noteable's notes the actor may read, oldest first (one query for all the noteables of a page). */
const readableNotes = ({ loaders }: GraphQLContext, noteable: Noteable): Promise<NoteView[]> => loaders.notes.load(noteable);

/** The readable notes grouped by discussion, in the order of their first notes. */
async function discussions(context: GraphQLContext, noteable: Noteable): Promise<DiscussionModel[]> {
  const byId = new Map<string, DiscussionModel>();
  for (const view of await readableNotes(context, noteable)) {
    const id = view.note.discussionId;
    const d = byId.get(id) ?? { noteable, id, notes: [] };
    d.notes.push(view);
    byId.set(id, d);
  }
  return [...byId.values()];
}

/** Noteable.notes */
export async function notesOf(context: GraphQLContext, noteable: Noteable, args: ConnectionArgs) {
  const notes: NoteModel[] = (await readableNotes(context, noteable)).map((view) => ({ noteable, view }));
  return arrayConnection(notes, args, (n) => n.view.note.id);
}

/** Noteable.discussions (cursors are the discussions' first note ids). */
export async function discussionsOf(context: GraphQLContext, noteable: Noteable, args: ConnectionArgs) {
  return arrayConnection(await discussions(context, noteable), args, (d) => d.notes[0]!.note.id);
}

/** SystemNoteHelper's icons for the system notes recorded here. */
const SYSTEM_NOTE_ICONS: Readonly<Record<string, string>> = {
  closed: 'issue-close',
  opened: 'issue-open',
  reopened: 'issue-open',
  assignee: 'user',
  label: 'label',
  milestone: 'clock',
  title: 'pencil',
  description: 'pencil-square',
  time_tracking: 'timer',
  confidential: 'eye-slash',
  discussion: 'comment',
  // Alerts' system notes.
  status: 'status',
  alert_issue_added: 'issues',
  new_alert_added: 'warning',
};

export const noteResolvers: Resolvers = {
  Noteable: {
    __resolveType: (obj) => noteableType(obj),
  },
  Note: {
    // The STI class names the global id (Note, DiscussionNote), as GitLab's to_global_id.
    id: (n) => toGlobalId(n.view.note.type ?? 'Note', n.view.note.id),
    body: (n) => n.view.note.body,
    bodyHtml: (n) => renderPlainText(n.view.note.body),
    author: (n, _a, { loaders }) => authorOrGhost(n.view.author ?? (n.view.note.authorId ? loaders.user.load(n.view.note.authorId) : null)),
    createdAt: (n) => iso(n.view.note.createdAt)!,
    updatedAt: (n) => iso(n.view.note.updatedAt)!,
    system: (n) => n.view.note.system,
    systemNoteIconName: (n) => (n.view.note.system ? (SYSTEM_NOTE_ICONS[n.view.note.systemAction ?? ''] ?? null) : null),
    confidential: (n) => n.view.note.confidential,
    discussion: async (n, _a, context) => (await discussions(context, n.noteable)).find((d) => d.id === n.view.note.discussionId) ?? null,
    project: (n) => n.noteable.project,
    resolvable: () => false,
    resolved: () => false,
    resolvedAt: () => null,
    resolvedBy: () => null,
    userPermissions: (n, _a, { ctx }) => {
      const facts = noteFacts(n.noteable, n.view.note);
      const admin = can(ctx.actor, 'note:admin', facts);
      return {
        adminNote: admin,
        awardEmoji: can(ctx.actor, 'awardable:award', facts),
        createNote: can(ctx.actor, 'noteable:create_note', n.noteable.facts),
        readNote: can(ctx.actor, 'note:read', facts),
        repositionNote: admin,
        // Notes here are never resolvable (no merge request diffs).
        resolveNote: false,
      };
    },
  },
  Discussion: {
    id: (d) => toGlobalId('Discussion', d.id),
    replyId: (d) => toGlobalId('Discussion', d.id),
    createdAt: (d) => iso(d.notes[0]!.note.createdAt)!,
    notes: (d, args) =>
      arrayConnection(
        d.notes.map((view) => ({ noteable: d.noteable, view })),
        args,
        (n) => n.view.note.id,
      ),
    resolvable: () => false,
    resolved: () => false,
    resolvedAt: () => null,
    resolvedBy: () => null,
  },
  Mutation: {
    createNote: async (_root, { input }, { ctx }) => {
      const { value, errors } = await mutation(async () => {
        // `ID` arguments in the contract, parsed as the NoteableID and DiscussionID scalars (with their messages).
        const gid = scalars.NoteableID.parseValue(input.noteableId) as { type: string; id: number | string };
        const discussionId = input.discussionId != null ? String(scalars.DiscussionID.parseValue(input.discussionId)) : null;
        if (typeof gid.id !== 'number') throw resourceNotAvailable();
        const noteable = await findNoteableById(ctx, { type: gid.type, id: gid.id });
        let replyTo: NoteView | null = null;
        if (discussionId !== null) {
          try {
            replyTo = (await findDiscussion(ctx, discussionId)).first;
          } catch (e) {
            if (isDomainError(e, 'not_found')) throw new GraphQLError(DISCUSSION_ERROR);
            throw e;
          }
        }
        return createNote({ ctx, input: { noteable, params: { body: input.body, confidential: input.confidential ?? undefined }, replyTo } });
      });
      return { clientMutationId: input.clientMutationId, errors, note: value ? { noteable: value.noteable, view: value.view } : null };
    },
  },
};
