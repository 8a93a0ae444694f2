import type { OAuthApplicationRow } from '../../db/schema/index.ts';
import { paginationParams } from '../lib/pagination.ts';
import * as z from 'zod/mini';
import { bool, schema, str } from '../lib/validate.ts';

/**
 * POST /applications (GitLab 13.x `lib/api/applications.rb`): `requires :name, :redirect_uri, :scopes` (scopes
 * `allow_blank: false`), `optional :confidential, Boolean, default: true`. The URI and scope rules are model
 * validations, checked by the service (400 `{"message":{"redirect_uri":[...]}}`).
 */
export const CreateApplicationInput = schema(() =>
  z.object({
    name: str(255),
    // Same pipe shape as `str()` so zod reports missing fields in declaration order, as Grape does.
    redirect_uri: z.pipe(
      z.transform((v: unknown) => v),
      z.string().check(z.maxLength(10_000)),
    ),
    scopes: z.pipe(
      z.transform((v: unknown) => v),
      z.string().check(z.refine((s) => s.trim() !== '', { message: 'is empty' })),
    ),
    confidential: z._default(bool(), true),
  }),
);

export const ListApplicationsInput = schema(() => z.object({ ...paginationParams() }));

/** Entities::ApplicationWithSecret fields without the secret (Entities::Application). */
export const toApplication = (a: OAuthApplicationRow) => ({
  id: a.id,
  application_id: a.uid,
  application_name: a.name,
  callback_url: a.redirectUris.join('\n'),
  confidential: a.confidential,
});

/** Entities::ApplicationWithSecret: the plaintext secret, only in the creation response. */
export const toApplicationWithSecret = (a: OAuthApplicationRow, secret: string) => ({ ...toApplication(a), secret });
