CREATE TABLE "background_job_counters" (
	"name" text PRIMARY KEY NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "background_job_counters" ("name", "value") VALUES ('processed', 0), ('failed', 0);
