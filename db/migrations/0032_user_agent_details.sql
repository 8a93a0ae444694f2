CREATE TABLE "user_agent_details" (
	"id" serial PRIMARY KEY NOT NULL,
	"issue_id" integer,
	"snippet_id" integer,
	"user_agent" text NOT NULL,
	"ip_address" text NOT NULL,
	"akismet_submitted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_agent_details_one_subject" CHECK (num_nonnulls("user_agent_details"."issue_id", "user_agent_details"."snippet_id") = 1)
);
--> statement-breakpoint
ALTER TABLE "user_agent_details" ADD CONSTRAINT "user_agent_details_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_agent_details" ADD CONSTRAINT "user_agent_details_snippet_id_snippets_id_fk" FOREIGN KEY ("snippet_id") REFERENCES "public"."snippets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_agent_details_issue_id_idx" ON "user_agent_details" USING btree ("issue_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_agent_details_snippet_id_idx" ON "user_agent_details" USING btree ("snippet_id");