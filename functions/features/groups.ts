// Feature groups (Flipper's registered groups, GitLab's `Feature.register_feature_groups`): a name, and the rule
// that says whether an actor belongs to it. Enabling a flag for a group stores only the name; membership is
// decided when the flag is evaluated.

/** Who a flag is evaluated for. Its Flipper id is `<type>:<id>` (`User:42`, `Project:7`, `Group:3`). */
export type FeatureActor = { type: 'User'; id: number; admin: boolean } | { type: 'Project'; id: number } | { type: 'Group'; id: number };

export const flipperId = (actor: FeatureActor) => `${actor.type}:${actor.id}`;

export const userActor = (user: { id: number; admin: boolean }): FeatureActor => ({ type: 'User', id: user.id, admin: user.admin });

export const FEATURE_GROUPS: Readonly<Record<string, (actor: FeatureActor) => boolean>> = {
  /** Instance administrators. */
  admins: (actor) => actor.type === 'User' && actor.admin,
};

export const isFeatureGroup = (name: string) => Object.hasOwn(FEATURE_GROUPS, name);
