import type * as z from 'zod/mini';
import { emailChangeSchema, tokenUserSchema, userSchema } from './accounts';
import {
  adminTransactionsSchema,
  callbackAnswerSchema,
  disbursementAnswerSchema,
  disbursementHistorySchema,
  disbursementSummariesSchema,
  feeChecksAnswerSchema,
  initializeResponseSchema,
  ledgerSchema,
  reconciliationSchema,
} from './admin-money';
import { apiErrorSchema, formErrorsSchema, okSchema } from './api';
import { artistListSchema, artistSchema, artistSearchResultSchema, updateArtistResultSchema } from './artists';
import { adminInsightSchema, fundraiserInsightSchema } from './insight';
import { featuredCharitiesSchema, nonprofitDetailSchema, nonprofitSearchResultSchema } from './charities';
import {
  paymentConfigSchema,
  paymentIntentSchema,
  purchaseLinkSchema,
  testConfirmResultSchema,
  testIntentStatusSchema,
  transactionSummarySchema,
} from './donations';
import {
  fundraiserListSchema,
  fundraiserRefSchema,
  fundraiserSchema,
  fundraiserSearchResultSchema,
  fundraiserTransactionsSchema,
  fundraiserReachSchema,
  shareCountSchema,
} from './fundraisers';
import { albumFormatsSchema, formatPreparationSchema } from './formats';
import { givingSchema, receiptCopySchema } from './giving';
import { libraryAlbumDetailSchema, libraryAlbumListSchema } from './library';
import { siteSchema } from './site';
import { uploadResultSchema } from './uploads';

/**
 * Every answer the client checks, by name. The client asks for an answer by its name
 * (`apiRequest(path, 'fundraiser')`) and loads this module — with zod — only when it first checks
 * an answer that came over the network, so a visitor's first page carries no parser (issue 13).
 */
export const answerSchemas = {
  ok: okSchema,
  apiError: apiErrorSchema,
  formErrors: formErrorsSchema,
  user: userSchema,
  tokenUser: tokenUserSchema,
  emailChange: emailChangeSchema,
  artist: artistSchema,
  artistList: artistListSchema,
  artistSearch: artistSearchResultSchema,
  artistUpdated: updateArtistResultSchema,
  fundraiser: fundraiserSchema,
  fundraiserList: fundraiserListSchema,
  fundraiserSearch: fundraiserSearchResultSchema,
  fundraiserRef: fundraiserRefSchema,
  fundraiserTransactions: fundraiserTransactionsSchema,
  fundraiserReach: fundraiserReachSchema,
  fundraiserInsight: fundraiserInsightSchema,
  adminInsight: adminInsightSchema,
  shareCount: shareCountSchema,
  featuredCharities: featuredCharitiesSchema,
  nonprofitSearch: nonprofitSearchResultSchema,
  nonprofitDetail: nonprofitDetailSchema,
  libraryAlbums: libraryAlbumListSchema,
  libraryAlbum: libraryAlbumDetailSchema,
  site: siteSchema,
  upload: uploadResultSchema,
  paymentConfig: paymentConfigSchema,
  paymentIntent: paymentIntentSchema,
  testPayment: testConfirmResultSchema,
  testIntent: testIntentStatusSchema,
  transactionSummary: transactionSummarySchema,
  purchaseLink: purchaseLinkSchema,
  adminTransactions: adminTransactionsSchema,
  disbursementSummaries: disbursementSummariesSchema,
  disbursementHistory: disbursementHistorySchema,
  disbursementStarted: initializeResponseSchema,
  disbursement: disbursementAnswerSchema,
  disbursementCallback: callbackAnswerSchema,
  ledger: ledgerSchema,
  feeChecks: feeChecksAnswerSchema,
  reconciliation: reconciliationSchema,
  giving: givingSchema,
  receiptCopy: receiptCopySchema,
  albumFormats: albumFormatsSchema,
  formatPreparation: formatPreparationSchema,
};

export type AnswerName = keyof typeof answerSchemas;
export type Answer<N extends AnswerName> = z.output<(typeof answerSchemas)[N]>;
