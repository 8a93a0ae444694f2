// Avatar uploads as GitLab 13.6 takes them (Avatarable and AvatarUploader), for users, groups and projects alike:
// a multipart `avatar` file, checked by the model's two validations after the caller's permission checks, stored in
// the same transaction as the change it comes with, and served from the path GitLab gives it.
import * as z from 'zod/mini';
import type { Db } from '../../db/client.ts';
import { findAvatar, saveAvatar, type AvatarOwner } from '../../db/queries/uploads/avatars.ts';
import { toHex } from '../lib/crypto.ts';
import { validationFailed } from '../lib/errors.ts';
import { imageType } from './sniff.ts';

export type { AvatarOwner };

/** Avatarable: `validates :avatar, file_size: { maximum: 200.kilobytes.to_i }`. */
export const MAXIMUM_SIZE = 200 * 1024;

/**
 * Gitlab::FileTypeDetection::SAFE_IMAGE_EXT as of 13.6 (webp joined in 13.8). SVG is not on it, and is refused
 * here as there: it can carry script, and an avatar has no need of it.
 */
const SAFE_IMAGE_EXT: readonly string[] = ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico'];

/** Avatarable#avatar_type's message. */
export const FORMAT_MESSAGE = `file format is not supported. Please try one of the following supported formats: ${SAFE_IMAGE_EXT.join(', ')}`;
/** FileSizeValidator's `size_too_big` with Rails' number_to_human_size(200.kilobytes). */
export const SIZE_MESSAGE = 'is too big (should be at most 200 KB)';

export interface AvatarUpload {
  filename: string;
  bytes: Uint8Array<ArrayBuffer>;
}

// Longer names would not fit a file system's name either; the extension is kept.
const MAX_FILENAME = 255;

/**
 * CarrierWave::SanitizedFile#sanitize: the last path segment, every character but word characters, `.`, `-` and
 * `+` replaced by `_`; a name of dots only gets a leading `_`, an empty one is `unnamed`.
 */
export function sanitizeFilename(name: string): string {
  let s = name
    .replace(/\\/g, '/')
    .split('/')
    .pop()!
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}.+-]/gu, '_');
  if (/^\.+$/.test(s)) s = `_${s}`;
  if (s === '') s = 'unnamed';
  if (s.length > MAX_FILENAME) {
    const dot = s.lastIndexOf('.');
    const ext = dot > 0 && s.length - dot <= 16 ? s.slice(dot) : '';
    s = s.slice(0, MAX_FILENAME - ext.length) + ext;
  }
  return s;
}

const extension = (filename: string) => {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(dot + 1).toLowerCase() : '';
};

const isFile = (v: unknown): v is Blob & { name?: string } => typeof v === 'object' && v !== null && typeof (v as Blob).arrayBuffer === 'function';

/**
 * Grape's `type: File`: a file part of a multipart body. Anything else (a text field, even an empty one, or a JSON
 * value) is `avatar is invalid`, as in 13.6, which has no way to remove an avatar through the API; JSON's null is
 * no file at all (Grape lets nil through and CarrierWave ignores it).
 */
export const avatarFile = () =>
  z.pipe(
    z.custom<(Blob & { name?: string }) | null>((v) => v === null || isFile(v)),
    z.transform(async (f): Promise<AvatarUpload | undefined> =>
      f === null ? undefined : { filename: sanitizeFilename(f.name ?? ''), bytes: new Uint8Array(await f.arrayBuffer()) },
    ),
  );

/**
 * The model's errors for an upload, in Avatarable's order (type, then size); empty when it is acceptable. GitLab
 * looks at the extension only; here the bytes must also be one of those image formats, so that nothing else is ever
 * served from an avatar URL whatever it is named.
 */
export function avatarErrors(upload: AvatarUpload): string[] {
  const errors: string[] = [];
  if (!SAFE_IMAGE_EXT.includes(extension(upload.filename)) || !imageType(upload.bytes)) errors.push(FORMAT_MESSAGE);
  if (upload.bytes.length > MAXIMUM_SIZE) errors.push(SIZE_MESSAGE);
  return errors;
}

/** For models whose only validation here is the avatar's: 400 `{"message":{"avatar":[...]}}` unless acceptable. */
export function assertAvatar(upload: AvatarUpload | undefined) {
  const errors = upload ? avatarErrors(upload) : [];
  if (errors.length) throw validationFailed({ avatar: errors });
}

/** GitLab's avatar path: `/uploads/-/system/<model>/avatar/<id>/<filename>` (AvatarUploader's store dir). */
export const avatarPath = (owner: AvatarOwner, filename: string) => `/uploads/-/system/${owner.kind}/avatar/${owner.id}/${encodeURIComponent(filename)}`;

/**
 * Makes an upload that passed `avatarErrors` the owner's avatar, in the caller's transaction; returns the path the
 * owner's row now carries as its `avatar_url`.
 */
export async function storeAvatar(tx: Db, owner: AvatarOwner, upload: AvatarUpload): Promise<string> {
  const contentType = imageType(upload.bytes);
  if (!contentType) throw new Error('storeAvatar: the upload was not checked');
  const checksum = toHex(await crypto.subtle.digest('SHA-256', upload.bytes));
  const file = { filename: upload.filename, contentType, size: upload.bytes.length, checksum, data: upload.bytes };
  const path = avatarPath(owner, upload.filename);
  await saveAvatar(tx, owner, file, path);
  return path;
}

/** Projects::ForkService: a fork starts with its source's avatar (the same file, under the fork's own path). */
export async function copyAvatar(tx: Db, from: AvatarOwner, to: AvatarOwner): Promise<void> {
  const avatar = await findAvatar(tx, from);
  if (!avatar) return;
  const { filename, contentType, size, checksum, data } = avatar;
  await saveAvatar(tx, to, { filename, contentType, size, checksum, data }, avatarPath(to, filename));
}
