CREATE TABLE "milestones" (
	"id" serial PRIMARY KEY NOT NULL,
	"iid" integer NOT NULL,
	"project_id" integer,
	"group_id" integer,
	"title" text NOT NULL,
	"description" text,
	"state" text DEFAULT 'active' NOT NULL,
	"due_date" date,
	"start_date" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "milestones_one_source" CHECK (("milestones"."project_id" IS NULL) <> ("milestones"."group_id" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "internal_ids" (
	"id" serial PRIMARY KEY NOT NULL,
	"usage" text NOT NULL,
	"project_id" integer,
	"namespace_id" integer,
	"last_value" integer NOT NULL,
	CONSTRAINT "internal_ids_usage_source_key" UNIQUE NULLS NOT DISTINCT("usage","project_id","namespace_id")
);
--> statement-breakpoint
CREATE TABLE "issue_assignees" (
	"issue_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "issue_assignees_issue_id_user_id_pk" PRIMARY KEY("issue_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "issues" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"iid" integer NOT NULL,
	"author_id" integer,
	"title" text NOT NULL,
	"description" text,
	"state" text DEFAULT 'opened' NOT NULL,
	"confidential" boolean DEFAULT false NOT NULL,
	"discussion_locked" boolean,
	"milestone_id" integer,
	"due_date" date,
	"closed_at" timestamp with time zone,
	"closed_by_id" integer,
	"updated_by_id" integer,
	"time_estimate" integer DEFAULT 0 NOT NULL,
	"total_time_spent" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "timelogs" (
	"id" serial PRIMARY KEY NOT NULL,
	"issue_id" integer NOT NULL,
	"user_id" integer,
	"time_spent" integer NOT NULL,
	"spent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "label_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"label_id" integer NOT NULL,
	"target_type" text NOT NULL,
	"target_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "label_links_target_label_key" UNIQUE("target_type","target_id","label_id")
);
--> statement-breakpoint
CREATE TABLE "labels" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer,
	"group_id" integer,
	"title" text NOT NULL,
	"color" text NOT NULL,
	"description" text,
	"priority" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "labels_one_source" CHECK (("labels"."project_id" IS NULL) <> ("labels"."group_id" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"noteable_type" text NOT NULL,
	"noteable_id" integer NOT NULL,
	"project_id" integer,
	"author_id" integer,
	"body" text NOT NULL,
	"type" text,
	"discussion_id" text NOT NULL,
	"system" boolean DEFAULT false NOT NULL,
	"system_action" text,
	"confidential" boolean DEFAULT false NOT NULL,
	"updated_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "snippet_files" (
	"snippet_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"path" text NOT NULL,
	"content" text NOT NULL,
	CONSTRAINT "snippet_files_snippet_id_path_pk" PRIMARY KEY("snippet_id","path")
);
--> statement-breakpoint
CREATE TABLE "snippets" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"project_id" integer,
	"author_id" integer NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"visibility_level" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "snippets_type_project" CHECK (("snippets"."type" = 'ProjectSnippet') = ("snippets"."project_id" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "award_emoji" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"user_id" integer NOT NULL,
	"awardable_type" text NOT NULL,
	"awardable_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "award_emoji_awardable_user_name_key" UNIQUE("awardable_type","awardable_id","user_id","name")
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"subscribable_type" text NOT NULL,
	"subscribable_id" integer NOT NULL,
	"project_id" integer,
	"subscribed" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_subscribable_user_key" UNIQUE("subscribable_type","subscribable_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "todos" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"author_id" integer,
	"project_id" integer,
	"group_id" integer,
	"target_type" text NOT NULL,
	"target_id" integer NOT NULL,
	"action" smallint NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"note_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" integer,
	"group_id" integer,
	"author_id" integer NOT NULL,
	"action" smallint NOT NULL,
	"target_type" text,
	"target_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_event_payloads" (
	"event_id" bigint PRIMARY KEY NOT NULL,
	"commit_count" integer NOT NULL,
	"action" smallint NOT NULL,
	"ref_type" smallint NOT NULL,
	"commit_from" text,
	"commit_to" text,
	"ref" text,
	"commit_title" text,
	"ref_count" integer
);
--> statement-breakpoint
ALTER TABLE "milestones" ADD CONSTRAINT "milestones_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "milestones" ADD CONSTRAINT "milestones_group_id_namespaces_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "internal_ids" ADD CONSTRAINT "internal_ids_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "internal_ids" ADD CONSTRAINT "internal_ids_namespace_id_namespaces_id_fk" FOREIGN KEY ("namespace_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_assignees" ADD CONSTRAINT "issue_assignees_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_assignees" ADD CONSTRAINT "issue_assignees_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_milestone_id_milestones_id_fk" FOREIGN KEY ("milestone_id") REFERENCES "public"."milestones"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_closed_by_id_users_id_fk" FOREIGN KEY ("closed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_updated_by_id_users_id_fk" FOREIGN KEY ("updated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timelogs" ADD CONSTRAINT "timelogs_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timelogs" ADD CONSTRAINT "timelogs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "label_links" ADD CONSTRAINT "label_links_label_id_labels_id_fk" FOREIGN KEY ("label_id") REFERENCES "public"."labels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "labels" ADD CONSTRAINT "labels_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "labels" ADD CONSTRAINT "labels_group_id_namespaces_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_updated_by_id_users_id_fk" FOREIGN KEY ("updated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snippet_files" ADD CONSTRAINT "snippet_files_snippet_id_snippets_id_fk" FOREIGN KEY ("snippet_id") REFERENCES "public"."snippets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snippets" ADD CONSTRAINT "snippets_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snippets" ADD CONSTRAINT "snippets_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "award_emoji" ADD CONSTRAINT "award_emoji_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_group_id_namespaces_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_note_id_notes_id_fk" FOREIGN KEY ("note_id") REFERENCES "public"."notes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_group_id_namespaces_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_event_payloads" ADD CONSTRAINT "push_event_payloads_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "milestones_project_id_iid_idx" ON "milestones" USING btree ("project_id","iid") WHERE "milestones"."project_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "milestones_group_id_iid_idx" ON "milestones" USING btree ("group_id","iid") WHERE "milestones"."group_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "milestones_project_id_title_idx" ON "milestones" USING btree ("project_id","title") WHERE "milestones"."project_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "milestones_group_id_title_idx" ON "milestones" USING btree ("group_id","title") WHERE "milestones"."group_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "milestones_state_idx" ON "milestones" USING btree ("state");--> statement-breakpoint
CREATE INDEX "issue_assignees_user_id_idx" ON "issue_assignees" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "issues_project_id_iid_idx" ON "issues" USING btree ("project_id","iid");--> statement-breakpoint
CREATE INDEX "issues_project_id_state_id_idx" ON "issues" USING btree ("project_id","state","id");--> statement-breakpoint
CREATE INDEX "issues_author_id_idx" ON "issues" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "issues_milestone_id_idx" ON "issues" USING btree ("milestone_id");--> statement-breakpoint
CREATE INDEX "issues_project_id_created_at_idx" ON "issues" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "issues_confidential_idx" ON "issues" USING btree ("project_id") WHERE "issues"."confidential";--> statement-breakpoint
CREATE INDEX "timelogs_issue_id_idx" ON "timelogs" USING btree ("issue_id");--> statement-breakpoint
CREATE INDEX "label_links_label_id_idx" ON "label_links" USING btree ("label_id");--> statement-breakpoint
CREATE UNIQUE INDEX "labels_project_id_title_idx" ON "labels" USING btree ("project_id","title") WHERE "labels"."project_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "labels_group_id_title_idx" ON "labels" USING btree ("group_id","title") WHERE "labels"."group_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "notes_noteable_idx" ON "notes" USING btree ("noteable_type","noteable_id","id");--> statement-breakpoint
CREATE INDEX "notes_discussion_id_idx" ON "notes" USING btree ("discussion_id");--> statement-breakpoint
CREATE INDEX "notes_author_id_idx" ON "notes" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "notes_project_id_idx" ON "notes" USING btree ("project_id") WHERE "notes"."project_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "snippets_project_id_idx" ON "snippets" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "snippets_author_id_idx" ON "snippets" USING btree ("author_id","id");--> statement-breakpoint
CREATE INDEX "snippets_visibility_level_id_idx" ON "snippets" USING btree ("visibility_level","id");--> statement-breakpoint
CREATE INDEX "award_emoji_user_id_idx" ON "award_emoji" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "todos_user_id_state_id_idx" ON "todos" USING btree ("user_id","state","id");--> statement-breakpoint
CREATE INDEX "todos_target_idx" ON "todos" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE INDEX "events_project_id_id_idx" ON "events" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "events_author_id_id_idx" ON "events" USING btree ("author_id","id");--> statement-breakpoint
CREATE INDEX "events_target_idx" ON "events" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE INDEX "events_created_at_idx" ON "events" USING btree ("created_at");