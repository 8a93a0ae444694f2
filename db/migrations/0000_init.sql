CREATE TABLE "emails" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"email" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"admin" boolean DEFAULT false NOT NULL,
	"password_hash" text,
	"avatar_url" text,
	"private_profile" boolean DEFAULT false NOT NULL,
	"bio" text DEFAULT '' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"public_email" text DEFAULT '' NOT NULL,
	"website_url" text DEFAULT '' NOT NULL,
	"organization" text DEFAULT '' NOT NULL,
	"job_title" text DEFAULT '' NOT NULL,
	"projects_limit" integer DEFAULT 100000 NOT NULL,
	"can_create_group" boolean DEFAULT true NOT NULL,
	"external" boolean DEFAULT false NOT NULL,
	"confirmed_at" timestamp with time zone,
	"last_sign_in_at" timestamp with time zone,
	"current_sign_in_at" timestamp with time zone,
	"last_activity_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "personal_access_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"token_digest" text NOT NULL,
	"scopes" text[] NOT NULL,
	"expires_at" date,
	"revoked" boolean DEFAULT false NOT NULL,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "namespaces" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"path" text NOT NULL,
	"full_path" text NOT NULL,
	"parent_id" integer,
	"traversal_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"owner_id" integer,
	"visibility_level" smallint DEFAULT 0 NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"avatar_url" text,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" serial PRIMARY KEY NOT NULL,
	"namespace_id" integer NOT NULL,
	"creator_id" integer,
	"name" text NOT NULL,
	"path" text NOT NULL,
	"path_with_namespace" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"visibility_level" smallint DEFAULT 0 NOT NULL,
	"default_branch" text,
	"archived" boolean DEFAULT false NOT NULL,
	"star_count" integer DEFAULT 0 NOT NULL,
	"forked_from_id" integer,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stars" (
	"user_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stars_user_id_project_id_pk" PRIMARY KEY("user_id","project_id")
);
--> statement-breakpoint
CREATE TABLE "members" (
	"id" serial PRIMARY KEY NOT NULL,
	"source_type" text NOT NULL,
	"source_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"access_level" smallint NOT NULL,
	"expires_at" date,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_access_tokens" ADD CONSTRAINT "personal_access_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "namespaces" ADD CONSTRAINT "namespaces_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_namespace_id_namespaces_id_fk" FOREIGN KEY ("namespace_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stars" ADD CONSTRAINT "stars_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stars" ADD CONSTRAINT "stars_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "emails_email_lower_idx" ON "emails" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "emails_user_id_idx" ON "emails" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_idx" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_state_idx" ON "users" USING btree ("state");--> statement-breakpoint
CREATE UNIQUE INDEX "pat_token_digest_idx" ON "personal_access_tokens" USING btree ("token_digest");--> statement-breakpoint
CREATE INDEX "pat_user_id_idx" ON "personal_access_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "namespaces_full_path_lower_idx" ON "namespaces" USING btree (lower("full_path"));--> statement-breakpoint
CREATE INDEX "namespaces_parent_id_idx" ON "namespaces" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "namespaces_owner_id_idx" ON "namespaces" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "namespaces_traversal_ids_idx" ON "namespaces" USING gin ("traversal_ids");--> statement-breakpoint
CREATE UNIQUE INDEX "projects_path_with_namespace_lower_idx" ON "projects" USING btree (lower("path_with_namespace"));--> statement-breakpoint
CREATE UNIQUE INDEX "projects_namespace_name_lower_idx" ON "projects" USING btree ("namespace_id",lower("name"));--> statement-breakpoint
CREATE INDEX "projects_namespace_id_idx" ON "projects" USING btree ("namespace_id");--> statement-breakpoint
CREATE INDEX "projects_forked_from_id_idx" ON "projects" USING btree ("forked_from_id");--> statement-breakpoint
CREATE INDEX "projects_visibility_level_id_idx" ON "projects" USING btree ("visibility_level","id");--> statement-breakpoint
CREATE INDEX "projects_created_at_id_idx" ON "projects" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "stars_project_id_idx" ON "stars" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "members_source_user_idx" ON "members" USING btree ("source_type","source_id","user_id");--> statement-breakpoint
CREATE INDEX "members_user_id_idx" ON "members" USING btree ("user_id","source_type");