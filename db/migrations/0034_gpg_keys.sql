CREATE TABLE "gpg_key_subkeys" (
	"id" serial PRIMARY KEY NOT NULL,
	"gpg_key_id" integer NOT NULL,
	"keyid" text NOT NULL,
	"fingerprint" text NOT NULL,
	CONSTRAINT "gpg_key_subkeys_fingerprint_key" UNIQUE("fingerprint"),
	CONSTRAINT "gpg_key_subkeys_keyid_key" UNIQUE("keyid")
);
--> statement-breakpoint
CREATE TABLE "gpg_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"key" text NOT NULL,
	"primary_keyid" text NOT NULL,
	"fingerprint" text NOT NULL,
	"user_infos" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gpg_keys_fingerprint_key" UNIQUE("fingerprint"),
	CONSTRAINT "gpg_keys_primary_keyid_key" UNIQUE("primary_keyid")
);
--> statement-breakpoint
ALTER TABLE "gpg_key_subkeys" ADD CONSTRAINT "gpg_key_subkeys_gpg_key_id_gpg_keys_id_fk" FOREIGN KEY ("gpg_key_id") REFERENCES "public"."gpg_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gpg_keys" ADD CONSTRAINT "gpg_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gpg_key_subkeys_gpg_key_id_idx" ON "gpg_key_subkeys" USING btree ("gpg_key_id");--> statement-breakpoint
CREATE INDEX "gpg_keys_user_id_idx" ON "gpg_keys" USING btree ("user_id");