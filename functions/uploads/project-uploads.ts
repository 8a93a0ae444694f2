// POST /projects/:id/uploads (GitLab 13.6's UploadService and FileUploader): a Markdown attachment stored in the
// chunked byte store under a random secret, answered with 13.6's Entities::ProjectUpload (alt, url, full_path,
// markdown); and its reading at /<project>/uploads/<secret>/<filename> under the project's read rule.
import { findProjectUpload, insertProjectUpload } from '../../db/queries/uploads/project-uploads.ts';
import { instanceSettings } from '../application-settings/service.ts';
import { requireUser } from '../lib/auth.ts';
import type { RequestContext } from '../lib/context.ts';
import { toHex } from '../lib/crypto.ts';
import { notFound, tooLarge } from '../lib/errors.ts';
import type { Ref } from '../lib/ids.ts';
import { assertCan, can } from '../lib/policy.ts';
import { discardStoredFile, FileTooLarge, readStoredFile, writeStoredFile } from '../lib/stored-files.ts';
import { findProject, projectFacts } from '../projects/service.ts';
import { findProjectView } from '../projects/lookups.ts';
import { sanitizeFilename } from './avatars.ts';
import { imageType } from './sniff.ts';

/** Gitlab::FileTypeDetection's images and videos: shown inline in Markdown (`![alt](url)`), the rest linked. */
const EMBEDDABLE = /\.(png|jpe?g|gif|bmp|tiff|ico|webp|mp4|m4v|mov|webm|ogv)$/i;

export interface UploadedFile {
  name: string;
  stream(): ReadableStream<Uint8Array>;
}

async function* piecesOf(file: UploadedFile) {
  const reader = file.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

export async function createProjectUpload(ctx: RequestContext, ref: Ref | null, file: UploadedFile) {
  const user = requireUser(ctx);
  const project = await findProject(ctx, ref);
  assertCan(ctx.actor, 'project:upload_file', projectFacts(project));
  const filename = sanitizeFilename(file.name);
  const maxBytes = Number((await instanceSettings(ctx)).max_attachment_size) * 1024 * 1024;
  let stored;
  try {
    stored = await writeStoredFile(ctx.db, piecesOf(file), { maxBytes });
  } catch (error) {
    if (error instanceof FileTooLarge) throw tooLarge('413 Request Entity Too Large');
    throw error;
  }
  const secret = toHex(crypto.getRandomValues(new Uint8Array(16)).buffer);
  try {
    await insertProjectUpload(ctx.db, { projectId: project.project.id, secret, filename, fileId: stored.id, size: stored.size, createdById: user.id });
  } catch (error) {
    await discardStoredFile(ctx.db, stored.id);
    throw error;
  }
  const url = `/uploads/${secret}/${filename}`;
  const alt = filename.replace(/\.[^.]*$/, '');
  return {
    alt,
    url,
    full_path: `/${project.project.pathWithNamespace}${url}`,
    markdown: EMBEDDABLE.test(filename) ? `![${alt}](${url})` : `[${filename}](${url})`,
  };
}

/**
 * The upload a project URL names, when the actor may read the project (404 otherwise, whether it exists or not):
 * its bytes as a stream, and how to serve them. Images whose bytes are what they claim are shown inline; anything
 * else is a download.
 */
export async function readProjectUpload(ctx: RequestContext, a: { projectPath: string; secret: string; filename: string }) {
  const found = await findProjectUpload(ctx.db, a.projectPath, a.secret, a.filename);
  const view = found ? await findProjectView(ctx.db, ctx.actor, { id: found.projectId }) : undefined;
  if (!found || !view || !can(ctx.actor, 'project:read', projectFacts(view))) throw notFound();
  const { upload } = found;
  const head = upload.size > 0 ? await firstBytes(readStoredFile(ctx.db, { id: upload.fileId, size: upload.size })) : new Uint8Array();
  const image = imageType(head);
  return {
    upload,
    contentType: image ?? 'application/octet-stream',
    inline: image !== null,
    body: readStoredFile(ctx.db, { id: upload.fileId, size: upload.size }),
  };
}

/** The first chunk of a stored file (enough for its signature). */
async function firstBytes(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  const { value } = await reader.read();
  await reader.cancel();
  return value ?? new Uint8Array();
}
