ALTER TABLE "api_keys" ADD COLUMN "last_answered_at" bigint;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "request_id" text;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "key_id" text;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "latency_ms" double precision;--> statement-breakpoint
CREATE INDEX "receipts_account_known" ON "receipts" USING btree ("account_id","known_at") WHERE request_id IS NOT NULL;