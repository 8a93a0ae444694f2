// Project uploads (Markdown attachments): the row that owns a stored file, and the lookup the file's URL names.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { namespaces, projectUploads, projects } from '../../schema/index.ts';

export async function insertProjectUpload(db: Db, values: typeof projectUploads.$inferInsert) {
  const [row] = await db.insert(projectUploads).values(values).returning();
  return row!;
}

/** The upload `secret`/`filename` names in the live project at `projectPath` (paths compare case-insensitively). */
export async function findProjectUpload(db: Db, projectPath: string, secret: string, filename: string) {
  const [row] = await db
    .select({ upload: projectUploads, projectId: projects.id })
    .from(projectUploads)
    .innerJoin(projects, eq(projects.id, projectUploads.projectId))
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .where(
      and(
        sql`lower(${projects.pathWithNamespace}) = lower(${projectPath})`,
        isNull(projects.deletedAt),
        isNull(namespaces.deletedAt),
        eq(projectUploads.secret, secret),
        eq(projectUploads.filename, filename),
      ),
    )
    .limit(1);
  return row;
}
