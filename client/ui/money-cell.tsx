import { formatCents } from '../../shared/money';

/**
 * A table cell of money: dollars with cents, right-aligned in tabular figures, and named for a
 * phone's card (the column's name beside it, client/ui/table-cards.css).
 */
export function MoneyCell({ label, cents, className }: { label: string; cents: number; className?: string }) {
  return (
    <td className={className ? `number ${className}` : 'number'} data-label={label}>
      {formatCents(cents)}
    </td>
  );
}
