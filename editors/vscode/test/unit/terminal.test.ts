import { strict as assert } from "node:assert";
import { beforeEach, describe, it } from "node:test";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { BufferedPty, exitLine, toTerminalText } from "../../src/terminal/bufferedPty";
import { CommandTerminals, terminalExit, terminalInfo, terminalOutput } from "../../src/terminal/terminals";
import { stub } from "../stubs/control";

describe("buffered pseudoterminal", () => {
  it("keeps writes made before open and flushes them in order", () => {
    const pty = new BufferedPty();
    const seen: string[] = [];
    pty.onDidWrite((d) => seen.push(d));
    pty.write("one\n");
    pty.write("two\n");
    assert.deepEqual(seen, []);
    assert.equal(pty.buffered.length, 2);
    pty.open();
    pty.write("three");
    assert.deepEqual(seen, ["one\r\n", "two\r\n", "three"]);
    assert.equal(pty.buffered.length, 0);
  });

  it("shows the exit status once", () => {
    const pty = new BufferedPty();
    const seen: string[] = [];
    pty.onDidWrite((d) => seen.push(d));
    pty.open();
    pty.finish(2);
    pty.finish(0);
    assert.equal(pty.status, "status 2");
    assert.deepEqual(seen, [exitLine(2, undefined)]);
  });

  const lines: [string, string][] = [
    ["a\nb", "a\r\nb"],
    ["a\r\nb", "a\r\nb"],
    ["", ""],
  ];
  for (const [input, want] of lines) it(`converts ${JSON.stringify(input)}`, () => assert.equal(toTerminalText(input), want));
  it("names a signal", () => assert.match(exitLine(null, "SIGTERM"), /signal SIGTERM/));
});

