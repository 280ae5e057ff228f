import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Link } from 'react-router';
import type { Fundraiser } from '../../../shared/answers/fundraisers';

export type AdminMenuProps = {
  fundraiser: Fundraiser;
  editPath: string;
  onPublish: () => void;
  onDelete: () => void;
};

/** The admin menu of the fundraiser page (spec part 2 section 2); Radix handles keys and focus. */
export function AdminMenu({ fundraiser, editPath, onPublish, onDelete }: AdminMenuProps) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="button button-secondary">
        Admin menu<span aria-hidden="true"> ▾</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={8}>
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
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
