export {};
// Compile Waybill into one executable: code, views, migrations, public assets and reference data inside.
const result = await Bun.build({
  entrypoints: ["./src/main.ts"],
  compile: {
    outfile: "./dist/waybill",
    // The binary must behave the same from any folder: never pick up a bunfig.toml or .env there.
    autoloadBunfig: false,
    autoloadDotenv: false,
    assets: ["./migrations", "./public"],
  },
  // Not `minify: true`: Elysia decides per route whether to parse the body (and read query, headers,
  // cookies) by reading its handlers' and hooks' source text (Function#toString, "sucrose"). With
  // whitespace minified, a method-shorthand hook such as the dashboard guard's `async resolve({ body })`
  // loses the newline after its parameter list, sucrose misreads it, and routes whose own handler
  // never names `body` (sign-out, revoke, the admin tier change) get no form body in the binary only
  // (elysiajs/elysia#1280). Keeping whitespace gives sucrose the same text it reads from source.
  minify: { whitespace: false, syntax: true, identifiers: true },
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
