import { useQuery } from '@tanstack/react-query';
import { adminMoneyMessages, featuredFundraiserIdsSchema } from '../../../shared/schemas/admin-money';
import { featuredFundraisersQueryOptions } from '../../api/fundraisers';
import { fundraiserTitle } from '../../../shared/public-pages';
import { UploadedPicture } from '../../ui/uploaded-picture';
import { featuredUpdateErrorMessage, useUpdateFeaturedFundraisers } from './featured-fundraisers-api';
import { FeaturedListEditor } from './featured-list-editor';
import { type FeaturedItem, FundraiserPicker } from './fundraiser-picker';

/**
 * The Featured fundraisers tab (spec part 2 sections 2, 5 and 8): the home page's fundraisers in
 * order, each row a picker over the public search, with reorder, delete and an empty row to add.
 */
export function FeaturedFundraisersAdmin() {
  const current = useQuery(featuredFundraisersQueryOptions());
  const update = useUpdateFeaturedFundraisers();
  return (
    <FeaturedListEditor<FeaturedItem>
      title="Featured fundraisers"
      intro="The home page shows these published fundraisers, in this order. Search by name, artist or charity in each row."
      current={current}
      loadingLabel="Loading featured fundraisers"
      idOf={(fundraiser) => String(fundraiser.id)}
      nameOf={fundraiserTitle}
      check={(fundraisers) => {
        const checked = featuredFundraiserIdsSchema.safeParse(fundraisers.map((fundraiser) => fundraiser.id));
        return checked.success ? null : (checked.error.issues[0]?.message ?? adminMoneyMessages.featuredAtLeastOne);
      }}
      duplicateMessage={adminMoneyMessages.featuredDuplicate}
      emptyMessage="No projects!"
      countText={(count) => `${count} ${count === 1 ? 'row' : 'rows'}`}
      adding={{ kind: 'empty-row', emptyRowMessage: adminMoneyMessages.featuredEmptyRow }}
      removeLabel="Delete"
      rowClassName="featured-fundraiser-row"
      actionsClassName="featured-actions featured-fundraiser-actions"
      className="featured-fundraisers-form"
      renderRow={({ item, index, inputId, error, items, onChange }) => (
        <>
          <UploadedPicture uploadId={item?.albumCover} alt="" sizes="56px" className="featured-fundraiser-cover" />
          <FundraiserPicker
            inputId={inputId}
            label={`Fundraiser ${index + 1}`}
            value={item}
            listedIds={new Set(items.map((fundraiser) => fundraiser.id))}
            error={error}
            onChange={onChange}
          />
        </>
      )}
      saveLabel="Save featured fundraisers"
      save={{
        run: (fundraisers, onSaved) =>
          update.mutate(
            fundraisers.map((fundraiser) => fundraiser.id),
            { onSuccess: onSaved },
          ),
        isPending: update.isPending,
        error: update.isError ? featuredUpdateErrorMessage(update.error) : null,
        reset: update.reset,
      }}
      savedMessage={adminMoneyMessages.featuredUpdated}
    />
  );
}
