/**
 * Reference road miles for the fidelity benchmark: well-known truck lanes with the driving distance that
 * road atlases and map services publish for them (fastest route, rounded to the mile). They were written
 * down from those published figures, not computed from Waybill's network, and are not re-checked at run time.
 * `tuning` lanes were looked at while choosing the network's build and snapping rules (the first 22 for the
 * first build, all 45 for the same-piece gap rule); `holdout` lanes were written down after the last rule
 * change, before the network was ever asked about them, and were never used to choose anything (except
 * Jackson-New Orleans, tuning since it chose the twin-carriageway rule). `unseen` lanes were written down after that
 * rule, from the same kind of published figures, and measured once against the networks before and after it.
 */
export interface ReferenceLane {
  origin: string;
  destination: string;
  roadMiles: number;
  route: string;
  set: "tuning" | "holdout" | "unseen";
}

const ATLAS = "published driving distance (road atlas / map service, fastest route)";
export const ROAD_MILES_SOURCE = ATLAS;

export const REFERENCE_LANES: ReferenceLane[] = [
  { origin: "Chicago, IL", destination: "Los Angeles, CA", roadMiles: 2015, route: "I-55, I-44, I-40, I-15, I-10", set: "tuning" },
  { origin: "Los Angeles, CA", destination: "Phoenix, AZ", roadMiles: 372, route: "I-10", set: "tuning" },
  { origin: "Atlanta, GA", destination: "New York, NY", roadMiles: 870, route: "I-85, I-95", set: "tuning" },
  { origin: "Denver, CO", destination: "Salt Lake City, UT", roadMiles: 525, route: "I-25, I-80", set: "tuning" },
  { origin: "Seattle, WA", destination: "Portland, OR", roadMiles: 174, route: "I-5", set: "tuning" },
  { origin: "Dallas, TX", destination: "Houston, TX", roadMiles: 239, route: "I-45", set: "tuning" },
  { origin: "Houston, TX", destination: "San Antonio, TX", roadMiles: 197, route: "I-10", set: "tuning" },
  { origin: "Chicago, IL", destination: "Indianapolis, IN", roadMiles: 183, route: "I-65", set: "tuning" },
  { origin: "Chicago, IL", destination: "Minneapolis, MN", roadMiles: 408, route: "I-94", set: "tuning" },
  { origin: "Chicago, IL", destination: "St. Louis, MO", roadMiles: 297, route: "I-55", set: "tuning" },
  { origin: "Los Angeles, CA", destination: "San Francisco, CA", roadMiles: 382, route: "I-5, I-580", set: "tuning" },
  { origin: "Los Angeles, CA", destination: "Las Vegas, NV", roadMiles: 270, route: "I-15", set: "tuning" },
  { origin: "Boston, MA", destination: "New York, NY", roadMiles: 215, route: "I-90, I-84, I-95", set: "tuning" },
  { origin: "Philadelphia, PA", destination: "Baltimore, MD", roadMiles: 100, route: "I-95", set: "tuning" },
  { origin: "Memphis, TN", destination: "Nashville, TN", roadMiles: 212, route: "I-40", set: "tuning" },
  { origin: "Kansas City, MO", destination: "St. Louis, MO", roadMiles: 248, route: "I-70", set: "tuning" },
  { origin: "Kansas City, MO", destination: "Denver, CO", roadMiles: 605, route: "I-70", set: "tuning" },
  { origin: "Albuquerque, NM", destination: "Oklahoma City, OK", roadMiles: 541, route: "I-40", set: "tuning" },
  { origin: "El Paso, TX", destination: "San Antonio, TX", roadMiles: 552, route: "I-10", set: "tuning" },
  { origin: "Jacksonville, FL", destination: "Miami, FL", roadMiles: 346, route: "I-95", set: "tuning" },
  { origin: "Boston, MA", destination: "Dallas, TX", roadMiles: 1750, route: "I-90, I-84, I-81, I-40, I-30 (Wolfram, road network efficiency)", set: "tuning" },
  { origin: "Seattle, WA", destination: "Los Angeles, CA", roadMiles: 1135, route: "I-5", set: "tuning" },
  { origin: "Chicago, IL", destination: "Detroit, MI", roadMiles: 283, route: "I-94", set: "tuning" },
  { origin: "Dallas, TX", destination: "San Antonio, TX", roadMiles: 274, route: "I-35", set: "tuning" },
  { origin: "Nashville, TN", destination: "Atlanta, GA", roadMiles: 250, route: "I-24, I-75", set: "tuning" },
  { origin: "Charlotte, NC", destination: "Atlanta, GA", roadMiles: 245, route: "I-85", set: "tuning" },
  { origin: "Cleveland, OH", destination: "Columbus, OH", roadMiles: 143, route: "I-71", set: "tuning" },
  { origin: "Columbus, OH", destination: "Indianapolis, IN", roadMiles: 175, route: "I-70", set: "tuning" },
  { origin: "Pittsburgh, PA", destination: "Philadelphia, PA", roadMiles: 305, route: "I-76", set: "tuning" },
  { origin: "Salt Lake City, UT", destination: "Las Vegas, NV", roadMiles: 420, route: "I-15", set: "tuning" },
  { origin: "Seattle, WA", destination: "Spokane, WA", roadMiles: 280, route: "I-90", set: "tuning" },
  { origin: "Laredo, TX", destination: "Dallas, TX", roadMiles: 430, route: "I-35", set: "tuning" },
  { origin: "Chicago, IL", destination: "Atlanta, GA", roadMiles: 716, route: "I-65, I-24, I-75", set: "tuning" },
  { origin: "Los Angeles, CA", destination: "Dallas, TX", roadMiles: 1435, route: "I-10, I-20", set: "tuning" },
  { origin: "Minneapolis, MN", destination: "Des Moines, IA", roadMiles: 244, route: "I-35", set: "tuning" },
  { origin: "New Orleans, LA", destination: "Houston, TX", roadMiles: 348, route: "I-10", set: "tuning" },
  { origin: "Jacksonville, FL", destination: "Tallahassee, FL", roadMiles: 164, route: "I-10", set: "tuning" },
  { origin: "Washington, DC", destination: "Richmond, VA", roadMiles: 108, route: "I-95", set: "tuning" },
  { origin: "Phoenix, AZ", destination: "Albuquerque, NM", roadMiles: 420, route: "AZ-87, I-40 (the Interstate way, I-17 and I-40, is about 460)", set: "tuning" },
  { origin: "New York, NY", destination: "Los Angeles, CA", roadMiles: 2790, route: "I-78, I-76, I-70, I-15", set: "tuning" },
  { origin: "Denver, CO", destination: "Albuquerque, NM", roadMiles: 449, route: "I-25", set: "tuning" },
  { origin: "Atlanta, GA", destination: "Miami, FL", roadMiles: 662, route: "I-75, Florida Turnpike", set: "tuning" },
  { origin: "Oklahoma City, OK", destination: "Dallas, TX", roadMiles: 206, route: "I-35", set: "tuning" },
  { origin: "Portland, OR", destination: "Boise, ID", roadMiles: 430, route: "I-84", set: "tuning" },
  { origin: "Sacramento, CA", destination: "Reno, NV", roadMiles: 132, route: "I-80", set: "tuning" },
  // Held out until it chose the twin-carriageway rule (I-55 drawn short of I-10 at LaPlace): tuning since.
  { origin: "Jackson, MS", destination: "New Orleans, LA", roadMiles: 187, route: "I-55", set: "tuning" },
  { origin: "Indianapolis, IN", destination: "Louisville, KY", roadMiles: 114, route: "I-65", set: "holdout" },
  { origin: "Louisville, KY", destination: "Nashville, TN", roadMiles: 175, route: "I-65", set: "holdout" },
  { origin: "Birmingham, AL", destination: "Atlanta, GA", roadMiles: 147, route: "I-20", set: "holdout" },
  { origin: "Charlotte, NC", destination: "Raleigh, NC", roadMiles: 168, route: "I-85, I-40", set: "holdout" },
  { origin: "Richmond, VA", destination: "Norfolk, VA", roadMiles: 93, route: "I-64", set: "holdout" },
  { origin: "Albany, NY", destination: "Buffalo, NY", roadMiles: 290, route: "I-90", set: "holdout" },
  { origin: "Cincinnati, OH", destination: "Columbus, OH", roadMiles: 107, route: "I-71", set: "holdout" },
  { origin: "Omaha, NE", destination: "Des Moines, IA", roadMiles: 136, route: "I-80", set: "holdout" },
  { origin: "Omaha, NE", destination: "Denver, CO", roadMiles: 540, route: "I-80, I-76", set: "holdout" },
  { origin: "Tulsa, OK", destination: "Oklahoma City, OK", roadMiles: 106, route: "I-44", set: "holdout" },
  { origin: "Austin, TX", destination: "Dallas, TX", roadMiles: 195, route: "I-35", set: "holdout" },
  { origin: "San Diego, CA", destination: "Los Angeles, CA", roadMiles: 120, route: "I-5", set: "holdout" },
  { origin: "Tucson, AZ", destination: "Phoenix, AZ", roadMiles: 113, route: "I-10", set: "holdout" },
  { origin: "Spokane, WA", destination: "Missoula, MT", roadMiles: 199, route: "I-90", set: "holdout" },
  { origin: "Billings, MT", destination: "Bozeman, MT", roadMiles: 142, route: "I-90", set: "holdout" },
  { origin: "Memphis, TN", destination: "Little Rock, AR", roadMiles: 137, route: "I-40", set: "holdout" },
  { origin: "Little Rock, AR", destination: "Dallas, TX", roadMiles: 319, route: "I-30", set: "holdout" },
  { origin: "Savannah, GA", destination: "Jacksonville, FL", roadMiles: 139, route: "I-95", set: "holdout" },
  { origin: "Baltimore, MD", destination: "Pittsburgh, PA", roadMiles: 247, route: "I-70, I-76", set: "holdout" },
  { origin: "Nashville, TN", destination: "Knoxville, TN", roadMiles: 180, route: "I-40", set: "unseen" },
  { origin: "Louisville, KY", destination: "Cincinnati, OH", roadMiles: 100, route: "I-71", set: "unseen" },
  { origin: "Cleveland, OH", destination: "Pittsburgh, PA", roadMiles: 134, route: "I-480, I-80, I-76", set: "unseen" },
  { origin: "Birmingham, AL", destination: "Montgomery, AL", roadMiles: 91, route: "I-65", set: "unseen" },
  { origin: "Mobile, AL", destination: "New Orleans, LA", roadMiles: 144, route: "I-10", set: "unseen" },
  { origin: "Baton Rouge, LA", destination: "New Orleans, LA", roadMiles: 80, route: "I-10", set: "unseen" },
  { origin: "Shreveport, LA", destination: "Dallas, TX", roadMiles: 189, route: "I-20", set: "unseen" },
  { origin: "Wichita, KS", destination: "Oklahoma City, OK", roadMiles: 161, route: "I-35", set: "unseen" },
  { origin: "Milwaukee, WI", destination: "Madison, WI", roadMiles: 79, route: "I-94", set: "unseen" },
  { origin: "Milwaukee, WI", destination: "Chicago, IL", roadMiles: 92, route: "I-94", set: "unseen" },
  { origin: "Boise, ID", destination: "Salt Lake City, UT", roadMiles: 340, route: "I-84", set: "unseen" },
  { origin: "El Paso, TX", destination: "Albuquerque, NM", roadMiles: 266, route: "I-25", set: "unseen" },
  { origin: "Amarillo, TX", destination: "Albuquerque, NM", roadMiles: 287, route: "I-40", set: "unseen" },
  { origin: "Amarillo, TX", destination: "Oklahoma City, OK", roadMiles: 259, route: "I-40", set: "unseen" },
  { origin: "Jacksonville, FL", destination: "Orlando, FL", roadMiles: 141, route: "I-95, I-4", set: "unseen" },
  { origin: "Tampa, FL", destination: "Orlando, FL", roadMiles: 84, route: "I-4", set: "unseen" },
  { origin: "Laredo, TX", destination: "San Antonio, TX", roadMiles: 157, route: "I-35", set: "unseen" },
  { origin: "Houston, TX", destination: "Beaumont, TX", roadMiles: 85, route: "I-10", set: "unseen" },
  { origin: "Flagstaff, AZ", destination: "Phoenix, AZ", roadMiles: 145, route: "I-17", set: "unseen" },
  { origin: "Portland, OR", destination: "Eugene, OR", roadMiles: 110, route: "I-5", set: "unseen" },
  { origin: "Sacramento, CA", destination: "Redding, CA", roadMiles: 162, route: "I-5", set: "unseen" },
  { origin: "Fargo, ND", destination: "Minneapolis, MN", roadMiles: 235, route: "I-94", set: "unseen" },
  { origin: "Sioux Falls, SD", destination: "Omaha, NE", roadMiles: 183, route: "I-29", set: "unseen" },
  { origin: "Kansas City, MO", destination: "Omaha, NE", roadMiles: 187, route: "I-29", set: "unseen" },
  { origin: "Columbia, SC", destination: "Charlotte, NC", roadMiles: 93, route: "I-77", set: "unseen" },
  { origin: "Greenville, SC", destination: "Atlanta, GA", roadMiles: 145, route: "I-85", set: "unseen" },
  { origin: "Chattanooga, TN", destination: "Atlanta, GA", roadMiles: 118, route: "I-75", set: "unseen" },
  { origin: "Lexington, KY", destination: "Louisville, KY", roadMiles: 77, route: "I-64", set: "unseen" },
  { origin: "Harrisburg, PA", destination: "Philadelphia, PA", roadMiles: 107, route: "I-76", set: "unseen" },
  { origin: "Hartford, CT", destination: "Boston, MA", roadMiles: 102, route: "I-84, I-90", set: "unseen" },
  { origin: "Syracuse, NY", destination: "Albany, NY", roadMiles: 145, route: "I-90", set: "unseen" },
  { origin: "Indianapolis, IN", destination: "St. Louis, MO", roadMiles: 243, route: "I-70", set: "unseen" },
  { origin: "Toledo, OH", destination: "Detroit, MI", roadMiles: 60, route: "I-75", set: "unseen" },
  { origin: "Des Moines, IA", destination: "Kansas City, MO", roadMiles: 195, route: "I-35", set: "unseen" },
  { origin: "Cheyenne, WY", destination: "Denver, CO", roadMiles: 100, route: "I-25", set: "unseen" },
];
