import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";

/** The declarations of the rules in css whose selector list holds selector, in order. */
function declarations(css: string, selector: string): Map<string, string> {
  const found = new Map<string, string>();
  const plain = css.replace(/\/\*[\s\S]*?\*\//g, "");
  for (const [, selectors = "", body = ""] of plain.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    if (!selectors.split(",").some((s) => s.trim() === selector)) continue;
    for (const decl of body.split(";")) {
      const colon = decl.indexOf(":");
      if (colon > 0) found.set(decl.slice(0, colon).trim(), decl.slice(colon + 1).trim());
    }
  }
  return found;
}

describe("chat.css", () => {
  const css = readFileSync(path.join(__dirname, "..", "..", "..", "media", "chat.css"), "utf8");
  // VS Code's default webview styles (@layer vscode-default) give every
  // code element a background; a code block's lines would each paint it.
  const cases = [{ name: "a code block's code paints no background of its own", selector: "pre > code", property: "background", want: "transparent" }];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(declarations(css, c.selector).get(c.property), c.want);
    });
  }
});
