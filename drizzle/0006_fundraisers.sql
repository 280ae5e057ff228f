CREATE TABLE `donations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fundraiser_id` integer NOT NULL,
	`payment_intent_id` text NOT NULL,
	`user_id` integer,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`tip_cents` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`fundraiser_id`) REFERENCES `fundraisers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `donations_payment_intent_id_unique` ON `donations` (`payment_intent_id`);--> statement-breakpoint
CREATE INDEX `donations_fundraiser_idx` ON `donations` (`fundraiser_id`,`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `featured_fundraisers` (
	`fundraiser_id` integer PRIMARY KEY NOT NULL,
	`position` integer NOT NULL,
	FOREIGN KEY (`fundraiser_id`) REFERENCES `fundraisers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `fundraiser_tracks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fundraiser_id` integer NOT NULL,
	`position` integer NOT NULL,
	`name` text NOT NULL,
	`upload_id` text,
	`status` text DEFAULT 'processing' NOT NULL,
	`duration_seconds` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`fundraiser_id`) REFERENCES `fundraisers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`upload_id`) REFERENCES `uploads`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `fundraiser_tracks_fundraiser_idx` ON `fundraiser_tracks` (`fundraiser_id`,`position`);--> statement-breakpoint
CREATE TABLE `fundraisers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`artist_id` integer NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`charity_ein` text NOT NULL,
	`charity_name` text NOT NULL,
	`charity_website` text,
	`minimum_donation_cents` integer NOT NULL,
	`donation_goal_cents` integer,
	`genre` text DEFAULT '' NOT NULL,
	`genre_secondary` text,
	`status` text DEFAULT 'DRAFT' NOT NULL,
	`share_count` integer DEFAULT 0 NOT NULL,
	`album_cover_id` text,
	`preview_track_name` text DEFAULT '' NOT NULL,
	`preview_track_upload_id` text,
	`youtube_link` text DEFAULT '' NOT NULL,
	`vimeo_link` text DEFAULT '' NOT NULL,
	`has_v1_tracks` integer DEFAULT false NOT NULL,
	`tracks_zip_upload_id` text,
	`url_slug` text,
	`published_at` integer,
	`deleted_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`artist_id`) REFERENCES `artists`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`album_cover_id`) REFERENCES `uploads`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`preview_track_upload_id`) REFERENCES `uploads`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`tracks_zip_upload_id`) REFERENCES `uploads`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fundraisers_url_slug_unique` ON `fundraisers` (`url_slug`);--> statement-breakpoint
CREATE INDEX `fundraisers_user_idx` ON `fundraisers` (`user_id`);--> statement-breakpoint
CREATE INDEX `fundraisers_artist_idx` ON `fundraisers` (`artist_id`);--> statement-breakpoint
CREATE INDEX `fundraisers_charity_idx` ON `fundraisers` (`charity_ein`);--> statement-breakpoint
CREATE INDEX `fundraisers_genre_idx` ON `fundraisers` (`genre`) WHERE "fundraisers"."deleted_at" IS NULL AND "fundraisers"."status" = 'PUBLISHED';--> statement-breakpoint
CREATE INDEX `fundraisers_genre_secondary_idx` ON `fundraisers` (`genre_secondary`) WHERE "fundraisers"."deleted_at" IS NULL AND "fundraisers"."status" = 'PUBLISHED';--> statement-breakpoint
CREATE INDEX `fundraisers_recent_idx` ON `fundraisers` (`status`,`published_at`,`id`) WHERE "fundraisers"."deleted_at" IS NULL;--> statement-breakpoint
ALTER TABLE `uploads` ADD `format` text;