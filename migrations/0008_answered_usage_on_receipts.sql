ALTER TABLE `api_keys` ADD `last_answered_at` integer;--> statement-breakpoint
ALTER TABLE `receipts` ADD `request_id` text;--> statement-breakpoint
ALTER TABLE `receipts` ADD `key_id` text;--> statement-breakpoint
ALTER TABLE `receipts` ADD `latency_ms` real;--> statement-breakpoint
CREATE INDEX `receipts_account_known` ON `receipts` (`account_id`,`known_at`) WHERE request_id IS NOT NULL;