import { strict as assert } from "node:assert";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { Window } from "happy-dom";
import type { FromWebview } from "../../src/chat/messages";
import { lastUsedFormat } from "../../src/chat/lastUsed";
import { ContextChip, sessionLabel, showConfig, showReview, showSessions } from "../../src/webview/panels";
import { installDom } from "./dom";

let window: Window;
beforeEach(() => {
  window = installDom();
});
afterEach(async () => {
  await window.happyDOM.close();
});

describe("the session list", () => {
  const long = "Refactor the whole configuration loader so that every setting is read once and validated ".repeat(3);

  it("shortens a long title with an ellipsis and keeps it whole as the tooltip", () => {
    const select = document.createElement("select");
    showSessions(select, [{ sessionId: "s1", cwd: "/ws", title: long }], undefined);
    const o = select.options[1];
    assert.ok((o?.textContent ?? "").length <= 48, o?.textContent ?? "");
    assert.ok(o?.textContent.endsWith("…"));
    assert.equal(o?.title, long);
  });

  it("dates each session and lists the newest first", () => {
    const select = document.createElement("select");
    showSessions(
      select,
      [
        { sessionId: "old", cwd: "/ws", title: "older", updatedAt: "2026-11-01T10:00:00Z" },
        { sessionId: "new", cwd: "/ws", title: "newer", updatedAt: "2026-12-01T10:00:00Z" },
      ],
      "new",
    );
    assert.deepEqual([...select.options].map((o) => o.value), ["", "new", "old"]);
    assert.equal(select.value, "new");
    assert.equal(sessionLabel({ sessionId: "x", title: "t", updatedAt: "2026-12-01T10:05:00Z" }, lastUsedFormat("en-GB")).startsWith("t · 1 Dec"), true);
  });

  it("lists the current session before the agent has stored it", () => {
    const select = document.createElement("select");
    showSessions(select, [{ sessionId: "old", cwd: "/ws", title: "older" }], "fresh");
    assert.equal(select.value, "fresh");
    assert.match(select.selectedOptions[0]?.textContent ?? "", /current/);
  });
});

describe("the pickers", () => {
  it("label each dropdown with its option's name", () => {
    const box = document.createElement("div");
    showConfig(box, [{ type: "select", id: "effort", name: "Reasoning effort", currentValue: "high", options: [{ value: "high", name: "high" }] }], () => undefined);
    const label = box.querySelector("label");
    assert.ok(label);
    assert.equal(label.querySelector(".picker-label")?.textContent, "Reasoning effort");
    assert.equal(label.querySelector("select")?.value, "high");
  });

  it("say what the agent tells of each model, and of the current one on the dropdown", () => {
    const box = document.createElement("div");
    const options = [
      { value: "flash", name: "Flash", description: "text only · 1M-token context" },
      { value: "mini", name: "Mini", description: "takes images · 1.05M-token context" },
      { value: "listed", name: "Listed" },
    ];
    showConfig(box, [{ type: "select", id: "model", name: "Model", category: "model", currentValue: "flash", options }], () => undefined);
    const select = box.querySelector("select");
    assert.ok(select);
    assert.deepEqual([...select.options].map((o) => o.title), ["text only · 1M-token context", "takes images · 1.05M-token context", ""]);
    assert.equal(select.title, "Flash: text only · 1M-token context");
    showConfig(box, [{ type: "select", id: "model", name: "Model", description: "The model", category: "model", currentValue: "listed", options }], () => undefined);
    assert.equal(box.querySelector("select")?.title, "The model", "a value without a description: the option's own");
  });
});

describe("the review list", () => {
  it("shows each file relative with its +/− counts, and View all changes", () => {
    const box = document.createElement("section");
    const sent: FromWebview[] = [];
    showReview(box, [{ path: "/ws/src/a.go", created: false, added: 3, removed: 1 }], (m) => sent.push(m), "/ws");
    assert.equal(box.querySelector(".path")?.textContent, "src/a.go");
    assert.equal(box.querySelector('[data-testid="review-counts"]')?.textContent, "+3 −1");
    box.querySelector<HTMLElement>('[data-testid="review-view-all"]')?.click();
    assert.deepEqual(sent, [{ type: "reviewAll", action: "view" }]);
  });

  it("speaks the edited file's words: Keep / Undo per file and for all, each explained", () => {
    const box = document.createElement("div");
    const sent: unknown[] = [];
    showReview(box, [{ path: "/ws/a.go", created: false, added: 1, removed: 0 }], (m) => sent.push(m), "/ws");
    const buttons = [...box.querySelectorAll("button")].map((b) => b.textContent);
    assert.deepEqual(buttons, ["Diff", "Keep", "Undo", "View all changes", "Keep all", "Undo all"]);
    for (const b of box.querySelectorAll('.review-row button')) assert.notEqual(b.getAttribute("title") ?? "", "", `${b.textContent} has a tooltip`);
    box.querySelector<HTMLElement>('[data-testid="review-reject"]')?.click();
    assert.deepEqual(sent, [{ type: "review", action: "reject", path: "/ws/a.go" }]);
  });

  it("makes Keep all the one primary button; every other is secondary", () => {
    const box = document.createElement("div");
    showReview(box, [{ path: "/ws/a.go", created: false, added: 1, removed: 0 }], () => undefined, "/ws");
    const primary = [...box.querySelectorAll("button")].filter((b) => !b.classList.contains("secondary")).map((b) => b.textContent);
    assert.deepEqual(primary, ["Keep all"]);
  });

  it("keeps a new file's (new) out of the name that is cut short", () => {
    const box = document.createElement("div");
    showReview(box, [{ path: "/ws/a-very-long-directory-name/and-a-longer-file-name.go", created: true, added: 4, removed: 0 }], () => undefined, "/ws");
    assert.equal(box.querySelector(".path")?.textContent, "a-very-long-directory-name/and-a-longer-file-name.go");
    assert.equal(box.querySelector('.review-row > [data-testid="review-created"]')?.textContent, "(new)");
  });

  it("lists an earlier conversation's changes under its title, after the current one's", () => {
    const box = document.createElement("div");
    showReview(
      box,
      [
        { path: "/ws/b.go", created: false, added: 1, removed: 0 },
        { path: "/ws/a.go", created: false, added: 2, removed: 1, conversation: "Fix the parser" },
        { path: "/ws/c.go", created: false, added: 2, removed: 1, conversation: "" },
      ],
      () => undefined,
      "/ws",
    );
    const shown = [...box.querySelectorAll(".review-group, .review-row")].map((e) => (e.classList.contains("review-group") ? e.textContent : e.getAttribute("data-path")));
    assert.deepEqual(shown, ["/ws/b.go", "From “Fix the parser”", "/ws/a.go", "From an earlier conversation", "/ws/c.go"]);
  });
});

describe("the context chip", () => {
  it("shows the editor's context, leaves it out once removed, and comes back with a new one", () => {
    const box = document.createElement("div");
    box.innerHTML = '<span class="context-label"></span><button class="context-remove">×</button>';
    const chip = new ContextChip(box);
    assert.equal(chip.active, false);
    chip.offer("src/a.go:3-4");
    assert.equal(chip.active, true);
    assert.equal(box.hidden, false);
    assert.equal(box.querySelector(".context-label")?.textContent, "src/a.go:3-4");
    box.querySelector<HTMLElement>(".context-remove")?.click();
    assert.equal(chip.active, false);
    assert.equal(box.hidden, true);
    chip.offer("src/a.go:3-4");
    assert.equal(chip.active, false, "the same context stays removed");
    chip.offer("src/b.go");
    assert.equal(chip.active, true);
  });
});
