/**
 * The origin's wire shapes: knowledge units, the account, the community
 * (requests board, reviews, reports) and payments. A node answers none of
 * them; the node's own shapes are `@svc/cli`'s.
 *
 * @module
 */
export type {
  ClaimAnswer,
  ClaimOptions,
  ClaimState,
  ClaimStatus,
  DatasetListing,
  Earnings,
  Listings,
  ListingsQuery,
  NextPayout,
  Quota,
  QuotaGrant,
  Report,
  ReportAnswer,
  UnitListing,
} from "./account.ts";
export type {
  AnswerItem,
  BoardId,
  ChosenAnswer,
  ItemReview,
  ItemReviews,
  NewAnswer,
  NewRequest,
  NewReview,
  PostedAnswer,
  PostedRequest,
  RequestAnswer,
  RequestDetail,
  RequestField,
  RequestList,
  RequestQuery,
  RequestStatus,
  RequestSummary,
  TopicComment,
} from "./community.ts";
export type {
  LeaderboardRow,
  PointsAnswer,
  PriceInput,
  PriceState,
  ProjectChanges,
  ProjectEdited,
  Provenance,
  ProvenanceSource,
  RetiredUnit,
  ReviewsAnswer,
  RevisedUnit,
  SearchAnswer,
  SearchHit,
  SearchNext,
  SubmittedUnit,
  UnitComment,
  UnitFull,
  UnitPrice,
  UnitReview,
  UnitRevision,
  UnitStatus,
  UnitSubmission,
  UnitValidation,
} from "./knowledge.ts";
export type {
  CreditGrant,
  CreditLedgerEntry,
  CreditPackPurchase,
  CreditsView,
  DatasetCreditPurchase,
  Dispute,
  DisputeOpened,
  PaymentReceipt,
  Purchase,
  PurchasePage,
  StatementAnswer,
  UnitCreditPurchase,
} from "./payments.ts";
export { REPORT_KINDS, REPORT_REASONS } from "./account.ts";
