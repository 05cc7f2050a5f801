CREATE TABLE `road_networks` (
	`version` text PRIMARY KEY NOT NULL,
	`file_name` text NOT NULL,
	`file_sha256` text NOT NULL,
	`imported_at` integer NOT NULL,
	`network` text NOT NULL
);
