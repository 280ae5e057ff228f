import { fundraiserMessages as say } from '../../../shared/fundraiser-messages';
import type { Deps, Session } from '../../deps';
import { forbidden, notFound } from '../../errors';
import * as queries from './queries';
import type { FundraiserRow } from './queries';

// Who may see and change a fundraiser (spec part 2 sections 4 and 6; issue 4): owners and admins
// change it; drafts are visible only to them; non-admins edit only drafts. Every check is made
// again in the write itself (queries.updateOwnFundraiser), so a race cannot slip past it.

export type Owner = { userId: number; asAdmin: boolean; draftsOnly?: boolean };

export const ownerOf = (session: Session): Owner => ({ userId: session.user.id, asAdmin: session.user.isAdmin });

/** The owner check of an edit: non-admins change drafts only (checked again in the write). */
export const editorOf = (session: Session): Owner => ({ ...ownerOf(session), draftsOnly: true });

export const canManage = (session: Session | null, row: Pick<FundraiserRow, 'userId'>) =>
  session !== null && (session.user.isAdmin || session.user.id === row.userId);

/** A draft is 404 to everyone but its owner and admins (DESIGN.md contract details). */
export function visibleOrNotFound(session: Session | null, row: FundraiserRow | undefined): FundraiserRow {
  if (!row || (row.status === 'DRAFT' && !canManage(session, row))) throw notFound(say.notFound);
  return row;
}

/** The fundraiser if this caller may change it: others get 403 for a public one, 404 for a draft. */
export function manageable(deps: Deps, session: Session, id: number): FundraiserRow {
  const row = visibleOrNotFound(session, queries.findFundraiserById(deps.db, id));
  if (!canManage(session, row)) throw forbidden('Only the owner of this fundraiser or an admin can change it.');
  return row;
}

/** Manageable, and editable by this caller: non-admins edit only drafts (spec part 2 section 4). */
export function editable(deps: Deps, session: Session, id: number): FundraiserRow {
  const row = manageable(deps, session, id);
  if (row.status !== 'DRAFT' && !session.user.isAdmin) throw forbidden(say.onlyDraftsEditable);
  return row;
}
