import { codeBlockHtml } from "./codeBlock";
import { escapeHtml } from "./dom";
import { relativeText } from "./paths";

/** A piece of a tool's output: plain text, or a fenced block's code. */
export type OutputPart = { readonly kind: "text"; readonly text: string } | { readonly kind: "code"; readonly lang: string; readonly code: string };

/** A code block's lines as `cat -n` numbers them (dsh-acp's read): the code without the numbers, the numbers, and the note after the lines. */
export interface NumberedCode {
  readonly code: string;
  readonly numbers: readonly number[];
  /** What follows the lines after a blank line ("(Showing lines 1-200 of 900. …)"); "" for nothing. */
  readonly note: string;
}

const OPEN = /^(`{3,})([^`]*)$/;
const NUMBERED = /^ *(\d+)\t/;

/**
 * A tool's text split into plain text and the fenced code blocks in it
 * (a fence opens at a line's start with three or more backticks and
 * closes at a line of at least as many; an unclosed one runs to the end).
 * Nothing else in the text is read as Markdown. Text that is only
 * whitespace is left out; code ends in a newline, as Markdown's does.
 */
export function outputParts(text: string): OutputPart[] {
  const parts: OutputPart[] = [];
  let plain: string[] = [];
  const flush = () => {
    const t = plain.join("\n");
    if (t.trim() !== "") parts.push({ kind: "text", text: t });
    plain = [];
  };
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN.exec(lines[i] ?? "");
    if (!open) {
      plain.push(lines[i] ?? "");
      continue;
    }
    flush();
    const fence = open[1] ?? "```";
    const code: string[] = [];
    for (i++; i < lines.length && !isClose(lines[i] ?? "", fence.length); i++) code.push(lines[i] ?? "");
    parts.push({ kind: "code", lang: (open[2] ?? "").trim().split(/\s+/)[0] ?? "", code: code.map((l) => `${l}\n`).join("") });
  }
  flush();
  return parts;
}

function isClose(line: string, n: number): boolean {
  return /^`+\s*$/.test(line) && line.trim().length >= n;
}

/**
 * code read as `cat -n` output — each line a right-aligned number and a
 * tab, then, after a blank line, optionally a note in parentheses — or
 * undefined when it is not that.
 */
export function numberedCode(code: string): NumberedCode | undefined {
  const lines = code.replace(/\n$/, "").split("\n");
  const numbers: number[] = [];
  const stripped: string[] = [];
  for (const line of lines) {
    const m = NUMBERED.exec(line);
    if (!m) break;
    numbers.push(Number(m[1]));
    stripped.push(line.slice(m[0].length));
  }
  const rest = lines.slice(numbers.length);
  if (numbers.length === 0) return undefined;
  if (rest.length > 0 && !(rest[0] === "" && rest[1]?.startsWith("("))) return undefined;
  return { code: stripped.map((l) => `${l}\n`).join(""), numbers, note: rest.slice(1).join("\n") };
}

function textHtml(text: string): string {
  return `<div class="tool-output" data-testid="tool-output">${escapeHtml(text)}</div>`;
}

/**
 * A tool's output as HTML: its text as it is (newlines kept, no
 * Markdown; paths inside the workspace folder root made relative), its
 * fenced blocks as code blocks (highlighted, with Copy and Insert), a
 * read's line numbers in the block's gutter rather than in its code.
 */
export function outputHtml(text: string, root: string | undefined): string {
  return outputParts(text)
    .map((p) => {
      if (p.kind === "text") return textHtml(relativeText(p.text, root));
      const numbered = numberedCode(p.code);
      if (!numbered) return codeBlockHtml(p.code, p.lang);
      return codeBlockHtml(numbered.code, p.lang, numbered.numbers) + (numbered.note ? textHtml(numbered.note) : "");
    })
    .join("");
}
