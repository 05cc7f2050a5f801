ALTER TABLE "minute_windows" ADD COLUMN "calls" integer[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
UPDATE "minute_windows" SET "calls" = array_fill(1, ARRAY[cardinality("admitted")]);
