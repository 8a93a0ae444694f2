CREATE TABLE "oauth_access_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_digest" text NOT NULL,
	"refresh_token_digest" text,
	"application_id" integer,
	"user_id" integer NOT NULL,
	"scopes" text[] NOT NULL,
	"expires_in" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"grant_id" integer,
	"lineage" text NOT NULL,
	"previous_token_id" integer,
	"first_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "oauth_applications" (
	"id" serial PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"secret_digest" text NOT NULL,
	"name" text NOT NULL,
	"redirect_uris" text[] NOT NULL,
	"scopes" text[] NOT NULL,
	"confidential" boolean DEFAULT true NOT NULL,
	"owner_id" integer,
	"trusted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_grants" (
	"id" serial PRIMARY KEY NOT NULL,
	"code_digest" text NOT NULL,
	"application_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"redirect_uri" text NOT NULL,
	"scopes" text[] NOT NULL,
	"code_challenge" text,
	"code_challenge_method" text,
	"nonce" text,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"window_start" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"digest" text NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "oauth_access_tokens" ADD CONSTRAINT "oauth_access_tokens_application_id_oauth_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."oauth_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_access_tokens" ADD CONSTRAINT "oauth_access_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_access_tokens" ADD CONSTRAINT "oauth_access_tokens_grant_id_oauth_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."oauth_grants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_applications" ADD CONSTRAINT "oauth_applications_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_application_id_oauth_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."oauth_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_access_tokens_token_digest_idx" ON "oauth_access_tokens" USING btree ("token_digest");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_access_tokens_refresh_token_digest_idx" ON "oauth_access_tokens" USING btree ("refresh_token_digest");--> statement-breakpoint
CREATE INDEX "oauth_access_tokens_lineage_idx" ON "oauth_access_tokens" USING btree ("lineage");--> statement-breakpoint
CREATE INDEX "oauth_access_tokens_application_user_idx" ON "oauth_access_tokens" USING btree ("application_id","user_id");--> statement-breakpoint
CREATE INDEX "oauth_access_tokens_previous_token_id_idx" ON "oauth_access_tokens" USING btree ("previous_token_id");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_applications_uid_idx" ON "oauth_applications" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "oauth_applications_owner_id_idx" ON "oauth_applications" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_grants_code_digest_idx" ON "oauth_grants" USING btree ("code_digest");--> statement-breakpoint
CREATE INDEX "oauth_grants_application_user_idx" ON "oauth_grants" USING btree ("application_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_digest_idx" ON "sessions" USING btree ("digest");--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");