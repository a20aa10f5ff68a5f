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
  const cases = [
    { name: "a code block's code paints no background of its own", selector: "pre > code", property: "background", want: "transparent" },
    // An approval's options in a narrow sidebar: "Always allow sh tests/test_cart.sh … in" was cut off.
    // A stopped command read "✗ failed"; cancelled is neither success nor failure.
    { name: "a cancelled call's status has its own mark", selector: '.tool-card[data-status="cancelled"] .tool-status::before', property: "content", want: '"⊘ "' },
    { name: "an approval's options wrap to new lines", selector: ".tool-permission", property: "flex-wrap", want: "wrap" },
    { name: "an approval option's long label wraps within its button", selector: ".tool-permission button", property: "white-space", want: "normal" },
    { name: "an approval option is never wider than the card", selector: ".tool-permission button", property: "max-width", want: "100%" },
    { name: "a long word in an approval option breaks", selector: ".tool-permission button", property: "overflow-wrap", want: "anywhere" },
    // A narrow sidebar's pickers: the dropdown covered its label ("Permissic").
    { name: "a picker's dropdown goes below its label when they do not fit side by side", selector: ".picker", property: "flex-wrap", want: "wrap" },
    { name: "a picker's label does not shrink under its dropdown", selector: ".picker-label", property: "flex", want: "none" },
    { name: "a picker's label too long for the view ellipsizes", selector: ".picker-label", property: "text-overflow", want: "ellipsis" },
    // A plan card's top heading rendered at the browser's 2em.
    ...["h1", "h2", "h3"].flatMap((h) =>
      [".plan-markdown", ".compaction-body"].map((card) => ({
        name: `a card's ${h} has the answer's size`,
        selector: `${card} ${h}`,
        property: "font-size",
        want: declarations(css, `.message ${h}`).get("font-size") ?? "missing",
      })),
    ),
    // A review row's "(new)" was cut off with the name: only the name shrinks.
    { name: "a review row's name can shrink below its length", selector: ".review-row .path", property: "min-width", want: "0" },
    { name: "a review row's (new) never shrinks", selector: ".review-row .created", property: "flex", want: "none" },
    { name: "a review row's counts never shrink", selector: ".review-row .counts", property: "flex", want: "none" },
    { name: "a review row's buttons never shrink", selector: ".review-row button", property: "flex", want: "none" },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(declarations(css, c.selector).get(c.property), c.want);
    });
  }
});
