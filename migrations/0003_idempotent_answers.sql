CREATE TABLE `idempotent_answers` (
	`account_id` text NOT NULL,
	`key` text NOT NULL,
	`skill` text NOT NULL,
	`request_sha256` text NOT NULL,
	`body` text NOT NULL,
	`receipt_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `key`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `idempotent_answers_created` ON `idempotent_answers` (`created_at`);