CREATE TABLE "broadcast_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"message" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"color" text,
	"font" text,
	"target_path" text,
	"broadcast_type" text DEFAULT 'banner' NOT NULL,
	"dismissable" boolean,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
