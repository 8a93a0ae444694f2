// The blame response as GitLab 13.6 emits it: lib/api/entities/blame_range.rb and blame_range_commit.rb, keys in
// Grape's exposure order.
import type { BlameGroupView } from './read.ts';
import { commitTime } from '../entities.ts';

/** Entities::BlameRange with Entities::BlameRangeCommit. */
export function toBlameRange(g: BlameGroupView) {
  const c = g.commit;
  return {
    commit: {
      id: c.oid,
      parent_ids: [...c.parentOids],
      message: c.message,
      authored_date: commitTime(c.authoredAt, c.authorTz),
      author_name: c.authorName,
      author_email: c.authorEmail,
      committed_date: commitTime(c.committedAt, c.committerTz),
      committer_name: c.committerName,
      committer_email: c.committerEmail,
    },
    lines: g.lines,
  };
}
