DROP INDEX `artists_published_idx`;--> statement-breakpoint
CREATE INDEX `artists_recent_idx` ON `artists` (`status`,`published_at`,`id`) WHERE "artists"."deleted_at" IS NULL;