-- wrk script: answered rate lookups over a realistic lane mix: the 380 directed lanes between 20 real
-- cities, dry van, drawn by a Zipf law (s = 1), so a few popular lanes repeat often and most are asked
-- now and then, on today's figures. Used to judge the server's kept answers (src/pipeline/answer-memo.ts):
-- `SCRIPT=lanes.lua bash test/bench/ab.sh BIN_A BIN_B`. The key comes from BENCH_KEY; the draw is seeded.
local cities = {
  "Chicago, IL", "Dallas, TX", "Atlanta, GA", "Los Angeles, CA", "Houston, TX", "Phoenix, AZ", "Denver, CO",
  "Seattle, WA", "Miami, FL", "Boston, MA", "Philadelphia, PA", "Detroit, MI", "Minneapolis, MN", "St. Louis, MO",
  "Memphis, TN", "Nashville, TN", "Charlotte, NC", "Columbus, OH", "Indianapolis, IN", "Kansas City, MO",
}
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("BENCH_KEY")

local bodies = {}
local cumulative = {}

function init(args)
  math.randomseed(20261128)
  for o = 1, #cities do
    for d = 1, #cities do
      if o ~= d then
        bodies[#bodies + 1] = string.format('{"origin":"%s","destination":"%s","equipment":"DRY_VAN"}', cities[o], cities[d])
      end
    end
  end
  -- Shuffle, so popularity does not follow the list's order, then rank k gets weight 1/k.
  for i = #bodies, 2, -1 do
    local j = math.random(i)
    bodies[i], bodies[j] = bodies[j], bodies[i]
  end
  local total = 0
  for k = 1, #bodies do
    total = total + 1 / k
    cumulative[k] = total
  end
  for k = 1, #bodies do cumulative[k] = cumulative[k] / total end
end

function request()
  local u = math.random()
  local lo, hi = 1, #cumulative
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if cumulative[mid] < u then lo = mid + 1 else hi = mid end
  end
  return wrk.format(nil, nil, nil, bodies[lo])
end
