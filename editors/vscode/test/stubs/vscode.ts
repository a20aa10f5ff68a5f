// A stand-in for the `vscode` module, enough of it for the extension's
// handlers to run in plain Node under `node --test`. Files live on the real
// disk (tests use temporary directories); documents, edits, prompts,
// terminals and commands are recorded in `stub` for tests to inspect and
// script.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";

/** A disposable. */
export class Disposable {
  private readonly fn: () => void;
  constructor(fn: () => void) {
    this.fn = fn;
  }
  dispose(): void {
    this.fn();
  }
}

const noop = (): Disposable => new Disposable(() => undefined);

/** A URI: scheme, path and query. */
export class Uri {
  readonly scheme: string;
  readonly path: string;
  readonly query: string;
  private constructor(scheme: string, path: string, query: string) {
    this.scheme = scheme;
    this.path = path;
    this.query = query;
  }
  static parse(s: string): Uri {
    const m = /^([a-z][a-z0-9+.-]*):(.*)$/i.exec(s);
    return new Uri(m?.[1] ?? "file", m?.[2] ?? s, "");
  }
  static file(p: string): Uri {
    return new Uri("file", nodePath.resolve(p), "");
  }
  static from(c: { scheme: string; path?: string; query?: string }): Uri {
    return new Uri(c.scheme, c.path ?? "", c.query ?? "");
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(base.scheme, nodePath.posix.join(base.path, ...parts), base.query);
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return `${this.scheme}:${this.path}${this.query ? `?${this.query}` : ""}`;
  }
}

/** A 0-based line and character. */
export class Position {
  readonly line: number;
  readonly character: number;
  constructor(line: number, character: number) {
    this.line = line;
    this.character = character;
  }
}

/** A range between two positions. */
export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(start: Position, end: Position) {
    this.start = start;
    this.end = end;
  }
}

/** An event source. */
export class EventEmitter<T> {
  private readonly listeners: ((e: T) => void)[] = [];
  readonly event = (listener: (e: T) => void): Disposable => {
    this.listeners.push(listener);
    return new Disposable(() => this.listeners.splice(this.listeners.indexOf(listener), 1));
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners.length = 0;
  }
}

/** One recorded edit operation. */
export type EditOp =
  | { kind: "replace"; uri: Uri; range: Range; text: string }
  | { kind: "insert"; uri: Uri; position: Position; text: string }
  | { kind: "createFile"; uri: Uri }
  | { kind: "deleteFile"; uri: Uri };

/** A WorkspaceEdit that records its operations. */
export class WorkspaceEdit {
  readonly ops: EditOp[] = [];
  replace(uri: Uri, range: Range, text: string): void {
    this.ops.push({ kind: "replace", uri, range, text });
  }
  insert(uri: Uri, position: Position, text: string): void {
    this.ops.push({ kind: "insert", uri, position, text });
  }
  createFile(uri: Uri): void {
    this.ops.push({ kind: "createFile", uri });
  }
  deleteFile(uri: Uri): void {
    this.ops.push({ kind: "deleteFile", uri });
  }
}

function offsetAt(text: string, p: Position): number {
  const lines = text.split("\n");
  let off = 0;
  for (let i = 0; i < p.line && i < lines.length; i++) off += (lines[i] ?? "").length + 1;
  return Math.min(text.length, off + p.character);
}

/** An open text document held in memory; save() writes it to disk. */
export class TextDocument {
  readonly uri: Uri;
  text: string;
  isDirty = false;
  saves = 0;
  constructor(uri: Uri, text: string) {
    this.uri = uri;
    this.text = text;
  }
  getText(range?: Range): string {
    return range ? this.text.slice(offsetAt(this.text, range.start), offsetAt(this.text, range.end)) : this.text;
  }
  get lineCount(): number {
    return this.text.split("\n").length;
  }
  positionAt(offset: number): Position {
    const before = this.text.slice(0, offset).split("\n");
    return new Position(before.length - 1, (before.at(-1) ?? "").length);
  }
  async save(): Promise<boolean> {
    mkdirSync(nodePath.dirname(this.uri.fsPath), { recursive: true });
    writeFileSync(this.uri.fsPath, this.text);
    this.isDirty = false;
    this.saves++;
    return true;
  }
}

