import type { SessionInfo } from "@agentclientprotocol/sdk";
import * as vscode from "vscode";
import { lastUsedFormat, lastUsedText } from "../chat/lastUsed";
import type { AgentPort } from "./agentPort";

/** Titles the user gave conversations, kept by the extension (ACP has no rename), by session id. */
export interface SessionTitles {
  get(sessionId: string): string | undefined;
  /** Sets (or, undefined, forgets) a session's title. */
  set(sessionId: string, title: string | undefined): void;
}

/** The sessions as the user sees them: each one's own title in place of the agent's. */
export function retitled(sessions: readonly SessionInfo[], titles: SessionTitles | undefined): SessionInfo[] {
  return sessions.map((s) => {
    const own = titles?.get(s.sessionId);
    return own === undefined ? s : { ...s, title: own };
  });
}

/** What History drives. */
export interface HistoryDeps {
  readonly agent: () => Promise<AgentPort>;
  readonly cwd: () => string;
  readonly titles: SessionTitles | undefined;
  /** The session shown now, if any. */
  readonly current: () => string | undefined;
  /** Whether another view (the sidebar, an editor tab) shows sessionId: picking it brings that view forward. */
  readonly shownElsewhere?: (sessionId: string) => boolean;
  /** Opens a stored session in the chat. */
  readonly open: (sessionId: string) => Promise<void>;
  /** The current session was deleted: the chat starts afresh. */
  readonly forgetCurrent: () => void;
  /** The list changed (titles, deletions): the chat lists the sessions again. */
  readonly changed: () => Promise<void>;
}

interface Item extends vscode.QuickPickItem {
  readonly session: SessionInfo;
}

const RENAME: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon("edit"), tooltip: "Rename" };
const DELETE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon("trash"), tooltip: "Delete" };

/**
 * The conversations of the workspace in a QuickPick, newest first, each
 * with its date; typing searches titles and dates (VS Code's own
 * filter). Each row opens its session, and has Rename (a title kept by
 * the extension) and, when the agent advertises
 * sessionCapabilities.delete, Delete (session/delete, after a modal
 * confirmation).
 */
export class History {
  private readonly deps: HistoryDeps;

  constructor(deps: HistoryDeps) {
    this.deps = deps;
  }

  // Where the session is already open: "(open)" in this view, "(open in another view)" elsewhere; "" if nowhere.
  private openLabel(sessionId: string): string {
    if (sessionId === this.deps.current()) return "(open)";
    return this.deps.shownElsewhere?.(sessionId) ? "(open in another view)" : "";
  }

  /** Shows the list; resolves once it is closed (a chosen session has opened). */
  async pick(): Promise<void> {
    const agent = await this.deps.agent();
    const canDelete = (await agent.capabilities()).sessionCapabilities?.delete != null;
    const qp = vscode.window.createQuickPick<Item>();
    qp.title = "dsh: conversations";
    qp.placeholder = "Search the conversations by title or date";
    qp.matchOnDescription = true;
    // Opened from the chat view, a webview: focus going back to it (as it does when Rename's box or the
    // delete confirmation closes and the list shows again) must not close the list. Escape does.
    qp.ignoreFocusOut = true;
    const fill = async (): Promise<void> => {
      const { sessions } = await agent.listSessions(this.deps.cwd());
      const newest = retitled(sessions, this.deps.titles).sort((a, b) => (b.updatedAt ?? "").localeCompare(a.updatedAt ?? ""));
      const format = lastUsedFormat(undefined, true);
      qp.items = newest.map((s) => ({
        label: (s.title ?? "").trim() || "Untitled conversation",
        description: [lastUsedText(s.updatedAt, format), this.openLabel(s.sessionId)].filter((x) => x).join(" "),
        buttons: canDelete ? [RENAME, DELETE] : [RENAME],
        session: s,
      }));
    };
    await fill();
    const closed = new Promise<void>((resolve) => qp.onDidHide(() => resolve()));
    let chosen: Item | undefined;
    // A rename or a delete closes the list (its own prompt takes the focus), which then shows again, changed.
    let action: (() => Promise<void>) | undefined;
    qp.onDidAccept(() => {
      chosen = qp.selectedItems[0];
      qp.hide();
    });
    qp.onDidTriggerItemButton((e) => {
      action = e.button === DELETE ? () => this.remove(e.item.session) : () => this.rename(e.item.session);
      qp.hide();
    });
    qp.show();
    await closed;
    qp.dispose();
    if (chosen) return this.deps.open(chosen.session.sessionId);
    if (action) {
      await action();
      return this.pick();
    }
  }

  /** Asks for a new title and keeps it (an empty one gives the agent's title back). */
  async rename(session: Pick<SessionInfo, "sessionId" | "title">): Promise<void> {
    const title = await vscode.window.showInputBox({ title: "Rename the conversation", value: this.deps.titles?.get(session.sessionId) ?? session.title ?? "", prompt: "Empty gives the agent's title back", ignoreFocusOut: true });
    if (title === undefined) return;
    this.deps.titles?.set(session.sessionId, title.trim() === "" ? undefined : title.trim());
    await this.deps.changed();
  }

  /** Deletes a stored session (session/delete) once the user confirms; the open one leaves the chat. */
  async remove(session: Pick<SessionInfo, "sessionId" | "title">): Promise<void> {
    const name = this.deps.titles?.get(session.sessionId) ?? session.title ?? "Untitled conversation";
    const ok = await vscode.window.showWarningMessage(`Delete the conversation “${name}”?`, { modal: true, detail: "dsh forgets it for good; the files it changed stay as they are." }, "Delete");
    if (ok !== "Delete") return;
    await (await this.deps.agent()).deleteSession(session.sessionId);
    this.deps.titles?.set(session.sessionId, undefined);
    if (this.deps.current() === session.sessionId) this.deps.forgetCurrent();
    await this.deps.changed();
  }
}
