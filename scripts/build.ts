export {};
// Compile Waybill into one executable: code, views, migrations, public assets and reference data inside.
const result = await Bun.build({
  // The XLSX reader runs in a Worker; a compiled binary only holds a worker file given as an entrypoint.
  entrypoints: ["./src/main.ts", "./src/batch/xlsx-read.worker.ts"],
  compile: {
    outfile: "./dist/waybill",
    // The binary must behave the same from any folder: never pick up a bunfig.toml or .env there.
    autoloadBunfig: false,
    autoloadDotenv: false,
    assets: ["./migrations", "./migrations-pg", "./public"],
  },
  // Only syntax minification: Elysia decides per route whether to parse the body and read the query,
  // headers or cookies by reading its handlers' and hooks' source text (Function#toString,
  // "sucrose"). With whitespace minified, a method-shorthand hook such as the dashboard guard's
  // `async resolve({ body })` loses the newline after its parameter list and sucrose misreads it;
  // with identifiers minified, a nested destructuring (`({ query, signedIn: { viewer } })`) becomes
  // `({query:e,signedIn:{viewer:t}})` and sucrose loses `query`. Either way the binary alone gets no
  // form body or query on some routes (elysiajs/elysia#1280). Kept as written, sucrose reads the
  // same text as from source; the browser suite runs against this build to keep it so.
  minify: { whitespace: false, syntax: true, identifiers: false },
  bytecode: true,
  format: "esm",
  sourcemap: "linked",
  define: { "process.env.NODE_ENV": '"production"' },
});

if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`built ${result.outputs.map((o) => o.path).join(", ")}`);