/** A terminal created through createTerminal. */
export interface StubTerminal {
  readonly name: string;
  readonly pty: unknown;
  readonly shellPath: string | undefined;
  readonly shellArgs: string[] | undefined;
  shown: boolean;
  disposed: boolean;
  show(preserveFocus?: boolean): void;
  dispose(): void;
}

/** A status bar item. */
export interface StubStatusBarItem {
  text: string;
  tooltip: string | undefined;
  name: string | undefined;
  command: string | undefined;
  visible: boolean;
  show(): void;
  hide(): void;
  dispose(): void;
}

type Answer = string | undefined | Promise<string | undefined>;

/** An icon by id. */
export class ThemeIcon {
  readonly id: string;
  constructor(id: string) {
    this.id = id;
  }
}

/** A button of a quick input. */
export interface StubQuickInputButton {
  readonly iconPath: unknown;
  readonly tooltip?: string;
}

export const QuickInputButtons = { Back: { iconPath: new ThemeIcon("arrow-left"), tooltip: "Back" } as StubQuickInputButton };

/** An item of a stub QuickPick. */
export interface StubQuickPickItem {
  readonly label: string;
  readonly description?: string;
  readonly buttons?: readonly unknown[];
}

/**
 * A QuickPick or an InputBox (one class holds what either has: items and
 * picks, value and validation): shown, hidden, accepted, buttons. Tests
 * drive it through choose(), type(), accept(), press() and hide().
 */
export class StubQuickInput {
  readonly kind: "pick" | "input";
  title: string | undefined;
  step: number | undefined;
  totalSteps: number | undefined;
  placeholder: string | undefined;
  prompt: string | undefined;
  buttons: readonly StubQuickInputButton[] = [];
  ignoreFocusOut = false;
  visible = false;
  disposed = false;
  items: readonly StubQuickPickItem[] = [];
  activeItems: readonly StubQuickPickItem[] = [];
  selectedItems: readonly StubQuickPickItem[] = [];
  canSelectMany = false;
  matchOnDetail = false;
  matchOnDescription = false;
  value = "";
  validationMessage: string | undefined;
  private readonly accepted = new EventEmitter<undefined>();
  private readonly hidden = new EventEmitter<undefined>();
  private readonly triggered = new EventEmitter<StubQuickInputButton>();
  private readonly changed = new EventEmitter<string>();
  private readonly itemButtons = new EventEmitter<{ button: unknown; item: unknown }>();
  readonly onDidAccept = this.accepted.event;
  readonly onDidHide = this.hidden.event;
  readonly onDidTriggerButton = this.triggered.event;
  readonly onDidChangeValue = this.changed.event;
  readonly onDidTriggerItemButton = this.itemButtons.event;
  constructor(kind: "pick" | "input") {
    this.kind = kind;
  }
  show(): void {
    this.visible = true;
    stub.quickInputs.push(this);
    stub.onQuickInput(this);
    if (this.kind === "pick") stub.quickPickShown(this);
  }
  hide(): void {
    if (!this.visible) return;
    this.visible = false;
    this.hidden.fire(undefined);
  }
  dispose(): void {
    this.disposed = true;
  }
  /** The user pressed Enter, on the item labelled label when one is given. */
  accept(label?: string): void {
    if (label !== undefined) this.selectedItems = this.items.filter((i) => i.label === label);
    this.accepted.fire(undefined);
  }
  /**
   * The user clicked the input's button with tooltip, or, given n, button
   * number n of the item labelled tooltip.
   */
  press(tooltip: string, n?: number): void {
    if (n !== undefined) {
      const item = this.items.find((i) => i.label === tooltip);
      this.itemButtons.fire({ button: item?.buttons?.[n], item });
      return;
    }
    const b = this.buttons.find((x) => x.tooltip === tooltip);
    if (!b) throw new Error(`no button ${tooltip} among ${this.buttons.map((x) => x.tooltip).join(", ")}`);
    this.triggered.fire(b);
  }
  /** The user chose the items labelled so (Enter follows with accept()). */
  choose(...labels: string[]): void {
    const chosen = labels.map((l) => {
      const item = this.items.find((i) => i.label === l);
      if (!item) throw new Error(`no item ${l} among ${this.items.map((i) => i.label).join(", ")}`);
      return item;
    });
    this.selectedItems = chosen;
    this.activeItems = chosen.slice(0, 1);
  }
  /** The user typed text (replacing the value). */
  type(text: string): void {
    this.value = text;
    this.changed.fire(text);
  }
}

