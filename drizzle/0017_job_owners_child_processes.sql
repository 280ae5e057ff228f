CREATE TABLE `child_processes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`process` text,
	`owner` text NOT NULL,
	`args` text NOT NULL,
	`outputs` text NOT NULL,
	`started_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
ALTER TABLE `jobs` ADD `locked_by` text;