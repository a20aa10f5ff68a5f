// Bundles the extension with esbuild: dist/extension.js (CommonJS for the
// extension host, `vscode` external, the ESM ACP SDK inlined) and
// dist/webview.js (the chat view's script). With --tests it also bundles
// the stub vscode module (out/stubs/vscode), every test and measurement
// entry under test/, and the stand-in ACP agent (test/fakes/acpAgent.ts)
// into out/.
import { build } from "esbuild";
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const withTests = process.argv.includes("--tests");
/** @type {import("esbuild").BuildOptions} */
// `navigator` is read as undefined: the bundled zod probes it, and VS Code's
// extension host (Node 21+, where navigator is a global) logs a
// PendingMigrationError for every read of it.
const node = { bundle: true, platform: "node", format: "cjs", target: "node20", external: ["vscode"], logLevel: "warning", define: { navigator: "undefined" } };

await Promise.all([
  build({ ...node, entryPoints: [path.join(root, "src/extension.ts")], outfile: path.join(root, "dist/extension.js"), minify: true, sourcemap: true }),
  build({ bundle: true, platform: "browser", format: "iife", target: "es2022", logLevel: "warning", entryPoints: [path.join(root, "src/webview/main.ts")], outfile: path.join(root, "dist/webview.js"), minify: true }),
]);

if (withTests) {
  rmSync(path.join(root, "out"), { recursive: true, force: true });
  const entries = [];
  for (const dir of ["unit", "webview", "protocol", "measure"]) {
    const abs = path.join(root, "test", dir);
    for (const f of readdirSync(abs)) if (f.endsWith(".test.ts") || (dir !== "webview" && f.endsWith(".ts"))) entries.push(path.join(abs, f));
  }
  // The stand-in ACP agent the tests run as a process (out/test/fakes/acpAgent.js).
  entries.push(path.join(root, "test/fakes/acpAgent.ts"));
  await Promise.all([
    build({ ...node, external: [], entryPoints: [path.join(root, "test/stubs/vscode.ts")], outfile: path.join(root, "out/stubs/vscode/index.js") }),
    build({ ...node, external: ["vscode", "happy-dom"], entryPoints: entries, outdir: path.join(root, "out/test"), outbase: path.join(root, "test"), sourcemap: "inline" }),
  ]);
}
