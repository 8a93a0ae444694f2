// Resource references in paths: a numeric id, or (where GitLab accepts it) a URL-encoded full path.
import * as z from 'zod/mini';
import { schema } from './validate.ts';

export type Ref = { id: number; path?: undefined } | { id?: undefined; path: string };

const NUMERIC = /^\d+$/;
// Hono has already percent-decoded the segment; a path keeps its slashes and must hold no control characters.
const CONTROL = /[\u0000-\u001f\u007f]/;

function toRef(value: string, requireSlash: boolean): Ref | null {
  if (NUMERIC.test(value)) {
    const id = Number(value);
    return id >= 1 && id <= 2_147_483_647 ? { id } : null;
  }
  if (CONTROL.test(value) || value.length > 1000) return null;
  // GitLab looks projects up by path only when the reference contains a slash (namespace/project).
  if (requireSlash && !value.includes('/')) return null;
  return { path: value };
}

/** `:id` of a project: id or `namespace%2Fproject`. A reference that cannot name anything resolves to "not found". */
export const projectRef = schema(() =>
  z.pipe(
    z.string(),
    z.transform((v) => toRef(v, true)),
  ),
);
/** `:id` of a group: id or full path. */
export const groupRef = schema(() =>
  z.pipe(
    z.string(),
    z.transform((v) => toRef(v, false)),
  ),
);
/** `:id` of a user: id or username. */
export const userRef = schema(() =>
  z.pipe(
    z.string(),
    z.transform((v) => toRef(v, false)),
  ),
);

/** Parses a user reference given as a parameter value (sudo, feature actors). */
export const parseRef = (value: string) => toRef(value, false);
