/**
 * ATRI's average marginal cost per mile by data year (An Analysis of the Operational Costs of Trucking, the
 * edition published the following year), as the editions report it. The fidelity benchmark prices a dry-van
 * truckload as of mid-year with only what was published by then and compares it with these.
 */
export const ATRI_TOTAL_PER_MILE: Record<number, number> = {
  2019: 1.826,
  2020: 1.646,
  2021: 1.855,
  2022: 2.251,
  2023: 2.27,
  2024: 2.26,
};
export const ATRI_SOURCE = "ATRI Operational Costs of Trucking, total marginal cost per mile (2020-2025 editions)";
