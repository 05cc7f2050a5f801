/** What the dashboard's receipt page shows of audit-report: the same trace the skill answers with. */
export { receiptTrace, type ReceiptTrace } from "./trace.ts";