/** What tests inspect and script. */
export const stub = {
  settings: {} as Record<string, unknown>,
  /** Scripts showWarningMessage: called with (message, items), returns the clicked item. */
  warningAnswer: ((_message: string, _items: string[]): Answer => undefined) as (message: string, items: string[]) => Answer,
  warnings: [] as { message: string; options: unknown; items: string[]; closeAffordance?: string | undefined }[],
  infos: [] as string[],
  errors: [] as string[],
  /** Scripts showErrorMessage like warningAnswer. */
  errorAnswer: ((_message: string, _items: string[]): Answer => undefined) as (message: string, items: string[]) => Answer,
  quickPickAnswer: ((_items: unknown[]): unknown => undefined) as (items: unknown[]) => unknown,
  /** Every QuickPick and InputBox shown, in order. */
  quickInputs: [] as StubQuickInput[],
  /** Called when a QuickPick or InputBox shows: tests answer it there. */
  onQuickInput: ((_input: StubQuickInput): void => undefined) as (input: StubQuickInput) => void,
  /** Called when a QuickPick shows (after onQuickInput): it may accept an item or press an item's button. */
  quickPickShown: ((_qp: StubQuickPick): void => undefined) as (qp: StubQuickPick) => void,
  inputBoxAnswer: undefined as string | undefined,
  executed: [] as { command: string; args: unknown[] }[],
  clipboard: "",
  codeLensProviders: [] as unknown[],
  /** What findFiles answers (absolute paths). */
  workspaceFiles: [] as string[],
  findFilesCalls: [] as string[],
  editors: [] as StubTextEditor[],
  /** The editor tabs open (window.tabGroups.all holds one group of them). */
  tabs: [] as { input: unknown; label: string; isActive?: boolean }[],
  /** The webview panel serializers registered, by view type. */
  panelSerializers: new Map<string, unknown>(),
  /** What window.activeTextEditor answers. */
  activeEditor: undefined as StubTextEditor | undefined,
  decorationTypes: 0,
  opened: [] as string[],
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  edits: [] as WorkspaceEdit[],
  shownDocuments: [] as { path: string; options: unknown }[],
  terminals: [] as StubTerminal[],
  statusItems: [] as StubStatusBarItem[],
  viewProviders: new Map<string, unknown>(),
  panels: [] as StubWebviewPanel[],
  contentProviders: new Map<string, unknown>(),
  documents: [] as TextDocument[],
  closeTerminal: new EventEmitter<StubTerminal>(),
  /** Fires workspace.onDidChangeTextDocument (a test's edit of a document). */
  changeDocument: new EventEmitter<{ readonly document: TextDocument; readonly contentChanges: readonly unknown[] }>(),
  /** Opens a document holding text (unsaved when it differs from the disk). */
  openDocument(path: string, text: string): TextDocument {
    const doc = new TextDocument(Uri.file(path), text);
    doc.isDirty = !existsSync(path) || readFileSync(path, "utf8") !== text;
    this.documents.push(doc);
    return doc;
  },
  reset(): void {
    this.settings = {};
    this.warningAnswer = () => undefined;
    this.warnings = [];
    this.infos = [];
    this.errors = [];
    this.errorAnswer = () => undefined;
    this.quickPickAnswer = () => undefined;
    this.quickInputs = [];
    this.onQuickInput = () => undefined;
    this.quickPickShown = () => undefined;
    this.inputBoxAnswer = undefined;
    this.executed = [];
    this.clipboard = "";
    this.codeLensProviders = [];
    this.workspaceFiles = [];
    this.findFilesCalls = [];
    this.editors = [];
    this.tabs = [];
    this.activeEditor = undefined;
    this.opened = [];
    this.commands.clear();
    this.edits = [];
    this.shownDocuments = [];
    this.terminals = [];
    this.statusItems = [];
    this.viewProviders.clear();
    this.panels = [];
    this.contentProviders.clear();
    this.documents.length = 0;
  },
};

