CREATE TABLE "group_group_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"shared_group_id" integer NOT NULL,
	"shared_with_group_id" integer NOT NULL,
	"group_access" smallint NOT NULL,
	"expires_at" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_group_links_shared_key" UNIQUE("shared_group_id","shared_with_group_id"),
	CONSTRAINT "group_group_links_access" CHECK ("group_group_links"."group_access" IN (10, 20, 30, 40, 50))
);
--> statement-breakpoint
CREATE TABLE "project_group_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"group_access" smallint NOT NULL,
	"expires_at" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_group_links_project_group_key" UNIQUE("project_id","group_id"),
	CONSTRAINT "project_group_links_access" CHECK ("project_group_links"."group_access" IN (10, 20, 30, 40))
);
--> statement-breakpoint
CREATE TABLE "access_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"source_type" text NOT NULL,
	"source_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "access_requests_source_user_key" UNIQUE("source_type","source_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "badges" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer,
	"group_id" integer,
	"name" text,
	"link_url" text NOT NULL,
	"image_url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "badges_one_source" CHECK (("badges"."project_id" IS NULL) <> ("badges"."group_id" IS NULL)),
	CONSTRAINT "badges_lengths" CHECK (char_length("badges"."link_url") <= 2048 AND char_length("badges"."image_url") <= 2048 AND char_length("badges"."name") <= 255)
);
--> statement-breakpoint
ALTER TABLE "group_group_links" ADD CONSTRAINT "group_group_links_shared_group_id_namespaces_id_fk" FOREIGN KEY ("shared_group_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_group_links" ADD CONSTRAINT "group_group_links_shared_with_group_id_namespaces_id_fk" FOREIGN KEY ("shared_with_group_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_group_links" ADD CONSTRAINT "project_group_links_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_group_links" ADD CONSTRAINT "project_group_links_group_id_namespaces_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_requests" ADD CONSTRAINT "access_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "badges" ADD CONSTRAINT "badges_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "badges" ADD CONSTRAINT "badges_group_id_namespaces_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "group_group_links_shared_with_idx" ON "group_group_links" USING btree ("shared_with_group_id");--> statement-breakpoint
CREATE INDEX "project_group_links_group_idx" ON "project_group_links" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "access_requests_user_idx" ON "access_requests" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "badges_project_idx" ON "badges" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "badges_group_idx" ON "badges" USING btree ("group_id");