describe("command terminals", () => {
  beforeEach(() => stub.reset());

  it("opens one terminal per announced command, fed by its output, ended by its exit", () => {
    const terms = new CommandTerminals();
    const start: SessionUpdate = { sessionUpdate: "tool_call", toolCallId: "b1", title: "Run", _meta: { terminal_info: { terminal_id: "t1", cwd: "/w" } } };
    terms.apply(start, () => "sh hello.sh");
    terms.apply(start, () => "again");
    assert.equal(stub.terminals.length, 1);
    assert.equal(stub.terminals[0]?.name, "dsh: sh hello.sh");
    assert.equal(stub.terminals[0].shown, true);
    terms.apply({ sessionUpdate: "tool_call_update", toolCallId: "b1", _meta: { terminal_output: { terminal_id: "t1", data: "hello\n" } } }, () => "");
    terms.apply({ sessionUpdate: "tool_call_update", toolCallId: "b1", _meta: { terminal_exit: { terminal_id: "t1", exit_code: 0 } } }, () => "");
    const pty = terms.get("t1");
    assert.deepEqual(pty?.buffered, ["hello\r\n", exitLine(0, undefined)]);
    assert.equal(pty.status, "status 0");
  });

  const metas: { name: string; got: unknown; want: unknown }[] = [
    { name: "info", got: terminalInfo({ terminal_info: { terminal_id: "t1", cwd: "/w" } }), want: { terminal_id: "t1", cwd: "/w" } },
    { name: "info without a string id", got: terminalInfo({ terminal_info: { terminal_id: 7 } }), want: undefined },
    { name: "info with a cwd that is no string", got: terminalInfo({ terminal_info: { terminal_id: "t1", cwd: 1 } }), want: { terminal_id: "t1" } },
    { name: "output", got: terminalOutput({ terminal_output: { terminal_id: "t1", data: "x" } }), want: { terminal_id: "t1", data: "x" } },
    { name: "output whose data is no string", got: terminalOutput({ terminal_output: { terminal_id: "t1", data: { x: 1 } } }), want: undefined },
    { name: "exit by status", got: terminalExit({ terminal_exit: { terminal_id: "t1", exit_code: 3, signal: null } }), want: { terminal_id: "t1", exit_code: 3, signal: null } },
    { name: "exit by signal", got: terminalExit({ terminal_exit: { terminal_id: "t1", exit_code: null, signal: "SIGKILL" } }), want: { terminal_id: "t1", exit_code: null, signal: "SIGKILL" } },
    { name: "exit with fields of the wrong type", got: terminalExit({ terminal_exit: { terminal_id: "t1", exit_code: "3", signal: 9 } }), want: { terminal_id: "t1", exit_code: undefined, signal: undefined } },
    { name: "no _meta", got: terminalExit(undefined), want: undefined },
  ];
  for (const m of metas) it(`reads _meta: ${m.name}`, () => assert.deepEqual(m.got, m.want));

  it("ignores calls without terminal_info", () => {
    const terms = new CommandTerminals();
    terms.apply({ sessionUpdate: "tool_call", toolCallId: "r1", title: "Read" }, () => "x");
    assert.equal(stub.terminals.length, 0);
  });

  it("ends a cancelled command's terminal with a line of its own, once", () => {
    const terms = new CommandTerminals();
    terms.apply({ sessionUpdate: "tool_call", toolCallId: "b1", title: "Run", _meta: { terminal_info: { terminal_id: "t1" } } }, () => "sleep 100");
    const pty = terms.get("t1");
    terms.apply({ sessionUpdate: "tool_call_update", toolCallId: "b1", status: "failed" }, () => "sleep 100");
    assert.equal(pty?.status, "cancelled");
    assert.match(pty.buffered.join(""), /\[dsh: command cancelled\]\r\n$/);
    terms.stopAll();
    assert.equal((pty.buffered.join("").match(/cancelled/g) ?? []).length, 1);
  });

  const stoppedCases: readonly { name: string; exit: Record<string, unknown>; line: RegExp }[] = [
    { name: "the signal that ended it", exit: { terminal_id: "t3", signal: "SIGTERM" }, line: /\[dsh: command cancelled, ended by signal SIGTERM\]\r\n$/ },
    { name: "the status it exited with", exit: { terminal_id: "t3", exit_code: 130, signal: null }, line: /\[dsh: command cancelled, exited with status 130\]\r\n$/ },
    { name: "nothing more when it never ran", exit: { terminal_id: "t3", exit_code: null, signal: null }, line: /\[dsh: command cancelled\]\r\n$/ },
  ];
  for (const c of stoppedCases) {
    it(`ends a command the agent stopped with one cancelled line, saying ${c.name}`, () => {
      const terms = new CommandTerminals();
      terms.apply({ sessionUpdate: "tool_call", toolCallId: "b3", title: "Run", _meta: { terminal_info: { terminal_id: "t3" } } }, () => "sleep 100");
      const pty = terms.get("t3");
      const end: SessionUpdate = { sessionUpdate: "tool_call_update", toolCallId: "b3", status: "failed", _meta: { terminal_output: { terminal_id: "t3", data: "so far\n" }, terminal_exit: c.exit, "dsh-acp": { stopped: true } } };
      assert.equal(terms.apply(end, () => "sleep 100"), pty);
      terms.stopAll();
      const text = pty?.buffered.join("") ?? "";
      assert.equal(pty?.status, "cancelled");
      assert.match(text, c.line);
      assert.equal((text.match(/\[dsh: command/g) ?? []).length, 1, text);
      assert.ok(text.startsWith("so far\r\n"), text);
    });
  }

  it("ends what a turn left running when it is over", () => {
    const terms = new CommandTerminals();
    terms.apply({ sessionUpdate: "tool_call", toolCallId: "b2", title: "Run", _meta: { terminal_info: { terminal_id: "t2" } } }, () => "sleep 100");
    terms.stopAll();
    assert.equal(terms.get("t2")?.status, "cancelled");
  });

  it("gives a command of another session its own terminal, with its own exit line, even when its id repeats", () => {
    const terms = new CommandTerminals();
    const start: SessionUpdate = { sessionUpdate: "tool_call", toolCallId: "b1", title: "Run", _meta: { terminal_info: { terminal_id: "b1" } } };
    const exit: SessionUpdate = { sessionUpdate: "tool_call_update", toolCallId: "b1", status: "completed", _meta: { terminal_exit: { terminal_id: "b1", exit_code: 0 } } };
    terms.apply(start, () => "sh greet.sh");
    terms.apply(exit, () => "sh greet.sh");
    terms.release();
    terms.apply(start, () => "sh greet.sh");
    terms.apply(exit, () => "sh greet.sh");
    assert.equal(stub.terminals.length, 2);
    const second = stub.terminals[1]?.pty as BufferedPty;
    assert.match(second.buffered.join(""), /exited with status 0/);
  });
});