/** The control surface of this stub (the `stub` export). */
export type StubControl = typeof stub;

function findDoc(uri: Uri): TextDocument | undefined {
  if (uri.scheme !== "file") return stub.documents.find((d) => d.uri.toString() === uri.toString());
  return stub.documents.find((d) => d.uri.scheme === "file" && d.uri.fsPath === uri.fsPath);
}

async function openTextDocument(uri: Uri): Promise<TextDocument> {
  const open = findDoc(uri);
  if (open) return open;
  // A virtual document's text comes from its scheme's content provider.
  const provider = stub.contentProviders.get(uri.scheme) as { provideTextDocumentContent(u: Uri): string } | undefined;
  const doc = new TextDocument(uri, uri.scheme === "file" || !provider ? readFileSync(uri.fsPath, "utf8") : provider.provideTextDocumentContent(uri));
  stub.documents.push(doc);
  return doc;
}

async function applyEdit(edit: WorkspaceEdit): Promise<boolean> {
  stub.edits.push(edit);
  for (const op of edit.ops) {
    if (op.kind === "createFile") {
      if (!existsSync(op.uri.fsPath)) {
        mkdirSync(nodePath.dirname(op.uri.fsPath), { recursive: true });
        writeFileSync(op.uri.fsPath, "");
      }
    } else if (op.kind === "deleteFile") {
      rmSync(op.uri.fsPath, { force: true });
      const i = stub.documents.findIndex((d) => d.uri.fsPath === op.uri.fsPath);
      if (i >= 0) stub.documents.splice(i, 1);
    } else {
      const doc = await openTextDocument(op.uri);
      const start = offsetAt(doc.text, op.kind === "replace" ? op.range.start : op.position);
      const end = op.kind === "replace" ? offsetAt(doc.text, op.range.end) : start;
      doc.text = doc.text.slice(0, start) + op.text + doc.text.slice(end);
      doc.isDirty = true;
    }
  }
  return true;
}

export const workspace = {
  get textDocuments(): TextDocument[] {
    return stub.documents;
  },
  workspaceFolders: undefined as { uri: Uri }[] | undefined,
  fs: {
    async readFile(uri: Uri): Promise<Uint8Array> {
      return readFileSync(uri.fsPath);
    },
    async writeFile(uri: Uri, data: Uint8Array): Promise<void> {
      writeFileSync(uri.fsPath, data);
    },
    async stat(uri: Uri): Promise<{ size: number }> {
      return { size: statSync(uri.fsPath).size };
    },
    async createDirectory(uri: Uri): Promise<void> {
      mkdirSync(uri.fsPath, { recursive: true });
    },
    async rename(from: Uri, to: Uri): Promise<void> {
      renameSync(from.fsPath, to.fsPath);
    },
    async delete(uri: Uri): Promise<void> {
      rmSync(uri.fsPath);
    },
    async readDirectory(uri: Uri): Promise<[string, number][]> {
      return readdirSync(uri.fsPath).map((n) => [n, 1]);
    },
  },
  openTextDocument,
  applyEdit,
  getConfiguration(section: string) {
    return {
      get<T>(key: string, dflt: T): T {
        const v = stub.settings[`${section}.${key}`];
        return v === undefined ? dflt : (v as T);
      },
    };
  },
  registerTextDocumentContentProvider(scheme: string, provider: unknown): Disposable {
    stub.contentProviders.set(scheme, provider);
    return noop();
  },
  onDidChangeConfiguration: (): Disposable => noop(),
  onDidChangeTextDocument: (listener: (e: { readonly document: TextDocument; readonly contentChanges: readonly unknown[] }) => void): Disposable => stub.changeDocument.event(listener),
  async findFiles(include: string): Promise<Uri[]> {
    stub.findFilesCalls.push(include);
    return stub.workspaceFiles.map((p) => Uri.file(p));
  },
};

