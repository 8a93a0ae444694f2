// The REST side of uploads: POST /projects/:id/uploads (Markdown attachments).
import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { AppEnv } from '../lib/context.ts';
import { authenticated } from '../lib/auth.ts';
import { projectRef } from '../lib/ids.ts';
import { params, path, schema } from '../lib/validate.ts';
import { createProjectUpload, type UploadedFile } from './project-uploads.ts';

export const uploadApiRoutes = new Hono<AppEnv>();

const ProjectPath = schema(() => z.object({ id: projectRef() }));

/** Grape's `type: File`: a file part of a multipart body; anything else is `file is invalid`. */
const UploadInput = schema(() =>
  z.object({
    file: z.pipe(
      z.custom<unknown>((v) => v !== undefined, { message: 'is missing' }),
      z.custom<UploadedFile>(
        (v) =>
          typeof v === 'object' && v !== null && typeof (v as { stream?: unknown }).stream === 'function' && typeof (v as { name?: unknown }).name === 'string',
      ),
    ),
  }),
);

uploadApiRoutes.post('/projects/:id/uploads', authenticated, path(ProjectPath), params(UploadInput), async (c) => {
  const entity = await createProjectUpload(c.var.ctx, c.req.valid('param').id, c.req.valid('query').file);
  return c.json(entity, 201);
});
