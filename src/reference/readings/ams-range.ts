/**
 * Whether a USDA AMS FVWTRK $/load range is one the report prints (docs/rate-model.md, "Market anchoring").
 * A printed range is never this wide: the widest in the six reports carried has its low at 0.62 of its high
 * (Vidalia-Miami 2,800-4,500). A lower ratio is a misprint or a misparse of the PDF (South and Central
 * California-Atlanta, 2026-07-21: 740-8,600, "mostly" 8,000-8,600), and its midpoint would anchor a lane at half
 * the market. The importer refuses such a line; the anchor ignores one already stored.
 */
export const AMS_MIN_LOW_TO_HIGH = 0.5;

export const isPrintedAmsRange = (low: number, high: number): boolean =>
  low <= high && low >= high * AMS_MIN_LOW_TO_HIGH;
