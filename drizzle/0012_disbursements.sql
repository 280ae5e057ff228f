CREATE TABLE `disbursements` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ein` text NOT NULL,
	`charity_name` text NOT NULL,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`source` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`notes` text,
	`callback_secret_hash` text,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`finalized_at` integer,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `disbursements_ein_idx` ON `disbursements` (`ein`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `disbursements_one_pending_idx` ON `disbursements` (`ein`) WHERE status = 'PENDING';--> statement-breakpoint
CREATE INDEX `donations_charity_idx` ON `donations` (`charity_ein`,`status`);