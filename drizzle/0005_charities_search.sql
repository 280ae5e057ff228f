-- Name search over the charity directory (issue 4): FTS5 with prefix indexes, kept in step with
-- the charities table by triggers. A full IRS import holds about 1.5 million rows.
CREATE VIRTUAL TABLE `charities_fts` USING fts5(
	name,
	city,
	content='charities',
	content_rowid='rowid',
	tokenize='unicode61 remove_diacritics 2',
	prefix='2 3'
);
--> statement-breakpoint
CREATE TRIGGER `charities_fts_insert` AFTER INSERT ON `charities` BEGIN
	INSERT INTO `charities_fts`(rowid, name, city) VALUES (new.rowid, new.name, new.city);
END;
--> statement-breakpoint
CREATE TRIGGER `charities_fts_delete` AFTER DELETE ON `charities` BEGIN
	INSERT INTO `charities_fts`(`charities_fts`, rowid, name, city) VALUES ('delete', old.rowid, old.name, old.city);
END;
--> statement-breakpoint
CREATE TRIGGER `charities_fts_update` AFTER UPDATE OF name, city ON `charities` BEGIN
	INSERT INTO `charities_fts`(`charities_fts`, rowid, name, city) VALUES ('delete', old.rowid, old.name, old.city);
	INSERT INTO `charities_fts`(rowid, name, city) VALUES (new.rowid, new.name, new.city);
END;
