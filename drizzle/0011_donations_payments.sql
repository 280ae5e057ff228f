CREATE TABLE `payment_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`received_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `purchases` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`donation_id` integer NOT NULL,
	`fundraiser_id` integer NOT NULL,
	`email` text NOT NULL,
	`download_token_hash` text,
	`download_expires_at` integer,
	`revoked_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`donation_id`) REFERENCES `donations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`fundraiser_id`) REFERENCES `fundraisers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `purchases_donation_id_unique` ON `purchases` (`donation_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `purchases_download_token_hash_unique` ON `purchases` (`download_token_hash`);--> statement-breakpoint
CREATE INDEX `purchases_email_idx` ON `purchases` (lower("email"),`fundraiser_id`);--> statement-breakpoint
CREATE INDEX `purchases_fundraiser_idx` ON `purchases` (`fundraiser_id`);--> statement-breakpoint
CREATE TABLE `test_payment_intents` (
	`id` text PRIMARY KEY NOT NULL,
	`client_secret` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`status` text DEFAULT 'requires_payment_method' NOT NULL,
	`last_error` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `test_payment_intents_client_secret_unique` ON `test_payment_intents` (`client_secret`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_donations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fundraiser_id` integer,
	`payment_intent_id` text NOT NULL,
	`provider` text DEFAULT 'test' NOT NULL,
	`user_id` integer,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`tip_cents` integer DEFAULT 0 NOT NULL,
	`minimum_cents` integer DEFAULT 0 NOT NULL,
	`charity_ein` text,
	`charity_name` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`fee_cents` integer,
	`charity_fee_cents` integer,
	`succeeded_at` integer,
	`refunded_at` integer,
	`receipt_sent_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`fundraiser_id`) REFERENCES `fundraisers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
-- Donations made before this migration: the charity and the minimum of their fundraiser as it is
-- now, and succeeded when they were made (demo donations; no real payments were taken before).
INSERT INTO `__new_donations`("id", "fundraiser_id", "payment_intent_id", "provider", "user_id", "email", "name", "amount_cents", "tip_cents", "minimum_cents", "charity_ein", "charity_name", "status", "succeeded_at", "created_at", "updated_at")
SELECT d."id", d."fundraiser_id", d."payment_intent_id", 'test', d."user_id", d."email", d."name", d."amount_cents", d."tip_cents",
  coalesce(f."minimum_donation_cents", 0), f."charity_ein", f."charity_name", d."status",
  CASE WHEN d."status" = 'succeeded' THEN d."created_at" END, d."created_at", d."updated_at"
FROM `donations` d LEFT JOIN `fundraisers` f ON f."id" = d."fundraiser_id";--> statement-breakpoint
DROP TABLE `donations`;--> statement-breakpoint
ALTER TABLE `__new_donations` RENAME TO `donations`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `donations_payment_intent_id_unique` ON `donations` (`payment_intent_id`);--> statement-breakpoint
CREATE INDEX `donations_fundraiser_idx` ON `donations` (`fundraiser_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `donations_email_idx` ON `donations` (lower("email"),`status`);--> statement-breakpoint
CREATE INDEX `donations_status_idx` ON `donations` (`status`,`succeeded_at`);;--> statement-breakpoint
-- What those succeeded donations bought.
INSERT INTO `purchases`("donation_id", "fundraiser_id", "email", "created_at")
SELECT "id", "fundraiser_id", "email", "created_at" FROM `donations` WHERE "status" = 'succeeded' AND "fundraiser_id" IS NOT NULL;