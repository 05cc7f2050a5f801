-- wrk script: the rate lookup of the benchmark, with the key from the environment (BENCH_KEY).
wrk.method = "POST"
wrk.body = '{"origin":"Chicago, IL","destination":"Dallas, TX","equipment":"DRY_VAN"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("BENCH_KEY")
