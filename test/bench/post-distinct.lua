-- wrk script: answered rate lookups where (almost) every call is a question not asked before: a lane among
-- 40 x 39 city pairs, one of three equipment types and an as_of among 60 days (280,800 questions), so the
-- server's kept answers rarely apply and the model, data_as_of and canonical JSON run for each call.
-- The key comes from the environment (BENCH_KEY); the sequence is seeded, so runs ask the same questions.
local cities = {
  "Chicago, IL", "Dallas, TX", "Atlanta, GA", "Los Angeles, CA", "Houston, TX", "Phoenix, AZ", "Denver, CO",
  "Seattle, WA", "Miami, FL", "Boston, MA", "Philadelphia, PA", "Detroit, MI", "Minneapolis, MN", "St. Louis, MO",
  "Memphis, TN", "Nashville, TN", "Charlotte, NC", "Columbus, OH", "Indianapolis, IN", "Kansas City, MO",
  "Omaha, NE", "Salt Lake City, UT", "Las Vegas, NV", "Sacramento, CA", "San Antonio, TX", "El Paso, TX",
  "Albuquerque, NM", "Oklahoma City, OK", "Little Rock, AR", "Birmingham, AL", "Jacksonville, FL", "Tampa, FL",
  "Richmond, VA", "Baltimore, MD", "Pittsburgh, PA", "Cleveland, OH", "Milwaukee, WI", "Louisville, KY",
  "Buffalo, NY", "Fresno, CA",
}
local equipment = { "DRY_VAN", "REEFER", "FLATBED" }
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("BENCH_KEY")

function init(args)
  math.randomseed(20261123)
end

function request()
  local origin = math.random(#cities)
  local destination = math.random(#cities - 1)
  if destination >= origin then destination = destination + 1 end
  local day = os.date("!%Y-%m-%d", 1785542400 + 86400 * math.random(0, 59)) -- from 2026-08-01
  local body = string.format('{"origin":"%s","destination":"%s","equipment":"%s","as_of":"%s"}',
    cities[origin], cities[destination], equipment[math.random(#equipment)], day)
  return wrk.format(nil, nil, nil, body)
end
