// Files the docs embed with `with { type: "file" }`: the import yields the file's path (in the binary, its embedded path).
declare module "*/standalone.js" {
  const path: string;
  export default path;
}
declare module "*/scalar-init.js" {
  const path: string;
  export default path;
}
