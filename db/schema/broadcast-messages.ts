// Broadcast messages (GitLab's broadcast_messages): instance-wide banners and notifications between two times.
import { boolean, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';

export const broadcastMessages = pgTable('broadcast_messages', {
  id: serial('id').primaryKey(),
  message: text('message').notNull(),
  startsAt: timestamp('starts_at', { withTimezone: true, mode: 'date' }).notNull(),
  endsAt: timestamp('ends_at', { withTimezone: true, mode: 'date' }).notNull(),
  color: text('color'),
  font: text('font'),
  targetPath: text('target_path'),
  broadcastType: text('broadcast_type').$type<'banner' | 'notification'>().notNull().default('banner'),
  dismissable: boolean('dismissable'),
  ...timestamps,
});

export type BroadcastMessageRow = typeof broadcastMessages.$inferSelect;
