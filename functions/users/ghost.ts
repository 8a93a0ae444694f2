// GitLab's ghost user (User.ghost): who authored what a deleted user left behind. GraphQL's non-null `author`
// fields show it where the author row is gone (REST shows `author: null`). Not a row: nothing can sign in as it.
import type { UserRow } from '../../db/schema/index.ts';

const EPOCH = new Date(0);

export const GHOST_USER: UserRow = {
  id: 0,
  username: 'ghost',
  name: 'Ghost User',
  email: 'ghost@example.invalid',
  state: 'active',
  admin: false,
  userType: null,
  passwordHash: null,
  avatarUrl: null,
  privateProfile: false,
  bio: 'This is a "Ghost User", created to hold all issues authored by users that have since been deleted. This user cannot be removed.',
  location: '',
  publicEmail: '',
  websiteUrl: '',
  organization: '',
  jobTitle: '',
  skype: '',
  linkedin: '',
  twitter: '',
  themeId: 1,
  colorSchemeId: 1,
  note: null,
  sharedRunnersMinutesLimit: null,
  extraSharedRunnersMinutesLimit: null,
  projectsLimit: 0,
  canCreateGroup: false,
  external: false,
  confirmedAt: null,
  notificationEmail: null,
  lastSignInAt: null,
  currentSignInAt: null,
  lastActivityOn: null,
  identities: [],
  createdAt: EPOCH,
  updatedAt: EPOCH,
};

/** The author, or the ghost user when it was deleted (or never existed). */
export const authorOrGhost = async (author: UserRow | null | Promise<UserRow | null>) => (await author) ?? GHOST_USER;
