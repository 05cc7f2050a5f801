CREATE TABLE "minute_windows" (
	"key_id" text PRIMARY KEY NOT NULL,
	"admitted" bigint[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "minute_windows" ADD CONSTRAINT "minute_windows_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;