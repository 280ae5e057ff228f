CREATE TABLE `charities` (
	`ein` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`city` text DEFAULT '' NOT NULL,
	`state` text DEFAULT '' NOT NULL,
	`website_url` text,
	`logo_url` text,
	`tags` text DEFAULT '[]' NOT NULL,
	`source` text NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