export const window = {
  // Items are strings or MessageItems; warnings and warningAnswer see their titles.
  async showWarningMessage<T extends string | { title: string }>(message: string, options: unknown, ...items: T[]): Promise<T | undefined> {
    const titles = items.map((i) => (typeof i === "string" ? i : i.title));
    const close = items.findIndex((i) => typeof i !== "string" && (i as { isCloseAffordance?: boolean }).isCloseAffordance === true);
    stub.warnings.push({ message, options, items: titles, closeAffordance: titles[close] });
    const answer = await stub.warningAnswer(message, titles);
    return items.find((_, n) => titles[n] === answer);
  },
  async showInformationMessage(message: string): Promise<undefined> {
    stub.infos.push(message);
    return undefined;
  },
  async showErrorMessage(message: string, ...items: string[]): Promise<string | undefined> {
    stub.errors.push(message);
    return stub.errorAnswer(message, items);
  },
  async showQuickPick(items: unknown[]): Promise<unknown> {
    return stub.quickPickAnswer(items);
  },
  createWebviewPanel(viewType: string, title: string): StubWebviewPanel {
    const panel = new StubWebviewPanel(viewType, title);
    stub.panels.push(panel);
    return panel;
  },
  async showInputBox(): Promise<string | undefined> {
    return stub.inputBoxAnswer;
  },
  createQuickPick(): StubQuickInput {
    return new StubQuickInput("pick");
  },
  createInputBox(): StubQuickInput {
    return new StubQuickInput("input");
  },
  async showTextDocument(doc: TextDocument, options: unknown): Promise<unknown> {
    stub.shownDocuments.push({ path: doc.uri.fsPath, options });
    return {};
  },
  createTerminal(opts: { name: string; pty?: unknown; shellPath?: string; shellArgs?: string[] }): StubTerminal {
    const t: StubTerminal = {
      name: opts.name,
      pty: opts.pty,
      shellPath: opts.shellPath,
      shellArgs: opts.shellArgs,
      shown: false,
      disposed: false,
      show() {
        t.shown = true;
      },
      dispose() {
        t.disposed = true;
        stub.closeTerminal.fire(t);
      },
    };
    stub.terminals.push(t);
    return t;
  },
  createStatusBarItem(): StubStatusBarItem {
    const item: StubStatusBarItem = {
      text: "",
      tooltip: undefined,
      name: undefined,
      command: undefined,
      visible: false,
      show() {
        item.visible = true;
      },
      hide() {
        item.visible = false;
      },
      dispose() {
        item.visible = false;
      },
    };
    stub.statusItems.push(item);
    return item;
  },
  onDidCloseTerminal(listener: (t: StubTerminal) => void): Disposable {
    return stub.closeTerminal.event(listener);
  },
  get visibleTextEditors(): StubTextEditor[] {
    return stub.editors;
  },
  onDidChangeVisibleTextEditors: (): Disposable => noop(),
  onDidChangeActiveTextEditor: (): Disposable => noop(),
  onDidChangeTextEditorSelection: (): Disposable => noop(),
  tabGroups: {
    get all(): { tabs: { input: unknown; label: string; isActive?: boolean }[] }[] {
      return [{ tabs: stub.tabs }];
    },
    async close(tabs: readonly { input: unknown; label: string }[]): Promise<boolean> {
      stub.tabs = stub.tabs.filter((t) => !tabs.includes(t));
      return true;
    },
  },
  get activeTextEditor(): StubTextEditor | undefined {
    return stub.activeEditor;
  },
  createTextEditorDecorationType(options: unknown): { key: string; options: unknown; dispose(): void } {
    return { key: `decoration-${++stub.decorationTypes}`, options, dispose: () => undefined };
  },
  registerWebviewPanelSerializer(viewType: string, serializer: unknown): Disposable {
    stub.panelSerializers.set(viewType, serializer);
    return noop();
  },
  registerWebviewViewProvider(id: string, provider: unknown): Disposable {
    stub.viewProviders.set(id, provider);
    return noop();
  },
};

export const env = {
  clipboard: {
    async writeText(text: string): Promise<void> {
      stub.clipboard = text;
    },
  },
  async openExternal(uri: Uri): Promise<boolean> {
    stub.opened.push(uri.toString());
    return true;
  },
};

