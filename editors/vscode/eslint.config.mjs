// ESLint for the extension, its webview script, its tests and build script,
// and the end-to-end harness: ESLint's recommended rules and
// typescript-eslint's strict and stylistic type-checked ones on every file,
// each file checked with the types of the tsconfig.json nearest to it (the
// host's, src/webview's, e2e's).
import eslint from "@eslint/js";
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

export default defineConfig(
  { ignores: ["dist/", "out/", "e2e/node_modules/", "e2e/artifacts/"] },
  eslint.configs.recommended,
  tseslint.configs.strictTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // Numbers read well in a template literal; anything else must be made a string first.
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      // A promise is awaited, handled, or let go explicitly with `void`.
      // node:test's describe() and it() return promises its runner awaits itself.
      "@typescript-eslint/no-floating-promises": [
        "error",
        {
          ignoreVoid: true,
          allowForKnownSafeCalls: [
            { from: "package", package: "node:test", name: ["describe", "it", "test", "before", "after", "beforeEach", "afterEach"] },
          ],
        },
      ],
      // `() => send(m)` and `return view.update(m)` in a function that
      // returns nothing say what they mean; a void used as a value
      // (`const x = f()`, `a || f()`) is still an error.
      "@typescript-eslint/no-confusing-void-expression": ["error", { ignoreArrowShorthand: true, ignoreVoidReturningFunctions: true }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      eqeqeq: ["error", "always", { null: "ignore" }],
    },
  },
  {
    // The tests' fakes stand in for async APIs (the agent, SecretStorage,
    // vscode's): they are declared async like the real thing, so that a
    // throw in one is a rejected promise, as callers expect, even when
    // nothing in them awaits.
    files: ["test/**/*.ts"],
    rules: { "@typescript-eslint/require-await": "off" },
  },
  {
    // The type checker (checkJs) reports undefined names in JavaScript, and
    // knows Node's and the DOM's globals; no-undef does not.
    files: ["**/*.mjs"],
    rules: { "no-undef": "off" },
  },
);
