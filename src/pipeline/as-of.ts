import { errors } from "../errors.ts";
import { isCalendarDate } from "../dates.ts";

/** Refuse an `as_of` that is not a real calendar date or lies after today. The pipeline checks every skill's. */
export function checkAsOf(asOf: string, today: string): void {
  if (!isCalendarDate(asOf))
    throw errors.invalidRequest([{ field: "as_of", problem: `must be a real date YYYY-MM-DD; got '${asOf}'` }]);
  if (asOf > today) throw errors.invalidRequest([{ field: "as_of", problem: `is in the future (today is ${today})` }]);
}
