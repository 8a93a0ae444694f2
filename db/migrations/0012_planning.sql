CREATE TABLE "boards" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer,
	"group_id" integer,
	"name" text DEFAULT 'Development' NOT NULL,
	"milestone_id" integer,
	"weight" integer,
	"hide_backlog_list" boolean DEFAULT false NOT NULL,
	"hide_closed_list" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "boards_one_parent" CHECK (("boards"."project_id" IS NULL) <> ("boards"."group_id" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "list_user_preferences" (
	"id" serial PRIMARY KEY NOT NULL,
	"list_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"collapsed" boolean,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lists" (
	"id" serial PRIMARY KEY NOT NULL,
	"board_id" integer NOT NULL,
	"label_id" integer,
	"user_id" integer,
	"milestone_id" integer,
	"list_type" integer DEFAULT 1 NOT NULL,
	"position" integer,
	"max_issue_count" integer DEFAULT 0 NOT NULL,
	"max_issue_weight" integer DEFAULT 0 NOT NULL,
	"limit_metric" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lists_limits_nonnegative" CHECK ("lists"."max_issue_count" >= 0 AND "lists"."max_issue_weight" >= 0)
);
--> statement-breakpoint
CREATE TABLE "boards_epic_user_preferences" (
	"id" serial PRIMARY KEY NOT NULL,
	"board_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"epic_id" integer NOT NULL,
	"collapsed" boolean DEFAULT false NOT NULL,
	CONSTRAINT "boards_epic_user_preferences_key" UNIQUE("board_id","user_id","epic_id")
);
--> statement-breakpoint
CREATE TABLE "epic_issues" (
	"id" serial PRIMARY KEY NOT NULL,
	"epic_id" integer NOT NULL,
	"issue_id" integer NOT NULL,
	"relative_position" integer
);
--> statement-breakpoint
CREATE TABLE "epics" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"iid" integer NOT NULL,
	"author_id" integer,
	"title" text NOT NULL,
	"description" text,
	"state" text DEFAULT 'opened' NOT NULL,
	"confidential" boolean DEFAULT false NOT NULL,
	"parent_id" integer,
	"start_date_fixed" date,
	"start_date_is_fixed" boolean,
	"due_date_fixed" date,
	"due_date_is_fixed" boolean,
	"closed_at" timestamp with time zone,
	"closed_by_id" integer,
	"relative_position" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "epics_title_length" CHECK (char_length("epics"."title") <= 255)
);
--> statement-breakpoint
CREATE TABLE "sprints" (
	"id" serial PRIMARY KEY NOT NULL,
	"iid" integer NOT NULL,
	"project_id" integer,
	"group_id" integer,
	"title" text NOT NULL,
	"description" text,
	"start_date" date NOT NULL,
	"due_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sprints_must_belong_to_project_or_group" CHECK (("sprints"."project_id" IS NULL) <> ("sprints"."group_id" IS NULL)),
	CONSTRAINT "sprints_title" CHECK (char_length("sprints"."title") <= 255),
	CONSTRAINT "sprints_due_after_start" CHECK ("sprints"."due_date" > "sprints"."start_date")
);
--> statement-breakpoint
CREATE TABLE "resource_iteration_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"issue_id" integer NOT NULL,
	"user_id" integer,
	"iteration_id" integer,
	"action" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "resource_iteration_events_action" CHECK ("resource_iteration_events"."action" IN ('add', 'remove'))
);
--> statement-breakpoint
CREATE TABLE "resource_milestone_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"issue_id" integer NOT NULL,
	"user_id" integer,
	"milestone_id" integer,
	"action" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "resource_milestone_events_action" CHECK ("resource_milestone_events"."action" IN ('add', 'remove'))
);
--> statement-breakpoint
CREATE TABLE "resource_state_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"issue_id" integer NOT NULL,
	"user_id" integer,
	"state" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "resource_weight_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"issue_id" integer NOT NULL,
	"user_id" integer,
	"weight" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "requirements_management_test_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"requirement_id" integer NOT NULL,
	"pipeline_id" integer,
	"author_id" integer,
	"state" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "requirements" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"iid" integer NOT NULL,
	"author_id" integer,
	"title" text NOT NULL,
	"description" text,
	"state" text DEFAULT 'opened' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "requirements_title_length" CHECK (char_length("requirements"."title") <= 255),
	CONSTRAINT "requirements_description_length" CHECK (char_length("requirements"."description") <= 10000)
);
--> statement-breakpoint
ALTER TABLE "issues" ADD COLUMN "weight" integer;--> statement-breakpoint
ALTER TABLE "issues" ADD COLUMN "issue_type" text DEFAULT 'issue' NOT NULL;--> statement-breakpoint
ALTER TABLE "issues" ADD COLUMN "relative_position" integer;--> statement-breakpoint
ALTER TABLE "issues" ADD COLUMN "sprint_id" integer;--> statement-breakpoint
ALTER TABLE "boards" ADD CONSTRAINT "boards_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "boards" ADD CONSTRAINT "boards_group_id_namespaces_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_user_preferences" ADD CONSTRAINT "list_user_preferences_list_id_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_user_preferences" ADD CONSTRAINT "list_user_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lists" ADD CONSTRAINT "lists_board_id_boards_id_fk" FOREIGN KEY ("board_id") REFERENCES "public"."boards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lists" ADD CONSTRAINT "lists_label_id_labels_id_fk" FOREIGN KEY ("label_id") REFERENCES "public"."labels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lists" ADD CONSTRAINT "lists_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lists" ADD CONSTRAINT "lists_milestone_id_milestones_id_fk" FOREIGN KEY ("milestone_id") REFERENCES "public"."milestones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "boards_epic_user_preferences" ADD CONSTRAINT "boards_epic_user_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "boards_epic_user_preferences" ADD CONSTRAINT "boards_epic_user_preferences_epic_id_epics_id_fk" FOREIGN KEY ("epic_id") REFERENCES "public"."epics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epic_issues" ADD CONSTRAINT "epic_issues_epic_id_epics_id_fk" FOREIGN KEY ("epic_id") REFERENCES "public"."epics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epic_issues" ADD CONSTRAINT "epic_issues_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epics" ADD CONSTRAINT "epics_group_id_namespaces_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epics" ADD CONSTRAINT "epics_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epics" ADD CONSTRAINT "epics_parent_id_epics_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."epics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "epics" ADD CONSTRAINT "epics_closed_by_id_users_id_fk" FOREIGN KEY ("closed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sprints" ADD CONSTRAINT "sprints_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sprints" ADD CONSTRAINT "sprints_group_id_namespaces_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_iteration_events" ADD CONSTRAINT "resource_iteration_events_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_iteration_events" ADD CONSTRAINT "resource_iteration_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_iteration_events" ADD CONSTRAINT "resource_iteration_events_iteration_id_sprints_id_fk" FOREIGN KEY ("iteration_id") REFERENCES "public"."sprints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_milestone_events" ADD CONSTRAINT "resource_milestone_events_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_milestone_events" ADD CONSTRAINT "resource_milestone_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_milestone_events" ADD CONSTRAINT "resource_milestone_events_milestone_id_milestones_id_fk" FOREIGN KEY ("milestone_id") REFERENCES "public"."milestones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_state_events" ADD CONSTRAINT "resource_state_events_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_state_events" ADD CONSTRAINT "resource_state_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_weight_events" ADD CONSTRAINT "resource_weight_events_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_weight_events" ADD CONSTRAINT "resource_weight_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requirements_management_test_reports" ADD CONSTRAINT "requirements_management_test_reports_requirement_id_requirements_id_fk" FOREIGN KEY ("requirement_id") REFERENCES "public"."requirements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requirements_management_test_reports" ADD CONSTRAINT "requirements_management_test_reports_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requirements" ADD CONSTRAINT "requirements_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requirements" ADD CONSTRAINT "requirements_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "boards_project_id_idx" ON "boards" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "boards_group_id_idx" ON "boards" USING btree ("group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "list_user_preferences_list_id_user_id_idx" ON "list_user_preferences" USING btree ("list_id","user_id");--> statement-breakpoint
CREATE INDEX "lists_board_id_idx" ON "lists" USING btree ("board_id","list_type","position");--> statement-breakpoint
CREATE UNIQUE INDEX "lists_board_id_label_id_idx" ON "lists" USING btree ("board_id","label_id") WHERE "lists"."label_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "lists_board_id_user_id_idx" ON "lists" USING btree ("board_id","user_id") WHERE "lists"."user_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "lists_board_id_milestone_id_idx" ON "lists" USING btree ("board_id","milestone_id") WHERE "lists"."milestone_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "lists_one_backlog_idx" ON "lists" USING btree ("board_id") WHERE "lists"."list_type" = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "lists_one_closed_idx" ON "lists" USING btree ("board_id") WHERE "lists"."list_type" = 2;--> statement-breakpoint
CREATE INDEX "lists_label_id_idx" ON "lists" USING btree ("label_id");--> statement-breakpoint
CREATE UNIQUE INDEX "epic_issues_issue_id_idx" ON "epic_issues" USING btree ("issue_id");--> statement-breakpoint
CREATE INDEX "epic_issues_epic_id_idx" ON "epic_issues" USING btree ("epic_id");--> statement-breakpoint
CREATE UNIQUE INDEX "epics_group_id_iid_idx" ON "epics" USING btree ("group_id","iid");--> statement-breakpoint
CREATE INDEX "epics_parent_id_idx" ON "epics" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "epics_author_id_idx" ON "epics" USING btree ("author_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sprints_group_id_iid_idx" ON "sprints" USING btree ("group_id","iid") WHERE "sprints"."group_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "sprints_project_id_iid_idx" ON "sprints" USING btree ("project_id","iid") WHERE "sprints"."project_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "sprints_group_id_title_idx" ON "sprints" USING btree ("group_id","title") WHERE "sprints"."group_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "sprints_project_id_title_idx" ON "sprints" USING btree ("project_id","title") WHERE "sprints"."project_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "sprints_due_date_idx" ON "sprints" USING btree ("due_date","title");--> statement-breakpoint
CREATE INDEX "resource_iteration_events_issue_id_created_at_idx" ON "resource_iteration_events" USING btree ("issue_id","created_at");--> statement-breakpoint
CREATE INDEX "resource_iteration_events_iteration_id_idx" ON "resource_iteration_events" USING btree ("iteration_id");--> statement-breakpoint
CREATE INDEX "resource_milestone_events_issue_id_created_at_idx" ON "resource_milestone_events" USING btree ("issue_id","created_at");--> statement-breakpoint
CREATE INDEX "resource_milestone_events_milestone_id_idx" ON "resource_milestone_events" USING btree ("milestone_id");--> statement-breakpoint
CREATE INDEX "resource_state_events_issue_id_created_at_idx" ON "resource_state_events" USING btree ("issue_id","created_at");--> statement-breakpoint
CREATE INDEX "resource_weight_events_issue_id_created_at_idx" ON "resource_weight_events" USING btree ("issue_id","created_at");--> statement-breakpoint
CREATE INDEX "requirements_test_reports_requirement_id_idx" ON "requirements_management_test_reports" USING btree ("requirement_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "requirements_project_id_iid_idx" ON "requirements" USING btree ("project_id","iid");--> statement-breakpoint
CREATE INDEX "requirements_project_id_state_idx" ON "requirements" USING btree ("project_id","state");--> statement-breakpoint
CREATE INDEX "requirements_author_id_idx" ON "requirements" USING btree ("author_id");--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_sprint_id_sprints_id_fk" FOREIGN KEY ("sprint_id") REFERENCES "public"."sprints"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "issues_sprint_id_idx" ON "issues" USING btree ("sprint_id");