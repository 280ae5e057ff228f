import { type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import { cellText, downloadCsv, type InsightTable, type InsightUnit, tableCsv } from './insight-table';
import '../table-cards.css';
import './insight.css';

// One chart of the insight pages (issue 29) with what every chart offers: its heading, the same
// figures as a real table (for a screen reader, or anyone who would rather read), and a CSV of
// them made in the browser. A list that is a table by nature (top fundraisers) is shown as one.

type InsightPanelProps = {
  title: string;
  headingLevel?: 2 | 3;
  table: InsightTable;
  /** The table's caption: what it holds, over which days. */
  caption: string;
  /** The CSV's file name: `{slug}-raised-2026-11-01-to-2026-11-30.csv`. */
  fileName: string;
  /** Said instead of the chart and table when there is nothing to show. */
  empty?: string;
  /** Said above the chart when its figures are all zero ("No donations in this period yet."). */
  zeros?: string;
  /** A line under the chart: how a figure is counted. */
  footnote?: ReactNode;
  className?: string;
  /** The chart; without one the table is what the panel shows. */
  children?: ReactNode;
};

const isNumeric = (unit: InsightUnit) => unit === 'money' || unit === 'count';

export function InsightPanel({
  title,
  headingLevel = 2,
  table,
  caption,
  fileName,
  empty,
  zeros,
  footnote,
  className = '',
  children,
}: InsightPanelProps) {
  const headingId = useId();
  const [asTable, setAsTable] = useState(false);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const nothing = empty !== undefined && table.rows.length === 0;
  const allZero =
    zeros !== undefined &&
    table.rows.every((row) => row.every((cell, index) => !isNumeric(table.columns[index]!.unit) || cell === 0));
  return (
    <section className={`card insight-panel ${className}`} aria-labelledby={headingId}>
      <div className="insight-panel-head">
        <Heading id={headingId}>{title}</Heading>
        {!nothing && (
          <div className="insight-panel-actions">
            {children && (
              // A plain button that names what it will show (not a pressed toggle, whose label would
              // stay the same), so a sighted reader sees the way back to the chart too.
              <button type="button" className="button button-ghost" onClick={() => setAsTable(!asTable)}>
                {asTable ? 'Show as chart' : 'Show as table'}
              </button>
            )}
            <button
              type="button"
              className="button button-ghost"
              onClick={() => downloadCsv(fileName, tableCsv(table))}
            >
              Download CSV
            </button>
          </div>
        )}
      </div>
      {nothing ? (
        <p className="insight-empty">{empty}</p>
      ) : (
        <>
          {allZero && <p className="insight-empty">{zeros}</p>}
          {children && !asTable ? children : <DataTable table={table} caption={caption} />}
        </>
      )}
      {footnote && <p className="field-hint">{footnote}</p>}
    </section>
  );
}

/** The figures as a table: a row header per day (or source, or page), numbers to the right. */
export function DataTable({ table, caption }: { table: InsightTable; caption: string }) {
  const captionId = useId();
  // Four columns do not fit a phone: a card per row there (client/ui/table-cards.css).
  const cards = table.columns.length >= 4;
  return (
    // A long period is a long table: it scrolls in its own frame, which the keyboard can reach.
    <div className="insight-table-frame" tabIndex={0} role="region" aria-labelledby={captionId}>
      <table className={cards ? 'insight-table table-cards' : 'insight-table'}>
        <caption id={captionId}>
          {/* Kept in view when the table scrolls sideways. */}
          <span>{caption}</span>
        </caption>
        <thead>
          <tr>
            {table.columns.map((column) => (
              <th key={column.label} scope="col" className={isNumeric(column.unit) ? 'number' : undefined}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, rowIndex) => (
            <tr key={rowIndex}>
              {row.map((cell, index) => {
                const { unit } = table.columns[index]!;
                const text = cellText(unit, cell);
                const content =
                  typeof cell === 'object' ? (
                    <Link to={cell.href}>{text}</Link>
                  ) : unit === 'date' ? (
                    <time dateTime={String(cell)}>{text}</time>
                  ) : (
                    text
                  );
                return index === 0 ? (
                  <th key={index} scope="row">
                    {content}
                  </th>
                ) : (
                  <td
                    key={index}
                    className={isNumeric(unit) ? 'number' : undefined}
                    data-label={cards ? table.columns[index]!.label : undefined}
                  >
                    {content}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type BarListProps = {
  items: readonly { label: string; value: number }[];
  format: (value: number) => string;
};

/** Horizontal bars, longest first: where visits came from, downloads by format. */
export function BarList({ items, format }: BarListProps) {
  const most = Math.max(1, ...items.map((item) => item.value));
  return (
    <ol className="bar-list">
      {items.map((item) => (
        <li key={item.label}>
          <span className="bar-list-label">{item.label}</span>
          <span className="bar-list-value">{format(item.value)}</span>
          <span className="bar-list-track" aria-hidden="true">
            <span className="bar-list-bar" style={{ width: `${Math.max(1, (item.value / most) * 100)}%` }} />
          </span>
        </li>
      ))}
    </ol>
  );
}
