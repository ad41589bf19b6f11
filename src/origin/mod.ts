/**
 * The origin's client (`@svc/origin`): what only the origin answers, on top
 * of `@svc/cli`'s `Client` (a node's and the origin's datasets): knowledge
 * units, the account, the community, payments without a wallet, reports,
 * dataset edits and resumable pushes of large files, with their wire
 * shapes. Payments a wallet signs are `@svc/origin/pay`; the `svc`
 * commands only the origin answers are `@svc/origin/cli`. A node's package
 * (`svc serve`, the image) loads none of it.
 *
 * @example
 * ```ts
 * import { OriginClient } from "./mod.ts";
 * const origin = new OriginClient({ baseUrl: "https://origin.example", apiKey: "agent-key" });
 * console.log(origin.payUrl); // "https://origin.example"
 * ```
 *
 * @module
 */
export {
  type AccountCalls,
  type CommunityCalls,
  type KnowledgeCalls,
  OriginClient,
  type OriginClientOptions,
  type PaymentCalls,
  type PriceChange,
  type PushOptions,
  type PushProgress,
  type PushResult,
  type ReviewTarget,
  type SearchOptions,
  type UnitWaitOptions,
  type WalletProof,
} from "./client/mod.ts";
export type {
  AnswerItem,
  BoardId,
  ChosenAnswer,
  ClaimAnswer,
  ClaimOptions,
  ClaimState,
  ClaimStatus,
  CreditGrant,
  CreditLedgerEntry,
  CreditPackPurchase,
  CreditsView,
  DatasetCreditPurchase,
  DatasetListing,
  Dispute,
  DisputeOpened,
  Earnings,
  ItemReview,
  ItemReviews,
  LeaderboardRow,
  Listings,
  ListingsQuery,
  NewAnswer,
  NewRequest,
  NewReview,
  NextPayout,
  PaymentReceipt,
  PointsAnswer,
  PostedAnswer,
  PostedRequest,
  PriceInput,
  PriceState,
  ProjectChanges,
  ProjectEdited,
  Provenance,
  ProvenanceSource,
  Purchase,
  PurchasePage,
  Quota,
  QuotaGrant,
  Report,
  ReportAnswer,
  RequestAnswer,
  RequestDetail,
  RequestField,
  RequestList,
  RequestQuery,
  RequestStatus,
  RequestSummary,
  RetiredUnit,
  ReviewsAnswer,
  RevisedUnit,
  SearchAnswer,
  SearchHit,
  SearchNext,
  StatementAnswer,
  SubmittedUnit,
  TopicComment,
  UnitComment,
  UnitCreditPurchase,
  UnitFull,
  UnitListing,
  UnitPrice,
  UnitReview,
  UnitRevision,
  UnitStatus,
  UnitSubmission,
  UnitValidation,
} from "./wire/mod.ts";
export { REPORT_KINDS, REPORT_REASONS } from "./wire/mod.ts";
