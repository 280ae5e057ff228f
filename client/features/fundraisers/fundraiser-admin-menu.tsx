import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Link } from 'react-router';
import type { Fundraiser } from '../../../shared/answers/fundraisers';
import { AdminMenu } from '../../ui/admin-menu';

export type AdminMenuProps = {
  fundraiser: Fundraiser;
  editPath: string;
  onPublish: () => void;
  onDelete: () => void;
};

/** The fundraiser page's admin menu items (spec part 2 section 2). */
export function FundraiserAdminMenu({ fundraiser, editPath, onPublish, onDelete }: AdminMenuProps) {
  return (
    <AdminMenu>
      {fundraiser.status === 'DRAFT' && (
        <DropdownMenu.Item className="menu-item" disabled={!fundraiser.isPublishable} onSelect={onPublish}>
          Publish{!fundraiser.isPublishable && ' (not ready yet)'}
        </DropdownMenu.Item>
      )}
      <DropdownMenu.Item asChild className="menu-item">
        <Link to={editPath}>Edit</Link>
      </DropdownMenu.Item>
      <DropdownMenu.Item asChild className="menu-item">
        <a href={`/api/fundraisers/${fundraiser.id}/download`} download>
          Download tracks
        </a>
      </DropdownMenu.Item>
      <DropdownMenu.Separator className="menu-separator" />
      <DropdownMenu.Item className="menu-item menu-item-danger" onSelect={onDelete}>
        Delete
      </DropdownMenu.Item>
    </AdminMenu>
  );
}
