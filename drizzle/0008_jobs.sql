CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`max_attempts` integer DEFAULT 5 NOT NULL,
	`run_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`locked_at` integer,
	`last_error` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `jobs_due_idx` ON `jobs` (`status`,`run_at`);--> statement-breakpoint
ALTER TABLE `fundraiser_tracks` ADD `stream_file` text;--> statement-breakpoint
ALTER TABLE `fundraiser_tracks` ADD `preview_file` text;--> statement-breakpoint
ALTER TABLE `fundraiser_tracks` ADD `loudness_lufs` real;--> statement-breakpoint
ALTER TABLE `fundraiser_tracks` ADD `error` text;--> statement-breakpoint
ALTER TABLE `fundraisers` ADD `preview_track_status` text DEFAULT 'processing' NOT NULL;--> statement-breakpoint
ALTER TABLE `fundraisers` ADD `preview_track_stream_file` text;--> statement-breakpoint
ALTER TABLE `fundraisers` ADD `preview_track_preview_file` text;--> statement-breakpoint
ALTER TABLE `fundraisers` ADD `preview_track_loudness_lufs` real;--> statement-breakpoint
ALTER TABLE `fundraisers` ADD `preview_track_duration_seconds` integer;--> statement-breakpoint
ALTER TABLE `fundraisers` ADD `preview_track_error` text;--> statement-breakpoint
-- Hand-written: tracks and previews uploaded before the pipeline existed are processed too.
INSERT INTO `jobs` (`kind`, `payload`) SELECT 'process-track', json_object('trackId', `id`) FROM `fundraiser_tracks` WHERE `upload_id` IS NOT NULL;--> statement-breakpoint
INSERT INTO `jobs` (`kind`, `payload`) SELECT 'process-preview', json_object('fundraiserId', `id`, 'uploadId', `preview_track_upload_id`) FROM `fundraisers` WHERE `preview_track_upload_id` IS NOT NULL;
