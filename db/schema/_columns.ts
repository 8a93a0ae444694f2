import { customType, timestamp } from 'drizzle-orm/pg-core';

/** created_at/updated_at as GitLab has them: timestamptz, set by the database. */
export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};

/**
 * bytea, as bytes. Every driver here takes a Uint8Array parameter for it (PGlite as is, pg as a binary parameter,
 * neon-http as `\x…` hex text); rows come back as bytes, or as that hex text where a driver leaves bytea unparsed.
 */
export const bytea = customType<{ data: Uint8Array<ArrayBuffer>; driverData: Uint8Array | string }>({
  dataType: () => 'bytea',
  toDriver: (bytes) => bytes,
  fromDriver: (value) => {
    if (typeof value !== 'string') return Uint8Array.from(value);
    const hex = value.startsWith('\\x') ? value.slice(2) : value;
    const bytes = new Uint8Array(hex.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    return bytes;
  },
});
