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
  minify: true,
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
