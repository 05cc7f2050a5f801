/**
 * ATRI's average marginal cost per mile by data year (An Analysis of the Operational Costs of Trucking, the
 * edition published the following year), as the editions report it. The fidelity benchmark prices a dry-van
 * truckload as of mid-year with only what was published by then and compares it with these.
 */
export const ATRI_TOTAL_PER_MILE: Record<number, number> = {
  // 2019 as the 2020 edition reported it: "decreased 9.3% to $1.65" (Fresh Logistics), "from $1.821 to $1.652" (ATRI's
  // chart as printed by Truckinginfo, 2020-11-24), carried at the chart's three decimals like the other years. 1.826 stood
  // here before, with no source, and matches no edition's 2019 figure (2018 was $1.821).
  2019: 1.652,
  2020: 1.646,
  2021: 1.855,
  2022: 2.251,
  2023: 2.27,
  2024: 2.26,
};
export const ATRI_SOURCE = "ATRI Operational Costs of Trucking, total marginal cost per mile (2020-2025 editions)";
