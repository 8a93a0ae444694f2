CREATE TABLE "board_labels" (
	"id" serial PRIMARY KEY NOT NULL,
	"board_id" integer NOT NULL,
	"label_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cluster_agent_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"agent_id" integer NOT NULL,
	"token_digest" text NOT NULL,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cluster_agent_tokens_token_digest_key" UNIQUE("token_digest")
);
--> statement-breakpoint
CREATE TABLE "cluster_agents" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cluster_agents_project_id_name_key" UNIQUE("project_id","name"),
	CONSTRAINT "cluster_agents_name_length" CHECK (char_length("cluster_agents"."name") <= 63)
);
--> statement-breakpoint
CREATE TABLE "users_security_dashboard_projects" (
	"user_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	CONSTRAINT "users_security_dashboard_projects_user_id_project_id_pk" PRIMARY KEY("user_id","project_id")
);
--> statement-breakpoint
CREATE TABLE "container_expiration_policies" (
	"project_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"cadence" text NOT NULL,
	"older_than" text,
	"keep_n" integer,
	"name_regex" text,
	"name_regex_keep" text,
	"next_run_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "container_expiration_policies_name_regex_length" CHECK (char_length("container_expiration_policies"."name_regex") <= 255),
	CONSTRAINT "container_expiration_policies_name_regex_keep_length" CHECK (char_length("container_expiration_policies"."name_regex_keep") <= 255)
);
--> statement-breakpoint
CREATE TABLE "project_compliance_framework_settings" (
	"project_id" integer PRIMARY KEY NOT NULL,
	"framework" text NOT NULL,
	CONSTRAINT "project_compliance_framework_settings_framework" CHECK ("project_compliance_framework_settings"."framework" IN ('gdpr', 'hipaa', 'pci_dss', 'soc_2', 'sox'))
);
--> statement-breakpoint
CREATE TABLE "alert_management_alert_assignees" (
	"id" serial PRIMARY KEY NOT NULL,
	"alert_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "alert_management_alert_assignees_alert_id_user_id_key" UNIQUE("alert_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "alert_management_http_integrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"token_digest" text NOT NULL,
	"endpoint_identifier" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_management_http_integrations_project_endpoint_key" UNIQUE("project_id","endpoint_identifier"),
	CONSTRAINT "alert_management_http_integrations_name_length" CHECK (char_length("alert_management_http_integrations"."name") <= 255)
);
--> statement-breakpoint
CREATE TABLE "alert_management_alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"iid" integer NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"service" text,
	"monitoring_tool" text,
	"hosts" text[] DEFAULT '{}'::text[] NOT NULL,
	"severity" smallint DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"fingerprint" text,
	"events" integer DEFAULT 1 NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"environment_name" text,
	"issue_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_management_alerts_project_id_iid_key" UNIQUE("project_id","iid"),
	CONSTRAINT "alert_management_alerts_title_length" CHECK (char_length("alert_management_alerts"."title") <= 200),
	CONSTRAINT "alert_management_alerts_description_length" CHECK (char_length("alert_management_alerts"."description") <= 1000),
	CONSTRAINT "alert_management_alerts_service_length" CHECK (char_length("alert_management_alerts"."service") <= 100),
	CONSTRAINT "alert_management_alerts_monitoring_tool_length" CHECK (char_length("alert_management_alerts"."monitoring_tool") <= 100)
);
--> statement-breakpoint
CREATE TABLE "background_jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"worker_class" text NOT NULL,
	"args" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"meta" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"claimed_until" timestamp with time zone,
	"claimed_by" text,
	"last_error" text,
	"dead" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deploy_keys_projects" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"deploy_key_id" integer NOT NULL,
	"can_push" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deploy_keys_projects_project_id_deploy_key_id_key" UNIQUE("project_id","deploy_key_id")
);
--> statement-breakpoint
CREATE TABLE "keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text DEFAULT 'DeployKey' NOT NULL,
	"title" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"fingerprint_sha256" text NOT NULL,
	"public" boolean DEFAULT false NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "keys_fingerprint_key" UNIQUE("fingerprint"),
	CONSTRAINT "keys_type" CHECK ("keys"."type" IN ('Key', 'DeployKey')),
	CONSTRAINT "keys_title_length" CHECK (char_length("keys"."title") <= 255),
	CONSTRAINT "keys_key_length" CHECK (char_length("keys"."key") <= 5000)
);
--> statement-breakpoint
ALTER TABLE "notifications" ALTER COLUMN "project_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "user_type" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "group_id" integer;--> statement-breakpoint
ALTER TABLE "boards" ADD COLUMN "assignee_id" integer;--> statement-breakpoint
ALTER TABLE "board_labels" ADD CONSTRAINT "board_labels_board_id_boards_id_fk" FOREIGN KEY ("board_id") REFERENCES "public"."boards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_labels" ADD CONSTRAINT "board_labels_label_id_labels_id_fk" FOREIGN KEY ("label_id") REFERENCES "public"."labels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_agent_tokens" ADD CONSTRAINT "cluster_agent_tokens_agent_id_cluster_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."cluster_agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_agent_tokens" ADD CONSTRAINT "cluster_agent_tokens_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_agents" ADD CONSTRAINT "cluster_agents_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_agents" ADD CONSTRAINT "cluster_agents_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users_security_dashboard_projects" ADD CONSTRAINT "users_security_dashboard_projects_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users_security_dashboard_projects" ADD CONSTRAINT "users_security_dashboard_projects_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "container_expiration_policies" ADD CONSTRAINT "container_expiration_policies_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_compliance_framework_settings" ADD CONSTRAINT "project_compliance_framework_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_management_alert_assignees" ADD CONSTRAINT "alert_management_alert_assignees_alert_id_alert_management_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alert_management_alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_management_alert_assignees" ADD CONSTRAINT "alert_management_alert_assignees_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_management_http_integrations" ADD CONSTRAINT "alert_management_http_integrations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_management_alerts" ADD CONSTRAINT "alert_management_alerts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_management_alerts" ADD CONSTRAINT "alert_management_alerts_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deploy_keys_projects" ADD CONSTRAINT "deploy_keys_projects_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deploy_keys_projects" ADD CONSTRAINT "deploy_keys_projects_deploy_key_id_keys_id_fk" FOREIGN KEY ("deploy_key_id") REFERENCES "public"."keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "keys" ADD CONSTRAINT "keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "board_labels_board_id_label_id_idx" ON "board_labels" USING btree ("board_id","label_id");--> statement-breakpoint
CREATE INDEX "board_labels_label_id_idx" ON "board_labels" USING btree ("label_id");--> statement-breakpoint
CREATE INDEX "cluster_agent_tokens_agent_id_idx" ON "cluster_agent_tokens" USING btree ("agent_id","id");--> statement-breakpoint
CREATE INDEX "users_security_dashboard_projects_project_id_idx" ON "users_security_dashboard_projects" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "alert_management_alert_assignees_user_id_idx" ON "alert_management_alert_assignees" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_management_alerts_open_fingerprint_idx" ON "alert_management_alerts" USING btree ("project_id","fingerprint") WHERE "alert_management_alerts"."status" <> 2 AND "alert_management_alerts"."fingerprint" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "alert_management_alerts_project_id_status_idx" ON "alert_management_alerts" USING btree ("project_id","status");--> statement-breakpoint
CREATE INDEX "background_jobs_queue_due_idx" ON "background_jobs" USING btree ("queue","run_at") WHERE NOT "background_jobs"."dead";--> statement-breakpoint
CREATE INDEX "background_jobs_worker_idx" ON "background_jobs" USING btree ("worker_class") WHERE NOT "background_jobs"."dead";--> statement-breakpoint
CREATE INDEX "background_jobs_dead_idx" ON "background_jobs" USING btree ("run_at") WHERE "background_jobs"."dead";--> statement-breakpoint
CREATE INDEX "deploy_keys_projects_deploy_key_id_idx" ON "deploy_keys_projects" USING btree ("deploy_key_id");--> statement-breakpoint
CREATE INDEX "keys_fingerprint_sha256_idx" ON "keys" USING btree ("fingerprint_sha256");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_group_id_namespaces_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "boards" ADD CONSTRAINT "boards_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_one_source" CHECK (("notifications"."project_id" IS NULL) <> ("notifications"."group_id" IS NULL));