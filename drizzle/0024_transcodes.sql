CREATE TABLE `transcodes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`cache_key` text NOT NULL,
	`upload_id` text NOT NULL,
	`format` text NOT NULL,
	`track_id` integer,
	`recipe` text NOT NULL,
	`status` text NOT NULL,
	`file` text,
	`bytes` integer,
	`crc32` integer,
	`error` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`last_used_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `transcodes_cache_key_unique` ON `transcodes` (`cache_key`);--> statement-breakpoint
CREATE INDEX `transcodes_lru_idx` ON `transcodes` (`status`,`last_used_at`);--> statement-breakpoint
CREATE INDEX `transcodes_file_idx` ON `transcodes` (`file`);