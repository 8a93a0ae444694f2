// The reads of the issuables' queries that issues, merge requests and other domains use below their own policy check
// (own-queries in .dependency-cruiser.cjs: a domain imports only its own queries). A leaf: it imports only db/queries,
// so importing it closes no cycle.
export { assignableUserIds, assignableUsersQuery } from '../../db/queries/issuables/assignees.ts';
export { findIssuableMilestone, issuableMilestoneIdSql } from '../../db/queries/issuables/milestones.ts';
export { usersWithProjectLevels, usersWithProjectLevelsByRefQuery } from '../../db/queries/issuables/mentions.ts';
export { findParticipants } from '../../db/queries/issuables/participants.ts';
