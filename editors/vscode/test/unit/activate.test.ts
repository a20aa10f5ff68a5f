import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import * as vscode from "vscode";
import { activate } from "../../src/extension";
import { COMMANDS } from "../../src/commands";
import { stub } from "../stubs/control";

function context(): vscode.ExtensionContext {
  const subscriptions: { dispose(): unknown }[] = [];
  const secrets = new Map<string, string>();
  return {
    subscriptions,
    extensionUri: { scheme: "file", path: "/ext", fsPath: "/ext" },
    extension: { packageJSON: { version: "0.1.0" } },
    workspaceState: { get: () => undefined, update: async () => undefined },
    secrets: {
      get: async (k: string) => secrets.get(k),
      store: async (k: string, v: string) => void secrets.set(k, v),
      delete: async (k: string) => void secrets.delete(k),
      onDidChange: () => ({ dispose: () => undefined }),
    },
  } as unknown as vscode.ExtensionContext;
}

describe("activation", () => {
  it("registers the chat view, the diff provider and exactly the contributed commands", () => {
    stub.reset();
    const ctx = context();
    activate(ctx);
    assert.ok(stub.viewProviders.has("dsh.chat"));
    assert.ok(stub.contentProviders.has("dsh-diff"));
    const pkg = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "..", "package.json"), "utf8")) as {
      contributes: { commands: { command: string }[] };
    };
    const contributed = pkg.contributes.commands.map((c) => c.command).sort();
    assert.deepEqual([...stub.commands.keys()].sort(), contributed);
    assert.deepEqual(Object.values(COMMANDS).sort(), contributed);
    for (const s of ctx.subscriptions) s.dispose();
  });

  it("puts New, History and New tab in the Agent view's title as icons, acting on the view's own conversation", async () => {
    stub.reset();
    const ctx = context();
    const api = activate(ctx);
    const pkg = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "..", "package.json"), "utf8")) as {
      contributes: { commands: { command: string; icon?: string }[]; menus: { "view/title"?: { command: string; when: string; group: string }[] } };
    };
    const title = pkg.contributes.menus["view/title"] ?? [];
    const icon = (id: string) => pkg.contributes.commands.find((c) => c.command === id)?.icon;
    assert.deepEqual(
      title.map((m) => [m.command, m.when, m.group.split("@")[0], icon(m.command)]),
      [
        [COMMANDS.viewNewSession, "view == dsh.chat", "navigation", "$(add)"],
        [COMMANDS.viewConversations, "view == dsh.chat", "navigation", "$(history)"],
        [COMMANDS.newConversationTab, "view == dsh.chat", "navigation", "$(link-external)"],
      ],
    );
    // An editor tab's conversation is the active one; the view's New still starts the view's.
    await stub.commands.get(COMMANDS.newConversationTab)?.();
    assert.notEqual(api.chats.active, api.controller);
    let started = 0;
    api.controller.newSession = async () => {
      started++;
    };
    await stub.commands.get(COMMANDS.viewNewSession)?.();
    assert.equal(started, 1);
    for (const s of ctx.subscriptions) s.dispose();
  });

  it("opens a new conversation in an editor tab beside the Agent view's, each the active chat while in front", async () => {
    stub.reset();
    const ctx = context();
    const api = activate(ctx);
    assert.equal(api.chats.all().length, 1);
    await stub.commands.get(COMMANDS.newConversationTab)?.();
    const panel = stub.panels[0];
    assert.ok(panel, "a webview panel opened");
    assert.equal(panel.viewType, "dsh.conversation");
    assert.match(panel.webview.html, /data-testid="chat-input"/);
    assert.equal(api.chats.all().length, 2);
    const tab = api.chats.active;
    assert.notEqual(tab, api.controller, "the new tab's conversation is in front");
    panel.focus(false);
    api.chats.activate(api.controller);
    panel.focus(true);
    assert.equal(api.chats.active, tab);
    panel.dispose();
    assert.deepEqual(api.chats.all(), [api.controller], "closing the tab closes its conversation");
    for (const s of ctx.subscriptions) s.dispose();
  });

  it("activates once the window has started, so a kept review shows in the editor with no dsh view open, and starts no dsh-acp for it", () => {
    stub.reset();
    const ctx = context();
    const api = activate(ctx);
    const pkg = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "..", "package.json"), "utf8")) as { activationEvents: string[] };
    assert.ok(pkg.activationEvents.includes("onStartupFinished"));
    assert.ok(stub.codeLensProviders.length > 0, "the review's Keep / Undo are offered");
    assert.equal(api.host.started, false, "no process until a view or a command needs one");
    for (const s of ctx.subscriptions) s.dispose();
  });

  it("brings a conversation tab back after a window reload, in the panel VS Code kept", async () => {
    stub.reset();
    const ctx = context();
    const api = activate(ctx);
    const pkg = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "..", "package.json"), "utf8")) as { activationEvents: string[] };
    assert.ok(pkg.activationEvents.includes("onWebviewPanel:dsh.conversation"), "a kept tab activates the extension");
    const serializer = stub.panelSerializers.get("dsh.conversation") as vscode.WebviewPanelSerializer | undefined;
    assert.ok(serializer, "tabs are restored");
    const kept = vscode.window.createWebviewPanel("dsh.conversation", "dsh: Add a changelog", vscode.ViewColumn.Active);
    await serializer.deserializeWebviewPanel(kept, { sessionId: "s9" });
    assert.equal(api.chats.all().length, 2, "the kept tab has its conversation again");
    assert.match(kept.webview.html, /data-testid="chat-input"/);
    kept.dispose();
    assert.deepEqual(api.chats.all(), [api.controller]);
    for (const s of ctx.subscriptions) s.dispose();
  });

  it("bundles no read of the navigator global (VS Code's host logs PendingMigrationError for each)", () => {
    const bundle = readFileSync(path.join(__dirname, "..", "..", "..", "dist", "extension.js"), "utf8");
    assert.doesNotMatch(bundle, /\bnavigator\b/);
  });

  it("names its view so that it does not read as VS Code's own Chat", () => {
    const pkg = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "..", "package.json"), "utf8")) as {
      contributes: { views: { dsh: { name: string }[] } };
    };
    assert.notEqual(pkg.contributes.views.dsh[0]?.name, "Chat");
  });

  it("contributes a walkthrough whose steps exist and whose command links are the extension's", () => {
    const root = path.join(__dirname, "..", "..", "..");
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
      contributes: { commands: { command: string }[]; walkthroughs: { steps: { description: string; media: { markdown: string } }[] }[] };
    };
    const commands = new Set([...pkg.contributes.commands.map((c) => c.command), "dsh.chat.focus"]);
    const steps = pkg.contributes.walkthroughs[0]?.steps ?? [];
    assert.ok(steps.length >= 3);
    for (const s of steps) {
      assert.ok(readFileSync(path.join(root, s.media.markdown), "utf8").length > 0, s.media.markdown);
      for (const m of s.description.matchAll(/\(command:([\w.]+)\)/g)) assert.ok(commands.has(m[1] ?? ""), m[1]);
    }
  });
});