export const commands = {
  registerCommand(command: string, fn: (...args: unknown[]) => unknown): Disposable {
    stub.commands.set(command, fn);
    return new Disposable(() => stub.commands.delete(command));
  },
  async executeCommand(command: string, ...args: unknown[]): Promise<unknown> {
    stub.executed.push({ command, args });
    return stub.commands.get(command)?.(...args);
  },
};

/** A theme colour by id. */
/** A webview panel (an editor tab) made by createWebviewPanel: what its script would post is fed with receive(). */
export class StubWebviewPanel {
  readonly viewType: string;
  title: string;
  iconPath: unknown;
  active = true;
  readonly posted: unknown[] = [];
  private readonly received = new EventEmitter<unknown>();
  private readonly disposed = new EventEmitter<void>();
  private readonly viewState = new EventEmitter<{ webviewPanel: StubWebviewPanel }>();
  readonly onDidDispose = this.disposed.event;
  readonly onDidChangeViewState = this.viewState.event;
  readonly webview = {
    options: {} as unknown,
    html: "",
    cspSource: "stub:",
    asWebviewUri: (u: Uri): Uri => u,
    postMessage: async (m: unknown): Promise<boolean> => {
      this.posted.push(m);
      return true;
    },
    onDidReceiveMessage: this.received.event,
  };
  constructor(viewType: string, title: string) {
    this.viewType = viewType;
    this.title = title;
  }
  /** The panel's script posts m. */
  receive(m: unknown): void {
    this.received.fire(m);
  }
  /** The user brings the panel to the front (active) or leaves it. */
  focus(active: boolean): void {
    this.active = active;
    this.viewState.fire({ webviewPanel: this });
  }
  dispose(): void {
    this.disposed.fire();
  }
}

/** A QuickPick as tests of the history see it: a StubQuickInput of kind "pick". */
export type StubQuickPick = StubQuickInput;

export class ThemeColor {
  readonly id: string;
  constructor(id: string) {
    this.id = id;
  }
}

/** Markdown text (hovers). */
export class MarkdownString {
  readonly value: string;
  constructor(value = "") {
    this.value = value;
  }
}

/** A CodeLens: a range and its command. */
export class CodeLens {
  readonly range: Range;
  readonly command: { title: string; command: string; arguments?: unknown[] } | undefined;
  constructor(range: Range, command?: { title: string; command: string; arguments?: unknown[] }) {
    this.range = range;
    this.command = command;
  }
}

/** An editor showing a document; its decorations are kept by type key; edit() changes the document's text (unless not editable). */
export class StubTextEditor {
  readonly document: TextDocument;
  readonly decorations = new Map<string, { range: Range; hoverMessage?: unknown }[]>();
  selections: Range[] = [new Range(new Position(0, 0), new Position(0, 0))];
  /** false: edit() refuses, as for a read-only document. */
  editable = true;
  constructor(document: TextDocument) {
    this.document = document;
  }
  async edit(callback: (b: { replace(range: Range, text: string): void }) => void): Promise<boolean> {
    if (!this.editable) return false;
    const doc = this.document;
    const ops: { start: number; end: number; text: string }[] = [];
    callback({ replace: (range, text) => ops.push({ start: offsetAt(doc.text, range.start), end: offsetAt(doc.text, range.end), text }) });
    for (const o of ops.sort((a, b) => b.start - a.start)) doc.text = doc.text.slice(0, o.start) + o.text + doc.text.slice(o.end);
    doc.isDirty = true;
    return true;
  }
  setDecorations(type: { key: string }, options: { range: Range; hoverMessage?: unknown }[]): void {
    this.decorations.set(type.key, options);
  }
}

export const languages = {
  registerCodeLensProvider(_selector: unknown, provider: unknown): Disposable {
    stub.codeLensProviders.push(provider);
    return noop();
  },
};

/** VS Code's symbol kinds (an enum: SymbolKind[4] is "Class"). */
export enum SymbolKind { File, Module, Namespace, Package, Class, Method, Property, Field, Constructor, Enum, Interface, Function, Variable, Constant }

export const StatusBarAlignment = { Left: 1, Right: 2 } as const;
export const ViewColumn = { Active: -1, Beside: -2, One: 1 } as const;
