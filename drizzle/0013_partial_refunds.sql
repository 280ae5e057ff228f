ALTER TABLE `donations` ADD `refunded_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `donations` ADD `charity_refunded_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Custom SQL (not generated): donations refunded before this migration were refunded in full
-- (only full refunds were recorded), so the whole payment and the whole donation were given
-- back, and the charity carries no fee for money it did not keep.
UPDATE `donations` SET `refunded_cents` = `amount_cents` + `tip_cents`, `charity_refunded_cents` = `amount_cents`,
  `charity_fee_cents` = CASE WHEN `fee_cents` IS NULL THEN NULL ELSE 0 END
WHERE `status` = 'refunded';
--> statement-breakpoint
-- Custom SQL (not generated): succeeded donations from before fees were recorded (the demo
-- donations migration 0011 carried over; no real payment was taken) keep counting as they did,
-- with no fee: a charity's figures now leave out payments whose fee is not known yet.
UPDATE `donations` SET `fee_cents` = 0, `charity_fee_cents` = 0 WHERE `status` = 'succeeded' AND `fee_cents` IS NULL;
