/**
 * The call name of a bid sheet's submission (`POST /v1/rates/batch`). Its receipt carries the call, which
 * answers 202 and counts toward the minute only: the sheet's lanes count toward the month one by one, each
 * with its own receipt, so usage counts of answered calls leave the submission out.
 */
export const BATCH_SUBMISSION_CALL = "rate-lookup.batch";

/** The status a receipt-carried call was answered with. */
export const answeredStatusOf = (call: string): number => (call === BATCH_SUBMISSION_CALL ? 202 : 200);
