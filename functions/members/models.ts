// What GraphQL's ProjectMember and GroupMember types are resolved from. schema/codegen.ts maps each `<Type>Model`
// exported here to the GraphQL type <Type>.
import type { MemberRow, UserRow } from '../../db/schema/index.ts';

/** A membership of a project (ProjectMember) or a group (GroupMember), with its user. */
export type MemberModel = { member: MemberRow; user: UserRow };
export type ProjectMemberModel = MemberModel;
export type GroupMemberModel = MemberModel;
