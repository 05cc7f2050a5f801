CREATE TABLE `receipt_parts` (
	`id` integer PRIMARY KEY NOT NULL,
	`sha256` blob NOT NULL,
	`text` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `receipt_parts_sha256_unique` ON `receipt_parts` (`sha256`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_receipts` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`issued_at` integer NOT NULL,
	`skill` text NOT NULL,
	`account_id` text NOT NULL,
	`principal_part` integer,
	`request_part` integer,
	`factors_part` integer,
	`model_part` integer,
	`as_of` text,
	`known_at` integer,
	`response_sha256` blob,
	`body` text,
	`prev_hash` text,
	`hash` blob NOT NULL,
	`signature` text,
	`kid` text,
	`lane` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`kid`) REFERENCES `signing_keys`(`kid`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_receipts`("seq", "id", "issued_at", "skill", "account_id", "body", "prev_hash", "hash", "signature", "kid", "lane") SELECT "seq", "id", "issued_at", "skill", "account_id", "body", "prev_hash", unhex("hash"), "signature", "kid", "lane" FROM `receipts`;--> statement-breakpoint
DROP TABLE `receipts`;--> statement-breakpoint
ALTER TABLE `__new_receipts` RENAME TO `receipts`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `receipts_id_unique` ON `receipts` (`id`);--> statement-breakpoint
CREATE INDEX `receipts_account_lane_issued` ON `receipts` (`account_id`,`lane`,`issued_at`);