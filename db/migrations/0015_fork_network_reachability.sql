CREATE TABLE "git_project_objects" (
	"project_id" integer NOT NULL,
	"oid" "bytea" NOT NULL,
	CONSTRAINT "git_project_objects_project_id_oid_pk" PRIMARY KEY("project_id","oid")
);
--> statement-breakpoint
ALTER TABLE "git_project_objects" ADD CONSTRAINT "git_project_objects_project_id_repositories_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."repositories"("project_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Merge requests: GitLab keeps each MR's source head in its target as refs/merge-requests/<iid>/head; so do we now.
INSERT INTO "git_refs" ("project_id", "name", "oid")
SELECT DISTINCT ON (mr.id) mr.target_project_id, 'refs/merge-requests/' || mr.iid || '/head', decode(d.head_commit_sha, 'hex')
FROM "merge_requests" mr
  JOIN "merge_request_diffs" d ON d.merge_request_id = mr.id
  JOIN "repositories" r ON r.project_id = mr.target_project_id
  JOIN "git_commits" c ON c.pool_id = r.pool_id AND c.oid = decode(d.head_commit_sha, 'hex')
ORDER BY mr.id, d.id DESC
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Existing repositories: every object reachable from each project's refs and from its merge requests' diff versions
-- (their shas stay readable, as GitLab's keep-around refs keep them) -- commits' parents and trees, trees' entries
-- except submodule links, annotated tags' targets -- walked once here; the ref writes keep the set from now on.
INSERT INTO "git_project_objects" ("project_id", "oid")
WITH RECURSIVE walk(project_id, pool_id, oid) AS (
  SELECT g.project_id, r.pool_id, g.oid FROM "git_refs" g JOIN "repositories" r ON r.project_id = g.project_id
  UNION
  SELECT mr.target_project_id, r.pool_id, decode(v.sha, 'hex')
  FROM "merge_requests" mr JOIN "merge_request_diffs" d ON d.merge_request_id = mr.id
    JOIN "repositories" r ON r.project_id = mr.target_project_id
    CROSS JOIN LATERAL (VALUES (d.head_commit_sha), (d.start_commit_sha), (d.base_commit_sha)) v(sha)
  WHERE v.sha IS NOT NULL
  UNION
  SELECT w.project_id, w.pool_id, ch.oid FROM walk w CROSS JOIN LATERAL (
    SELECT unnest(c.parent_oids || c.tree_oid) FROM "git_commits" c WHERE c.pool_id = w.pool_id AND c.oid = w.oid
    UNION ALL
    SELECT e.oid FROM "git_tree_entries" e WHERE e.pool_id = w.pool_id AND e.tree_oid = w.oid AND e.mode <> '160000'
    UNION ALL
    SELECT decode(convert_from(substring(o.data FROM 8 FOR 40), 'SQL_ASCII'), 'hex') FROM "git_objects" o
      WHERE o.pool_id = w.pool_id AND o.oid = w.oid AND o.type = 4
  ) ch(oid)
)
SELECT project_id, oid FROM walk ON CONFLICT DO NOTHING;
