CREATE TABLE `log_checkpoints` (
	`tree_size` integer PRIMARY KEY NOT NULL,
	`root_hash` text NOT NULL,
	`kid` text NOT NULL,
	`note` text NOT NULL,
	`signed_at` integer NOT NULL,
	FOREIGN KEY (`kid`) REFERENCES `signing_keys`(`kid`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `log_tiles` (
	`level` integer NOT NULL,
	`idx` integer NOT NULL,
	`hashes` blob NOT NULL,
	PRIMARY KEY(`level`, `idx`)
);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_receipts` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`issued_at` integer NOT NULL,
	`skill` text NOT NULL,
	`account_id` text NOT NULL,
	`auth_obj_id` text NOT NULL,
	`tier` text NOT NULL,
	`body` text NOT NULL,
	`prev_hash` text,
	`hash` text NOT NULL,
	`signature` text,
	`kid` text,
	`lane` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`kid`) REFERENCES `signing_keys`(`kid`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_receipts`("seq", "id", "issued_at", "skill", "account_id", "auth_obj_id", "tier", "body", "prev_hash", "hash", "signature", "kid", "lane") SELECT "seq", "id", "issued_at", "skill", "account_id", "auth_obj_id", "tier", "body", "prev_hash", "hash", "signature", "kid", NULL FROM `receipts`;--> statement-breakpoint
DROP TABLE `receipts`;--> statement-breakpoint
ALTER TABLE `__new_receipts` RENAME TO `receipts`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `receipts_id_unique` ON `receipts` (`id`);--> statement-breakpoint
CREATE INDEX `receipts_account_lane_issued` ON `receipts` (`account_id`,`lane`,`issued_at`);