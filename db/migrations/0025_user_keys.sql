ALTER TABLE "keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "keys_user_idx" ON "keys" USING btree ("user_id","type");--> statement-breakpoint
CREATE FUNCTION "keys_delete_user_keys"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "keys" WHERE "user_id" = OLD."id" AND "type" = 'Key';
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_delete_keys" BEFORE DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION "keys_delete_user_keys"();
