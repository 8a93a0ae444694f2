// Feature flags, stored as Flipper's ActiveRecord adapter stores them: a row per persisted feature, and a row per gate
// value. Boolean and percentage gates hold one row each (replaced on write); the set gates (`actors`, `groups`) hold
// one row per member, so concurrent writes for different actors never overwrite each other.
import { pgTable, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns.ts';

export const features = pgTable('features', {
  id: serial('id').primaryKey(),
  key: text('key').notNull().unique('features_key_key'),
  ...timestamps,
});

export const featureGates = pgTable(
  'feature_gates',
  {
    id: serial('id').primaryKey(),
    featureKey: text('feature_key')
      .notNull()
      .references(() => features.key, { onDelete: 'cascade', onUpdate: 'cascade' }),
    /** 'boolean' | 'percentage_of_time' | 'percentage_of_actors' | 'actors' | 'groups' (Flipper's gate keys). */
    key: text('key').$type<'boolean' | 'percentage_of_time' | 'percentage_of_actors' | 'actors' | 'groups'>().notNull(),
    /** 'true', an integer percentage, a flipper id (`User:42`) or a feature group name. */
    value: text('value').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The unique constraint's index (feature_key first) also serves lookups by feature.
  (t) => [unique('feature_gates_feature_key_key_value_key').on(t.featureKey, t.key, t.value)],
);

export type FeatureGateRow = typeof featureGates.$inferSelect;
